"""Seeded games stay identical: digests pinned in ``tests/data/game_digests.json``.

Every configuration's first games are checked quickly; the rest are marked slow. When a rules
change is meant to change games, regenerate with
``PYTHONPATH=$PWD python tests/make_game_digests.py [ENGINE ...]`` (see that script).
"""

from __future__ import annotations

import json

import pytest
from make_game_digests import (
    CONFIGS,
    DIGESTS,
    FAST,
    RUN_SEED,
    config_key,
    digest,
    play_checked,
)

import luckylab
from luckylab.simulation import game_seeds

PINNED = json.loads(DIGESTS.read_text())


def _check(game: str, players: int, agents, first: int, last: int) -> None:
    key = config_key(game, players, agents)
    expected = PINNED["games"][key][first:last]
    assert expected, f"no digests pinned for {key}"
    seeds = game_seeds(RUN_SEED, first + len(expected))[first:]
    fast = luckylab.simulate(game, players=players, games=first + len(expected),
                             seed=RUN_SEED, agents=agents)[first:]
    for i, (seed, want, quick) in enumerate(zip(seeds, expected, fast, strict=True)):
        state, result = play_checked(game, players, seed, agents)
        assert digest(state, result) == want, f"{key}: game {first + i} (seed {seed}) changed"
        assert quick == result, f"{key}: simulate() differs from the checked game {first + i}"


def test_every_configuration_is_pinned():
    assert PINNED["run_seed"] == RUN_SEED
    assert set(PINNED["games"]) == {config_key(g, p, a) for g, p, a, _ in CONFIGS}
    for game in ("island", "kill", "save", "panic", "doctorwho"):
        assert sum(n for g, _, _, n in CONFIGS if g == game) >= 200


@pytest.mark.parametrize("game, players, agents, games", CONFIGS,
                         ids=[config_key(g, p, a) for g, p, a, _ in CONFIGS])
def test_first_seeded_games_are_identical(game, players, agents, games):
    _check(game, players, agents, 0, FAST)


@pytest.mark.slow
@pytest.mark.parametrize("game, players, agents, games", CONFIGS,
                         ids=[config_key(g, p, a) for g, p, a, _ in CONFIGS])
def test_all_seeded_games_are_identical(game, players, agents, games):
    _check(game, players, agents, FAST, games)
