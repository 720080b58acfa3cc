"""Lesson 12's round solved by OpenSpiel's own CFR, against luckylab's (issue 38).

The foiling round with hidden hands (:class:`luckylab.analysis.hidden_foil.HiddenFoil`) is not
one of the five games :mod:`luckylab.interop.openspiel` wraps, so this file writes it again as a
small OpenSpiel Python game, from the rules and not from luckylab's code (OpenSpiel's
``kuhn_poker.py`` is the model): chance deals one card at a time, the foilers are asked in
seat order, a card of 3 or more may foil, the first foil ends the round; payoffs as in the
lesson. The attacker is the last player and never moves. Then:

- the worked iteration of lesson 12 (Player 1 alone, Luck 1/4 a point): OpenSpiel's plain CFR
  gives the same regrets after one iteration (-1/48, +1/48; 0, 0; +1/48, -1/48) and the same
  average after two (pay 3/4, 1/2, 1/4);
- the lesson's round (and Exercise 2's, Luck 1/6 a point): OpenSpiel's CFR+ average policy,
  rounded to pure choices, is luckylab's equilibrium, hand by hand; the two average policies
  agree within 0.001 after 200 iterations; OpenSpiel's expected returns under its policy agree
  with luckylab's exact values within 0.0001; OpenSpiel's NashConv of luckylab's rounded
  equilibrium is 0 (up to float rounding); Player 2's pass rate is 4/13 (8/13 in Exercise 2).

Runs where the ``openspiel`` extra is installed (``pip install 'luckylab[openspiel]'``).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability  # noqa: E402

from luckylab.analysis.cfr import CFR, purified  # noqa: E402
from luckylab.analysis.hidden_foil import FOIL, PASS, HiddenFoil  # noqa: E402

PASS_ID, FOIL_ID = 0, 1
DECK = (0, 1, 2, 3, 4, 5)
ATTACK = 3
NAME = "python_luckylab_hidden_foil_test"

_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="luckylab's hidden-hand foiling round (test)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"foilers": 3, "cost_numerator": 1, "cost_denominator": 8},
)


class FoilGame(pyspiel.Game):
    """The round: ``foilers`` players get one card each from 0-5; the attacker is the last
    player. A foiler scores -1 if the attack gets through, -cost x card if she foils; the
    attacker +1, or +cost x card."""

    def __init__(self, params=None):
        params = {**_TYPE.parameter_specification, **(params or {})}
        self.foilers = params["foilers"]
        self.cost = params["cost_numerator"] / params["cost_denominator"]
        info = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=len(DECK),
                                num_players=self.foilers + 1, min_utility=-1.0,
                                max_utility=1.0, utility_sum=None,
                                max_game_length=2 * self.foilers)
        super().__init__(_TYPE, info, params)

    def new_initial_state(self):
        return FoilState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return FoilObserver()


class FoilState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.foilers = game.foilers
        self.cost = game.cost
        self.cards: list[int] = []
        self.moves: list[int] = []

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if len(self.cards) < self.foilers:
            return pyspiel.PlayerId.CHANCE
        return len(self.moves)

    def _legal_actions(self, player):
        return [PASS_ID, FOIL_ID] if self.cards[player] >= ATTACK else [PASS_ID]

    def chance_outcomes(self):
        left = [c for c in DECK if c not in self.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action):
        if self.is_chance_node():
            self.cards.append(action)
        else:
            self.moves.append(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return "foil" if action == FOIL_ID else "pass"

    def is_terminal(self):
        return bool(self.moves) and (self.moves[-1] == FOIL_ID or len(self.moves) == self.foilers)

    def returns(self):
        if not self.is_terminal():
            return [0.0] * (self.foilers + 1)
        if self.moves[-1] == FOIL_ID:
            seat = len(self.moves) - 1
            paid = self.cost * self.cards[seat]
            return [-paid if s == seat else 0.0 for s in range(self.foilers)] + [paid]
        return [-1.0] * self.foilers + [1.0]

    def __str__(self):
        return f"cards {self.cards} moves {self.moves}"


class FoilObserver:
    """A seat sees its own card and the passes before it (no tensors)."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        card = state.cards[player] if len(state.cards) > player else "?"
        return f"seat {player} card {card} moves {''.join('pf'[m] for m in state.moves)}"


if NAME not in {t.short_name for t in pyspiel.registered_games()}:
    pyspiel.register_game(_TYPE, FoilGame)


def _games(foilers, cost):
    spiel = pyspiel.load_game(NAME, {"foilers": foilers, "cost_numerator": cost.numerator,
                                     "cost_denominator": cost.denominator})
    ours = HiddenFoil(attack=ATTACK, foilers=foilers, deck=DECK, hand_size=1, luck_cost=cost)
    return spiel, ours


def _key(seat, card):
    """The information-state string of a seat holding ``card`` when it is asked."""
    return f"seat {seat} card {card} moves {'p' * seat}"


def _luckylab_profile(spiel_policy, foilers):
    """An OpenSpiel policy as luckylab's profile {(seat, (card,)): {"pass": p, "foil": q}}."""
    profile = {}
    for seat in range(foilers):
        for card in DECK:
            probs = spiel_policy.policy_for_key(_key(seat, card))
            profile[(seat, (card,))] = ({PASS: float(probs[PASS_ID]), FOIL: float(probs[FOIL_ID])}
                                        if card >= ATTACK else {PASS: float(probs[PASS_ID])})
    return profile


