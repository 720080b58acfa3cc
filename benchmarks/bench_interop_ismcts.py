"""luckylab's look-ahead bot against OpenSpiel's ISMCTSBot, at equal simulations per decision.

Run: ``python benchmarks/bench_interop_ismcts.py`` (needs ``pip install 'luckylab[openspiel]'``;
``--games N`` games per game and seat, 200 by default; ``--sims`` the budget; ``--json PATH``
writes the rows). For 2-player Island and Kill, and for each seat of the two players, luckylab's
``IslandISMCTS``/``KillISMCTS`` (``luckylab.agents.search``) plays that seat and OpenSpiel's
``ISMCTSBot`` (random rollouts, UCT c = 2, resampling through the protocol's ``determinize``)
the other, on the same seeded deals. A row prints luckylab's win rate with its 95 % Wilson
interval, OpenSpiel's, the games that ended without a winner (the turn cap), and each bot's CPU
milliseconds per decision.

Equal budget: both bots get ``--sims`` simulations per decision. OpenSpiel's bot decides a
luckylab action a few compact ids at a time (:mod:`luckylab.interop.compact`, 1.4 to 1.9 of
them per action in these games) and gets ``--sims`` for each, so per game action it searches
somewhat more than luckylab's bot; its CPU per decision is per game action (all its
sub-decisions of that action). Nothing is asserted; the numbers are for the report.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from luckylab.agents.search import IslandISMCTS, KillISMCTS
from luckylab.analysis.stats import wilson_ci
from luckylab.interop import openspiel as lo

SEARCH = {"island": IslandISMCTS, "kill": KillISMCTS}


def play(game_name: str, seed: int, luckylab_seat: int, sims: int) -> dict:
    """One game: returns who won and the CPU each bot spent per decision."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = lo.load(game_name, players=2)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    theirs = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=rng)
    ours = SEARCH[game_name](seed=seed, iterations=sims)
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
            for step in state.compact_path(ours.choose(state.engine)):
                state.apply_action(step)
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
    return {"luckylab_won": returns[ours_seat] == 1.0, "openspiel_won": returns[their_seat] == 1.0,
            "cpu": cpu, "decisions": decisions}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per game and seat")
    parser.add_argument("--sims", type=int, default=32, help="simulations per decision")
    parser.add_argument("--seed", type=int, default=2026, help="the first deal's seed")
    parser.add_argument("--only", choices=sorted(SEARCH), help="one game only")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args(argv)
    rows = []
    for game_name in sorted(SEARCH) if args.only is None else [args.only]:
        for seat in (0, 1):
            games = [play(game_name, args.seed + i, seat, args.sims) for i in range(args.games)]
            ours = sum(g["luckylab_won"] for g in games)
            theirs = sum(g["openspiel_won"] for g in games)
            row = {"game": game_name, "luckylab_seat": seat + 1, "games": len(games),
                   "sims": args.sims,
                   "luckylab": wilson_ci(ours, len(games)),
                   "openspiel": wilson_ci(theirs, len(games)),
                   "no_winner": len(games) - ours - theirs}
            for who in ("luckylab", "openspiel"):
                spent = sum(g["cpu"][who] for g in games)
                count = sum(g["decisions"][who] for g in games)
                row[f"{who}_ms_per_decision"] = round(1000 * spent / max(count, 1), 2)
            rows.append(row)
            print(f"{game_name:6} luckylab in seat {seat + 1}: luckylab wins "
                  f"{row['luckylab'][0]:.2f} [{row['luckylab'][1]:.2f}, {row['luckylab'][2]:.2f}]"
                  f", OpenSpiel {row['openspiel'][0]:.2f} [{row['openspiel'][1]:.2f}, "
                  f"{row['openspiel'][2]:.2f}], no winner {row['no_winner']} of {len(games)}; "
                  f"CPU ms/decision luckylab {row['luckylab_ms_per_decision']}, OpenSpiel "
                  f"{row['openspiel_ms_per_decision']}", flush=True)
            if args.json:
                args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
