"""CFR and the hidden-hand foiling round (issue 28): the solver on games with known answers.

- Kuhn poker: Kuhn's equilibrium family is exact (value -1/18 for the first player, NashConv 0);
  CFR and CFR+ reach that value and drive NashConv towards 0.
- The one-foiler round (the attacker and one foiler, zero-sum): CFR's answer equals the best
  of all the foiler's pure strategies, enumerated exactly.
- The two-foiler round: CFR's purified answer is one of the pure Nash equilibria found by
  enumerating every pure profile of the normal form.
- The lesson's three-foiler round (``I-FOIL-1``, ``I-FOIL-2``): exact pass rates and the value
  of seeing the hands; the open-hand answer agrees with lesson 5's solver wherever nobody pools;
  the round (and Exercise 2's, luck cost 1/6) has exactly one pure equilibrium, a strict one.
- The widget, driven by its buttons.

(OpenSpiel's CFR on the same round: tests/test_openspiel_hidden_foil.py, where pyspiel is
installed.)
"""

from __future__ import annotations

import itertools
import time
from fractions import Fraction

import pytest

from luckylab.analysis.cfr import (
    CFR,
    CHANCE,
    best_response,
    build_tree,
    nash_conv,
    profile_values,
    purified,
)
from luckylab.analysis.hidden_foil import FOIL, PASS, HiddenFoil, OpenRound
from luckylab.analysis.kuhn import KuhnPoker, kuhn_equilibrium
from luckylab.errors import LuckyLabError, OptionError

LESSON = dict(attack=3, foilers=3, deck=(0, 1, 2, 3, 4, 5), hand_size=1,
              luck_cost=Fraction(1, 8))


# -- Kuhn poker ---------------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [Fraction(0), Fraction(1, 6), Fraction(1, 3)])
def test_kuhns_equilibria_are_exact_equilibria_worth_minus_one_eighteenth(alpha):
    root = build_tree(KuhnPoker())
    profile = kuhn_equilibrium(alpha)
    assert profile_values(root, profile, 2) == (Fraction(-1, 18), Fraction(1, 18))
    assert nash_conv(root, profile, 2) == 0


def test_a_non_equilibrium_has_positive_nash_conv():
    root = build_tree(KuhnPoker())
    assert nash_conv(root, {}, 2) > Fraction(1, 2)          # uniform play
    bluffy = {**kuhn_equilibrium(Fraction(1, 3)), "J": {"check": 0, "bet": 1}}
    assert nash_conv(root, bluffy, 2) > 0


