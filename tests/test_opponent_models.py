"""Opponent models (luckylab.agents.models): each other seat's readable bot, read from the
moves it played by Bayes' rule; the search bot's ``opponents="modelled"`` option."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import luckylab
from luckylab.agents import agent_class
from luckylab.agents.island import RandomIslandAgent
from luckylab.agents.models import OpponentModel
from luckylab.errors import BadBudget, OptionError
from luckylab.games.island import MoveCat, Pass
from luckylab.games.shown import SeatPasts, Unseen, seat_world


def _read(game_name: str, players: int, seats: dict[int, str], seed: int, me: int | None = None,
          decisions: int = 10**6, **options):
    """Play a game with bots ``seats`` (seat -> name; ``me`` plays the default bot) and let
    ``me`` read the table at each of its decisions. Returns (game, model)."""
    game = luckylab.new_game(game_name, players=players, seed=seed)
    me = game.current_player if me is None else me
    bots = {s: agent_class(game_name, seats.get(s))(seed=seed + s)
            for s in range(game.num_seats)}
    model = OpponentModel(game_name, me, **options)
    rng = random.Random(seed)
    while not game.is_over and decisions:
        if game.current_player == me:
            model.observe(game, rng)
            decisions -= 1
        game.apply(bots[game.current_player].choose(game))
    return game, model


def test_the_worked_example_a_hazard_at_doctor_lucky_rules_out_the_cautious_bot():
    # The module's worked example: P(hazard | cautious) = 0.9 * 0 + 0.1 * 0.01 = 0.001 and
    # P(hazard | aggressive) = 0.9 * 1 + 0.001 when it holds a Hazard that can hit him.
    model = OpponentModel("island", 0, rollout="aggressive")
    assert model.prior == {"aggressive": 0.5, "cautious": 0.25, "random": 0.25}
    world: dict = {}  # one world's products
    model._add(world, 1, {"aggressive": 1.0, "cautious": 0.0, "random": 0.1})
    model._score(1, [world[1]], moves=1)
    assert math.exp(model.log_likelihood[1]["cautious"]) == pytest.approx(0.001)
    assert math.exp(model.log_likelihood[1]["aggressive"]) == pytest.approx(0.901)
    post = model.posterior(1)
    expected = 0.25 * 0.001 / (0.5 * 0.901 + 0.25 * 0.001 + 0.25 * (0.9 * 0.1 + 0.001))
    assert post["cautious"] == pytest.approx(expected) and post["cautious"] < 0.001
    assert model.posterior(2) == model.prior  # a seat whose moves were not read: the prior


@pytest.mark.parametrize("game_name, truth", [
    ("island", {0: "cautious", 2: "random", 3: "aggressive"}),
    ("kill", {0: "opportunist", 2: "patient", 3: "random"}),
    ("save", {0: "rider", 2: "greedy", 3: "random"}),
])
def test_games_of_moves_name_each_opponents_bot(game_name, truth):
    # Seat 1 reads the others through whole games (seeds 1-8); among the seats it read 5
    # moves or more of, each seat's likeliest bot is its own in at least 85 % (the module's
    # text: 188 of 207 over such games).
    right = read = 0
    for seed in range(1, 9):
        _, model = _read(game_name, 4, truth, seed=seed, me=1)
        for seat, name in truth.items():
            if model.moves_read.get(seat, 0) >= 5:
                post = model.posterior(seat)
                read += 1
                right += max(post, key=post.get) == name
    assert read >= 12 and right >= 0.85 * read, (right, read)


def test_the_model_reads_only_what_its_seat_may_know():
    # The same model on the real game and on the seat's world (other hands dealt anew, the
    # past as the seat saw it: Unseen for a card given face down) reads the same, in a game
    # where a card was given face down.
    for seed in range(5, 40):
        game = luckylab.new_game("island", players=4, seed=seed)
        me = game.current_player
        past = SeatPasts(game)
        bots = [agent_class("island", "aggressive")(seed=s) for s in range(4)]
        real, shown = OpponentModel("island", me), OpponentModel("island", me)
        r1, r2 = random.Random(3), random.Random(3)
        while not game.is_over:
            if game.current_player == me:
                real.observe(game, r1)
                world = seat_world(game, me, random.Random(len(game.history)), past)
                shown.observe(world, r2)
                assert shown.log_likelihood == real.log_likelihood
                assert shown.moves_read == real.moves_read
            actor = game.current_player
            game.apply(bots[actor].choose(game))
            past.catch_up(actor)
        if any(isinstance(a, Unseen) for a in past.history[me]) and real.moves_read:
            return
    raise AssertionError("no game with a card given face down")


def test_a_new_game_starts_from_the_prior_and_a_seed_replays_the_reading():
    _, a = _read("kill", 3, {}, seed=2, decisions=6)
    _, b = _read("kill", 3, {}, seed=2, decisions=6)
    assert a.log_likelihood == b.log_likelihood and a.moves_read
    fresh = luckylab.new_game("kill", players=3, seed=9)
    a.seat = fresh.current_player
    a.observe(fresh, random.Random(1))  # another game's past: nothing of the first is kept
    assert a.log_likelihood == {} and a.moves_read == {}


def test_a_random_bot_says_how_likely_each_move_is():
    # The Island's random bot draws a kind of move, then one of that kind: its chances over
    # every legal move add up to 1, and match how often it plays them.
    game = luckylab.new_game("island", players=4, seed=8)
    bot = RandomIslandAgent(seed=1)
    legal = game.legal_actions()
    assert game.phase == "phase1"
    assert sum(bot.probability(game, a) for a in legal) == pytest.approx(1)
    plays = Counter(bot.choose(game) for _ in range(4000))
    for action in (Pass(), *[a for a in legal if isinstance(a, MoveCat)][:2]):
        assert plays[action] / 4000 == pytest.approx(bot.probability(game, action), abs=0.02)
    kill = luckylab.new_game("kill", players=3, seed=1)
    random_kill = agent_class("kill", "random")(seed=1)
    assert sum(random_kill.probability(kill, a) for a in kill.legal_actions()) == pytest.approx(1)
    # A bot that cannot say without choosing says None (the model asks it to choose).
    assert agent_class("kill", "patient")(seed=1).probability(kill, kill.legal_actions()[0]) is None


@pytest.mark.parametrize("options, message", [
    ({"prior": 1.5}, "prior must be a number from 0 to 1"),
    ({"tremble": -0.1}, "tremble must be"),
    ({"worlds": 0}, "worlds must be a whole number from 1 to 64"),
    ({"worlds": 10**9}, "worlds must be a whole number from 1 to 64"),
    ({"draws": 2.5}, "draws must be"),
    ({"tremble": 0, "floor": 0}, "cannot both be 0"),
])
def test_bad_options_say_what_is_allowed(options, message):
    with pytest.raises(BadBudget, match=message):
        OpponentModel("kill", 0, **options)
    with pytest.raises(OptionError, match="readable bots: opportunist, patient, random"):
        OpponentModel("kill", 0, rollout="ismcts")


def test_the_search_bot_plays_its_opponents_as_modelled():
    with pytest.raises(BadBudget, match="opponents must be 'fixed' or 'modelled'"):
        agent_class("island", "ismcts")(seed=1, opponents="psychic")
    choices = []
    for _ in range(2):
        game = luckylab.new_game("island", players=4, seed=4)
        me = game.current_player
        bots = {s: agent_class("island", "cautious")(seed=s) for s in range(4)}
        bots[me] = search = agent_class("island", "ismcts")(seed=2, iterations=24,
                                                              opponents="modelled")
        moves = []
        while not game.is_over:
            action = bots[game.current_player].choose(game)
            if game.current_player == me:
                moves.append(action)
            game.apply(action)
        choices.append(moves)
    assert choices[0] == choices[1]  # a seed replays the game, the model's reading included
    assert "opponents='modelled'" in repr(search)
    others = [s for s in range(4) if s != me]
    assert set(search.model.moves_read) == set(others)
    # Each simulated game deals the other players' bots from the model's posterior.
    assert set(search._types) == set(others)
    model = search.model
    for seat in others:
        model.log_likelihood[seat] = {"cautious": 0.0, "aggressive": -50.0, "random": -50.0}
    rng = random.Random(0)
    draws = Counter(cls.name for _ in range(200) for cls in model.sample(rng, range(4)).values())
    assert draws == {"cautious": 600}
