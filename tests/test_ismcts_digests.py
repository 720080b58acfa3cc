"""The search bot's seeded decisions stay identical: digests of its choices pinned.

Each case decides once in each of a run of seeded positions (reached by the default bots, as
``benchmarks/compare.py --decisions`` reaches them) and hashes, decision by decision, the move
played, every root move's visits and reward, and the next draw of the bot's generator (a change
in how the search uses its generator shows even where the choice does not). A change meant only
to make the search faster must leave every digest as it is; one meant to change the search
re-pins them: ``PYTHONPATH=$PWD python tests/test_ismcts_digests.py`` prints them.
"""

from __future__ import annotations

import hashlib

import pytest

from luckylab import new_game
from luckylab.agents import agent_class

CASES = [("kill", 2, 32), ("kill", 4, 32), ("island", 2, 32), ("island", 4, 32),
         ("island", 3, 16), ("save", 4, 24), ("panic", 4, 24), ("doctorwho", 3, 8)]
"""(game, players, simulations a decision)."""
FAST, SLOW = 20, {"kill": 100, "island": 60, "save": 60, "panic": 60, "doctorwho": 30}
"""Decisions a case in the fast lane, and in the slow test (by game)."""

PINNED = {
    # (game, players): (digest of the first FAST decisions, of the first SLOW[game])
    ('kill', 2): ('d71a4c9beb14bfca', '8a4930a14f0e492c'),
    ('kill', 4): ('cf36f0e248d1e2c8', '8c974f5fbbd18943'),
    ('island', 2): ('1a2613a1a1319290', '694924d96876dfde'),
    ('island', 4): ('f112d490cc42f468', '75d5d68eb5f6941c'),
    ('island', 3): ('33c846a11f1b8828', '47404669627388c5'),
    ('save', 4): ('a527af090d40435b', '4597e77d26259fc2'),
    ('panic', 4): ('753427f4679eb278', '99b092cded362243'),
    ('doctorwho', 3): ('d227e9f5739509a4', '71ab92cc35610a05'),  # bluffer rollouts
}


def _position(game: str, players: int, seed: int):
    """A seeded game played some moves in by the default bots (one per seat)."""
    state = new_game(game, players=players, seed=seed)
    bots = {}
    for _ in range(seed * 7 % 40):
        if state.is_over or len(state.legal_actions()) < 2:
            break
        seat = state.current_player
        if seat not in bots:
            bots[seat] = agent_class(game)(seed=seat)
        state.apply(bots[seat].choose(state))
    return state


def decisions_digest(game: str, players: int, iterations: int, count: int) -> str:
    """A digest of the search bot's ``count`` first decisions in seeded positions."""
    h = hashlib.sha256()
    done = seed = 0
    while done < count:
        seed += 1
        state = _position(game, players, seed)
        if state.is_over or len(state.legal_actions()) < 2:
            continue
        bot = agent_class(game, "ismcts")(seed=seed, iterations=iterations)
        action, counts = bot.explain(state)
        h.update(repr((seed, action, counts, bot.rng.random())).encode())
        done += 1
    return h.hexdigest()[:16]


@pytest.mark.parametrize("game, players, iterations", CASES)
def test_the_first_seeded_decisions_are_identical(game, players, iterations):
    assert decisions_digest(game, players, iterations, FAST) == PINNED[game, players][0]


@pytest.mark.slow
@pytest.mark.parametrize("game, players, iterations", CASES)
def test_all_seeded_decisions_are_identical(game, players, iterations):
    want = PINNED[game, players][1]
    assert decisions_digest(game, players, iterations, SLOW[game]) == want


if __name__ == "__main__":
    for game, players, iterations in CASES:
        print(f"    ({game!r}, {players}): ({decisions_digest(game, players, iterations, FAST)!r}, "
              f"{decisions_digest(game, players, iterations, SLOW[game])!r}),", flush=True)
