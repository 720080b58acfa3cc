"""The geometry engine: rectangles and openings in, adjacency and straight-line sight out.

Small hand-drawn boards whose answers can be checked by eye, a brute-force cross-check on random
boards, and the loader's validation (every error names the file and the field).
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from luckylab import BoardError
from luckylab.boards import board_from_data
from luckylab.boards.geometry import Geometry, Opening, Rect, board_from_geometry, board_without

# A row of three rooms with walls of width 2 between them, and one room below the first:
#
#   A [0,10]   wall   B [12,22]   wall   C [24,34]      (y 0..10)
#   D [0,10] x [12,22]
#
ROOMS = {"A": Rect(0, 0, 10, 10), "B": Rect(12, 0, 22, 10), "C": Rect(24, 0, 34, 10),
         "D": Rect(0, 12, 10, 22)}


def door(a: str, b: str, rect: Rect) -> Opening:
    return Opening((a, b), rect)


def sight(g: Geometry) -> dict[str, list[str]]:
    return {s: sorted(v) for s, v in g.sight().items()}


def test_K_BOARD_2_a_door_is_one_step_and_touching_is_not_enough():
    """K-BOARD-2: adjacency comes from doors only; walls without a door join nothing."""
    g = Geometry(dict(ROOMS), doors=(door("A", "B", Rect(10, 2, 12, 5)),))
    assert {s: sorted(v) for s, v in g.adjacency().items()} == {
        "A": ["B"], "B": ["A"], "C": [], "D": []}


def test_K_SIGHT_1_sight_runs_straight_through_open_rooms():
    """K-SIGHT-1: a line through the A-B door continues through B and a B-C door into C."""
    g = Geometry(dict(ROOMS), doors=(door("A", "B", Rect(10, 2, 12, 5)),
                                     door("B", "C", Rect(22, 3, 24, 8))))
    # The bands y in (3, 5) cross both doors: A sees C through B.
    assert sight(g)["A"] == ["B", "C"]
    assert sight(g)["D"] == []


def test_K_SIGHT_1_doors_that_do_not_line_up_give_no_sight_through():
    """K-SIGHT-1: no diagonal sight. The A-B door and the B-C door share no horizontal line."""
    g = Geometry(dict(ROOMS), doors=(door("A", "B", Rect(10, 0, 12, 3)),
                                     door("B", "C", Rect(22, 6, 24, 9))))
    assert sight(g) == {"A": ["B"], "B": ["A", "C"], "C": ["B"], "D": []}


def test_K_SIGHT_1_a_line_grazing_a_corner_is_not_sight():
    """Doors meeting at exactly one y (band of width zero) do not join A and C."""
    g = Geometry(dict(ROOMS), doors=(door("A", "B", Rect(10, 0, 12, 5)),
                                     door("B", "C", Rect(22, 5, 24, 9))))
    assert "C" not in g.sight()["A"]
    g = Geometry(dict(ROOMS), doors=(door("A", "B", Rect(10, 0, 12, 5)),
                                     door("B", "C", Rect(22, 4.5, 24, 9))))
    assert "C" in g.sight()["A"]
    assert g.sight_widths()[frozenset({"A", "C"})] == 0.5


def test_K_SIGHT_2_see_through_gives_sight_but_no_step():
    """K-SIGHT-2: a railing between A and D: they see each other, nobody steps through."""
    rail = Opening(("A", "D"), Rect(2, 10, 8, 12), "see_through")
    g = Geometry(dict(ROOMS), see_through=(rail,))
    assert "D" in g.sight()["A"] and "A" in g.sight()["D"]
    assert "D" not in g.adjacency()["A"]
    board = board_from_geometry(g, {s: {"kind": "room"} for s in ROOMS})
    assert board.sees("A", "D") and not board.graph.has_edge("A", "D")
    assert board.reachable("A", 5) == {"A"}


def test_sight_bands_describe_the_lines_for_drawing():
    g = Geometry(dict(ROOMS), doors=(door("A", "B", Rect(10, 2, 12, 5)),))
    bands = g.sight_bands("A")
    assert {b.orientation for b in bands} == {"h"}
    assert all(b.spaces == {"A", "B"} for b in bands)
    assert min(b.lo for b in bands) == 2 and max(b.hi for b in bands) == 5
    assert all(b.rect.x0 == 0 and b.rect.x1 == 22 for b in bands)
    with pytest.raises(KeyError):
        g.sight_bands("Z")


def test_without_removes_spaces_and_their_openings():
    g = Geometry(dict(ROOMS), doors=(door("A", "B", Rect(10, 2, 12, 5)),
                                     door("B", "C", Rect(22, 3, 24, 8))))
    smaller = g.without(["B"])
    assert smaller.spaces == ("A", "C", "D")
    assert smaller.doors == ()
    assert sight(smaller) == {"A": [], "C": [], "D": []}
    assert "C" in g.sight()["A"]  # the original is unchanged
    with pytest.raises(KeyError):
        g.without(["Z"])


def test_board_without_keeps_attributes_and_rederives_tables():
    g = Geometry(dict(ROOMS), doors=(door("A", "B", Rect(10, 2, 12, 5)),
                                     door("B", "C", Rect(22, 3, 24, 8)),
                                     door("A", "D", Rect(2, 10, 5, 12))))
    attrs = {"A": {"number": 0, "kind": "room", "deck": "A"}, "B": {"number": 1, "kind": "hall"},
             "C": {"number": 2, "kind": "room"}, "D": {"kind": "room"}}
    board = board_from_geometry(g, attrs, path=["A", "B", "C"])
    assert board.sees("A", "C") and board.distance("A", "C") == 2
    small = board_without(board, ["B"])
    assert "B" not in small and not small.sees("A", "C")
    assert small.path == ("A", "C") and small.space("A").deck == "A"
    assert small.kind("B" if "B" in small else "A") == "room"
    assert small.space("A").pos == (5.0, 5.0)


def brute_force_sight(g: Geometry, step: float = 0.25) -> dict[str, set[str]]:
    """Sight by sampling lines at quarter-unit offsets (all test coordinates are whole numbers,
    so every band of positive width contains a sample line)."""
    rects = list(g.rects.items())
    openings = [o.rect for o in g.openings]

    def open_at(x: float, y: float) -> str | None:
        for name, r in rects:
            if r.x0 < x < r.x1 and r.y0 < y < r.y1:
                return name
        for r in openings:
            if r.x0 < x < r.x1 and r.y0 < y < r.y1:
                return ""
        return None

    b = g.bounds
    seen: dict[str, set[str]] = {s: set() for s in g.rects}

    def scan(points):
        run: set[str] = set()
        for p in points:
            cell = open_at(*p)
            if cell is None:
                for s in run:
                    seen[s] |= run - {s}
                run = set()
            elif cell:
                run.add(cell)
        for s in run:
            seen[s] |= run - {s}

    n_x = int((b.x1 - b.x0) / step) + 1
    n_y = int((b.y1 - b.y0) / step) + 1
    xs = [b.x0 + step / 2 + i * step for i in range(n_x)]
    ys = [b.y0 + step / 2 + j * step for j in range(n_y)]
    for y in ys:
        scan((x, y) for x in xs)
    for x in xs:
        scan((x, y) for y in ys)
    return seen


@st.composite
def random_boards(draw):
    """Up to 6 rooms on a 4x3 grid of 10x10 cells with 2-wide walls, random doors and railings."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    cells = [(c, r) for c in range(4) for r in range(3)]
    chosen = rng.sample(cells, rng.randint(2, 6))
    rects = {f"R{c}{r}": Rect(c * 12, r * 12, c * 12 + 10, r * 12 + 10) for c, r in chosen}
    doors, rails = [], []
    for (c, r) in chosen:
        for dc, dr in ((1, 0), (0, 1)):
            if (c + dc, r + dr) in chosen and rng.random() < 0.7:
                lo = rng.randint(0, 8)
                hi = rng.randint(lo + 1, 10)
                if dc:
                    rect = Rect(c * 12 + 10, r * 12 + lo, c * 12 + 12, r * 12 + hi)
                else:
                    rect = Rect(c * 12 + lo, r * 12 + 10, c * 12 + hi, r * 12 + 12)
                o = Opening((f"R{c}{r}", f"R{c + dc}{r + dr}"), rect,
                            "see_through" if rng.random() < 0.25 else "door")
                (rails if o.kind == "see_through" else doors).append(o)
    return Geometry(rects, tuple(doors), tuple(rails))


