"""Every bad command line ends with ``luckylab: error: ...`` and exit 2, never a traceback
(issue 15); ``--json`` output is strict JSON; a closed pipe is not an error worth a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from luckylab.__main__ import main

ROOT = Path(__file__).resolve().parents[1]


def run(argv, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


BAD = [
    ["simulate", "--players", "0"],
    ["simulate", "--players", "-3"],
    ["simulate", "--players", "99"],
    ["simulate", "--players", "1", "--game", "island"],
    ["simulate", "--players", "8", "--game", "save"],
    ["simulate", "--games", "-1"],
    ["simulate", "--seed", "-1"],
    ["simulate", "--workers", "-2"],
    ["simulate", "--agents", "nope", "--games", "1"],
    ["simulate", "--agents", "random", "random", "--games", "1"],
    ["simulate", "--game", "save", "--agents", "pimc", "--games", "1"],
    ["simulate", "--game", "panic", "--agents", "pimc", "--games", "1"],
    ["simulate", "--game", "chess", "--games", "1"],
    ["simulate", "--players", "x"],
    ["board", ""],
    ["board", "nope"],
    ["board", "/dev/zero"],
    ["board", "missing.toml"],
    ["foil", "--seed", "-1", "--attack", "3", "--hands", "3"],
    ["foil", "--attack", "3", "--hands", "3", "--game", "x.json"],
    ["foil", "--attack", "3", "--hands", "-3"],
    ["foil", "--attack", "3", "--hands", "3", "--samples", "0"],
    ["nonsense"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) or "empty" for a in BAD])
def test_bad_invocations_end_with_luckylab_error_and_exit_2(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2
    assert "error:" in err and "Traceback" not in err
    if argv[0] != "nonsense" and "x" not in argv:
        assert "luckylab" in err


@pytest.mark.parametrize(("game", "players", "other"), [
    ("kill", 2, "patient"), ("island", 2, "cautious"), ("save", 3, "rider"),
    ("panic", 3, "perfect"), ("doctorwho", 3, "greedy")])
def test_the_look_ahead_bot_is_an_agent_of_every_game(game, players, other, capsys,
                                                       monkeypatch):
    from luckylab.agents.ismcts import AGENTS

    monkeypatch.setattr(AGENTS[game], "default_iterations", 2)  # the wiring, not the strength
    code, out, err = run(["simulate", "--game", game, "--players", str(players), "--games", "1",
                          "--agents", "ismcts", *[other] * (players - 1), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["games"] == 1


def test_the_baseline_look_ahead_bot_is_an_agent_of_island_and_kill_only(capsys):
    code, out, err = run(["simulate", "--game", "save", "--agents", "pimc", "--games", "1"],
                         capsys)
    assert code == 2
    assert err == ("luckylab: error: no agent 'pimc' for save; agents: rider, greedy, random, "
                   "cautious, ismcts (the baseline 'pimc' plays island and kill only)\n")
    code, out, err = run(["simulate", "--game", "island", "--agents", "nope", "--games", "1"],
                         capsys)
    assert code == 2 and err.rstrip().endswith("agents: cautious, aggressive, random, ismcts, "
                                               "pimc")
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "ismcts, the look-ahead bot" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("content", [b'name = "\xff"\n', b"[" * 5000 + b"]" * 5000,
                                     b'{"a":' * 60 + b"1" + b"}" * 60])
def test_non_utf8_or_deeply_nested_files_are_clear_errors(tmp_path, capsys, content):
    path = tmp_path / ("b.json" if content.startswith((b"[", b"{")) else "b.toml")
    path.write_bytes(content)
    code, out, err = run(["board", str(path)], capsys)
    assert code == 2 and err.startswith("luckylab: error: b.")


def test_json_output_is_strict_json(capsys):
    code, out, err = run(["simulate", "--games", "0", "--json"], capsys)
    assert code == 0
    json.loads(out, parse_constant=lambda c: pytest.fail(f"non-strict JSON {c}"))
    code, out, err = run(["board", "isla-fortuna", "--json"], capsys)
    assert code == 0 and json.loads(out)["name"] == "Isla Fortuna"


def test_a_board_with_non_finite_positions_never_reaches_json(tmp_path, capsys):
    path = tmp_path / "b.json"
    path.write_text('{"kinds": ["room"], "spaces": [{"name": "A", "kind": "room", '
                    '"pos": [NaN, Infinity], "adjacent": []}]}', encoding="utf-8")
    code, out, err = run(["board", str(path), "--json"], capsys)
    assert code == 2 and "finite" in err and out == ""


def test_dumps_turns_non_finite_numbers_into_null():
    from luckylab.cli import dumps

    assert json.loads(dumps({"a": [float("nan"), 1.5, float("inf")]})) == {"a": [None, 1.5, None]}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_piping_into_head_gives_no_traceback(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_load import ring_toml

    board = tmp_path / "ring.toml"
    board.write_text(ring_toml(1000), encoding="utf-8")  # --json prints far more than a pipe holds
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(f"{sys.executable} -m luckylab board {board} --json | head -1",
                          shell=True, capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
    assert proc.stdout.count("\n") == 1
