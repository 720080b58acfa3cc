"""``luckylab student-copy SOURCE --out DIR``: the lessons without their solutions, for students.

Writes each lesson of ``SOURCE`` (``NN_name.ipynb``) into ``DIR`` without the cells tagged
``solution`` and with the outputs of the cells tagged ``exercise`` cleared; an exercise that had
only a solution under it gets an empty "your answer" cell; everything else is kept. Works on a
plain install (the notebooks are read and written as JSON, no nbformat). Refuses to write into
``SOURCE`` or a folder inside it, and writes nothing when a ``solution`` tag sits on a cell that
is not a solution (see :mod:`luckylab.lessons.student_copy`).
"""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from ..lessons.student_copy import DESCRIPTION, add_arguments, run

    p = subparsers.add_parser(
        "student-copy", help="copy the lessons without their solution cells, for students",
        description=DESCRIPTION)
    add_arguments(p)
    p.set_defaults(func=run)
