"""The foiling round as a sequential volunteer's dilemma (I-FOIL-1, I-FOIL-2, I-FOIL-3, I-STR-3).

Known outcomes are pinned; every solution is also checked to be subgame perfect by the
one-shot deviation principle, against an independent referee that plays a strategy out.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from luckylab.analysis.dilemma import (
    VolunteersDilemmaError,
    discard_options,
    hand_size_effect,
    seat_order_effect,
    solve_foil_round,
    volunteers_dilemma_equilibrium,
    who_pays,
)

# -- an independent referee ----------------------------------------------------------------------


def referee(attack, hands, strategy, *, luck_cost=Fraction(1, 100), attacker_wins=-1,
            loser_penalty=0, strangers=(), start=0, need=None, deviation=None):
    """Play the round from (start, need) following ``strategy`` (seat -> need -> amount),
    except ``deviation = (seat, amount)`` at the first node; return each seat's payoff."""
    need = attack if need is None else need
    spent = [0] * len(hands)
    loser = None
    for seat in range(start, len(hands)):
        if need <= 0:
            break
        if seat in strangers:
            amount = sum(hands[seat])
        elif deviation and seat == start:
            amount = deviation[1]
        else:
            amount = strategy[seat][need]
        if seat not in strangers and sum(hands[seat]) >= need > amount:
            loser = seat  # held enough, did not cover: the last such is the loser (I-FOIL-3)
        spent[seat] = amount
        need -= amount
    foiled = need <= 0
    out = []
    for seat in range(len(hands)):
        value = -Fraction(luck_cost) * spent[seat]
        if not foiled:
            value += attacker_wins - (loser_penalty if seat == loser else 0)
        out.append(value)
    return out


def assert_subgame_perfect(attack, hands, **kw):
    """No seat gains by deviating once at any node (one-shot deviation principle)."""
    plan = solve_foil_round(attack, hands, **kw)
    strangers = kw.get("strangers", ())
    for seat in range(len(hands)):
        if seat in strangers:
            continue
        for need in range(1, attack + 1):
            chosen = referee(attack, hands, plan.strategy, start=seat, need=need, **kw)[seat]
            for amount in discard_options(hands[seat]):
                deviated = referee(attack, hands, plan.strategy, start=seat, need=need,
                                   deviation=(seat, amount), **kw)[seat]
                assert deviated <= chosen, (seat, need, amount, plan)
                if deviated == chosen:  # ties go to the smaller amount (documented)
                    assert plan.strategy[seat][need] <= amount
    return plan


# -- the rules' worked example --------------------------------------------------------------------

def test_I_FOIL_1_I_FOIL_2_worked_example_6():
    """Worked example 6: three opponents hold Luck 2, 0 and 5; attack 4. The first passes,
    the second passes, the third discards 4 or more; foiled."""
    plan = assert_subgame_perfect(4, [[2], [0], [1, 4]])
    assert [step.discard for step in plan.path] == [0, 0, 4]
    assert [step.need for step in plan.path] == [4, 4, 4]
    assert plan.foiled and plan.payers == (2,) and plan.loser is None


def test_I_FOIL_3_worked_example_6_third_passes_and_is_the_loser():
    """Had the third passed, the attacker wins and the third is the loser. Make paying 4 Luck
    cost more than losing (4 * 1/3 > 1): the third passes and is the loser."""
    plan = assert_subgame_perfect(4, [[2], [0], [1, 4]], luck_cost=Fraction(1, 3))
    assert not plan.foiled
    assert plan.payers == ()
    assert plan.loser == 2
    assert plan.payoffs == (-1, -1, -1)


def test_I_FOIL_2_later_seats_are_not_asked_once_foiled():
    plan = solve_foil_round(3, [[0], [3], [5], [5]], luck_cost=0)
    # seat 3 covers; with cost 0 seat 1 and 2 are indifferent and pass (tie -> less)
    assert plan.payers == (3,)
    plan = solve_foil_round(3, [[3], [0]])
    assert [step.seat for step in plan.path] == [0]  # seat 1 is never asked


# -- the volunteer's dilemma ----------------------------------------------------------------------

def test_last_seat_is_forced_to_pay_when_able():
    plan = assert_subgame_perfect(4, [[4], [4], [4]])
    assert plan.payers == (2,) and plan.paid == {2: 4} and plan.foiled
    assert plan.payoffs == (0, 0, Fraction(-4, 100))


def test_early_seats_free_ride_when_a_later_seat_can_cover():
    plan = assert_subgame_perfect(5, [[5], [2, 3], [0], [1, 4], [0, 1]])
    assert all(step.discard == 0 for step in plan.path[:3])
    # seat 3 could cover all 5 but pays 4 and leaves the last seat to top up its 1: even the
    # seat that pays free-rides as far as the seats after it allow
    assert plan.paid == {3: 4, 4: 1}
    assert plan.strategy[0][5] == 0 and plan.strategy[3][5] == 4 and plan.strategy[3][4] == 4


def test_a_seat_that_can_cover_pays_in_full_when_nobody_after_it_can_help():
    plan = assert_subgame_perfect(5, [[5], [2, 3], [0], [1, 4], [0]])
    assert plan.paid == {3: 5}


def test_nobody_pays_when_the_table_cannot_cover():
    plan = assert_subgame_perfect(5, [[1], [1, 1], [0, 1]])
    assert plan.payers == () and not plan.foiled
    assert plan.loser is None  # I-FOIL-3: nobody held enough, so there is no loser
    assert plan.payoffs == (-1, -1, -1)


def test_seats_pool_when_nobody_can_cover_alone():
    plan = assert_subgame_perfect(4, [[2], [2], [0]])
    assert plan.paid == {0: 2, 1: 2} and plan.foiled


def test_the_seat_before_tops_up_just_enough():
    plan = assert_subgame_perfect(8, [[1, 2, 3], [0, 1, 1, 2], [1, 1, 1, 4]])
    assert plan.paid == {1: 1, 2: 7}
    assert plan.path[1].cards == (1,)


def test_overpaying_when_no_exact_amount_exists():
    plan = solve_foil_round(2, [[3]])
    assert plan.paid == {0: 3} and plan.path[0].cards == (3,)


def test_too_expensive_luck_means_the_attack_succeeds_and_the_last_able_seat_loses():
    """I-FOIL-3: the loser is the last seat that held enough and passed."""
    plan = assert_subgame_perfect(4, [[4], [4], [1]], luck_cost=Fraction(1, 2))
    assert not plan.foiled and plan.loser == 1


def test_I_FOIL_3_loser_penalty_makes_the_last_able_seat_pay():
    """Being the loser may be worse than losing: with a penalty of 2 the last able seat pays
    even though Luck is dear (4 * 1/2 = 2 < 1 + 2)."""
    plan = assert_subgame_perfect(4, [[4], [4], [1]], luck_cost=Fraction(1, 2), loser_penalty=2)
    assert plan.foiled and plan.payers == (1,)


def test_I_FOIL_3_a_token_discard_does_not_dodge_being_the_loser():
    plan = solve_foil_round(4, [[1, 4]], luck_cost=Fraction(1, 2), loser_penalty=Fraction(1, 2))
    # paying 4 costs 2; passing costs 1 + 1/2; a token 1 costs 1/2 + 1 + 1/2: worst
    assert plan.paid == {} and plan.loser == 0


def test_ties_are_broken_towards_discarding_less():
    plan = assert_subgame_perfect(4, [[4], [4]], luck_cost=0)
    assert plan.payers == (1,)  # seat 0 is indifferent (foiled either way) and passes


# -- Strangers ------------------------------------------------------------------------------------

def test_I_STR_3_a_stranger_has_no_choice_and_seats_free_ride_on_it():
    """I-STR-3: a Stranger asked for Luck discards the top card of the deck (here Luck 3).
    Seat 0 tops up 1 and lets the Stranger's card do the rest; seat 2 has nothing."""
    plan = assert_subgame_perfect(4, [[1, 3], [3], [0]], strangers=[1])
    assert plan.paid == {0: 1, 1: 3} and plan.foiled
    assert plan.path[1].stranger


def test_I_STR_3_a_stranger_discards_even_a_zero_and_is_never_the_loser():
    plan = solve_foil_round(5, [[5], [0]], strangers=[1], luck_cost=Fraction(1, 2))
    assert not plan.foiled and plan.loser == 0


# -- seat order and hand sizes --------------------------------------------------------------------

def test_seat_order_decides_who_pays():
    rows = seat_order_effect(3, [[3], [3], [1, 2]], names="ABC")
    assert len(rows) == 6
    for row in rows:
        # the payer is always whoever sits last among those who can cover (everyone here)
        assert row["payers"] == [row["order"][-1]] and row["foiled"]


