"""A tournament with deliberately bad bots completes, and each bad bot loses every game it
plays for the right recorded reason (issue 27, item 3)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from luckylab.tournament import Limits, run

BAD_BOTS = {
    # name: (body of choose, the failure kind it must get, words in the reason)
    "raises": ("raise ValueError('my mistake')", "raised", "ValueError: my mistake"),
    "not-an-action": ("return 42", "illegal", "returned 42"),
    "illegal-action": ("return Draw()", "illegal", "rules do not allow"),
    "spins": ("while True:\n    pass", "time", ""),
    "sleeps": ("import time\ntime.sleep(60)", "time", "did not answer"),
    "hoards-memory": ("junk = bytearray(10**9)\nreturn super().choose(game)", "memory",
                      "ran out of memory"),
    "edits-state": ("game.hands[game.current_player].clear()\nreturn super().choose(game)",
                    "state", "changed the game state"),
    "wins-by-decree": ("game.winner = game.current_player\nreturn super().choose(game)",
                       "state", "'winner'"),
    "floods": ("print('spam ' * 100_000)\nreturn super().choose(game)", "output",
               "printed more than"),
    "quits": ("import os\nos._exit(3)", "crashed", "worker process died"),
}


def write_bot(folder: Path, name: str, choose_body: str) -> None:
    body = textwrap.indent(choose_body, " " * 8)
    (folder / f"{name}.py").write_text(
        f"LUCKYLAB_BOT = {{'name': {name!r}, 'game': 'island', 'class': 'Bot'}}\n"
        "from luckylab.agents.island import CautiousAgent\n"
        "from luckylab.games.island import Draw\n\n"
        "class Bot(CautiousAgent):\n"
        "    def choose(self, game):\n"
        "        if game.phase != 'phase1':\n"
        "            return super().choose(game)\n"
        f"{body}\n")


@pytest.mark.slow
def test_bad_bots_lose_their_games_for_the_right_reason_and_the_tournament_goes_on(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    for name, (choose_body, _, _) in BAD_BOTS.items():
        write_bot(bots, name, choose_body)
    write_bot(bots, "good", "return super().choose(game)")
    limits = Limits(decision_seconds=0.3, game_seconds=5, memory_mb=256, output_chars=2000,
                    wall_seconds=4)
    result = run(bots, game="island", players=4, games=16, seed=3, limits=limits,
                 progress=False)
    assert result.games == 16 and not result.problems
    played = {row["bot"]: row for row in result.leaderboard()}
    assert all(row["games"] >= 4 for row in played.values())
    by_bot: dict[str, list] = {}
    for failure in result.failures:
        by_bot.setdefault(failure.bot, []).append(failure)
    assert set(by_bot) == set(BAD_BOTS), by_bot.keys()
    for name, (_, kind, words) in BAD_BOTS.items():
        failures = by_bot[name]
        assert len(failures) == played[name]["games"], (name, failures)  # every game it played
        assert {f.kind for f in failures} == {kind}, (name, failures)
        assert all(words in f.reason for f in failures), (name, failures)
        assert played[name]["wins"] == 0
    for record in result.records:  # every game was played to its end by the others
        assert len(record["places"]) == 4 and record["turns"] > 0
        failed = {f["position"] for f in record["failures"]}
        for k in failed:
            assert record["places"][k] == max(record["places"])
    assert "spam" in "".join(r["output"].get("floods", "") for r in result.records)


@pytest.mark.slow
def test_a_bot_over_its_cpu_time_for_the_game_loses_and_the_next_game_starts_afresh(tmp_path):
    (tmp_path / "slowpoke.py").write_text(
        "LUCKYLAB_BOT = {'name': 'slowpoke', 'game': 'kill', 'class': 'Bot'}\n"
        "import time\n"
        "from luckylab.agents.kill import Opportunist\n\n"
        "class Bot(Opportunist):\n"
        "    def choose(self, game):\n"
        "        start = time.process_time()\n"
        "        while time.process_time() - start < 0.45:\n"
        "            pass\n"
        "        return super().choose(game)\n")
    limits = Limits(decision_seconds=0.6, game_seconds=1.0, wall_seconds=20)
    result = run(tmp_path, game="kill", players=3, games=3, seed=1, limits=limits,
                 progress=False)
    slow = [f for f in result.failures if f.bot == "slowpoke"]
    assert len(slow) >= 2  # every game where it decided three times (one may end sooner)
    assert all(f.kind == "time" and "in one game" in f.reason for f in slow), slow
