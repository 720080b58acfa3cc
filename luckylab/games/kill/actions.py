"""Kill Doctor Lucky's actions: every decision a player takes is one of these frozen values.

- at the start of a turn: :class:`Snoop` (step or stay, draw in a named room; ``K-SNOOP-1``) or
  the first move of a doing-something turn (``K-ACT-1``);
- during a doing-something turn, in any order: one free :class:`Step`, any number of
  :class:`PlayCard` (Move and Room cards, moving yourself or Doctor Lucky), then at most one
  :class:`Attack`; or :class:`EndTurn`;
- in a foiling round, each other player's :class:`Foil` (Failure cards, possibly none).

Which of them are legal now is the rules' business (:mod:`luckylab.games.kill.rules`).

>>> str(PlayCard(12, "doctor", "Kitchen")), str(Foil(()))
('play card 12: move Doctor Lucky to Kitchen', 'pass')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ..base import GameAction

__all__ = ["ACTIONS", "Action", "Attack", "EndTurn", "Foil", "Pawn", "PlayCard", "Snoop", "Step"]

Pawn = Literal["self", "doctor"]
"""Whom a Move or Room card moves: the player who plays it, or Doctor Lucky."""


@dataclass(frozen=True, slots=True)
class Snoop(GameAction):
    """A snooping turn (``K-SNOOP-1``): step to ``to`` (or stay, ``to`` = where you are) and draw
    a card if you end in a named room. Legal only as the first action of a turn."""

    type_name: ClassVar[str] = "snoop"
    group: ClassVar[str] = "snoop"
    group_label: ClassVar[str] = "Snoop: stay or step, and draw in a room"

    to: str

    def __str__(self) -> str:
        return f"snoop: go to {self.to}"


@dataclass(frozen=True, slots=True)
class Step(GameAction):
    """The free step of a doing-something turn (``K-ACT-1``): through one door, once a turn."""

    type_name: ClassVar[str] = "step"
    group: ClassVar[str] = "move"
    group_label: ClassVar[str] = "Take your free step"

    to: str

    def __str__(self) -> str:
        return f"free step to {self.to}"


@dataclass(frozen=True, slots=True)
class PlayCard(GameAction):
    """Play a Move or Room card to move ``pawn`` (yourself or Doctor Lucky) to ``to``."""

    type_name: ClassVar[str] = "play"
    group: ClassVar[str] = "play"
    group_label: ClassVar[str] = "Play a Move or Room card"

    card: int
    pawn: Pawn
    to: str

    def __str__(self) -> str:
        who = "yourself" if self.pawn == "self" else "Doctor Lucky"
        return f"play card {self.card}: move {who} to {self.to}"


@dataclass(frozen=True, slots=True)
class Attack(GameAction):
    """A murder attempt (``K-KILL-1``), bare-handed (``weapon=None``) or with a Weapon card."""

    type_name: ClassVar[str] = "attack"
    group: ClassVar[str] = "attack"
    group_label: ClassVar[str] = "Attack Doctor Lucky"

    weapon: int | None = None

    def __str__(self) -> str:
        return "attack bare-handed" if self.weapon is None else f"attack with card {self.weapon}"


@dataclass(frozen=True, slots=True)
class EndTurn(GameAction):
    """End a doing-something turn (no card is drawn)."""

    type_name: ClassVar[str] = "end_turn"
    group: ClassVar[str] = "end_turn"
    group_label: ClassVar[str] = "End your turn"

    def __str__(self) -> str:
        return "end the turn"


@dataclass(frozen=True, slots=True)
class Foil(GameAction):
    """Foiling (``K-FAIL-1``): play these Failure cards; an empty tuple passes."""

    type_name: ClassVar[str] = "foil"
    group: ClassVar[str] = "foil"
    group_label: ClassVar[str] = "Play Failure cards to foil the attack, or pass"

    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        return "pass" if not self.cards else "play Failure cards " + ", ".join(map(str, self.cards))


Action = Snoop | Step | PlayCard | Attack | EndTurn | Foil
"""Any Kill Doctor Lucky action."""

ACTIONS: tuple[type[GameAction], ...] = (Snoop, Step, PlayCard, Attack, EndTurn, Foil)
"""The action classes, in the order the action space numbers them."""
