"""One card (:class:`Card`), a card list (:data:`Deck`), and the field check every card-list
format shares.

>>> from luckylab.cards.card import Card
>>> str(Card(0, "Frog Pond Stick", "weapon", luck=1, value=2))
'Frog Pond Stick'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import OptionError

__all__ = ["Card", "Deck", "check_card_fields"]


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Fields that a kind does not use are ``None``.

    ``luck`` is the number of shamrocks (Island) or Failure points (Kill, Save): what the card
    is worth when discarded to foil an attempt.
    """

    id: int
    name: str
    kind: str
    luck: int = 0
    value: int | None = None
    special_space: str | None = None
    special_value: int | None = None
    space_kind: str | None = None
    room: str | None = None
    steps: int | None = None
    facts: str = ""

    def weapon_value(self, space: str) -> int:
        """A Weapon's (or Aid card's) value on ``space`` (``I-KILL-2``): special there, else
        the base value."""
        if self.value is None:
            raise OptionError(f"{self.name} is a {self.kind} card, not a weapon")
        if self.special_space == space and self.special_value is not None:
            return self.special_value
        return self.value

    def __str__(self) -> str:
        if self.kind == "failure":
            return f"{self.name} (Luck {self.luck})"
        if self.kind == "hazard":
            return f"{self.name} ({self.space_kind} {self.value}, Luck {self.luck})"
        if self.kind in ("weapon", "aid") and self.special_space:
            return (f"{self.name} ({self.value}, {self.special_value} in {self.special_space}, "
                    f"Luck {self.luck})")
        return self.name


Deck = tuple[Card, ...]
"""A card list: every card of a game, ids 0..N-1 in order."""


def check_card_fields(err: Any, where: str, kind: str, row: Mapping[str, Any],
                      required: set[str], optional: set[str], common: set[str]) -> None:
    """Report (through ``err(field, problem)``) a card row that lacks a field its kind needs or
    has one that does not belong on it. Shared by every card-list format."""
    missing = required - set(row)
    if missing:
        err(where, f"a {kind} card needs {sorted(missing)}")
    extra = set(row) - required - optional - common
    if extra:
        err(where, f"field(s) {sorted(extra)} do not belong on a {kind} card; "
                   f"allowed: {sorted(required | optional | common)}")
