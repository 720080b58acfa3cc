"""The paired-variants bench and its pairing of saved runs work end to end (tiny budgets).

``benchmarks/bench_search_variants.py`` measures the search's options (the issue notes quote
it); a run's sides saved with ``--save`` are paired later by ``benchmarks/pair_runs.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_saved_sides_pair_across_runs(tmp_path):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    common = ["benchmarks/bench_search_variants.py", "kill:2", "--opposition", "patient",
              "--games", "3", "--base", "iterations=4"]
    run(*common, "--variant", "iterations=6", "others=bot", "--save", str(first))
    run(*common, "--variant", "iterations=6", "--save", str(second))
    saved = json.loads(first.read_text())
    assert saved["deals"] == 3 and len(saved["variant"]["returns"]) == 3
    assert saved["variant"]["options"]["others"] == "bot"
    # the base is the same on the same deals, whatever else ran
    assert saved["base"] == json.loads(second.read_text())["base"]
    out = run("benchmarks/pair_runs.py", f"{first}:variant", f"{second}:variant")
    assert "kill:2 against patient, 3 deals: first - second" in out
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**saved, "opposition": "opportunist"}))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "benchmarks/pair_runs.py", f"{first}:base",
                           f"{other}:base"], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=60)
    assert proc.returncode != 0 and "not the same games: opposition" in proc.stderr


def test_agreement_runs_in_worker_processes():
    """Positions go to the workers as (seed, moves), replayed there: a Kill game is not
    pickled."""
    out = run("benchmarks/bench_search_variants.py", "kill:2", "--agreement", "2", "--jobs",
              "2", "--base", "iterations=4", "--variant", "iterations=4", "others=bot")
    assert out.startswith("kill:2: ") and "of 2 positions chosen differently" in out
