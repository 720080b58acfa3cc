"""Pin seeded games: the sha256 digest of every game's record and result, per engine.

``tests/data/game_digests.json`` holds, for each configuration (engine, players, agents), the
digests of its first games under a fixed run seed. ``tests/test_game_digests.py`` replays them
and fails if any game differs by a single action or result field, so a speed-up that changes
a game is caught.

Regenerate deliberately, after a change that is *meant* to change games (a rules fix), with one
command from the repository root::

    PYTHONPATH=$PWD python tests/make_game_digests.py              # every engine
    PYTHONPATH=$PWD python tests/make_game_digests.py save panic   # only these engines

and say in the commit why the games changed. A game is played here the way
``luckylab.simulation.play_game`` plays it (same per-game seeds, same agent seeds), but through
the fully checked path (``apply`` validating every action and formatting every event); the test
also checks that ``luckylab.simulate`` returns exactly the same results.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

DIGESTS = Path(__file__).parent / "data" / "game_digests.json"
RUN_SEED = 2024

# (engine, players, agents, games). ``agents`` is one agent name for every seat, or a list.
# The first FAST games of each configuration are checked in the quick test, the rest are slow.
CONFIGS: list[tuple[str, int, Any, int]] = [
    ("island", 2, "cautious", 40),
    ("island", 3, "aggressive", 40),
    ("island", 4, "cautious", 60),
    ("island", 4, "aggressive", 40),
    ("island", 8, "cautious", 30),
    ("island", 2, "random", 12),
    ("island", 4, "random", 20),
    ("island", 4, ["cautious", "aggressive", "random", None], 20),
    ("kill", 2, "opportunist", 40),
    ("kill", 4, "opportunist", 60),
    ("kill", 4, "patient", 40),
    ("kill", 6, "opportunist", 30),
    ("kill", 2, "random", 20),
    ("kill", 4, "random", 20),
    ("kill", 4, ["opportunist", "patient", "random", "opportunist"], 20),
    ("save", 3, "rider", 40),
    ("save", 4, "rider", 60),
    ("save", 4, "greedy", 40),
    ("save", 4, "cautious", 40),
    ("save", 7, "rider", 30),
    ("save", 4, "random", 30),
    ("panic", 1, "perfect", 40),
    ("panic", 2, "perfect", 60),
    ("panic", 4, "perfect", 40),
    ("panic", 4, "forgetful", 40),
    ("panic", 3, "none", 40),
    ("panic", 2, "random", 40),
    ("panic", 4, "random", 40),
    ("doctorwho", 3, "greedy", 50),
    ("doctorwho", 4, "greedy", 50),
    ("doctorwho", 3, "careful", 30),
    ("doctorwho", 4, "bluffer", 30),
    ("doctorwho", 3, "random", 20),
    ("doctorwho", 4, ["greedy", "careful", "bluffer", "random"], 20),
]
FAST = 3


def config_key(game: str, players: int, agents: Any) -> str:
    names = agents if isinstance(agents, str) else ",".join(str(a) for a in agents)
    return f"{game}/{players}p/{names}"


def play_checked(game: str, players: int, seed: int, agents: Any):
    """One game through the checked path: ``(final state, result)``."""
    import luckylab
    from luckylab.agents import agent_class
    from luckylab.simulation import _agent_specs

    state = luckylab.new_game(game, players=players, seed=seed)
    specs = _agent_specs(game, agents, len(getattr(state, "seats", range(players))))
    rng = random.Random(seed ^ 0x5EED)  # as play_game seeds its agents
    bots = [agent_class(game, spec)(seed=rng.getrandbits(32)) for spec in specs]
    while not state.is_over:
        events = state.apply(bots[state.current_player].choose(state))
        for event in events:  # every event is formatted on this path
            assert isinstance(event.text, str)
    return state, state.result()


# The parts of a record that define the game (a record also pins the package version and
# content hashes, which change with a release, not with the game).
GAME_FIELDS = ("game", "players", "seed", "options", "actions")


def digest(state: Any, result: Any) -> str:
    record = state.record()
    blob = json.dumps({"record": {k: record[k] for k in GAME_FIELDS if k in record},
                       "result": result.to_dict()}, sort_keys=True,
                      separators=(",", ":"), default=repr)
    return hashlib.sha256(blob.encode()).hexdigest()


def config_digests(game: str, players: int, agents: Any, games: int) -> list[str]:
    from luckylab.simulation import game_seeds

    return [digest(*play_checked(game, players, s, agents))
            for s in game_seeds(RUN_SEED, games)]


def main(engines: list[str]) -> None:
    stored = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    pinned = stored.get("games", {})
    for game, players, agents, games in CONFIGS:
        if engines and game not in engines:
            continue
        key = config_key(game, players, agents)
        pinned[key] = config_digests(game, players, agents, games)
        print(f"{key}: {games} games", file=sys.stderr)
    order = [config_key(g, p, a) for g, p, a, _ in CONFIGS]
    stored = {"run_seed": RUN_SEED,
              "how": "sha256 of json.dumps({'record': <game, players, seed, options, "
                     "actions of state.record()>, 'result': result.to_dict()}, "
                     "sort_keys=True); regenerate with "
                     "`PYTHONPATH=$PWD python tests/make_game_digests.py [ENGINE ...]`",
              "games": {k: pinned[k] for k in order if k in pinned}}
    DIGESTS.parent.mkdir(exist_ok=True)
    DIGESTS.write_text(json.dumps(stored, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
