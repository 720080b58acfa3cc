"""Lesson 09 (Save Doctor Lucky): widget redraws, the cautious bot's games/s, notebook workloads.

Run: ``python benchmarks/bench_ship.py [--repeats N] [--games G]``. Prints numbers; nothing is
asserted. Widget times are measured in plain Python: the handlers a button click runs, PNG
included (the browser's own paint time is not). The target for a step redraw is 150 ms.
"""

from __future__ import annotations

import argparse
import time

import matplotlib

matplotlib.use("Agg")

from timing import timed  # noqa: E402

from luckylab.analysis.sinking import (  # noqa: E402
    patience_sweep,
    simulate_mixes,
    witness_odds,
)
from luckylab.simulation import simulate  # noqa: E402
from luckylab.viz.ship import ShipStepper, draw_ship  # noqa: E402


def once(label: str, action) -> float:
    start = time.perf_counter()
    action()
    seconds = time.perf_counter() - start
    print(f"{label:<52} {seconds:7.2f} s")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    n, games = args.repeats, args.games

    start = time.perf_counter()
    stepper = ShipStepper(players=4, seed=1, agents="cautious")
    print(f"{'ShipStepper: build (first full paint)':<52} "
          f"{1000 * (time.perf_counter() - start):7.1f} ms")
    timed("ShipStepper: Step (decide, apply, redraw)", stepper.step, n)
    timed("ShipStepper: update + fast PNG only",
          lambda: (stepper.drawing.update(stepper.game), stepper.drawing.render_png()), n)
    timed("   (for comparison: full repaint, savefig)", stepper.drawing.png, min(n, 5))
    timed("ShipStepper: Reset", stepper.reset, min(n, 5))
    timed("ShipStepper: To next sinking", stepper.play_to_sinking, 3)
    timed("draw_ship: a new figure of a game", lambda: draw_ship(stepper.game).png(), 3)

    for bot in ("greedy", "rider", "cautious", "random"):
        simulate("save", players=4, games=3, seed=99, agents=bot)  # warm the caches
        wall, cpu = time.perf_counter(), time.process_time()
        simulate("save", players=4, games=games, seed=1, agents=bot)
        print(f"{'games/s, 4 ' + bot + ' bots':<52} {games / (time.perf_counter() - wall):7.1f}"
              f"   (per CPU second {games / (time.process_time() - cpu):7.1f})")

    print("notebook 09 workloads:")
    once("  witness_odds(others=3), exact", lambda: witness_odds(others=3))
    once("  simulate_mixes, 5 tables x 100 games, 4 players",
         lambda: simulate_mixes({"g": "greedy", "r": "rider", "c": "cautious",
                                 "m": ["greedy", "cautious"] * 2, "x": "random"},
                                players=4, games=100, seed=2026))
    once("  patience_sweep, 4 x 100 games, 3 players",
         lambda: patience_sweep([0, 1, 2, 3], players=3, games=100, seed=2026))


if __name__ == "__main__":
    main()
