"""How fast are exact P(foil) and its Monte Carlo twin? (``python benchmarks/bench_probability.py``)

Targets (issue 3): an exact P(foil) for 1-7 opponents with 5-7 cards each from the 72-card
Island deck in under 20 ms per query as floats, so a slider can call it live; Monte Carlo at
least 200,000 sampled tables per second.

"cold" clears every cache before each query (a Luck multiset never seen before: the count table
is built from scratch); "warm" is the usual case (the table of that multiset is cached);
"known hand" is cold too, after removing a different random 6-card hand for each query.

Each query is timed ``REPEATS`` times; its latency is the best of those (what the code costs,
without the scheduler's hiccups on a shared machine), and the single worst run is shown too.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from luckylab import load_deck
from luckylab.analysis import luck as prob


def clear_caches() -> None:
    prob._table_for.cache_clear()
    prob._decode.cache_clear()
    prob._tails.cache_clear()


REPEATS = 5


def latencies(mode: str, deck, rng: random.Random) -> tuple[list[float], float]:
    """Best-of-REPEATS latency of every query on the grid, and the worst single run."""
    best, worst = [], 0.0
    for opponents in range(1, 8):
        for cards in (5, 6, 7):
            for attack in (4, 8, 12, 16, 24):
                known = rng.sample(range(len(deck)), 6) if mode == "known hand" else ()
                runs = []
                for _ in range(REPEATS):
                    if mode != "warm":
                        clear_caches()  # a Luck multiset never seen before: build its table
                    start = time.perf_counter()
                    prob.p_foil(attack, [cards] * opponents, deck=deck, known=known)
                    runs.append(time.perf_counter() - start)
                best.append(min(runs))
                worst = max(worst, max(runs))
    return best, worst


def main() -> int:
    deck = load_deck("island")
    rng = random.Random(0)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}; Island deck, {len(deck)} cards; "
          f"load average {load:.1f} on {os.cpu_count()} cores")
    print("exact P(foil) per query, grid 1-7 opponents x 5-7 cards x 5 attack values (105):")
    worst_overall = 0.0
    for mode in ("cold", "warm", "known hand"):
        prob.p_foil(4, [5], deck=deck)  # warm the imports
        times, worst_run = latencies(mode, deck, rng)
        worst_overall = max(worst_overall, max(times))
        print(f"  {mode:>10}: median {statistics.median(times) * 1e3:7.3f} ms, "
              f"worst {max(times) * 1e3:7.3f} ms (worst single run {worst_run * 1e3:.3f} ms)")
    print(f"  target < 20 ms per query: {'met' if worst_overall < 0.020 else 'NOT met'}")

    print("Monte Carlo, sampled tables per second (seeded):")
    for engine, samples in (("numpy", 400_000), ("python", 40_000)):
        for opponents, cards in ((2, 7), (3, 6), (5, 6), (7, 7)):
            start = time.perf_counter()
            prob.monte_carlo_p_foil(12, [cards] * opponents, deck=deck, samples=samples,
                                    seed=1, engine=engine)
            rate = samples / (time.perf_counter() - start)
            print(f"  {engine:>6}, {opponents} x {cards} cards: {rate:12,.0f} tables/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
