"""The Island of Doctor Lucky's actions: every decision a player makes, as a frozen dataclass.

A Phase 1 choice (:class:`Move`, :class:`MoveCat`, :class:`PlayHazard` or :class:`Pass`), a
Phase 2 choice (:class:`Draw`, :class:`Attack` or :class:`Pass`), each player's :class:`Foil`
discard when Doctor Lucky is attacked, and a Hazard victim's penalty (:class:`GiveCard` or
:class:`DiscardLuck`). The rules that say when each is legal are in ``rules.py``.

>>> Move.to(0, "Frog Pond")
Move(moves=((0, 'Frog Pond'),))
>>> str(Attack(weapon=12)), Foil(()).to_data()
('attack with card 12', {'type': 'foil', 'cards': []})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ..base import GameAction

__all__ = ["ACTIONS", "DOCTOR", "Action", "Attack", "DiscardLuck", "Draw", "Foil", "GiveCard",
           "Move", "MoveCat", "Pass", "Phase", "PlayHazard"]

DOCTOR = "doctor"
"""The pawn key of Doctor Lucky (a Hazard target, a watcher)."""

Phase = Literal["phase1", "phase2", "foil", "penalty", "over"]


@dataclass(frozen=True, slots=True)
class Move(GameAction):
    """Phase 1: move your pawn (and, with Strangers, theirs) up to your Move in all (``I-MOVE-1``,
    ``I-STR-6``). ``moves`` pairs each pawn (a seat) with where it ends."""

    type_name: ClassVar[str] = "move"
    group: ClassVar[str] = "move"
    group_label: ClassVar[str] = "Move pawns"

    moves: tuple[tuple[int, str], ...]

    @classmethod
    def to(cls, seat: int, space: str) -> Move:
        """Move one pawn: ``Move.to(0, "Frog Pond")``."""
        return cls(((seat, space),))

    def __str__(self) -> str:
        return "move " + ", ".join(f"seat {seat} to {space}" for seat, space in self.moves)


@dataclass(frozen=True, slots=True)
class MoveCat(GameAction):
    """Phase 1: move the cat to any other space (``I-MOVE-2``)."""

    type_name: ClassVar[str] = "move_cat"
    group: ClassVar[str] = "cat"
    group_label: ClassVar[str] = "Move the cat"

    space: str

    def __str__(self) -> str:
        return f"move the cat to {self.space}"


@dataclass(frozen=True, slots=True)
class PlayHazard(GameAction):
    """Phase 1: throw Hazard card ``card`` at a seat or at ``"doctor"`` (``I-HAZ-1``)."""

    type_name: ClassVar[str] = "hazard"
    group: ClassVar[str] = "hazard"
    group_label: ClassVar[str] = "Throw a Hazard"

    card: int
    target: int | str

    def __str__(self) -> str:
        who = "Doctor Lucky" if self.target == DOCTOR else f"seat {self.target}"
        return f"play Hazard card {self.card} at {who}"


@dataclass(frozen=True, slots=True)
class Pass(GameAction):
    """Do nothing in this phase."""

    type_name: ClassVar[str] = "pass"
    group: ClassVar[str] = "pass"
    group_label: ClassVar[str] = "Pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Draw(GameAction):
    """Phase 2: draw the top card, if nobody sees you (``I-DRAW-1``)."""

    type_name: ClassVar[str] = "draw"
    group: ClassVar[str] = "draw"
    group_label: ClassVar[str] = "Draw a card"

    def __str__(self) -> str:
        return "draw a card"


@dataclass(frozen=True, slots=True)
class Attack(GameAction):
    """Phase 2: try to kill Doctor Lucky, with at most one Weapon (``I-KILL-1``, ``I-KILL-2``)."""

    type_name: ClassVar[str] = "attack"
    group: ClassVar[str] = "attack"
    group_label: ClassVar[str] = "Attack Doctor Lucky"

    weapon: int | None = None

    def __str__(self) -> str:
        return "attack bare-handed" if self.weapon is None else f"attack with card {self.weapon}"


@dataclass(frozen=True, slots=True)
class Foil(GameAction):
    """Foiling: discard these cards for their Luck; an empty tuple passes (``I-FOIL-1``)."""

    type_name: ClassVar[str] = "foil"
    group: ClassVar[str] = "foil"
    group_label: ClassVar[str] = "Discard Luck to foil the attack, or pass"

    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        return "pass" if not self.cards else "discard " + ", ".join(map(str, self.cards))


@dataclass(frozen=True, slots=True)
class GiveCard(GameAction):
    """Hazard penalty: pass one card of your choice to the thrower (``I-HAZ-2``)."""

    type_name: ClassVar[str] = "give"
    group: ClassVar[str] = "give"
    group_label: ClassVar[str] = "Give the thrower a card"

    card: int

    def __str__(self) -> str:
        return f"give card {self.card}"


@dataclass(frozen=True, slots=True)
class DiscardLuck(GameAction):
    """Hazard penalty: discard cards whose Luck reaches the Hazard's value (``I-HAZ-2``)."""

    type_name: ClassVar[str] = "discard"
    group: ClassVar[str] = "discard"
    group_label: ClassVar[str] = "Discard Luck to pay for the Hazard"

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "discard " + ", ".join(map(str, self.cards))


Action = Move | MoveCat | PlayHazard | Pass | Draw | Attack | Foil | GiveCard | DiscardLuck

ACTIONS = (Move, MoveCat, PlayHazard, Pass, Draw, Attack, Foil, GiveCard, DiscardLuck)
"""Every Island action class (records name them by ``type_name``)."""
