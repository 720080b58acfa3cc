"""Doctor Who's card tables: what the rules work out once per card list, and remember.

Which cards are equal designs (choosing between two equal cards is no choice), which Enemies
may share an attack (:func:`~luckylab.cards.doctorwho.compatible`, ``D-ENE-1``), and the card
sets the legal actions are made of: the Enemy sets that may attack together
(:func:`attack_groups`) and the Defender picks of distinct types (:func:`defence_picks`,
``D-DEF-1``). The sets are remembered per card list, in a memo bounded by :data:`MEMO_MOST`:
a hand's cards come back decision after decision.

The rules (:mod:`~luckylab.games.doctorwho.rules`) list actions from these; the fused turns
(:mod:`~luckylab.games.doctorwho.fast`) search the same sets.

>>> from luckylab import load_deck
>>> deck = load_deck("doctor-who")
>>> daleks = [c.id for c in deck if c.name == "Dalek"][:3]
>>> [len(combo) for combo, _ in attack_groups(daleks, 2, deck)] == sorted(
...     len(combo) for combo, _ in attack_groups(daleks, 2, deck))
True
>>> dedupe(daleks + daleks, deck) == dedupe(daleks, deck)
True
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from ...cards.doctorwho import DWCard, compatible

__all__ = ["MEMO_MOST", "attack_groups", "card_tables", "combos", "dedupe", "defence_picks",
           "designs", "partners"]

_TABLES: dict[int, tuple[tuple[DWCard, ...], list[int], list[frozenset[int]], dict[Any, Any]]] = {}


def card_tables(deck: tuple[DWCard, ...]
            ) -> tuple[tuple[DWCard, ...], list[int], list[frozenset[int]], dict[Any, Any]]:
    """Worked out once per card list: per card id, a number that equal designs (name,
    strength, picture) share, and the ids of the cards it may share an attack with
    (:func:`compatible`); and a memo of :func:`attack_groups` and :func:`defence_picks`."""
    known = _TABLES.get(id(deck))
    if known is None or known[0] is not deck:
        numbers: dict[tuple[str, int, int], int] = {}
        designs = [numbers.setdefault((d.name, d.strength, d.picture), len(numbers))
                   for d in deck]
        partners = [frozenset(b.id for b in deck if compatible(a, b)) for a in deck]
        known = _TABLES[id(deck)] = (deck, designs, partners, {})
    return known


def designs(deck: tuple[DWCard, ...]) -> list[int]:
    """Per card id, a number that cards of equal design (name, strength, picture) share."""
    return card_tables(deck)[1]


def partners(deck: tuple[DWCard, ...]) -> list[frozenset[int]]:
    """Per card id, the ids of the cards it may share an attack with (``D-ENE-1``)."""
    return card_tables(deck)[2]


def attack_groups(enemies: list[int], most: int, deck: tuple[DWCard, ...]
                   ) -> tuple[tuple[tuple[int, ...], frozenset[int]], ...]:
    """The sets of up to ``most`` of ``enemies`` that may attack together (one per multiset of
    designs), each with the cards that every card of it may share an attack with. Remembered
    per card list: a hand's Enemies come back decision after decision."""
    _, _, ok, memo = card_tables(deck)
    key = ("attack", tuple(sorted(enemies)), most)
    groups = memo.get(key)
    if groups is None:
        if len(memo) >= MEMO_MOST:
            memo.clear()
        groups = memo[key] = tuple(
            (combo, _shared(memo, frozenset.intersection(*(ok[c] for c in combo))))
            for k in range(1, most + 1) for combo in combos(enemies, k, deck)
            if all(b in ok[a] for a, b in itertools.combinations(combo, 2)))
    return groups


def defence_picks(defenders: list[int], slack: int, deck: tuple[DWCard, ...]
                   ) -> tuple[tuple[tuple[int, ...], frozenset[str]], ...]:
    """At most one of ``defenders`` of each type, at most ``slack`` cards: each pick with its
    types, in product order (where a type is on a Location already, the picks without it come
    in the same order as the product without its group). Remembered per card list."""
    memo = card_tables(deck)[3]
    key = ("defend", tuple(defenders), min(slack, len(defenders)))
    picks = memo.get(key)
    if picks is None:
        if len(memo) >= MEMO_MOST:
            memo.clear()
        by_type: dict[str, list[int]] = {}
        for c in defenders:
            by_type.setdefault(deck[c].type, []).append(c)
        found = []
        for pick in itertools.product(*([None, *cs] for cs in by_type.values())):
            chosen = [c for c in pick if c is not None]
            if chosen and len(chosen) <= slack:
                found.append((tuple(sorted(chosen)),
                              _shared(memo, frozenset(deck[c].type for c in chosen))))
        picks = memo[key] = tuple(found)
    return picks


MEMO_MOST = 20_000
"""The answers a card list's memo keeps before it is emptied and starts again. Every answer
stays in memory, where Python's collector walks it now and then; the more answers, the longer
that walk, and a search's decision waits for it (with 25,500 answers, a third of a second)."""


def _shared(memo: dict[Any, Any], cards: frozenset[Any]) -> frozenset[Any]:
    """One copy of each set the memo's answers hold (there are few different ones): answers
    that share their sets leave the collector fewer objects to walk."""
    return memo.setdefault(("set", cards), cards)


def combos(pool: list[int], k: int, deck: tuple[DWCard, ...]) -> Iterator[tuple[int, ...]]:
    """The ``k``-card combinations of ``pool``, one per multiset of designs."""
    design = designs(deck)
    seen = set()
    for combo in itertools.combinations(sorted(pool), k):
        key = tuple(sorted([design[c] for c in combo]))
        if key not in seen:
            seen.add(key)
            yield combo


def dedupe(cards: list[int], deck: tuple[DWCard, ...]) -> list[int]:
    """One card of each design (name, strength, picture): choosing between equal cards is no
    choice."""
    design = designs(deck)
    seen, out = set(), []
    for c in sorted(cards):
        key = design[c]
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
