"""The house style of the lessons, checked: what every lesson in ``notebooks/`` must look like.

:func:`style_problems` lists, for one lesson, every place it departs from the house style (an
empty list when it follows it). The rules checked, in the order a lesson is read:

1. Cell 1 is markdown: a numbered title (``# 4. Will my attack be foiled?``, ``# 3b. ...``)
   whose number is the file's, then **Objectives** ("By the end you can", 2-4 bullets),
   **Prerequisites** and **Time** (in minutes). Cell 2 is the setup code (imports); it imports
   luckylab when the lesson has self-checks.
2. The ``##`` sections are ``Story``, ``Question``, any teaching sections, ``Play``,
   ``What to notice``, ``Exercises``, ``Recap``, in that order, each once.
3. The Recap is three bullets and ``Next: [<title>](<file>.ipynb)``, the title being the next
   lesson's own (the last lesson of the folder may have no Next link).
4. Exercises are markdown cells ``**Exercise 1.**``, ``**Exercise 2.**`` ...; a cell tagged
   ``exercise`` comes right under its exercise and reads ``answer = None`` and
   ``luckylab.check("<prefix>.<n>", answer)``; each exercise has solution cell(s) tagged
   ``solution`` right under it; a solution tag is never on a cell that is not a solution.
5. Every ``luckylab.check(`` in a solution cell has the stored output ``correct``.
6. No ``<details>`` blocks, no ``NBVAL_`` comments in code, no ``../shared`` paths; students'
   text does not speak of nbval, pytest or the test suite, and numbers seats from 1; a
   comparison is never concluded as "no difference", "chance" or "evenly matched" (intervals
   that overlap do not show a difference: from them we cannot tell).
7. Every figure (an image output, or an HTML ``<img>`` from :func:`luckylab.viz.show`) has a
   markdown caption right under it starting ``*Figure:*`` (or ``*Figure: ...*``, the whole
   caption in italics), and alt text (:mod:`luckylab.lessons.figures`).

Length (:mod:`luckylab.lessons.stats`) and slideshow metadata (:mod:`luckylab.lessons.slides`)
are checked by their own modules.

``python -m luckylab.lessons.style notebooks/`` prints the problems (exit status 1 if any).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .figures import lesson_figures
from .notebook import (
    cell_tags,
    lesson_paths,
    lesson_prefix,
    read_notebook,
    title_number,
)
from .outputs import text_outputs
from .student_copy import stray_solution_tags

if TYPE_CHECKING:
    from nbformat import NotebookNode

__all__ = ["SECTIONS", "check_folder", "lesson_title", "section_headings", "style_problems"]

SECTIONS = ("Story", "Question", "Play", "What to notice", "Exercises", "Recap")
"""The ``##`` sections every lesson has, in this order (teaching sections go after Question)."""

_TITLE = re.compile(r"^# (?P<number>[0-9]+[a-z]?)\. \S")
_EXERCISE = re.compile(r"^\*\*Exercise (?P<n>[0-9]+)\.\*\*", re.M)
_CHECK_CALL = re.compile(r"luckylab\.check\(")
_EXERCISE_CHECK = re.compile(r"luckylab\.check\(\s*[\"'](?P<id>[^\"']+)[\"']\s*,\s*answer\s*\)")
_NEXT = re.compile(r"^Next: \[(?P<title>[^\]]+)\]\((?P<file>[^)]+\.ipynb)\)\s*$", re.M)
_BULLET = re.compile(r"^\s*[-*] \S")
_STUDENT_WORDS = re.compile(r"\bnbval\b|\bpytest\b|\btest suite\b", re.I)
_NO_DIFFERENCE = re.compile(
    r"\bno\s+(?:real\s+|significant\s+|measurable\s+)?difference\b"
    r"|\b(?:is|was|are|were)\s+(?:just\s+|only\s+|pure\s+|down\s+to\s+)?chance\b"
    r"|\b(?:is|was|are|were)\s+(?:equally\s+good|as\s+good\s+as\s+each\s+other|evenly\s+matched"
    r"|the\s+same\s+strength|equal\s+in\s+strength)\b"
    r"|\bonly\s+where\s+(?:the\s+|their\s+)?intervals\s+do\s+not\s+overlap",
    re.I)
