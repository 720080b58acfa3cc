"""What the lesson tests share: which notebooks to test and how to build small ones.

The tests run over whatever lessons are in ``notebooks/``; set ``LUCKYLAB_NOTEBOOKS`` to test
another folder (for example a copy of a lesson branch's notebooks)::

    LUCKYLAB_NOTEBOOKS=/tmp/lessons PYTHONPATH=$PWD python -m pytest tests/test_lesson_style.py

``OLD_STYLE`` holds the SHA-256 of the ten lessons as they were before the house style: those
exact files (and only they) are expected to fail the house-style checks, so their tests are
marked xfail; any edit to such a file changes its hash and the full checks apply to it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = Path(os.environ.get("LUCKYLAB_NOTEBOOKS", REPO / "notebooks"))

OLD_STYLE = {
    "00a8fa18b2b78faa3196905a5c15d25280ef3505dd924b6790303981933ebd77": "00_start_here",
    "147b19e1517d7e57eb36516bf8c2ee8b7154c75a66cbbe99aa48ed061d1dd47e": "01_island_as_a_graph",
    "77250e8be5af6cb0128c8a85b2fc0dc350811d7b4ac2bbd105702553cf1129ec": "02_who_sees_whom",
    "cf1ca83ffce232df17bb7649c27f7b9318d3bd9fe2fd27711d5709359b50d670": "03_stepping_through",
    "aeeef4bdd694deb8897af46b1c2fceedd45170908c9ab502d97764f0aa632809": "04_probability_of_foiling",
    "ba84d418dcefec2d6e5154ec323d9181b2774473a6183ed6c4271f51f27eba23": "05_volunteers_dilemma",
    "1cfa517f414fd173c9efc47850a9400806e9e7a9943bb831f822099c2b5bc135": "06_strategy_tournament",
    "84051c6009a65dddf8a7c00af5b61449b33c5da1d972e53edfd17519bf1aaba4": "07_panic_island",
    "afa8e95a3e5178df4ade967421928bb0d8ae1d6effda456656cd51f00440272a": "08_straight_line_sight",
    "2b5b532fc97fc8c3c8817355fcb8baf9c405b95dae21e8b3d9891d60f38c0e06": "09_save_doctor_lucky",
}
OLD_STYLE_REASON = "this exact file predates the house style (being rewritten on a lesson branch)"


def lesson_files() -> list[Path]:
    """The lessons in the folder under test (empty when there is none)."""
    from luckylab.lessons.notebook import is_lesson

    if not NOTEBOOKS.is_dir():
        return []
    return sorted(p for p in NOTEBOOKS.iterdir() if p.is_file() and is_lesson(p))


def is_old_style(path: Path) -> bool:
    return hashlib.sha256(path.read_bytes()).hexdigest() in OLD_STYLE


def lesson_params(*, old_style: str = "xfail", slow: bool = False) -> list:
    """One ``pytest.param`` per lesson, id = file name.

    ``old_style``: what to do with a pre-house-style file: "xfail" (strict: it must fail),
    "xfail-lax" (it may pass) or "run".
    """
    params = []
    for path in lesson_files():
        marks = [pytest.mark.slow] if slow else []
        if old_style != "run" and is_old_style(path):
            marks.append(pytest.mark.xfail(reason=OLD_STYLE_REASON,
                                           strict=old_style == "xfail"))
        params.append(pytest.param(path, id=path.name, marks=marks))
    return params


def house_style_lesson(prefix: str = "04", title: str = "Will my attack be foiled?",
                       next_link: str | None = None, exercise_id: str | None = None):
    """A small notebook in the house style (unexecuted except for the stored outputs given).

    Its exercise is "<prefix>.1"; give ``exercise_id="demo.1"`` (answer 6, in the package's
    demo answers) for a notebook that must execute.
    """
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    from luckylab.lessons.notebook import title_number

    number = title_number(prefix)
    exercise_id = exercise_id or f"{prefix}.1"
    recap = "## Recap\n\n- one\n- two\n- three\n"
    if next_link:
        recap += f"\n{next_link}\n"
    cells = [
        new_markdown_cell(
            f"# {number}. {title}\n\n**Objectives.** By the end you can\n- count a die's faces\n"
            "- check an answer\n\n**Prerequisites:** none.\n\n**Time:** 50 minutes."),
        new_code_cell("import luckylab\nSEED = 1",
                      outputs=[]),
        new_markdown_cell("## Story\n\nA die."),
        new_markdown_cell("## Question\n\nHow many faces?"),
        new_markdown_cell("## The maths\n\n$6$."),
        new_code_cell("print(2 * 3)", outputs=[new_output("stream", name="stdout", text="6\n")]),
        new_markdown_cell("## Play\n\nRoll it."),
        new_markdown_cell("## What to notice\n\n- Six."),
        new_markdown_cell("## Exercises\n\nTry these."),
        new_markdown_cell("**Exercise 1.** How many faces has a die?"),
        new_code_cell('answer = None   # your answer here\n'
                      f'luckylab.check("{exercise_id}", answer)',
                      metadata={"tags": ["exercise"]},
                      outputs=[new_output("execute_result",
                                          {"text/plain": "not answered yet: replace None with "
                                                         "your answer."}, execution_count=2)]),
        new_code_cell('faces = len("SOLUTION-TEXT-123456")\n'
                      f'luckylab.check("{exercise_id}", 6)',
                      metadata={"tags": ["solution"]},
                      outputs=[new_output("execute_result", {"text/plain": "correct"},
                                          execution_count=3)]),
        new_markdown_cell("So a die has SOLUTION-PROSE-654321 six faces.",
                          metadata={"tags": ["solution"]}),
        new_markdown_cell(recap),
    ]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb
