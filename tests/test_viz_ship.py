"""luckylab.viz.ship: the ship drawn per turn, and the ShipStepper widget driven by its buttons.

Plain pytest, no kernel: ``button.click()`` runs the handlers (ipywidgets 8). Assertions are on
the game, the log text and the matplotlib artists, never on pixels.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

import luckylab  # noqa: E402
from luckylab import load_board, new_game  # noqa: E402
from luckylab.analysis.sinking import sinking_snapshots  # noqa: E402
from luckylab.simulation import play_game  # noqa: E402
from luckylab.viz.ship import (  # noqa: E402
    ShipStepper,
    draw_ship,
    draw_sinking,
    seat_label,
    ship_title,
)


def _inside(marker, rect) -> bool:
    (x,), (y,) = marker.get_data()
    return rect.x0 <= x <= rect.x1 and rect.y0 <= y <= rect.y1


def _marked(drawing, style):
    """The rooms painted with a mark style; checks that exactly those overlays are shown."""
    marked = drawing.mansion.marked
    shown = {room for room, patch in drawing.mansion.marks.items() if patch.get_visible()}
    assert shown == set(marked)
    return {room for room, name in marked.items() if name == style}


# -- the drawing -----------------------------------------------------------------------------------
def test_a_fresh_game_is_dry_with_every_pile_full_and_everyone_placed():
    game = new_game("save", players=4, seed=3)
    drawing = draw_ship(game)
    assert not drawing.sea.get_visible() and drawing.waterline is None
    for deck, text in drawing.deck_labels.items():
        assert f"{len(game.piles[deck])} cards" in text.get_text()
        assert ("(draw here)" in text.get_text()) == (deck == "D")  # S-SETUP-3: D first
    rects = game.ship.geometry.rects
    for seat in game.seats:
        assert _inside(drawing.mansion.pawns[seat_label(seat)], rects[game.positions[seat]])
    assert _inside(drawing.mansion.doctor, rects[game.doctor])
    assert "reconstructed" in drawing.title.get_text()


def test_S_SAVE_1_marks_doctor_luckys_room_and_every_room_a_witness_could_see_it_from():
    game = new_game("save", players=4, seed=3)
    drawing = draw_ship(game)
    assert _marked(drawing, "chosen") == {game.doctor}
    assert _marked(drawing, "visible") == set(game.board.seen_by(game.doctor)) - {game.doctor}
    # S-SIGHT-1: the bands drawn are straight lines out of his room
    assert drawing.mansion.shown_bands
    assert all(game.doctor in band.spaces for band in drawing.mansion.shown_bands)


@pytest.mark.parametrize("index", [1, 2, 3])
def test_S_SINK_1_the_sea_covers_exactly_the_sunken_decks(index):
    shots = sinking_snapshots(players=4, seed=0, agents="greedy")
    game = shots[index]
    drawing = draw_ship(game, legend=False)
    assert drawing.sea.get_visible()
    lowest_afloat = game.afloat[-1]
    assert drawing.waterline == drawing.decks[lowest_afloat][1]
    assert drawing.sea.get_y() == drawing.waterline
    sea_top = drawing.sea.get_y()
    for deck, (top, _bottom) in drawing.decks.items():
        under = top >= sea_top
        assert under == (deck in game.sunk)
        assert ("sunk" in drawing.deck_labels[deck].get_text()) == under
    # Sight is the ship's as it is now: no band and no mark in a flooded room.
    for band in drawing.mansion.shown_bands:
        assert band.spaces <= set(game.board.spaces)
    assert set(drawing.mansion.marked) <= set(game.board.spaces)


def test_the_whole_ship_sunk_is_drawn_under_water():
    shots = sinking_snapshots(players=4, seed=1, agents="cautious")
    end = shots[-1]
    assert end.result().extra["end"] == "sunk"
    drawing = draw_ship(end, legend=False)
    assert drawing.sea.get_y() == drawing.mansion.geometry.bounds.y0
    assert all("sunk" in t.get_text() for t in drawing.deck_labels.values())
    assert ship_title(end).endswith("the ship has sunk, nobody wins")


def test_draw_ship_without_a_game_and_refusals():
    drawing = draw_ship("save-doctor-lucky")
    assert "decks A, B, C, D" in drawing.title.get_text()
    assert all(not m.get_data()[0] for m in drawing.mansion.pawns.values())
    with pytest.raises(ValueError, match="not a geometry board"):
        draw_ship(load_board("isla-fortuna"))


def test_update_refuses_a_game_on_another_ship():
    ship_file = Path(luckylab.__file__).parent / "data" / "save_ship.toml"
    drawing = draw_ship(load_board(str(ship_file)))  # the same drawing, another Board object
    game = new_game("save", players=4, seed=1)
    with pytest.raises(ValueError, match="another ship"):
        drawing.update(game)


def test_draw_sinking_one_panel_per_moment():
    shots = sinking_snapshots(players=4, seed=0, agents="greedy")
    drawings = draw_sinking(shots)
    assert len(drawings) == len(shots)
    assert len({id(d.fig) for d in drawings}) == 1
    assert [d.sea.get_visible() for d in drawings] == [bool(s.sunk) for s in shots]
    with pytest.raises(ValueError):
        draw_sinking([])


# -- the widget ------------------------------------------------------------------------------------
def test_step_button_applies_one_decision_and_moves_artists_without_redrawing():
    stepper = ShipStepper(players=4, seed=2, agents="rider")
    fig, ax, drawing = stepper.figure, stepper.drawing.ax, stepper.drawing
    sea, star = drawing.sea, drawing.mansion.doctor
    log_before = list(stepper.log_lines)
    assert log_before == [e.text for e in stepper.game.events]  # the deal, in plain words
    stepper.step_button.click()
    game = stepper.game
    assert len(game.history) == 1
    assert stepper.log_lines == [e.text for e in game.events]
    assert len(stepper.log_lines) > len(log_before)
    # this step's lines are in bold in the log view
    assert f"<b>{stepper.last_events[-1].text}" in stepper.log_view.value.replace("&#x27;", "'")
    # the same figure and the same artists, moved
    assert stepper.figure is fig and stepper.drawing is drawing and drawing.ax is ax
    assert drawing.sea is sea and drawing.mansion.doctor is star
    assert _inside(star, game.ship.geometry.rects[game.doctor])
    assert stepper.png.startswith(b"\x89PNG")


def test_to_next_sinking_plays_until_deck_D_sinks_and_shows_the_sea():
    stepper = ShipStepper(players=4, seed=0, agents="greedy")
    stepper.sinking_button.click()
    game = stepper.game
    assert game.sunk == ("D",)
    assert any(e.kind == "sink" for e in stepper.last_events)
    assert stepper.drawing.sea.get_visible()
    assert stepper.drawing.deck_labels["D"].get_text() == "deck D\nsunk"
    assert "(draw here)" in stepper.drawing.deck_labels["C"].get_text()
    assert any(line.startswith("deck D sinks") for line in stepper.log_lines)
    assert "<td style='padding:1px 8px'>sunk</td>" in stepper.status.value
    stepper.sinking_button.click()
    assert stepper.game.sunk == ("D", "C")


def test_to_next_rescue_attempt_stops_at_the_failure_round():
    stepper = ShipStepper(players=4, seed=0, agents="greedy")
    stepper.attempt_button.click()
    game = stepper.game
    assert game.phase == "foil" or game.is_over
    rescue = [e for e in stepper.last_events if e.kind == "rescue"]
    assert len(rescue) == 1
    if game.phase == "foil":
        # S-SAVE-1: somebody saw it, and the status says who is asked to stop it
        assert rescue[0].data["witnesses"]
        assert "Rescue attempt</b> by Player" in stepper.status.value
        assert stepper.drawing.deciding == game.current_player != game.attempt.rescuer


def test_reset_starts_the_same_seeded_game_again_and_changes_players():
    stepper = ShipStepper(players=4, seed=5, agents="cautious")
    fresh = new_game("save", players=4, seed=5)
    stepper.sinking_button.click()
    stepper.reset_button.click()
    assert stepper.game.history == [] and stepper.game.positions == fresh.positions
    assert stepper.log_lines == [e.text for e in fresh.events]
    stepper.players_picker.value = 6
    assert len(stepper.agent_box.children) == 6
    stepper.agent_pickers[5].value = "random"
    stepper.reset_button.click()
    assert stepper.game.players == 6 and stepper.agent_choice[5] == "random"
    assert stepper.agents[5].name == "random"
    stepper.players_picker.value = 3
    stepper.reset_button.click()
    pawns = stepper.drawing.mansion.pawns
    assert not pawns[seat_label(5)].get_data()[0]  # seats that left the table are hidden


def test_the_stepper_plays_the_game_a_simulation_with_this_seed_plays():
    agents = ["greedy", "cautious", "rider", "cautious"]
    stepper = ShipStepper(players=4, seed=9, agents=agents)
    for _ in range(10):
        if stepper.game.is_over:
            break
        stepper.play_to_sinking()
    assert stepper.game.is_over
    assert stepper.game.result() == play_game("save", 4, 9, agents)
    history = list(stepper.game.history)
    stepper.step_button.click()  # nothing happens once the game is over
    assert stepper.game.history == history and stepper.last_events == []
    caption = {"rescued": "rescues Doctor Lucky", "sunk": "the ship has sunk"}
    assert caption[stepper.game.end_reason] in stepper.drawing.title.get_text()


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="3 to 7 players"):
        ShipStepper(players=8)
    with pytest.raises(ValueError, match="no Save Doctor Lucky bot"):
        ShipStepper(players=3, agents="clever")
    with pytest.raises(ValueError, match="one bot per player"):
        ShipStepper(players=3, agents=["greedy", "rider"])


def test_the_fast_png_is_the_full_picture_and_changes_with_each_step():
    from io import BytesIO

    from PIL import Image

    stepper = ShipStepper(players=4, seed=0, agents="greedy")
    first = stepper.png
    stepper.play_to_sinking()
    fast = stepper.png
    assert fast != first
    size = Image.open(BytesIO(fast)).size
    assert size == Image.open(BytesIO(stepper.drawing.png())).size
    # the sea really is in the fast picture: the bottom-left corner is water, not white
    pixel = Image.open(BytesIO(fast)).convert("RGB").getpixel((5, int(size[1] * 0.68)))
    assert pixel[2] > pixel[0] + 40


def test_the_key_names_every_pawn_colour_with_its_player():
    import matplotlib.pyplot as plt

    game = new_game("save", players=4, seed=3)
    drawing = draw_ship(game)
    entries = {t.get_text(): h for t, h in zip(drawing.legend.get_texts(),
                                                drawing.legend.legend_handles, strict=True)}
    for seat in game.seats:
        words = f"Player {seat + 1}"
        assert words in entries
        pawn = drawing.mansion.pawns[seat_label(seat)]
        assert entries[words].get_markerfacecolor() == pawn.get_markerfacecolor()
    colours = {drawing.mansion.pawns[seat_label(s)].get_markerfacecolor() for s in game.seats}
    assert len(colours) == len(game.seats)  # one colour per player
    plt.close(drawing.fig)
    shots = draw_sinking(sinking_snapshots(players=3, seed=1, agents="greedy")[:2])
    texts = [t.get_text() for t in shots[0].legend.get_texts()]
    assert [t for t in texts if t.startswith("Player")] == [
        f"Player {s + 1}" for s in range(3)]
    plt.close(shots[0].fig)


def test_the_log_and_the_status_number_players_from_1():
    """Issue 26: what a person reads says Player 1 .. Player n, never a seat from 0."""
    import re

    stepper = ShipStepper(players=4, seed=1)
    seen = set()
    for _ in range(40):
        if stepper.game.is_over:
            break
        stepper.play_to_attempt()
        text = " ".join([*stepper.log_lines, stepper.status.value])
        assert not re.search(r"\bseats? \d", text, re.I)
        seen |= {int(n) for n in re.findall(r"\bPlayers? (\d+)", text)}
    assert stepper.game.is_over
    assert seen == {1, 2, 3, 4}
