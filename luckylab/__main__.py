"""``python -m luckylab``: the command line (``python -m luckylab --help``)."""

from __future__ import annotations

import argparse
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="luckylab",
        description="Doctor Lucky games for lessons in probability and game theory.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=version_line(),
        help="print luckylab's version and where it runs from, then exit",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # the modules of luckylab.cli.COMMANDS, imported by name so the import graph shows them
    from .cli import board, foil, lab, lesson_stats, lite, simulate, student_copy, tournament

    for module in (board, foil, lab, lite, simulate, student_copy, lesson_stats, tournament):
        module.add_parser(subparsers)
    return parser


def version_line() -> str:
    """``luckylab 0.1.0 (Python 3.11.7, /path/to/luckylab)``: which luckylab runs, and where.

    Examples
    --------
    >>> version_line().startswith("luckylab ")
    True
    """
    from . import __version__

    python = ".".join(str(part) for part in sys.version_info[:3])
    return f"luckylab {__version__} (Python {python}, {os.path.dirname(__file__)})"


def main(argv: list[str] | None = None) -> int:
    """Run one command; a bad invocation prints ``luckylab: error: ...`` and returns 2."""
    from .errors import LuckyLabError

    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except LuckyLabError as exc:
        print(f"luckylab: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # piped into head: the reader left; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
