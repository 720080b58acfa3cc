"""The "grid" board format: a rectangular grid of places (Panic Island!).

Places are named ``r<row>c<col>`` (:func:`place_name`); the volcano's place is
``board.start["volcano"]`` (``P-SETUP-2``). The same file also holds the Panic Island rules
(cards, obstacles, time), which :mod:`luckylab.games.panic.data` reads; this module reads the board.

>>> board_from_data({"format": "grid", "rows": 1, "cols": 2}).spaces
('r1c1', 'r1c2')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import networkx as nx

from ..errors import BoardError
from .board import Board
from .fields import board_labels

__all__ = ["board_from_data", "place_name"]


def place_name(row: int, col: int) -> str:
    """The name of the place in ``row`` and ``col`` (both counted from 1 at the top left).

    >>> place_name(3, 3)
    'r3c3'
    """
    return f"r{row}c{col}"


# -- the island as a Board (the "grid" format) -------------------------------------------------


def board_from_data(data: Mapping[str, Any], source: str = "<data>", key: str = "board") -> Board:
    """Build the island: a ``networkx`` grid graph whose nodes are places ``r<row>c<col>``.

    Nodes carry ``row``, ``col``, ``number`` (reading order, 1..rows*cols), ``kind`` ("place")
    and ``pos`` (x = column, y = minus the row, so row 1 is drawn at the top). The volcano's place
    is ``board.start["volcano"]`` (``P-SETUP-2``).

    >>> board = board_from_data({"format": "grid", "rows": 2, "cols": 3, "volcano": "r1c2"})
    >>> board.spaces
    ('r1c1', 'r1c2', 'r1c3', 'r2c1', 'r2c2', 'r2c3')
    >>> sorted(board.neighbors("r1c2")), board.start["volcano"]
    (['r1c1', 'r1c3', 'r2c2'], 'r1c2')
    """
    if data.get("format", "grid") != "grid":
        raise BoardError(source, "format", f"must be \"grid\", not {data.get('format')!r}")
    extra = set(data) - _GRID_TOP_FIELDS
    if extra:
        raise BoardError(source, "(top level)", f"unknown field(s) {sorted(extra)}; allowed: "
                                                f"{sorted(_GRID_TOP_FIELDS)}")
    rows = _whole(data, "rows", source, 1, 10)
    cols = _whole(data, "cols", source, 1, 10)
    grid = nx.grid_2d_graph(rows, cols)
    names = {(r, c): place_name(r + 1, c + 1) for r, c in grid.nodes}
    graph = nx.Graph()
    for (r, c), name in sorted(names.items()):
        graph.add_node(name, row=r + 1, col=c + 1, number=r * cols + c + 1, kind="place",
                       pos=(float(c + 1), float(-(r + 1))), airplane=False, facts="")
    for a, b in grid.edges:
        graph.add_edge(names[a], names[b], kind="land")
    volcano = data.get("volcano", place_name((rows + 1) // 2, (cols + 1) // 2))
    if not isinstance(volcano, str) or volcano not in graph:
        raise BoardError(source, "volcano", f"{volcano!r} is not a place of the {rows}x{cols} grid "
                                            f"(places are named like 'r1c1')")
    return Board(graph=graph, visible=None, start={"volcano": volcano},
                 **board_labels(data, source, key))


_GRID_TOP_FIELDS = {"format", "game", "name", "status", "source", "notes", "rows", "cols",
                    "volcano", "cards", "obstacles", "first_trio", "time"}


def _whole(data: Mapping[str, Any], name: str, source: str, low: int, high: int) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BoardError(source, name,
                         f"must be a whole number from {low} to {high}, not {value!r}")
    return value
