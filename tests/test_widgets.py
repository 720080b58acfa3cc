"""The lesson widgets, driven as a student would: dropdowns, sliders, button clicks.

Widgets only hold and redraw, so every check compares what a widget shows with what the engine
(or luckylab.analysis.luck / luckylab.analysis.dilemma) says for the same question.
"""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import luckylab  # noqa: E402
from luckylab import UnknownSpace, load_board  # noqa: E402
from luckylab.analysis.dilemma import solve_foil_round  # noqa: E402
from luckylab.analysis.luck import luck_distribution, p_foil  # noqa: E402
from luckylab.games.island import sight_report  # noqa: E402
from luckylab.simulation import play_game  # noqa: E402
from luckylab.viz.draw import DOCTOR  # noqa: E402
from luckylab.viz.widgets import DilemmaLab, FoilLab, SightExplorer, TurnStepper  # noqa: E402

BOARD = load_board("isla-fortuna")


def near(xy, space, within=0.3):
    return math.dist(xy, BOARD.space(space).pos) <= within


# -- SightExplorer ------------------------------------------------------------------------------
@pytest.fixture
def explorer():
    return SightExplorer(pawns={"Janet": "Frog Pond", "Sara": "Sunset Beach"},
                         doctor="Frog Pond", cat=None)


def test_I_SIGHT_2_explorer_cat_in_frog_pond_frees_the_attack(explorer):
    """Worked example 2 with Doctor Lucky: the cat in Frog Pond hides Janet from Sara."""
    assert explorer.report["Janet"].may_attack is False
    assert "seen by Sara" in explorer.table.value
    explorer.cat_picker.value = "Frog Pond"
    assert explorer.report == sight_report(BOARD, explorer.pawns, doctor="Frog Pond",
                                           cat="Frog Pond")
    assert explorer.report["Janet"].may_attack is True
    assert explorer.report["Janet"].sees == {DOCTOR}
    assert near(explorer.drawing.pawn_xy("cat"), "Frog Pond", within=0.35)
    assert explorer.drawing.seen_spaces == {"Frog Pond"}  # Janet's eyes, cat beside her


def test_explorer_matrix_and_table_follow_the_dropdowns(explorer):
    names = ["Janet", "Sara", DOCTOR]
    matrix = explorer.matrix_image.get_array().tolist()
    assert matrix == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]  # Frog Pond and Sunset Beach touch
    explorer.pawn_pickers["Sara"].value = "Skull Rock"
    matrix = explorer.matrix_image.get_array().tolist()
    assert matrix == [[0, 0, 1], [0, 0, 0], [1, 0, 0]]
    assert near(explorer.drawing.pawn_xy("Sara"), "Skull Rock")
    assert [t.get_text() for t in explorer.matrix_ax.get_yticklabels()] == names
    assert explorer.report["Sara"].may_draw is True
    assert "Skull Rock" in explorer.table.value


def test_I_DRAW_1_hiding_places_are_where_a_new_pawn_would_be_unseen(explorer):
    explorer.hiding_box.value = True
    hiding = set(explorer.hiding_places)
    occupied = [*explorer.pawns.values(), "Frog Pond"]
    expected = {s for s in BOARD.spaces
                if not any(BOARD.sees(o, s) for o in occupied)}
    assert hiding == expected and hiding
    assert explorer.drawing.ringed >= hiding
    assert f"the {len(hiding)} spaces" in explorer.summary.value


def test_explorer_sight_of_and_cat_ruling(explorer):
    explorer.eyes_picker.value = DOCTOR
    assert set(explorer.drawing.sees) == {"Janet", "Sara"}
    explorer.cat_picker.value = "Sunset Beach"
    explorer.cat_blocks_picker.value = "outward"
    # "outward": Sara, with the cat, is blind; others still see into her space
    assert explorer.report["Sara"].sees == frozenset()
    assert "Sara" in explorer.report["Janet"].sees