def _spiel_policy(game, profile, foilers):
    """luckylab's profile as an OpenSpiel tabular policy."""
    table = policy_lib.TabularPolicy(game)
    for seat in range(foilers):
        for card in DECK:
            mix = profile.get((seat, (card,)), {PASS: 1})
            row = table.policy_for_key(_key(seat, card))
            row[PASS_ID] = float(mix.get(PASS, 0))
            row[FOIL_ID] = float(mix.get(FOIL, 0))
    return table


def test_the_game_passes_openspiels_own_conformance_test():
    spiel, _ = _games(3, Fraction(1, 8))
    pyspiel.random_sim_test(spiel, num_sims=20, serialize=False, verbose=False)
    assert spiel.num_players() == 4
    # one information state per seat and card, as luckylab's solver has
    keys = set(policy_lib.TabularPolicy(spiel).state_lookup)
    assert keys == {_key(s, c) for s in range(3) for c in DECK}
    assert len(CFR(HiddenFoil(attack=ATTACK, foilers=3, deck=DECK, hand_size=1)).tables) == 18


def test_openspiels_first_cfr_iterations_are_the_lessons_worked_step():
    spiel, _ = _games(1, Fraction(1, 4))
    solver = cfr.CFRSolver(spiel)                   # plain CFR, as by hand
    solver.evaluate_and_update_policy()
    regrets = {card: solver._info_state_nodes[_key(0, card)].cumulative_regret
               for card in (3, 4, 5)}
    assert regrets[3] == pytest.approx({PASS_ID: -1 / 48, FOIL_ID: 1 / 48}, abs=1e-12)
    assert regrets[4] == pytest.approx({PASS_ID: 0.0, FOIL_ID: 0.0}, abs=1e-12)
    assert regrets[5] == pytest.approx({PASS_ID: 1 / 48, FOIL_ID: -1 / 48}, abs=1e-12)
    ours = CFR(HiddenFoil(attack=ATTACK, foilers=1, deck=DECK, hand_size=1,
                          luck_cost=Fraction(1, 4)))
    ours.run(1)
    for card in (3, 4, 5):
        assert ours.tables[(0, (card,))].regrets == pytest.approx(
            [regrets[card][PASS_ID], regrets[card][FOIL_ID]], abs=1e-12)
    solver.evaluate_and_update_policy()
    ours.run(1)
    average = solver.average_policy()
    for card, pay in ((3, 0.75), (4, 0.5), (5, 0.25)):
        assert average.policy_for_key(_key(0, card))[FOIL_ID] == pytest.approx(pay, abs=1e-12)
        assert ours.average_strategy()[(0, (card,))][FOIL] == pytest.approx(pay, abs=1e-12)


@pytest.mark.parametrize("cost, rates", [
    (Fraction(1, 8), (Fraction(2, 3), Fraction(4, 13), Fraction(0))),    # the lesson
    (Fraction(1, 6), (Fraction(2, 3), Fraction(8, 13), Fraction(0))),    # its Exercise 2
], ids=["lesson", "exercise-2"])
def test_openspiels_cfr_plus_finds_the_lessons_equilibrium_and_values(cost, rates):
    spiel, game = _games(3, cost)
    solver = cfr.CFRPlusSolver(spiel)
    for _ in range(200):
        solver.evaluate_and_update_policy()
    theirs = solver.average_policy()
    ours = CFR(game, plus=True)
    ours.run(200)
    ours_average = ours.average_strategy()
    equilibrium = purified(ours_average)

    # the two average policies, hand by hand
    converted = _luckylab_profile(theirs, 3)
    gaps = [abs(converted[i][FOIL] - ours_average[i][FOIL]) for i in ours_average
            if FOIL in ours_average[i]]
    assert max(gaps) < 1e-3           # 4e-05 when written
    # rounded to pure choices they are the same equilibrium
    assert purified(converted) == equilibrium
    assert [game.pass_rate(equilibrium, seat) for seat in range(3)] == list(rates)
    assert [game.pass_rate(purified(converted), seat) for seat in range(3)] == list(rates)

    # OpenSpiel's expected returns under its own average policy: luckylab's exact values
    values = expected_game_score.policy_value(spiel.new_initial_state(), [theirs] * 4)
    exact = game.summary(equilibrium).values
    assert np.allclose(values, [float(v) for v in exact], atol=1e-4)   # 2e-05 when written

    # OpenSpiel's NashConv: tiny for its own policy, 0 for luckylab's rounded equilibrium
    assert exploitability.nash_conv(spiel, theirs) < 1e-4           # 2e-05 when written
    assert exploitability.nash_conv(spiel, _spiel_policy(spiel, equilibrium, 3)) == \
        pytest.approx(0.0, abs=1e-12)
    # and a profile that is not an equilibrium is caught by both
    always = {(s, (c,)): {PASS: 0, FOIL: 1} for s in range(3) for c in (3, 4, 5)}
    assert exploitability.nash_conv(spiel, _spiel_policy(spiel, always, 3)) > 0.01
