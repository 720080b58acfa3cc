"""How fast do the lesson widgets redraw? (the target: a step redraw under 150 ms)

Run: ``python benchmarks/bench_widgets.py [--repeats N]``. Prints milliseconds per operation
(median and worst of N), measured in plain Python: the same handlers a button click runs in
Jupyter, including rendering the PNG the notebook shows (the browser's own paint time is not
included). For comparison it also times a full repaint of the map (what a widget that redrew
everything would pay on every step).
"""

from __future__ import annotations

import argparse
import io
import time

import matplotlib

matplotlib.use("Agg")

from timing import timed as _timed  # noqa: E402

from luckylab.viz import DilemmaLab, FoilLab, SightExplorer, TurnStepper  # noqa: E402


def timed(label, action, repeats):
    return _timed(label, action, repeats, width=48)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    args = parser.parse_args()
    n = args.repeats

    start = time.perf_counter()
    stepper = TurnStepper(players=4, seed=1, agents="cautious")
    built = 1000 * (time.perf_counter() - start)
    print(f"{'TurnStepper: build (first full paint)':<48} {built:7.1f} ms")
    step = timed("TurnStepper: Step (decide, apply, redraw)", stepper.step, n)
    timed("TurnStepper: Back", stepper.back, min(n, 10))
    timed("TurnStepper: map update + fast PNG only",
          lambda: (stepper.drawing.update(stepper.game), stepper.drawing.render_png()), n)

    def full_repaint() -> None:
        buffer = io.BytesIO()
        stepper.map_figure.savefig(buffer, format="png", dpi=stepper.map_figure.dpi)

    timed("   (for comparison: full repaint of the map)", full_repaint, min(n, 10))

    explorer = SightExplorer()
    spaces = list(explorer.board.spaces)
    picker = explorer.pawn_pickers["Janet"]
    it = iter(spaces * (n // len(spaces) + 2))
    timed("SightExplorer: move a pawn (report, map, matrix)",
          lambda: setattr(picker, "value", next(it)), n)

    foil = FoilLab(samples=2000)
    values = iter(list(range(2, 20)) * (n // 18 + 2))
    timed("FoilLab: move the attack slider (2000 deals)",
          lambda: setattr(foil.attack_slider, "value", next(values)), min(n, 15))

    dilemma = DilemmaLab(attack=5, hands={"A": [2, 1], "B": [0, 3], "C": [4], "D": [1, 1]})
    attacks = iter(list(range(1, 12)) * (n // 11 + 2))
    timed("DilemmaLab: move the attack slider (4 seats)",
          lambda: setattr(dilemma.attack_slider, "value", next(attacks)), min(n, 15))

    verdict = "OK" if step < 150 else "TOO SLOW"
    print(f"\nstep redraw target < 150 ms: {step:.1f} ms median -> {verdict}")


if __name__ == "__main__":
    main()
