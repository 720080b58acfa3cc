"""Student copies of the lessons: no ``solution`` cells, exercise cells without their outputs.

Every solution in a lesson is its own cell(s) tagged ``solution``, right under its exercise. A
student copy drops those cells, clears the outputs of cells tagged ``exercise`` (so the stored
"not answered yet" of the teacher's run does not show), and keeps everything else as it is,
outputs included: widgets' cells still run. It never writes into the lessons folder or a folder
inside it, so the teacher's notebooks cannot be overwritten by accident.

An exercise whose text is followed directly by its solution (no ``exercise`` cell of its own)
would leave students nowhere to type, so the copy puts an empty "your answer" cell, tagged
``work``, where the solution was: a code cell when the answer is code (a solution code cell, or
a markdown solution holding a fenced code block), a markdown cell when the answer is words.

A ``solution`` tag on a cell that cannot be a solution (the exercise text itself, a cell also
tagged ``exercise``, the title or the setup cell) would strip something students need; such tags
are reported and nothing is written.

Notebooks are handled as the plain JSON they are (nbformat 4), so a plain ``pip install
luckylab`` can make the copies; nbformat's ``NotebookNode`` works too.

>>> def cell(kind, source, *tags, **more):
...     return {"cell_type": kind, "metadata": {"tags": list(tags)}, "source": source, **more}
>>> nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
...     cell("markdown", "# 4. Title"),
...     cell("code", "import luckylab", outputs=[], execution_count=None),
...     cell("markdown", "**Exercise 1.** How many faces has a die?"),
...     cell("code", 'answer = None\\nluckylab.check("demo.1", answer)', "exercise",
...          outputs=[{"output_type": "execute_result", "execution_count": 1, "metadata": {},
...                    "data": {"text/plain": "not answered yet"}}], execution_count=1),
...     cell("markdown", "Six: count them.", "solution"),
...     cell("markdown", "**Exercise 2.** Why six?"),
...     cell("markdown", "Opposite faces add up to 7.", "solution"),
... ]}
>>> copy = student_copy(nb)
>>> [(c["cell_type"], cell_source(c)[:12]) for c in copy["cells"]]
... # doctest: +NORMALIZE_WHITESPACE
[('markdown', '# 4. Title'), ('code', 'import lucky'), ('markdown', '**Exercise 1'),
 ('code', 'answer = Non'), ('markdown', '**Exercise 2'), ('markdown', '*Your answer')]
>>> copy["cells"][3]["outputs"], sorted(cell_tags(copy["cells"][5]))
([], ['work'])
>>> stray_solution_tags(nb)
[]
"""

from __future__ import annotations

import argparse
import copy as _copy
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import StraySolutionTag, StudentCopyError, UnsafeDestination
from .notebook import (
    cell_source,
    cell_tags,
    lesson_paths,
    read_notebook_json,
    write_notebook_json,
)

Notebook = dict[str, Any]
"""A notebook as its JSON (a plain dict, or nbformat's ``NotebookNode``, which is one)."""

__all__ = [
    "StraySolutionTag",
    "StudentCopyError",
    "UnsafeDestination",
    "WORK_TAG",
    "student_copy",
    "stray_solution_tags",
    "work_cell_type",
    "write_student_copies",
]


DESCRIPTION = ("Write each lesson without the cells tagged 'solution' (an empty answer cell "
               "where an exercise had only its solution) and with the outputs of the cells "
               "tagged 'exercise' cleared.")
"""What ``luckylab student-copy --help`` and ``python -m luckylab.lessons.student_copy`` say."""

_EXERCISE = re.compile(r"^\*\*Exercise\b", re.M)
_CODE_BLOCK = re.compile(r"^```(?:python|py|ipython3?)?[ \t]*$", re.M)

WORK_TAG = "work"
"""The tag of the "your answer" cells a student copy adds."""

WORK_SOURCE = {"code": "# your answer here\n", "markdown": "*Your answer:*\n"}
"""What an added "your answer" cell holds, by cell type."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What :func:`write_student_copies` wrote for one lesson."""

    source: Path
    target: Path
    solution_cells_removed: int
    exercise_outputs_cleared: int
    work_cells_added: int = 0


def stray_solution_tags(nb: Notebook, name: str = "notebook") -> list[str]:
    """Cells tagged ``solution`` that are not solutions: "<name> cell <i>: <why>" for each.

    A solution cannot be the title cell, the setup cell (the first code cell), an exercise's
    own text (a markdown cell with a line starting ``**Exercise``) or a cell tagged ``exercise``.
    """
    problems = []
    cells = nb["cells"]
    first_code = next((i for i, c in enumerate(cells) if c["cell_type"] == "code"), None)
    for index, cell in enumerate(cells):
        tags = cell_tags(cell)
        if "solution" not in tags:
            continue
        why = None
        if "exercise" in tags:
            why = "is tagged both exercise and solution"
        elif _is_exercise_text(cell):
            why = "is the text of an exercise (a line starts with **Exercise)"
        elif index == 0:
            why = "is the title cell"
        elif index == first_code:
            why = "is the setup cell (the first code cell)"
        if why:
            problems.append(f"{name} cell {index}: {why}")
    return problems