def test_seat_order_with_one_weak_hand():
    rows = seat_order_effect(4, [[4], [4], [1]], names=["Ann", "Bo", "Cy"], orders="rotations")
    assert [(row["order"], row["payers"]) for row in rows] == [
        (["Ann", "Bo", "Cy"], ["Bo"]),
        (["Bo", "Cy", "Ann"], ["Ann"]),
        (["Cy", "Ann", "Bo"], ["Bo"]),
    ]


def test_who_pays_late_seats_pay_more_often():
    report = who_pays(8, [6, 6, 6], deals=300, seed=1)
    pays = [seat["p_pays"] for seat in report["seats"]]
    assert pays == sorted(pays) and pays[-1] > 0.9 > 0.1 > pays[0]
    assert report["deals"] == 300 and report["seed"] == 1


def test_who_pays_with_cheap_luck_the_table_foils_whenever_it_can():
    """With Luck cheap enough, every seat prefers paying to losing, so the equilibrium foils
    exactly when the table holds enough (the chance p_foil computes)."""
    report = who_pays(16, [5, 5, 5], deals=400, seed=2)
    assert report["p_foiled"] == report["p_table_can_cover"]
    assert 0 < report["p_foiled"] < 1


def test_who_pays_is_seeded_and_counts_strangers_as_one_card():
    a = who_pays(6, [5, 9, 5], deals=100, seed=9, strangers=[1])
    assert a == who_pays(6, [5, 9, 5], deals=100, seed=9, strangers=[1])
    assert a["hand_sizes"] == [5, 1, 5] and a["seats"][1]["stranger"]


# -- properties -----------------------------------------------------------------------------------

