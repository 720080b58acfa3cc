"""How fast the search bot's rollouts run: ISMCTS simulations per CPU second, and whole games
per CPU second of tables of its rollout bots (Kill's patient, The Island's aggressive, Doctor
Who's bluffer).

Run: ``python benchmarks/bench_rollouts.py`` (``--positions N`` seeded positions a row,
``--iterations N`` the budget, ``--games N`` for the table rates, ``--only doctorwho`` for one
game's rows). Prints numbers and, for each
row, a digest of the moves the search chose: it must not change when only the speed does.
Rates are the best of ``--repeats`` runs against the process's CPU time (wall clock beside);
the machine is shared, so compare runs made one after another.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import luckylab
from luckylab.agents import agent_class
from luckylab.simulation import play_game

ROWS = (("kill", 2), ("kill", 4), ("island", 4), ("doctorwho", 3), ("doctorwho", 4))
TABLES = (("kill", 2, "patient"), ("kill", 4, "patient"), ("island", 4, "aggressive"),
          ("doctorwho", 3, "bluffer"), ("doctorwho", 4, "bluffer"))


def positions(game: str, players: int, count: int) -> list:
    """``count`` seeded positions: a game played some turns by the default bots, stopped
    where the player to move has a choice."""
    out = []
    seed = 0
    while len(out) < count:
        seed += 1
        state = luckylab.new_game(game, players=players, seed=seed)
        bots = [agent_class(game)(seed=seed + s) for s in range(state.num_seats)]
        for _ in range(3 * seed % 17):
            if state.is_over:
                break
            state.apply(bots[state.current_player].choose(state))
        if not state.is_over and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def search_rate(game: str, players: int, count: int, iterations: int,
                repeats: int) -> tuple[float, float, str]:
    """(simulations per CPU second, per wall second, a digest of the chosen moves)."""
    states = positions(game, players, count)
    best_cpu = best_wall = 0.0
    digest = ""
    for _ in range(repeats):
        moves = []
        sims = 0
        wall, cpu = time.perf_counter(), time.process_time()
        for k, state in enumerate(states):
            bot = agent_class(game, "ismcts")(seed=1000 + k, iterations=iterations)
            action, counts = bot.explain(state)
            moves.append(repr((action, counts)))
            sims += bot.simulations
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        best_cpu, best_wall = max(best_cpu, sims / cpu), max(best_wall, sims / wall)
        digest = hashlib.sha256("\n".join(moves).encode()).hexdigest()[:12]
    return best_cpu, best_wall, digest


def table_rate(game: str, players: int, bot: str, games: int,
               repeats: int) -> tuple[float, float]:
    """Whole quiet games of ``bot`` in every seat per CPU second and per wall second."""
    best_cpu = best_wall = 0.0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        for seed in range(games):
            play_game(game, players, seed, [bot] * players)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        best_cpu, best_wall = max(best_cpu, games / cpu), max(best_wall, games / wall)
    return best_cpu, best_wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", nargs="*", metavar="GAME", help="only these games' rows")
    args = parser.parse_args()
    keep = set(args.only or {row[0] for row in ROWS})
    for game, players in [row for row in ROWS if row[0] in keep]:
        cpu, wall, digest = search_rate(game, players, args.positions, args.iterations,
                                        args.repeats)
        print(f"ismcts {game} {players}p, {args.positions} positions x {args.iterations} "
              f"iterations: {cpu:7.0f} sims/CPU s ({wall:7.0f} /wall s)  moves {digest}",
              flush=True)
    for game, players, bot in [row for row in TABLES if row[0] in keep]:
        cpu, wall = table_rate(game, players, bot, args.games, args.repeats)
        print(f"{bot} table {game} {players}p, {args.games} games: {cpu:7.0f} games/CPU s "
              f"({wall:7.0f} /wall s)", flush=True)


if __name__ == "__main__":
    main()
