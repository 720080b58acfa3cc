"""The measured search curve (lesson 11): labelled, loadable, and the script that makes it works.

``luckylab/data/search_curve.json`` is written by ``benchmarks/search_curve.py``; the lesson
draws it. These tests check that every point says where it comes from, that the loader refuses
unlabelled or impossible data, and that the script's budget-0 games (the rule itself, cheap)
still give the stored wins: if the bots or the engines change, the curve must be measured again.
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
from pathlib import Path

import pytest

from luckylab.analysis.search_strength import SOURCE, SearchCurveError, load_search_curve

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def script():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        yield importlib.import_module("search_curve")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_the_bundled_curve_is_labelled_and_consistent():
    data = load_search_curve()
    assert data["source"] == SOURCE
    assert data["command"].startswith("python benchmarks/search_curve.py")
    assert data["commit"] and data["luckylab_version"]
    budgets = None
    for setting in data["settings"]:
        points = setting["points"]
        assert [p["budget"] for p in points] == sorted(p["budget"] for p in points)
        assert points[0]["budget"] == 0, "the curve starts from the rule itself"
        budgets = budgets or [p["budget"] for p in points]
        assert [p["budget"] for p in points] == budgets, "every setting has the same budgets"
        for point in points:
            assert point["games"] == data["games_per_point"]
            assert point["seed"] == data["seed"]
            assert 0 <= point["wins"] <= point["games"]


@pytest.mark.slow
def test_budget_zero_replays_the_stored_wins(script):
    data = load_search_curve()
    from luckylab.simulation import game_seeds

    seeds = game_seeds(data["seed"], data["games_per_point"])
    for setting in data["settings"]:
        base = setting["points"][0]
        results = [script.play((setting["game"], setting["players"], setting["opponent"], 0, s))
                   for s in seeds]
        assert sum(r[0] for r in results) == base["wins"], setting["game"]
        assert {r[2] for r in results} == set(setting["rollout_bot"].split("/"))


def test_the_script_writes_a_file_the_loader_accepts(script, tmp_path, capsys):
    out = tmp_path / "curve.json"
    script.main(["--games", "3", "--budgets", "0", "2", "--seed", "5", "--out", str(out)])
    data = load_search_curve(out)
    assert data["games_per_point"] == 3 and data["seed"] == 5
    assert "--games 3" in data["command"]
    assert [s["game"] for s in data["settings"]] == [g for g, _, _ in script.SETTINGS]
    assert all([p["budget"] for p in s["points"]] == [0, 2] for s in data["settings"])
    assert "wrote" in capsys.readouterr().out


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.pop("commit"), "missing commit"),
    (lambda d: d.update(source="typed in by hand"), "source is"),
    (lambda d: d["settings"][0]["points"][1].pop("wins"), "point 1: missing wins"),
    (lambda d: d["settings"][0]["points"][0].update(wins=10**6), "wins must lie between"),
])
def test_the_loader_refuses_unlabelled_or_impossible_data(tmp_path, damage, message):
    data = copy.deepcopy(load_search_curve())
    damage(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SearchCurveError, match=message):
        load_search_curve(path)


def test_a_missing_file_says_how_to_make_it(tmp_path):
    with pytest.raises(SearchCurveError, match="benchmarks/search_curve.py"):
        load_search_curve(tmp_path / "nowhere.json")


# -- the strength table (benchmarks/bench_search.py --json) ----------------------------------------

def test_the_bundled_strength_table_is_labelled_and_consistent():
    from luckylab.analysis.search_strength import STRENGTH_SOURCE, load_search_strength

    data = load_search_strength()
    assert data["source"] == STRENGTH_SOURCE
    assert data["command"].startswith("python benchmarks/bench_search.py")
    assert data["commit"] and data["luckylab_version"] and data["bot"] == "ismcts"
    seen = set()
    for row in data["rows"]:
        assert row["game"] in ("island", "kill", "save", "panic", "doctorwho")
        assert row["games"] >= 10 and row["iterations"] > 0
        assert 0 <= row["total"] <= row["games"] and 0 <= row["best_total"] <= row["games"]
        assert row["best_total"] == max(row["readable"].values())
        seen.add((row["game"], row["players"], row["opponents"]))
    assert len(seen) == len(data["rows"]), "one row per game, player count and opposition"
    assert {g for g, _, _ in seen} == {"island", "kill", "save", "panic", "doctorwho"}


@pytest.mark.slow
def test_the_strength_tables_readable_baseline_replays():
    """The best readable bot's total in the first row, replayed from the stored seeds (cheap:
    no search). If the bots or the engines change, the table must be measured again."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        bench = importlib.import_module("bench_search")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    from luckylab.analysis.search_strength import load_search_strength
    from luckylab.simulation import game_seeds

    data = load_search_strength()
    row = data["rows"][0]
    seeds = game_seeds(1300 + row["players"], row["games"])
    total = sum(bench.play((row["game"], row["players"], s, row["best_readable"],
                            bench.opponents(row["game"], row["players"], row["opponents"], i),
                            data["bot"], (row["iterations"], row.get("max_cpu_ms"),
                                          row.get("rollout"), row.get("options", {}))))[0]
                for i, s in enumerate(seeds))
    assert total == pytest.approx(row["best_total"])


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.pop("commit"), "missing commit"),
    (lambda d: d.update(source="typed in by hand"), "source is"),
    (lambda d: d["rows"][0].pop("best_total"), "row 0: missing best_total"),
    (lambda d: d["rows"][0].update(total=10**6), "each game scores between 0 and 1"),
    (lambda d: d["rows"][0].update(metric="vibes"), "metric is 'vibes'"),
    (lambda d: d.update(rows=[]), "non-empty list"),
])
def test_the_strength_loader_refuses_unlabelled_or_impossible_data(tmp_path, damage, message):
    from luckylab.analysis.search_strength import load_search_strength

    data = copy.deepcopy(load_search_strength())
    damage(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SearchCurveError, match=message):
        load_search_strength(path)
