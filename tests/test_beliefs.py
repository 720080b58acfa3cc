"""Beliefs (luckylab.agents.beliefs): after a player passes, worlds where it could have foiled
become rarer, by the likelihood the module states; without evidence the deal is the uniform one.
"""

from __future__ import annotations

import random
from math import comb

import pytest

import luckylab
from luckylab.agents import agent_class
from luckylab.agents.beliefs import Beliefs, Decline, declines
from luckylab.errors import BadBudget, LuckyLabError
from luckylab.games.base import Event


def _held(world, seat: int, rules) -> int:
    return sum(rules.values[c] or 0 for c in world.hands[seat])


def _telling(game) -> bool:
    """Whether a pass in ``game``'s past, for seat 0, is contradicted by some of 200 uniform
    deals and not by others (a pass that tells something)."""
    beliefs = Beliefs(game, 0, keep=0.5)
    if not beliefs.declines:
        return False
    rng = random.Random(0)
    share = sum(beliefs.contradicted(game.determinize(0, rng)) > 0 for _ in range(200)) / 200
    return 0.1 < share < 0.9


def _after_a_pass(game_name: str, players: int, bot: str, seeds: range):
    """A game stopped when seat 0 is to decide and another seat's pass still tells about its
    hand now (:func:`_telling`)."""
    for seed in seeds:
        game = luckylab.new_game(game_name, players=players, seed=seed)
        bots = [agent_class(game_name, bot)(seed=s) for s in range(game.num_seats)]
        while not game.is_over:
            if game.current_player == 0 and _telling(game):
                return game
            game.apply(bots[game.current_player].choose(game))
    raise AssertionError("no pass found")


@pytest.mark.parametrize("game_name, players, bot", [
    ("island", 4, "cautious"), ("kill", 3, "opportunist"), ("kill", 4, "patient")])
def test_after_a_pass_worlds_where_the_passer_could_foil_become_rarer(game_name, players, bot):
    # Issue 40: an opponent declines to foil an attack that needed v; worlds where it held v
    # or more (Luck, Failure points) become rarer, by the factor ``keep`` per pass (Bayes).
    game = _after_a_pass(game_name, players, bot, range(100))
    rules = game.view(0).foiling_rules()
    (seat, needed, paid), *_ = Beliefs(game, 0, keep=0.5).declines
    n = 3000
    rng = random.Random(7)
    uniform = [game.determinize(0, rng) for _ in range(n)]
    keep = 0.2
    beliefs = Beliefs(game, 0, keep=keep)
    believed = [beliefs.deal(random.Random(k)) for k in range(n)]
    p_uniform = sum(beliefs.contradicted(w) > 0 for w in uniform) / n
    p_believed = sum(beliefs.contradicted(w) > 0 for w in believed) / n
    assert 0 < p_uniform < 1  # a pass that can tell something
    assert p_believed < p_uniform
    if len(beliefs.declines) == 1:  # one pass: the posterior share, by Bayes' rule
        expected = p_uniform * keep / (p_uniform * keep + 1 - p_uniform)
        assert abs(p_believed - expected) < 4 * (expected * (1 - expected) / n) ** 0.5 + 0.02
    # Every world is one the seat cannot tell from the real game: its own hand unchanged.
    assert all(w.hands[0] == game.hands[0] for w in believed[:50])
    # The passer's held value, seen directly: at least ``needed`` less often.
    rich = [sum(_held(w, seat, rules) >= needed for w in ws) / n for ws in (uniform, believed)]
    assert rich[1] < rich[0]


def test_the_worked_example_of_the_module_docstring():
    # beliefs.py: Kill, 3 players, seed 1; Player 2 (seat 1) passes an attack that needs 2;
    # deals giving Player 2 two or more Failure points go from 0.881 to about 0.60 (by hand).
    game = luckylab.new_game("kill", players=3, seed=1)
    rules = game.view(0).foiling_rules()
    past = [Event("foil", "Player 2 passes.", {"seat": 1, "cards": [], "needed": 2})]
    game.events.extend(past)
    beliefs = Beliefs(game, 0, keep=0.2)
    assert beliefs.declines == [Decline(1, 2, ())]
    pool = game.unseen_cards(0)
    assert len(pool) == 90 and len(game.hands[1]) == 6
    worth = [rules.values[c] or 0 for c in pool]
    assert [worth.count(v) for v in (0, 1, 2, 3)] == [51, 24, 11, 4]
    by_hand = 1 - comb(51, 6) / comb(90, 6) - 24 * comb(51, 5) / comb(90, 6)
    assert round(by_hand, 3) == 0.881
    assert round(0.881 * 0.2 / (0.881 * 0.2 + 0.119), 2) == 0.60
    assert round(by_hand * 0.2 / (by_hand * 0.2 + 1 - by_hand), 3) == 0.596
    n = 8000
    rng = random.Random(3)
    uniform = sum(_held(game.determinize(0, rng), 1, rules) >= 2 for _ in range(n)) / n
    believed = sum(_held(beliefs.deal(rng), 1, rules) >= 2 for _ in range(n)) / n
    for seen, exact in ((uniform, by_hand), (believed, 0.596)):  # within 4 standard errors
        assert abs(seen - exact) < 4 * (exact * (1 - exact) / n) ** 0.5


