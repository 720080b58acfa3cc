"""Exact luck distributions and P(foil): pinned by hand, by brute force, and by Monte Carlo.

The rules: the other players, from the attacker's left, may discard any cards and every card's
Luck counts (I-FOIL-1); the attempt is foiled when the discarded Luck reaches the attack value
(I-FOIL-2). A Stranger asked for Luck discards the top card of the deck (I-STR-3).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from luckylab import UnknownGame, load_deck
from luckylab.analysis.luck import (
    Estimate,
    compare,
    foil_report,
    format_comparison,
    luck_distribution,
    luck_histogram,
    luck_table,
    monte_carlo_luck_distribution,
    monte_carlo_p_foil,
    monte_carlo_players_needed,
    p_at_least,
    p_foil,
    players_needed,
    remaining_cards,
)

ISLAND = load_deck("island")


# -- brute force: every hand (or every deal) equally likely ----------------------------------------

def brute_distribution(lucks, k):
    hands = list(itertools.combinations(lucks, k))  # positions, so equal Luck cards differ
    tally = Counter(sum(hand) for hand in hands)
    return {s: Fraction(n, len(hands)) for s, n in sorted(tally.items())}


def brute_p_foil(attack, sizes, lucks):
    return sum((p for s, p in brute_distribution(lucks, sum(sizes)).items() if s >= attack),
               Fraction(0))


def brute_players_needed(attack, sizes, lucks):
    """Deal every ordering of the cards; seat m gets the next sizes[m] cards."""
    total = sum(sizes)
    deals = list(itertools.permutations(lucks, total))
    tally = Counter()
    for deal in deals:
        held, start, needed = 0, 0, None
        for m, size in enumerate(sizes, start=1):
            held += sum(deal[start:start + size])
            start += size
            if held >= attack:
                needed = m
                break
        tally[needed] += 1
    return {key: Fraction(n, len(deals)) for key, n in tally.items()}


# -- hand-computed values --------------------------------------------------------------------------

HAND_COMPUTED = [
    # deck Luck, k, distribution counted by hand
    ([0, 1, 1, 2], 2, {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}),
    ([0, 1, 1, 2], 0, {0: Fraction(1)}),
    ([0, 1, 1, 2], 4, {4: Fraction(1)}),
    ([0, 1, 1, 2], 1, {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}),
    # pairs of {0, 0, 1, 3}: 0+0 once, 0+1 twice, 0+3 twice, 1+3 once
    ([0, 0, 1, 3], 2, {0: Fraction(1, 6), 1: Fraction(1, 3), 3: Fraction(1, 3),
                       4: Fraction(1, 6)}),
    # three cards of {2, 2, 2, 5, 5}: 6 once (of 10), 9 six times, 12 three times
    ([2, 2, 2, 5, 5], 3, {6: Fraction(1, 10), 9: Fraction(6, 10), 12: Fraction(3, 10)}),
]


@pytest.mark.parametrize("lucks, k, expected", HAND_COMPUTED)
def test_luck_distribution_matches_hand_counted_tiny_decks(lucks, k, expected):
    assert luck_distribution(lucks, k, exact=True) == expected
    assert luck_distribution(lucks, k) == {s: float(p) for s, p in expected.items()}


def test_luck_distribution_takes_cards_or_luck_values_alike():
    cards = ISLAND[:12]
    assert luck_distribution(cards, 4, exact=True) == luck_distribution(
        [c.luck for c in cards], 4, exact=True)


def test_luck_table_counts_hands_not_probabilities():
    table = luck_table([0, 1, 1, 2])
    assert table.counts(2) == (0, 2, 2, 2)
    assert table.hands(2) == 6
    assert table.at_least(2, 2) == 4
    assert table.count(2, 9) == 0


def test_island_deck_luck_multiset():
    assert luck_histogram(ISLAND) == {0: 16, 1: 32, 2: 16, 3: 4, 4: 4}


@pytest.mark.parametrize("k", [1, 5, 6, 7, 18, 36, 72])
def test_island_hand_luck_has_the_hypergeometric_mean_and_variance(k):
    """Sum of k cards without replacement: mean k*mu, variance k*sigma^2*(N-k)/(N-1)."""
    lucks = [c.luck for c in ISLAND]
    n = len(lucks)
    mu = Fraction(sum(lucks), n)
    var = sum((Fraction(x) - mu) ** 2 for x in lucks) / n
    dist = luck_distribution(ISLAND, k, exact=True)
    assert sum(dist.values()) == 1
    mean = sum(s * p for s, p in dist.items())
    assert mean == k * mu
    assert sum((s - mean) ** 2 * p for s, p in dist.items()) == k * var * (n - k) / (n - 1)


# -- brute force ----------------------------------------------------------------------------------

small_decks = st.lists(st.integers(0, 4), min_size=1, max_size=9)


@settings(max_examples=60, deadline=None)
@given(small_decks, st.data())
def test_luck_distribution_equals_enumerating_every_hand(lucks, data):
    k = data.draw(st.integers(0, len(lucks)))
    assert luck_distribution(lucks, k, exact=True) == brute_distribution(lucks, k)


@settings(max_examples=60, deadline=None)
@given(small_decks, st.data())
def test_I_FOIL_2_p_foil_equals_enumerating_every_table(lucks, data):
    """I-FOIL-2: foiled when the table's Luck reaches the attack value (>=, not >)."""
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3)
                      .filter(lambda s: sum(s) <= len(lucks)))
    attack = data.draw(st.integers(0, 14))
    assert p_foil(attack, sizes, deck=lucks, exact=True) == brute_p_foil(attack, sizes, lucks)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=6), st.data())
