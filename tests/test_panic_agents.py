"""Panic Island! bots and the numbers of luckylab.analysis.memory."""

from __future__ import annotations

from fractions import Fraction

import pytest

from luckylab import new_game
from luckylab.agents import agent_class, agent_names
from luckylab.agents.panic import (
    AGENTS,
    DEFAULT,
    ForgetfulAgent,
    NoMemoryAgent,
    PerfectRecallAgent,
)
from luckylab.analysis.memory import (
    best_gouga_time,
    expected_turns_to_find,
    gouga_sweep,
    mean_ci,
    p_pair_saves,
    p_partner,
    play,
    score_by_memory,
    turns_to_find_monte_carlo,
    unknown_counts,
    wilson_ci,
)
from luckylab.games.panic import GougaCall, Place, Reveal, WakeGouga


def put(game, place, name):
    """Swap a card called ``name`` onto ``place`` (tests arrange the island like this)."""
    other = next(p for p, c in game.island.items()
                 if c is not None and game.cards[c].name == name and p != place)
    if game.card_at(place) is None or game.card_at(place).name != name:
        game.island[place], game.island[other] = game.island[other], game.island[place]


def turn(game, a, b):
    return game.apply(Reveal(a)) + game.apply(Reveal(b))


def _place(game, kind):
    return next(p for p in game.revealable() if game.card_at(p).kind == kind)


def test_registry():
    assert DEFAULT == "perfect" and agent_class("panic") is PerfectRecallAgent
    assert set(agent_names("panic")) == {"perfect", "forgetful", "none", "random"}


def test_perfect_recall_remembers_and_uses_a_seen_pair():
    game = new_game("panic", players=2, seed=11)
    put(game, "r1c1", "red native")
    put(game, "r1c2", "yellow egg")
    put(game, "r5c4", "red dodo")
    put(game, "r5c5", "yellow native")
    turn(game, "r1c1", "r1c2")
    turn(game, "r5c4", "r5c5")
    bot = PerfectRecallAgent(seed=0, gouga_at=None)
    first = bot.choose(game)
    assert first in (Reveal("r1c1"), Reveal("r5c4"))
    game.apply(first)
    second = bot.choose(game)
    assert {first.place, second.place} == {"r1c1", "r5c4"}
    game.apply(second)
    assert game.cards[game.saved[-1]].name == "red dodo"


def test_memory_follows_a_mirage_swap():
    game = new_game("panic", players=2, seed=11)
    put(game, "r1c1", "Mirage")
    put(game, "r1c2", "red egg")
    bot = PerfectRecallAgent(seed=0)
    turn(game, "r1c1", "r1c2")
    bot.observe(game)
    assert game.cards[bot.known["r1c1"]].name == "red egg"
    assert game.cards[bot.known["r1c2"]].name == "Mirage"


def test_no_memory_never_remembers_and_never_touches_the_volcano():
    game = new_game("panic", players=2, seed=4)
    bot = NoMemoryAgent(seed=4)
    while not game.is_over:
        action = bot.choose(game)
        assert getattr(action, "place", None) != game.volcano or isinstance(action, Place)
        game.apply(action)
        assert bot.known == {}
    assert game.end != "volcano"


@pytest.mark.parametrize("forget, expected", [(0.0, 2), (1.0, 0)])
def test_forgetful_forgets_each_card_with_probability_forget_per_turn(forget, expected):
    game = new_game("panic", players=2, seed=11)
    put(game, "r1c1", "red native")
    put(game, "r1c2", "yellow egg")
    bot = ForgetfulAgent(seed=0, forget=forget)
    turn(game, "r1c1", "r1c2")
    bot.observe(game)
    assert len(bot.known) == expected
    with pytest.raises(ValueError):
        ForgetfulAgent(forget=1.5)


def test_forgetful_forgets_about_the_right_share():
    bot = ForgetfulAgent(seed=1, forget=0.25)
    bot.known = {f"p{i}": i for i in range(4000)}
    bot.forget_some()
    assert 2850 < len(bot.known) < 3150  # about 3000 kept


def test_gouga_policy_wakes_at_k_seconds_and_calls_a_remembered_card():
    game = new_game("panic", players=2, seed=11, time={"budget": 30.0})
    put(game, "r1c1", "red native")
    put(game, "r1c2", "yellow egg")
    put(game, "r2c1", "red egg")
    put(game, "r2c2", "yellow native")
    bot = PerfectRecallAgent(seed=0, gouga_at=20.0)
    turn(game, "r1c1", "r1c2")  # 25 s left: not yet
    assert isinstance(bot.choose(game), Reveal)
    turn(game, "r2c1", "r2c2")  # 20 s left: now
    assert bot.choose(game) == WakeGouga()
    game.apply(WakeGouga())
    call = bot.choose(game)
    assert isinstance(call, GougaCall)
    assert call.place in ("r1c1", "r1c2", "r2c1", "r2c2")
    assert game.card_at(call.place).kind == call.kind


