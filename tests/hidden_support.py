"""One test helper for seat-fair information: the same game with the hidden cards dealt anew.

Used by the look-ahead bot's tests (tests/test_search_agent.py) and the play table's Hint tests
(tests/test_play_table.py): whatever a seat may know must give the same answer on both games.
"""

from __future__ import annotations

import random


def reshuffle_hidden(game, seat: int, seed: int):
    """The same game as ``seat`` sees it, with the other hands and the deck dealt differently
    (and the game's own random generator reseeded): what a fair bot or hint cannot tell apart."""
    other = game.clone()
    pool = [c for s, hand in other.hands.items() if s != seat for c in hand] + other.deck
    rng = random.Random(seed)
    rng.shuffle(pool)
    for s in sorted(other.hands):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s], pool = pool[:size], pool[size:]
    other.deck = pool
    other.rng = random.Random(seed + 1)
    if hasattr(other, "_held"):
        other._held = sum(other._luck[c] for hand in other.hands.values() for c in hand)
    return other
