"""Two versions of luckylab side by side: the same seeded games, interleaved, CPU-time ratios.

This machine is shared and its speed drifts by tens of percent, so a "before" run today and an
"after" run tomorrow say little. This script keeps one worker process per version alive and
hands them the same batch in turn (A, B, A, B, ...), timing each batch by the worker's own CPU
time (``time.process_time``), and prints per case the ratio of games (or decisions) per CPU
second, new over old, with min / median / max over the rounds. It also checks that both versions
play the same games (a digest of every result), unless ``--no-same`` says the games may differ.

    python benchmarks/compare.py 4bc15d1                  # this checkout against a commit
    python benchmarks/compare.py 4bc15d1 --cases kill:4 island:4 --games 200 --rounds 5
    python benchmarks/compare.py 4bc15d1 --callgrind kill:4   # instructions, if valgrind exists
    python benchmarks/compare.py 4bc15d1 --decisions 32 --games 20 --cases kill:2:ismcts
        # search decisions per CPU s at 32 simulations each, in 20 seeded positions

The old version is checked out with ``git worktree add`` into a temporary folder (removed after).
A case is ``game:players`` (default bots) or ``game:players:agent`` (e.g. ``kill:2:ismcts``);
``game:players:new=old`` names a bot that the old version called otherwise (``kill:2:pimc=ismcts``:
today's determinized-voting baseline, called "ismcts" before the real ISMCTS came).

``game:players:simulate`` times what a user runs: ``luckylab.simulate(game, players=...,
games=N, seed=1)`` with the default bots, each time in a **fresh process** (the import, the
first game's tables, the run's own checks and every game's setup and result included), the
process's whole CPU time (and its wall-clock time beside; and, at the end of the row, the
``simulate`` call's own CPU time, the import left out). The ``play_game`` cases above keep
one warm worker per version and time only the games. Fresh processes read the versions'
bytecode caches (``__pycache__``, written by one untimed run of each first), as an installed
package does; ``--compile`` compiles the sources in every run instead (what this shell's
``PYTHONDONTWRITEBYTECODE=1`` would do).

    python benchmarks/compare.py 4bc15d1 --cases save:4:simulate kill:4:simulate \
        --simulate-games 1000 --rounds 7
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

WORKER = r"""
import hashlib, json, sys, time
from luckylab import new_game
from luckylab.agents import agent_class
from luckylab.simulation import play_game


def games(job, h):
    for seed in range(job["seed"], job["seed"] + job["games"]):
        r = play_game(job["game"], job["players"], seed, job["agent"], detail=False)
        h.update(repr((r.winner, r.loser, r.turns, r.finished)).encode())


def decisions(job, h):
    # The search bot decides once in each of a batch of seeded positions, reached by the
    # default bots (the same positions in both versions: the digest checks them); only the
    # decisions are timed.
    took = 0.0
    for seed in range(job["seed"], job["seed"] + job["games"]):
        game = new_game(job["game"], players=job["players"], seed=seed)
        bots = {}  # seat -> its default bot (Strangers take seats of their own)
        for _ in range(seed * 7 % 40):
            if game.is_over or len(game.legal_actions()) < 2:
                break
            seat = game.current_player
            if seat not in bots:
                bots[seat] = agent_class(job["game"])(seed=seat)
            game.apply(bots[seat].choose(game))
        if game.is_over:
            continue
        h.update(repr((seed, game.current_player, len(game.history))).encode())
        searcher = agent_class(job["game"], job["agent"])(seed=seed,
                                                          iterations=job["iterations"])
        start = time.process_time()
        searcher.choose(game)
        took += time.process_time() - start
    return took


for line in sys.stdin:
    job = json.loads(line)
    h = hashlib.sha256()
    start, wall = time.process_time(), time.perf_counter()
    if job.get("iterations"):
        took = decisions(job, h)
    else:
        games(job, h)
        took = time.process_time() - start
    wall = time.perf_counter() - wall
    print(json.dumps({"cpu": took, "wall": wall, "digest": h.hexdigest()}), flush=True)
