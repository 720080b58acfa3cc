"""Kill Doctor Lucky throughput: board build, sight and reach lookups, whole games.

Run: ``python benchmarks/bench_kill.py`` (add ``--games N`` for a longer run). Prints numbers;
nothing is asserted. The machine is shared, so compare runs made one after another; game rates
are the best of three runs, against wall-clock time and against the process's CPU time.
"""

from __future__ import annotations

import argparse
import random
import time
from importlib import resources

from luckylab import load_board
from luckylab.boards.files import _parse
from luckylab.boards.geometry import Geometry, board_from_data


def best_of(repeat: int, fn) -> float:
    """The fastest of ``repeat`` timings of ``fn()`` in seconds (least disturbed by others)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def bench_build() -> None:
    name = "kill_doctor_lucky_1997.toml"
    text = (resources.files("luckylab") / "data" / name).read_text("utf-8")
    t_parse = best_of(5, lambda: _parse(text, name))
    data = _parse(text, name)
    t_board = best_of(5, lambda: board_from_data(data, source=name, key="kill-doctor-lucky"))
    g = load_board("kill").geometry
    fresh = lambda: Geometry(g.rects, g.doors, g.see_through).sight()  # noqa: E731
    t_sight = best_of(5, fresh)
    print(f"board build   parse TOML {t_parse * 1e3:7.2f} ms | geometry -> sight table "
          f"{t_sight * 1e3:6.2f} ms | whole Board (validate, sight, reach) {t_board * 1e3:6.2f} ms")


def bench_lookups(n: int = 200_000) -> None:
    board = load_board("kill")
    rng = random.Random(0)
    pairs = [(rng.choice(board.spaces), rng.choice(board.spaces)) for _ in range(n)]
    steps = [(rng.choice(board.spaces), rng.randint(0, 3)) for _ in range(n)]
    sees, visible_from, reachable = board.sees, board.visible_from, board.reachable

    def run_sees():
        for a, b in pairs:
            sees(a, b)

    def run_visible():
        for a, _ in pairs:
            visible_from(a)

    def run_reach():
        for s, k in steps:
            reachable(s, k)

    for label, fn in (("sees(a, b)", run_sees), ("visible_from(a)", run_visible),
                      ("reachable(s, k)", run_reach)):
        t = best_of(3, fn)
        print(f"lookups       {label:16s} {n / t / 1e6:6.2f} M/s")


def bench_games(games: int, players: int) -> None:
    try:
        from luckylab import simulate
        simulate("kill", players=players, games=1, seed=0)
        run = lambda agents: simulate("kill", players=players, games=games, seed=1,  # noqa: E731
                                      agents=agents)
    except (ImportError, NotImplementedError):  # before luckylab.simulate existed
        from luckylab import new_game
        from luckylab.agents import agent_class

        def run(agents):
            results = []
            for seed in range(games):
                game = new_game("kill", players=players, seed=seed)
                bots = [agent_class("kill", agents)(seed=seed + i) for i in range(players)]
                while not game.is_over:
                    game.apply(bots[game.current_player].choose(game))
                results.append(game.result())
            return results

    for agents in (None, "patient", "random"):
        dt = cpu = float("inf")
        for _ in range(3):  # best of three: the shared machine's speed drifts
            t, c = time.perf_counter(), time.process_time()
            results = run(agents)
            dt = min(dt, time.perf_counter() - t)
            cpu = min(cpu, max(time.process_time() - c, 1e-9))
        turns = sum(r.turns for r in results) / len(results)
        finished = sum(r.finished for r in results)
        label = agents or "default (opportunist)"
        print(f"games         {label:22s} {players} players: {games / dt:7.1f} games/s "
              f"({games / cpu:7.1f} per CPU-s), {turns:6.1f} turns/game, "
              f"{finished}/{games} finished")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    bench_build()
    bench_lookups()
    bench_games(args.games, args.players)


if __name__ == "__main__":
    main()