def test_wait_for_escape_keeps_gouga_asleep_until_raft_and_paddle():
    game = new_game("panic", players=2, seed=11, time={"budget": 10.0})
    bot = PerfectRecallAgent(seed=0, gouga_at=60.0, wait_for_escape=True)
    assert isinstance(bot.choose(game), Reveal)
    turn(game, _place(game, "raft"), _place(game, "paddle"))
    assert not game.is_over and bot.choose(game) == WakeGouga()


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_finishes_seeded_games_the_same_way_twice(name):
    results = []
    for _ in range(2):
        game = new_game("panic", players=3, seed=21)
        bot = AGENTS[name](seed=21)
        while not game.is_over:
            game.apply(bot.choose(game))
        results.append(game.result())
    assert results[0] == results[1]


# -- exact numbers ------------------------------------------------------------------------------
def test_p_pair_saves_at_the_start_is_30_of_276():
    """12 native-dodo pairs + 18 dodo-egg pairs among C(24, 2) = 276."""
    assert p_pair_saves(unknown_counts()) == Fraction(30, 276)


def test_p_pair_saves_under_a_rainbow_is_the_same_by_symmetry():
    assert p_pair_saves(unknown_counts(), rainbow=True) == Fraction(30, 276)


def test_p_pair_saves_matches_brute_force_enumeration():
    from itertools import combinations

    from luckylab.analysis.memory import _saves

    counts = unknown_counts()
    counts[("dodo", "red")] -= 2
    counts[("native", "yellow")] -= 1
    cards = [t for t, n in counts.items() for _ in range(n)]
    pairs = list(combinations(cards, 2))
    good = sum(_saves(a, b, False) or _saves(b, a, False) for a, b in pairs)
    assert p_pair_saves(counts) == Fraction(good, len(pairs))


def test_unknown_counts_uses_public_knowledge_and_memory():
    game = new_game("panic", players=2, seed=11)
    put(game, "r1c1", "red native")
    put(game, "r1c2", "red dodo")
    turn(game, "r1c1", "r1c2")  # the red dodo is saved; the red native is remembered
    counts = unknown_counts(game, {"r1c1": game.island["r1c1"]})
    assert sum(counts.values()) == 22
    assert counts[("dodo", "red")] == 2 and counts[("native", "red")] == 1
    assert p_partner(("native", "red"), counts) == Fraction(2, 22)


def test_expected_turns_to_find_exact_values_and_monte_carlo_twin():
    assert expected_turns_to_find(24, "perfect") == Fraction(1183, 138)
    assert expected_turns_to_find(24, "none") == Fraction(782, 45)
    assert expected_turns_to_find(24, "none", paddle_and_raft=True) == 276
    assert expected_turns_to_find(2, "perfect") == 1
    for memory, both in (("perfect", False), ("none", False), ("perfect", True)):
        exact = float(expected_turns_to_find(24, memory, both))
        sampled = turns_to_find_monte_carlo(24, memory, both, trials=4000, seed=3)
        assert abs(sampled - exact) < 0.06 * exact
    with pytest.raises(ValueError):
        expected_turns_to_find(24, "elephant")


def test_confidence_intervals():
    assert mean_ci([5, 5, 5]) == (5, 5, 5)
    m, lo, hi = mean_ci([0, 10] * 50)
    assert lo < m == 5 < hi
    rate, lo, hi = wilson_ci(0, 20)
    assert rate == 0 and lo == 0 and 0 < hi < 0.2


# -- simulation ---------------------------------------------------------------------------------
def test_memory_buys_points():
    rows = {r["memory"]: r for r in score_by_memory(games=40, seed=0)}
    assert rows["none"]["score_high"] < rows["forgetful"]["score_low"]
    assert rows["forgetful"]["score_high"] < rows["perfect"]["score_low"]
    for row in rows.values():
        assert sum(row["distribution"]) == 40 and row["score_low"] <= row["mean_score"]


def test_gouga_sweep_rows_and_best():
    rows = gouga_sweep((None, 30), games=30, seed=0)
    assert [r["gouga_at"] for r in rows] == [None, 30]
    assert rows[1]["mean_score"] > rows[0]["mean_score"]  # waking Gouga at all pays
    assert best_gouga_time(rows)["gouga_at"] == 30
    with pytest.raises(ValueError):
        best_gouga_time([])


def test_play_is_seeded():
    a, b = play("forgetful", seed=5), play("forgetful", seed=5)
    assert a.result() == b.result() and a.history == b.history


def test_luckylab_simulate_plays_panic_with_one_bot_per_player():
    """The generic simulate() gives each player its own bot (its own memory)."""
    from luckylab import simulate

    results = simulate("panic", players=3, games=4, seed=2, agents="forgetful")
    again = simulate("panic", players=3, games=4, seed=2, agents="forgetful")
    assert [r.extra["score"] for r in results] == [r.extra["score"] for r in again]
    assert all(r.finished and 0 <= r.extra["score"] <= 16 for r in results)