"""

FRESH = r"""
import hashlib, json, sys, time
job = json.loads(sys.argv[1])
import luckylab
start = time.process_time()
results = luckylab.simulate(job["game"], players=job["players"], games=job["games"], seed=1)
call = time.process_time() - start
h = hashlib.sha256()
for r in results:
    h.update(repr((r.winner, r.loser, r.turns, r.finished)).encode())
print(json.dumps({"digest": h.hexdigest(), "call": call}), flush=True)
"""
"""A user's run of ``luckylab.simulate`` in a process of its own (the ``:simulate`` cases)."""


def _worker(root: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.Popen([sys.executable, "-c", WORKER], cwd=root, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _ask(worker: subprocess.Popen[str], job: dict[str, object]) -> dict[str, object]:
    assert worker.stdin is not None and worker.stdout is not None
    worker.stdin.write(json.dumps(job) + "\n")
    worker.stdin.flush()
    line = worker.stdout.readline()
    if not line:
        raise SystemExit(f"a worker died on {job}")
    return json.loads(line)


def _fresh_env(root: Path, compile_each_run: bool) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    if not compile_each_run:
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # read (and first write) __pycache__
    return env


def _fresh(root: Path, job: dict[str, object], compile_each_run: bool) -> dict[str, object]:
    """Run ``luckylab.simulate`` for ``job`` in a new process of ``root``'s version: the
    process's CPU time (user + system, from the operating system's account of the child),
    its wall-clock time, the CPU time of the ``simulate`` call alone (``call``: no import),
    and the digest of its results."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", FRESH, json.dumps(job)], cwd=root,
                         env=_fresh_env(root, compile_each_run), capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode:
        raise SystemExit(f"simulate failed in {root} on {job}:\n{run.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu": cpu, "wall": wall, **json.loads(run.stdout)}


def _case(text: str, old: bool = False) -> dict[str, object]:
    """The job of a case (``old``: the old version's, where ``new=old`` renames the agent)."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or not parts[1].isdigit():
        raise SystemExit(f"a case is game:players[:agent[=old_agent]] or game:players:simulate, "
                         f"not {text!r}")
    agent = parts[2] if len(parts) == 3 else None
    if agent == "simulate":
        return {"game": parts[0], "players": int(parts[1]), "agent": None, "fresh": True}
    if agent is not None and "=" in agent:
        agent = agent.split("=", 1)[1 if old else 0]
    return {"game": parts[0], "players": int(parts[1]), "agent": agent}


def compare(commit: str, cases: list[str], games: int, rounds: int, same: bool,
            iterations: int | None = None, compile_each_run: bool = False,
            simulate_games: int = 1000) -> list[str]:
    """Run the comparison; return the printed table's lines. With ``iterations``, each case's
    bot (a search bot) decides once in each of ``games`` seeded positions at that budget, and
    the ratio is of decisions per CPU second. A ``:simulate`` case runs ``luckylab.simulate``
    of ``simulate_games`` games in a fresh process per version and round
    (``compile_each_run``: without bytecode caches).
    Each row: new/old per CPU second, median and min / median / max over the rounds, then
    the same ratio of wall-clock time (median, min-max), which the machine's load sways."""
    old_root = Path(tempfile.mkdtemp(prefix="luckylab-old-"))
    subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(old_root),
                    commit], check=True, capture_output=True)
    lines = []
    try:
        new, old = _worker(HERE), _worker(old_root)
        roots = {new: HERE, old: old_root}
        unit = "games" if iterations is None else f"decisions ({iterations} sims)"
        head = (f"{'case':<22}{'new/old ' + unit + ' per CPU s':>26}{'  min / median / max':>24}"
                f"{'wall: median (min-max)':>28}")
        lines.append(head)
        print(head, flush=True)
        for text in cases:
            fresh = bool(_case(text).get("fresh"))
            n_games = simulate_games if fresh else games
            jobs = {new: {**_case(text), "games": n_games, "seed": 1, "iterations": iterations},
                    old: {**_case(text, old=True), "games": n_games, "seed": 1,
                          "iterations": iterations}}
            if fresh:  # one untimed run each: imports warmed, bytecode caches written

                def ask(worker: subprocess.Popen[str], job: dict[str, object]
                        ) -> dict[str, object]:
                    return _fresh(roots[worker], job, compile_each_run)
            else:
                ask = _ask
            ask(new, {**jobs[new], "games": 2}), ask(old, {**jobs[old], "games": 2})  # warm
            ratios, walls, calls, digests = [], [], [], set()
            for k in range(rounds):
                first, second = (new, old) if k % 2 == 0 else (old, new)
                a, b = ask(first, jobs[first]), ask(second, jobs[second])
                n, o = (a, b) if first is new else (b, a)
                ratios.append(float(o["cpu"]) / max(float(n["cpu"]), 1e-9))
                walls.append(float(o["wall"]) / max(float(n["wall"]), 1e-9))
                if fresh:
                    calls.append(float(o["call"]) / max(float(n["call"]), 1e-9))
                digests.add((n["digest"], o["digest"]))
            differ = any(d[0] != d[1] for d in digests)
            note = "  GAMES DIFFER" if differ else "  same games"
            if calls:  # the simulate call alone, the import left out
                note += (f"; the call alone {statistics.median(calls):.2f}x "
                         f"({min(calls):.2f}-{max(calls):.2f})")
            row = (f"{text:<22}{statistics.median(ratios):>25.2f}x"
                   f"{min(ratios):>9.2f} / {statistics.median(ratios):.2f} / "
                   f"{max(ratios):.2f}{statistics.median(walls):>12.2f}x "
                   f"({min(walls):.2f}-{max(walls):.2f}){note}")
            lines.append(row)
            print(row, flush=True)
            if same and differ:
                raise SystemExit(f"{text}: the two versions play different games")
        for w in (new, old):
            assert w.stdin is not None
            w.stdin.close()
            w.wait()
    finally:
        subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(old_root)],
                       capture_output=True)
        shutil.rmtree(old_root, ignore_errors=True)
    return lines


