"""Drawing geometry boards and the MansionExplorer widget, driven as a student would.

The picture must be the board's own drawing (one patch per space at its rectangle, one white
opening per door, the railing distinct from both), and everything the widget lists must be
exactly what the board says: sight and adjacency derived from the 1997 geometry (K-BOARD-2,
K-SIGHT-1, K-SIGHT-2), hiding places equal to the Kill engine's ``unseen_spaces``.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.colors import to_hex, to_rgba  # noqa: E402

from luckylab import UnknownSpace, load_board, new_game  # noqa: E402
from luckylab.agents.kill import Opportunist  # noqa: E402
from luckylab.boards.geometry import Rect  # noqa: E402
from luckylab.viz.draw import DOCTOR  # noqa: E402
from luckylab.viz.mansion import (  # noqa: E402
    MARKS,
    NOBODY,
    ROOM_COLORS,
    MansionExplorer,
    draw_mansion,
    hiding_places,
    merged_bands,
    sight_comparison,
)

MANSION = load_board("kill-doctor-lucky")
GEOMETRY = MANSION.geometry


def rect_of(patch) -> Rect:
    x, y = patch.get_xy()
    return Rect(x, y, x + patch.get_width(), y + patch.get_height())


def inside(xy, rect: Rect) -> bool:
    return rect.x0 <= xy[0] <= rect.x1 and rect.y0 <= xy[1] <= rect.y1


def marker_xy(line):
    xs, ys = line.get_data()
    return (float(xs[0]), float(ys[0])) if len(xs) else None


@pytest.fixture(scope="module")
def drawing():
    return draw_mansion(MANSION)


# -- the drawing ----------------------------------------------------------------------------------
def test_K_BOARD_1_one_patch_per_space_at_its_rectangle_filled_by_kind(drawing):
    assert set(drawing.rooms) == set(MANSION.spaces) and len(drawing.rooms) == 32
    for space, patch in drawing.rooms.items():
        assert rect_of(patch) == GEOMETRY.rects[space]
        assert to_hex(patch.get_facecolor()) == ROOM_COLORS[MANSION.kind(space)].lower()
    kinds = {to_hex(drawing.rooms[s].get_facecolor())
             for s in ("Kitchen", "Hall W", "Stairs W")}
    assert len(kinds) == 3  # rooms, hallways and stairs look different


def test_K_BOARD_2_every_door_is_a_white_opening_over_the_dark_walls(drawing):
    assert len(drawing.doors) == len(GEOMETRY.doors) == 55
    for patch, door in zip(drawing.doors, GEOMETRY.doors, strict=True):
        assert rect_of(patch) == door.rect
        assert to_hex(patch.get_facecolor()) == "#ffffff"
        assert patch.get_zorder() > drawing.rooms[door.between[0]].get_zorder()
    wall = to_hex(drawing.walls.get_facecolor())
    assert wall not in {to_hex(p.get_facecolor()) for p in drawing.rooms.values()}
    assert rect_of(drawing.walls) == GEOMETRY.bounds


def test_K_SIGHT_2_the_railing_is_drawn_distinctly_with_its_dots(drawing):
    (railing,) = drawing.railings
    (opening,) = GEOMETRY.see_through
    assert set(opening.between) == {"Gallery", "Dining Hall"}
    assert rect_of(railing) == opening.rect
    colour = to_hex(railing.get_facecolor())
    assert colour != "#ffffff"  # not a door
    assert colour not in {to_hex(p.get_facecolor()) for p in drawing.rooms.values()}
    xs, ys = drawing.railing_dots.get_data()
    assert len(xs) >= 4
    assert all(inside((x, y), opening.rect) for x, y in zip(xs, ys, strict=True))
    assert any(h.get_label().startswith("railing") for h in drawing.legend.legend_handles)


def test_y_runs_downwards_and_names_are_readable(drawing):
    assert drawing.ax.yaxis_inverted()
    assert drawing.ax.get_aspect() == 1.0
    assert drawing.labels["Kitchen"].get_text() == "Kitchen"
    assert drawing.numbers["Kitchen"].get_text() == "8"
    assert drawing.numbers["Kitchen"].get_fontweight() == "bold"
    assert set(drawing.numbers) == {s for s in MANSION.spaces if MANSION.number(s) is not None}
    assert drawing.labels["Hall NW"].get_rotation() == 90  # a tall, narrow hallway
    assert all(t.get_fontsize() >= 8 for t in drawing.labels.values())
    assert drawing.title.get_text() == MANSION.name


def test_a_board_without_geometry_is_refused():
    with pytest.raises(ValueError, match="not a geometry board"):
        draw_mansion(load_board("isla-fortuna"))


def test_the_ship_draws_too_and_says_it_is_reconstructed():
    ship = load_board("save-doctor-lucky")
    picture = draw_mansion(ship, sight_of=ship.spaces[0], legend=False)
    assert len(picture.rooms) == len(ship.spaces)
    assert "reconstruct" in picture.title.get_text()
    assert picture.railings == [] and len(picture.doors) == len(ship.geometry.doors)


# -- sight bands ----------------------------------------------------------------------------------
def test_K_SIGHT_1_kitchen_bands_reach_exactly_what_the_kitchen_sees():
    picture = draw_mansion(MANSION, sight_of="Kitchen", legend=False)
    assert picture.bands.get_visible()
    bands = picture.shown_bands
    assert len(picture.bands.get_paths()) == len(bands) > 0
    crossed = set().union(*(b.spaces for b in bands))
    assert crossed == set(MANSION.visible_from("Kitchen"))
    kitchen = GEOMETRY.rects["Kitchen"]
    assert all(b.rect.touches(kitchen) for b in bands)
    assert all(b.orientation in ("h", "v") for b in bands)  # never diagonal
    picture.show_sight(None)
    assert not picture.bands.get_visible() and picture.shown_bands == ()


def test_merged_bands_keep_the_same_lines_in_fewer_strips():
    raw = GEOMETRY.sight_bands("Kitchen")
    merged = merged_bands(raw)
    assert len(merged) < len(raw)

    def area(bands):
        return sum(b.rect.width * b.rect.height for b in bands)

    assert area(merged) == pytest.approx(area(raw))
    assert set().union(*(b.spaces for b in merged)) == set().union(*(b.spaces for b in raw))


def test_show_sight_of_an_unknown_space_raises_and_changes_nothing():
    picture = draw_mansion(MANSION, sight_of="Gallery", legend=False)
    before = picture.shown_bands
    with pytest.raises(UnknownSpace):
        picture.show_sight("Ballroom")
    assert picture.shown_bands == before and picture.sight_of == "Gallery"


# -- marks and pawns ------------------------------------------------------------------------------
def test_marks_paint_rooms_and_a_bad_mark_changes_nothing():
    picture = draw_mansion(MANSION, marks={"Kitchen": "chosen"}, legend=False)
    patch = picture.marks["Kitchen"]
    assert patch.get_visible()
    assert to_rgba(patch.get_facecolor())[:3] == to_rgba(MARKS["chosen"]["facecolor"])[:3]
    assert not picture.marks["Parlor"].get_visible()
    with pytest.raises(ValueError, match="unknown mark"):
        picture.mark({"Parlor": "glowing"})
    with pytest.raises(UnknownSpace):
        picture.mark({"Ballroom": "chosen"})
    assert picture.marked == {"Kitchen": "chosen"} and patch.get_visible()
    picture.mark({})
    assert not any(p.get_visible() for p in picture.marks.values())


def test_pawns_and_doctor_stand_inside_their_spaces():
    spots = {"Ann": "Drawing Room", "Bob": "Drawing Room", "Cy": "Hall SW", "Di": "Foyer"}
    picture = draw_mansion(MANSION, pawns=spots, doctor="Drawing Room")
    for label, space in spots.items():
        assert inside(marker_xy(picture.pawns[label]), GEOMETRY.rects[space]), label
    assert inside(marker_xy(picture.doctor), GEOMETRY.rects["Drawing Room"])
    xy = {marker_xy(picture.pawns[p]) for p in ("Ann", "Bob")} | {marker_xy(picture.doctor)}
    assert len(xy) == 3  # side by side, not on top of each other
    legend = [t.get_text() for t in picture.legend.get_texts()]
    assert legend[-5:] == ["Ann", "Bob", "Cy", "Di", DOCTOR]
    picture.place({"Ann": None}, doctor=None)
    assert marker_xy(picture.pawns["Ann"]) is None and marker_xy(picture.doctor) is None
    with pytest.raises(UnknownSpace):
        picture.place({"Ann": "Ballroom"})


# -- board questions ------------------------------------------------------------------------------
@pytest.mark.parametrize(("room", "visible", "adjacent"), [
    # K-SIGHT-1, the rulebook's Kitchen example: sight reaches further than the doors.
    ("Kitchen", {"Hall SW", "Hall W", "Master Suite", "Stairs W", "Trophy Room", "Wine Cellar",
                 "Winter Garden"}, {"Hall SW", "Hall W", "Wine Cellar"}),
    # K-SIGHT-2: the Gallery sees the Dining Hall through the railing, but no door joins them.
    ("Gallery", {"Dining Hall", "Drawing Room", "Foyer", "Hall NW", "Library", "Master Suite",
                 "Nursery", "Piazza"}, {"Library", "Nursery"}),
])
def test_K_SIGHT_1_sight_comparison_of_the_rulebook_rooms(room, visible, adjacent):
    c = sight_comparison(MANSION, room)
    assert set(c.visible) == visible and set(c.adjacent) == adjacent
    assert set(c.visible_not_adjacent) == visible - adjacent
    assert c.adjacent_not_visible == ()
    assert room not in c.visible


def test_K_SIGHT_1_no_diagonal_foyer_does_not_see_the_carriage_house():
    assert "Carriage House" not in sight_comparison(MANSION, "Foyer").visible


def test_K_BOARD_2_every_door_is_also_a_line_of_sight_on_the_mansion():
    assert all(sight_comparison(MANSION, s).adjacent_not_visible == () for s in MANSION.spaces)


def test_K_KILL_1_hiding_places_equal_the_engines_unseen_spaces():
    """The widget's "where to hide" is the engine's answer to "where could I attack unseen"."""
    for seed in range(4):
        game = new_game("kill", players=4, seed=seed)
        bots = [Opportunist(seed=s) for s in range(4)]
        for _ in range(12):
            if game.is_over:
                break
            game.apply(bots[game.current_player].choose(game))
        for seat in game.order:
            others = [game.position[s] for s in game.order if s != seat]
            assert set(hiding_places(MANSION, others)) == game.unseen_spaces(seat)


def test_hiding_places_from_nobody_is_everywhere_and_a_watcher_sees_home():
    assert hiding_places(MANSION, []) == MANSION.spaces
    assert "Drawing Room" not in hiding_places(MANSION, ["Drawing Room"])
    with pytest.raises(UnknownSpace):
        hiding_places(MANSION, ["Ballroom"])
    with pytest.raises(TypeError, match="collection"):
        hiding_places(MANSION, "Kitchen")


# -- the widget -----------------------------------------------------------------------------------
@pytest.fixture
def explorer():
    return MansionExplorer(room="Kitchen", rivals={"Ann": "Drawing Room", "Bob": "Library"},
                           doctor="Dining Hall")


def test_explorer_lists_follow_the_room_dropdown(explorer):
    assert explorer.comparison == sight_comparison(MANSION, "Kitchen")
    assert "Master Suite (10)" in explorer.lists.value
    explorer.room_picker.value = "Gallery"
    c = explorer.comparison
    assert c == sight_comparison(MANSION, "Gallery")
    assert "Dining Hall" in c.visible_not_adjacent
    text = explorer.lists.value
    assert "seen but not adjacent</b> (6)" in text and "adjacent but not seen</b> (0)" in text


def test_explorer_marks_and_bands_show_the_chosen_room(explorer):
    explorer.room_picker.value = "Gallery"
    drawing = explorer.drawing
    assert drawing.marked["Gallery"] == "chosen"
    for space in ("Library", "Nursery"):
        assert drawing.marked[space] == "adjacent"
    for space in explorer.comparison.visible_not_adjacent:
        assert drawing.marked[space] == "visible"
        assert drawing.marks[space].get_hatch() == MARKS["visible"]["hatch"]
    assert not drawing.marks["Kitchen"].get_visible()
    assert drawing.bands.get_visible() and drawing.sight_of == "Gallery"
    assert "Gallery" in drawing.title.get_text()


def test_explorer_where_to_hide_view(explorer):
    explorer.view_picker.value = "hide"
    drawing = explorer.drawing
    expected = hiding_places(MANSION, ["Drawing Room", "Library"])
    assert explorer.hideouts == expected
    assert not drawing.bands.get_visible()
    for space, patch in drawing.marks.items():
        mark = "hideout" if space in expected else "watched"
        assert drawing.marked[space] == mark
        assert to_rgba(patch.get_facecolor())[:3] == to_rgba(MARKS[mark]["facecolor"])[:3]
    assert "Kitchen (8) is a hiding place" in explorer.lists.value
    # Move Ann into the Kitchen's sight: the Kitchen is no hiding place any more.
    explorer.rival_pickers["Ann"].value = "Wine Cellar"
    assert "Kitchen" not in explorer.hideouts
    assert "Kitchen (8) is watched by Ann" in explorer.lists.value
    assert inside(marker_xy(drawing.pawns["Ann"]), GEOMETRY.rects["Wine Cellar"])
    # Nobody on the board: hide anywhere.
    for picker in explorer.rival_pickers.values():
        picker.value = NOBODY
        assert picker.index == 0  # shown as "(nobody)", not as a blank box
    assert explorer.hideouts == MANSION.spaces


def test_explorer_draws_once_and_only_updates(explorer):
    drawing, rooms, figure = explorer.drawing, dict(explorer.drawing.rooms), explorer.figure
    first = explorer.png
    assert first.startswith(b"\x89PNG")
    explorer.room_picker.value = "Foyer"
    explorer.doctor_picker.value = "Piazza"
    assert explorer.drawing is drawing and explorer.figure is figure
    assert drawing.rooms == rooms and len(figure.axes) == 1
    assert explorer.png != first
    assert inside(marker_xy(drawing.doctor), GEOMETRY.rects["Piazza"])
    assert explorer.doctor == "Piazza"
    assert drawing.doctor.get_label() == DOCTOR


def test_explorer_refuses_bad_input():
    with pytest.raises(UnknownSpace):
        MansionExplorer(room="Ballroom")
    with pytest.raises(UnknownSpace):
        MansionExplorer(rivals={"Ann": "Ballroom"})
    with pytest.raises(ValueError, match="view"):
        MansionExplorer(view="aerial")
    with pytest.raises(ValueError, match="not a geometry board"):
        MansionExplorer(board="isla-fortuna")


def test_explorer_fast_repaint_equals_a_fresh_full_paint():
    """The kept background plus the changing artists must be exactly the whole picture."""
    import io

    import numpy as np
    from PIL import Image

    def pixels(png: bytes):
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))

    moved = MansionExplorer(room="Kitchen", rivals={"Ann": "Foyer"}, doctor="Parlor")
    moved.room_picker.value = "Gallery"
    moved.rival_pickers["Ann"].value = "Armory"
    moved.doctor_picker.value = NOBODY
    fresh = MansionExplorer(room="Gallery", rivals={"Ann": "Armory"})
    assert np.array_equal(pixels(moved.png), pixels(fresh.png))
