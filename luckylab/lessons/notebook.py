"""Finding and reading lessons: the file names, the cell tags, the lesson prefix.

A lesson is ``NN_name.ipynb`` (``03b_...``, ``07x_...`` too) in a lessons folder. Its *prefix*
("04", "03b", "07x") names its exercises ("04.1") and its answer file (``04.toml``); its
*number* as printed in the title drops the leading zero ("4", "3b", "7x").

>>> lesson_prefix("notebooks/04_probability_of_foiling.ipynb")
'04'
>>> title_number("03b")
'3b'
>>> title_number("00")
'0'

Lessons are read in two ways: :func:`read_notebook` through nbformat (an extra: ``pip install
luckylab[lab]``), for the tools that run or check lessons, and :func:`read_notebook_json` as the
plain JSON an ``.ipynb`` file is (nbformat 4), for the tools a plain install must run
(``luckylab student-copy``); :func:`write_notebook_json` writes such a notebook back the way
nbformat does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import LessonError

if TYPE_CHECKING:  # nbformat is imported where it is used (an optional dependency)
    from nbformat import NotebookNode

__all__ = [
    "LessonError",
    "cell_source",
    "cell_tags",
    "is_lesson",
    "lesson_paths",
    "lesson_prefix",
    "read_notebook",
    "read_notebook_json",
    "title_number",
    "write_notebook_json",
]

_LESSON = re.compile(r"^(?P<prefix>[0-9]{2}[a-z]?)_[A-Za-z0-9_\-]+\.ipynb$")


def is_lesson(path: str | Path) -> bool:
    """Whether a file name is a lesson's (``NN_name.ipynb``, ``03b_...``, ``07x_...``).

    >>> is_lesson("04_probability_of_foiling.ipynb"), is_lesson("scratch.ipynb")
    (True, False)
    """
    return _LESSON.match(Path(path).name) is not None


def lesson_prefix(path: str | Path) -> str:
    """The exercise prefix of a lesson file: ``"04"``, ``"03b"``, ``"07x"``."""
    match = _LESSON.match(Path(path).name)
    if match is None:
        raise LessonError(
            f"{Path(path).name}: a lesson file is named NN_name.ipynb (for example "
            "04_probability_of_foiling.ipynb, 03b_play.ipynb, 07x_panic_gouga.ipynb)"
        )
    return match["prefix"]


def title_number(prefix: str) -> str:
    """The lesson number as its title prints it: "04" -> "4", "03b" -> "3b", "10" -> "10"."""
    digits, letter = prefix[:2], prefix[2:]
    return f"{int(digits)}{letter}"


def lesson_paths(folder: str | Path) -> list[Path]:
    """The lessons in ``folder`` (not its subfolders), in file-name order.

    Raises :class:`LessonError` when the folder does not exist or holds no lesson.
    """
    root = Path(folder)
    if not root.is_dir():
        raise LessonError(f"{root}: not a folder of lessons (NN_name.ipynb files)")
    paths = sorted(p for p in root.iterdir() if p.is_file() and is_lesson(p))
    if not paths:
        raise LessonError(f"{root}: holds no lesson (files named NN_name.ipynb)")
    return paths


def read_notebook(path: str | Path) -> NotebookNode:
    """Read a notebook (nbformat 4) or raise :class:`LessonError` naming the file."""
    import nbformat

    path = Path(path)
    try:
        return nbformat.read(path, as_version=4)
    except FileNotFoundError:
        raise LessonError(f"{path}: no such notebook") from None
    except Exception as exc:  # nbformat raises several types for a damaged file
        raise LessonError(f"{path}: not a readable notebook: {exc}") from None


def read_notebook_json(path: str | Path) -> dict[str, Any]:
    """Read a notebook (nbformat 4) as the plain JSON it is, without nbformat.

    Cell sources stay as stored (a string or a list of lines, see :func:`cell_source`). Raises
    :class:`LessonError` naming the file when it is missing, not JSON, or not an nbformat 4
    notebook with a list of cells.
    """
    path = Path(path)
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LessonError(f"{path}: no such notebook") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LessonError(f"{path}: not a readable notebook: {exc}") from None
    if not isinstance(nb, dict) or nb.get("nbformat") != 4:
        found = nb.get("nbformat") if isinstance(nb, dict) else type(nb).__name__
        raise LessonError(f"{path}: not a readable notebook: nbformat 4 expected, found {found}")
    cells = nb.get("cells")
    if not isinstance(cells, list) or not all(
            isinstance(c, dict) and isinstance(c.get("cell_type"), str) for c in cells):
        raise LessonError(f"{path}: not a readable notebook: 'cells' is not a list of cells")
    return nb


def write_notebook_json(nb: dict[str, Any], path: str | Path) -> None:
    """Write a notebook read by :func:`read_notebook_json` as nbformat writes one.

    One-space indents, sorted keys, non-ASCII kept, a final newline (no validation: the
    notebook is written as given).
    """
    text = json.dumps(nb, indent=1, sort_keys=True, separators=(",", ": "), ensure_ascii=False)
    Path(path).write_text(text + "\n", encoding="utf-8")


def cell_source(cell: Any) -> str:
    """A cell's source as one string (a stored notebook may keep it as a list of lines).

    >>> cell_source({"cell_type": "code", "source": ["x = 1\\n", "y = 2"]})
    'x = 1\\ny = 2'
    """
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def cell_tags(cell: Any) -> frozenset[str]:
    """The tags of a notebook cell (an empty set when it has none).

    >>> import nbformat
    >>> sorted(cell_tags(nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["exercise"]})))
    ['exercise']
    """
    tags = cell.get("metadata", {}).get("tags", [])
    return frozenset(t for t in tags if isinstance(t, str))