@settings(max_examples=40, deadline=None)
@given(random_boards())
def test_K_SIGHT_1_exact_algorithm_agrees_with_sampled_lines(g):
    """K-SIGHT-1: the coordinate-compression answer equals sight by brute-force line sampling."""
    assert {s: set(v) for s, v in g.sight().items()} == brute_force_sight(g)


# -- the loader ------------------------------------------------------------------------------

GOOD = {
    "format": "geometry",
    "name": "Tiny house",
    "status": "reconstruction",
    "units": "pt",
    "kinds": ["room", "hallway"],
    "path": ["A", "B"],
    "start": {"players": "A"},
    "fallback": {"H": "B"},
    "spaces": [
        {"name": "A", "number": 0, "kind": "room", "rect": [0, 0, 10, 10]},
        {"name": "B", "number": 1, "kind": "room", "rect": [12, 0, 22, 10]},
        {"name": "H", "kind": "hallway", "rect": [0, 12, 22, 16]},
    ],
    "doors": [
        {"between": ["A", "B"], "rect": [10, 2, 12, 5]},
        {"between": ["B", "H"], "rect": [14, 10, 18, 12]},
    ],
    "see_through": [{"between": ["A", "H"], "rect": [2, 10, 6, 12], "note": "railing"}],
}


def test_loader_builds_a_board_from_good_data():
    board = board_from_data(GOOD, source="tiny.toml", key="tiny")
    assert board.spaces == ("A", "B", "H")
    assert sorted(board.graph.edges) == [("A", "B"), ("B", "H")]
    assert board.graph.edges["A", "B"]["kind"] == "door"
    assert board.sees("A", "H") and not board.graph.has_edge("A", "H")
    assert board.graph.nodes["H"]["fallback"] == "B"
    assert board.path == ("A", "B") and board.start == {"players": "A"}
    assert isinstance(board.geometry, Geometry) and board.geometry.units == "pt"


