"""How strong is the look-ahead bot? One searching seat against the readable bots, all games.

Run: ``python benchmarks/bench_search.py`` (``--games N`` games per row, ``--iterations`` the
budget, ``--bot ismcts`` or ``pimc``, ``--jobs`` worker processes, ``--rows island:2 kill:4``).
For every row (a game and a player count) and opposition (copies of one readable bot in every
other seat, or a mix of them), Player 1 is played once by the searching bot and once by each
readable bot, on the same seeded deals against the same opponents. A row prints:

- the searcher's mean return with its 95 % interval (a win rate, with Wilson's interval; in
  Panic Island! the team's score as a share of the best score, with a normal interval);
- the best readable bot in the same seat, same deals and opponents (its interval too);
- ``met?``: yes when the two intervals do not overlap and the searcher is above (the target
  of issue 24, which asks for 400 games a row at a budget under 1 s CPU a decision);
- the search's cost: CPU milliseconds per searched decision (mean and the largest) and
  simulations per CPU second.

Nothing is asserted; the numbers are for the report. ``--json PATH`` writes the rows, labelled
with their source, command, luckylab version, commit, date and seeds (rewritten after every
row, so a long run keeps what it finished); ``luckylab/data/search_strength.json`` is such a
file, read by lesson 11 through :func:`luckylab.analysis.search_strength.load_search_strength`.
``--merge-into PATH`` instead puts each finished row into the table at ``PATH``, replacing a
row of the same game, players and opponents and adding this run's command, commit and date to
the labels, so that rows measured by several runs (in parallel) make one table.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from pathlib import Path

import luckylab
from luckylab.agents import agent_class, agent_names
from luckylab.analysis.search_strength import interval, row_verdict
from luckylab.simulation import game_seeds, player_seats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_curve import commit  # noqa: E402  (the same commit label as the curve)

ROWS = ("island:2", "island:4", "kill:2", "kill:4", "save:4", "doctorwho:3", "doctorwho:4",
        "panic:4")
"""The rows of issue 24's table."""


def parse_options(items: list[str]) -> dict[str, object]:
    """``["beliefs=0.2", "observers=multiple"]`` -> ``{"beliefs": 0.2, ...}``: numbers are
    read as numbers, ``none`` as None."""
    out: dict[str, object] = {}
    for item in items:
        name, sep, text = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"an option is name=value, not {item!r}")
        value: object = None if text.lower() == "none" else text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                pass
        out[name] = value
    return out


def readable(game: str) -> list[str]:
    """The readable bots of ``game`` (every bundled bot but the look-ahead ones)."""
    return agent_names(game)


def opponents(game: str, players: int, opposition: str, index: int) -> list[str]:
    """The bots of Players 2.. : copies of one bot, or a mix (cycled by game)."""
    bots = readable(game)
    if opposition != "mix":
        return [opposition] * (players - 1)
    return [bots[(index + k) % len(bots)] for k in range(players - 1)]


def play(job: tuple) -> tuple[float, float, float, int, int, int]:
    """One game with ``first`` (the searcher or a readable bot) as Player 1: (Player 1's
    return, CPU seconds of its decisions, the largest one, searched decisions, simulations,
    decisions cut short by the CPU cap). ``budget``: (iterations, the CPU cap in ms or None,
    the rollout bot or None for the bot's own)."""
    game_name, players, seed, first, others, bot, budget = job
    iterations, max_cpu_ms, rollout, extra = budget
    game = luckylab.new_game(game_name, players=players, seed=seed)
    seats = player_seats(game_name, players)
    bots = {s: agent_class(game_name)(seed=seed % 2**32 + s) for s in range(game.num_seats)}
    for k, seat in enumerate(seats):
        name = first if k == 0 else others[k - 1]
        if name == bot:
            options = {"max_cpu_ms": max_cpu_ms} if bot == "ismcts" and max_cpu_ms else {}
            if rollout:
                options["rollout"] = rollout
            options.update(extra)
            bots[seat] = agent_class(game_name, bot)(seed=seed % 2**32 + seat,
                                                     iterations=iterations, **options)
        else:
            bots[seat] = agent_class(game_name, name)(seed=seed % 2**32 + seat)
    me, my_seat = bots[seats[0]], seats[0]
    spent = longest = 0.0
    capped = 0
    while not game.is_over:
        seat = game.current_player
        if seat == my_seat:
            start = time.process_time()
            action = me.choose(game)
            took = time.process_time() - start
            spent += took
            longest = max(longest, took)
            capped += bool(getattr(me, "cut_short", False))
        else:
            action = bots[seat].choose(game)
        game.apply(action)
    return (game.returns()[my_seat], spent, longest, getattr(me, "searched", 0),
            getattr(me, "simulations", 0), capped)


