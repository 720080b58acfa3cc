"""The island drawn as a map: spaces, links, pawns, sight (luckylab.viz.draw)."""

from __future__ import annotations

import io
import math
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from PIL import Image  # noqa: E402

import luckylab  # noqa: E402
from luckylab import UnknownSpace, load_board  # noqa: E402
from luckylab.viz.draw import (  # noqa: E402
    DOCTOR,
    KIND_COLORS,
    PLAYER_COLORS,
    STRANGER_COLOR,
    Scene,
    draw_board,
    draw_sight_matrix,
    new_figure,
    scene_of,
)

BOARD = load_board("isla-fortuna")
_SHARED = draw_board(BOARD, ax=new_figure().add_subplot())  # one map, moved by many examples


@pytest.fixture
def ax():
    return new_figure().add_subplot()


def near(xy, space, board=BOARD, within=0.3):
    x, y = board.space(space).pos
    return math.dist(xy, (x, y)) <= within


def test_spaces_sit_at_their_positions_coloured_by_kind(ax):
    drawing = draw_board(BOARD, ax=ax)
    offsets = drawing.spaces.get_offsets()
    faces = drawing.spaces.get_facecolors()
    assert len(offsets) == len(BOARD.spaces) == 24
    for space, xy, face in zip(BOARD.spaces, offsets, faces, strict=True):
        assert tuple(xy) == pytest.approx(BOARD.space(space).pos)
        assert mcolors.to_hex(face) == KIND_COLORS[BOARD.kind(space)].lower()


def test_every_space_has_its_number_and_a_name_label(ax):
    drawing = draw_board(BOARD, ax=ax)
    texts = {t.get_text() for t in ax.texts}
    assert {str(n) for n in range(1, 25)} <= texts
    assert drawing.labels["Cliffs of Social Anxiety"].get_text().replace("\n", " ") == \
        "Cliffs of Social Anxiety"


def test_I_BOARD_3_air_links_drawn_apart_from_land_borders(ax):
    """I-BOARD-3: four airplanes, six air links, drawn dashed and not as land borders."""
    drawing = draw_board(BOARD, ax=ax)
    land_edges = [e for e in BOARD.graph.edges(data="kind") if e[2] != "air"]
    assert len(drawing.land.get_segments()) == len(land_edges)
    assert len(drawing.air) == 6
    assert all(a.get_linestyle() != "-" for a in drawing.air)
    legend = [t.get_text() for t in drawing.legend.get_texts()]
    assert set(BOARD.kinds) <= set(legend)
    assert any("air link" in t and "no sight" in t for t in legend)


def test_I_BOARD_6_path_arrows_on_request(ax):
    assert draw_board(BOARD, ax=ax).path_arrows == []
    drawing = draw_board(BOARD, ax=new_figure().add_subplot(), show_path=True)
    assert len(drawing.path_arrows) == 24
    first = drawing.path_arrows[0]
    start, end = first._posA_posB  # arrow from 1 to 2
    assert start == pytest.approx(BOARD.space(BOARD.by_number(1)).pos)
    assert end == pytest.approx(BOARD.space(BOARD.by_number(2)).pos)


def test_pawns_in_distinct_colours_and_shapes(ax):
    scene = {"pawns": {"Ann": "Frog Pond", "Bob": "Frog Pond", "Stranger Cy": "Salient Point"},
             "strangers": ["Stranger Cy"], "doctor": "Frog Pond", "cat": "Observatory"}
    drawing = draw_board(BOARD, scene, ax=ax)
    ann, bob, cy = (drawing.pawns[p] for p in ("Ann", "Bob", "Stranger Cy"))
    assert ann.get_markerfacecolor() == PLAYER_COLORS[0]
    assert bob.get_markerfacecolor() == PLAYER_COLORS[1]
    assert cy.get_markerfacecolor() == STRANGER_COLOR
    assert (ann.get_marker(), cy.get_marker(), drawing.doctor.get_marker(),
            drawing.cat.get_marker()) == ("o", "s", "*", "^")
    # three pawns share Frog Pond: all near it, none on top of another
    spots = [drawing.pawn_xy(p) for p in ("Ann", "Bob", DOCTOR)]
    assert all(near(xy, "Frog Pond") for xy in spots)
    assert min(math.dist(a, b) for i, a in enumerate(spots) for b in spots[i + 1:]) > 0.2
    assert near(drawing.pawn_xy("cat"), "Observatory")
    assert near(drawing.pawn_xy("Stranger Cy"), "Salient Point")
    assert len(set(PLAYER_COLORS)) == 8 and DOCTOR not in drawing.pawns