def test_a_pass_says_nothing_after_the_passer_may_have_gained_a_card():
    past = [Event("foil", "", {"seat": 1, "cards": [], "needed": 3}),
            Event("foil", "", {"seat": 2, "cards": [], "needed": 3}),
            Event("foil", "", {"seat": 2, "cards": [4, 5], "needed": 0}),
            Event("penalty", "", {"seat": 3, "to": 1, "card": 9}),  # a card passed to seat 1
            Event("building_draw", "", {"seat": 3})]
    assert declines(past, 0) == [Decline(2, 3, (4, 5))]
    assert declines(past, 2) == []  # the searching seat's own passes are not evidence
    assert declines([*past, Event("turn", "", {"seat": 2, "turn": 9})], 0) == []


def test_without_a_pass_or_without_foiling_the_deal_is_the_uniform_one():
    game = luckylab.new_game("kill", players=3, seed=4)
    world = Beliefs(game, 0, keep=0.1).deal(random.Random(5))
    same = game.determinize(0, random.Random(5))
    assert world.hands == same.hands and world.deck == same.deck
    panic = luckylab.new_game("panic", players=4, seed=1)
    assert panic.view(0).foiling_rules() is None and Beliefs(panic, 0, keep=0.1).declines == []


def test_keep_one_ignores_the_evidence_and_keep_zero_trusts_it():
    game = _after_a_pass("kill", 3, "opportunist", range(100))
    assert Beliefs(game, 0, keep=1).declines == []
    strict = Beliefs(game, 0, keep=0.0, tries=200)
    worlds = [strict.deal(random.Random(k)) for k in range(300)]
    assert sum(strict.contradicted(w) for w in worlds) <= strict.capped


@pytest.mark.parametrize("keep, tries", [(-0.1, 4), (1.5, 4), ("0.5", 4), (True, 4), (0.5, 0),
                                         (0.5, 2.5)])
def test_bad_beliefs_settings_say_what_is_allowed(keep, tries):
    game = luckylab.new_game("kill", players=3, seed=1)
    with pytest.raises(BadBudget, match="keep must be|tries must be") as info:
        Beliefs(game, 0, keep=keep, tries=tries)
    assert isinstance(info.value, LuckyLabError)
    with pytest.raises(BadBudget, match="beliefs must be"):
        agent_class("kill", "ismcts")(beliefs=keep if keep != 0.5 else -1)


def test_the_search_with_beliefs_plays_a_seeded_game_the_same_way_twice():
    game = _after_a_pass("kill", 3, "opportunist", range(100))
    bot = agent_class("kill", "ismcts")
    first = bot(seed=2, iterations=40, beliefs=0.2).explain(game)
    again = bot(seed=2, iterations=40, beliefs=0.2)
    assert again.explain(game) == first
    assert again.last_beliefs is not None and again.last_beliefs.dealt >= 40
    assert "beliefs=0.2" in repr(again)


def test_simulate_shows_a_bot_with_beliefs_the_passes():
    # luckylab.simulate runs games of bundled bots quietly (no events): a student's search bot
    # with beliefs (a subclass) must still be shown the passes it reads.
    from luckylab.agents.ismcts import KillISMCTS
    from luckylab.simulation import play_game

    seen: list[int] = []

    class Reader(KillISMCTS):
        default_beliefs = 0.2
        default_iterations = 6

        def _dealer(self, game, me):
            deal = super()._dealer(game, me)
            seen.append(len(self.last_beliefs.declines))
            return deal

    for seed in range(3):
        play_game("kill", 4, seed=seed, agents=[Reader, "opportunist", "opportunist",
                                                "opportunist"])
    assert seen and max(seen) > 0
    assert Reader(seed=1).reads_events and not KillISMCTS(seed=1).reads_events


def test_a_past_that_names_no_seat_or_card_of_this_game_tells_nothing():
    game = luckylab.new_game("kill", players=3, seed=1)
    game.events.extend([Event("foil", "", {"seat": 7, "cards": [], "needed": 2}),
                        Event("foil", "", {"seat": 1, "cards": [], "needed": 2}),
                        Event("foil", "", {"seat": 1, "cards": [10**6], "needed": 0}),
                        Event("foil", "", {"seat": "1", "cards": [], "needed": 2}),
                        Event("foil", "", {"seat": 2, "cards": [], "needed": True})])
    beliefs = Beliefs(game, 0, keep=0.2)
    assert beliefs.declines == []
    world = beliefs.deal(random.Random(1))
    assert world.hands[0] == game.hands[0]
