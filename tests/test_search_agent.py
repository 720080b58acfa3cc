"""The baseline look-ahead bot "pimc" (luckylab.agents.search, determinized voting): legal, fair
about hidden cards, seeded, finishes. The real ISMCTS is tested in test_ismcts.py."""

from __future__ import annotations

import random

import pytest
from hidden_support import reshuffle_hidden

import luckylab
from luckylab.agents import agent_class, agent_names
from luckylab.agents.search import (
    BadBudget,
    IslandPIMC,
    KillPIMC,
    determinize,
    unseen_cards,
)
from luckylab.errors import LuckyLabError

BOTS = {"island": "cautious", "kill": "opportunist"}
SEARCH = {"island": IslandPIMC, "kill": KillPIMC}


def seats_of(game):
    return len(getattr(game, "seats", range(game.players)))


def searched_states(game_name: str, seed: int, wanted: int, iterations: int = 6):
    """Play a 2-player game (seat 0 searches) and yield copies of the states where seat 0 had
    more than one action to consider, until ``wanted`` of them."""
    game = luckylab.new_game(game_name, players=2, seed=seed)
    bot = agent_class(game_name, BOTS[game_name])
    bots = {s: bot(seed=s) for s in range(seats_of(game))}
    me = SEARCH[game_name](seed=seed, iterations=iterations)
    found = 0
    while not game.is_over and found < wanted:
        seat = game.current_player
        if seat == 0:
            if len(me.candidates(game)) > 1:
                found += 1
                yield game.clone()
            action = me.choose(game)
        else:
            action = bots[seat].choose(game)
        game.apply(action)


@pytest.mark.parametrize("game_name", ["island", "kill"])
def test_pimc_is_registered_for_both_games(game_name):
    assert agent_class(game_name, "pimc") is SEARCH[game_name]
    # never listed: menus and tournaments offer the real ISMCTS only
    assert "pimc" not in agent_names(game_name, look_ahead=True)
    assert agent_names(game_name)[0] == BOTS[game_name]
    with pytest.raises(ValueError, match="the baseline 'pimc' plays island and kill only"):
        agent_class("save", "pimc")


@pytest.mark.parametrize("game_name", ["island", "kill"])
def test_pimc_plays_only_legal_actions(game_name):
    for seed in (1, 2):
        game = luckylab.new_game(game_name, players=2, seed=seed)
        bot = agent_class(game_name, BOTS[game_name])
        bots = {s: bot(seed=s) for s in range(seats_of(game))}
        bots[0] = SEARCH[game_name](seed=seed, iterations=6)
        decisions = 0
        while not game.is_over and decisions < 40:
            seat = game.current_player
            action = bots[seat].choose(game)
            if seat == 0:
                decisions += 1
                if getattr(game, "phase", None) in ("foil", "penalty") and game_name == "island":
                    assert set(action.cards if hasattr(action, "cards") else [action.card]) <= set(
                        game.hands[0])
                else:
                    assert action in game.legal_actions()
            game.apply(action)  # raises IllegalAction for an illegal one
        assert decisions > 0


@pytest.mark.parametrize("game_name", ["island", "kill"])
def test_pimc_reads_only_what_its_seat_may_know(game_name):
    """Reshuffling the cards the seat cannot see never changes its choice (fixed seed)."""
    checked = 0
    for state in searched_states(game_name, seed=3, wanted=3):
        other = reshuffle_hidden(state, 0, seed=100 + checked)
        hidden = [state.hands[s] for s in state.hands if s != 0] + [state.deck]
        assert hidden != [other.hands[s] for s in other.hands if s != 0] + [other.deck]
        assert other.hands[0] == state.hands[0]
        a = SEARCH[game_name](seed=11, iterations=12).choose(state)
        b = SEARCH[game_name](seed=11, iterations=12).choose(other)
        assert a == b
        checked += 1
    assert checked == 3


@pytest.mark.parametrize("game_name", ["island", "kill"])
def test_determinization_keeps_what_the_seat_saw_and_deals_the_rest(game_name):
    game = next(searched_states(game_name, seed=5, wanted=1))
    world = determinize(game, 0, random.Random(1))
    assert world.hands[0] == game.hands[0] and world.discards == game.discards
    assert {s: len(h) for s, h in world.hands.items()} == {s: len(h) for s, h in game.hands.items()}
    assert len(world.deck) == len(game.deck)
    dealt = sorted(world.deck + [c for s, h in world.hands.items() if s != 0 for c in h])
    assert dealt == unseen_cards(game, 0)
    # the same observation and seed give the same world, whatever the true hidden cards
    again = determinize(reshuffle_hidden(game, 0, seed=9), 0, random.Random(1))
    assert again.hands == world.hands and again.deck == world.deck
    if game_name == "island":
        assert world._held == sum(world._luck[c] for h in world.hands.values() for c in h)


