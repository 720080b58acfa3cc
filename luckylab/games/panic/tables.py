"""Panic Island!'s tables made once and shared: the card set of each rules file and obstacle
choice, and the frozen actions that ``legal_actions()`` hands out again every turn.

Nothing here is a rule: these are bounded caches, so that a simulation of thousands of games
builds 25 cards and 127 actions once instead of once per game or per turn.

>>> from luckylab.games.panic.data import load_rules
>>> cards = card_set(load_rules(), ("Beehive", "Mirage", "Tornado") * 2)
>>> len(cards), cards[0].name, cards[-1].name
(25, 'volcano', 'Tornado')
>>> REVEAL["r1c1"] is REVEAL["r1c1"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .actions import GougaCall, Place, Reveal, WakeGouga
from .data import PanicCard, PanicRules

__all__ = ["GOUGA_CALL", "PLACE", "REVEAL", "WAKE_GOUGA", "card_set", "handlers_by_kind"]


def card_set(rules: PanicRules, names: tuple[str, ...]) -> tuple[PanicCard, ...]:
    """``P-SETUP-1``: the fixed cards of ``rules``, then one obstacle card per name; ids 0..24
    in that order. The cards are frozen values, so games with the same rules and obstacles
    share one tuple (made once, not 25 new cards per game)."""
    key = (id(rules), names)
    hit = _CARD_SETS.get(key)
    if hit is None:  # the entry keeps ``rules`` alive, so its id names it while cached
        cards = [PanicCard(i, kind, colour) for i, (kind, colour) in enumerate(rules.cards)]
        for name in names:
            cards.append(PanicCard(len(cards), "obstacle", None, rules.obstacles[name]))
        if len(_CARD_SETS) >= 256:
            _CARD_SETS.clear()
        hit = _CARD_SETS[key] = (rules, tuple(cards))
    return hit[1]


_CARD_SETS: dict[tuple[int, tuple[str, ...]], tuple[PanicRules, tuple[PanicCard, ...]]] = {}


class _Made(dict):  # type: ignore[type-arg]
    """Frozen actions made once per field value and handed out again (legal_actions() lists
    the same values every turn; place names are at most 100, ``r1c1`` .. ``r10c10``)."""

    def __init__(self, make: Any) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(*key) if isinstance(key, tuple) else self.make(key)
        return value


REVEAL = _Made(Reveal)
"""place -> ``Reveal(place)``."""
GOUGA_CALL = _Made(GougaCall)
"""(kind, place) -> ``GougaCall(kind, place)``."""
PLACE = _Made(Place)
"""place -> ``Place(place)``."""
WAKE_GOUGA = WakeGouga()


def handlers_by_kind(handlers: Mapping[Any, Mapping[type, Any]]) -> dict[type, Any]:
    """Each action class's (check, do) pair from a resolved handler table (phase -> class ->
    pair), for the classes that every phase taking them handles alike: the trusted path then
    needs no phase (``PanicGame.apply_trusted``). A class handled differently in two phases is
    left out (the trusted path asks the phase for it).

    >>> handlers_by_kind({"turn": {int: ("a", "b")}, "second": {int: ("a", "b"), str: 1},
    ...                   "place": {str: 2}})
    {<class 'int'>: ('a', 'b')}
    """
    found: dict[type, Any] = {}
    mixed: set[type] = set()
    for table in handlers.values():
        for kind, pair in table.items():
            if found.setdefault(kind, pair) != pair:
                mixed.add(kind)
    return {kind: pair for kind, pair in found.items() if kind not in mixed}
