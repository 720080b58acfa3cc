"""The reconstructed ship and card list of Save Doctor Lucky (``docs/rules/save.md``).

The published ship is unknown; these tests check that the reconstruction obeys every board rule
we do know (``S-BOARD-*``, ``S-SIGHT-1``), that sight is derived from the drawing alone, and that
the ship stays playable as it sinks deck by deck (``S-SINK-1``, ``S-DOC-2``).
"""

from __future__ import annotations

import collections
from importlib import resources
from itertools import pairwise

import networkx as nx
import pytest

from luckylab import BoardError, load_board, load_deck, new_game
from luckylab.games.save import ship_decks, sinking_boards

SHIP = load_board("save-doctor-lucky")
DECKS = ("A", "B", "C", "D")
SHIP_FILE = resources.files("luckylab") / "data" / "save_ship.toml"


def deck_of(space: str) -> str:
    return SHIP.space(space).deck


def deck_gap(a: str, b: str) -> int:
    return abs(DECKS.index(deck_of(a)) - DECKS.index(deck_of(b)))


# -- labelled as what it is ------------------------------------------------------------------


def test_ship_is_labelled_as_a_reconstruction():
    text = SHIP_FILE.read_text(encoding="utf-8")
    assert SHIP.status == "reconstruction"
    assert "A RECONSTRUCTION" in text and "NOT available" in text
    for space in SHIP.spaces:
        assert "Reconstructed" in SHIP.space(space).facts, space


def test_the_captains_cabin_of_worked_example_1_is_on_board():
    assert "Captain's Cabin" in SHIP
    assert "rules:" in SHIP.space("Captain's Cabin").facts


# -- S-BOARD-1 -------------------------------------------------------------------------------


def test_S_BOARD_1_four_decks_A_on_top_down_to_D():
    assert ship_decks(SHIP) == DECKS
    rects = SHIP.geometry.rects
    bands = {d: (min(rects[s].y0 for s in SHIP.spaces if deck_of(s) == d),
                 max(rects[s].y1 for s in SHIP.spaces if deck_of(s) == d)) for d in DECKS}
    # A side view with y downwards: each deck lies wholly above the next.
    for upper, lower in pairwise(DECKS):
        assert bands[upper][1] < bands[lower][0], (upper, lower, bands)


def test_S_BOARD_1_rooms_numbered_0_to_22_one_contiguous_block_per_deck():
    numbers = {SHIP.number(s): s for s in SHIP.spaces if SHIP.number(s) is not None}
    assert sorted(numbers) == list(range(23))
    for d in DECKS:
        block = sorted(n for n, s in numbers.items() if deck_of(s) == d)
        assert block, d
        assert block == list(range(block[0], block[-1] + 1)), (d, block)


def test_S_BOARD_1_some_rooms_have_no_number():
    unnumbered = [s for s in SHIP.spaces if SHIP.number(s) is None]
    assert len(unnumbered) >= 3
    assert {SHIP.kind(s) for s in unnumbered} <= {"hallway", "stairs"}


def test_S_BOARD_1_every_space_has_a_deck_and_doctor_lucky_walks_the_numbers():
    assert all(deck_of(s) in DECKS for s in SHIP.spaces)
    assert [SHIP.number(s) for s in SHIP.path] == list(range(23))
    assert SHIP.next_on_path(SHIP.by_number(22)) == SHIP.by_number(0)


# -- S-BOARD-2 -------------------------------------------------------------------------------


def test_S_BOARD_2_one_step_is_one_door_and_hatches_join_neighbouring_decks():
    assert {k for _, _, k in SHIP.graph.edges(data="kind")} == {"door"}
    door_pairs = {frozenset(d.between) for d in SHIP.geometry.doors}
    assert door_pairs == {frozenset(e) for e in SHIP.graph.edges}
    hatches = [e for e in SHIP.graph.edges if deck_of(e[0]) != deck_of(e[1])]
    assert hatches, "no way up or down"
    assert all(deck_gap(a, b) == 1 for a, b in hatches)
    for upper, lower in pairwise(DECKS):
        assert any({deck_of(a), deck_of(b)} == {upper, lower} for a, b in hatches), (upper, lower)


