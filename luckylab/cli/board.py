"""``luckylab board NAME [--json]``: a board's spaces, edges and sight table."""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("board", help="print a board: spaces, edges, sight table")
    p.add_argument("name", help="isla-fortuna, kill-doctor-lucky, save-doctor-lucky, panic-island, "
                                "or a board file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..boards import load_board
    from . import dumps

    board = load_board(args.name)
    data = board.to_dict()
    if args.json:
        print(dumps(data, indent=1))
        return 0
    print(f"{board.name} ({board.status}): {len(board)} spaces, diameter {board.diameter}")
    for space in data["spaces"]:
        number = "" if space["number"] is None else f"{space['number']:>2} "
        plane = " (airplane)" if space["airplane"] else ""
        seen = ", ".join(s for s in data["sight"][space["name"]] if s != space["name"])
        print(f"{number}{space['name']} [{space['kind']}]{plane}: sees {seen}")
    return 0
