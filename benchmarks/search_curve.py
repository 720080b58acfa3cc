"""The budget-strength curve of the baseline look-ahead bot "pimc" (determinized voting), measured.

Run: ``python benchmarks/search_curve.py --games 400 --jobs 2`` (writes
``luckylab/data/search_curve.json``; ``--out`` elsewhere, ``--budgets 0 8 16 32 64`` the budgets).

For each setting (a game, a player count and the readable bot in every other seat) Player 1 is
played by the determinized-voting bot ``pimc`` (``luckylab.agents.search``; it was named
"ismcts" when ``luckylab/data/search_curve.json`` was measured) with a budget of ``b``
iterations (simulated games) per decision, on the same seeded deals for every budget. Budget 0
is the bot the search falls back on and rolls out with (its *rollout bot*), played as itself:
the curve starts from the rule the search tries to improve on. The settings:

- the Island, 2 players, a cautious opponent (the search rolls out with the cautious bot too);
- Kill, 2 players, an opportunist opponent (rollouts by the opportunist bot).

The JSON file labels every fact: where it comes from (``source``, ``command``), the luckylab
version and git commit, the seed of the deals, the games and wins of every point, and the
search's own settings (exploration constant, determinizations, margin) as they were when
measured. Win rates and intervals are not stored: they follow from ``wins`` and ``games``.
CPU seconds per game are stored beside the wins (time.process_time, summed over Player 1's
decisions), for the cost side of the curve.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from pathlib import Path

import luckylab
from luckylab.agents import agent_class
from luckylab.simulation import game_seeds

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "luckylab" / "data" / "search_curve.json"
SOURCE = "measured by benchmarks/search_curve.py"
SETTINGS = (("island", 2, "cautious"), ("kill", 2, "opportunist"))
BUDGETS = (0, 8, 16, 32, 64)
SEED = 1100


def live_seats(game) -> list[int]:
    """The seats of the players (the Island's Strangers left out), in seat order."""
    seats = getattr(game, "seats", None) or range(game.players)
    return [s for s in seats if not getattr(game, "is_stranger", lambda s: False)(s)]


def play(job: tuple[str, int, str, int, int]) -> tuple[bool, float, str]:
    """One game: Player 1 searches with ``budget`` iterations (0: plays its rollout bot),
    every other player is ``opponent``. Returns (Player 1 won, its CPU seconds, rollout bot)."""
    game_name, players, opponent, budget, seed = job
    game = luckylab.new_game(game_name, players=players, seed=seed)
    live = live_seats(game)
    me = live[0]
    search = agent_class(game_name, "pimc")(seed=seed % 2**32 + me, iterations=max(budget, 1))
    rollout = search.rollout_for(game)
    bots = {seat: agent_class(game_name, opponent)(seed=seed % 2**32 + seat)
            for seat in live[1:]}
    bots[me] = search if budget else agent_class(game_name, rollout)(seed=seed % 2**32 + me)
    spent = 0.0
    while not game.is_over:
        seat = game.current_player
        if seat == me:
            start = time.process_time()
            action = bots[me].choose(game)
            spent += time.process_time() - start
        else:
            action = bots[seat].choose(game)
        game.apply(action)
    return game.winner == me, spent, rollout


def commit() -> str:
    """The git commit measured, with ``+dirty`` when the code (``luckylab/``, ``benchmarks/``,
    the output file apart) differs from it; ``unknown`` outside a git checkout."""
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--",
                                "luckylab", "benchmarks", f":!{OUT.relative_to(ROOT)}"],
                               cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return sha + ("+dirty" if dirty.strip() else "")


def search_settings(game_name: str) -> dict[str, object]:
    """The look-ahead bot's own settings (its defaults, apart from the budget)."""
    bot = agent_class(game_name, "pimc")(seed=0)
    return {"determinizations": bot.determinizations, "exploration": bot.exploration,
            "margin": bot.margin, "depth": bot.depth}


def measure(games: int, budgets: list[int], seed: int, jobs: int) -> list[dict[str, object]]:
    seeds = game_seeds(seed, games)
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    run = (lambda f, xs: pool.map(f, xs, chunksize=4)) if pool else map
    settings = []
    try:
        for game_name, players, opponent in SETTINGS:
            points = []
            rollouts: set[str] = set()
            for budget in budgets:
                wall = time.perf_counter()
                results = list(run(play, [(game_name, players, opponent, budget, s)
                                          for s in seeds]))
                wall = time.perf_counter() - wall
                wins = sum(r[0] for r in results)
                rollouts.update(r[2] for r in results)
                cpu = sum(r[1] for r in results) / games
                points.append({"budget": budget, "games": games, "wins": wins, "seed": seed,
                               "cpu_seconds_per_game": round(cpu, 3)})
                print(f"{game_name} {players}p vs {opponent}, budget {budget:>3}: "
                      f"{wins}/{games} wins, {cpu:.2f} CPU s/game (wall {wall:.0f} s)",
                      flush=True)
            settings.append({
                "game": game_name, "players": players, "opponent": opponent,
                "searcher": "Player 1", "rollout_bot": "/".join(sorted(rollouts)),
                "search_settings": search_settings(game_name), "points": points,
            })
    finally:
        if pool:
            pool.shutdown()
    return settings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per point")
    parser.add_argument("--budgets", type=int, nargs="+", default=list(BUDGETS),
                        help="iterations per decision (0 = the rollout bot itself)")
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the deals")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file to write")
    args = parser.parse_args(argv)
    if args.games < 1 or any(b < 0 for b in args.budgets):
        parser.error("--games must be >= 1 and every budget >= 0")
    started, measured = time.perf_counter(), commit()  # the code as it was when the games began
    settings = measure(args.games, sorted(set(args.budgets)), args.seed, args.jobs)
    command = "python benchmarks/search_curve.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    data = {
        "source": SOURCE,
        "command": command.strip(),
        "luckylab_version": luckylab.__version__,
        "commit": measured,
        "date": date.today().isoformat(),
        "seed": args.seed,
        "games_per_point": args.games,
        "budget": "iterations (simulated games) per decision of Player 1; 0 = the rollout "
                  "bot itself, without search",
        "wall_seconds": round(time.perf_counter() - started),
        "settings": settings,
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
