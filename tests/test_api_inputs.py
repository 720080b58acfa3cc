"""Public functions refuse unclear input with a LuckyLabError that says what is allowed
(issue 29, "Public API"), before doing anything."""

from __future__ import annotations

import random

import pytest

import luckylab
from luckylab.agents import agent_class


@pytest.mark.parametrize("seed", [float("nan"), -1, 2.5, True, "7", b"7"])
@pytest.mark.parametrize("game", ["island", "kill", "save", "panic", "doctorwho"])
def test_an_agent_seed_that_would_not_reproduce_is_refused(game, seed):
    cls = agent_class(game, None)
    with pytest.raises(luckylab.OptionError, match="seed must be a whole number"):
        cls(seed=seed)


def test_an_agent_takes_a_whole_number_none_or_a_generator():
    cls = agent_class("kill", None)
    assert cls(seed=3).rng.random() == cls(seed=3).rng.random()
    cls(seed=None)
    rng = random.Random(4)
    assert cls(seed=rng).rng is rng


@pytest.mark.parametrize("game", ["island", "kill", "save", "doctorwho"])
@pytest.mark.parametrize("cap", [10**18, 20_001, 0, -3, 2.0, True])
def test_turn_cap_is_bounded(game, cap):
    """A passive game must end: turn_cap=10**18 ran for ever, growing 45-85 MB/s."""
    players = 3
    words = "from 1 to 20000" if type(cap) is int else "int"
    with pytest.raises(luckylab.OptionError, match=f"turn_cap must be (a whole number )?{words}"):
        luckylab.new_game(game, players=players, seed=1, turn_cap=cap)
    luckylab.new_game(game, players=players, seed=1, turn_cap=20_000)