@pytest.mark.parametrize("plus, iterations, tolerance", [(False, 2000, 2e-3), (True, 1000, 3e-4)])
def test_cfr_solves_kuhn_poker(plus, iterations, tolerance):
    solver = CFR(KuhnPoker(), plus=plus)
    solver.run(iterations, every=iterations // 10)
    first, last = solver.history[0][1], solver.history[-1][1]
    assert last < tolerance < first or last < first / 5
    assert solver.values()[0] == pytest.approx(-1 / 18, abs=tolerance)
    profile = solver.average_strategy()
    assert profile["K"]["bet"] == pytest.approx(3 * profile["J"]["bet"], abs=0.05)
    assert profile["Kbet"]["call"] == pytest.approx(1, abs=1e-3)


def test_best_response_is_the_best_pure_strategy_by_enumeration():
    game = KuhnPoker()
    root = build_tree(game)
    opponent = kuhn_equilibrium(Fraction(1, 3))
    infosets = ["J", "Q", "K", "Jcheck-bet", "Qcheck-bet", "Kcheck-bet"]
    best = max(
        profile_values(root, {**opponent, **{i: {a: Fraction(int(a == c))
                                                    for a in game.actions(_kuhn_history(i))}
                                                for i, c in zip(infosets, choice, strict=True)}},
                       2)[0]
        for choice in itertools.product(*[game.actions(_kuhn_history(i)) for i in infosets]))
    assert best_response(root, opponent, 0)[0] == best == Fraction(-1, 18)


def _kuhn_history(infoset):
    moves = {"": "", "check-bet": "pb"}[infoset[1:]]
    return ((infoset[0], "Q" if infoset[0] != "Q" else "J"), moves)


# -- the foiling round: one foiler against the attacker -------------------------------------------


def _pure_strategies(game, seat):
    """Every pure strategy of a foiler: for each hand that can cover, pass or foil."""
    hands = game.decisions(seat)
    for choice in itertools.product((PASS, FOIL), repeat=len(hands)):
        yield {(seat, h): {PASS: Fraction(int(c == PASS)), FOIL: Fraction(int(c == FOIL))}
               for h, c in zip(hands, choice, strict=True)}


def test_one_foiler_round_is_zero_sum_and_cfr_matches_enumeration():
    game = HiddenFoil(attack=3, foilers=1, deck=(0, 1, 2, 3, 4, 5), hand_size=2,
                      luck_cost=Fraction(3, 10))
    root = build_tree(game)

    def leaves(node):
        if node.player is None:
            yield node
        for child in node.children:
            yield from leaves(child)

    assert all(sum(leaf.payoffs) == 0 for leaf in leaves(root))
    values = {tuple(sorted((h, s[PASS]) for (_, h), s in strategy.items())):
              profile_values(root, strategy, 2)[0] for strategy in _pure_strategies(game, 0)}
    best = max(values.values())
    winners = [k for k, v in values.items() if v == best]
    assert len(winners) == 1 and len(values) == 2 ** len(game.decisions(0))
    solver = CFR(game, plus=True)
    solver.run(200)
    assert solver.values()[0] == pytest.approx(float(best), abs=1e-4)
    answer = purified(solver.average_strategy())
    assert tuple(sorted((h, answer[(0, h)][PASS]) for h in game.decisions(0))) == winners[0]
    assert nash_conv(root, answer, 2) == 0
    # it foils exactly when paying costs less than losing (3 Luck: 0.9; 4 Luck: 1.2)
    assert {h: answer[(0, h)][FOIL] for h in game.decisions(0)} == {
        h: int(game.payment(h) * game.luck_cost < 1) for h in game.decisions(0)}


# -- two foilers: every pure profile enumerated ----------------------------------------------------


def test_two_foiler_round_cfr_finds_a_pure_nash_equilibrium_of_the_normal_form():
    game = HiddenFoil(**{**LESSON, "foilers": 2})
    root = build_tree(game)
    table = {}
    first, second = list(_pure_strategies(game, 0)), list(_pure_strategies(game, 1))
    for i, a in enumerate(first):
        for j, b in enumerate(second):
            table[i, j] = profile_values(root, {**a, **b}, game.num_players)
    equilibria = [(i, j) for i, j in table
                  if table[i, j][0] == max(table[k, j][0] for k in range(len(first)))
                  and table[i, j][1] == max(table[i, k][1] for k in range(len(second)))]
    assert equilibria
    solver = CFR(game, plus=True)
    solver.run(300)
    answer = purified(solver.average_strategy())
    assert nash_conv(root, answer, game.num_players) == 0
    found = [(i, j) for i, j in equilibria if all(answer[k] == v for k, v in
                                                   {**first[i], **second[j]}.items())]
    assert found, "CFR's answer is not among the enumerated pure equilibria"
    # the last seat always covers when it can
    assert all(answer[(1, h)][FOIL] == 1 for h in game.decisions(1))


# -- the lesson's round: three foilers ------------------------------------------------------------


@pytest.fixture(scope="module")
def lesson_solution():
    game = HiddenFoil(**LESSON)
    solver = CFR(game, plus=True)
    started = time.process_time()
    solver.run(200, every=50)
    cpu = time.process_time() - started
    return game, solver, cpu


def test_lesson_round_solves_in_seconds_to_an_exact_equilibrium(lesson_solution):
    game, solver, cpu = lesson_solution
    assert cpu < 10, f"200 CFR+ iterations took {cpu:.1f} s of processor time"
    assert solver.history[-1][1] < 1e-4 < solver.history[0][1] or solver.history[-1][1] < 1e-5
    answer = purified(solver.average_strategy())
    assert nash_conv(solver.root, answer, game.num_players) == 0


def test_I_FOIL_1_lesson_round_pass_rates_and_the_value_of_seeing_the_hands(lesson_solution):
    game, solver, _ = lesson_solution
    answer = purified(solver.average_strategy())
    assert [game.pass_rate(answer, s) for s in range(3)] == [Fraction(2, 3), Fraction(4, 13), 0]
    # Player 1 pays only with 3; Player 2 with 3 or 4; Player 3 whenever it can
    assert [h for h in game.decisions(0) if answer[(0, h)][FOIL]] == [(3,)]
    assert [h for h in game.decisions(1) if answer[(1, h)][FOIL]] == [(3,), (4,)]
    hidden, open_ = game.summary(answer), game.summary()
    assert (hidden.p_through, open_.p_through) == (Fraction(9, 40), Fraction(1, 20))
    assert sum(hidden.values[:3]) < sum(open_.values[:3])   # every foiler is worse off hidden
    assert all(h < o for h, o in zip(hidden.values[:3], open_.values[:3], strict=True))


def _pure_equilibria(game):
    """Every pure Nash equilibrium of a three-foiler round, as (foiling cards per seat, strict)."""
    root = build_tree(game)
    pure = [list(_pure_strategies(game, seat)) for seat in range(3)]
    table = {}
    for picks in itertools.product(*(range(len(p)) for p in pure)):
        profile = {k: v for seat, i in enumerate(picks) for k, v in pure[seat][i].items()}
        table[picks] = profile_values(root, profile, game.num_players)
    found = []
    for picks, values in table.items():
        others = [table[(*picks[:seat], k, *picks[seat + 1:])][seat]
                  for seat in range(3) for k in range(len(pure[seat])) if k != picks[seat]]
        seats = [seat for seat in range(3) for k in range(len(pure[seat])) if k != picks[seat]]
        if all(w <= values[seat] for w, seat in zip(others, seats, strict=True)):
            strict = all(w < values[seat] for w, seat in zip(others, seats, strict=True))
            found.append(([[h[0] for h in game.decisions(seat)
                            if pure[seat][picks[seat]][(seat, h)][FOIL]] for seat in range(3)],
                          strict))
    return found


def test_exercise_2_round_cfr_finds_the_exact_equilibrium():
    # lesson 12, Exercise 2: luck_cost 1/6 (paying 4 costs 2/3, above every risk of passing)
    game = HiddenFoil(**{**LESSON, "luck_cost": Fraction(1, 6)})
    solver = CFR(game, plus=True)
    solver.run(200)
    answer = purified(solver.average_strategy())
    assert nash_conv(solver.root, answer, game.num_players) == 0
    assert [[h[0] for h in game.decisions(s) if answer[(s, h)][FOIL]] for s in range(3)] == [
        [3], [3], [3, 4, 5]]
    assert game.pass_rate(answer, 1) == Fraction(8, 13)
    assert game.summary(answer).p_through == Fraction(3, 10)


@pytest.mark.slow
def test_exercise_2_and_lesson_rounds_have_one_strict_equilibrium_three_twentieths_two():
    # every pure profile enumerated: Exercise 2's round (1/6) has one equilibrium, a strict one
    game = HiddenFoil(**{**LESSON, "luck_cost": Fraction(1, 6)})
    assert _pure_equilibria(game) == [([[3], [3], [3, 4, 5]], True)]
    # at 3/20 paying 4 costs exactly 3/5, the risk when Player 1 never pays: a knife edge
    edge = HiddenFoil(**{**LESSON, "luck_cost": Fraction(3, 20)})
    assert sorted(_pure_equilibria(edge)) == [([[], [3, 4], [3, 4, 5]], False),
                                              ([[3], [3], [3, 4, 5]], True)]
    # and the lesson's own round at 1/8: one pure equilibrium, strict
    assert _pure_equilibria(HiddenFoil(**LESSON)) == [([[3], [3, 4], [3, 4, 5]], True)]


def test_I_FOIL_2_open_hand_answer_agrees_with_lesson_5_where_nobody_pools():
    from luckylab.analysis.dilemma import solve_foil_round

    game = HiddenFoil(**LESSON)
    compared = 0
    for hands, _ in game.deals():
        plan = solve_foil_round(game.attack, [list(h) for h in hands],
                                luck_cost=game.luck_cost, attacker_wins=-1)
        if len(plan.payers) > 1:
            continue                                       # pooling: not in this model
        compared += 1
        ours = game.open_hand(hands)
        assert ours.foiled_by == (plan.payers[0] if plan.payers else None), hands
    assert compared >= 100


def test_open_hand_last_seat_that_can_cover_pays():
    game = HiddenFoil(**LESSON)
    assert game.open_hand(((5,), (4,), (3,))) == OpenRound(2, 3)
    assert game.open_hand(((5,), (4,), (0,))) == OpenRound(1, 4)
    assert game.open_hand(((0,), (1,), (2,))) == OpenRound(None, 0)


def test_deals_are_a_probability_distribution_over_sorted_hands():
    game = HiddenFoil(attack=4, foilers=2, deck=(0, 1, 1, 2, 3), hand_size=2)
    deals = game.deals()
    assert sum(p for _, p in deals) == 1
    assert all(h == tuple(sorted(h)) for d, _ in deals for h in d)
    assert dict(deals)[((0, 1), (1, 2))] == Fraction(2, 10) * Fraction(1, 3)  # 2 of 10, 1 of 3
    root = build_tree(game)
    assert root.player == CHANCE and len(root.children) == len(deals)


@pytest.mark.parametrize("kwargs", [
    {"attack": 0}, {"foilers": 4}, {"deck": (1,)}, {"deck": "0123"}, {"deck": (1, 2, -1)},
    {"hand_size": 4}, {"luck_cost": 2}, {"luck_cost": True}, {"foilers": 3, "deck": (1, 2)},
])
def test_bad_rounds_are_refused(kwargs):
    with pytest.raises(OptionError):
        HiddenFoil(**kwargs)


def test_cfr_refuses_bad_arguments():
    solver = CFR(KuhnPoker())
    for bad in (0, -3, 1.5, True):
        with pytest.raises(LuckyLabError):
            solver.run(bad)
    with pytest.raises(OptionError):
        solver.run(10, every=-1)
    with pytest.raises(OptionError):
        CFR(KuhnPoker(), plus="yes")
    with pytest.raises(OptionError):
        purified({}, tolerance=0.7)


# -- the widget -----------------------------------------------------------------------------------


def test_widget_plays_against_the_equilibrium_by_its_buttons(lesson_solution):
    pytest.importorskip("ipywidgets")
    from luckylab.viz.hidden_hands import HiddenHandsTable

    game, solver, _ = lesson_solution
    answer = purified(solver.average_strategy())
    table = HiddenHandsTable(game, answer, you=2, seed=3)
    decided = skipped = 0
    while decided < 12:
        if not table.asked:
            assert table.pass_button.disabled and table.foil_button.disabled
            assert "foiled before you were asked" in table.hand_view.value
            with pytest.raises(OptionError):
                table.choose(PASS)
            skipped += 1
            table.next_button.click()
            continue
        mine = table.hands[1]
        can_cover = game.payment(mine) is not None
        assert table.foil_button.disabled is (not can_cover)
        advice = answer[(1, mine)].get(FOIL, 0)
        (table.foil_button if advice else table.pass_button).click()
        decided += 1
        assert table.rounds == decided and table.pass_button.disabled
        assert "Hands: Player 1" in table.result.value
        table.next_button.click()
    assert skipped > 0
    assert table.score == table.equilibrium_score        # played the equilibrium's moves
    assert f"{decided} round(s) decided" in table.score_view.value
    table.close()


def test_widget_scores_a_deviation_and_refuses_bad_arguments(lesson_solution):
    pytest.importorskip("ipywidgets")
    from luckylab.viz.hidden_hands import HiddenHandsTable

    game, solver, _ = lesson_solution
    answer = purified(solver.average_strategy())
    table = HiddenHandsTable(game, answer, you=3, seed=0)
    while not (table.asked and game.payment(table.hands[2]) is not None):
        table.next_button.click()
    table.pass_button.click()                    # the last seat passes holding enough
    assert table.score == -1 and table.equilibrium_score == -game.luck_cost * table.hands[2][0]
    assert "the attack gets through" in table.result.value
    for bad in ({"you": 0}, {"you": 4}, {"seed": -1}):
        with pytest.raises(OptionError):
            HiddenHandsTable(game, answer, **bad)
    with pytest.raises(OptionError):
        HiddenHandsTable("island", answer)
    table.close()