def test_explorer_bad_place_raises_and_changes_nothing(explorer):
    before = dict(explorer.pawns)
    with pytest.raises(UnknownSpace):
        explorer.place("Janet", "Frog Pnd")
    assert explorer.pawns == before
    explorer.place(DOCTOR, "Lighthouse")
    assert explorer.doctor_picker.value == "Lighthouse"
    with pytest.raises(UnknownSpace):
        SightExplorer(pawns={"Janet": "Nowhere"})


def test_explorer_works_on_a_straight_line_sight_board():
    board = load_board("kill-doctor-lucky")
    a, b = board.spaces[:2]
    lab = SightExplorer(board=board, pawns={"Ann": a, "Bob": b}, doctor=a, cat=None)
    assert lab.report == sight_report(board, {"Ann": a, "Bob": b}, doctor=a)


# -- TurnStepper --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stepper():
    return TurnStepper(players=3, seed=4, agents="cautious")


def test_step_applies_one_decision_and_redraws(stepper):
    stepper.reset()
    game = stepper.game
    events = stepper.step()
    assert len(game.history) == 1 and events
    assert stepper.log_lines[-len(events):] == [e.text for e in events]
    assert all(e.text in stepper.log_view.value.replace("&#x27;", "'") for e in events[-3:])
    for seat in game.seats:
        assert near(stepper.drawing.pawn_xy(game.names[seat]), game.position[seat])
    assert near(stepper.drawing.pawn_xy(DOCTOR), game.doctor)
    assert f"Turn {game.turn}" in stepper.drawing.title.get_text()


def test_back_undoes_exactly_one_step(stepper):
    stepper.reset()
    for _ in range(6):
        stepper.step()
    record = stepper.game.record()
    positions = dict(stepper.game.position)
    stepper.step()
    assert stepper.back() is True
    assert stepper.game.record() == record and stepper.game.position == positions
    assert stepper.log_lines == [e.text for e in stepper.game.events]
    # after Back, Step replays the same decision (the bots were rewound too)
    again = stepper.step()
    stepper.back()
    assert stepper.step() == again
    stepper.reset()
    assert stepper.back() is False and stepper.back_button.disabled
    stepper.step()
    assert not stepper.back_button.disabled


def test_same_seed_same_game_and_the_seed_box_makes_a_new_one(stepper):
    stepper.seed_box.value = 4
    stepper.reset_button.click()
    first = [str(e) for e in stepper.play_to_attempt()]
    stepper.reset_button.click()
    assert [str(e) for e in stepper.play_to_attempt()] == first
    stepper.seed_box.value = 5
    stepper.reset_button.click()
    assert stepper.game.seed == 5


def test_I_FOIL_1_play_to_next_attempt_shows_the_round_seat_by_seat(stepper):
    stepper.seed_box.value = 4
    stepper.reset_button.click()
    stepper.attempt_button.click()
    game = stepper.game
    assert game.phase == "foil" or game.is_over or stepper.foil_outcome
    if game.phase == "foil":
        rows = stepper.foil_rows
        assert [r[0] for r in rows] == [game.names[s] for s in game.foil.order]
        assert rows[len(game.foil.asked)][1] == "deciding now..."
        while game.phase == "foil":
            stepper.step_button.click()
        answered = stepper.foil_rows
        assert all(r[1] not in ("deciding now...", "not asked yet") for r in answered)
        assert stepper.foil_outcome
        assert stepper.foil_outcome in stepper.foil_view.value.replace("&#x27;", "'")


def test_I_DOC_3_to_next_jump_stops_right_after_the_turn_jumps(stepper):
    stepper.seed_box.value = 4
    stepper.reset_button.click()
    seen = 0
    for _ in range(3):
        before = len(stepper.game.events)
        stepper.jump_button.click()
        game = stepper.game
        if game.is_over:
            break
        fresh = game.events[before:]
        jumps = [e for e in fresh if e.kind == "doctor_moves" and "jump" in e.data]
        last = stepper.last_events  # the events of the decision it stopped after
        assert jumps and all(any(e is j for e in last) for j in jumps)  # none skipped earlier
        jump = jumps[0]
        assert jump.data["jump"] in jump.data["occupants"]  # he walked onto that seat
        assert jump.text in stepper.log_view.value.replace("&#x27;", "'")
        seen += 1
        assert stepper.jumps[0] == sum(e.kind == "doctor_moves" and "jump" in e.data
                                       for e in game.events)
        assert f"turn jumps:</b> {stepper.jumps[0]} " in stepper.status.value
    assert seen == 3
    stepper.back_button.click()  # Back undoes the last decision only
    assert stepper.jumps[0] == seen - 1