def _own_rollout(game_name: str, players: int, bot: str) -> str:
    """The rollout bot ``bot`` chooses itself for ``game_name`` at ``players`` (the Island's
    depends on the player count)."""
    searcher = agent_class(game_name, bot)(seed=0)
    choose = getattr(searcher, "rollout_for", None)
    game = luckylab.new_game(game_name, players=players, seed=0)
    return choose(game) if choose else searcher.rollout


def _totals(results: list[tuple]) -> tuple[float, float]:
    return sum(r[0] for r in results), sum(r[0] * r[0] for r in results)


def merge_row(path: Path, labels: dict[str, str], row: dict) -> None:
    """Put ``row`` into the table at ``path`` (replacing the row of the same game, players and
    opponents), adding ``labels``' command, commit and date to the table's own; the file is
    replaced in one step (written beside it, then renamed) under a lock, so parallel runs
    neither read half a file nor lose each other's rows. A new file starts with ``labels``."""
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one run at a time reads, changes and writes
        _merge_locked(path, labels, row)


def _merge_locked(path: Path, labels: dict[str, str], row: dict) -> None:
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        table = {**labels, "rows": [],
                 "runs": "several runs; a later run's row replaces an earlier one of the same "
                         "game, players and opponents"}
    for key in ("command", "commit", "date"):
        parts = [p for p in str(table.get(key, "")).split("; " if key == "command" else ", ")
                 if p]
        if labels[key] not in parts:
            parts.append(labels[key])
        table[key] = ("; " if key == "command" else ", ").join(parts)
    same = (row["game"], row["players"], row["opponents"])
    table["rows"] = [r for r in table["rows"]
                     if (r["game"], r["players"], r["opponents"]) != same] + [row]
    order = {spec: i for i, spec in enumerate(ROWS)}

    def place(r: dict) -> tuple[int, int]:
        oppositions = [*readable(r["game"]), "mix"]
        return (order.get(f"{r['game']}:{r['players']}", len(order)),
                oppositions.index(r["opponents"]) if r["opponents"] in oppositions else 99)

    table["rows"].sort(key=place)
    tmp = path.with_name(path.name + f".{id(row)}.tmp")
    tmp.write_text(json.dumps(table, indent=1), encoding="utf-8")
    tmp.replace(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per row")
    parser.add_argument("--bot", default="ismcts", choices=("ismcts", "pimc"))
    parser.add_argument("--iterations", default=None, nargs="*", metavar="[GAME=]N",
                        help="budget per decision: N for every game or GAME=N (default: the "
                             "bot's own default)")
    parser.add_argument("--max-cpu-ms", type=float, default=900.0, metavar="MS",
                        help="ismcts stops a decision early rather than let it use more "
                             "than MS ms of CPU (0: no cap): it skips an iteration that, as "
                             "long as the longest so far, would overrun. Issue 24's budget is "
                             "a decision under 1 s CPU; 900 leaves room for the readable "
                             "bots' proposals, as the play table's Hint does")
    parser.add_argument("--rollout", default=None, nargs="*", metavar="[GAME=]BOT",
                        help="the rollout bot: BOT for every game or GAME=BOT (default: the "
                             "bot's own)")
    parser.add_argument("--option", nargs="*", default=[], metavar="[GAME=]NAME=VALUE",
                        help="another keyword of the searching bot, for every game or one: "
                             "beliefs=0.2, observers=multiple, doctorwho=observers=multiple")
    parser.add_argument("--rows", nargs="*", default=list(ROWS), metavar="GAME:PLAYERS")
    parser.add_argument("--oppositions", nargs="*", default=None,
                        help="only these oppositions (bot names or mix; default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", default=None, metavar="PATH",
                        help="also write the rows as JSON (rewritten after every row)")
    parser.add_argument("--merge-into", default=None, metavar="PATH",
                        help="put each finished row into the table at PATH (replacing a row "
                             "of the same game, players and opponents)")
    args = parser.parse_args()
    budgets: dict[str, int | None] = {}
    for item in args.iterations or ():
        name, _, n = item.rpartition("=")
        budgets[name or "*"] = int(n)
    rollouts: dict[str, str] = {}
    for item in args.rollout or ():
        name, _, bot_name = item.rpartition("=")
        rollouts[name or "*"] = bot_name
    extras: dict[str, dict[str, object]] = {}
    for item in args.option:
        head, _, rest = item.partition("=")
        spec, text = (head, rest) if "=" in rest else ("*", item)
        extras.setdefault(spec, {}).update(parse_options([text]))
    labels = {"source": "measured by benchmarks/bench_search.py",
              "command": "python benchmarks/bench_search.py " + " ".join(sys.argv[1:]),
              "luckylab_version": luckylab.__version__, "commit": commit(),
              "date": date.today().isoformat(), "bot": args.bot,
              "seeds": "luckylab.simulation.game_seeds(1300 + players, games); the searching "
                       "seat and each readable bot in its place play the same deals",
              "searcher": "Player 1 (the first seat that is not a Stranger)"}
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    run = pool.map if pool else map
    rows: list[dict] = []
    print("| game | players | opponents | searcher (95 % CI) | best readable in seat (95 % CI) "
          "| met? | iterations | CPU ms/decision (max) | sims/CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in args.rows:
        game_name, _, players_text = spec.partition(":")
        players = int(players_text)
        iterations = budgets.get(game_name, budgets.get("*"))
        if iterations is None:
            iterations = agent_class(game_name, args.bot)(seed=0).iterations
        rollout = rollouts.get(game_name, rollouts.get("*"))
        extra = {name: value for spec, options in extras.items()
                 if spec in ("*", game_name) for name, value in options.items()}
        budget = (iterations, args.max_cpu_ms or None, rollout, extra)
        for opposition in (*readable(game_name), "mix"):
            if args.oppositions and opposition not in args.oppositions:
                continue
            seeds = game_seeds(1300 + players, args.games)
            others = [opponents(game_name, players, opposition, i) for i in range(len(seeds))]
            wall = time.perf_counter()
            mine = list(run(play, [(game_name, players, s, args.bot, o, args.bot, budget)
                                   for s, o in zip(seeds, others, strict=True)]))
            wall = time.perf_counter() - wall
            total, total_sq = _totals(mine)
            per_bot = {}
            for name in readable(game_name):
                theirs = list(run(play, [(game_name, players, s, name, o, args.bot, budget)
                                         for s, o in zip(seeds, others, strict=True)]))
                per_bot[name] = _totals(theirs)
            best = max(per_bot, key=lambda n: per_bot[n][0])
            cpu = sum(r[1] for r in mine)
            searched = sum(r[3] for r in mine)
            row = {"game": game_name, "players": players, "opponents": opposition,
                   "metric": "team score" if game_name == "panic" else "win",
                   "games": len(mine), "total": round(total, 6), "total_sq": round(total_sq, 6),
                   "best_readable": best, "best_total": round(per_bot[best][0], 6),
                   "best_total_sq": round(per_bot[best][1], 6),
                   "readable": {n: round(t[0], 6) for n, t in per_bot.items()},
                   "iterations": iterations, "searched": searched,
                   "max_cpu_ms": budget[1], "cut_short": sum(r[5] for r in mine),
                   "rollout": rollout or _own_rollout(game_name, players, args.bot),
                   **({"options": {k: v for k, v in extra.items()}} if extra else {}),
                   "simulations": sum(r[4] for r in mine), "search_cpu_s": round(cpu, 3),
                   "max_decision_cpu_s": round(max(r[2] for r in mine), 3),
                   "wall_s": round(wall, 1)}
            rows.append(row)
            lo, hi = interval(row["total"], row["total_sq"], row["games"], row["metric"])
            blo, bhi = interval(row["best_total"], row["best_total_sq"], row["games"],
                                row["metric"])
            print(f"| {game_name} | {players} | {opposition} | {total / len(mine):.3f} "
                  f"({lo:.3f}-{hi:.3f}) | {best} {per_bot[best][0] / len(mine):.3f} "
                  f"({blo:.3f}-{bhi:.3f}) | {row_verdict(row)} | {iterations} | "
                  f"{1000 * cpu / max(searched, 1):.0f} ({1000 * row['max_decision_cpu_s']:.0f})"
                  f" | {row['simulations'] / max(cpu, 1e-9):.0f} |", flush=True)
            if args.json:
                with open(args.json, "w", encoding="utf-8") as out:
                    json.dump({**labels, "rows": rows}, out, indent=1)
            if args.merge_into:
                merge_row(Path(args.merge_into), labels, row)
    if pool:
        pool.shutdown()


if __name__ == "__main__":
    main()
