"""luckylab's search bot against OpenSpiel's ISMCTSBot, at equal simulations per decision.

Run: ``python benchmarks/bench_interop_ismcts.py`` (needs ``pip install 'luckylab[openspiel]'``).
For 2-player Island and Kill, and for each seat of the two players, luckylab's search bot
(``--bot``, looked up with ``luckylab.agents.agent_class(game, name)``, "ismcts" by default,
built with ``iterations=--sims``) plays that seat and OpenSpiel's ``ISMCTSBot`` (UCT c = 2,
random rollouts: ``RandomRolloutEvaluator(n_rollouts=1)``, resampling through the protocol's
``determinize``) the other, on the same seeded deal for both seats. A row gives luckylab's win
rate with its 95 % Wilson interval, OpenSpiel's, the games that ended without a winner (the
turn cap), and each bot's CPU milliseconds per decision.

Options: ``--games N`` deals per game (each played from both seats, so ``2 N`` games; 200 by
default); ``--sims`` the budget; ``--bot`` luckylab's bot; ``--only island|kill``;
``--raw PATH`` appends one JSON line per game as it ends and skips the games already there
(stop and restart at will; two processes may each play one game, ``--only``);
``--summarise PATH...`` prints the rows of raw files without playing; ``--json PATH`` writes
the rows.

Equal budget: both bots get ``--sims`` simulations per decision. OpenSpiel's bot decides a
luckylab action a few compact ids at a time (:mod:`luckylab.interop.compact`, 1.4 to 1.9 of
them per action in these games) and gets ``--sims`` for each, so per game action it searches
somewhat more than luckylab's bot; its CPU per decision is per game action (all its
sub-decisions of that action). The rollouts differ: OpenSpiel's are uniformly random compact
ids to the end of the game; luckylab's bot rolls out with its readable bots. Nothing is
asserted; the numbers are for the report.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from luckylab.agents import agent_class
from luckylab.analysis.stats import wilson_ci
from luckylab.errors import LuckyLabError, OptionError
from luckylab.interop import openspiel as lo

GAMES = ("island", "kill")


def luckylab_bot(game_name: str, name: str, seed: int, sims: int) -> Any:
    """luckylab's bot ``name`` for ``game_name`` with ``sims`` simulations per decision."""
    cls = agent_class(game_name, name)
    if "iterations" not in inspect.signature(cls).parameters:
        raise OptionError(f"bot {name!r} of {game_name} takes no iterations= budget; the "
                          "comparison is at equal simulations, so it needs a search bot")
    return cls(seed=seed, iterations=sims)


def play_ours(state: Any, action: Any) -> None:
    """Play luckylab's bot's ``action`` in the OpenSpiel ``state``: through its compact ids
    when the engine lists it, else through the engine's checked ``apply`` (a readable bot may
    name a foil's cards in another order, or other cards of equal Luck than the one payment
    per combination of Luck values that ``legal_actions()`` lists; the engine takes both)."""
    try:
        path = state.compact_path(action)
    except LuckyLabError:
        state.apply_unlisted(action)
        return
    for step in path:
        state.apply_action(step)