def test_I_SIGHT_1_sight_of_rings_the_seen_spaces_and_lines_to_seen_pawns(ax):
    """Worked example 1: Frog Pond, no cat, sees exactly itself and its three neighbours."""
    scene = {"pawns": {"Ann": "Frog Pond", "Bob": "Sugar Farm", "Cy": "Lighthouse"},
             "doctor": "Sunset Beach"}
    drawing = draw_board(BOARD, scene, ax=ax, sight_of="Ann")
    assert drawing.seen_spaces == {"Frog Pond", "Sunset Beach", "Sugar Farm",
                                   "Cliffs of Social Anxiety"}
    assert set(drawing.sees) == {"Bob", DOCTOR}
    assert len(drawing.sight_lines.get_segments()) == 2
    edges = drawing.rings.get_edgecolors()
    ringed = {s for s, e in zip(BOARD.spaces, edges, strict=True) if e[3] > 0}
    assert ringed == drawing.seen_spaces


def test_I_SIGHT_2_the_cat_cuts_sight_lines(ax):
    """Worked example 2: the cat in Frog Pond; a pawn there sees only its own space."""
    scene = {"pawns": {"Ann": "Frog Pond", "Bob": "Sunset Beach", "Cy": "Frog Pond"},
             "cat": "Frog Pond"}
    drawing = draw_board(BOARD, scene, ax=ax, sight_of="Ann")
    assert drawing.seen_spaces == {"Frog Pond"}
    assert drawing.sees == ("Cy",)
    drawing.update(scene, sight_of="Bob")
    assert "Frog Pond" not in drawing.seen_spaces and drawing.sees == ()


def test_update_moves_pawns_and_drops_missing_ones(ax):
    drawing = draw_board(BOARD, {"pawns": {"Ann": "Frog Pond", "Bob": "Lighthouse"}}, ax=ax)
    marker = drawing.pawns["Ann"]
    drawing.update({"pawns": {"Ann": "Skull Rock"}, "doctor": "Skull Rock"})
    assert drawing.pawns["Ann"] is marker  # the same artist, moved
    assert near(drawing.pawn_xy("Ann"), "Skull Rock")
    assert "Bob" not in drawing.pawns and marker.axes is ax
    assert near(drawing.pawn_xy(DOCTOR), "Skull Rock")
    drawing.update({"pawns": {"Ann": "Skull Rock"}})
    assert len(drawing.doctor.get_xdata()) == 0  # no Doctor Lucky in this scene


def test_bad_input_raises_and_changes_nothing(ax):
    drawing = draw_board(BOARD, {"pawns": {"Ann": "Frog Pond"}}, ax=ax)
    before = drawing.pawn_xy("Ann")
    with pytest.raises(UnknownSpace):
        drawing.update({"pawns": {"Ann": "Frog Pnd"}})
    with pytest.raises(ValueError, match="not a pawn"):
        drawing.update({"pawns": {"Ann": "Lighthouse"}}, sight_of="Zed")
    assert drawing.pawn_xy("Ann") == before
    with pytest.raises(TypeError):
        scene_of(42)


def test_scene_of_a_game_keeps_seat_colours_and_flags_strangers():
    game = luckylab.new_game("island", players=3, seed=2)
    scene = scene_of(game)
    assert set(scene.pawns) == {game.names[s] for s in game.seats}
    assert scene.strangers == {game.names[s] for s in game.strangers}
    players = [s for s in game.seats if not game.is_stranger(s)]
    assert [scene.color(game.names[s]) for s in players] == list(PLAYER_COLORS[:3])
    assert scene.doctor == game.doctor and scene.cat == game.cat
    drawing = draw_board(game.board, game, ax=new_figure().add_subplot())
    for seat in game.seats:
        assert near(drawing.pawn_xy(game.names[seat]), game.position[seat])


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"), dtype=int)


def test_fast_render_paints_the_same_picture_as_a_full_draw():
    fig = new_figure()
    drawing = draw_board(BOARD, {"pawns": {"Ann": "Frog Pond"}, "doctor": "Lighthouse",
                                 "cat": "Observatory"}, ax=fig.add_subplot(), sight_of="Ann")
    drawing.render_png()
    drawing.update({"pawns": {"Ann": "Skull Rock"}, "doctor": "Frog Pond", "cat": "Frog Pond"},
                   sight_of="Ann", title="moved")
    fast = _pixels(drawing.render_png())
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=fig.dpi)
    full = _pixels(buffer.getvalue())
    assert fast.shape == full.shape
    assert np.mean(np.abs(fast - full) > 8) < 0.001  # anti-aliasing at most


def test_geometry_boards_draw_rooms_as_rectangles():
    board = load_board("kill-doctor-lucky")
    room = board.spaces[0]
    drawing = draw_board(board, {"pawns": {"Ann": room}, "doctor": room},
                         ax=new_figure().add_subplot(), sight_of="Ann")
    assert len(drawing.spaces.get_paths()) == len(board.spaces)
    assert drawing.seen_spaces == board.visible_from(room)
    assert near(drawing.pawn_xy("Ann"), room, board, within=0.3 * drawing.unit)


