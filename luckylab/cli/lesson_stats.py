"""``luckylab lesson-stats [FOLDER] [--check]``: words of prose and code cells per lesson.

The same table as ``python -m luckylab.lessons.stats`` (see :mod:`luckylab.lessons.stats` for
what is counted and the limits of one 50-minute class).
"""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from ..lessons.stats import add_arguments, run

    p = subparsers.add_parser(
        "lesson-stats", help="words of prose and code cells per lesson, against the limits",
        description="Count each lesson's words of prose (markdown not tagged solution) and code "
                    "cells (not tagged exercise or solution).")
    add_arguments(p)
    p.set_defaults(func=run)