hands_strategy = st.lists(st.lists(st.integers(0, 4), max_size=3), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(hands_strategy, st.integers(0, 9),
       st.sampled_from([0, Fraction(1, 100), Fraction(1, 5), Fraction(1, 2)]),
       st.sampled_from([0, 1]))
def test_every_solution_is_subgame_perfect(hands, attack, cost, penalty):
    assert_subgame_perfect(attack, hands, luck_cost=cost, loser_penalty=penalty)


@settings(max_examples=60, deadline=None)
@given(hands_strategy, st.integers(1, 9))
def test_cheap_luck_foils_exactly_when_the_table_can_cover(hands, attack):
    plan = solve_foil_round(attack, hands, luck_cost=Fraction(1, 1000))
    assert plan.foiled == (sum(map(sum, hands)) >= attack)


def test_discard_options_are_every_sub_multiset_total():
    hand = [0, 1, 1, 3]
    totals = {sum(c) for r in range(5) for c in itertools.combinations(hand, r)}
    assert set(discard_options(hand)) == totals
    assert discard_options(hand)[2] == (1, 1)
    assert discard_options([1, 2, 3])[3] == (3,)  # fewest cards
    assert discard_options([2, 2, 1, 3])[5] == (2, 3)  # smallest Luck first on a tie


def test_the_solution_is_plain_data():
    data = solve_foil_round(4, [[2], [0], [1, 4]]).to_dict()
    assert data["payers"] == [2] and data["paid"] == {"2": 4}
    assert data["strategy"]["2"]["4"] == 4 and data["payoffs"] == ["0", "0", "-1/25"]
    assert "Foiled." in str(solve_foil_round(4, [[2], [0], [1, 4]]))


# -- bad input ------------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, match", [
    (lambda: solve_foil_round(-1, [[1]]), ValueError, "attack cannot be negative"),
    (lambda: solve_foil_round(2, [[1]], luck_cost=-1), ValueError, "luck_cost"),
    (lambda: solve_foil_round(2, [[1]], attacker_wins=1), ValueError, "attacker_wins"),
    (lambda: solve_foil_round(2, [[1]], loser_penalty=-1), ValueError, "loser_penalty"),
    (lambda: solve_foil_round(2, [[1]], luck_cost=float("nan")), ValueError, "finite"),
    (lambda: solve_foil_round(2, [[1]], strangers=[3]), ValueError, "not a seat"),
    (lambda: solve_foil_round(2, [[1, 2]], strangers=[0]), ValueError, "one card"),
    (lambda: solve_foil_round(2, [[-1]]), ValueError, "never negative"),
    (lambda: solve_foil_round(2.5, [[1]]), TypeError, "whole number"),
    (lambda: solve_foil_round(2, [[1]], luck_cost="cheap"), TypeError, "number"),
    (lambda: seat_order_effect(2, [[1]], names="AB"), ValueError, "2 names for 1 hands"),
    (lambda: seat_order_effect(2, [[1]], orders="random"), ValueError, "orders"),
    (lambda: who_pays(2, [5], deals=0), ValueError, "deals"),
    (lambda: who_pays(2, [50, 50]), ValueError, "need 100 cards"),
    (lambda: who_pays(2, [5], strangers=[2]), ValueError, "not a seat"),
])
def test_bad_input_raises_a_clear_error(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_hand_size_effect_small_hands_pool_big_hands_leave_it_to_the_last_seat():
    rows = hand_size_effect(6, opponents=3, sizes=(1, 6), deals=400, seed=4)
    one, six = rows
    assert one["cards_each"] == 1 and six["cards_each"] == 6
    # one card each: nobody can cover 6 alone, so seats chip in together and the first seat
    # pays nearly as often as the last
    assert one["p_pays"][0] > 0.8 * one["p_pays"][2] > 0
    # six cards each: the last seat nearly always pays, the first almost never
    assert six["p_pays"][0] < 0.05 and six["p_pays"][2] > 0.95
    assert all(row["p_foiled"] == row["p_table_can_cover"] for row in rows)


def test_who_pays_foil_rate_agrees_with_the_exact_p_foil():
    """Game theory meets probability: with cheap Luck the equilibrium foils exactly when the
    table can, so the simulated foil rate estimates p_foil (within 4 standard errors)."""
    from luckylab.analysis.luck import Estimate, p_foil

    report = who_pays(16, [5, 5, 5], deals=600, seed=8)
    hits = round(report["p_foiled"] * report["deals"])
    assert Estimate.from_counts(hits, report["deals"]).agrees(p_foil(16, [5, 5, 5]))


# -- the simultaneous volunteer's dilemma (the contrast of lesson 05) ---------------------------


def test_volunteers_dilemma_two_players_is_exact_and_makes_each_indifferent():
    game = volunteers_dilemma_equilibrium(2, benefit=1, cost=Fraction(1, 4))
    assert game.p_volunteer == Fraction(3, 4) and game.p_nobody == Fraction(1, 16)
    q = game.p_pass
    # volunteering pays b - c; passing pays b unless the other passes too
    assert game.benefit - game.cost == game.benefit * (1 - q) == game.payoff


@pytest.mark.parametrize("n", [2, 3, 4, 7, 20])
def test_volunteers_dilemma_is_an_equilibrium_for_every_n(n):
    game = volunteers_dilemma_equilibrium(n, benefit=3, cost=1)
    q = float(game.p_pass)
    volunteer = 3 - 1
    passing = 3 * (1 - q ** (n - 1))
    assert passing == pytest.approx(volunteer)
    assert float(game.p_nobody) == pytest.approx(q ** n)


def test_volunteers_dilemma_exact_root_when_rational():
    game = volunteers_dilemma_equilibrium(3, benefit=Fraction(9), cost=Fraction(4))
    assert game.p_pass == Fraction(2, 3) and game.p_nobody == Fraction(8, 27)
    assert isinstance(volunteers_dilemma_equilibrium(3, 1, 0.5).p_nobody, float)


def test_bystander_effect_nobody_volunteers_more_often_in_bigger_groups():
    rates = [float(volunteers_dilemma_equilibrium(n, 1, 0.25).p_nobody) for n in range(2, 30)]
    assert all(a < b for a, b in zip(rates, rates[1:], strict=False))
    assert rates[-1] < 0.25  # the limit is cost / benefit
    ps = [float(volunteers_dilemma_equilibrium(n, 1, 0.25).p_volunteer) for n in range(2, 30)]
    assert all(a > b for a, b in zip(ps, ps[1:], strict=False))


@pytest.mark.parametrize("args, match", [
    ((1, 1, 0.5), "whole number >= 2"),
    ((2.0, 1, 0.5), "whole number >= 2"),
    ((3, 1, 1), "0 < cost < benefit"),
    ((3, 1, 0), "0 < cost < benefit"),
    ((3, 1, "cheap"), "finite numbers"),
    ((3, float("inf"), 1), "finite"),
])
def test_volunteers_dilemma_bad_input(args, match):
    with pytest.raises(VolunteersDilemmaError, match=match):
        volunteers_dilemma_equilibrium(*args)
