"""Loading big boards: time and peak memory for graph boards of 24, 100, 400 and 1,000 spaces.

Each board is a numbered ring (Doctor Lucky's path) with a chord every tenth space, written as
a TOML file and loaded with :func:`luckylab.load_board`; then every space is asked one
``reachable(space, 3)``, ``visible_from`` and ``distance`` (what a game asks), so the lazily
filled tables are counted too. Peak memory is measured with ``tracemalloc``; CPU time beside
wall-clock time.

Run: ``PYTHONPATH=$PWD python benchmarks/bench_load.py`` (add ``--sizes 24 100`` to choose).
"""

from __future__ import annotations

import argparse
import tempfile
import time
import tracemalloc
from pathlib import Path

from luckylab.boards import load_board

SIZES = (24, 100, 400, 1000)


def ring_toml(n: int) -> str:
    """A graph-format board: spaces 1..n in a ring, plus a chord from every tenth space."""
    adjacent: dict[int, set[int]] = {i: {i % n + 1, (i - 2) % n + 1} for i in range(1, n + 1)}
    for i in range(1, n + 1, 10):
        j = (i + n // 2 - 1) % n + 1
        if j != i:
            adjacent[i].add(j)
            adjacent[j].add(i)
    lines = ['format = "graph"', f'name = "Ring {n}"', 'status = "reconstruction"',
             'kinds = ["room"]', "", "[start]", 'players = "S1"', 'doctor = "S1"', ""]
    for i in range(1, n + 1):
        names = ", ".join(f'"S{a}"' for a in sorted(adjacent[i]))
        lines += ["[[spaces]]", f"number = {i}", f'name = "S{i}"', 'kind = "room"',
                  f"pos = [{i}.0, 0.0]", f"adjacent = [{names}]", ""]
    return "\n".join(lines)


def measure(path: Path) -> tuple[float, float, float, float, float]:
    """(load wall s, load CPU s, use wall s, peak MB, file KB) for one board file."""
    tracemalloc.start()
    w0, c0 = time.perf_counter(), time.process_time()
    board = load_board(path)
    w1, c1 = time.perf_counter(), time.process_time()
    first = board.spaces[0]
    for s in board.spaces:
        board.reachable(s, 3)
        board.visible_from(s)
        board.distance(first, s)
    w2 = time.perf_counter()
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return w1 - w0, c1 - c0, w2 - w1, peak, path.stat().st_size / 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    args = parser.parse_args()
    print(f"{'spaces':>7} {'file KB':>8} {'load s':>8} {'load CPU s':>10} {'use s':>7} "
          f"{'peak MB':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            path = Path(tmp) / f"ring{n}.toml"
            path.write_text(ring_toml(n), encoding="utf-8")
            load, cpu, use, peak, kb = measure(path)
            print(f"{n:>7} {kb:>8.1f} {load:>8.3f} {cpu:>10.3f} {use:>7.3f} {peak:>8.1f}")


if __name__ == "__main__":
    main()