def broken(path: tuple, value) -> dict:
    data = copy.deepcopy(GOOD)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DELETE = object()

BAD = [
    # (what, change, field named in the error, words in the problem)
    ("unknown space in a door", (("doors", 0, "between"), ["A", "Q"]), "doors[0].between",
     "'Q' is not a space"),
    ("door not touching B", (("doors", 0, "rect"), [10, 2, 11, 5]), "doors[0].rect",
     "does not touch 'B'"),
    ("door joining a space to itself", (("doors", 0, "between"), ["A", "A"]),
     "doors[0].between", "to itself"),
    ("door over a third space", (("doors", 0, "rect"), [10, 2, 12, 13]), "doors[0].rect",
     "overlaps 'H', which it does not join"),
    ("see-through naming a stranger", (("see_through", 0, "between"), ["A", "Z"]),
     "see_through[0].between", "'Z' is not a space"),
    ("overlapping spaces", (("spaces", 1, "rect"), [8, 0, 22, 10]), "spaces[1] (B).rect",
     "overlaps the space 'A'"),
    ("malformed rect", (("spaces", 0, "rect"), [0, 0, 10]), "spaces[0] (A).rect",
     "[x0, y0, x1, y1]"),
    ("upside-down rect", (("spaces", 0, "rect"), [0, 10, 10, 0]), "spaces[0] (A).rect",
     "y0 < y1"),
    ("rect of strings", (("spaces", 0, "rect"), ["0", 0, 10, 10]), "spaces[0] (A).rect",
     "numbers"),
    ("duplicate name", (("spaces", 1, "name"), "A"), "spaces[1] (A).name", "duplicate"),
    ("unknown kind", (("spaces", 2, "kind"), "cellar"), "spaces[2] (H).kind", "unknown kind"),
    ("path entry not a space", (("path",), ["A", "Nowhere"]), "path[1]", "not a space"),
    ("path twice", (("path",), ["A", "A"]), "path", "twice"),
    ("fallback to a non-neighbour", (("fallback",), {"H": "A"}), "fallback.H", "not adjacent"),
    ("fallback from a numbered room", (("fallback",), {"A": "B"}), "fallback.A", "numbered"),
    ("start nowhere", (("start",), {"players": "Attic"}), "start.players", "not a space"),
    ("typo in a field", (("spaces", 0, "rectt"), [0, 0, 1, 1]), "spaces[0] (A)",
     "unknown field"),
    ("unknown top-level field", (("sight",), "adjacent"), "(top level)", "unknown field"),
    ("wrong format", (("format",), "graph-ish"), "format", "geometry"),
    ("no spaces", (("spaces",), []), "spaces", "non-empty"),
    ("disconnected", (("doors",), []), "doors", "falls apart"),
]


@pytest.mark.parametrize("what, change, field, words", BAD, ids=[b[0] for b in BAD])
def test_loader_rejects_malformed_geometry_naming_file_and_field(what, change, field, words):
    data = broken(*change)
    with pytest.raises(BoardError) as info:
        board_from_data(data, source="tiny.toml", key="tiny")
    err = info.value
    assert err.source == "tiny.toml"
    assert err.field == field, str(err)
    assert words in err.problem, str(err)
    assert str(err).startswith(f"tiny.toml: {field}: ")


def test_loader_reads_a_file_and_names_it(tmp_path):
    from luckylab import load_board

    text = (tmp_path / "house.toml")
    text.write_text('format = "geometry"\nname = "House"\n[[spaces]]\nname = "A"\n'
                    'kind = "room"\nrect = [0, 0, 10]\n', encoding="utf-8")
    with pytest.raises(BoardError, match=r"^house.toml: spaces\[0\] \(A\).rect: "):
        load_board(text)


def test_board_without_drops_a_fallback_whose_target_is_gone():
    """A smaller board never sends Doctor Lucky into a removed space."""
    board = board_from_data(GOOD, source="tiny.toml", key="tiny")
    assert board.graph.nodes["H"]["fallback"] == "B"
    data = copy.deepcopy(GOOD)
    data["doors"].append({"between": ["A", "H"], "rect": [0, 10, 2, 12]})
    board = board_from_data(data, source="tiny.toml", key="tiny")
    small = board_without(board, ["B"])
    assert "fallback" not in small.graph.nodes["H"]
    assert small.graph.has_edge("A", "H") and small.path == ("A",)
