"""Panic Island! bots that differ in one thing: memory.

* ``"none"`` (:class:`NoMemoryAgent`): remembers nothing, so every reveal is a random safe card.
* ``"perfect"`` (:class:`PerfectRecallAgent`): remembers every card it has seen, where it lies.
* ``"forgetful"`` (:class:`ForgetfulAgent`): remembers, but each remembered card is forgotten
  with probability ``forget`` at every turn.
* ``"random"`` (:class:`~luckylab.agents.base.RandomAgent`): any legal action, volcano included:
  the baseline that shows why knowing where the volcano lies matters.

All of them know what every player knows without memory: where the volcano lies
(``P-SETUP-2``), which places are empty, and which cards lie face up. The Gouga policy is one
number, ``gouga_at``: wake Gouga at the start of the first turn with at most that many seconds
left (``None``: never); ``wait_for_escape=True`` also waits until the raft and paddle are
found. While Gouga is awake the bot names the kind of a card it remembers, or, knowing none,
the kind most likely among the cards it does not know (it cannot stop Gouga of its own accord,
``P-GOUGA-1``).

Modelling choice: the players talk (the Thunder obstacle, "play in silence", shows that they
normally do), so a team's memory is modelled as *one* memory. One bot instance playing every
seat is that team; one instance per seat gives players who do not share what they remember.
A bot reads ``game.events`` to learn what was revealed, and the table through its seat's view
(``game.view(seat)``, :class:`~luckylab.games.panic.PanicView`), where a face-down card is
hidden: it works from public information only.

>>> from luckylab import new_game
>>> game = new_game("panic", players=2, seed=3)
>>> bot = PerfectRecallAgent(seed=3, gouga_at=15)
>>> while not game.is_over:
...     _ = game.apply(bot.choose(game))
>>> game.score, game.won
(11, True)
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from ..errors import OptionError
from ..games.panic import GOUGA_KINDS, GougaCall, PanicGame, PanicView, Place, WakeGouga
from ..games.panic.data import COLOURS
from ..games.panic.rules import SAVER
from ..games.panic.tables import REVEAL
from .base import Agent, RandomAgent

__all__ = ["AGENTS", "DEFAULT", "ForgetfulAgent", "NoMemoryAgent", "PanicAgent",
           "PerfectRecallAgent"]

_OTHER_COLOUR = {"red": "yellow", "yellow": "red"}
DEFAULT_GOUGA_AT = 30.0
"""Seconds left when the bots wake Gouga unless told otherwise: the best mean score found by
:func:`luckylab.analysis.memory.gouga_sweep` for perfect recall (notebook 07 draws the curve)."""


class PanicAgent(Agent):
    """A Panic Island bot with a memory of ``place -> card id`` and a Gouga policy.

    Subclasses change only :meth:`forget_some` (and :class:`NoMemoryAgent` never remembers).
    """

    name = "panic"
    remembers = True
    forgets: bool = False
    """Whether the bot forgets (:meth:`forget_some` is its own): only then does it count the
    finished turns (set for each subclass by ``__init_subclass__``)."""
    trusted = True  # builds only legal actions (checked by tests/test_game_digests.py)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.forgets = cls.forget_some is not PanicAgent.forget_some

    def __init__(self, seed: int | random.Random | None = None,
                 gouga_at: float | None = DEFAULT_GOUGA_AT, wait_for_escape: bool = False) -> None:
        super().__init__(seed)
        self.gouga_at = gouga_at
        self.wait_for_escape = wait_for_escape
        self.known: dict[str, int] = {}
        self._game_id: int | None = None
        self._events_read = 0
        self._last_event: Any = None
        self._turns_read = 0
        self._viewed: PanicGame | None = None  # the game last played, its view and volcano
        self._view: PanicView | None = None
        self._volcano = ""

    def __repr__(self) -> str:
        wait = ", wait_for_escape=True" if self.wait_for_escape else ""
        return f"{type(self).__name__}(gouga_at={self.gouga_at}{wait})"

    # -- memory -----------------------------------------------------------------------------
    def observe(self, game: PanicGame, view: PanicView | None = None) -> None:
        """Read the events since the last look and update the memory (a new game resets it).
        ``view``: the game's view, if the caller has one (any seat's: the turn is public)."""
        events = game.events
        read = self._events_read
        if read > len(events) or self._game_id != id(game) and not (
                read and events[read - 1] == self._last_event):
            # another game; a copy of this one (a tournament's world) continues what was read
            read = self._events_read = self._turns_read = 0
            self.known = {}
        self._game_id = id(game)
        known, remember = self.known, self.remembers
        for kind, _text, data in events[self._events_read:]:
            if kind in ("reveal", "gouga_call", "place"):
                if remember:
                    known[data["place"]] = data["card"]
            elif kind in ("save", "found"):
                known.pop(data["place"], None)
            elif kind == "mirage":
                a, b = data["a"], data["b"]
                ka, kb = known.pop(a, None), known.pop(b, None)
                if kb is not None:
                    known[a] = kb
                if ka is not None:
                    known[b] = ka
            elif kind == "landslide":
                known.pop(data["from"], None)
        self._events_read = len(events)
        if events:
            self._last_event = events[-1]
        if self.forgets:
            turn = (view or game.view()).turn
            for _ in range(turn - self._turns_read):
                self.forget_some()
            self._turns_read = turn

    def forget_some(self) -> None:
        """Called once per finished turn. Perfect recall forgets nothing."""

    # -- decisions --------------------------------------------------------------------------
    def choose(self, game: PanicGame) -> Any:
        view = self._view if self._viewed is game else self.view_of(game)
        self.observe(game, view)
        phase = view.phase
        if phase == "place":
            return Place(self.rng.choice(view.empty_places()))
        revealable = view.revealable()
        volcano = self._volcano
        if volcano in revealable:  # the bots never turn the volcano (P-SETUP-2)
            revealable.remove(volcano)
        if phase == "gouga":
            return self.gouga_call(view, revealable)
        if phase == "turn":
            if self.wakes_gouga(view):
                return WakeGouga()
            return REVEAL[self.first_card(view, revealable)]
        return REVEAL[self.second_card(view, revealable)]

    def view_of(self, game: PanicGame) -> PanicView:
        """The table as the team sees it: ``game.view(seat)`` for the seat this bot first
        decides for in ``game``. A view is live, and in Panic Island! every seat sees the same
        table (nobody holds a hand), so one view serves the bot for the whole game."""
        if self._viewed is not game:
            view = self._view = game.view(game.current_player)
            self._volcano = view.volcano  # known to all from the start (P-SETUP-2)
            self._viewed = game
        return self._view  # type: ignore[return-value]

    def wakes_gouga(self, view: PanicView) -> bool:
        """The Gouga policy: at most ``gouga_at`` seconds left (and, with ``wait_for_escape``,
        the raft and paddle already found)."""
        if (self.gouga_at is None or view.time_left > self.gouga_at
                or not view.can_wake_gouga()):
            return False
        return not self.wait_for_escape or len(view.found) == 2

    def _split(self, view: PanicView, revealable: list[str]
               ) -> tuple[dict[str, Any], list[str]]:
        """The places that can be turned now, in their order, split in one pass: remembered
        (place -> card) and unknown."""
        memory, cards = self.known, view.cards
        known: dict[str, Any] = {}
        unknown: list[str] = []
        for p in revealable:
            card_id = memory.get(p)
            if card_id is None:
                unknown.append(p)
            else:
                known[p] = cards[card_id]
        return known, unknown

    def first_card(self, view: PanicView, revealable: list[str]) -> str:
        """A remembered raft or paddle first (no escape without them), then a remembered
        saving pair, else explore an unknown card."""
        known, unknown = self._split(view, revealable)
        finds = [p for p, c in known.items() if c.kind in ("raft", "paddle")]
        if finds and (not view.paddle_and_raft or len(finds) == 2):
            return finds[0]
        rainbow = view.rainbow
        savees: dict[tuple[str, str], str] = {}
        for p, card in known.items():
            if card.kind in ("dodo", "egg"):
                savees.setdefault((card.kind, card.colour), p)
        for p, card in known.items():
            if card.kind in SAVER:
                colour = card.colour if not rainbow else _OTHER_COLOUR[card.colour]
                if (SAVER[card.kind], colour) in savees:
                    return p
        return self._explore(revealable, known, unknown)

    def second_card(self, view: PanicView, revealable: list[str]) -> str:
        """The partner of the card now face up if remembered, else explore."""
        first = view.first_up
        known, unknown = self._split(view, revealable)
        partners = partner_keys(first, view.rainbow)
        for p, card in known.items():
            if (card.kind, card.colour) in partners:
                return p
        return self._explore(revealable, known, unknown)

    def _explore(self, revealable: list[str], known: dict[str, Any], unknown: list[str]) -> str:
        if unknown:
            return self.rng.choice(unknown)
        # Everything is remembered: turn a harmless card (an obstacle only if nothing else).
        calm = [p for p, c in known.items() if c.obstacle is None]
        return self.rng.choice(calm or revealable)

    def gouga_call(self, view: PanicView, revealable: list[str]) -> GougaCall:
        """Name the kind of a remembered card; knowing none, the likeliest kind, at random."""
        known, unknown = self._split(view, revealable)
        for p, card in known.items():
            if card.kind in GOUGA_KINDS:
                return GougaCall(card.kind, p)
        unknown = unknown or revealable
        left = view.unsaved_counts()
        for card_id in self.known.values():  # remembered cards are not behind unknown places
            card = view.card(card_id)
            if card.kind in left:
                left[card.kind] -= 1
        kind = max(GOUGA_KINDS, key=lambda k: left[k])
        return GougaCall(kind, self.rng.choice(unknown))


def partner_keys(first: Any, rainbow: bool) -> frozenset[tuple[str, str | None]]:
    """The ``(kind, colour)`` of every card that makes a pair with ``first`` face up: one it
    saves or one that saves it (``P-SAVE-1``; colours crossed under a Rainbow, ``P-OBS-3``),
    or, for the raft or the paddle, either of the two (``P-SAVE-2``). One set lookup per
    remembered card instead of two ``game.can_save`` calls.

    >>> from luckylab.games.panic import PanicCard
    >>> sorted(partner_keys(PanicCard(0, "dodo", "red"), rainbow=False))
    [('egg', 'red'), ('native', 'red')]
    >>> ("native", "yellow") in partner_keys(PanicCard(0, "dodo", "red"), rainbow=True)
    True
    """
    return _partner_keys(first.kind, first.colour, rainbow)


@lru_cache(maxsize=64)
def _partner_keys(kind: str, colour: str | None, rainbow: bool
                  ) -> frozenset[tuple[str, str | None]]:
    # as PanicGame.can_save: same colour, or (Rainbow) any other colour, None included
    colours = [c for c in (None, *COLOURS) if (c != colour if rainbow else c == colour)]
    keys: set[tuple[str, str | None]] = set()
    if kind in SAVER:  # first saves it
        keys.update((SAVER[kind], c) for c in colours)
    for saver, saved in SAVER.items():  # it saves first
        if saved == kind:
            keys.update((saver, c) for c in colours)
    if kind in ("raft", "paddle"):
        keys.update((k, c) for k in ("raft", "paddle") for c in (None, *COLOURS))
    return frozenset(keys)


class PerfectRecallAgent(PanicAgent):
    """Remembers every card it has seen, and where it lies."""

    name = "perfect"


class ForgetfulAgent(PanicAgent):
    """Remembers, but forgets each remembered card with probability ``forget`` per turn."""

    name = "forgetful"

    def __init__(self, seed: int | random.Random | None = None,
                 gouga_at: float | None = DEFAULT_GOUGA_AT, wait_for_escape: bool = False,
                 forget: float = 0.2) -> None:
        if not 0.0 <= forget <= 1.0:
            raise OptionError(f"forget is a probability, not {forget!r}")
        super().__init__(seed, gouga_at, wait_for_escape)
        self.forget = forget

    def __repr__(self) -> str:
        return f"ForgetfulAgent(gouga_at={self.gouga_at}, forget={self.forget})"

    def forget_some(self) -> None:
        rng, p = self.rng, self.forget
        # sorted: the same seed forgets the same cards whatever order memories were made in
        self.known = {place: card for place, card in sorted(self.known.items())
                      if rng.random() >= p}


class NoMemoryAgent(PanicAgent):
    """Remembers nothing: every reveal is a random safe card (it still avoids the volcano)."""

    name = "none"
    remembers = False


AGENTS: dict[str, type[Agent]] = {
    "perfect": PerfectRecallAgent,
    "forgetful": ForgetfulAgent,
    "none": NoMemoryAgent,
    "random": RandomAgent,
}
DEFAULT = "perfect"