"""A comparison concluded from intervals that overlap: "no difference", "the order is
chance", "they are evenly matched", "X beats Y only where the intervals do not overlap".
Overlapping intervals do not show a difference: from them *we cannot tell* (and intervals
that overlap a little can still differ clearly, as a paired test shows); a lesson words it
so."""
_SEAT_ZERO = re.compile(r"\b(?:[Pp]layer|[Ss]eat) 0\b")


def lesson_title(nb: NotebookNode) -> str | None:
    """The title of a lesson without ``# `` ("4. Will my attack be foiled?"), or None."""
    if not nb.cells or nb.cells[0].cell_type != "markdown":
        return None
    first = nb.cells[0].source.lstrip().split("\n", 1)[0]
    return first[2:].strip() if first.startswith("# ") else None


def section_headings(nb: NotebookNode) -> list[tuple[int, str]]:
    """``(cell index, name)`` of every ``##`` heading in markdown cells, code fences skipped.

    >>> from nbformat.v4 import new_markdown_cell, new_notebook
    >>> nb = new_notebook(cells=[new_markdown_cell("## Story\\n```\\n## not this\\n```")])
    >>> section_headings(nb)
    [(0, 'Story')]
    """
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        fenced = False
        for line in cell.source.splitlines():
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and line.startswith("## "):
                found.append((index, line[3:].strip()))
    return found


def style_problems(nb: NotebookNode, name: str,
                   titles: dict[str, str | None] | None = None) -> list[str]:
    """Every departure of one lesson from the house style (see the module docstring).

    ``name`` is the lesson's file name (it gives the prefix); ``titles`` maps the file names of
    the other lessons in its folder to their titles, to check the Next link (None: not checked).
    """
    prefix = lesson_prefix(name)
    problems: list[str] = []
    problems += _first_cells(nb, prefix)
    problems += _sections(nb)
    problems += _recap(nb, name, titles)
    problems += _exercises(nb, prefix, name)
    problems += _text(nb)
    problems += _figures(nb)
    return problems


def _first_cells(nb: NotebookNode, prefix: str) -> list[str]:
    problems = []
    if not nb.cells or nb.cells[0].cell_type != "markdown":
        return ["cell 0: the first cell must be markdown: the title, Objectives, Prerequisites, "
                "Time"]
    text = nb.cells[0].source.strip()
    first = text.split("\n", 1)[0]
    match = _TITLE.match(first)
    number = title_number(prefix)
    if match is None:
        problems.append(f"cell 0: the title must read '# {number}. <title>', not {first!r}")
    elif match["number"] != number:
        problems.append(f"cell 0: the title is numbered {match['number']}, the file {number}")
    places = [text.find(f"**{word}") for word in ("Objectives", "Prerequisites", "Time")]
    if min(places) < 0:
        names = ("Objectives", "Prerequisites", "Time")
        missing = [w for w, p in zip(names, places, strict=True) if p < 0]
        problems.append(f"cell 0: missing {', '.join('**' + w + '**' for w in missing)}")
    elif places != sorted(places):
        problems.append("cell 0: Objectives, Prerequisites and Time come in this order")
    else:
        objectives = text[places[0]:places[1]]
        bullets = sum(1 for line in objectives.splitlines() if _BULLET.match(line))
        if not 2 <= bullets <= 4:
            problems.append(f"cell 0: Objectives has {bullets} bullets; 2-4 are expected")
        if "by the end you can" not in objectives.lower():
            problems.append("cell 0: Objectives reads 'By the end you can ...'")
        if "minute" not in text[places[2]:].lower():
            problems.append("cell 0: Time says how many minutes the lesson takes")
    if len(nb.cells) < 2 or nb.cells[1].cell_type != "code" or "import" not in nb.cells[1].source:
        problems.append("cell 1: the second cell must be the setup code (the imports)")
    elif any(_CHECK_CALL.search(c.source) for c in nb.cells if c.cell_type == "code") and not (
        re.search(r"^import luckylab\b", nb.cells[1].source, re.M)
    ):
        problems.append("cell 1: the setup cell must 'import luckylab' (the lesson uses "
                        "luckylab.check)")
    return problems


