"""Save Doctor Lucky throughput: whole games with bots, sight lookups, the sinking boards.

Run: ``python benchmarks/bench_save.py`` (add ``--quick`` for a short run). Prints numbers;
nothing is asserted. Games per second are given against wall-clock time and against the
process's CPU time (what one core delivers when other work shares the machine), each the best
of three runs (the shared machine's speed drifts).
"""

from __future__ import annotations

import argparse
import random
import time

from timing import games_per_second

from luckylab import load_board
from luckylab.games.save import SaveGame, sinking_boards


def sight_lookups_per_second(n: int) -> dict[str, float]:
    """``board.sees`` on the whole ship and on each smaller (sunken) ship, and the game's own
    witness question (who else sees me?) from random positions."""
    ship = load_board("save-doctor-lucky")
    rates = {}
    rng = random.Random(0)
    for k, board in enumerate(sinking_boards(ship)):
        spaces = list(board.spaces)
        queries = [(rng.choice(spaces), rng.choice(spaces)) for _ in range(n)]
        sees = board.sees
        start = time.perf_counter()
        for a, b in queries:
            sees(a, b)
        rates[f"board.sees, {k} deck(s) sunk"] = n / (time.perf_counter() - start)
    game = SaveGame(6, seed=0)
    spaces = list(ship.spaces)
    layouts = [[rng.choice(spaces) for _ in range(6)] for _ in range(n // 10)]
    start = time.perf_counter()
    for layout in layouts:
        game.positions[:] = layout
        game.witnesses(0)
    rates["game.witnesses (6 players)"] = len(layouts) / (time.perf_counter() - start)
    return rates


def sinking_boards_build_seconds() -> float:
    ship = load_board("save-doctor-lucky")
    sinking_boards.cache_clear()
    start = time.perf_counter()
    sinking_boards(ship)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_games = 100 if args.quick else 500
    for players in (4,) if args.quick else (3, 4, 5, 7):
        wall, cpu = games_per_second("save", players, n_games)
        print(f"save {players} players, default agents: {wall:7.1f} games/s wall, "
              f"{cpu:7.1f} games/s per CPU-second")
    for agents in ("greedy", "cautious", "random"):
        wall, cpu = games_per_second("save", 4, n_games // 4, agents)
        print(f"save 4 players, {agents} agents: {wall:7.1f} games/s wall, {cpu:7.1f} per CPU-s")
    for name, rate in sight_lookups_per_second(100_000 if args.quick else 500_000).items():
        print(f"{name}: {rate / 1e6:.2f} M lookups/s")
    print(f"building the four sinking boards (geometry -> sight, once per ship): "
          f"{sinking_boards_build_seconds() * 1000:.0f} ms")


if __name__ == "__main__":
    main()
