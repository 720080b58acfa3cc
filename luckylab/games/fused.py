"""Which seats an engine may play itself: the bots that declare a fused turn, and how they play.

An engine's ``play_out(choosers)`` may run its game's fused turn module
(``luckylab.games.kill.fast`` beside ``rules.py``) instead of asking the bots and applying
their actions, but only for a game of exactly the engine's rules (:func:`plays_as_written`), and
when every chooser is the ``choose`` of a
bot that says, with the class attribute ``fused_turn = "<game>"``, that the engine plays its
turns exactly as it would (same actions, same draws from its generator). The attribute must be
the bot's class's own (a subclass that changes the play does not inherit the promise), and the
bot must carry no state of its own but its generator (``rng``).

A fused turn module plays its game's default bot and the bots that differ from it only in a few
set choices (attack only when worth 3, foil only as the last one asked ...): its ``PLAYS`` names
those choices and the values it can play, the default bot's first. A bot class says which it
makes with its own ``fused_profile`` (``{"min_value": 3, "foil": "last"}``; none: the default
bot's play). Each seat's profile is read separately, so a table may mix such bots.

>>> all_fused([], "kill")
True
>>> all_fused([print], "kill")
False
>>> fused_profiles([], {"foil": ("cheapest", "last")})
[]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import attrgetter
from typing import Any

__all__ = ["Written", "all_fused", "as_written", "fused_profiles", "is_fused",
           "plays_as_written", "shared_action"]


class Written:
    """The methods a rules class plays by, as they were when the class was made (see
    :func:`as_written`): their names, and their values read all at once, looked up on the
    class as the game would (its own body first, then its mixins)."""

    __slots__ = ("names", "read", "values")

    def __init__(self, cls: type, names: tuple[str, ...]) -> None:
        self.names = frozenset(names)
        self.read: Callable[[type], Any] = (
            attrgetter(*names) if len(names) > 1 else lambda c: tuple(getattr(c, n) for n in names))
        self.values = self.read(cls)


def as_written(cls: type) -> Written:
    """The methods (functions, properties, static methods) of ``cls``'s own body and of the
    classes of its MRO defined in its own package (a game's ``view.py`` and ``ids.py`` mixins),
    as they are now: a rules class keeps this snapshot when it is made (``cls._as_written``),
    so :func:`plays_as_written` can tell later whether any was replaced, on the class, on a
    mixin or shadowed on the class. (The shared machinery, ``HandlerTable`` and ``GameBase``,
    is not watched, nor are class methods: a class method is made anew at each look-up.)"""
    package = cls.__module__.rpartition(".")[0]
    names: dict[str, None] = {}
    for klass in cls.__mro__:
        if klass is cls or (klass is not object
                            and klass.__module__.rpartition(".")[0] == package):
            for name, value in vars(klass).items():
                if callable(value) or isinstance(value, (property, staticmethod)):
                    names.setdefault(name)
    return Written(cls, tuple(names))


def plays_as_written(game: Any, cls: type) -> bool:
    """Whether ``game`` plays exactly the rules of ``cls`` that a fused turn module was written
    for: its class is ``cls`` itself (not a subclass, which may change a rule), no method of
    ``cls``'s (or of its package's mixins) was replaced since the class was made, and the game
    holds none of their names itself. Anything else plays through the readable rules (as
    ``checked=True`` does). A microsecond or two: every search rollout asks.

    >>> class Rules:
    ...     def can_attack(self, seat): return True
    >>> Rules._as_written = as_written(Rules)
    >>> class HouseRules(Rules):
    ...     def can_attack(self, seat): return False
    >>> plays_as_written(Rules(), Rules), plays_as_written(HouseRules(), Rules)
    (True, False)
    >>> game = Rules()
    >>> game.can_attack = lambda seat: False  # replaced on one game
    >>> plays_as_written(game, Rules)
    False
    >>> Rules.can_attack = lambda self, seat: False  # replaced on the class itself
    >>> plays_as_written(Rules(), Rules)
    False
    """
    if type(game) is not cls:
        return False
    written: Written = cls._as_written  # type: ignore[attr-defined]
    try:
        if written.read(cls) != written.values:  # one read in C, compared by identity first
            return False
    except AttributeError:  # a method deleted
        return False
    return written.names.isdisjoint(getattr(game, "__dict__", ()))


def is_fused(chooser: Callable[[Any], Any], game: str) -> bool:
    """Whether ``chooser`` is the ``choose`` of a bot whose turns ``game``'s engine plays itself.

    >>> is_fused(len, "kill")
    False
    """
    bot = getattr(chooser, "__self__", None)
    cls = type(bot)
    own = cls.__dict__
    return (own.get("fused_turn") == game
            and getattr(chooser, "__func__", None) is getattr(cls, "choose", None)
            and getattr(bot, "__dict__", {}).keys() == {"rng"})


def all_fused(choosers: Sequence[Callable[[Any], Any]], game: str) -> bool:
    """Whether every chooser is a bot whose turns ``game``'s engine plays itself (a chooser
    repeated, as one bot for every seat, is looked at once)."""
    last = None
    for chooser in choosers:
        if chooser is not last:
            if not is_fused(chooser, game):
                return False
            last = chooser
    return True


def fused_profiles(choosers: Sequence[Callable[[Any], Any]],
                   plays: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]] | None:
    """Each seat's play for a fused turn module whose choices are ``plays`` (choice -> the
    values it can play, the default first): the defaults, updated by the seat's bot class's
    own ``fused_profile``. None if a profile names a choice or a value the module does not
    play (then the engine plays through its readable rules). The choosers must be fused
    (:func:`all_fused`).

    >>> class Bot:
    ...     fused_profile = {"foil": "last"}
    ...     def choose(self, game): ...
    >>> plays = {"min_value": range(1, 10), "foil": ("cheapest", "last")}
    >>> fused_profiles([Bot().choose], plays)
    [{'min_value': 1, 'foil': 'last'}]
    >>> Bot.fused_profile = {"foil": "never"}
    >>> fused_profiles([Bot().choose], plays) is None
    True
    """
    defaults = {choice: values[0] for choice, values in plays.items()}
    out = []
    for chooser in choosers:
        profile = type(chooser.__self__).__dict__.get("fused_profile", {})  # type: ignore[attr-defined]
        for choice, value in profile.items():
            values = plays.get(choice)
            if values is None or type(value) is not type(values[0]) or value not in values:
                return None
        out.append({**defaults, **profile})
    return out


def shared_action(made: dict[tuple[Any, ...], Any], cls: type, *fields: Any) -> Any:
    """``cls(*fields)``, one instance shared through ``made`` (a fused turn module's cache:
    actions are frozen, so one object serves every turn that plays it); the cache is emptied
    when it holds 20,000, so its size stays bounded whatever the game.

    >>> made = {}
    >>> shared_action(made, tuple, "ab") is shared_action(made, tuple, "ab")
    True
    """
    key = (cls, *fields)
    action = made.get(key)
    if action is None:
        if len(made) >= 20_000:
            made.clear()
        action = made[key] = cls(*fields)
    return action
