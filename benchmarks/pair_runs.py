"""Pair two sides saved by ``bench_search_variants.py --save``, from the same or different runs.

Run: ``python benchmarks/pair_runs.py bot.json:variant search.json:base``. Each argument is a
saved file and the side in it (``base`` or ``variant``). The two sides must have played the same
row against the same opposition on the same deals (checked); the deals are then paired, and it
prints both means with their 95 % intervals and the paired difference (first - second) with
its interval: a run's side saved once can be compared with any later variant without playing
it again. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from luckylab.analysis.stats import mean_ci, paired_ci


def side(text: str) -> tuple[dict, dict]:
    """``FILE:SIDE`` -> (the saved run, that side)."""
    path, _, name = text.rpartition(":")
    if name not in ("base", "variant") or not path:
        raise SystemExit(f"{text!r}: give FILE:base or FILE:variant")
    run = json.loads(Path(path).read_text())
    return run, run[name]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", metavar="FILE:SIDE")
    parser.add_argument("second", metavar="FILE:SIDE")
    args = parser.parse_args()
    (run_a, a), (run_b, b) = side(args.first), side(args.second)
    for key in ("row", "opposition", "deals"):
        if run_a[key] != run_b[key]:
            raise SystemExit(f"not the same games: {key} {run_a[key]!r} and {run_b[key]!r}")
    for text, s in ((args.first, a), (args.second, b)):
        mean, low, high = mean_ci(s["returns"])
        print(f"{text}: {s['options']}: {mean:.3f} ({low:.3f} to {high:.3f})")
    diff = paired_ci(a["returns"], b["returns"])
    print(f"{run_a['row']} against {run_a['opposition']}, {run_a['deals']} deals: first - second "
          f"{diff[0]:+.3f} ({diff[1]:+.3f} to {diff[2]:+.3f})")


if __name__ == "__main__":
    main()