def test_S_BOARD_2_rooms_side_by_side_without_a_door_are_not_adjacent():
    # Radio Room and First-Class Lounge are on deck A with the Boat Deck Landing between them;
    # the Library sits above the Mail Room with a hatch, the Dining Saloon above the Turkish
    # Bath without one.
    assert not SHIP.graph.has_edge("Radio Room", "First-Class Lounge")
    assert SHIP.graph.has_edge("Library", "Mail Room")
    assert not SHIP.graph.has_edge("Dining Saloon", "Turkish Bath")


def test_S_BOARD_2_each_deck_alone_is_walkable():
    for board in sinking_boards(SHIP):
        for d in ship_decks(board):
            rooms = [s for s in board.spaces if board.space(s).deck == d]
            sub = board.graph.subgraph(rooms)
            assert nx.is_connected(sub), (board.name, d)


# -- S-SIGHT-1 -------------------------------------------------------------------------------

SIGHT_EXAMPLES = [
    # (from, to, sees?, why)
    ("Captain's Cabin", "Radio Room", True, "through the high door between them"),
    ("Captain's Cabin", "Boat Deck Landing", True, "two high doors in a straight line"),
    ("Captain's Cabin", "Bridge", True, "through the low door between them"),
    ("Radio Room", "Bridge", False, "high door then low door: the line would have to bend"),
    ("First-Class Lounge", "Radio Room", False, "low door then high door"),
    ("Captain's Cabin", "Ship's Surgery", True, "one deck down through the hatch"),
    ("Smoking Room", "Gymnasium", True, "two decks down through two aligned hatches"),
    ("Bridge", "Galley", True, "two decks down through the Chart Room"),
    ("Bridge", "Pump Room", False, "the Galley's floor hatch is not under the others"),
    ("Boat Deck Landing", "Saloon Landing", True, "down the stairwell, two decks"),
    ("Dining Saloon", "Turkish Bath", False, "a floor with no hatch between them"),
    ("Bridge", "Smoking Room", False, "far along deck A through misaligned doors"),
]


@pytest.mark.parametrize(("a", "b", "expected", "why"), SIGHT_EXAMPLES)
def test_S_SIGHT_1_sight_runs_in_straight_lines_through_doors(a, b, expected, why):
    assert SHIP.sees(a, b) is expected, why
    assert SHIP.sees(b, a) is expected, "sight is symmetric"


def test_S_SIGHT_1_some_rooms_see_one_or_two_decks_away_never_three():
    gaps = collections.Counter(
        deck_gap(a, b) for a in SHIP.spaces for b in SHIP.visible_from(a) if a < b)
    assert gaps[1] >= 3 and gaps[2] >= 2, gaps
    assert max(gaps) == 2