def _sections(nb: NotebookNode) -> list[str]:
    headings = [h for i, h in section_headings(nb) if "solution" not in cell_tags(nb.cells[i])]
    problems = []
    for section in SECTIONS:
        count = headings.count(section)
        if count != 1:
            problems.append(f"section '## {section}' appears {count} times; once is expected")
    if problems:
        return problems
    required = [h for h in headings if h in SECTIONS]
    if required != list(SECTIONS):
        problems.append(f"sections out of order: {required}; expected {list(SECTIONS)}")
    teaching = headings[headings.index("Question") + 1:headings.index("Play")]
    extra = [h for h in headings if h not in SECTIONS and h not in teaching]
    if extra:
        problems.append(f"sections {extra} must sit between '## Question' and '## Play'")
    return problems


def _recap(nb: NotebookNode, name: str, titles: dict[str, str | None] | None) -> list[str]:
    headings = section_headings(nb)
    starts = [i for i, h in headings if h == "Recap"]
    if len(starts) != 1:
        return []  # reported by _sections
    start = starts[0]
    if headings[-1][1] != "Recap":
        return [f"'## {headings[-1][1]}' comes after the Recap, which ends the lesson"]
    cells = [c for c in nb.cells[start:] if "solution" not in cell_tags(c)]
    if any(c.cell_type == "code" for c in cells):
        return ["the Recap has code; it is 3 bullets and the Next link"]
    text = "\n".join(c.source for c in cells)
    problems = []
    bullets = sum(1 for line in text.splitlines() if _BULLET.match(line))
    if bullets != 3:
        problems.append(f"the Recap has {bullets} bullets; exactly 3 are expected")
    links = _NEXT.findall(text)
    if not links:
        later = sorted(n for n in (titles or {}) if n > name)
        if later:
            problems.append(f"the Recap ends with 'Next: [<title>](<file>)' (e.g. {later[0]})")
        return problems
    if len(links) > 1:
        problems.append("the Recap has more than one Next link")
    title, target = links[-1]
    if titles is not None:
        if target not in titles:
            problems.append(f"Next link to {target}, which is not in the lessons folder")
        elif not (titles[target] or "").startswith(title):
            problems.append(f"Next link text {title!r} is not the title of {target} "
                            f"({titles[target]!r}) or its start")
    if not text.rstrip().endswith(")"):
        problems.append("the Next link is the last line of the lesson")
    return problems


def _exercises(nb: NotebookNode, prefix: str, name: str) -> list[str]:
    problems = list(stray_solution_tags(nb, name))
    cells = nb.cells
    numbers: list[int] = []
    current: int | None = None  # the exercise whose cells we are under
    solved: dict[int, bool] = {}
    for index, cell in enumerate(cells):
        tags = cell_tags(cell)
        where = f"cell {index}"
        found = _EXERCISE.findall(cell.source) if cell.cell_type == "markdown" else []
        if found and "solution" not in tags:
            for n in map(int, found):
                numbers.append(n)
                solved[n] = False
            current = numbers[-1]  # only the last one can have cells right under it
            continue
        if "exercise" in tags and "solution" not in tags:
            previous = cells[index - 1] if index else None
            if previous is None or not (previous.cell_type == "markdown" and
                                        _EXERCISE.search(previous.source)):
                problems.append(f"{where}: an exercise cell comes right under its "
                                "'**Exercise n.**' text")
            if cell.cell_type == "code":
                if not re.search(r"^answer = None\b", cell.source, re.M):
                    problems.append(f"{where}: an exercise cell starts from 'answer = None'")
                ids = _EXERCISE_CHECK.findall(cell.source)
                wanted = f"{prefix}.{current}"
                if ids != [wanted]:
                    problems.append(f"{where}: the exercise cell calls "
                                    f"luckylab.check(\"{wanted}\", answer) once; found {ids}")
            continue
        if "solution" in tags:
            previous = cells[index - 1] if index else None
            ptags = cell_tags(previous) if previous is not None else frozenset()
            under = previous is not None and (
                "solution" in ptags or "exercise" in ptags
                or (previous.cell_type == "markdown"
                    and _EXERCISE.search(previous.source) is not None))
            if not under or current is None:
                problems.append(f"{where}: a solution comes right under its exercise (or under "
                                "another solution cell of it)")
            else:
                solved[current] = True
            if cell.cell_type == "code":
                problems += _solution_checks(cell, where)
            continue
        if cell.cell_type == "markdown" and re.search(r"^## ", cell.source, re.M):
            current = None
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"exercises are numbered 1, 2, 3 ...; found {numbers}")
    for number, ok in solved.items():
        if not ok:
            problems.append(f"Exercise {number} has no solution cell (tagged solution) under it")
    return problems


