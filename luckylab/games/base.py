"""What every luckylab game shares: events, the state-machine face, turn-order helpers.

A game is a state machine (after OpenSpiel): ``current_player`` says who decides,
``legal_actions()`` lists what they may do, ``apply(action)`` validates, changes the state and
returns the :class:`Event` list it caused, and ``is_over``/``winner``/``loser`` tell the end.
``apply`` raises :class:`~luckylab.errors.IllegalAction` *before* changing anything, so a
refused action leaves the game exactly as it was.

Replays: a game is fully determined by its game name, options, seed and the actions applied,
which :meth:`GameBase.record` returns as plain JSON-ready data and
:func:`luckylab.games.record.replay` plays back.

This module owns no rules of any particular game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from .protocol import ChoiceGroup, Observation

if TYPE_CHECKING:
    from .actions import ActionSpace

__all__ = [
    "Event",
    "GameAction",
    "GameBase",
    "GameResult",
    "action_from_data",
    "check_options",
    "check_seed",
    "check_turn_cap",
    "inputs_sha256",
    "jump_target",
    "seats_from_left",
]


class Event(NamedTuple):
    """Something that happened, for logs, widgets and tests.

    ``kind`` is a short machine name ("move", "doctor_moves", "attempt", "foil", ...),
    ``text`` the plain-words sentence a student reads, ``data`` the details as plain data.
    (A named tuple: immutable, and cheap to make, since a game makes hundreds.)

    >>> Event("draw", "Janet draws a card.", {"seat": 0})
    Event(kind='draw', text='Janet draws a card.', data={'seat': 0})
    """

    kind: str
    text: str
    data: Mapping[str, Any] = MappingProxyType({})

    def __str__(self) -> str:
        return self.text


class GameAction:
    """Base of every game's actions, which are frozen dataclasses.

    A subclass names itself in game records with ``type_name``; :meth:`to_data` turns it into
    JSON-ready data (tuples become lists) and :func:`action_from_data` turns that back.
    """

    __slots__ = ()
    type_name: ClassVar[str] = "action"

    def check_fields(self) -> None:
        """Raise :class:`~luckylab.errors.ActionFieldError` if a field's value has the wrong
        type for its annotation: card ids and seats are ``int`` (never ``bool`` or ``float``),
        spaces ``str``, lists of cards tuples of ``int``. Games call it first in ``apply``.

        >>> from luckylab.games.save import PlayMove
        >>> PlayMove(3.0, "self", "Galley").check_fields()
        Traceback (most recent call last):
        luckylab.errors.ActionFieldError: PlayMove.card must be int (not bool or float), not 3.0
        """
        cls = type(self)
        spec = _FIELD_CHECKS.get(cls)
        if spec is None:
            spec = _FIELD_CHECKS[cls] = _field_checks(cls)
        for name, ok, allowed in spec:
            value = getattr(self, name)
            if not ok(value):
                from ..errors import ActionFieldError

                raise ActionFieldError(f"{cls.__name__}.{name} must be {allowed}, "
                                       f"not {value!r}")

    def to_data(self) -> dict[str, Any]:
        """``{"type": type_name, field: value, ...}``, ready for ``json.dumps``."""
        data: dict[str, Any] = {"type": self.type_name}
        for f in fields(self):  # type: ignore[arg-type]
            data[f.name] = _as_lists(getattr(self, f.name))
        return data


_FIELD_CHECKS: dict[type, tuple[tuple[str, Callable[[Any], bool], str], ...]] = {}


def _field_checks(cls: type) -> tuple[tuple[str, Callable[[Any], bool], str], ...]:
    """(field, predicate, words) for each field of an action class, from its annotations."""
    import sys

    namespace = vars(sys.modules[cls.__module__])
    out = []
    for f in fields(cls):  # type: ignore[arg-type]
        annotation = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")
        ok, words = _type_check(annotation, namespace)
        out.append((f.name, ok, words))
    return tuple(out)


def _is_int(v: Any) -> bool:
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))


_SIMPLE: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (_is_int, "int (not bool or float)"),
    "bool": (lambda v: isinstance(v, bool), "True or False"),
    "str": (lambda v: isinstance(v, str), "str"),
    "None": (lambda v: v is None, "None"),
}


def _split_top(text: str, sep: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def _type_check(annotation: str, namespace: Mapping[str, Any]
                ) -> tuple[Callable[[Any], bool], str]:
    """A predicate and its words for the small annotation language actions use."""
    import typing

    alternatives = _split_top(annotation, "|")
    if len(alternatives) > 1:
        checks = [_type_check(a, namespace) for a in alternatives]
        words = " or ".join(w for _, w in checks)
        if len(checks) == 2:  # the usual "int | None": no generator on the hot path
            first, second = checks[0][0], checks[1][0]
            return (lambda v: first(v) or second(v)), words
        return (lambda v: any(ok(v) for ok, _ in checks)), words
    text = annotation.strip()
    if text in _SIMPLE:
        return _SIMPLE[text]
    if text.startswith("tuple[") and text.endswith("]"):
        items = _split_top(text[6:-1], ",")
        if len(items) == 2 and items[1] == "...":
            inner, words = _type_check(items[0], namespace)

            def each(v: Any) -> bool:
                if not isinstance(v, tuple):
                    return False
                for x in v:  # noqa: SIM110 - a loop, not a generator, on the hot path
                    if not inner(x):
                        return False
                return True

            return each, f"a tuple of ({words})"
        checks = [_type_check(a, namespace) for a in items]
        oks = [ok for ok, _ in checks]
        words = "a tuple (" + ", ".join(w for _, w in checks) + ")"
        if len(oks) == 2:
            ok0, ok1 = oks
            return (lambda v: isinstance(v, tuple) and len(v) == 2 and ok0(v[0])
                    and ok1(v[1])), words
        return (lambda v: isinstance(v, tuple) and len(v) == len(oks)
                and all(ok(x) for ok, x in zip(oks, v, strict=False))), words
    alias = namespace.get(text)
    if typing.get_origin(alias) is typing.Literal:
        allowed = typing.get_args(alias)
        return (lambda v: isinstance(v, str) and v in allowed,
                " or ".join(map(repr, allowed)))
    if isinstance(alias, type):
        return (lambda v: isinstance(v, alias), f"a {text}")
    return (lambda v: True, text)  # not a type the actions use: the game's own checks apply


def check_seed(seed: Any) -> None:
    """Seeds are whole numbers >= 0 or None (``random.Random`` would treat ``-5`` as ``5``,
    accept ``nan`` without reproducing it, and a bytes seed cannot be written to a record).

    >>> check_seed(7)
    >>> check_seed(-5)
    Traceback (most recent call last):
    luckylab.errors.OptionError: seed must be a whole number >= 0 or None, not -5
    """
    if seed is not None and not (_is_int(seed) and seed >= 0):
        from ..errors import OptionError

        raise OptionError(f"seed must be a whole number >= 0 or None, not {seed!r}")


MAX_TURN_CAP = 20_000
"""The largest ``turn_cap`` a game takes: ten times the usual 2,000. A game that no rule ends
(players who never attack) stops there, at a bounded cost in time and memory."""


def check_turn_cap(turn_cap: Any) -> int:
    """``turn_cap`` if it is a whole number from 1 to :data:`MAX_TURN_CAP`, else
    :class:`~luckylab.errors.OptionError` (a cap of 10**18 would let a passive game run until
    memory runs out).

    >>> check_turn_cap(500)
    500
    >>> check_turn_cap(10**6)
    Traceback (most recent call last):
    luckylab.errors.OptionError: turn_cap must be a whole number from 1 to 20000, not 1000000
    """
    if not (_is_int(turn_cap) and 1 <= turn_cap <= MAX_TURN_CAP):
        from ..errors import OptionError

        raise OptionError(f"turn_cap must be a whole number from 1 to {MAX_TURN_CAP}, "
                          f"not {turn_cap!r}")
    return int(turn_cap)


def check_options(cls: type, game: str, players: Any, seed: Any,
                  options: Mapping[str, Any]) -> None:
    """Check ``new_game``'s arguments against the game class's signature before it starts:
    known option names only, and each value of its annotated type (``youre_out='no'`` and
    ``turn_cap=True`` are refused, not coerced). Ranges are the game's own checks.
    """
    import sys

    from ..errors import OptionError

    check_seed(seed)  # players: each game checks its own range (and refuses bools)
    if not options:  # nothing else to check (a simulation's games usually have no options)
        return
    params = _init_parameters(cls.__init__)
    known = [n for n, p in params.items() if p.kind is p.KEYWORD_ONLY]
    namespace = vars(sys.modules[cls.__module__])
    for name, value in options.items():
        if name not in known:
            raise OptionError(f"{game} has no option {name!r}; options: {', '.join(known)}")
        annotation = params[name].annotation
        if isinstance(annotation, str):
            ok, words = _type_check(annotation, namespace)
            if not ok(value):
                raise OptionError(f"{game} option {name} must be {words}, not {value!r}")


@lru_cache(maxsize=64)
def _init_parameters(init: Callable[..., Any]) -> Mapping[str, Any]:
    """A game class's ``__init__`` parameters, read once per class (``check_options`` runs for
    every new game, and ``inspect.signature`` is slow)."""
    import inspect

    return inspect.signature(init).parameters


def foreign_action(action: Any, game: str, title: str = "") -> str:
    """The start of the message for an action that is not one of ``game``'s (a clear word when
    it is another game's action with the same class name)."""
    module = getattr(type(action), "__module__", "")
    if isinstance(action, GameAction) and module.startswith("luckylab.games."):
        other = module.split(".")[2]  # luckylab.games.<game>.actions
        if other != game and other in _TITLES:
            return (f"{type(action).__name__} from luckylab.games.{other} is a "
                    f"{_TITLES.get(other, other)} action, not a {_TITLES.get(game, game)} "
                    f"action (import it from luckylab.games.{game})")
    return f"not a {title or _TITLES.get(game, game)} action: {action!r}"