def test_S_SIGHT_1_two_deck_sight_passes_through_a_room_on_the_deck_between():
    for a in SHIP.spaces:
        for b in SHIP.visible_from(a):
            if deck_gap(a, b) == 2:
                middle = DECKS[(DECKS.index(deck_of(a)) + DECKS.index(deck_of(b))) // 2]
                assert any(deck_of(m) == middle and SHIP.sees(m, a) and SHIP.sees(m, b)
                           for m in SHIP.spaces), (a, b)


def test_S_SIGHT_1_sight_is_derived_from_the_drawing_and_goes_through_doors_only():
    geometry = SHIP.geometry
    assert not geometry.see_through, "the ship has no see-through openings: sight is via doors"
    derived = geometry.sight()
    for s in SHIP.spaces:
        assert SHIP.visible_from(s) == derived[s] | {s}
        # every room seen is reached by a line through doors, so a seen room is never farther
        # from you than a chain of rooms on that line: at least one neighbour sees it too.
        for t in derived[s]:
            assert t in SHIP.neighbors(s) or any(SHIP.sees(n, t) for n in SHIP.neighbors(s))


def test_S_SIGHT_1_every_room_sees_itself_and_each_neighbour_it_shares_a_door_with():
    for s in SHIP.spaces:
        assert SHIP.sees(s, s)
        assert SHIP.neighbors(s) <= SHIP.visible_from(s), s


# -- the ship as it sinks (S-SINK-1, S-DOC-2) ------------------------------------------------


def test_S_SINK_1_one_board_per_sunken_depth_without_the_sunken_rooms():
    boards = sinking_boards(SHIP)
    assert len(boards) == 4 and boards[0] is SHIP
    for k, board in enumerate(boards):
        afloat = DECKS[:4 - k]
        assert ship_decks(board) == afloat
        assert set(board.spaces) == {s for s in SHIP.spaces if deck_of(s) in afloat}
        for s in board.spaces:
            seen = board.visible_from(s)
            assert seen <= set(board.spaces), "a sunken room is still in the sight table"
            # Decks sink from the bottom, so no line between two dry rooms ever crossed a
            # flooded one: sight on the dry part is unchanged.
            assert seen == SHIP.visible_from(s) & set(board.spaces), s
        assert [board.number(s) for s in board.path] == sorted(
            SHIP.number(s) for s in board.spaces if SHIP.number(s) is not None)


def test_S_DOC_2_every_unnumbered_room_keeps_a_numbered_neighbour_while_afloat():
    for board in sinking_boards(SHIP):
        for s in board.spaces:
            if board.number(s) is None:
                assert any(board.number(n) is not None for n in board.neighbors(s)), (board, s)


def test_a_ship_without_decks_is_refused_naming_the_field(tmp_path):
    lines = SHIP_FILE.read_text(encoding="utf-8").splitlines()
    # Drop the deck line of the fourth [[spaces]] table in a copy of the file.
    seen = 0
    out = []
    for line in lines:
        if line == "[[spaces]]":
            seen += 1
        if seen == 4 and line.startswith("deck = "):
            continue
        out.append(line)
    path = tmp_path / "ship.toml"
    path.write_text("\n".join(out), encoding="utf-8")
    with pytest.raises(BoardError, match="spaces.deck"):
        new_game("save", players=4, seed=1, board=str(path))


# -- the card list ---------------------------------------------------------------------------

CARDS = load_deck("save")


def test_deck_has_90_cards_of_three_kinds_labelled_as_a_reconstruction():
    assert len(CARDS) == 90
    assert collections.Counter(c.kind for c in CARDS) == {"move": 28, "aid": 22, "failure": 40}
    text = (resources.files("luckylab") / "data" / "save_deck.toml").read_text("utf-8")
    assert 'status = "reconstruction"' in text and "A RECONSTRUCTION" in text
    assert all(c.facts for c in CARDS)


def test_move_cards_name_a_room_of_the_ship_and_carry_steps():
    moves = [c for c in CARDS if c.kind == "move"]
    assert {c.room for c in moves} == set(SHIP.spaces)
    assert all(c.steps in (1, 2, 3) for c in moves)


def test_whisky_is_worth_6_in_the_captains_cabin():
    whisky = next(c for c in CARDS if c.name == "Whisky")
    assert whisky.kind == "aid"
    assert whisky.weapon_value("Captain's Cabin") == 6
    assert whisky.weapon_value("Bridge") < 6


def test_failure_cards_are_worth_1_to_3_points():
    points = collections.Counter(c.luck for c in CARDS if c.kind == "failure")
    assert set(points) == {1, 2, 3}
    assert all(c.luck == 0 for c in CARDS if c.kind != "failure")


def test_S_SINK_1_a_ship_drawn_as_a_plain_graph_sinks_too():
    """A teacher's ship given as a networkx graph (adjacency sight) loses rooms the same way."""
    from luckylab import Board

    graph = nx.Graph()
    for name, number, deck in [("Deck", 0, "A"), ("Hold", 1, "B"), ("Ladder", None, "B")]:
        graph.add_node(name, number=number, kind="room", deck=deck)
    graph.add_edges_from([("Deck", "Ladder"), ("Ladder", "Hold")], kind="door")
    toy = Board(graph=graph, name="toy ship")
    full, afloat = sinking_boards(toy)
    assert full is toy and ship_decks(toy) == ("A", "B")
    assert afloat.spaces == ("Deck",) and afloat.visible_from("Deck") == {"Deck"}
    assert afloat.path == ("Deck",)
