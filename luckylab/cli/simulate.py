"""``luckylab simulate``: play many seeded games with bots and print a summary."""

from __future__ import annotations

import argparse
import time


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("simulate", help="play many seeded games with bots")
    p.add_argument("--game", default="island", help="island, kill, save, panic or doctorwho")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--agents", nargs="+", default=None, metavar="NAME",
                   help="one agent name for every seat, or one per player (Player 1 first; "
                   "the Island's Strangers play the default) or per seat: one of the game's "
                   "bots (a wrong name lists them) or ismcts, the look-ahead bot (slow: up "
                   "to about a second a decision)")
    p.add_argument("--workers", type=int, default=0,
                   help="spread the games over this many processes (0: run here)")
    p.add_argument("--chunksize", type=int, default=None,
                   help="games per task sent to the workers (default: a few hundred at most)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..simulation import MAX_GAMES, Summary, iter_simulate, player_seats
    from . import check_whole, dumps

    check_whole("--players", args.players, 1, 8)
    check_whole("--games", args.games, 0, MAX_GAMES)
    check_whole("--seed", args.seed, 0)
    check_whole("--workers", args.workers, 0, 64)
    agents = args.agents[0] if args.agents and len(args.agents) == 1 else args.agents
    totals = Summary()  # computed on the fly: constant memory for any number of games
    run_options = {"agents": agents, "detail": False, "progress": args.progress,
                   "chunksize": args.chunksize}
    start = time.perf_counter()
    if args.workers > 0:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.workers) as pool:
            for _, result in iter_simulate(args.game, args.players, args.games, args.seed,
                                           executor=pool, **run_options):
                totals.add(result)
    else:
        for _, result in iter_simulate(args.game, args.players, args.games, args.seed,
                                       **run_options):
            totals.add(result)
    summary = {"game": args.game, "players": args.players, "seed": args.seed,
               **totals.as_dict(time.perf_counter() - start)}
    if args.json:
        print(dumps(summary))
        return 0
    print(f"{summary['games']} games of {args.game} with {args.players} players "
          f"(seed {args.seed}): {summary['finished']} finished, "
          f"{summary['mean_turns']} turns on average, "
          f"{summary['games_per_second']} games per second")
    for line in win_lines(summary, player_seats(args.game, args.players)):
        print(f"  {line}")
    return 0


def win_lines(summary: dict, seats: list[int]) -> list[str]:
    """The wins as people count players (from 1), the Strangers' together (the JSON keeps
    ``wins_by_seat``, seats from 0). ``seats``: the seats players sit in, Player 1's first.

    >>> win_lines({"wins_by_seat": {"0": 10, "1": 12, "2": 21, "3": 7}, "stranger_wins": 19},
    ...           [0, 2])
    ['Player 1: 10 wins', 'Player 2: 21 wins', 'Strangers: 19 wins']
    >>> win_lines({"wins_by_seat": {}, "stranger_wins": 0, "won": 3, "mean_score": 8.5,
    ...            "games": 4}, [0, 1, 2])
    ['the team won 3 of 4 games, mean score 8.5']
    """
    def won(n: int) -> str:
        return f"{n} win{'' if n == 1 else 's'}"

    wins = summary["wins_by_seat"]
    lines = [f"Player {k}: {won(wins.get(str(seat), 0))}" for k, seat in enumerate(seats, 1)
             if "won" not in summary]
    if summary.get("stranger_wins") or set(wins) - {str(s) for s in seats}:
        lines.append(f"Strangers: {won(summary['stranger_wins'])}")
    if "won" in summary:
        lines.append(f"the team won {summary['won']} of {summary['games']} games, "
                     f"mean score {summary['mean_score']}")
    return lines