def callgrind(commit: str, case: str, games: int) -> None:
    """Instruction counts of the same games under both versions (valgrind's callgrind)."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    old_root = Path(tempfile.mkdtemp(prefix="luckylab-old-"))
    subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(old_root),
                    commit], check=True, capture_output=True)
    try:
        for label, root in (("new", HERE), ("old", old_root)):
            job = json.dumps({**_case(case, old=label == "old"), "games": games, "seed": 1})
            out = Path(tempfile.mkdtemp()) / "cg.out"
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                 sys.executable, "-c", WORKER], input=job + "\n", text=True, cwd=root,
                env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True)
            total = [ln for ln in run.stderr.splitlines() if "Collected" in ln]
            print(f"{label}: {total[-1].split(':')[-1].strip() if total else '?'} instructions")
    finally:
        subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(old_root)],
                       capture_output=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("commit", help="the old version: a commit, tag or branch")
    parser.add_argument("--cases", nargs="+", default=["island:4", "kill:4", "save:4",
                                                       "panic:4", "doctorwho:3",
                                                       "doctorwho:4", "island:4:simulate",
                                                       "kill:4:simulate", "save:4:simulate"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--simulate-games", type=int, default=1000,
                        help="games per luckylab.simulate run of the :simulate cases")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-same", action="store_true",
                        help="the versions may play different games (a rule changed)")
    parser.add_argument("--callgrind", metavar="CASE", help="count instructions instead")
    parser.add_argument("--compile", action="store_true",
                        help="simulate cases: compile the sources in every fresh process "
                             "(no bytecode caches), as PYTHONDONTWRITEBYTECODE=1 does")
    parser.add_argument("--decisions", type=int, metavar="SIMS",
                        help="time one decision of each case's (search) bot per seeded "
                             "position at SIMS simulations, instead of whole games")
    args = parser.parse_args(argv)
    if args.callgrind:
        callgrind(args.commit, args.callgrind, args.games)
        return
    compare(args.commit, args.cases, args.games, args.rounds, same=not args.no_same,
            iterations=args.decisions, compile_each_run=args.compile,
            simulate_games=args.simulate_games)


if __name__ == "__main__":
    main()
