"""The engine's core, as plain data: run under CPython and under Pyodide, the outputs must match.

A few seeded games per engine (their results and replay records), the Isla Fortuna and Kill
Doctor Lucky sight tables and an exact P(foil). Prints one JSON object. Needs only luckylab and
networkx (no numpy: ``import luckylab`` and the engines do not use it).
"""

import json
import sys

import luckylab
from luckylab.analysis.luck import p_foil

GAMES_PER_ENGINE = 3
PLAYERS = {"island": 4, "kill": 4, "save": 4, "panic": 4}


def main() -> None:
    out = {"platform": sys.platform, "games": {}, "records": {}}
    for name, players in PLAYERS.items():
        results = luckylab.simulate(name, players=players, games=GAMES_PER_ENGINE, seed=1)
        out["games"][name] = [r.to_dict() for r in results]
        game = luckylab.new_game(name, players=players, seed=5)
        for _ in range(40):  # the first 40 moves of one game, played by taking the first legal one
            actions = game.legal_actions()
            if not actions or getattr(game, "finished", False):
                break
            game.apply(actions[0])
        out["records"][name] = game.record()
    out["sight"] = {
        board: luckylab.load_board(board).sight_table()
        for board in ("isla-fortuna", "kill-doctor-lucky")
    }
    exact = p_foil(20, [6, 6, 6], exact=True)
    out["p_foil_20_666"] = [exact.numerator, exact.denominator]
    print(json.dumps(out, sort_keys=True, default=str))


if __name__ == "__main__":  # not on import (pytest --doctest-modules imports every module)
    main()