def test_sight_legend_only_when_sight_is_drawn(stepper):
    texts = [t.get_text() for t in stepper.drawing.legend.get_texts()]
    assert any(t.startswith("sight") for t in texts)


@pytest.mark.parametrize("players, agents", [(4, "aggressive"), (3, "random")])
def test_stepper_plays_the_same_game_as_simulate(players, agents):
    """The game in the stepper with seed S is the game play_game plays with seed S."""
    lab = TurnStepper(players=players, seed=11, agents=agents, turn_cap=120)
    steps = 0
    while not lab.game.is_over and steps < 5000:
        lab._decide()
        steps += 1
    lab._redraw()
    result = play_game("island", players, 11, agents=agents, turn_cap=120)
    mine = lab.game.result()
    assert (mine.winner, mine.turns, mine.attempts, mine.cards_left) == \
        (result.winner, result.turns, result.attempts, result.cards_left)
    assert "Game over" in lab.drawing.title.get_text()
    assert lab.step() == []  # nothing happens after the end
    assert lab.step_button.disabled and lab.attempt_button.disabled


def test_stepper_agents_and_players_pickers():
    lab = TurnStepper(players=2, seed=3, agents=["random", "cautious"])
    assert len(lab.agent_box.children) == 2
    assert [type(a).name for s, a in sorted(lab.agents.items())] == ["random", "cautious"]
    assert lab.game.strangers  # 2 players: Strangers join (I-STR-1)
    lab.players_picker.value = 5
    assert len(lab.agent_box.children) == 5
    lab.reset_button.click()
    assert lab.game.players == 5 and not lab.game.strangers
    with pytest.raises(ValueError, match="one agent per player"):
        TurnStepper(players=3, agents=["random"])


def test_stepper_offers_the_look_ahead_bot_and_plays_the_game_simulate_plays():
    lab = TurnStepper(players=2, seed=5, game="kill", agents="opportunist")
    picker = lab.agent_pickers[0]
    assert picker.options[-1] == ("ismcts (look-ahead)", "ismcts")
    picker.value = "ismcts"  # as a student picks it, then Reset
    lab.reset_button.click()
    assert type(lab.agents[0]).__name__ == "KillISMCTS"
    steps = 0
    while not lab.game.is_over and steps < 400:
        lab.step_button.click()
        steps += 1
    result = play_game("kill", 2, 5, agents=["ismcts", "opportunist"])
    assert lab.game.result() == result
    lab.back_button.click()  # Back and Step again: the look-ahead bot replays exactly
    lab.step_button.click()
    assert lab.game.result() == result
    island = TurnStepper(players=4, seed=1, agents=["ismcts", "cautious", "random", "random"])
    assert [type(a).name for _, a in sorted(island.agents.items())][:2] == ["ismcts",
                                                                          "cautious"]


# -- FoilLab ------------------------------------------------------------------------------------
def test_foil_lab_shows_the_exact_answer_and_the_distribution():
    lab = FoilLab(attack=8, opponents=3, cards_each=4, known=0, samples=1000)
    assert lab.p_exact == p_foil(8, [4, 4, 4])
    assert lab.distribution == pytest.approx(luck_distribution("island", 12))
    blue = [b for b in lab.bars if matplotlib.colors.to_hex(b.get_facecolor()) == "#0072b2"]
    assert sorted(round(b.get_x() + b.get_width() / 2) for b in blue) == \
        [s for s in lab.distribution if s >= 8]
    assert sum(b.get_height() for b in blue) == pytest.approx(lab.p_exact)
    assert f"{lab.p_exact:.4f}" in lab.answer.value


