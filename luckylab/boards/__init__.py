"""DATA: the boards of the games, read from package data files and validated.

- :mod:`luckylab.boards.board`: :class:`Board` and :class:`Space` (spaces, adjacency, sight).
- :mod:`luckylab.boards.files`: reading a TOML/JSON data file safely (boards, decks, rules).
- :mod:`luckylab.boards.fields`: the fields every board format shares.
- :mod:`luckylab.boards.loading`: :func:`load_board` and the built-in boards; dispatch on the
  file's ``format`` to one of the formats:
- :mod:`luckylab.boards.graph` (the island), :mod:`luckylab.boards.geometry` (rectangles and
  doors: the mansion, the ship) and :mod:`luckylab.boards.grid` (Panic Island!).

This package imports nothing above the data layer (errors only).

>>> from luckylab.boards import load_board
>>> load_board("kill").name
"Doctor Lucky's mansion (Kill Doctor Lucky, 1997 board)"
"""

from __future__ import annotations

from .board import Board, CatBlocks, Space
from .fields import board_labels, validate_start
from .files import MAX_DEPTH, MAX_FILE_BYTES, read_data_file, read_data_text
from .graph import MAX_SPACES
from .loading import BOARDS, board_from_data, load_board

__all__ = ["BOARDS", "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_SPACES", "Board", "CatBlocks", "Space",
           "board_from_data", "board_labels", "load_board", "read_data_file", "read_data_text",
           "validate_start"]
