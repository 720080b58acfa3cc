"""How long each lesson is: words of prose and code cells, against the classroom limits.

A lesson fits one 50-minute class when it has at most :data:`MAX_WORDS` words of prose (markdown
cells not tagged ``solution``) and at most :data:`MAX_CODE_CELLS` code cells not tagged
``exercise`` or ``solution`` (what the teacher runs and talks through).

Words are counted as a reader sees them: link targets (``](04_x.ipynb)``), HTML tags and
LaTeX commands (``\\frac``) are not words; every other run of letters or digits is.

>>> count_words("Next: [4. Will my attack be foiled?](04_probability_of_foiling.ipynb)")
7
>>> count_words("$P = \\\\frac{1}{6}$, one face in six")
7

``python -m luckylab.lessons.stats notebooks/`` (or ``luckylab lesson-stats notebooks/``)
prints the table; ``--check`` exits with 1 when a lesson is over a limit.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .notebook import cell_tags, lesson_paths, read_notebook

if TYPE_CHECKING:
    from nbformat import NotebookNode

__all__ = [
    "MAX_CODE_CELLS",
    "MAX_WORDS",
    "LessonStats",
    "count_words",
    "folder_stats",
    "format_table",
    "lesson_stats",
]

MAX_WORDS = 800
"""Words of prose (markdown not tagged ``solution``) in one lesson, at most."""
MAX_CODE_CELLS = 8
"""Code cells not tagged ``exercise`` or ``solution`` in one lesson, at most."""

_LINK_TARGET = re.compile(r"\]\([^)]*\)")
_HTML_TAG = re.compile(r"<[^>]+>")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_WORD = re.compile(r"[^\W_]+(?:['’\-.][^\W_]+)*")


def count_words(markdown: str) -> int:
    """Words a reader reads in a markdown text (see the module docstring for the rules)."""
    text = _LINK_TARGET.sub("]", markdown)
    text = _HTML_TAG.sub(" ", text)
    text = _LATEX_COMMAND.sub(" ", text)
    return len(_WORD.findall(text))


@dataclass(frozen=True, slots=True)
class LessonStats:
    """The length of one lesson."""

    name: str
    words: int
    code_cells: int
    exercise_cells: int
    solution_cells: int

    @property
    def within_limits(self) -> bool:
        """At most :data:`MAX_WORDS` words and :data:`MAX_CODE_CELLS` code cells."""
        return self.words <= MAX_WORDS and self.code_cells <= MAX_CODE_CELLS


def lesson_stats(nb: NotebookNode, name: str = "notebook") -> LessonStats:
    """Count a notebook's prose words and its teaching code cells.

    >>> from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
    >>> nb = new_notebook(cells=[new_markdown_cell("# 1. Dice"), new_code_cell("import luckylab"),
    ...     new_markdown_cell("A long answer.", metadata={"tags": ["solution"]})])
    >>> lesson_stats(nb, "01_dice.ipynb")
    LessonStats(name='01_dice.ipynb', words=2, code_cells=1, exercise_cells=0, solution_cells=1)
    """
    words = code = exercises = solutions = 0
    for cell in nb.cells:
        tags = cell_tags(cell)
        if "solution" in tags:
            solutions += 1
        elif "exercise" in tags and cell.cell_type == "code":
            exercises += 1
        elif cell.cell_type == "markdown":
            words += count_words(cell.source)
        elif cell.cell_type == "code":
            code += 1
    return LessonStats(name, words, code, exercises, solutions)


def folder_stats(folder: str | Path) -> list[LessonStats]:
    """:func:`lesson_stats` of every lesson in a folder, in file-name order."""
    return [lesson_stats(read_notebook(p), p.name) for p in lesson_paths(folder)]


def format_table(rows: list[LessonStats]) -> str:
    """A plain-text table: one line per lesson, a mark where a limit is passed.

    >>> print(format_table([LessonStats("04_x.ipynb", 812, 7, 3, 4)]))
    lesson      words   code cells   exercise cells  solution cells
    04_x.ipynb    812*           7                3               4
    limits: 800 words of prose, 8 code cells (exercise and solution cells not counted); * = over
    """
    width = max([len("lesson"), *(len(r.name) for r in rows)])
    lines = [f"{'lesson':<{width}}  {'words':>5}   {'code cells':>10}   exercise cells  "
             "solution cells"]
    for r in rows:
        words = f"{r.words:>5}{'*' if r.words > MAX_WORDS else ' '}"
        code = f"{r.code_cells:>10}{'*' if r.code_cells > MAX_CODE_CELLS else ' '}"
        lines.append(f"{r.name:<{width}}  {words}  {code}  {r.exercise_cells:>14}  "
                     f"{r.solution_cells:>14}")
    lines.append(f"limits: {MAX_WORDS} words of prose, {MAX_CODE_CELLS} code cells "
                 "(exercise and solution cells not counted); * = over")
    return "\n".join(line.rstrip() for line in lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``lesson-stats`` (shared by the CLI and ``python -m``)."""
    parser.add_argument("folder", nargs="?", default="notebooks",
                        help="the lessons folder (default notebooks)")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when a lesson is over a limit")


def run(args: argparse.Namespace) -> int:
    """Print the table for ``args.folder``; 1 with ``--check`` when a limit is passed."""
    rows = folder_stats(args.folder)
    print(format_table(rows))
    over = [r.name for r in rows if not r.within_limits]
    if over and args.check:
        print(f"over the limits: {', '.join(over)}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m luckylab.lessons.stats [FOLDER] [--check]``."""
    from ..errors import LuckyLabError

    parser = argparse.ArgumentParser(prog="python -m luckylab.lessons.stats",
                                     description="Words of prose and code cells per lesson.")
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except LuckyLabError as exc:
        print(f"luckylab: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