def play(game_name: str, seed: int, luckylab_seat: int, sims: int, bot: str = "ismcts") -> dict:
    """One game: who won, and the CPU and decisions of each bot."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = lo.load(game_name, players=2)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    theirs = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=rng)
    ours = luckylab_bot(game_name, bot, seed, sims)
    state = game.new_initial_state()
    state.apply_action(seed % lo.DEALS)
    cpu = {"luckylab": 0.0, "openspiel": 0.0}
    decisions = {"luckylab": 0, "openspiel": 0}
    players = [s for s in range(game.num_players())
               if s not in getattr(state.engine, "strangers", ())]
    while not state.is_terminal():
        seat = state.current_player()
        t = time.process_time()
        if seat == players[luckylab_seat]:
            play_ours(state, ours.choose(state.engine))
            who = "luckylab"
        else:
            moved = len(state.engine.history)
            while not state.is_terminal() and len(state.engine.history) == moved:
                state.apply_action(theirs.step(state))
            who = "openspiel"
        cpu[who] += time.process_time() - t
        decisions[who] += 1
    returns = state.returns()
    ours_seat, their_seat = players[luckylab_seat], players[1 - luckylab_seat]
    return {"game": game_name, "seed": seed, "luckylab_seat": luckylab_seat + 1, "sims": sims,
            "bot": bot, "bot_class": type(ours).__name__,
            "luckylab_won": returns[ours_seat] == 1.0,
            "openspiel_won": returns[their_seat] == 1.0, "actions": len(state.engine.history),
            "cpu": {k: round(v, 4) for k, v in cpu.items()}, "decisions": decisions}


def interval(wins: int, games: int) -> tuple[float, float, float]:
    """The win rate and its 95 % Wilson interval (rounding's -0.0 written 0.0)."""
    return tuple(x + 0.0 for x in wilson_ci(wins, games))  # type: ignore[return-value]


def rows_of(records: list[dict]) -> list[dict]:
    """One row per (game, bot, sims, luckylab's seat) of per-game ``records``."""
    groups: dict[tuple, list[dict]] = {}
    for r in records:
        groups.setdefault((r["game"], r["bot"], r["bot_class"], r["sims"], r["luckylab_seat"]),
                          []).append(r)
    rows = []
    for (game, bot, bot_class, sims, seat), games in sorted(groups.items()):
        ours = sum(g["luckylab_won"] for g in games)
        theirs = sum(g["openspiel_won"] for g in games)
        row = {"game": game, "bot": bot, "bot_class": bot_class, "sims": sims,
               "luckylab_seat": seat, "games": len(games),
               "luckylab_wins": ours, "openspiel_wins": theirs,
               "luckylab": interval(ours, len(games)),
               "openspiel": interval(theirs, len(games)),
               "no_winner": len(games) - ours - theirs,
               "cpu_s": round(sum(sum(g["cpu"].values()) for g in games), 1)}
        for who in ("luckylab", "openspiel"):
            spent = sum(g["cpu"][who] for g in games)
            count = sum(g["decisions"][who] for g in games)
            row[f"{who}_decisions"] = count
            row[f"{who}_ms_per_decision"] = round(1000 * spent / max(count, 1), 2)
        rows.append(row)
    return rows


def line(row: dict) -> str:
    """A row as one line of text."""
    ours, theirs = row["luckylab"], row["openspiel"]
    return (f"{row['game']:6} {row['bot']} ({row['bot_class']}) in seat {row['luckylab_seat']}"
            f", {row['sims']} sims: luckylab wins {row['luckylab_wins']}/{row['games']} = "
            f"{ours[0]:.2f} [{ours[1]:.2f}, {ours[2]:.2f}], OpenSpiel {row['openspiel_wins']} = "
            f"{theirs[0]:.2f} [{theirs[1]:.2f}, {theirs[2]:.2f}], no winner "
            f"{row['no_winner']}; CPU ms/decision luckylab {row['luckylab_ms_per_decision']}, "
            f"OpenSpiel {row['openspiel_ms_per_decision']}; {row['cpu_s']} CPU s in all")


def read_raw(paths: list[Path]) -> list[dict]:
    """The per-game records of raw JSON-lines files (missing files hold none)."""
    records = []
    for path in paths:
        if path.exists():
            records += [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()
                        if t.strip()]
    return records


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals per game (both seats)")
    parser.add_argument("--sims", type=int, default=32, help="simulations per decision")
    parser.add_argument("--bot", default="ismcts", help="luckylab's search bot, by name")
    parser.add_argument("--seed", type=int, default=2026, help="the first deal's seed")
    parser.add_argument("--only", choices=GAMES, help="one game only")
    parser.add_argument("--raw", type=Path, help="append each game here (JSON lines); resume")
    parser.add_argument("--summarise", type=Path, nargs="+", help="only print these raw files")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    if args.summarise:
        records = read_raw(args.summarise)
    else:
        for game_name in GAMES if args.only is None else (args.only,):
            luckylab_bot(game_name, args.bot, 0, args.sims)  # a bad --bot fails at once
        records = read_raw([args.raw]) if args.raw else []
        done = {(r["game"], r["bot"], r["sims"], r["seed"], r["luckylab_seat"])
                for r in records}
        for game_name in GAMES if args.only is None else (args.only,):
            for i in range(args.games):  # both seats of a deal, then the next deal
                for seat in (0, 1):
                    seed = args.seed + i
                    if (game_name, args.bot, args.sims, seed, seat + 1) in done:
                        continue
                    record = play(game_name, seed, seat, args.sims, args.bot)
                    records.append(record)
                    if args.raw:
                        with args.raw.open("a", encoding="utf-8") as out:
                            out.write(json.dumps(record) + "\n")
                    print(json.dumps(record), flush=True)
    rows = rows_of(records)
    for row in rows:
        print(line(row), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
