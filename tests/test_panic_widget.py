"""The Panic Island! widget, driven in plain pytest: clicks run handlers, state is checked."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("ipywidgets")

from luckylab.games.panic import PanicGame  # noqa: E402
from luckylab.viz.panic_widget import PanicWidget  # noqa: E402


def arranged(**options) -> PanicGame:
    game = PanicGame(players=2, seed=11, **options)
    layout = {"r1c1": "red native", "r1c2": "red dodo", "r1c3": "yellow egg",
              "r1c4": "Mirage", "r1c5": "raft"}
    for place, name in layout.items():
        other = next((p for p, c in game.island.items()
                      if c is not None and game.cards[c].name == name and p != place), None)
        if other is not None and game.card_at(place).name != name:
            game.island[place], game.island[other] = game.island[other], game.island[place]
    return game


def test_importing_luckylab_loads_no_widgets_or_matplotlib():
    code = "import sys, luckylab; print('ipywidgets' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_grid_of_25_card_buttons_with_the_volcano_known():
    widget = PanicWidget(seed=3)
    assert len(widget.buttons) == 25 and len(widget.grid.children) == 25
    assert widget.buttons["r3c3"].description == "volcano"
    assert {b.description for p, b in widget.buttons.items() if p != "r3c3"} == {"?"}
    assert not widget.gouga_button.disabled and widget.kind.disabled
    assert widget.clock_bar.value == 1.0


def test_clicking_two_cards_plays_a_turn_and_shows_what_was_seen():
    widget = PanicWidget(game=arranged())
    widget.buttons["r1c1"].click()
    assert widget.buttons["r1c1"].description == "red native"
    assert widget.buttons["r1c1"].disabled  # face up: cannot be turned again
    widget.buttons["r1c2"].click()
    game = widget.game
    assert game.score == 1 and game.turn == 1
    assert widget.buttons["r1c2"].description == "" and widget.buttons["r1c2"].disabled
    assert widget.buttons["r1c1"].description == "(red native)"  # just turned back
    assert "Saved (1): red dodo" in widget.status.value
    assert widget.clock_bar.value == pytest.approx((120 - 6) / 120)


def test_a_refused_click_changes_nothing_and_says_why():
    widget = PanicWidget(game=arranged())
    widget.click("r1c1")
    history = list(widget.game.history)
    widget.click("r1c1")  # already face up
    assert widget.game.history == history
    assert "Not allowed" in widget.news.value and "face up" in widget.news.value


def test_raft_found_and_mirage_shown():
    widget = PanicWidget(game=arranged())
    widget.click("r1c5")
    widget.click("r1c4")
    assert "Raft &#10004;" in widget.status.value and "Paddle &#10008;" in widget.status.value
    assert "Mirage" in widget.news.value


def test_gouga_button_and_kind_choice():
    widget = PanicWidget(game=arranged())
    widget.gouga_button.click()
    assert widget.game.gouga == "awake" and widget.gouga_button.disabled
    assert not widget.kind.disabled
    widget.kind.value = "native"
    widget.buttons["r1c1"].click()
    assert widget.game.cards[widget.game.saved[-1]].name == "red native"
    widget.kind.value = "egg"
    widget.buttons["r1c2"].click()  # a red dodo: a miss
    assert widget.game.gouga == "gone" and widget.kind.disabled and widget.gouga_button.disabled


def test_active_obstacles_and_place_clicks():
    game = arranged(obstacles=["Rainbow", "Totem pole", "Tornado"])
    rainbow = next(p for p, c in game.island.items()
                   if c is not None and game.cards[c].name == "Rainbow")
    widget = PanicWidget(game=game)
    widget.click("r1c1")
    widget.click("r1c2")  # red dodo saved
    widget.click(rainbow)
    widget.click("r1c3")
    assert "Active obstacles: Rainbow" in widget.status.value
    assert widget.buttons[rainbow].description == "Rainbow"
    totem = next(p for p, c in game.island.items()
                 if c is not None and game.cards[c].name == "Totem pole")
    widget.click(totem)
    widget.click("r1c3")
    assert widget.game.phase == "place" and not widget.buttons["r1c2"].disabled
    widget.click("r1c2")
    assert widget.game.card_at("r1c2").name == "red dodo" and widget.game.phase == "turn"


def test_volcano_click_ends_the_game_and_disables_the_island():
    widget = PanicWidget(seed=2)
    widget.buttons["r3c3"].click()
    assert widget.game.end == "volcano"
    assert all(b.disabled for b in widget.buttons.values())
    assert "Game over" in widget.status.value


def test_new_island_button():
    widget = PanicWidget(seed=2)
    widget.click("r1c1")
    widget.new_button.click()
    assert widget.game.seed == 3 and widget.game.history == []


def test_real_clock_ends_the_game_when_the_wall_clock_runs_out():
    now = [1000.0]
    widget = PanicWidget(seed=2, clock="real", real_seconds=120, now=lambda: now[0])
    assert widget.game.clock == "external"
    widget.click("r1c1")  # the hourglass turns with the first click
    now[0] += 50
    widget.click("r1c2")
    assert widget.seconds_left() == pytest.approx(70) and widget.game.time_left == 120
    now[0] += 80
    widget.click("r2c1")
    assert widget.game.is_over and widget.game.end == "time"
    assert widget.game.history[-1].to_data() == {"type": "time_up"}


def test_bad_clock_is_refused():
    with pytest.raises(ValueError):
        PanicWidget(clock="sundial")


def test_every_card_button_has_a_sentence_a_screen_reader_can_say():
    widget = PanicWidget(game=arranged())
    tips = {p: b.tooltip for p, b in widget.buttons.items()}
    assert all(tips.values()) and len(set(tips.values())) == 25  # each says where it is
    assert tips["r1c1"] == "row 1, column 1: face down"
    assert tips["r3c3"] == "row 3, column 3: the volcano, face up"
    widget.buttons["r1c1"].click()
    assert widget.buttons["r1c1"].tooltip == (
        "row 1, column 1: red native, face up, cannot be clicked now")
    widget.buttons["r1c3"].click()  # red native and yellow egg: no save, both turn back
    assert widget.buttons["r1c3"].tooltip == (
        "row 1, column 3: yellow egg, seen last turn, face down again")
    assert widget.new_button.tooltip and widget.gouga_button.tooltip