def test_I_FOIL_1_players_needed_equals_dealing_every_ordering(lucks, data):
    """I-FOIL-1: seats are asked in order from the attacker's left; count how many it takes."""
    sizes = data.draw(st.lists(st.integers(0, 2), min_size=1, max_size=3)
                      .filter(lambda s: 0 < sum(s) <= len(lucks)))
    attack = data.draw(st.integers(1, 8))
    exact = players_needed(attack, sizes, deck=lucks, exact=True)
    brute = brute_players_needed(attack, sizes, lucks)
    assert {k: p for k, p in exact.items() if p} == brute
    assert sum(exact.values()) == 1
    assert exact[None] == 1 - p_foil(attack, sizes, deck=lucks, exact=True)


def test_I_FOIL_1_players_needed_hand_computed():
    """Luck 0..4, one card each, attack 4. The first seat alone reaches 4 only with the 4:
    1/5. Of the 10 pairs, only {0,1}, {0,2}, {0,3}, {1,2} stay below 4: 6/10 reach it. Of the
    10 triples only {0,1,2} stays below: 9/10."""
    dist = players_needed(4, [1, 1, 1], deck=[0, 1, 2, 3, 4], exact=True)
    assert dist == {1: Fraction(1, 5), 2: Fraction(6, 10) - Fraction(1, 5),
                    3: Fraction(9, 10) - Fraction(6, 10), None: Fraction(1, 10)}


def test_players_needed_attack_zero_needs_nobody():
    assert players_needed(0, [3, 3], exact=True) == {0: 1}


def test_I_FOIL_1_table_luck_is_drawn_without_replacement():
    """Two opponents, one card each, from a deck holding one 0 and one 1: together they hold
    exactly Luck 1, never 2. Independent hands would say P(>= 2) = 1/4."""
    assert p_foil(2, [1, 1], deck=[0, 1], exact=True) == 0
    assert p_foil(1, [1, 1], deck=[0, 1], exact=True) == 1


def test_I_STR_3_a_stranger_is_a_hand_of_one_unseen_card():
    """I-STR-3: a Stranger asked for Luck discards the top card of the deck. Deal every
    ordering of a tiny deck (two players' hands first, the rest is the deck) and let the
    Stranger, seated between them, take the top card of what is left: the chance the table
    reaches the attack equals p_foil with the Stranger counted as one card."""
    lucks = [0, 1, 1, 2, 3, 0]
    attack = 5
    deals = list(itertools.permutations(lucks))
    foiled = 0
    for deal in deals:
        player_a, player_b, deck = deal[:2], deal[2:4], deal[4:]
        stranger = deck[0]  # the top card of the deck
        foiled += sum(player_a) + stranger + sum(player_b) >= attack
    assert p_foil(attack, [2, 1, 2], deck=lucks, exact=True) == Fraction(foiled, len(deals))


