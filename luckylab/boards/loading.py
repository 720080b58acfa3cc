"""Loading boards from data files, with validation.

A board file is TOML (or JSON with the same structure). Its top-level ``format`` says how to
read it:

``"graph"``
    Spaces with explicit ``adjacent`` lists (the island). Read here.
``"geometry"``
    Spaces as rectangles and doors as openings (the mansion, the ship). Read by
    :mod:`luckylab.geometry`, which derives adjacency and straight-line sight.
``"grid"``
    A rectangular grid of places (Panic Island!). Read by :mod:`luckylab.games.panic`.

Every problem raises :class:`~luckylab.errors.BoardError` naming the file and the field, for
example ``isla_fortuna.toml: spaces[3].adjacent: 'Frog Pnd' is not a space``.

>>> from luckylab import load_board
>>> load_board("isla-fortuna")
<Board 'Isla Fortuna': 24 spaces, reconstruction>
"""

from __future__ import annotations

import importlib
import json
import math
import os
import stat
import sys
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import networkx as nx

from .board import Board
from .errors import BoardError, OptionError, UnknownGame

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["BOARDS", "MAX_FILE_BYTES", "board_from_data", "board_labels", "load_board",
           "read_data_file", "read_data_text", "validate_start"]

BOARDS: dict[str, str] = {
    "isla-fortuna": "isla_fortuna.toml",
    "kill-doctor-lucky": "kill_doctor_lucky_1997.toml",
    "save-doctor-lucky": "save_ship.toml",
    "panic-island": "panic_island.toml",
}
"""Built-in boards: registry key -> package data file in ``luckylab/data``."""

_ALIASES = {"island": "isla-fortuna", "kill": "kill-doctor-lucky", "save": "save-doctor-lucky",
            "panic": "panic-island"}

_FORMATS: dict[str, str] = {
    "graph": "luckylab.boards:_board_from_graph_data",
    "geometry": "luckylab.geometry:board_from_data",
    "grid": "luckylab.games.panic:board_from_data",
}


def load_board(name: str | Path) -> Board:
    """Load a built-in board by name, or a board file by path.

    Parameters
    ----------
    name
        ``"isla-fortuna"``, ``"kill-doctor-lucky"``, ``"save-doctor-lucky"``, ``"panic-island"``
        (a game name such as ``"island"`` works too), or the path of a ``.toml``/``.json`` file.

    Raises
    ------
    UnknownGame
        For a name that is neither a built-in board nor an existing file.
    BoardError
        For a malformed file, naming the file and the field.

    Examples
    --------
    >>> board = load_board("isla-fortuna")
    >>> board.space("Sunset Beach").kind
    'beach'
    >>> board.diameter <= 4
    True
    """
    if not isinstance(name, (str, Path)):
        raise OptionError(f"a board is a name or a file path, not {name!r}")
    key = str(name)
    if not key.strip():
        raise UnknownGame(f"no board named {key!r}: give a built-in board "
                          f"({', '.join(sorted(BOARDS))}) or a .toml/.json file path")
    key = _ALIASES.get(key, key)
    if key in BOARDS:
        return _load_builtin(key)
    path = Path(name)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        if not path.exists():
            raise UnknownGame(f"no board file at {str(path)!r}")
        return board_from_data(read_data_file(path), source=path.name, key=path.stem)
    known = ", ".join(sorted(BOARDS))
    raise UnknownGame(f"unknown board {str(name)!r}; built-in boards: {known}; or give a file path")


@cache
def _load_builtin(key: str) -> Board:
    # Boards are immutable, so one instance per built-in board is shared by every game.
    filename = BOARDS[key]
    resource = resources.files("luckylab") / "data" / filename
    if not resource.is_file():
        raise UnknownGame(f"board {key!r} is registered but its data file {filename} is missing")
    data = _parse(resource.read_text(encoding="utf-8"), filename)
    return board_from_data(data, source=filename, key=key)


MAX_FILE_BYTES = 4_000_000
"""The largest data file luckylab reads (a 1,000-space board is about 100 KB)."""
MAX_DEPTH = 32
"""How deeply lists and tables may nest in a data file."""
MAX_SPACES = 5_000
"""The most spaces a board file may hold."""