def student_copy(nb: Notebook, name: str = "notebook") -> Notebook:
    """A copy of ``nb`` without ``solution`` cells and with ``exercise`` cells' outputs cleared.

    Where an exercise's text is followed directly by its solution, the copy has an empty "your
    answer" cell tagged ``work`` instead (see :func:`work_cell_type`). The notebook given is not
    changed. Raises :class:`StraySolutionTag` when a solution tag sits on a cell that is not a
    solution.
    """
    problems = stray_solution_tags(nb, name)
    if problems:
        raise StraySolutionTag(problems)
    result = _copy.deepcopy(nb)
    cells = result["cells"]
    ids = {c.get("id") for c in cells}
    kept = []
    for index, cell in enumerate(cells):
        tags = cell_tags(cell)
        if "solution" in tags:
            previous = cells[index - 1] if index else None
            if previous is not None and _is_exercise_text(previous):
                kept.append(_work_cell(cell, _solution_run(cells, index), ids))
            continue
        if "exercise" in tags and cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        kept.append(cell)
    result["cells"] = kept
    return result


def work_cell_type(solution: list[Any]) -> str:
    """The type of the "your answer" cell for an exercise answered only by ``solution`` cells.

    ``"code"`` when a solution cell is code or a markdown solution holds a fenced code block,
    else ``"markdown"`` (the answer is words).

    >>> work_cell_type([{"cell_type": "markdown", "source": "Six."}])
    'markdown'
    >>> work_cell_type([{"cell_type": "markdown", "source": "Six."},
    ...                 {"cell_type": "markdown", "source": "Or:\\n```python\\nlen(faces)\\n```"}])
    'code'
    """
    for cell in solution:
        if cell["cell_type"] == "code" or (
                cell["cell_type"] == "markdown" and _CODE_BLOCK.search(cell_source(cell))):
            return "code"
    return "markdown"


def _is_exercise_text(cell: Any) -> bool:
    return cell["cell_type"] == "markdown" and _EXERCISE.search(cell_source(cell)) is not None


def _solution_run(cells: list[Any], start: int) -> list[Any]:
    """The solution cells from ``start`` on, up to the first cell that is not one."""
    run = []
    for cell in cells[start:]:
        if "solution" not in cell_tags(cell):
            break
        run.append(cell)
    return run


def _work_cell(first: Any, solution: list[Any], ids: set[Any]) -> Any:
    """An empty "your answer" cell in place of ``solution`` (``first`` is its first cell)."""
    kind = work_cell_type(solution)
    make = type(first)  # a plain dict, or nbformat's NotebookNode
    cell = make(cell_type=kind, metadata=make(tags=[WORK_TAG]), source=WORK_SOURCE[kind])
    if kind == "code":
        cell["execution_count"] = None
        cell["outputs"] = []
    if first.get("id"):
        new_id, n = f"{first['id'][:56]}-work", 1
        while new_id in ids:
            n += 1
            new_id = f"{first['id'][:56]}-work{n}"
        ids.add(new_id)
        cell["id"] = new_id
    return cell


def write_student_copies(source: str | Path, out: str | Path) -> list[CopyReport]:
    """Write a student copy of every lesson in ``source`` into ``out`` (created if needed).

    Every lesson is read and checked before anything is written: a stray solution tag in any
    lesson raises :class:`StraySolutionTag` and no file is written. ``out`` may not be
    ``source`` or a folder inside it (:class:`UnsafeDestination`). Needs no nbformat.
    """
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
        nb = read_notebook_json(path)
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
        write_notebook_json(copy, target)
        removed = sum(1 for c in nb["cells"] if "solution" in cell_tags(c))
        cleared = sum(1 for c in nb["cells"] if c["cell_type"] == "code"
                      and "exercise" in cell_tags(c) and c.get("outputs"))
        added = sum(1 for c in copy["cells"] if WORK_TAG in cell_tags(c))
        reports.append(CopyReport(path, target, removed, cleared, added))
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
        added = (f", {r.work_cells_added} empty answer cell(s) added" if r.work_cells_added
                 else "")
        print(f"{r.target}: {r.solution_cells_removed} solution cell(s) removed, "
              f"{r.exercise_outputs_cleared} exercise output(s) cleared{added}")
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