def _solution_checks(cell: Any, where: str) -> list[str]:
    calls = len(_CHECK_CALL.findall(cell.source))
    if not calls:
        return []
    lines = [line.strip() for item in text_outputs(cell)
             for line in item.split(": ", 1)[-1].splitlines()]
    correct = lines.count("correct")
    if correct < calls or any(line.startswith("not ") for line in lines):
        return [f"{where}: the solution calls luckylab.check {calls} time(s) but its stored "
                f"output says 'correct' {correct} time(s)"]
    return []


def _text(nb: NotebookNode) -> list[str]:
    problems = []
    for index, cell in enumerate(nb.cells):
        source = cell.source
        if cell.cell_type == "markdown" and re.search(r"<details\b", source, re.I):
            problems.append(f"cell {index}: no <details> blocks; solutions are tagged cells")
        if cell.cell_type == "code" and "NBVAL_" in source:
            problems.append(f"cell {index}: an NBVAL_ comment; nbval markers are cell tags")
        if "../shared" in source:
            problems.append(f"cell {index}: links to ../shared; the rules are in docs/rules/")
        if cell.cell_type == "markdown":
            words = _STUDENT_WORDS.search(source)
            if words:
                problems.append(f"cell {index}: students' text speaks of {words[0]!r}")
            seat = _SEAT_ZERO.search(source)
            if seat:
                problems.append(f"cell {index}: {seat[0]!r}: seats are numbered from 1")
            same = _NO_DIFFERENCE.search(source)
            if same:
                problems.append(f"cell {index}: {same[0]!r}: intervals that overlap do not "
                                "show a difference (from them we cannot tell; a paired test "
                                "may), never 'no difference', 'chance' or 'equal'")
    return problems


def _figures(nb: NotebookNode) -> list[str]:
    problems = []
    by_cell: dict[int, list] = {}
    for figure in lesson_figures(nb):
        by_cell.setdefault(figure.cell, []).append(figure)
    for cell, figures in by_cell.items():
        if figures[0].caption is None:
            problems.append(f"cell {cell}: a figure needs a caption right under it, a markdown "
                            "cell starting '*Figure:*'")
        if any(figure.alt is None for figure in figures):
            problems.append(f"cell {cell}: a figure needs alt text: show it with "
                            "luckylab.viz.show(fig, alt=...), the numbers it shows in words")
    return problems


def check_folder(folder: str | Path) -> dict[str, list[str]]:
    """:func:`style_problems` for every lesson in a folder: file name -> problems."""
    paths = lesson_paths(folder)
    notebooks = {p.name: read_notebook(p) for p in paths}
    titles = {n: lesson_title(nb) for n, nb in notebooks.items()}
    return {n: style_problems(nb, n, titles) for n, nb in notebooks.items()}


def main(argv: list[str] | None = None) -> int:
    """``python -m luckylab.lessons.style [FOLDER]``: 1 when a lesson departs from the style."""
    parser = argparse.ArgumentParser(prog="python -m luckylab.lessons.style",
                                     description="Check the lessons' house style.")
    parser.add_argument("folder", nargs="?", default="notebooks", help="lessons folder")
    args = parser.parse_args(argv)
    bad = 0
    for name, problems in check_folder(args.folder).items():
        print(f"{name}: {len(problems) or 'no'} problem(s)")
        for problem in problems:
            print(f"  {problem}")
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
