"""The fields every board format shares: the descriptive labels and the ``[start]`` table.

>>> from luckylab.boards.fields import board_labels
>>> board_labels({"name": "Tiny"}, "tiny.toml", "tiny")["name"]
'Tiny'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import BoardError

__all__ = ["board_labels", "check_space_number", "validate_start"]


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


def check_space_number(err: Any, where: str, name: str, number: Any,
                       numbers: dict[int, str]) -> None:
    """A space's optional ``number``: a whole number no other space has (``numbers`` remembers
    the numbers seen so far, for both the graph and the geometry formats); ``err(where,
    problem)`` reports a problem."""
    if number is None:
        return
    if not isinstance(number, int) or isinstance(number, bool):
        err(f"{where}.number", f"must be a whole number, not {number!r}")
    if number in numbers:
        err(f"{where}.number", f"duplicate number {number} (also {numbers[number]!r})")
    numbers[number] = name
