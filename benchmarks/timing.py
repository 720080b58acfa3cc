"""Timing helpers shared by the benchmark scripts (run them as ``python benchmarks/NAME.py``).

This virtual machine's speed drifts by tens of percent between runs, so rates are the best of
several runs (as ``timeit`` reports) and latencies are medians with the worst case beside.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from luckylab.simulation import simulate


def games_per_second(game: str, players: int, games: int, agents: Any = None,
                     repeats: int = 3, **options: Any) -> tuple[float, float]:
    """Whole seeded games per second, best of ``repeats`` runs: (wall clock, CPU time).

    ``options`` go to :func:`luckylab.simulate` (``checked=True`` times the fully checked path).
    """
    simulate(game, players=players, games=3, seed=99, agents=agents, **options)  # warm caches
    best_wall = best_cpu = 0.0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        simulate(game, players=players, games=games, seed=1, agents=agents, **options)
        best_wall = max(best_wall, games / (time.perf_counter() - wall))
        best_cpu = max(best_cpu, games / max(time.process_time() - cpu, 1e-9))
    return best_wall, best_cpu


def timed(label: str, action: Callable[[], Any], repeats: int, width: int = 52) -> float:
    """Run ``action`` ``repeats`` times; print and return the median in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    median = statistics.median(times)
    print(f"{label:<{width}} median {median:7.1f} ms   worst {max(times):7.1f} ms   "
          f"(n={repeats})")
    return median
