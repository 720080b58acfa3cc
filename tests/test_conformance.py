"""Every registered game keeps the game protocol, checked through the protocol alone.

luckylab.games.conformance does the checking (after OpenSpiel's random_sim_test); these tests
run it over every game and player count, and show that it catches a game that breaks a promise.
"""

from __future__ import annotations

import random

import pytest

from luckylab import new_game
from luckylab.games.conformance import check_game, check_state
from luckylab.games.protocol import Observation

CASES = [
    ("island", 2), ("island", 3), ("island", 4),
    ("kill", 2), ("kill", 4),
    ("save", 2), ("save", 4),
    ("panic", 1), ("panic", 4),
    ("doctorwho", 3), ("doctorwho", 4),
]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_playouts_keep_the_protocol(game, players):
    check_game(game, players, seeds=[1, 2], every=15)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), CASES)
def test_more_random_playouts_keep_the_protocol(game, players):
    check_game(game, players, seeds=range(3, 13), every=40)


def _midgame(game_name, players, seed=1, steps=30):
    game = new_game(game_name, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(("game", "players"), [("kill", 3), ("doctorwho", 3)])
def test_an_observation_that_leaks_another_seats_view_is_caught(game, players):
    state = _midgame(game, players)

    class Leaky(type(state)):
        def observation(self, seat):
            mine = super().observation(seat)
            other = super().observation((seat + 1) % self.num_seats)
            return Observation(seat, {**mine.data, "neighbour": other.data}, mine.text)

    state.__class__ = Leaky
    with pytest.raises(AssertionError, match="hidden from that seat"):
        check_state(state, random.Random(1))


def test_an_action_id_that_does_not_round_trip_is_caught():
    state = _midgame("kill", 3)

    class Broken(type(state)):
        def action_from_id(self, action_id):
            return super().action_from_id(max(action_id - 1, 0))

    state.__class__ = Broken
    with pytest.raises(AssertionError, match="round-trip"):
        check_state(state, random.Random(1))


def test_a_refused_action_that_changes_the_state_is_caught():
    state = _midgame("save", 3)

    class Careless(type(state)):
        def apply(self, action):
            if action not in self.legal_actions():
                self.history.append(action)  # left behind when the rules refuse it
            return super().apply(action)

    state.__class__ = Careless
    with pytest.raises(AssertionError, match="refused action changed"):
        check_state(state, random.Random(3))
