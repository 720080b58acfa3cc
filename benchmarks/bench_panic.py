"""Panic Island! throughput: whole games per second for each bot, and the cost of the lessons.

Run: ``python benchmarks/bench_panic.py`` (``--quick`` for a short run). Prints one line per
measurement: games per second against wall-clock time and against this process's CPU time
(the latter is what one core delivers when other work shares the machine).
"""

from __future__ import annotations

import argparse
import time

from luckylab import simulate
from luckylab.agents.panic import AGENTS
from luckylab.analysis.memory import gouga_sweep, play, score_by_memory


def rate(fn, games: int) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return games / (time.perf_counter() - wall), games / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args()
    games = 100 if args.quick else 500

    play("perfect", seed=999)  # warm caches (data file, board)
    for name in AGENTS:
        if name == "random":
            wall, cpu = rate(lambda: simulate("panic", players=4, games=games, seed=1,
                                              agents="random"), games)
        else:
            wall, cpu = rate(lambda n=name: [play(n, seed=s) for s in range(games)], games)
        print(f"panic {name:>9} team bot: {wall:8.0f} games/s wall, {cpu:8.0f} games/s cpu")
    wall, cpu = rate(lambda: simulate("panic", players=4, games=games, seed=1), games)
    print(f"panic simulate(), one perfect bot per seat: {wall:8.0f} games/s wall, "
          f"{cpu:8.0f} games/s cpu")

    start = time.perf_counter()
    score_by_memory(games=200, seed=0)
    print(f"notebook 07 score_by_memory(3 x 200 games): {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    gouga_sweep((None, 0, 10, 20, 30, 40, 50, 60, 80, 100), games=150, seed=0)
    print(f"notebook 07 gouga_sweep(10 x 150 games): {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
