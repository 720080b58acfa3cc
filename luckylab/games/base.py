"""What every luckylab game shares: events, the state-machine face, turn-order helpers.

A game is a state machine (after OpenSpiel): ``current_player`` says who decides,
``legal_actions()`` lists what they may do, ``apply(action)`` validates, changes the state and
returns the :class:`Event` list it caused, and ``is_over``/``winner``/``loser`` tell the end.
``apply`` raises :class:`~luckylab.errors.IllegalAction` *before* changing anything, so a
refused action leaves the game exactly as it was.

Replays: a game is fully determined by its game name, options, seed and the actions applied,
which :meth:`GameBase.record` returns as plain JSON-ready data and :func:`replay` plays back.

This module owns no rules of any particular game.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, ClassVar, NamedTuple

__all__ = [
    "Event",
    "GameAction",
    "GameBase",
    "GameResult",
    "action_from_data",
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

    def to_data(self) -> dict[str, Any]:
        """``{"type": type_name, field: value, ...}``, ready for ``json.dumps``."""
        data: dict[str, Any] = {"type": self.type_name}
        for f in fields(self):  # type: ignore[arg-type]
            data[f.name] = _as_lists(getattr(self, f.name))
        return data


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
    _quiet: bool = False
    """True in a game nobody reads the events of (``luckylab.simulation.play_game`` with
    bundled bots): the rules skip writing the events' sentences. The play is the same."""

    seed: int | None
    options: dict[str, Any]
    history: list[Any]

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
            setattr(new, key, value if key in shared else copy.deepcopy(value, memo))
        return new

    def _shared_attributes(self) -> frozenset[str]:
        """Attributes that hold immutable data (the board, the card list) and are not copied."""
        return frozenset({"board", "cards"})

    def record(self) -> dict[str, Any]:
        """Game name, player count, seed, options and actions: enough to replay the game."""
        return {
            "game": self.game_name,
            "players": self.players,  # type: ignore[attr-defined]
            "seed": self.seed,
            "options": dict(self.options),
            "actions": [a.to_data() if hasattr(a, "to_data") else a for a in self.history],
        }


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


def replay(record: dict[str, Any]) -> GameBase:
    """Play a :meth:`GameBase.record` back: the same seed and actions give the same game."""
    from .. import new_game

    game = new_game(record["game"], players=record["players"], seed=record["seed"],
                    **record.get("options", {}))
    action_type = getattr(game, "action_from_data", None)
    for data in record["actions"]:
        game.apply(action_type(data) if action_type else data)
    return game
