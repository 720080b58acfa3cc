"""Lesson 03b (the play table): how long one decision takes, bots' replies and redraw included.

Run: ``python benchmarks/bench_play.py [--decisions N]``. Prints numbers; nothing is asserted.
For each game a seeded table is played by pressing "Do it" on the first offered choice (what
the tests do); every press is timed in wall-clock and CPU time: the person's action, all the
bots' replies until the person decides again, the new choices and the redraw of the map (PNG
included; the browser's own paint time is not). The redraw alone is timed too. The target is
a median under 150 ms for the redraw of a step.
"""

from __future__ import annotations

import argparse
import statistics
import time

import matplotlib

matplotlib.use("Agg")

from luckylab.viz.play import PlayTable  # noqa: E402


def bench(game: str, players: int, decisions: int) -> None:
    walls, cpus, draws, seed = [], [], [], 0
    start = time.perf_counter()
    table = PlayTable(game, players=players, you=1, seed=seed)
    build = time.perf_counter() - start
    while len(walls) < decisions:
        if table.game.is_over:
            seed += 1
            table = PlayTable(game, players=players, you=1, seed=seed)
        wall, cpu = time.perf_counter(), time.process_time()
        table.go_button.click()  # first group, first choice: what a new decision offers
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        draws.append(table.last_redraw)
    click = next((c for cs in table.choices.values() for c in cs if c.space), None)
    focus = []
    if click is not None:
        for _ in range(10):
            wall = time.perf_counter()
            table.select_space(click.space)
            focus.append(time.perf_counter() - wall)
            table.focused = None

    def ms(values: list[float]) -> str:
        return f"median {1000 * statistics.median(values):6.1f} ms, worst " \
               f"{1000 * max(values):6.1f} ms"

    print(f"{game} ({players} players, {decisions} decisions, seeds 0..{seed}); "
          f"first paint {1000 * build:.0f} ms")
    print(f"  Do it -> bots -> redraw, wall: {ms(walls)}")
    print(f"  Do it -> bots -> redraw, CPU:  {ms(cpus)}")
    print(f"  redraw alone (PNG),      wall: {ms(draws)}")
    if focus:
        print(f"  click a space (select + redraw): {ms(focus)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=40)
    args = parser.parse_args()
    for game, players in (("island", 4), ("kill", 4), ("save", 4)):
        bench(game, players, args.decisions)


if __name__ == "__main__":
    main()
