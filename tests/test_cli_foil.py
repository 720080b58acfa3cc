"""``luckylab foil``: P(foil) exact and simulated from the command line (I-FOIL-1, I-FOIL-2)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys

import pytest

from luckylab.analysis.luck import monte_carlo_p_foil, p_foil
from luckylab.cli import COMMANDS, foil


def run_foil(argv, capsys):
    """Parse and run ``foil`` the way ``python -m luckylab`` does (errors as in __main__)."""
    from luckylab.errors import LuckyLabError

    parser = argparse.ArgumentParser(prog="luckylab")
    foil.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["foil", *argv])
    try:
        code = args.func(args)
    except LuckyLabError as exc:  # what luckylab.__main__.main does
        print(f"luckylab: error: {exc}", file=sys.stderr)
        code = 2
    out = capsys.readouterr()
    return code, out.out, out.err


def test_foil_is_a_registered_command():
    assert "luckylab.cli.foil" in COMMANDS


def test_json_has_exact_monte_carlo_and_stderr(capsys):
    code, out, _ = run_foil(["--game", "island", "--attack", "20", "--hands", "6", "6", "6",
                             "--samples", "20000", "--seed", "3", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["p_foil_exact"] == p_foil(20, [6, 6, 6])
    est = monte_carlo_p_foil(20, [6, 6, 6], samples=20_000, seed=3)
    assert data["p_foil_monte_carlo"] == est.value
    assert data["stderr"] == est.stderr
    assert data["samples"] == 20_000 and data["seed"] == 3 and data["game"] == "island"
    assert data["agrees"] is True
    assert [row["outcome"] for row in data["players_needed"]] == [1, 2, 3, None]


def test_known_card_ids_condition_the_answer(capsys):
    code, out, _ = run_foil(["--attack", "14", "--hands", "5", "5", "--known", "0", "1", "2",
                             "--samples", "2000", "--json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["known_cards"] == 3 and data["unseen_cards"] == 69
    assert data["p_foil_exact"] == p_foil(14, [5, 5], known=[0, 1, 2])


def test_readable_output_names_the_numbers(capsys):
    code, out, _ = run_foil(["--attack", "20", "--hands", "6", "6", "6", "--samples", "5000"],
                            capsys)
    assert code == 0
    assert "Attack 20 against hands 6 6 6" in out
    assert "P(foil) exact      0.814788" in out
    assert "P(foil) simulated" in out and "5000 tables, seed 0" in out
    assert out.splitlines()[-1].split()[0] == "never"


def test_near_certain_foils_are_not_printed_as_certain(capsys):
    _, out, _ = run_foil(["--attack", "6", "--hands", "6", "6", "6", "--samples", "100"],
                         capsys)
    assert "P(foil) exact      1 - 3.063e-09" in out


@pytest.mark.parametrize("argv, message", [
    (["--attack", "6", "--hands", "50", "30"], "need 80 cards but only 72"),
    (["--attack", "-1", "--hands", "6"], "attack cannot be negative"),
    (["--attack", "6", "--hands", "6", "--known", "99"], "known card 99 is not in the deck"),
    (["--attack", "6", "--hands", "6", "-1"], "cannot be negative"),
    (["--game", "monopoly", "--attack", "6", "--hands", "6"], "unknown deck 'monopoly'"),
    (["--attack", "6", "--hands", "6", "--samples", "0"], "samples"),
])
def test_bad_input_is_a_clear_error_with_exit_code_2(argv, message, capsys):
    code, out, err = run_foil(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("luckylab: error:") and message in err


def test_missing_required_arguments_are_usage_errors(capsys):
    with pytest.raises(SystemExit) as stop:
        run_foil(["--hands", "6"], capsys)
    assert stop.value.code == 2


@pytest.mark.skipif(any(importlib.util.find_spec(name) is None for name in COMMANDS),
                    reason="another subcommand module of COMMANDS is not written yet")
def test_python_dash_m_luckylab_foil_json():
    done = subprocess.run([sys.executable, "-m", "luckylab", "foil", "--game", "island",
                           "--attack", "6", "--hands", "6", "6", "6", "--samples", "1000",
                           "--json"], capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    assert {"p_foil_exact", "p_foil_monte_carlo", "stderr", "samples", "seed"} <= set(data)
