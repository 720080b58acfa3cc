"""How strong is the look-ahead bot? One ISMCTS seat against the readable bots.

Run: ``python benchmarks/bench_search.py`` (``--games N`` games per row, ``--iterations`` the
budget, ``--jobs`` worker processes). For every game (Island, Kill), player count (2, 4) and
opposition (every copy of one bundled bot, or a mix of them), seat 0 is played once by ISMCTS
and once by each readable bot, on the same seeded deals. A row prints:

- ISMCTS's win rate with its 95 % Wilson interval, against the fair share ``1 / players``;
- the best readable bot's win rate in the same seat against the same opponents and deals
  (its interval too);
- the verdict: ``fair`` when ISMCTS's interval lies above the fair share; ``margin`` when its
  interval lies above the best readable bot's win rate;
- the search's speed: searched decisions per CPU second, simulations per searched decision,
  CPU seconds per game.

The target (issue 13) is both verdicts on every row, with at least 400 games per row. Nothing is
asserted; the numbers are for the report. ``--json PATH`` also writes the rows, labelled with
their source, command, luckylab version, commit and seeds (rewritten after every row, so a long
run keeps what it finished); ``luckylab/data/search_strength.json`` is such a file, read by
lesson 11 through :func:`luckylab.analysis.search_strength.load_search_strength`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from pathlib import Path

import luckylab
from luckylab.agents import agent_class
from luckylab.agents.search import AGENTS as SEARCH
from luckylab.simulation import game_seeds

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_curve import commit  # noqa: E402  (the same commit label as the curve)

READABLE = {"island": ("cautious", "aggressive", "random"),
            "kill": ("opportunist", "patient", "random")}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval for ``wins`` out of ``n`` (never below 0 or above 1)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def opponents(game: str, players: int, opposition: str, index: int) -> list[str]:
    """The bots in seats 1.. : copies of one bot, or a mix (cycled by game for 2 players)."""
    bots = READABLE[game]
    if opposition != "mix":
        return [opposition] * (players - 1)
    if players == 2:
        return [bots[index % len(bots)]]
    return [bots[(index + k) % len(bots)] for k in range(players - 1)]


def play(args: tuple) -> tuple[bool, float, int, int]:
    """One game with ``seat0`` ("ismcts" or a readable bot) in seat 0: (won, CPU seconds of
    seat 0's decisions, searched decisions, simulations)."""
    game_name, players, seed, seat0, others, iterations = args
    game = luckylab.new_game(game_name, players=players, seed=seed)
    live = [s for s in range(len(getattr(game, "seats", range(players))))
            if not getattr(game, "is_stranger", lambda s: False)(s)]
    bots = {}
    for k, seat in enumerate(live):
        name = seat0 if k == 0 else others[k - 1]
        if name == "ismcts":
            bots[seat] = SEARCH[game_name](seed=seed % 2**32 + seat, iterations=iterations)
        else:
            bots[seat] = agent_class(game_name, name)(seed=seed % 2**32 + seat)
    me = bots[live[0]]
    spent = 0.0
    while not game.is_over:
        seat = game.current_player
        if seat == live[0]:
            start = time.process_time()
            action = me.choose(game)
            spent += time.process_time() - start
        else:
            action = bots[seat].choose(game)
        game.apply(action)
    return (game.winner == live[0], spent, getattr(me, "searched", 0),
            getattr(me, "simulations", 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="ISMCTS games per row")
    parser.add_argument("--baseline-games", type=int, default=None,
                        help="readable-bot games per row (default: as many as --games)")
    parser.add_argument("--iterations", type=int, default=32, help="ISMCTS budget per decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--games-only", choices=("island", "kill"), default=None)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4])
    parser.add_argument("--json", default=None, metavar="PATH",
                        help="also write the rows as JSON (rewritten after every row)")
    args = parser.parse_args()
    rows: list[dict] = []
    labels = {"source": "measured by benchmarks/bench_search.py",
              "command": "python benchmarks/bench_search.py " + " ".join(sys.argv[1:]),
              "luckylab_version": luckylab.__version__, "commit": commit(),
              "date": date.today().isoformat(), "iterations": args.iterations,
              "seeds": "luckylab.simulation.game_seeds(1300 + players, games); the ISMCTS seat "
                       "and each readable bot in its place play the same deals",
              "searcher": "Player 1 (the first seat that is not a Stranger)"}
    baseline_games = args.baseline_games or args.games
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    run = pool.map if pool else map

    print(f"ISMCTS budget: {args.iterations} iterations per decision, 4 determinizations, "
          f"default rollouts (Island: cautious with Strangers, aggressive without; Kill: "
          f"patient); {args.games} ISMCTS games and "
          f"{baseline_games} games per readable bot per row.")
    print("| game | players | opponents | fair | ISMCTS win (95 % CI) | best readable in seat "
          "(95 % CI) | fair? | margin? | searched dec/CPU s | sims/dec | CPU s/game |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game_name in ("island", "kill"):
        if args.games_only and game_name != args.games_only:
            continue
        for players in args.players:
            for opposition in (*READABLE[game_name], "mix"):
                seeds = game_seeds(1300 + players, max(args.games, baseline_games))
                jobs = [(game_name, players, s, "ismcts",
                         opponents(game_name, players, opposition, i), args.iterations)
                        for i, s in enumerate(seeds[:args.games])]
                wall = time.perf_counter()
                results = list(run(play, jobs))
                wall = time.perf_counter() - wall
                wins = sum(r[0] for r in results)
                cpu = sum(r[1] for r in results)
                searched = sum(r[2] for r in results)
                sims = sum(r[3] for r in results)
                best_name, best_wins = None, -1
                for bot in READABLE[game_name]:
                    base = [(game_name, players, s, bot,
                             opponents(game_name, players, opposition, i), 0)
                            for i, s in enumerate(seeds[:baseline_games])]
                    w = sum(r[0] for r in run(play, base))
                    if w > best_wins:
                        best_name, best_wins = bot, w
                n = len(results)
                lo, hi = wilson(wins, n)
                blo, bhi = wilson(best_wins, baseline_games)
                fair = 1 / players
                best_rate = best_wins / baseline_games
                print(f"| {game_name} | {players} | {opposition} | {fair:.2f} | "
                      f"{wins / n:.3f} ({lo:.3f}-{hi:.3f}), n={n} | {best_name} "
                      f"{best_rate:.3f} ({blo:.3f}-{bhi:.3f}), n={baseline_games} | "
                      f"{'yes' if lo > fair else 'no'} | {'yes' if lo > best_rate else 'no'} | "
                      f"{searched / max(cpu, 1e-9):.0f} | {sims / max(searched, 1):.0f} | "
                      f"{cpu / n:.2f} (wall {wall / n:.2f}) |", flush=True)
                rows.append({"game": game_name, "players": players, "opponents": opposition,
                             "games": n, "wins": wins, "best_readable": best_name,
                             "best_games": baseline_games, "best_wins": best_wins,
                             "iterations": args.iterations, "searched": searched,
                             "simulations": sims, "search_cpu_s": round(cpu, 3)})
                if args.json:
                    with open(args.json, "w", encoding="utf-8") as out:
                        json.dump({**labels, "rows": rows}, out, indent=1)
    if pool:
        pool.shutdown()


if __name__ == "__main__":
    main()