def read_data_text(path: str | Path, error: type[BoardError] = BoardError) -> str:
    """The text of a data file: a regular file (not a FIFO or device) of at most
    :data:`MAX_FILE_BYTES`, UTF-8 (a leading byte-order mark is allowed). Problems raise
    ``error`` (:class:`BoardError`, or :class:`~luckylab.errors.DeckError` for decks)."""
    if not isinstance(path, (str, Path)) or not str(path).strip():
        raise error("(file)", "path", f"must be a file path, not {path!r}")
    path = Path(path)
    name = path.name
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise error(name, "(file)", "is not a regular file (a directory, FIFO or device)")
        if info.st_size > MAX_FILE_BYTES:
            raise error(name, "(file)", f"is {info.st_size} bytes; data files are at most "
                                        f"{MAX_FILE_BYTES}")
        with open(path, "rb") as handle:
            raw = handle.read(info.st_size + 1)  # the size we checked (read() would
            # otherwise set aside MAX_FILE_BYTES at once); a file grown since is caught below
    except OSError as exc:
        raise error(name, "(file)", f"cannot read: {exc.strerror or exc}") from None
    if len(raw) > info.st_size:
        raise error(name, "(file)", "changed while it was read; try again")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(name, "(file)", f"is not UTF-8 text (byte {exc.start})") from None


def read_data_file(path: str | Path, error: type[BoardError] = BoardError) -> dict[str, Any]:
    """Read a TOML or JSON data file into plain data, raising :class:`BoardError` if unreadable
    (see :func:`read_data_text` for what is read at all)."""
    text = read_data_text(path, error)
    return _parse(text, Path(path).name, error)


def _parse(text: str, source: str, error: type[BoardError] = BoardError) -> dict[str, Any]:
    text = text.removeprefix("\ufeff")  # a byte-order mark (a file saved from Notepad)

    def no_constant(name: str) -> Any:
        raise error(source, "(syntax)", f"{name} is not a number luckylab reads (numbers must "
                                        "be finite)")

    try:
        if source.lower().endswith(".json"):
            data = json.loads(text, parse_constant=no_constant)
        else:
            data = tomllib.loads(text)
    except BoardError:
        raise
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise error(source, "(syntax)", str(exc)) from None
    except (RecursionError, ValueError) as exc:
        raise error(source, "(syntax)", str(exc) if isinstance(exc, ValueError)
                    else "nested too deeply") from None
    if not isinstance(data, dict):
        raise error(source, "(top level)", "must be a table of fields")
    _check_plain(data, source, error)
    return data


def _check_plain(data: Any, source: str, error: type[BoardError]) -> None:
    """Refuse non-finite numbers (TOML's nan and inf) and nesting deeper than MAX_DEPTH."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise error(source, where or "(top level)", f"nested more than {MAX_DEPTH} deep")
        if isinstance(value, float) and not math.isfinite(value):
            raise error(source, where, f"must be a finite number, not {value}")
        if isinstance(value, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k), depth + 1)
                         for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value))


def board_from_data(data: Mapping[str, Any], source: str = "<data>", key: str = "board") -> Board:
    """Build a :class:`Board` from parsed file data, dispatching on its ``format`` field."""
    fmt = data.get("format", "graph")
    if not isinstance(fmt, str) or fmt not in _FORMATS:
        raise BoardError(source, "format", f"unknown format {fmt!r}; allowed: {sorted(_FORMATS)}")
    module_name, func_name = _FORMATS[fmt].split(":")
    builder = getattr(importlib.import_module(module_name), func_name)
    return builder(data, source=source, key=key)


# -- the "graph" format ----------------------------------------------------------------------

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
        if number is not None:
            if not isinstance(number, int) or isinstance(number, bool):
                err(f"{where}.number", f"must be a whole number, not {number!r}")
            if number in numbers:
                err(f"{where}.number", f"duplicate number {number} (also {numbers[number]!r})")
            numbers[number] = name
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


def validate_start(data: Mapping[str, Any], spaces: Any, source: str) -> dict[str, Any]:
    """The file's ``[start]`` table, checked: every space it names must be in ``spaces``."""
    start = data.get("start", {})
    if not isinstance(start, dict):
        raise BoardError(source, "start", "must be a table")
    for role, where_to in start.items():
        for s in where_to if isinstance(where_to, list) else [where_to]:
            if not isinstance(s, str) or s not in spaces:
                raise BoardError(source, f"start.{role}", f"{s!r} is not a space of this board")
    return dict(start)


def board_labels(data: Mapping[str, Any], source: str, key: str) -> dict[str, str]:
    """The descriptive fields every board file may carry, as ``Board`` keyword arguments."""
    for f in ("name", "status", "source", "notes", "game"):
        if f in data and not isinstance(data[f], str):
            raise BoardError(source, f, f"must be a string, not {data[f]!r}")
    return {
        "name": str(data.get("name", key)),
        "key": key,
        "status": str(data.get("status", "unknown")),
        "source": str(data.get("source", source)),
        "notes": str(data.get("notes", "")),
    }


class _Errors:
    """Raise a BoardError for one file: ``err(field, problem)``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __call__(self, field: str, problem: str) -> None:
        raise BoardError(self.source, field, problem)
