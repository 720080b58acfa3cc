"""Doctor Who throughput: whole seeded games per second with each bot, wall clock and CPU time.

Run: ``python benchmarks/bench_doctorwho.py`` (``--games N`` for a longer run, ``--players 4``).
Prints numbers; nothing is asserted. Rates are the best of three runs (the machine is shared).
"""

from __future__ import annotations

import argparse
import time

from timing import games_per_second

from luckylab import new_game
from luckylab.agents.doctorwho import AGENTS


def bench_legal_actions(n: int = 2000) -> None:
    game = new_game("doctorwho", players=4, seed=1)
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(n):
        game.legal_actions()
    wall = (time.perf_counter() - start) / n * 1e6
    print(f"legal_actions at the start of a 4-player game: {wall:7.1f} us wall, "
          f"{(time.process_time() - cpu) / n * 1e6:7.1f} us CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    bench_legal_actions()
    for name in AGENTS:
        wall, cpu = games_per_second("doctorwho", args.players, args.games, agents=name)
        print(f"{args.players} x {name:<8} {wall:7.1f} games/s wall   {cpu:7.1f} games/s CPU")


if __name__ == "__main__":
    main()
