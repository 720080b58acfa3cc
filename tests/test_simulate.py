"""Seeded simulation: reproducible, spread over any executor, plain results; the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import luckylab
from luckylab.agents import agent_class, agent_names
from luckylab.agents.island import AggressiveAgent, CautiousAgent
from luckylab.errors import LuckyLabError
from luckylab.simulation import game_seeds, summarize


def test_same_seed_same_results_and_seeds_do_not_depend_on_chunking():
    a = luckylab.simulate("island", players=4, games=6, seed=5)
    b = luckylab.simulate("island", players=4, games=6, seed=5)
    assert a == b
    assert game_seeds(5, 6)[:3] == game_seeds(5, 3)
    c = luckylab.simulate("island", players=4, games=6, seed=6)
    assert [r.seed for r in a] != [r.seed for r in c]


def test_results_are_plain_per_game_data():
    results = luckylab.simulate("island", players=3, games=4, seed=2)
    assert len(results) == 4
    for r in results:
        d = r.to_dict()
        json.dumps(d)
        assert {"winner", "loser", "turns", "attempts", "hazards", "cards_left"} <= set(d)
        assert r.finished and r.turns > 0
        assert len(r.extra["table_luck_by_turn"]) == r.turns
        for attempt in r.extra["attempts"]:
            assert {"turn", "attacker", "kind", "value", "foiled", "luck_spent",
                    "table_luck"} <= set(attempt)


@pytest.mark.parametrize("make", [lambda: ThreadPoolExecutor(2), lambda: ProcessPoolExecutor(2)])
def test_any_executor_gives_the_serial_results(make):
    serial = luckylab.simulate("island", players=4, games=10, seed=8)
    with make() as pool:
        spread = luckylab.simulate("island", players=4, games=10, seed=8, executor=pool)
    assert spread == serial


def test_agents_by_name_class_or_per_seat():
    by_name = luckylab.simulate("island", players=4, games=3, seed=1, agents="aggressive")
    by_class = luckylab.simulate("island", players=4, games=3, seed=1, agents=AggressiveAgent)
    assert by_name == by_class
    mixed = luckylab.simulate("island", players=4, games=3, seed=1,
                              agents=[CautiousAgent, "aggressive", "random", None])
    assert len(mixed) == 3
    with pytest.raises(ValueError, match=r"3 agents: give one per player \(4\)$"):
        luckylab.simulate("island", players=4, games=1, seed=1, agents=["random"] * 3)
    with pytest.raises(ValueError, match="no agent 'genius'"):
        luckylab.simulate("island", players=4, games=1, seed=1, agents="genius")
    assert agent_names("island")[0] == "cautious"
    assert agent_class("island") is CautiousAgent


def test_the_look_ahead_bots_play_by_name(monkeypatch):
    from luckylab.agents.ismcts import AGENTS

    for game in ("kill", "island"):  # the names and the seating, not the strength
        monkeypatch.setattr(AGENTS[game], "default_iterations", 8)
    kill = luckylab.simulate("kill", players=2, games=2, seed=1, agents=["ismcts", "opportunist"])
    assert len(kill) == 2 and all(r.finished for r in kill)
    assert kill == luckylab.simulate("kill", players=2, games=2, seed=1,
                                     agents=["ismcts", "opportunist"])  # seeded
    island = luckylab.simulate("island", players=4, games=1, seed=2,
                               agents=["ismcts", "cautious", "cautious", "cautious"])
    assert island[0].finished
    baseline = luckylab.simulate("kill", players=2, games=1, seed=1, agents=["pimc", "patient"])
    assert baseline[0].finished
    for game in ("save", "panic", "doctorwho"):
        with pytest.raises(LuckyLabError, match=rf"no agent 'pimc' for {game}; agents: "
                           r"\w.*, ismcts \(the baseline 'pimc' plays island and kill only\)"):
            luckylab.simulate(game, players=4, games=1, seed=1, agents="pimc")
    with pytest.raises(LuckyLabError, match="agents: opportunist, patient, random, ismcts, "
                       "pimc$"):
        luckylab.simulate("kill", players=2, games=1, seed=1, agents="genius")


def test_strangers_need_no_agent_but_a_per_seat_list_covers_every_seat():
    results = luckylab.simulate("island", players=2, games=2, seed=1,
                                agents=["aggressive", None, "random", None])
    assert all(r.finished for r in results)


def test_one_agent_per_player_seats_the_strangers_with_the_default():
    """Issue 26: a user thinks in players; the Strangers (seats between them) play the game's
    default bot unless a per-seat list names theirs."""
    from luckylab.agents.island import RandomIslandAgent as RandomAgent
    from luckylab.simulation import _setup, player_seats

    assert player_seats("island", players=2) == [0, 2]
    assert player_seats("island", players=3) == [0, 2, 4]
    assert player_seats("island", players=3, strangers=False) == [0, 1, 2]
    per_player = luckylab.simulate("island", players=2, games=3, seed=1,
                                   agents=["aggressive", "random"])
    assert per_player == luckylab.simulate("island", players=2, games=3, seed=1,
                                           agents=["aggressive", None, "random", None])
    assert per_player != luckylab.simulate("island", players=2, games=3, seed=1,
                                           agents=["aggressive", "random", None, None])
    _, bots = _setup("island", 3, 5, ["random", AggressiveAgent, "random"], {})
    assert [type(b) for b in bots] == [RandomAgent, CautiousAgent, AggressiveAgent,
                                       CautiousAgent, RandomAgent, CautiousAgent]
    _, bots = _setup("island", 2, 5, ["random", "aggressive", "random", "aggressive"], {})
    assert [type(b) for b in bots] == [RandomAgent, AggressiveAgent] * 2  # per seat: as given
    for count in (1, 3, 5):
        with pytest.raises(LuckyLabError, match=rf"^agents lists {count} agents: give one per "
                           r"player \(2; the Strangers play the default\) or one per seat "
                           r"\(4: the players and their Strangers"):
            luckylab.simulate("island", players=2, games=1, seed=1, agents=["random"] * count)
    with pytest.raises(LuckyLabError, match=r"2 agents: give one per player \(3\)$"):
        luckylab.simulate("kill", players=3, games=1, seed=1, agents=["random"] * 2)


@pytest.mark.slow
def test_the_look_ahead_bot_against_a_cautious_player_in_a_two_player_island():
    from luckylab.agents.ismcts import IslandISMCTS

    class Quick(IslandISMCTS):  # the seating, not the strength: a small budget
        default_iterations = 16

    duel = luckylab.simulate("island", players=2, games=1, seed=0, agents=[Quick, "cautious"])
    assert duel == luckylab.simulate("island", players=2, games=1, seed=0,
                                     agents=[Quick, None, "cautious", None])
    assert duel[0].finished


def test_summary_counts():
    results = luckylab.simulate("island", players=4, games=5, seed=3)
    summary = summarize(results, seconds=0.5)
    assert summary["games"] == 5 and summary["finished"] == 5
    assert sum(summary["wins_by_seat"].values()) == 5
    assert summary["games_per_second"] == 10.0


def test_bad_game_counts():
    with pytest.raises(ValueError, match="games"):
        luckylab.simulate("island", games=-1)
    assert luckylab.simulate("island", games=0) == []


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "luckylab", *args], capture_output=True,
                          text=True, timeout=120)


def test_cli_simulate_json():
    out = run_cli("simulate", "--game", "island", "--players", "4", "--games", "20", "--seed",
                  "1", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["games"] == 20 and data["finished"] == 20
    assert {"wins_by_seat", "mean_turns", "games_per_second"} <= set(data)
    again = json.loads(run_cli("simulate", "--games", "20", "--seed", "1", "--json").stdout)
    assert again["wins_by_seat"] == data["wins_by_seat"]


def test_cli_board_json_has_spaces_edges_and_sight():
    out = run_cli("board", "isla-fortuna", "--json")
    data = json.loads(out.stdout)
    assert len(data["spaces"]) == 24 and data["edges"] and data["sight"]["Frog Pond"]
    assert data["status"] == "reconstruction"


def test_cli_errors_are_short_and_clear():
    out = run_cli("board", "atlantis")
    assert out.returncode == 2 and "unknown board 'atlantis'" in out.stderr
    assert "Traceback" not in out.stderr


def test_every_game_simulates_and_summarizes():
    for game in ("kill", "save", "panic"):
        results = luckylab.simulate(game, players=4, games=3, seed=1)
        assert len(results) == 3 and all(r.game == game for r in results)
        summary = summarize(results)
        assert summary["games"] == 3
    assert "won" in summarize(luckylab.simulate("panic", players=4, games=3, seed=1))


def test_simulate_can_be_called_twice():  # a submodule once shadowed the function
    luckylab.simulate("island", players=4, games=1, seed=1)
    assert callable(luckylab.simulate)


def test_seeded_games_do_not_depend_on_string_hashing():
    """The same seed replays bit for bit in another process, whatever PYTHONHASHSEED is
    (set iteration order must never leak into a game)."""
    import os

    code = ("import luckylab, json; print(json.dumps([[r.to_dict() for r in "
            "luckylab.simulate(g, players=4, games=3, seed=2, agents='random')] "
            "for g in ('island', 'kill', 'save', 'panic')]))")
    outputs = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, timeout=300, check=True)
        outputs.add(out.stdout)
    assert len(outputs) == 1


def test_play_game_goes_through_the_protocol_only(monkeypatch):
    """Quiet (quieten) when no bot reads events, the engine's own loop (play_out) when every
    bot is a trusted bundled bot, apply otherwise; never an engine's private attribute."""
    from luckylab.games.kill import KillGame
    from luckylab.simulation import play_game

    calls = []
    real_quiet, real_play_out = KillGame.quieten, KillGame.play_out

    def quieten(self, quiet=True):
        calls.append(("quiet", quiet))
        real_quiet(self, quiet)

    def play_out(self, choosers):
        calls.append(("play_out", len(choosers)))
        real_play_out(self, choosers)

    monkeypatch.setattr(KillGame, "quieten", quieten)
    monkeypatch.setattr(KillGame, "play_out", play_out)
    fast = play_game("kill", 3, seed=5)
    assert calls == [("quiet", True), ("play_out", 3), ("quiet", False)]
    calls.clear()
    assert play_game("kill", 3, seed=5, checked=True) == fast  # the same game, every check
    assert calls == []


def test_cli_counts_players_from_1_and_takes_one_agent_per_player(capsys):
    """Issue 26: the text says Player 1, 2 ... (the Strangers' wins together); the JSON keeps
    ``wins_by_seat`` with seats from 0, as documented."""
    from luckylab.__main__ import main

    argv = ["simulate", "--players", "2", "--games", "12", "--seed", "4",
            "--agents", "aggressive", "random"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = summarize(luckylab.simulate("island", players=2, games=12, seed=4,
                                           agents=["aggressive", None, "random", None]))
    assert data["wins_by_seat"] == expected["wins_by_seat"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    wins = data["wins_by_seat"]

    def said(n):
        return f"{n} win{'' if n == 1 else 's'}"

    assert lines == [f"  Player 1: {said(wins.get('0', 0))}",
                     f"  Player 2: {said(wins.get('2', 0))}",
                     f"  Strangers: {said(data['stranger_wins'])}"]
    assert not any("seat" in line for line in lines)
    assert main(["simulate", "--game", "kill", "--players", "3", "--games", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert [line.split(":")[0] for line in lines] == ["  Player 1", "  Player 2", "  Player 3"]