@pytest.mark.parametrize("game_name", ["island", "kill"])
def test_a_clone_plays_on_exactly_like_the_game(game_name):
    game = next(searched_states(game_name, seed=7, wanted=1))
    copy_ = game.clone()
    bot = agent_class(game_name, BOTS[game_name])
    for g in (game, copy_):
        bots = {s: bot(seed=s) for s in range(seats_of(g))}
        while not g.is_over:
            g.apply(bots[g.current_player].choose(g))
    assert copy_.card_places() == game.card_places()
    assert (copy_.winner, copy_.turn) == (game.winner, game.turn)
    assert copy_.history == game.history[len(game.history) - len(copy_.history):]


@pytest.mark.parametrize("game_name", ["island", "kill"])
def test_same_seed_same_game(game_name):
    def play():
        return luckylab.simulate(game_name, players=2, games=1, seed=4,
                                 agents=(["pimc", None, BOTS[game_name], None]
                                         if game_name == "island" else
                                         ["pimc", BOTS[game_name]]))

    assert play() == play()


@pytest.mark.parametrize("game_name", ["island", "kill"])
def test_games_with_one_pimc_seat_finish(game_name):
    for seed in (10, 11):
        game = luckylab.new_game(game_name, players=2, seed=seed)
        bot = agent_class(game_name, BOTS[game_name])
        bots = {s: bot(seed=s) for s in range(seats_of(game))}
        bots[0] = SEARCH[game_name](seed=seed, iterations=4)
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        assert game.finished and game.winner is not None


def test_a_forced_choice_is_answered_without_search():
    """Phase 2 of the Island with nothing but Pass (seen, and not with Doctor Lucky)."""
    forced = 0
    for seed in range(1, 6):
        game = luckylab.new_game("island", players=2, seed=seed)
        me = IslandPIMC(seed=0, iterations=3)
        other = agent_class("island", "cautious")(seed=1)
        while not game.is_over and game.turn < 30:
            if game.current_player == 0:
                only = game.phase == "phase2" and len(game.legal_actions()) == 1
                before = me.searched
                action = me.choose(game)
                if only:
                    forced += 1
                    assert me.searched == before and action == game.legal_actions()[0]
            else:
                action = other.choose(game)
            game.apply(action)
        if forced:
            break
    assert forced > 0


def test_island_rollout_bot_follows_the_table_unless_given():
    for players, wanted in ((2, "cautious"), (4, "aggressive")):
        game = luckylab.new_game("island", players=players, seed=1)
        me = IslandPIMC(seed=0, iterations=2)
        me.candidates(game)
        assert me.rollout == wanted
        fixed = IslandPIMC(seed=0, iterations=2, rollout="random")
        fixed.candidates(game)
        assert fixed.rollout == "random"


def test_time_budget_returns_a_legal_action():
    state = next(searched_states("kill", seed=3, wanted=1))
    action = KillPIMC(seed=0, time_ms=20).choose(state)
    assert action in state.legal_actions()


@pytest.mark.parametrize("setting", [{"iterations": 0}, {"iterations": 2.5},
                                     {"time_ms": -1}, {"determinizations": 0},
                                     {"depth": 0}, {"rollout": "pimc"},
                                     {"rollout": "genius"}])
def test_bad_settings_say_what_is_allowed(setting):
    with pytest.raises(BadBudget) as info:
        IslandPIMC(seed=0, **setting)
    assert isinstance(info.value, LuckyLabError)
    assert str(info.value)


@pytest.mark.parametrize("game_name", ["island", "kill"])
def test_a_rollout_plays_the_same_game_as_the_checked_path(game_name):
    """Rollouts skip the legality re-check of the readable bot's actions: the play is the same."""
    game = next(searched_states(game_name, seed=7, wanted=1))
    me = SEARCH[game_name](seed=3)
    me.candidates(game)  # fits the rollout bot to the game
    quick = game.clone()
    me.rng = random.Random(5)
    me._rollout(quick)
    checked = game.clone()
    bot = me._rollout_class(seed=random.Random(5).getrandbits(32))
    for _ in range(me.depth):
        if checked.is_over:
            break
        checked.apply(bot.choose(checked))
    assert len(quick.history) > len(game.history) and quick.history == checked.history
    assert quick.card_places() == checked.card_places()
    assert (quick.winner, quick.turn) == (checked.winner, checked.turn)
