"""Save Doctor Lucky's actions: every decision a seat takes is one of these frozen values.

=================  =========================================================================
``Snoop(to)``      a snooping turn: one step (or stay, ``to`` = where you are), then draw one
                   card from the pile of the lowest deck still afloat (``S-SNOOP-1``)
``Step(to)``       the one free step of an active turn (``S-ACT-1``)
``PlayMove(...)``  play a Move card on yourself or Doctor Lucky: to the room it names, or up to
                   its steps (``S-ACT-1``, ``S-ACT-2``)
``Rescue(aid)``    a rescue attempt, with at most one Aid card; it ends the turn (``S-SAVE-*``)
``EndTurn()``      end an active turn (at the start of a turn: an active turn doing nothing)
``Foil(cards)``    in a failure round: discard Failure cards, ``Foil()`` passes (``S-FAIL-*``)
=================  =========================================================================

What each one does, and when it is allowed, is the rulebook's business
(:mod:`luckylab.games.save.rules`).

>>> print(PlayMove(12, DOCTOR, "Galley"))
play Move card 12: Doctor Lucky to Galley
>>> Foil().cards, str(Foil((3, 7)))
((), 'discard 3, 7')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..base import GameAction

__all__ = ["ACTIONS", "DOCTOR", "END_TURN", "SELF", "Action", "EndTurn", "Foil", "PlayMove",
           "Rescue", "Snoop", "Step"]

SELF = "self"
"""``PlayMove`` target: move your own pawn."""
DOCTOR = "doctor"
"""``PlayMove`` target: move Doctor Lucky."""


@dataclass(frozen=True, slots=True)
class Snoop(GameAction):
    """A snooping turn: step to a neighbouring room or stay (``to`` = your room), then draw
    one card (``S-SNOOP-1``). Ends the turn."""

    type_name: ClassVar[str] = "snoop"
    group: ClassVar[str] = "snoop"
    group_label: ClassVar[str] = "Snoop: stay or step, and draw a card"

    to: str

    def __str__(self) -> str:
        return f"snoop: go to {self.to} and draw"


@dataclass(frozen=True, slots=True)
class Step(GameAction):
    """The one free step of an active turn, to a neighbouring room (``S-ACT-1``)."""

    type_name: ClassVar[str] = "step"
    group: ClassVar[str] = "move"
    group_label: ClassVar[str] = "Take your free step"

    to: str

    def __str__(self) -> str:
        return f"step to {self.to}"


@dataclass(frozen=True, slots=True)
class PlayMove(GameAction):
    """Play Move card ``card`` on ``target`` (``"self"`` or ``"doctor"``), moving that pawn to
    ``to``: the room the card names, or a room within the card's steps (``S-ACT-1``)."""

    type_name: ClassVar[str] = "move_card"
    group: ClassVar[str] = "play"
    group_label: ClassVar[str] = "Play a Move card"

    card: int
    target: str
    to: str

    def __str__(self) -> str:
        who = "Doctor Lucky" if self.target == DOCTOR else "yourself"
        return f"play Move card {self.card}: {who} to {self.to}"


@dataclass(frozen=True, slots=True)
class Rescue(GameAction):
    """Try to rescue Doctor Lucky, with Aid card ``aid`` or none (``S-SAVE-1``, ``S-SAVE-2``)."""

    type_name: ClassVar[str] = "rescue"
    group: ClassVar[str] = "rescue"
    group_label: ClassVar[str] = "Try to rescue Doctor Lucky"

    aid: int | None = None

    def __str__(self) -> str:
        return "rescue with no Aid" if self.aid is None else f"rescue with Aid card {self.aid}"


@dataclass(frozen=True, slots=True)
class EndTurn(GameAction):
    """End an active turn (``S-ACT-1``)."""

    type_name: ClassVar[str] = "end_turn"
    group: ClassVar[str] = "end_turn"
    group_label: ClassVar[str] = "End your turn"

    def __str__(self) -> str:
        return "end the turn"


@dataclass(frozen=True, slots=True)
class Foil(GameAction):
    """Failure round: discard these Failure cards; ``Foil()`` passes (``S-FAIL-1``)."""

    type_name: ClassVar[str] = "foil"
    group: ClassVar[str] = "foil"
    group_label: ClassVar[str] = "Discard Failure cards to stop the rescue, or pass"

    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        return "pass" if not self.cards else "discard " + ", ".join(map(str, self.cards))


Action = Snoop | Step | PlayMove | Rescue | EndTurn | Foil

ACTIONS = (Snoop, Step, PlayMove, Rescue, EndTurn, Foil)
"""Every action class of the game, in the order the fused turns and the codecs take them."""
END_TURN = EndTurn()
"""The one ``EndTurn()``: a frozen value, handed out again rather than made anew."""
