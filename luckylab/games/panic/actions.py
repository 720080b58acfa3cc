"""Panic Island!'s actions: every decision the team makes, as a frozen dataclass.

:class:`Reveal` a card (two per turn, one at a time), :class:`WakeGouga` at the start of a
turn, a :class:`GougaCall` while Gouga is awake (name a kind, reveal one card), and
:class:`Place` a card face down on an empty place (the Totem pole's saved card, a Landslide).
:class:`TimeUp` is no player's decision: it is how a real hourglass (``clock="external"``)
says that the sand has run out. The rules that say when each is legal are in ``rules.py``.

>>> str(Reveal("r1c1")), GougaCall("dodo", "r2c2").to_data()
('reveal r1c1', {'type': 'gouga_call', 'kind': 'dodo', 'place': 'r2c2'})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import GameAction
from .data import SCORING_KINDS

__all__ = ["ACTIONS", "GOUGA_KINDS", "Action", "GougaCall", "Place", "Reveal", "TimeUp",
           "WakeGouga"]

GOUGA_KINDS = SCORING_KINDS
"""What the players may name while Gouga is awake (``P-GOUGA-1``)."""


@dataclass(frozen=True, slots=True)
class Reveal(GameAction):
    """Turn over the card at ``place`` (``P-TURN-1``: two per turn, one at a time)."""

    type_name: ClassVar[str] = "reveal"
    group: ClassVar[str] = "reveal"
    group_label: ClassVar[str] = "Turn a card face up"

    place: str

    def __str__(self) -> str:
        return f"reveal {self.place}"


@dataclass(frozen=True, slots=True)
class WakeGouga(GameAction):
    """Everyone shouts "Gouga!" (``P-GOUGA-1``: once per game, at the start of a turn)."""

    type_name: ClassVar[str] = "wake_gouga"
    group: ClassVar[str] = "gouga"
    group_label: ClassVar[str] = "Wake Gouga"

    def __str__(self) -> str:
        return "wake Gouga"


@dataclass(frozen=True, slots=True)
class GougaCall(GameAction):
    """While Gouga is awake: name ``kind`` ("native", "dodo", "egg"), then reveal ``place``."""

    type_name: ClassVar[str] = "gouga_call"
    group: ClassVar[str] = "gouga_call"
    group_label: ClassVar[str] = "Name a kind for Gouga and turn one card"

    kind: str
    place: str

    def __str__(self) -> str:
        return f'"{self.kind}!" and reveal {self.place}'


@dataclass(frozen=True, slots=True)
class Place(GameAction):
    """Put the card in hand (Totem pole's saved card, or a Landslide) face down on ``place``."""

    type_name: ClassVar[str] = "place"
    group: ClassVar[str] = "place"
    group_label: ClassVar[str] = "Put the card face down on an empty place"

    place: str

    def __str__(self) -> str:
        return f"place on {self.place}"


@dataclass(frozen=True, slots=True)
class TimeUp(GameAction):
    """The real hourglass has run out (``clock="external"`` only; not a player's decision)."""

    type_name: ClassVar[str] = "time_up"
    group: ClassVar[str] = "time"
    group_label: ClassVar[str] = "The sand has run out"

    def __str__(self) -> str:
        return "time is up"


Action = Reveal | WakeGouga | GougaCall | Place | TimeUp
"""Any Panic Island! action."""
ACTIONS: tuple[type[GameAction], ...] = (Reveal, WakeGouga, GougaCall, Place, TimeUp)
"""Every kind of action, in the order of the action ids (``ids.py``)."""

