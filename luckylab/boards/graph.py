"""The "graph" board format: spaces with explicit ``adjacent`` lists (the island).

Adjacency sight (``I-SIGHT-*``); airplanes join in one step (``I-BOARD-3``); Doctor Lucky walks
the spaces in number order. :func:`luckylab.boards.board_from_data` dispatches here.

>>> from luckylab.boards.graph import _board_from_graph_data
>>> board = _board_from_graph_data({"kinds": ["land"], "spaces": [
...     {"name": "A", "kind": "land", "adjacent": ["B"]},
...     {"name": "B", "kind": "land", "adjacent": ["A"]}]}, "tiny.toml", "tiny")
>>> board.spaces
('A', 'B')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import networkx as nx

from .board import Board
from .fields import _Errors, board_labels, check_space_number, validate_start

__all__ = ["MAX_SPACES"]

MAX_SPACES = 5_000
"""The most spaces a board file may hold."""

_SPACE_FIELDS = {"number", "name", "kind", "pos", "airplane", "adjacent", "facts", "deck"}
_GRAPH_TOP_FIELDS = {"format", "game", "name", "status", "source", "notes", "kinds",
                     "airplane_kind", "path", "sight", "start", "spaces"}


def _board_from_graph_data(data: Mapping[str, Any], source: str, key: str) -> Board:
    """Validate a graph-format board and build it (island-style adjacency sight)."""
    err = _Errors(source)
    extra = set(data) - _GRAPH_TOP_FIELDS
    if extra:
        err("(top level)", f"unknown field(s) {sorted(extra)}; allowed: "
                           f"{sorted(_GRAPH_TOP_FIELDS)}")
    for f in ("name", "status", "source", "notes", "game"):
        if f in data and not isinstance(data[f], str):
            err(f, f"must be a string, not {data[f]!r}")
    kinds = data.get("kinds")
    if not (isinstance(kinds, list) and kinds and all(isinstance(k, str) for k in kinds)):
        err("kinds", "must be a non-empty list of kind names")
    airplane_kind = data.get("airplane_kind")
    if airplane_kind is not None and airplane_kind not in kinds:
        err("airplane_kind", f"{airplane_kind!r} is not one of kinds {kinds}")
    raw_spaces = data.get("spaces")
    if not isinstance(raw_spaces, list) or not raw_spaces:
        err("spaces", "must be a non-empty list of [[spaces]] tables")
    if len(raw_spaces) > MAX_SPACES:
        err("spaces", f"{len(raw_spaces)} spaces; a board holds at most {MAX_SPACES}")

    graph = nx.Graph()
    numbers: dict[int, str] = {}
    for i, sp in enumerate(raw_spaces):
        where = f"spaces[{i}]"
        if not isinstance(sp, dict):
            err(where, "must be a table")
        extra = set(sp) - _SPACE_FIELDS
        if extra:
            err(f"{where}", f"unknown field(s) {sorted(extra)}; allowed: {sorted(_SPACE_FIELDS)}")
        name = sp.get("name")
        if not isinstance(name, str) or not name.strip():
            err(f"{where}.name", "must be a non-empty string")
        where = f"spaces[{i}] ({name})"
        if name in graph:
            err(f"{where}.name", f"duplicate space name {name!r}")
        kind = sp.get("kind")
        if kind not in kinds:
            err(f"{where}.kind", f"unknown kind {kind!r}; allowed: {', '.join(kinds)}")
        number = sp.get("number")
        check_space_number(err, where, name, number, numbers)
        pos = sp.get("pos", [0.0, 0.0])
        if not (
            isinstance(pos, list)
            and len(pos) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in pos)
        ):
            err(f"{where}.pos", f"must be [x, y] numbers, not {pos!r}")
        airplane = sp.get("airplane", False)
        if not isinstance(airplane, bool):
            err(f"{where}.airplane", "must be true or false")
        if airplane and airplane_kind is not None and kind != airplane_kind:
            err(f"{where}.airplane", f"airplanes stand only on {airplane_kind} spaces, "
                                     f"and this space is {kind}")
        adjacent = sp.get("adjacent")
        if not isinstance(adjacent, list) or not all(isinstance(a, str) for a in adjacent):
            err(f"{where}.adjacent", "must be a list of space names")
        for f in ("facts", "deck"):
            if sp.get(f) is not None and not isinstance(sp[f], str):
                err(f"{where}.{f}", f"must be a string, not {sp[f]!r}")
        graph.add_node(
            name, number=number, kind=kind, pos=(float(pos[0]), float(pos[1])),
            airplane=airplane, facts=str(sp.get("facts", "")), adjacent=list(adjacent),
        )
        if sp.get("deck") is not None:
            graph.nodes[name]["deck"] = sp["deck"]

    for i, name in enumerate(graph.nodes):
        where = f"spaces[{i}] ({name}).adjacent"
        adjacent = graph.nodes[name].pop("adjacent")
        if len(set(adjacent)) != len(adjacent):
            err(where, "lists a space twice")
        for other in adjacent:
            if other == name:
                err(where, "a space cannot be adjacent to itself")
            if other not in graph:
                err(where, f"{other!r} is not a space of this board")
            back = graph.nodes[other].get("adjacent")
            mirrored = name in back if back is not None else graph.has_edge(other, name)
            if not mirrored:
                err(where, f"lists {other!r}, but {other!r} does not list {name!r} "
                           "(adjacency must be symmetric)")
            graph.add_edge(name, other, kind="land")

    if nx.number_connected_components(graph) != 1:
        parts = [sorted(c) for c in nx.connected_components(graph)]
        err("spaces", f"the land map falls apart into {len(parts)} pieces: {parts}")

    path_rule = data.get("path", "numbers")
    if path_rule != "numbers":
        err("path", f"must be \"numbers\" (Doctor Lucky walks 1, 2, 3, ...), not {path_rule!r}")
    if numbers:
        expected = list(range(1, len(numbers) + 1))
        if sorted(numbers) != expected:
            missing = sorted(set(expected) - set(numbers))
            err("spaces.number", f"numbers must run 1..{len(numbers)} with no gap; "
                                 f"missing {missing}, got {sorted(numbers)}")
        order = [numbers[n] for n in expected]
        for a, b in zip(order, order[1:] + order[:1], strict=True):
            if not graph.has_edge(a, b):
                err("spaces.number", f"Doctor Lucky's path jumps: {graph.nodes[a]['number']} "
                                     f"({a}) -> {graph.nodes[b]['number']} ({b}) are not adjacent")

    planes = [n for n in graph.nodes if graph.nodes[n]["airplane"]]
    for a in planes:
        for b in planes:
            if a < b:
                graph.add_edge(a, b, kind="air")  # I-BOARD-3: one step, no sight

    if data.get("sight", "adjacent") != "adjacent":
        err("sight", "graph-format boards have adjacency sight: use sight = \"adjacent\"")

    start = validate_start(data, graph, source)
    return Board(graph=graph, visible=None, start=start, **board_labels(data, source, key))