def test_sight_matrix_matches_the_report():
    report = {"Ann": {"Bob", DOCTOR}, "Bob": {"Ann"}, DOCTOR: {"Ann"}}
    fig, ax, image = draw_sight_matrix(report, ax=new_figure(4, 4).add_subplot())
    assert image.get_array().tolist() == [[0, 1, 1], [1, 0, 0], [1, 0, 0]]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Ann", "Bob", DOCTOR]


def test_I_SIGHT_1_sight_matrix_from_a_report_fills_doctor_luckys_row_and_has_a_key():
    """Doctor Lucky has no row in sight_report; his row comes from seen_by (sight is
    symmetric with the default cat ruling), so the matrix equals its transpose."""
    from luckylab.games.island import sight_report

    report = sight_report(BOARD, {"Janet": "Banana Jungle", "Sara": "Mount Fortuna",
                                  "Simaon": "Salient Point"}, doctor="Sugar Farm",
                          cat="Observatory")
    order = ["Janet", "Sara", "Simaon", DOCTOR]
    fig, ax, image = draw_sight_matrix(report, ax=new_figure(4, 4).add_subplot(), order=order)
    matrix = image.get_array().tolist()
    assert matrix[3][0] == 1 and matrix[0][3] == 1  # Janet sees him, he sees Janet
    assert matrix == [list(col) for col in zip(*matrix, strict=True)]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["sees", "does not see"]


def test_sight_legend_only_when_sight_lines_are_drawn(ax):
    def legend(drawing):
        return [t.get_text() for t in drawing.legend.get_texts()]

    scene = {"pawns": {"Ann": "Frog Pond"}, "doctor": "Sunset Beach"}
    assert not any(t.startswith("sight") for t in legend(draw_board(BOARD, scene, ax=ax)))
    with_sight = draw_board(BOARD, scene, ax=new_figure().add_subplot(), sight_of="Ann")
    assert any(t.startswith("sight") for t in legend(with_sight))


def test_pawns_leave_the_space_number_readable():
    """Four pawns on one space sit on its rim: none covers the number in the middle."""
    fig = new_figure()
    scene = {"pawns": {p: "Castelo Feliz" for p in ("A", "B", "C", "D")}}
    drawing = draw_board(BOARD, scene, ax=fig.add_subplot())
    fig.canvas.draw()
    number = next(t for t in drawing.ax.texts if t.get_text() == "11")
    box = number.get_window_extent()
    for p in "ABCD":
        x, y = drawing.ax.transData.transform(drawing.pawn_xy(p))
        radius = drawing.pawns[p].get_markersize() / 2 * fig.dpi / 72
        nearest_x = min(max(x, box.x0), box.x1)
        nearest_y = min(max(y, box.y0), box.y1)
        assert math.dist((x, y), (nearest_x, nearest_y)) > radius, p


def test_scene_dataclass_colours_players_in_order():
    scene = Scene(pawns={"A": "Frog Pond", "S": "Lighthouse", "B": "Frog Pond"},
                  strangers=frozenset({"S"}))
    assert [scene.color(p) for p in "ASB"] == [PLAYER_COLORS[0], STRANGER_COLOR,
                                               PLAYER_COLORS[1]]


def test_importing_luckylab_and_the_drawing_module_stays_light():
    code = ("import sys, luckylab; assert 'matplotlib' not in sys.modules, 'mpl'; "
            "assert 'ipywidgets' not in sys.modules, 'ipw'; "
            "from luckylab.viz import draw_board; assert 'ipywidgets' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_lazy_name_of_luckylab_viz_resolves():
    import luckylab.viz as viz

    for name in viz.__all__:
        assert getattr(viz, name) is not None, name
    with pytest.raises(AttributeError):
        viz.no_such_thing  # noqa: B018


SPACES = st.sampled_from(BOARD.spaces)


@settings(max_examples=40, deadline=None)
@given(pawns=st.lists(SPACES, min_size=1, max_size=4), doctor=SPACES,
       cat=st.one_of(st.none(), SPACES), mode=st.sampled_from(["both", "outward"]))
def test_I_SIGHT_1_the_drawing_draws_exactly_the_engines_sight(pawns, doctor, cat, mode):
    """The orange lines join exactly the pawns that sight_report says see each other."""
    from luckylab.games.island import sight_report

    placed = {f"P{k}": space for k, space in enumerate(pawns)}
    report = sight_report(BOARD, placed, doctor=doctor, cat=cat, cat_blocks=mode)
    drawing = _SHARED.update({"pawns": placed, "doctor": doctor, "cat": cat,
                              "cat_blocks": mode}, sight_of="P0")
    both_ways = {p for p in report["P0"].sees if p in report["P0"].seen_by}
    assert set(drawing.sees) == both_ways
    assert len(drawing.sight_lines.get_segments()) == len(both_ways)