# -- the Island deck ----------------------------------------------------------------------------

def test_p_foil_floats_are_the_exact_fractions_rounded():
    for attack in (6, 14, 20, 24):
        assert p_foil(attack, [6, 6, 6]) == float(p_foil(attack, [6, 6, 6], exact=True))


def test_p_foil_defaults_to_the_island_deck_and_accepts_a_game_name():
    assert p_foil(14, [5, 5]) == p_foil(14, [5, 5], deck=ISLAND) == p_foil(14, [5, 5],
                                                                            deck="island")


def test_p_foil_pinned_island_values():
    # Regression pins of the exact values (checked against Monte Carlo below).
    assert round(p_foil(20, [6, 6, 6]), 6) == 0.814788
    assert round(p_foil(14, [5, 5]), 6) == 0.394207


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40), st.lists(st.integers(0, 7), min_size=1, max_size=5))
def test_more_attack_is_harder_to_foil_and_more_cards_easier(attack, sizes):
    p = p_foil(attack, sizes)
    assert p_foil(attack + 1, sizes) <= p
    assert p_foil(attack, [*sizes[:-1], sizes[-1] + 1]) >= p


def test_attack_beyond_all_the_luck_is_never_foiled_and_zero_always():
    assert p_foil(93, [36, 36], exact=True) == 0
    assert p_foil(92, [36, 36], exact=True) == 1
    assert p_foil(0, [0], exact=True) == 1


# -- conditioning on seen cards ------------------------------------------------------------------

def test_known_cards_are_removed_by_card_or_by_id():
    seen = [ISLAND[0], ISLAND[5], ISLAND[40]]
    rest = [c for c in ISLAND if c.id not in (0, 5, 40)]
    by_cards = p_foil(12, [6, 6], known=seen, exact=True)
    assert by_cards == p_foil(12, [6, 6], known=[0, 5, 40], exact=True)
    assert by_cards == p_foil(12, [6, 6], deck=rest, exact=True)
    assert luck_distribution(ISLAND, 5, known=seen) == luck_distribution(rest, 5)


def test_seeing_high_luck_cards_lowers_the_tables_chances():
    high = [c for c in ISLAND if c.luck >= 3][:6]
    low = [c for c in ISLAND if c.luck == 0][:6]
    assert p_foil(16, [6, 6], known=high) < p_foil(16, [6, 6]) < p_foil(16, [6, 6], known=low)


def test_known_luck_values_for_a_deck_of_plain_ints():
    assert remaining_cards([0, 1, 1, 2], known=[1, 2]) == [0, 1]


@pytest.mark.parametrize("known", [[72], [-1], [0, 0], ["Beach Chair"]])
def test_unknown_or_repeated_known_cards_are_refused(known):
    with pytest.raises(ValueError, match="known card"):
        p_foil(6, [6], known=known)


def test_known_luck_value_not_in_a_plain_deck_is_refused():
    with pytest.raises(ValueError, match="not among"):
        remaining_cards([0, 1], known=[2])


