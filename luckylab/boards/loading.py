"""Loading boards from data files, with validation.

A board file is TOML (or JSON with the same structure). Its top-level ``format`` says how to
read it:

``"graph"``
    Spaces with explicit ``adjacent`` lists (the island). Read by :mod:`luckylab.boards.graph`.
``"geometry"``
    Spaces as rectangles and doors as openings (the mansion, the ship). Read by
    :mod:`luckylab.boards.geometry`, which derives adjacency and straight-line sight.
``"grid"``
    A rectangular grid of places (Panic Island!). Read by :mod:`luckylab.boards.grid`.

Every problem raises :class:`~luckylab.errors.BoardError` naming the file and the field, for
example ``isla_fortuna.toml: spaces[3].adjacent: 'Frog Pnd' is not a space``.

>>> from luckylab import load_board
>>> load_board("isla-fortuna")
<Board 'Isla Fortuna': 24 spaces, reconstruction>
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import BoardError, OptionError, UnknownGame
from .board import Board
from .files import _parse, read_data_file
from .geometry import board_from_data as _geometry_board
from .graph import _board_from_graph_data
from .grid import board_from_data as _grid_board

__all__ = ["BOARDS", "board_from_data", "load_board"]

BOARDS: dict[str, str] = {
    "isla-fortuna": "isla_fortuna.toml",
    "kill-doctor-lucky": "kill_doctor_lucky_1997.toml",
    "save-doctor-lucky": "save_ship.toml",
    "panic-island": "panic_island.toml",
}
"""Built-in boards: registry key -> package data file in ``luckylab/data``."""

_ALIASES = {"island": "isla-fortuna", "kill": "kill-doctor-lucky", "save": "save-doctor-lucky",
            "panic": "panic-island"}

_FORMATS: dict[str, Callable[..., Board]] = {
    "graph": _board_from_graph_data,
    "geometry": _geometry_board,
    "grid": _grid_board,
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



def board_from_data(data: Mapping[str, Any], source: str = "<data>", key: str = "board") -> Board:
    """Build a :class:`Board` from parsed file data, dispatching on its ``format`` field."""
    fmt = data.get("format", "graph")
    if not isinstance(fmt, str) or fmt not in _FORMATS:
        raise BoardError(source, "format", f"unknown format {fmt!r}; allowed: {sorted(_FORMATS)}")
    return _FORMATS[fmt](data, source=source, key=key)
