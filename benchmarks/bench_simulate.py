"""Simulation throughput against the targets of issue 14, and what streaming costs in memory.

Run: ``python benchmarks/bench_simulate.py`` (``--quick`` for a short run; ``--only island``
to pick engines). For every engine and agent it prints games per CPU-second and per wall-clock
second (best of three runs) for the fast path ``simulate`` takes with the bundled bots (quiet,
trusted) and for the fully checked path (``checked=True``: every action validated, every event
written), beside the target. CPU time is what one core delivers while other work shares the
machine; wall-clock rates drop when it is busy.

``--baseline DIR`` also times an older checkout (a directory holding its ``luckylab`` package,
e.g. made with ``git archive OLD luckylab | tar -x -C DIR``) in fresh processes, alternating
with this one, and prints the speed-up: on a shared machine a ratio measured side by side is
steadier than two rates measured an hour apart.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

from timing import games_per_second

from luckylab.simulation import Summary, iter_simulate, simulate

# (engine, players, agents, games per timed run, target in games per CPU-second or None)
# Targets: Island 4p >= 1,200 and Kill 4p >= 1,634 with the default bots; Save and Panic at
# least twice the rate before issue 14 (measured side by side with --baseline); every random
# agent >= 500 at 2 and 4 players.
ROWS = [
    ("island", 4, None, 400, 1200), ("kill", 4, None, 400, 1634),
    ("save", 4, None, 300, None), ("panic", 4, None, 600, None),
    ("island", 2, "random", 60, 500), ("island", 4, "random", 60, 500),
    ("kill", 2, "random", 60, 500), ("kill", 4, "random", 60, 500),
    ("save", 4, "random", 100, 500), ("save", 3, "random", 100, 500),
    ("panic", 2, "random", 400, 500), ("panic", 4, "random", 400, 500),
]

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
import luckylab
g, p, a, n = json.loads(sys.argv[1])
luckylab.simulate(g, players=p, games=3, seed=99, agents=a)
cpu = time.process_time()
luckylab.simulate(g, players=p, games=n, seed=1, agents=a)
print(n / max(time.process_time() - cpu, 1e-9))
"""


def side_by_side(baseline: str, game: str, players: int, agents: str | None, games: int,
                 rounds: int = 3) -> tuple[float, float]:
    """Best CPU rate of the baseline checkout and of this one, alternating fresh processes."""
    here = str(Path(__file__).resolve().parent.parent)
    best = {baseline: 0.0, here: 0.0}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for _ in range(rounds):
        for root in (baseline, here):
            out = subprocess.run([sys.executable, "-c", _CHILD,
                                  json.dumps([game, players, agents, games]), root],
                                 capture_output=True, text=True, check=True, env=env)
            best[root] = max(best[root], float(out.stdout))
    return best[baseline], best[here]


def streaming_memory(games: int) -> tuple[float, float]:
    """Peak traced memory (MB) of a list from simulate vs a Summary fed by iter_simulate."""
    tracemalloc.start()
    simulate("island", players=4, games=games, seed=3)
    listed = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    totals = Summary()
    for _, result in iter_simulate("island", players=4, games=games, seed=3, detail=False):
        totals.add(result)
    streamed = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return listed / 1e6, streamed / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", nargs="+", default=None, metavar="ENGINE")
    parser.add_argument("--baseline", default=None, metavar="DIR")
    args = parser.parse_args()
    scale = 0.25 if args.quick else 1.0
    print(f"{'engine':<7} {'pl':>2} {'agents':<8} {'fast cpu/s':>10} {'wall/s':>8} "
          f"{'checked cpu/s':>13} {'wall/s':>8} {'target':>7}"
          + ("  baseline cpu/s  speed-up" if args.baseline else ""))
    for game, players, agents, games, target in ROWS:
        if args.only and game not in args.only:
            continue
        n = max(10, int(games * scale))
        wall, cpu = games_per_second(game, players, n, agents)
        c_wall, c_cpu = games_per_second(game, players, n, agents, checked=True)
        line = (f"{game:<7} {players:>2} {agents or 'default':<8} {cpu:10.1f} {wall:8.1f} "
                f"{c_cpu:13.1f} {c_wall:8.1f} {target or '2x':>7}")
        if args.baseline:
            old, new = side_by_side(args.baseline, game, players, agents, n)
            line += f"  {old:14.1f}  {new / old:7.2f}x"
        print(line, flush=True)
    listed, streamed = streaming_memory(200 if args.quick else 1000)
    print(f"peak memory, {200 if args.quick else 1000} Island games: list of results "
          f"{listed:.1f} MB, streamed into a Summary {streamed:.2f} MB")


if __name__ == "__main__":
    main()
