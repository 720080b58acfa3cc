"""DATA: the cards of the games, read from package data files and validated.

- :mod:`luckylab.cards.card`: :class:`Card`, :data:`Deck` and the field check card lists share.
- :mod:`luckylab.cards.decks`: :func:`load_deck`, :func:`load_characters`, the built-in decks.
- :mod:`luckylab.cards.doctorwho`: the Doctor Who card game's cards (their own shape).

This package imports nothing above the data layer (boards and errors only).

>>> from luckylab.cards import load_deck
>>> len(load_deck("kill"))
96
"""

from __future__ import annotations

from .card import Card, Deck, check_card_fields
from .decks import (
    DECKS,
    KIND_FIELDS,
    MAX_CARDS,
    deck_from_data,
    load_characters,
    load_deck,
)

__all__ = ["DECKS", "KIND_FIELDS", "MAX_CARDS", "Card", "Deck", "check_card_fields",
           "deck_from_data", "load_characters", "load_deck"]
