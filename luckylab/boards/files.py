"""Reading data files (boards, decks, rules): TOML or JSON, checked before it is parsed.

A data file is a regular file of at most :data:`MAX_FILE_BYTES`, UTF-8, nested at most
:data:`MAX_DEPTH` deep, with finite numbers only. Every problem raises
:class:`~luckylab.errors.BoardError` (or the error class the caller names) with the file and
the field.

>>> from luckylab.boards.files import _parse
>>> _parse('name = "a"', "demo.toml")
{'name': 'a'}
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
from pathlib import Path
from typing import Any

from ..errors import BoardError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "read_data_file", "read_data_text"]

MAX_FILE_BYTES = 4_000_000
"""The largest data file luckylab reads (a 1,000-space board is about 100 KB)."""
MAX_DEPTH = 32
"""How deeply lists and tables may nest in a data file."""


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

