"""Island engine throughput: whole games, sight and reach lookups, a process pool.

Run: ``python benchmarks/bench_island.py`` (add ``--quick`` for a short run). Prints one line
per measurement; game rates are the best of three runs. Games per second are reported both
against wall-clock time and against the process's CPU time (the latter is what one core
delivers when other work shares the machine).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from timing import games_per_second

import luckylab
from luckylab.simulation import simulate


def lookups_per_second(n: int) -> tuple[float, float]:
    board = luckylab.load_board("isla-fortuna")
    rng = random.Random(0)
    spaces = list(board.spaces)
    cats = [None, *spaces]
    queries = [(rng.choice(spaces), rng.choice(spaces), rng.choice(cats)) for _ in range(n)]
    sees = board.sees
    start = time.perf_counter()
    for a, b, cat in queries:
        sees(a, b, cat)
    sight_rate = n / (time.perf_counter() - start)
    reach = board.reachable
    steps = [(a, rng.randint(0, 4)) for a, _, _ in queries]
    start = time.perf_counter()
    for a, k in steps:
        reach(a, k)
    return sight_rate, n / (time.perf_counter() - start)


def pool_speedup(games: int, repeats: int = 3) -> tuple[float, float, float]:
    """Serial vs ``ProcessPoolExecutor(2)``: the best of ``repeats`` runs of each, since this
    virtual machine's speed drifts by tens of percent from one run to the next."""
    serial = parallel = float("inf")
    with ProcessPoolExecutor(2) as pool:
        simulate("island", players=4, games=20, seed=4, executor=pool)  # start the workers
        for _ in range(repeats):
            start = time.perf_counter()
            simulate("island", players=4, games=games, seed=3)
            serial = min(serial, time.perf_counter() - start)
            start = time.perf_counter()
            simulate("island", players=4, games=games, seed=3, executor=pool)
            parallel = min(parallel, time.perf_counter() - start)
    return serial, parallel, serial / parallel


def import_is_light() -> bool:
    import subprocess

    code = ("import sys, luckylab; "
            "print(any(m.split('.')[0] in ('matplotlib', 'ipywidgets') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip() == "False"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_games = 200 if args.quick else 1000
    for players in (4,) if args.quick else (2, 4, 6, 8):
        wall, cpu = games_per_second("island", players, n_games)
        print(f"island {players} players, default agents: {wall:7.1f} games/s wall, "
              f"{cpu:7.1f} games/s per CPU-second")
    for agents in ("aggressive", "random"):
        wall, cpu = games_per_second("island", 4, n_games // 4, agents)
        print(f"island 4 players, {agents} agents: {wall:7.1f} games/s wall, {cpu:7.1f} per CPU-s")
    sight, reach = lookups_per_second(200_000 if args.quick else 1_000_000)
    print(f"board.sees: {sight / 1e6:.2f} M lookups/s; board.reachable: {reach / 1e6:.2f} M/s")
    serial, parallel, speedup = pool_speedup(400 if args.quick else 2000)
    print(f"ProcessPoolExecutor(2), {400 if args.quick else 2000} games, best of 3: "
          f"serial {serial:.2f} s, pool {parallel:.2f} s, speed-up {speedup:.2f}x")
    print(f"import luckylab leaves matplotlib and ipywidgets unloaded: {import_is_light()}")


if __name__ == "__main__":
    main()
