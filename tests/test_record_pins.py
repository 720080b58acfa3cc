"""A record pins every field of every action and every option (issue 29, "Records").

The final-state digest hashes the result and the events' sentences, which do not always say
which card was used; ``inputs_sha256`` pins what was played itself, so changing any single
action field or option in a record is reported on replay.
"""

from __future__ import annotations

import json
import random

import pytest

import luckylab
from luckylab import new_game


def _played(game_name: str, players: int, seed: int, limit: int = 80):
    game = new_game(game_name, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def _other(value):
    """Another value of the same JSON type (never equal to ``value``)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return value[:-1] if value else [0]
    if value is None:
        return 0
    return None


GAMES = [("island", 3), ("kill", 4), ("save", 4), ("panic", 2), ("doctorwho", 3)]


@pytest.mark.parametrize(("game_name", "players"), GAMES)
def test_changing_any_single_action_field_is_detected_on_replay(game_name, players):
    record = _played(game_name, players, seed=11).record()
    luckylab.replay(record)  # the genuine record replays
    changed = 0
    for i, entry in enumerate(record["actions"]):
        for key in entry:
            edited = json.loads(json.dumps(record))
            edited["actions"][i][key] = _other(entry[key])
            with pytest.raises(luckylab.ReplayError):
                luckylab.replay(edited)
            changed += 1
    assert changed >= len(record["actions"])


@pytest.mark.parametrize(("game_name", "players"), GAMES)
def test_changing_any_option_seed_or_player_count_is_detected_on_replay(game_name, players):
    record = _played(game_name, players, seed=12, limit=40).record()
    assert record["options"], "every game records its options"
    for key in [*record["options"], "seed", "players"]:
        edited = json.loads(json.dumps(record))
        if key in ("seed", "players"):
            edited[key] = _other(record[key])
        else:
            edited["options"][key] = _other(record["options"][key])
        with pytest.raises(luckylab.ReplayError):
            luckylab.replay(edited)


def test_the_inputs_digest_is_named_when_only_it_can_tell():
    record = _played("island", 3, seed=13).record()
    edited = json.loads(json.dumps(record))
    edited["seed"] = record["seed"] + 1
    del edited["final_sha256"]
    with pytest.raises(luckylab.ReplayError, match="inputs_sha256"):
        luckylab.replay(edited)
