"""A class tournament's cost: 10 bots (7 student bot files + the 3 bundled Island bots), 4-player
Island, 2,000 games, on 1 and on 2 worker processes; wall clock and CPU time.

Run: ``python benchmarks/bench_tournament.py`` (``--games N``, ``--workers 1 2``). Prints
numbers; nothing is asserted. Each student bot plays in its own worker process (one decision =
one round trip through a pipe), so the time depends on how busy the machine's cores are: say
how many cores the machine had, and how loaded, with the numbers.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from luckylab.tournament import run
from luckylab.tournament.run import close_workers

STUDENT_BOTS = {
    # name: (base class, body of the class)
    "lie-low": ("CautiousAgent", "pass"),
    "charge": ("AggressiveAgent", "pass"),
    "coin-flip": ("RandomIslandAgent", "pass"),
    "never-foil": ("CautiousAgent", "def foil(self, game, me):\n        return Foil(())"),
    "always-draw": ("AggressiveAgent",
                    "def phase1(self, game, me):\n        return Pass()"),
    "cat-lover": ("CautiousAgent",
                  "def phase1(self, game, me):\n"
                  "        if self.rng.random() < 0.2:\n"
                  "            return MoveCat(self.rng.choice(sorted(\n"
                  "                s for s in game.board.spaces if s != game.cat)))\n"
                  "        return super().phase1(game, me)"),
    "mixed": ("AggressiveAgent",
              "def phase2(self, game, me):\n"
              "        if self.rng.random() < 0.5:\n"
              "            return CautiousAgent.phase2(self, game, me)\n"
              "        return super().phase2(game, me)"),
}


def write_bots(folder: Path) -> None:
    for name, (base, body) in STUDENT_BOTS.items():
        (folder / f"{name}.py").write_text(
            f"LUCKYLAB_BOT = {{'name': {name!r}, 'game': 'island', 'class': 'Bot'}}\n"
            "from luckylab.agents.island import AggressiveAgent, CautiousAgent, "
            "RandomIslandAgent\n"
            "from luckylab.games.island import Foil, MoveCat, Pass\n\n"
            f"class Bot({base}):\n    {body}\n")


def cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    # every bot worker a child of its referee process, so that RUSAGE_CHILDREN counts it
    os.environ["LUCKYLAB_TOURNAMENT_START"] = "spawn"
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average before: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_bots(folder)
        tables = []
        for workers in args.workers:
            wall, cpu = time.perf_counter(), cpu_seconds()
            result = run(folder, game="island", players=4, games=args.games, seed=2026,
                         workers=workers, progress=False)
            close_workers()
            wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu  # workers reaped
            print(f"{workers} worker process{'es' * (workers > 1)}: {result.games} games, "
                  f"{len(result.entrants)} bots: {wall:7.1f} s wall, {cpu:7.1f} s CPU "
                  f"(all processes), {result.games / wall:6.1f} games/s, "
                  f"{len(result.failures)} failures")
            tables.append(result.leaderboard())
        if len(tables) > 1:
            print("same leaderboard on every worker count:",
                  all(t == tables[0] for t in tables))
        print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print()
        print(result.to_text())


if __name__ == "__main__":
    main()