_TITLES = {"island": "Island of Doctor Lucky", "kill": "Kill Doctor Lucky",
           "save": "Save Doctor Lucky", "panic": "Panic Island",
           "doctorwho": "Doctor Who: The Card Game"}


def action_from_data(actions: Iterable[type[GameAction]], data: Any, game: str) -> GameAction:
    """Rebuild one of ``actions`` from its :meth:`GameAction.to_data` (for replays).

    Raises :class:`~luckylab.errors.IllegalAction` for data that is no such action.
    """
    from ..errors import IllegalAction

    by_name = {cls.type_name: cls for cls in actions}
    try:
        cls = by_name[data["type"]]
        return cls(**{k: _as_tuples(v) for k, v in data.items() if k != "type"})
    except (KeyError, TypeError, ValueError) as exc:
        raise IllegalAction(f"not {game} action: {data!r} ({exc!r}); action types: "
                            f"{', '.join(sorted(by_name))}") from None


def _as_lists(value: Any) -> Any:
    return [_as_lists(v) for v in value] if isinstance(value, tuple) else value


def _as_tuples(value: Any) -> Any:
    return tuple(_as_tuples(v) for v in value) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one finished (or capped) game ended, as plain data for tables and plots."""

    game: str
    players: int
    seed: int | None
    finished: bool
    winner: int | None
    loser: int | None
    turns: int
    attempts: int
    hazards: int = 0
    cards_left: int = 0
    winner_is_stranger: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


class GameBase:
    """Shared plumbing: history, copying, replay records. Subclasses hold the rules."""

    game_name: str = "game"
    title: ClassVar[str] = ""
    """The game's name in sentences ("Three-Card Foil"; the bundled games' are known)."""
    _quiet: bool = False
    """True in a game nobody reads the events of (``luckylab.simulation.play_game`` with
    bundled bots): the rules skip writing the events' sentences. The play is the same."""

    seed: int | None
    options: dict[str, Any]
    history: list[Any]

    HIDDEN_ACTIONS: ClassVar[frozenset[type]] = frozenset()
    """Action types whose details only the seat that took them sees (the cards of a pass):
    others see an :class:`~luckylab.games.shown.Unseen` in its place in the past a tournament
    shows them. Empty: every action is taken in the open."""
    HIDDEN_EVENT_DATA: ClassVar[Mapping[str, frozenset[str]]] = MappingProxyType({})
    """For an event kind, the keys of its data only the event's ``seat`` (and the seat ``to``
    it was given) see: the card a penalty passed. Empty: every event is public."""

    def foiling_rules(self) -> Any:
        """The game's foiling rules (:class:`~luckylab.games.foiling.FoilRules`: which cards
        count against an attempt and what each is worth), or None in a game where nobody
        foils. A look-ahead bot reads the other players' passes with them
        (:mod:`luckylab.agents.beliefs`)."""
        return None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        from .fused import as_written

        cls._as_written = as_written(cls)  # for the fast paths' guard (fused.plays_as_written)

    # -- the face each game implements -------------------------------------------------
    @property
    def current_player(self) -> int | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def legal_actions(self) -> list[Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def apply(self, action: Any) -> list[Event]:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def is_over(self) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- the protocol's shared parts (see luckylab.games.protocol) ----------------------
    @property
    def num_seats(self) -> int:
        """Every seat (the Island's Strangers are seats too, though they never decide)."""
        return self.players  # type: ignore[attr-defined,no-any-return]

    def choices(self) -> list[ChoiceGroup]:
        """``legal_actions()`` grouped by kind of action, in the order they are listed; each
        action class names its group with ``group`` and ``group_label`` (class attributes)."""
        groups: dict[type, list[Any]] = {}
        for action in self.legal_actions():
            groups.setdefault(type(action), []).append(action)
        return [ChoiceGroup(getattr(cls, "group", cls.type_name),
                            getattr(cls, "group_label", cls.__name__), tuple(actions))
                for cls, actions in groups.items()]

    def apply_trusted(self, action: Any) -> list[Event]:
        """``apply`` without re-checking (an engine without a faster path checks anyway)."""
        return self.apply(action)

    def quieten(self, quiet: bool = True) -> None:
        """Stop writing event sentences (an engine without a quiet mode keeps writing)."""

    def play_out(self, choosers: Sequence[Callable[[Any], Any]]) -> None:
        """Play to the end, ``choosers[seat](self)`` deciding for each seat."""
        apply = self.apply_trusted
        while not self.is_over:
            apply(choosers[self.current_player](self))  # type: ignore[index]

    def random_action(self, rng: Any) -> Any:
        """A legal action of the seat deciding now, uniformly at random: the same draw from
        ``rng`` and the same action as ``rng.choice(game.legal_actions())`` (an engine whose
        action lists are long finds it without listing them all)."""
        return rng.choice(self.legal_actions())

    def returns(self) -> tuple[float, ...]:
        """One number per seat: 1.0 for the winner, 0.0 for everyone else; all 0.0 before the
        end and in a game stopped without a winner (a turn cap). Games scored otherwise
        (a team's score, shared wins) override this."""
        out = [0.0] * self.num_seats
        if self.is_over:
            winner = getattr(self, "winner", None)
            if winner is not None:
                out[winner] = 1.0
        return tuple(out)

    def observation(self, seat: int) -> Observation:  # pragma: no cover - abstract
        raise NotImplementedError

    def determinize(self, seat: int, rng: Any) -> GameBase:  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def action_space(self) -> ActionSpace:  # pragma: no cover - abstract
        """The game variant's fixed action space (built once per variant)."""
        raise NotImplementedError

    @property
    def num_distinct_actions(self) -> int:
        """How many action ids the game variant has (every action it can ever offer)."""
        return self.action_space.size

    def action_id(self, action: Any) -> int:
        """The stable integer id of ``action`` in this variant's action space."""
        return self.action_space.action_id(action)

    def action_from_id(self, action_id: int) -> Any:
        """The action with id ``action_id`` (legal now or not: ask ``legal_actions()``)."""
        return self.action_space.action_from_id(action_id)

    def _check_seat(self, seat: Any) -> int:
        """``seat`` if it is a seat of this game, else :class:`~luckylab.errors.OptionError`."""
        if not (_is_int(seat) and 0 <= seat < self.num_seats):
            from ..errors import OptionError

            raise OptionError(f"seat must be a whole number from 0 to {self.num_seats - 1}, "
                              f"not {seat!r}")
        return int(seat)

    # -- shared ------------------------------------------------------------------------
    def clone(self) -> GameBase:
        """An independent copy (boards and cards are immutable and shared)."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> GameBase:
        cls = self.__class__
        new = cls.__new__(cls)
        memo[id(self)] = new
        shared = self._shared_attributes()
        for key, value in self.__dict__.items():
            if key in shared:
                setattr(new, key, value)
            elif key == "events":  # events are immutable once said: a new list, the same events
                setattr(new, key, list(value))
            else:
                setattr(new, key, copy.deepcopy(value, memo))
        return new

    def _shared_attributes(self) -> frozenset[str]:
        """Attributes that hold immutable data (the board, the card list) and are not copied."""
        return frozenset({"board", "cards"})

    def record(self, digest: bool = True) -> dict[str, Any]:
        """Game name, player count, seed, options and actions: enough to replay the game.

        So that a record cannot lie, it also pins the package version (``luckylab``), content
        hashes of the board and the cards (``board_sha256``, ``deck_sha256``), the number of
        actions (``action_count``: a truncated record is reported) and, with ``digest=True``,
        a digest of the final state (``final_sha256``: an edited action that replays into a
        different game is reported), and a digest of the inputs themselves
        (``inputs_sha256``: the game, players, seed, every option and every field of every
        action, so an edit that replays into a game whose sentences read the same, such as
        another card of the same value, is reported too). :func:`replay` checks them all.
        """
        from .._version import __version__

        data = {
            "game": self.game_name,
            "players": self.players,  # type: ignore[attr-defined]
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [a.to_data() if hasattr(a, "to_data") else a for a in self.history],
            "luckylab": __version__,
            "board_sha256": board_sha256(self._start_board()),
            "deck_sha256": _sha256(repr(tuple(getattr(self, "cards", ())))),
            "action_count": len(self.history),
        }
        data["inputs_sha256"] = inputs_sha256(data)
        if digest:
            data["final_sha256"] = self.state_digest()
        return data

    def _start_board(self) -> Any:
        """The board the game started on (a game whose board shrinks overrides this; a card
        game without a board has None)."""
        return getattr(self, "board", None)

    def state_digest(self) -> str:
        """A SHA-256 of the game's outcome and every event so far (equal for equal games)."""
        result = self.result() if hasattr(self, "result") else None
        events = "\n".join(e.text for e in getattr(self, "events", ()))
        return _sha256(f"{result.to_dict() if result else None!r}\n{events}")


def inputs_sha256(record: Mapping[str, Any]) -> str:
    """A SHA-256 of what a record says was played: game, players, seed, options and actions,
    as canonical JSON (every field of every action, every option).

    >>> inputs_sha256({"game": "kill", "players": 2, "seed": 1, "options": {}, "actions": []})[:12]
    '8a5bbb258349'
    """
    import json

    text = json.dumps([record.get(k) for k in ("game", "players", "seed", "options",
                                                "actions")],
                      sort_keys=True, separators=(",", ":"), default=repr)
    return _sha256(text)


def _sha256(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def board_sha256(board: Any) -> str:
    """A content hash of a board (spaces, edges, path, sight, start), computed once per board;
    ``"no board"`` for a game played without one (Doctor Who: The Card Game)."""
    if board is None:
        return "no board"
    cached = getattr(board, "_sha256", None)
    if cached is None:
        import json

        data = board.to_dict()
        data["start"] = board.start
        cached = _sha256(json.dumps(data, sort_keys=True, default=repr))
        object.__setattr__(board, "_sha256", cached)
    return cached


def seats_from_left(order: Sequence[int], seat: int) -> list[int]:
    """Seats in play order starting at the left of ``seat`` and ending with ``seat`` itself.

    ``order`` lists the live seats clockwise (to the left). ``seat`` need not be live.

    >>> seats_from_left([0, 1, 2, 3], 2)
    [3, 0, 1, 2]
    >>> seats_from_left([0, 1, 3], 2)
    [3, 0, 1]
    """
    if seat in order:
        i = order.index(seat)
        return list(order[i + 1:]) + list(order[: i + 1])
    later = [s for s in order if s > seat]
    earlier = [s for s in order if s < seat]
    return later + earlier


def jump_target(order: Sequence[int], last_active: int, occupants: Iterable[int]) -> int | None:
    """Whose turn it becomes when Doctor Lucky walks in on ``occupants`` (``I-DOC-3``).

    The occupant closest to the left of the last active player; the last active player counts
    as the farthest, so they are chosen only when alone ("riding the Lucky Train").

    >>> jump_target([0, 1, 2, 3], last_active=0, occupants=[2])
    2
    >>> jump_target([0, 1, 2, 3], last_active=1, occupants=[1, 0, 3])
    3
    >>> jump_target([0, 1, 2, 3], last_active=1, occupants=[1])
    1
    >>> jump_target([0, 1, 2, 3], last_active=1, occupants=[]) is None
    True
    """
    present = set(occupants)
    for seat in seats_from_left(order, last_active):
        if seat in present:
            return seat
    return None
