"""Doctor Who: properties of whole games (hypothesis), the bots, simulate() and the CLI.

Every card is in exactly one place after every action; games end; no seat's observation holds a
card that seat may not see; a record replays to the same game.
"""

from __future__ import annotations

import json

import pytest
from doctorwho_support import allowed
from hypothesis import given, settings
from hypothesis import strategies as st

from luckylab import new_game, replay, simulate
from luckylab.agents import agent_class, agent_names
from luckylab.agents.base import RandomAgent
from luckylab.agents.doctorwho import AGENTS, Bluffer, Careful, Greedy, help_value

BOTS = [Greedy, Careful, Bluffer, RandomAgent]




def seen(obs: dict) -> set[int]:
    ids = set(obs["hand"]) | set(obs["reserve"]) | set(obs["discard"]) | set(obs["set_aside"])
    ids |= set(obs["passed"]) | set(obs["received"])
    for up in obs["reserve_up"]:
        ids |= set(up)
    for loc in obs["locations"]:
        ids.add(loc["card"])
        ids |= {c for c in loc["defenders"] + loc["enemies"] if c is not None}
    return ids


def play(game, bots, check_every_step=True):
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
        if check_every_step:
            places = game.card_places()
            assert sorted(c for cs in places.values() for c in cs) == list(range(len(game.cards)))
            for seat in range(game.players):
                assert seen(game.observation(seat)) <= allowed(game, seat)
    return game


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 4]),
       bots=st.lists(st.sampled_from(BOTS), min_size=4, max_size=4))
def test_cards_accounted_observations_honest_games_end_replays_identical(seed, players, bots):
    game = new_game("doctorwho", players=players, seed=seed)
    play(game, [cls(seed=seed + i) for i, cls in enumerate(bots[:players])])
    assert game.finished and game.winners
    again = replay(game.record())
    assert again.scores == game.scores and again.history == game.history
    assert json.loads(json.dumps(game.record())) == game.record()


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_two_player_variant_games_end_with_cards_accounted(seed):
    game = new_game("doctorwho", players=2, seed=seed, two_player=True)
    play(game, [Careful(seed=seed), RandomAgent(seed=seed + 1)])
    assert game.finished


def test_the_observation_check_would_catch_a_leak():
    game = new_game("doctorwho", players=3, seed=1)
    obs = dict(game.observation(0).data)
    obs["hand"] = obs["hand"] + game.hands[1]
    assert not seen(obs) <= allowed(game, 0)


class Blindfold:
    """Only what a seat may know: its observation, its legal actions and its own view (the
    printed card list, its legal Defend and Attack actions grouped by Location)."""

    game_name = "doctorwho"

    def __init__(self, game):
        self._game = game

    @property
    def current_player(self):
        return self._game.current_player

    def observation(self, seat, text=True):
        return self._game.observation(seat, text)

    def legal_actions(self, *only):
        return self._game.legal_actions(*only)

    def view(self, seat=None):  # the deciding seat's own view, never the open table
        assert seat is not None and seat == self._game.current_player
        return self._game.view(seat)


@pytest.mark.parametrize("cls", [Greedy, Careful, Bluffer])
def test_bots_play_from_the_observation_alone(cls):
    game = new_game("doctorwho", players=3, seed=5)
    bots = [cls(seed=s) for s in range(3)]
    while not game.is_over:
        action = bots[game.current_player].choose(Blindfold(game))
        assert action in game.legal_actions()
        game.apply(action)
    assert game.finished


def test_careful_passes_its_weakest_cards():
    game = new_game("doctorwho", players=3, seed=3)
    bot = Careful(seed=0)
    while not game.is_over:
        seat = game.current_player
        before = game.available(seat) if game.phase == "turn" else None
        action = (bot if seat == 0 else Greedy(seed=1)).choose(game)
        if seat == 0 and type(action).__name__ == "Pass":
            worth = sorted(help_value(game.cards[c]) for c in before)
            assert sorted(help_value(game.cards[c]) for c in action.cards) == worth[:3]
        game.apply(action)


def test_agent_registry_and_simulate():
    assert agent_names("doctorwho")[0] == "greedy"
    assert set(agent_names("doctorwho")) == set(AGENTS) == {"greedy", "careful", "bluffer",
                                                            "random"}
    assert agent_class("doctorwho", "careful") is Careful
    a = simulate("doctorwho", players=3, games=3, seed=2, agents=["careful", "greedy", "random"])
    b = simulate("doctorwho", players=3, games=3, seed=2, agents=["careful", "greedy", "random"])
    assert [r.to_dict() for r in a] == [r.to_dict() for r in b]
    assert all(r.game == "doctorwho" and r.finished for r in a)


def test_cli_simulates_doctorwho(capsys):
    from luckylab.__main__ import main

    assert main(["simulate", "--game", "doctorwho", "--players", "3", "--games", "2",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "doctorwho" and out["finished"] == 2
