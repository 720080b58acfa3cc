"""Isla Fortuna (a reconstruction) against every board rule I-BOARD-*, and the board loader's
validation of malformed files."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import networkx as nx
import pytest

import luckylab
from luckylab import BoardError, UnknownGame, UnknownSpace, load_board
from luckylab.boards import read_data_file

DATA = Path(luckylab.__file__).parent / "data" / "isla_fortuna.toml"


@pytest.fixture(scope="module")
def board():
    return load_board("isla-fortuna")


def land_graph(board):
    return nx.Graph([(a, b) for a, b, k in board.graph.edges(data="kind") if k == "land"])


def test_I_BOARD_1_24_spaces_numbered_1_to_24_with_name_and_kind(board):
    assert len(board) == 24
    assert sorted(board.number(s) for s in board.spaces) == list(range(1, 25))
    for s in board.spaces:
        info = board.space(s)
        assert info.name and info.kind in {"building", "plains", "beach", "forest", "mountain"}
    assert board.status == "reconstruction"


def test_I_BOARD_1_at_least_two_spaces_of_every_kind_a_hazard_targets(board):
    hazard_kinds = {c.space_kind for c in luckylab.load_deck("island") if c.kind == "hazard"}
    for kind in hazard_kinds:
        assert len(board.spaces_of_kind(kind)) >= 2, kind


def test_I_BOARD_2_adjacency_is_symmetric_and_the_map_is_planar(board):
    land = land_graph(board)
    for a, b in land.edges:
        assert board.graph.has_edge(b, a)
    is_planar, _ = nx.check_planarity(land)
    assert is_planar
    assert nx.is_connected(land)


def test_I_BOARD_3_four_airplanes_on_plains_joined_by_air_links_without_sight(board):
    planes = board.airplanes
    assert len(planes) == 4
    assert all(board.kind(p) == "plains" for p in planes)
    for a, b in itertools.combinations(planes, 2):
        assert board.graph.edges[a, b]["kind"] in ("air", "land")
        assert board.distance(a, b) == 1
        if board.graph.edges[a, b]["kind"] == "air":
            assert not board.sees(a, b), "air links give no sight"


def test_I_BOARD_4_every_space_within_four_steps(board):
    assert board.diameter <= 4
    land = land_graph(board)
    assert nx.diameter(land) > 4, "the airplanes are what make the island small"


def test_I_BOARD_5_frog_pond_neighbours_exactly(board):
    assert board.neighbors("Frog Pond", "land") == {
        "Sunset Beach", "Sugar Farm", "Cliffs of Social Anxiety"}


def test_I_BOARD_6_doctor_lucky_path_steps_are_adjacent(board):
    path = board.path
    assert [board.number(s) for s in path] == list(range(1, 25))
    for a, b in zip(path, path[1:] + path[:1], strict=True):
        assert board.graph.edges[a, b]["kind"] == "land", (a, b)
        assert board.next_on_path(a) == b
    assert board.next_on_path(board.by_number(24)) == board.by_number(1)


def test_I_BOARD_7_start_spaces(board):
    start = board.start
    assert start["players"] == "Castelo Feliz"
    assert start["doctor"] == "Sunset Beach"
    assert start["cat"] == "Observatory"
    assert set(start["strangers"]) == {"Desperation Bluff", "Salient Point", "Lone Horse Ranch"}
    assert board.kind("Sunset Beach") == "beach"
    assert set(board.airplanes) == {"Castelo Feliz", *start["strangers"]}


def test_worked_example_1_frog_pond_sight_without_cat(board):
    assert board.visible_from("Frog Pond") == {
        "Frog Pond", "Sunset Beach", "Sugar Farm", "Cliffs of Social Anxiety"}


def test_worked_example_2_cat_in_frog_pond_blocks_sight_both_ways(board):
    assert board.visible_from("Frog Pond", cat="Frog Pond") == {"Frog Pond"}
    assert not board.sees("Sunset Beach", "Frog Pond", cat="Frog Pond")
    assert not board.sees("Frog Pond", "Sunset Beach", cat="Frog Pond")
    assert board.sees("Frog Pond", "Frog Pond", cat="Frog Pond")


def test_I_SIGHT_2_outward_option_only_blinds_the_cats_space(board):
    assert not board.sees("Frog Pond", "Sunset Beach", cat="Frog Pond", cat_blocks="outward")
    assert board.sees("Sunset Beach", "Frog Pond", cat="Frog Pond", cat_blocks="outward")


def test_I_SIGHT_1_sight_is_symmetric_everywhere(board):
    for cat in [None, *board.spaces]:
        for a in board.spaces:
            for b in board.visible_from(a, cat):
                assert board.sees(b, a, cat)


def test_I_MOVE_1_reachable_uses_land_and_air(board):
    assert board.reachable("Frog Pond", 0) == {"Frog Pond"}
    assert board.reachable("Frog Pond", 1) == {
        "Frog Pond", "Sunset Beach", "Sugar Farm", "Cliffs of Social Anxiety"}
    assert "Salient Point" in board.reachable("Castelo Feliz", 1)  # by airplane
    assert board.reachable("Frog Pond", 4) == frozenset(board.spaces)
    assert board.reachable("Frog Pond", 99) == frozenset(board.spaces)
    with pytest.raises(ValueError, match="steps"):
        board.reachable("Frog Pond", -1)


def test_unknown_space_names_suggest_a_spelling(board):
    with pytest.raises(UnknownSpace, match="did you mean 'Frog Pond'"):
        board.visible_from("Frog Pnd")
    with pytest.raises(UnknownSpace):
        board.sees("Frog Pond", "Atlantis")
    with pytest.raises(UnknownSpace):
        board.reachable("Atlantis", 2)
    with pytest.raises(UnknownSpace):
        board.visible_from("Frog Pond", cat="Atlantis")


def test_load_board_rejects_unknown_names():
    with pytest.raises(UnknownGame, match="isla-fortuna"):
        load_board("atlantis")


def test_board_graph_is_frozen(board):
    with pytest.raises(nx.NetworkXError):
        board.graph.add_node("Atlantis")


def test_board_dict_has_spaces_edges_and_sight(board):
    data = board.to_dict()
    assert len(data["spaces"]) == 24
    assert {"a", "b", "kind"} <= set(data["edges"][0])
    assert data["sight"]["Frog Pond"] == sorted(board.visible_from("Frog Pond"))
    json.dumps(data)


# -- malformed files: each names the file and the field --------------------------------------

def write_variant(tmp_path, mutate, name="teacher_map.json"):
    data = read_data_file(DATA)
    mutate(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def space(data, name):
    return next(s for s in data["spaces"] if s["name"] == name)


def test_a_teachers_own_file_in_the_same_format_loads(tmp_path):
    path = write_variant(tmp_path, lambda d: d.update(name="Our Island"))
    board = load_board(path)
    assert board.name == "Our Island" and len(board) == 24


@pytest.mark.parametrize(
    ("mutate", "field", "message"),
    [
        (lambda d: space(d, "Frog Pond").update(kind="swamp"), "kind", "unknown kind 'swamp'"),
        (lambda d: space(d, "Frog Pond")["adjacent"].append("Atlantis"), "adjacent",
         "'Atlantis' is not a space"),
        (lambda d: space(d, "Frog Pond")["adjacent"].append("Lighthouse"), "adjacent",
         "must be symmetric"),
        (lambda d: space(d, "Frog Pond").update(number=1), "number", "duplicate number 1"),
        (lambda d: space(d, "Frog Pond").update(airplane=True), "airplane",
         "airplanes stand only on plains"),
        (lambda d: d["spaces"].append(dict(d["spaces"][0])), "name", "duplicate space name"),
        (lambda d: space(d, "Frog Pond").update(pos="here"), "pos", "must be [x, y]"),
        (lambda d: d["start"].update(cat="Atlantis"), "start.cat", "not a space"),
        (lambda d: d.update(format="hexes"), "format", "unknown format"),
        (lambda d: space(d, "Frog Pond").update(colour="green"), "unknown field", "colour"),
    ],
)
def test_malformed_board_files_raise_BoardError_naming_file_and_field(tmp_path, mutate, field,
                                                                      message):
    path = write_variant(tmp_path, mutate)
    with pytest.raises(BoardError) as info:
        load_board(path)
    text = str(info.value)
    assert text.startswith("teacher_map.json: "), text
    assert field in text and message in text, text


def test_a_path_that_jumps_is_rejected(tmp_path):
    def swap(d):  # exchange the numbers of two spaces that are not neighbours
        a, b = space(d, "Frog Pond"), space(d, "Skull Rock")
        a["number"], b["number"] = b["number"], a["number"]

    with pytest.raises(BoardError, match="path jumps"):
        load_board(write_variant(tmp_path, swap))


def test_a_numbering_gap_is_rejected(tmp_path):
    with pytest.raises(BoardError, match="no gap"):
        load_board(write_variant(tmp_path, lambda d: space(d, "Frog Pond").update(number=99)))


def test_bad_toml_syntax_names_the_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("name = \n")
    with pytest.raises(BoardError, match="broken.toml"):
        load_board(path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(UnknownGame, match="no board file"):
        load_board(tmp_path / "nothing.toml")
