"""``luckylab tournament BOTS_DIR``: play a class tournament of the bot files in a folder."""

from __future__ import annotations

import argparse


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "tournament", help="play a fair tournament of the bot files in a folder",
        description="Play every bot file of BOTS_DIR (saved with luckylab.tournament.save_bot) "
        "and the game's bundled bots against each other: duplicate deals, every seat in turn, "
        "each student bot in its own limited process. Prints the leaderboard.")
    p.add_argument("bots_dir", metavar="BOTS_DIR", help="the folder of bot files (*.py)")
    p.add_argument("--game", default="island", help="island, kill, save, panic or doctorwho")
    p.add_argument("--players", type=int, default=4, help="players in each game")
    p.add_argument("--games", type=int, default=2000,
                   help="games to play (rounded up to whole rotations of one deal)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--results", default=None, metavar="FILE",
                   help="append each game to this JSON-lines file; run again to continue")
    p.add_argument("--workers", type=int, default=1,
                   help="play games in this many processes at once")
    p.add_argument("--no-reference", action="store_true",
                   help="leave the game's bundled bots out")
    p.add_argument("--decision-seconds", type=float, default=1.0,
                   help="CPU seconds a bot may take for one decision")
    p.add_argument("--game-seconds", type=float, default=20.0,
                   help="CPU seconds a bot may take in one game")
    p.add_argument("--memory-mb", type=int, default=512,
                   help="how many MB a bot's process may grow by")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true",
                   help="print the leaderboard, seats and failures as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..tournament import Limits
    from ..tournament import run as play
    from . import check_whole, dumps

    check_whole("--players", args.players, 2, 8)
    check_whole("--games", args.games, 1, 10**6)
    check_whole("--seed", args.seed, 0)
    check_whole("--workers", args.workers, 1, 64)
    limits = Limits(decision_seconds=args.decision_seconds, game_seconds=args.game_seconds,
                    memory_mb=args.memory_mb,
                    wall_seconds=max(10.0, 5 * args.decision_seconds))
    result = play(args.bots_dir, game=args.game, players=args.players, games=args.games,
                  seed=args.seed, results=args.results, workers=args.workers,
                  reference=not args.no_reference, limits=limits,
                  progress=not args.no_progress)
    if args.json:
        print(dumps({"game": args.game, "players": args.players, "seed": args.seed,
                     "games": result.games, "leaderboard": result.leaderboard(),
                     "by_seat": result.by_seat(),
                     "failures": [f.__dict__ for f in result.failures],
                     "left_out": [str(p) for p in result.problems]}))
        return 0
    print(result.to_text())
    print()
    print("Wins by seat (all bots together):")
    for row in result.by_seat():
        if row["bot"] is None:
            print(f"  seat {row['seat']}: {row['wins']} of {row['games']} games "
                  f"({row['win_rate']:.1%}, 95% interval {row['win_low']:.1%}-"
                  f"{row['win_high']:.1%})")
    return 0
