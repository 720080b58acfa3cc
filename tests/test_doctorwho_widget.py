"""The Doctor Who seat view, driven through its controls: it shows one seat's information only."""

from __future__ import annotations

import pytest
from doctorwho_support import allowed

from luckylab.viz import SeatView


def test_next_action_button_applies_one_action():
    view = SeatView(players=3, seed=1)
    view.step_button.click()
    assert len(view.game.history) == 1


def test_next_turn_button_moves_to_the_next_player():
    view = SeatView(players=4, seed=2)
    first = view.game.turn_player
    view.turn_button.click()
    assert view.game.turn_player == (first + 1) % 4
    assert "passes 3 cards" in view.news.value


@pytest.mark.parametrize("seed", [3, 4])
def test_every_seat_sees_only_its_own_information(seed):
    view = SeatView(players=3, seed=seed, agents=["careful", "bluffer", "greedy"])
    for _ in range(60):
        view.turn_button.click()
        for seat in range(3):
            view.seat_choice.value = seat
            assert f"Seen by Player {seat + 1}" in view.panel.value
            assert view.shown <= allowed(view.game, seat)
            others = set(view.game.hands[(seat + 1) % 3]) - allowed(view.game, seat)
            assert not view.shown & others
        if view.game.is_over:
            break
    assert "game over" in view.panel.value or view.game.turns > 1


def test_a_face_down_attack_shows_as_question_marks_to_the_defender():
    view = SeatView(players=3, seed=5)
    game = view.game
    for _ in range(300):
        face_down = [loc for loc in game.locs.values() if loc.enemies and not loc.up]
        if face_down:
            break
        view.step_button.click()
    assert face_down
    loc = face_down[0]
    view.seat_choice.value = loc.owner
    assert "?" in view.panel.value
    assert not set(loc.enemies) & view.shown
    view.seat_choice.value = loc.attacker
    assert set(loc.enemies) <= view.shown


def test_agents_must_match_the_seats():
    with pytest.raises(ValueError, match="3 seats"):
        SeatView(players=3, agents=["careful"])
