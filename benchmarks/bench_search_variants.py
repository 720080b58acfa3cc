"""Does a change to the look-ahead bot make it stronger? Two variants, the same deals, paired.

Run: ``python benchmarks/bench_search_variants.py kill:4 --opposition opportunist
--variant beliefs=0.2 --games 400 --jobs 2``. Player 1 (the first seat that is not a
Stranger) is played by the ISMCTS bot as it is (the *base*: its defaults and ``--base``
options) and by the *variant* (the base's options with ``--variant``'s on top), on the same
seeded deals (``bench_search.py``'s seeds: ``game_seeds(1300 + players, games)``) against the
same opponents (copies of ``--opposition``, or ``mix`` as ``bench_search.py`` cycles it). It
prints both means with their 95 % intervals, the paired difference (variant - base) with its
interval (games are paired by deal, so the differences are independent), and each side's cost:
CPU milliseconds per searched decision (mean, largest) and simulations per CPU second.

``--match``: a 2-player match instead: the variant against the game's default readable bot,
each of ``--games`` deals played twice with the seats swapped, the variant's share of the
wins per deal (a deal's two games are not independent; the interval is over deals).

``--agreement N``: no games; on N positions met in games of the game's default bots (every
seventh decision with a choice, seeds 0, 1, ...), how often the base and the variant choose
differently, and the CPU of each (a variant that seldom chooses differently cannot play much
better or worse, whatever many games would say).

``--save FILE``: each side's options and per-deal returns as JSON, to pair one run's side
with another run's on the same deals (each deal's game is the same whatever else runs).

Options are ``name=value`` (numbers are read as numbers, ``none`` as None): any keyword of
:class:`luckylab.agents.ismcts.ISMCTSAgent` (``iterations``, ``cpu_ms``, ``rollout``,
``own_rollout``, ``beliefs``, ...). Every decision is capped at ``--max-cpu-ms`` of CPU
(default 900, the 1 s rule with room for the proposals). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import luckylab
from luckylab.agents import agent_class
from luckylab.analysis.stats import mean_ci, paired_ci
from luckylab.simulation import game_seeds, player_seats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import opponents, parse_options  # noqa: E402  (the same oppositions)


def play(job: tuple) -> tuple[float, float, float, int, int]:
    """One game: ``searcher`` (options) in seat ``seat_index``'s place of the player seats, the
    named readable bots elsewhere. Returns the searcher's return, its CPU seconds, its largest
    decision, searched decisions and simulations."""
    game_name, players, seed, seat_index, options, others = job
    game = luckylab.new_game(game_name, players=players, seed=seed)
    seats = player_seats(game_name, players)
    bots = {s: agent_class(game_name)(seed=seed % 2**32 + s) for s in range(game.num_seats)}
    others = iter(others)
    for k, seat in enumerate(seats):
        if k == seat_index:
            bots[seat] = agent_class(game_name, "ismcts")(seed=seed % 2**32 + seat, **options)
        else:
            bots[seat] = agent_class(game_name, next(others))(seed=seed % 2**32 + seat)
    my_seat = seats[seat_index]
    me = bots[my_seat]
    spent = longest = 0.0
    while not game.is_over:
        seat = game.current_player
        if seat == my_seat:
            start = time.process_time()
            action = me.choose(game)
            took = time.process_time() - start
            spent += took
            longest = max(longest, took)
        else:
            action = bots[seat].choose(game)
        game.apply(action)
    return game.returns()[my_seat], spent, longest, me.searched, me.simulations


def positions(game_name: str, players: int, count: int) -> list[tuple[int, int]]:
    """``count`` positions with more than one legal move, from games of the default bots, each
    as ``(seed, moves played)``: :func:`position` plays it again (a game is not pickled to the
    workers: some engines hold local functions)."""
    found: list[tuple[int, int]] = []
    seed = 0
    while len(found) < count:
        game = luckylab.new_game(game_name, players=players, seed=seed)
        bots = [agent_class(game_name)(seed=s) for s in range(game.num_seats)]
        k = 0
        while not game.is_over and len(found) < count:
            if k % 7 == 3 and len(game.legal_actions()) > 1:
                found.append((seed, k))
            game.apply(bots[game.current_player].choose(game))
            k += 1
        seed += 1
    return found


def position(game_name: str, players: int, seed: int, moves: int) -> object:
    """The game of the default bots dealt with ``seed``, after ``moves`` moves."""
    game = luckylab.new_game(game_name, players=players, seed=seed)
    bots = [agent_class(game_name)(seed=s) for s in range(game.num_seats)]
    for _ in range(moves):
        game.apply(bots[game.current_player].choose(game))
    return game


def agreement(job: tuple) -> tuple[bool, float, float]:
    """Whether base and variant choose differently at one position, and their CPU seconds."""
    game_name, players, (seed, moves), index, base, variant = job
    game = position(game_name, players, seed, moves)
    cpu = []
    choices = []
    for options in (base, variant):
        start = time.process_time()
        choices.append(agent_class(game_name, "ismcts")(seed=index, **options).choose(game))
        cpu.append(time.process_time() - start)
    return choices[0] != choices[1], cpu[0], cpu[1]


def cost(results: list[tuple]) -> str:
    cpu = sum(r[1] for r in results)
    searched = max(sum(r[3] for r in results), 1)
    largest = 1000 * max(r[2] for r in results)
    return (f"{1000 * cpu / searched:.0f} ms/decision (largest {largest:.0f}),"
            f" {sum(r[4] for r in results) / max(cpu, 1e-9):.0f} simulations/CPU s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("row", metavar="GAME:PLAYERS")
    parser.add_argument("--opposition", default="mix")
    parser.add_argument("--base", nargs="*", default=[], metavar="NAME=VALUE")
    parser.add_argument("--variant", nargs="*", default=[], metavar="NAME=VALUE")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--max-cpu-ms", type=float, default=900.0)
    parser.add_argument("--match", action="store_true",
                        help="a 2-player match of the variant against the default bot")
    parser.add_argument("--agreement", type=int, default=0, metavar="N",
                        help="compare the two variants' choices on N positions instead")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--save", type=Path, metavar="FILE",
                        help="write each side's options and per-deal returns as JSON (to "
                             "pair with another run on the same deals)")
    args = parser.parse_args()
    game_name, _, players_text = args.row.partition(":")
    players = int(players_text)
    base = {"max_cpu_ms": args.max_cpu_ms or None, **parse_options(args.base)}
    variant = {**base, **parse_options(args.variant)}
    seeds = game_seeds(1300 + players, args.games)
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    run = pool.map if pool else map
    if args.agreement:
        found = positions(game_name, players, args.agreement)
        out = list(run(agreement, [(game_name, players, g, i, base, variant)
                                    for i, g in enumerate(found)]))
        differ = sum(o[0] for o in out)
        print(f"{args.row}: {differ} of {len(out)} positions chosen differently; CPU ms per "
              f"decision: base {1000 * sum(o[1] for o in out) / len(out):.0f}, variant "
              f"{1000 * sum(o[2] for o in out) / len(out):.0f}")
    elif args.match:
        if players != 2:
            raise SystemExit("--match plays 2-player games")
        default = agent_class(game_name).name
        jobs = [(game_name, 2, s, k, variant, [default]) for s in seeds for k in (0, 1)]
        results = list(run(play, jobs))
        per_deal = [(results[2 * i][0] + results[2 * i + 1][0]) / 2 for i in range(len(seeds))]
        mean, low, high = mean_ci(per_deal)
        print(f"{game_name} 2 players, {variant} against the {default} bot, {len(seeds)} deals "
              f"x 2 seats: {mean:.3f} ({low:.3f} to {high:.3f}) by deal; {cost(results)}")
    else:
        others = [opponents(game_name, players, args.opposition, i)
                  for i in range(len(seeds))]
        sides = {}
        for name, options in (("base", base), ("variant", variant)):
            wall = time.perf_counter()
            sides[name] = list(run(play, [(game_name, players, s, 0, options, o)
                                          for s, o in zip(seeds, others, strict=True)]))
            wall = time.perf_counter() - wall
            mean, low, high = mean_ci([r[0] for r in sides[name]])
            print(f"{name:8s} {options}: {mean:.3f} ({low:.3f} to {high:.3f}); "
                  f"{cost(sides[name])}; {wall:.0f} s wall", flush=True)
        diff = paired_ci([r[0] for r in sides["variant"]], [r[0] for r in sides["base"]])
        print(f"{args.row} against {args.opposition}, {len(seeds)} deals: variant - base "
              f"{diff[0]:+.3f} ({diff[1]:+.3f} to {diff[2]:+.3f})")
        if args.save:
            args.save.write_text(json.dumps({
                "row": args.row, "opposition": args.opposition, "deals": len(seeds),
                **{name: {"options": opts,
                          "returns": [r[0] for r in sides[name]]}
                   for name, opts in (("base", base), ("variant", variant))}}, indent=1))
    if pool:
        pool.shutdown()


if __name__ == "__main__":
    main()
