"""Clicks on the maps: a synthetic ipyevents click at a space's pixel picks that space.

The events have the shape ipyevents 2 sends for an ``ipywidgets.Image``: ``event``/``type``,
``relativeX``/``relativeY`` in displayed pixels and the displayed ``boundingRectWidth`` /
``boundingRectHeight``; the picture is shown smaller than its natural size, as in a notebook,
so the scaling is exercised. Every space of every board is clicked.
"""

from __future__ import annotations

import html

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from luckylab import load_board  # noqa: E402
from luckylab.viz import SightExplorer  # noqa: E402
from luckylab.viz.clicks import ClickMap, event_pixel  # noqa: E402
from luckylab.viz.mansion import ROOM, MansionExplorer  # noqa: E402
from luckylab.viz.play import PlayTable  # noqa: E402

SHOWN = 0.8  # displayed size / natural size


def click_at(clicks: ClickMap, space: str, shown: float = SHOWN) -> dict:
    x, y = clicks.pixel_of(space)
    width, height = clicks.natural
    return {"event": "click", "type": "click", "relativeX": round(x * shown),
            "relativeY": round(y * shown), "boundingRectWidth": width * shown,
            "boundingRectHeight": height * shown, "button": 0, "altKey": False}


def test_event_pixel_scales_displayed_to_natural_pixels():
    assert event_pixel({"relativeX": 380, "relativeY": 100, "boundingRectWidth": 380,
                        "boundingRectHeight": 200}, (760, 400)) == (760.0, 200.0)
    assert event_pixel({"event": "click"}, (760, 400)) is None


@pytest.mark.parametrize(("game", "players"), [("island", 4), ("kill", 4), ("save", 4)])
def test_play_table_click_selects_every_space(game, players):
    table = PlayTable(game, players=players, seed=1)
    board = table.clicks.board
    assert len(board.spaces) > 10
    for space in board.spaces:
        assert table.clicks.space_at(click_at(table.clicks, space)) == space
        assert table.click(click_at(table.clicks, space)) == space
        assert table.focused == space


def test_a_click_off_the_spaces_picks_nothing():
    table = PlayTable("island", players=4, seed=1)
    assert table.click({"event": "click", "relativeX": 2, "relativeY": 2,
                        "boundingRectWidth": 760, "boundingRectHeight": 384}) is None
    kill = PlayTable("kill", players=4, seed=1)
    assert kill.click({"event": "click", "relativeX": 1, "relativeY": 1,
                       "boundingRectWidth": 760, "boundingRectHeight": 600}) is None


def test_clicking_a_destination_twice_moves_the_pawn():
    table = PlayTable("island", players=4, you=1, seed=3)
    seat = table.viewer
    target = table.choices["Move"][0].space
    table.click(click_at(table.clicks, target))
    assert table.chosen.space == target
    assert table.game.position[seat] != target
    table.click(click_at(table.clicks, target))
    assert table.game.history[0].moves == ((seat, target),) or any(
        getattr(a, "moves", None) == ((seat, target),) for a in table.game.history)


def test_clicking_a_card_target_picks_the_card():
    table = PlayTable("kill", players=3, you=1, seed=4)
    cards = table.choices.get("Play a card", [])
    if not cards:
        pytest.skip("no card to play in this seed")
    target = cards[-1].space
    if any(c.space == target for g in ("Snoop", "Step") for c in table.choices.get(g, [])):
        table.group_picker.value = "Play a card"
    table.click(click_at(table.clicks, target))
    assert table.chosen.space == target


def test_sight_explorer_click_puts_the_chosen_pawn_there():
    lab = SightExplorer(pawns={"Janet": "Frog Pond", "Sara": "Sunset Beach"})
    for space in lab.board.spaces:
        assert lab.click(click_at(lab.clicks, space)) == space
        assert lab.pawns["Janet"] == space
    lab.click_picker.value = "cat"
    lab.click(click_at(lab.clicks, "Observatory"))
    assert lab.cat_picker.value == "Observatory"
    assert lab.map_image.value  # the picture is shown in the clickable image


def test_sight_explorer_click_on_a_teachers_board():
    board = load_board("isla-fortuna")
    lab = SightExplorer(board=board, pawns={"Ann": board.spaces[0]}, cat=None)
    lab.click_picker.value = "Doctor Lucky"
    lab.click(click_at(lab.clicks, board.spaces[-1]))
    assert lab.doctor_picker.value == board.spaces[-1]


@pytest.mark.parametrize("board", ["kill-doctor-lucky", "save-doctor-lucky"])
def test_mansion_explorer_click_moves_the_room_and_pawns(board):
    lab = MansionExplorer(board=board)
    assert lab.click_picker.value == ROOM
    for space in lab.board.spaces:
        assert lab.click(click_at(lab.clicks, space)) == space
        assert lab.room == space
    rival = next(iter(lab.rival_pickers))
    lab.click_picker.value = rival
    last = lab.board.spaces[-1]
    lab.click(click_at(lab.clicks, last))
    assert lab.rivals[rival] == last


def test_hovering_then_one_click_only_picks():
    table = PlayTable("island", players=4, you=1, seed=3)
    target = table.choices["Move"][0].space
    event = click_at(table.clicks, target)
    table.hover({**event, "event": "mousemove", "type": "mousemove"})
    assert table.focused == target
    table.click(event)
    assert table.game.history == [] or table.game.position[table.viewer] != target
    assert "Picked" in table.message_html.value


def _images(widget):
    import ipywidgets as W

    if isinstance(widget, W.Image):
        yield widget
    for child in getattr(widget, "children", ()):
        yield from _images(child)


def test_map_images_carry_no_tooltip_and_the_table_says_what_the_map_shows():
    # In JupyterLab an Image view with a tooltip fails to render (ipywidgets 8 reads the
    # description an Image does not have), so the sentence goes in a caption instead.
    widgets = [PlayTable("save", players=4, seed=1), SightExplorer(), MansionExplorer()]
    for widget in widgets:
        images = list(_images(widget))
        assert images and all(image.tooltip is None for image in images)
    text = widgets[0].alt_text
    assert text.startswith("Map of the ship") and text.count(".") == 1 and text.endswith(".")
    assert html.escape(text) in widgets[0].alt_html.value
