"""Attempt outcomes over games: hand-made results pin the arithmetic, real seeded Island games
check the shape end to end (I-FOIL-2: an attempt not foiled kills; I-KILL-3: Attack grows after
a failure; I-HAZ-4: a Hazard on Doctor Lucky is a foiling round too; I-END-2: capped games)."""

from __future__ import annotations

import importlib.util

import pytest

from luckylab import GameResult
from luckylab.analysis.attempts import (
    attempt_outcomes,
    attempt_table,
    attempts_before_kill,
    foiling_when_able,
    table_luck_over_turns,
)


def attempt(turn, foiled, value=3, kind="murder", table_luck=10, spent=None):
    return {"turn": turn, "attacker": 0, "kind": kind, "value": value, "foiled": foiled,
            "luck_spent": (value if foiled else 0) if spent is None else spent,
            "table_luck": table_luck}


def game(attempts, luck_by_turn=(), finished=None, seed=0):
    if finished is None:
        finished = bool(attempts) and not attempts[-1]["foiled"]
    return GameResult("island", 4, seed, finished=finished, winner=0 if finished else None,
                      loser=None, turns=len(luck_by_turn), attempts=len(attempts),
                      extra={"attempts": attempts, "table_luck_by_turn": list(luck_by_turn)})


RESULTS = [
    # 1. foiled, foiled, killed by the third murder attempt
    game([attempt(2, True, 2, table_luck=14), attempt(5, True, 3, table_luck=9),
          attempt(8, False, 4, table_luck=3)], luck_by_turn=[20, 18, 15, 12, 10, 8, 6, 4]),
    # 2. a Hazard on Doctor Lucky foiled, then the first murder attempt kills
    game([attempt(3, True, 5, kind="hazard", table_luck=12), attempt(4, False, 2, table_luck=1)],
         luck_by_turn=[22, 20, 17, 16]),
    # 3. killed by a Hazard after one foiled murder attempt
    game([attempt(1, True, 2, table_luck=11),
          attempt(3, False, 6, kind="hazard", table_luck=8)], luck_by_turn=[19, 16, 14]),
    # 4. stopped at the turn cap (I-END-2) after one foiled attempt
    game([attempt(1, True, 2, table_luck=11)], luck_by_turn=[19, 18], finished=False),
]


def test_I_KILL_3_p_kth_murder_attempt_succeeds():
    rows = attempt_outcomes(RESULTS)
    assert [(r["attempt"], r["games"], r["succeeded"]) for r in rows] == [
        (1, 4, 1),  # game 2's first murder attempt kills
        (2, 1, 0),
        (3, 1, 1),
    ]
    assert rows[0]["p_success"] == 0.25
    assert rows[0]["stderr"] == pytest.approx((0.25 * 0.75 / 4) ** 0.5)
    assert rows[0]["mean_value"] == 2 and rows[0]["mean_table_luck"] == (14 + 1 + 11 + 11) / 4
    assert rows[0]["p_table_could_cover"] == 0.75  # game 2: 1 Luck against 2


def test_I_HAZ_4_hazards_count_as_attempts_when_asked():
    rows = attempt_outcomes(RESULTS, kind="all")
    assert [(r["attempt"], r["games"], r["succeeded"]) for r in rows] == [
        (1, 4, 0), (2, 3, 2), (3, 1, 1)]
    hazards = attempt_outcomes(RESULTS, kind="hazard")
    assert [(r["games"], r["succeeded"]) for r in hazards] == [(2, 1)]


def test_attempts_before_kill_counts_the_killing_attempt_and_skips_capped_games():
    everything = attempts_before_kill(RESULTS)
    assert everything["kills"] == 3 and everything["unfinished"] == 1
    assert everything["mean"] == (3 + 2 + 2) / 3
    assert everything["mean_failed"] == pytest.approx(everything["mean"] - 1)
    assert everything["distribution"] == {2: 2 / 3, 3: 1 / 3}
    murders = attempts_before_kill(RESULTS, kind="murder")
    assert murders["kills"] == 2 and murders["mean"] == (3 + 1) / 2  # games 1 and 2


def test_table_luck_drains_over_turns():
    rows = table_luck_over_turns(RESULTS)
    assert len(rows) == 8
    assert rows[0] == {"turn": 1, "games": 4, "mean": 20.0, "stderr": pytest.approx(
        (sum((x - 20) ** 2 for x in [20, 22, 19, 19]) / 3) ** 0.5 / 2),
        "min": 19, "q1": 19.0, "median": 19.5, "q3": 20.5, "max": 22}
    assert [r["games"] for r in rows] == [4, 4, 3, 2, 1, 1, 1, 1]
    assert rows[-1]["mean"] == 4 and rows[-1]["stderr"] is None


def test_foiling_when_able():
    summary = foiling_when_able(RESULTS)
    assert summary["attempts"] == 8
    # all but the two killing murder attempts (3 Luck against 4, 1 against 2)
    assert summary["could_cover"] == 6
    assert summary["foiled"] == 5
    assert summary["p_foiled_when_able"] == 5 / 6
    assert summary["mean_overpay"] == 0


def test_attempt_table_is_flat():
    rows = attempt_table(RESULTS)
    assert len(rows) == 8
    assert rows[0] == {"game": 0, "seed": 0, "number": 1, **attempt(2, True, 2, table_luck=14)}
    assert [r["number"] for r in attempt_table(RESULTS, kind="murder") if r["game"] == 1] == [1]


@pytest.mark.parametrize("call, match", [
    (lambda: attempt_outcomes([]), "no game results"),
    (lambda: attempt_outcomes(RESULTS, kind="poison"), "kind must be one of"),
    (lambda: attempt_outcomes([GameResult("kill", 4, 0, True, 0, None, 3, 1)]),
     "no extra\\['attempts'\\]"),
    (lambda: attempt_outcomes([game([{"turn": 1}], finished=False)]), "lacks"),
    (lambda: table_luck_over_turns([GameResult("kill", 4, 0, True, 0, None, 3, 1)]),
     "table_luck_by_turn"),
])
def test_bad_input_raises_a_clear_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.skipif(importlib.util.find_spec("luckylab.games.island") is None,
                    reason="the Island engine is not written yet")
def test_real_seeded_island_games_summarize():
    from luckylab import simulate

    results = simulate("island", players=4, games=12, seed=3)
    assert results == simulate("island", players=4, games=12, seed=3)  # seeded
    rows = attempt_outcomes(results, kind="all")
    assert rows[0]["games"] == sum(1 for r in results if r.extra["attempts"])
    for row in rows:
        assert 0 <= row["p_success"] <= 1
    kills = attempts_before_kill(results)
    assert kills["kills"] + kills["unfinished"] == len(results)
    assert sum(kills["distribution"].values()) == pytest.approx(1)
    for result in results:
        log = result.extra["attempts"]
        assert all(a["foiled"] for a in log[:-1])  # I-FOIL-2: only the last can kill
        if result.finished:
            assert not log[-1]["foiled"]
        murders = [a for a in log if a["kind"] == "murder"]
        assert result.attempts == len(murders)
    luck = table_luck_over_turns(results)
    assert luck[0]["games"] == len(results)
    assert all(row["min"] <= row["median"] <= row["max"] for row in luck)
    able = foiling_when_able(results)
    assert able["foiled"] <= able["attempts"]
