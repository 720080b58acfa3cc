"""``luckylab student-copy SOURCE --out DIR``: the lessons without their solutions, for students.

Writes each lesson of ``SOURCE`` (``NN_name.ipynb``) into ``DIR`` without the cells tagged
``solution`` and with the outputs of the cells tagged ``exercise`` cleared; everything else is
kept. Refuses to write into ``SOURCE`` or a folder inside it, and writes nothing when a
``solution`` tag sits on a cell that is not a solution (see :mod:`luckylab.lessons.student_copy`).
"""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "student-copy", help="copy the lessons without their solution cells, for students",
        description="Write each lesson without the cells tagged 'solution' and with the "
                    "outputs of the cells tagged 'exercise' cleared.")
    p.add_argument("source", help="the lessons folder, e.g. notebooks/")
    p.add_argument("--out", required=True,
                   help="the folder to write the copies into (not inside the lessons folder)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..lessons.student_copy import write_student_copies

    reports = write_student_copies(args.source, args.out)
    for r in reports:
        print(f"{r.target}: {r.solution_cells_removed} solution cell(s) removed, "
              f"{r.exercise_outputs_cleared} exercise output(s) cleared")
    print(f"{len(reports)} student cop{'y' if len(reports) == 1 else 'ies'} in {args.out}")
    return 0