# -- bad input -------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, match", [
    (lambda: luck_distribution([0, 1, 2], 4), "cannot draw 4 cards from 3"),
    (lambda: luck_distribution([0, 1, 2], -1), "negative"),
    (lambda: p_foil(6, [40, 40]), "need 80 cards but only 72"),
    (lambda: p_foil(6, [36, 36], known=[0]), "need 72 cards but only 71"),
    (lambda: p_foil(-1, [6, 6]), "attack cannot be negative"),
    (lambda: p_foil(6, []), "at least one opponent"),
    (lambda: p_foil(6, [6, -2]), "cannot be negative"),
    (lambda: players_needed(-3, [6]), "attack cannot be negative"),
    (lambda: p_at_least([0, 1], 1, -1), "value cannot be negative"),
    (lambda: luck_distribution([0, -1], 1), "never negative"),
    (lambda: monte_carlo_p_foil(6, [6], samples=0), "samples"),
    (lambda: monte_carlo_p_foil(6, [6], engine="abacus"), "unknown engine"),
    (lambda: monte_carlo_p_foil(6, [60, 60]), "need 120 cards"),
    (lambda: monte_carlo_luck_distribution([0, 1], 3), "cannot draw 3"),
])
def test_bad_input_raises_a_clear_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("call", [
    lambda: p_foil(6.5, [6]),
    lambda: p_foil(6, [6.0]),
    lambda: p_foil(True, [6]),
    lambda: luck_distribution(["ace", "king"], 1),
    lambda: luck_distribution({0: 3}, 1),
])
def test_wrong_types_raise_type_error(call):
    with pytest.raises(TypeError):
        call()


def test_unknown_game_deck_is_refused():
    with pytest.raises(UnknownGame, match="unknown deck 'monopoly'"):
        p_foil(6, [6], deck="monopoly")


# -- Monte Carlo twins ----------------------------------------------------------------------------

GRID = [  # attack, hand sizes: from near-certain foils to long shots
    (6, [6, 6, 6]), (14, [5, 5]), (20, [6, 6, 6]), (24, [6, 6, 6]),
    (10, [7]), (30, [5, 5, 5, 5, 5, 5, 5]), (9, [2, 1, 2]), (3, [1]),
]


@pytest.mark.parametrize("attack, sizes", GRID)
def test_monte_carlo_p_foil_agrees_within_4_standard_errors(attack, sizes):
    exact = p_foil(attack, sizes, exact=True)
    for seed in (0, 1):
        est = monte_carlo_p_foil(attack, sizes, samples=40_000, seed=seed)
        assert est.agrees(exact, sigmas=4), (seed, est, float(exact))


@pytest.mark.parametrize("attack, sizes", GRID[:4])
def test_python_engine_agrees_too(attack, sizes):
    est = monte_carlo_p_foil(attack, sizes, samples=5_000, seed=3, engine="python")
    assert est.agrees(p_foil(attack, sizes), sigmas=4)


@pytest.mark.parametrize("engine", ["numpy", "python"])
@pytest.mark.parametrize("attack, sizes", [(14, [5, 5]), (20, [6, 6, 6]), (9, [2, 1, 2])])
def test_monte_carlo_players_needed_agrees_within_4_standard_errors(engine, attack, sizes):
    exact = players_needed(attack, sizes)
    sim = monte_carlo_players_needed(attack, sizes, samples=20_000 if engine == "numpy"
                                     else 4_000, seed=5, engine=engine)
    assert set(sim) == set(exact)
    for key in exact:
        assert sim[key].agrees(exact[key]), (key, sim[key], exact[key])


@pytest.mark.parametrize("engine", ["numpy", "python"])
@pytest.mark.parametrize("k", [1, 6, 18])
def test_monte_carlo_luck_distribution_agrees_within_4_standard_errors(engine, k):
    exact = luck_distribution(ISLAND, k)
    sim = monte_carlo_luck_distribution(ISLAND, k, samples=10_000, seed=11, engine=engine)
    assert set(sim) <= set(exact)
    rows = compare(exact, sim)
    assert all(row["agrees"] for row in rows), [r for r in rows if not r["agrees"]]


def test_monte_carlo_is_seeded_and_a_random_instance_advances():
    a = monte_carlo_p_foil(20, [6, 6, 6], samples=5_000, seed=42)
    assert a == monte_carlo_p_foil(20, [6, 6, 6], samples=5_000, seed=42)
    rng = random.Random(42)
    b = monte_carlo_p_foil(20, [6, 6, 6], samples=5_000, seed=rng)
    c = monte_carlo_p_foil(20, [6, 6, 6], samples=5_000, seed=rng)
    assert b != c
    py = monte_carlo_p_foil(20, [6, 6, 6], samples=2_000, seed=7, engine="python")
    assert py == monte_carlo_p_foil(20, [6, 6, 6], samples=2_000, seed=7, engine="python")


def test_estimate_standard_error_and_z():
    est = Estimate.from_counts(30, 100)
    assert est.value == 0.3
    assert est.stderr == pytest.approx((0.3 * 0.7 / 100) ** 0.5)
    assert est.z(0.3) == 0
    assert est.z(0.5) == pytest.approx(-4.0)
    assert not est.agrees(0.5, sigmas=3.9)
    assert Estimate.from_counts(0, 100).z(0.0) == 0
    assert Estimate.from_counts(1, 100).z(0.0) == float("inf")


def test_a_wrong_exact_value_is_caught_by_the_twin():
    """The comparison can fail: a value off by a few percent is far outside 4 errors."""
    exact = p_foil(20, [6, 6, 6])
    est = monte_carlo_p_foil(20, [6, 6, 6], samples=40_000, seed=0)
    assert est.agrees(exact)
    assert not est.agrees(exact - 0.02)


# -- the side-by-side report ---------------------------------------------------------------------

def test_foil_report_is_plain_data_with_exact_and_simulated():
    report = foil_report(20, [6, 6, 6], samples=20_000, seed=0, known=[0, 1])
    assert report["p_foil_exact"] == p_foil(20, [6, 6, 6], known=[0, 1])
    assert report["p_foil_monte_carlo"] == monte_carlo_p_foil(
        20, [6, 6, 6], known=[0, 1], samples=20_000, seed=0).value
    assert report["agrees"] and report["unseen_cards"] == 70 and report["known_cards"] == 2
    assert Fraction(report["p_foil_exact_fraction"]) == p_foil(20, [6, 6, 6], known=[0, 1],
                                                               exact=True)
    assert [row["outcome"] for row in report["players_needed"]] == [1, 2, 3, None]
    assert sum(row["exact"] for row in report["players_needed"]) == pytest.approx(1)
    table = format_comparison(report["players_needed"], title="seats")
    assert table.splitlines()[0].split() == ["seats", "exact", "simulated", "stderr", "z"]
    assert table.splitlines()[-1].split()[0] == "never"


def test_exact_denominator_is_the_number_of_tables():
    p = p_foil(14, [5, 5], exact=True)
    assert (p * comb(72, 10)).denominator == 1


# -- the question of a live game ------------------------------------------------------------------

def test_I_FOIL_1_foil_question_of_a_live_four_player_game():
    """I-FOIL-1: the seats asked are the others, from the attacker's left; the attacker has
    seen its own hand, the discards and the cards under the characters."""
    from luckylab import new_game
    from luckylab.analysis.luck import foil_question

    game = new_game("island", players=4, seed=2)
    seat = game.current_player
    question = foil_question(game)
    asked = [(seat + i) % 4 for i in range(1, 4)]
    assert question["hand_sizes"] == [len(game.hands[s]) for s in asked]
    assert sorted(question["known"]) == sorted(game.hands[seat])
    assert question["attack"] == 1  # I-SETUP-4: every player starts with Attack 1
    unseen = remaining_cards(question["deck"], question["known"])
    assert len(unseen) == len(game.deck) + sum(len(game.hands[s]) for s in asked)
    assert p_foil(**question) == p_foil(1, question["hand_sizes"], known=game.hands[seat])
    assert foil_question(game, attack=9)["attack"] == 9


def test_I_STR_3_foil_question_counts_a_stranger_as_one_card_while_the_deck_lasts():
    from luckylab import new_game
    from luckylab.analysis.luck import foil_question

    game = new_game("island", players=3, seed=7)
    question = foil_question(game)
    assert question["hand_sizes"] == [1, 7, 1, 7, 1]
    empty = game.clone()
    empty.deck.clear()
    assert foil_question(empty)["hand_sizes"] == [0, 7, 0, 7, 0]
    with pytest.raises(ValueError, match="holds no hand"):
        foil_question(game, seat=1)