def test_foil_lab_sliders_and_monte_carlo_converge():
    lab = FoilLab(attack=6, opponents=2, cards_each=3, samples=4000)
    lab.attack_slider.value = 9
    lab.known_slider.value = 10
    assert len(lab.known_cards) == 10
    assert lab.p_exact == p_foil(9, [3, 3], known=lab.known_cards)
    n, estimate = lab.mc_curve[-1]
    assert n == 4000
    p = lab.p_exact
    assert abs(estimate - p) <= 4 * math.sqrt(p * (1 - p) / n)
    assert [m for m, _ in lab.mc_curve] == sorted(m for m, _ in lab.mc_curve)


def test_foil_lab_band_of_two_standard_errors_stays_inside_0_and_1():
    lab = FoilLab(attack=22, opponents=3, cards_each=6, samples=500)
    lab.attack_slider.value = 16  # P(foil) = 0.98: two standard errors of few deals pass 1
    band = next(c for c in lab.mc_ax.collections if c.get_label().startswith("exact"))
    ys = [y for path in band.get_paths() for _, y in path.vertices]
    assert ys and min(ys) >= 0.0 and max(ys) <= 1.0


def test_foil_lab_too_many_cards_says_so():
    lab = FoilLab(opponents=7, cards_each=10, known=30)
    assert "Too many cards" in lab.answer.value and math.isnan(lab.p_exact)
    lab.known_slider.value = 0
    assert not math.isnan(lab.p_exact)


# -- DilemmaLab ---------------------------------------------------------------------------------
def test_I_FOIL_3_dilemma_lab_worked_example_6():
    """Worked example 6: Luck 2, 0, 5 against 4; the third pays. Had the third passed (cost
    high enough? no: losing costs more), the third would be the loser."""
    lab = DilemmaLab(attack=4, hands={"A": [2], "B": [0], "C": [5]})
    assert lab.plan == solve_foil_round(4, [[2], [0], [5]], luck_cost=0.01)
    assert lab.plan.foiled and lab.plan.payers == (2,)
    assert "Who pays: C (5 Luck)" in lab.answer.value
    heights = [b.get_height() for b in lab.paid_bars]
    assert heights == [0, 0, 5]


def test_dilemma_lab_seat_order_moves_the_bill():
    lab = DilemmaLab(attack=3, hands={"A": [3], "B": [3], "C": [1, 2]})
    assert [lab.order[s] for s in lab.plan.payers] == ["C"]
    lab.order_picker.value = ("B", "C", "A")
    assert [lab.order[s] for s in lab.plan.payers] == ["A"]
    lab.all_orders_box.value = True
    assert len(lab.seatings) == 6
    assert "every seating" in lab.seatings_view.value


def test_dilemma_lab_nobody_can_cover_and_bad_input():
    lab = DilemmaLab(attack=9, hands={"A": [2], "B": [1]})
    assert not lab.plan.foiled and lab.plan.loser is None
    assert "nobody could have stopped it" in lab.answer.value
    lab.hand_boxes["A"].value = "2, x"
    assert lab.plan is None and "whole Luck values" in lab.answer.value
    lab.hand_boxes["A"].value = "4, 5"
    assert lab.plan.foiled
    with pytest.raises(ValueError):
        DilemmaLab(hands={"A": [1]})


def test_widgets_never_import_into_luckylab():
    assert not hasattr(luckylab, "viz") or "viz" not in luckylab.__all__


def test_stepper_also_steps_a_straight_line_sight_game():
    """Kill Doctor Lucky (a geometry board, no Strangers, no cat) through the same widget."""
    lab = TurnStepper(players=3, seed=1, game="kill")
    for _ in range(12):
        lab.step_button.click()
    game = lab.game
    assert len(game.history) == 12
    for seat, space in game.position.items():
        x, y = lab.drawing.pawn_xy(game.names[seat])
        rect = game.board.geometry.rects[space]
        assert rect.x0 <= x <= rect.x1 and rect.y0 <= y <= rect.y1
    assert "the cat" not in [t.get_text() for t in lab.drawing.pawn_legend.get_texts()]


def test_back_remembers_only_the_last_history_steps():
    lab = TurnStepper(players=4, seed=2, history=3)
    for _ in range(5):
        lab.step()
    assert [lab.back() for _ in range(4)] == [True, True, True, False]
    assert len(lab.game.history) == 2
