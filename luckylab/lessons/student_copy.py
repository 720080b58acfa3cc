"""Student copies of the lessons: no ``solution`` cells, exercise cells without their outputs.

Every solution in a lesson is its own cell(s) tagged ``solution``, right under its exercise. A
student copy drops those cells, clears the outputs of cells tagged ``exercise`` (so the stored
"not answered yet" of the teacher's run does not show), and keeps everything else as it is,
outputs included: widgets' cells still run. It never writes into the lessons folder or a folder
inside it, so the teacher's notebooks cannot be overwritten by accident.

A ``solution`` tag on a cell that cannot be a solution (the exercise text itself, a cell also
tagged ``exercise``, the title or the setup cell) would strip something students need; such tags
are reported and nothing is written.

>>> import nbformat
>>> from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
>>> nb = new_notebook(cells=[
...     new_markdown_cell("# 4. Title"),
...     new_code_cell("import luckylab"),
...     new_markdown_cell("**Exercise 1.** How many faces has a die?"),
...     new_code_cell('answer = None\\nluckylab.check("demo.1", answer)',
...                   metadata={"tags": ["exercise"]},
...                   outputs=[new_output("execute_result", {"text/plain": "not answered yet"})]),
...     new_markdown_cell("Six: count them.", metadata={"tags": ["solution"]}),
... ])
>>> copy = student_copy(nb)
>>> [c.source[:12] for c in copy.cells]
['# 4. Title', 'import lucky', '**Exercise 1', 'answer = Non']
>>> copy.cells[3].outputs
[]
>>> stray_solution_tags(nb)
[]
"""

from __future__ import annotations

import argparse
import copy as _copy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import StraySolutionTag, StudentCopyError, UnsafeDestination
from .notebook import cell_tags, lesson_paths, read_notebook

if TYPE_CHECKING:
    from nbformat import NotebookNode

__all__ = [
    "StraySolutionTag",
    "StudentCopyError",
    "UnsafeDestination",
    "student_copy",
    "stray_solution_tags",
    "write_student_copies",
]


DESCRIPTION = ("Write each lesson without the cells tagged 'solution' and with the outputs of "
               "the cells tagged 'exercise' cleared.")
"""What ``luckylab student-copy --help`` and ``python -m luckylab.lessons.student_copy`` say."""

_EXERCISE = re.compile(r"^\*\*Exercise\b", re.M)


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What :func:`write_student_copies` wrote for one lesson."""

    source: Path
    target: Path
    solution_cells_removed: int
    exercise_outputs_cleared: int


def stray_solution_tags(nb: NotebookNode, name: str = "notebook") -> list[str]:
    """Cells tagged ``solution`` that are not solutions: "<name> cell <i>: <why>" for each.

    A solution cannot be the title cell, the setup cell (the first code cell), an exercise's
    own text (a markdown cell with a line starting ``**Exercise``) or a cell tagged ``exercise``.
    """
    problems = []
    first_code = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), None)
    for index, cell in enumerate(nb.cells):
        tags = cell_tags(cell)
        if "solution" not in tags:
            continue
        why = None
        if "exercise" in tags:
            why = "is tagged both exercise and solution"
        elif cell.cell_type == "markdown" and _EXERCISE.search(cell.source):
            why = "is the text of an exercise (a line starts with **Exercise)"
        elif index == 0:
            why = "is the title cell"
        elif index == first_code:
            why = "is the setup cell (the first code cell)"
        if why:
            problems.append(f"{name} cell {index}: {why}")
    return problems


def student_copy(nb: NotebookNode, name: str = "notebook") -> NotebookNode:
    """A copy of ``nb`` without ``solution`` cells and with ``exercise`` cells' outputs cleared.

    The notebook given is not changed. Raises :class:`StraySolutionTag` when a solution tag
    sits on a cell that is not a solution.
    """
    problems = stray_solution_tags(nb, name)
    if problems:
        raise StraySolutionTag(problems)
    result = _copy.deepcopy(nb)
    kept = []
    for cell in result.cells:
        tags = cell_tags(cell)
        if "solution" in tags:
            continue
        if "exercise" in tags and cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        kept.append(cell)
    result.cells = kept
    return result


def write_student_copies(source: str | Path, out: str | Path) -> list[CopyReport]:
    """Write a student copy of every lesson in ``source`` into ``out`` (created if needed).

    Every lesson is read and checked before anything is written: a stray solution tag in any
    lesson raises :class:`StraySolutionTag` and no file is written. ``out`` may not be
    ``source`` or a folder inside it (:class:`UnsafeDestination`).
    """
    import nbformat

    source, out = Path(source), Path(out)
    paths = lesson_paths(source)
    src_real, out_real = source.resolve(), out.resolve()
    if out_real == src_real or src_real in out_real.parents:
        raise UnsafeDestination(
            f"{out}: will not write student copies into the lessons folder {source} or a "
            "folder inside it; choose a folder outside it, e.g. --out student/"
        )
    if out.exists() and not out.is_dir():
        raise StudentCopyError(f"{out}: exists and is not a folder")
    problems: list[str] = []
    copies = []
    for path in paths:
        nb = read_notebook(path)
        found = stray_solution_tags(nb, path.name)
        problems += found
        if not found:
            copies.append((path, nb, student_copy(nb, path.name)))
    if problems:
        raise StraySolutionTag(problems)
    out.mkdir(parents=True, exist_ok=True)
    reports = []
    for path, nb, copy in copies:
        target = out / path.name
        nbformat.write(copy, target)
        removed = len(nb.cells) - len(copy.cells)
        cleared = sum(1 for c in nb.cells if c.cell_type == "code"
                      and "exercise" in cell_tags(c) and c.get("outputs"))
        reports.append(CopyReport(path, target, removed, cleared))
    return reports


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``student-copy`` (shared by the CLI and ``python -m``)."""
    parser.add_argument("source", help="the lessons folder, e.g. notebooks/")
    parser.add_argument("--out", required=True,
                        help="the folder to write the copies into (not inside the lessons folder)")


def run(args: argparse.Namespace) -> int:
    """Write the copies of ``args.source`` into ``args.out`` and say what was removed."""
    reports = write_student_copies(args.source, args.out)
    for r in reports:
        print(f"{r.target}: {r.solution_cells_removed} solution cell(s) removed, "
              f"{r.exercise_outputs_cleared} exercise output(s) cleared")
    print(f"{len(reports)} student cop{'y' if len(reports) == 1 else 'ies'} in {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m luckylab.lessons.student_copy SOURCE --out DIR`` (same as the CLI command)."""
    import sys

    from ..errors import LuckyLabError

    parser = argparse.ArgumentParser(prog="python -m luckylab.lessons.student_copy",
                                     description=DESCRIPTION)
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except LuckyLabError as exc:
        print(f"luckylab: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
