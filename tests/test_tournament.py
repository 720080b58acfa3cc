"""The class tournament (issue 27): bot files, the schedule, ratings, results, resuming, CLI.

The safety tests (bots that raise, hang, flood, allocate, change the state) are in
tests/test_tournament_safety.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from luckylab.agents.island import CautiousAgent
from luckylab.agents.kill import Opportunist
from luckylab.errors import BotFileError, LuckyLabError, TournamentError
from luckylab.simulation import play_game
from luckylab.tournament import Entrant, Limits, load_bots, reference_entrants, run, save_bot
from luckylab.tournament.ratings import rate
from luckylab.tournament.results import ResultsFile, TournamentResult
from luckylab.tournament.sandbox import import_bot
from luckylab.tournament.schedule import schedule

ROOT = Path(__file__).resolve().parents[1]

# -- a student's bot, defined the way a notebook cell would (helper, constant, subclass) --------

PATIENCE = 2


def likes(card_luck: int) -> bool:
    return card_luck >= PATIENCE


class Hoarder(CautiousAgent):
    """Pays to foil only with cards worth little."""

    def penalty(self, game, me):
        return super().penalty(game, me) if not likes(0) else super().penalty(game, me)


def bot_file(folder: Path, name: str, body: str, *, game: str = "island",
             base: str = "CautiousAgent") -> Path:
    """A bot file written by hand (the way a broken or hostile one could be)."""
    module = "island" if game == "island" else game
    text = (f"LUCKYLAB_BOT = {{'name': {name!r}, 'author': 'test', 'game': {game!r}, "
            f"'class': 'Bot'}}\n"
            f"from luckylab.agents.{module} import {base}\n\n"
            f"class Bot({base}):\n" + textwrap.indent(textwrap.dedent(body), "    "))
    path = folder / f"{name}.py"
    path.write_text(text)
    return path


# -- save_bot ----------------------------------------------------------------------------------


def test_save_bot_writes_one_file_that_plays_the_same_games(tmp_path):
    path = save_bot(Hoarder, "hoarder", game="island", author="Team 7", folder=tmp_path)
    text = path.read_text()
    assert path == tmp_path / "hoarder.py"
    assert "PATIENCE = 2" in text and "def likes(" in text and "class Hoarder(" in text
    assert "from luckylab.agents.island import CautiousAgent" in text
    loaded = import_bot(path, "Hoarder", "island")
    assert loaded is not Hoarder and loaded.__name__ == "Hoarder"
    a = play_game("island", 4, seed=11, agents=[Hoarder, "random", "random", "random"])
    b = play_game("island", 4, seed=11, agents=[loaded, "random", "random", "random"])
    assert a == b
    entrants, problems = load_bots(tmp_path, game="island")
    assert problems == []
    assert [(e.name, e.author, e.class_name) for e in entrants] == [
        ("hoarder", "Team 7", "Hoarder")]


def test_save_bot_refuses_clearly(tmp_path):
    with pytest.raises(BotFileError, match="not for kill"):
        save_bot(Hoarder, "h", game="kill", folder=tmp_path)
    with pytest.raises(BotFileError, match="a bot class"):
        save_bot(int, "h", game="island", folder=tmp_path)
    with pytest.raises(BotFileError, match="name"):
        save_bot(Hoarder, "../evil", game="island", folder=tmp_path)
    with pytest.raises(TournamentError, match="game must be one of"):
        save_bot(Hoarder, "h", game="chess", folder=tmp_path)
    made = type("Made", (CautiousAgent,), {"choose": lambda self, game: None})
    with pytest.raises(BotFileError, match="define it in a notebook cell or a .py file"):
        save_bot(made, "made", game="island", folder=tmp_path)
    assert list(tmp_path.iterdir()) == []


THING = None  # set to an object by the test below


def test_save_bot_refuses_a_notebook_object_it_cannot_write(tmp_path):
    global THING
    THING = object()

    class UsesThing(CautiousAgent):
        def phase1(self, game, me):
            return THING

    try:
        with pytest.raises(BotFileError, match="'THING', a object made in the notebook"):
            save_bot(UsesThing, "thing", game="island", folder=tmp_path)
    finally:
        THING = None


def test_save_bot_works_in_a_notebook_cell(tmp_path):
    """IPython keeps each cell's text where save_bot finds it (no kernel needed)."""
    script = textwrap.dedent(f"""
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        cells = [
            "from luckylab.agents.island import CautiousAgent\\n"
            "from luckylab.games.island import Pass",
            "LIMIT = 3\\ndef tired(game):\\n    return game.turn > LIMIT",
            "class Lazy(CautiousAgent):\\n    def phase1(self, game, me):\\n"
            "        return Pass() if tired(game) else super().phase1(game, me)",
            "class Plain(CautiousAgent):\\n    pass",
            "import luckylab.tournament as t\\n"
            "print(t.save_bot(Lazy, 'lazy', game='island', folder={str(tmp_path)!r}))\\n"
            "print(t.save_bot(Plain, 'plain', game='island', folder={str(tmp_path)!r}))",
        ]
        for cell in cells:
            result = shell.run_cell(cell)
            result.raise_error()
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:] + done.stdout[-2000:]
    text = (tmp_path / "lazy.py").read_text()
    assert "LIMIT = 3" in text and "def tired(game):" in text and "class Lazy(" in text
    assert "class Plain(CautiousAgent)" in (tmp_path / "plain.py").read_text()
    entrants, problems = load_bots(tmp_path, game="island")
    assert [e.name for e in entrants] == ["lazy", "plain"] and problems == []


# -- load_bots ---------------------------------------------------------------------------------


def test_load_bots_reports_each_bad_file_by_name(tmp_path):
    bot_file(tmp_path, "fine", "pass\n").rename(tmp_path / "zz-copy.py")
    bot_file(tmp_path, "fine", "pass\n")
    bot_file(tmp_path, "crashes-on-import", "pass\nraise RuntimeError('boom')\n")
    (tmp_path / "syntax.py").write_text("LUCKYLAB_BOT = {'name': 's', 'game': 'island', "
                                        "'class': 'Bot'}\ndef (:\n")
    (tmp_path / "notes.py").write_text("print('not a bot')\n")
    bot_file(tmp_path, "killer", "pass\n", game="kill", base="Opportunist")
    (tmp_path / "noclass.py").write_text("LUCKYLAB_BOT = {'name': 'nc', 'game': 'island', "
                                         "'class': 'Missing'}\n")
    entrants, problems = load_bots(tmp_path, game="island")
    assert [e.name for e in entrants] == ["fine"]
    reasons = {p.file: p.reason for p in problems}
    assert sorted(reasons) == ["crashes-on-import.py", "killer.py", "noclass.py", "notes.py",
                               "syntax.py", "zz-copy.py"]
    assert "RuntimeError: boom" in reasons["crashes-on-import.py"]
    assert "not for island" in reasons["killer.py"]
    assert "no bot class 'Missing'" in reasons["noclass.py"]
    assert "not a luckylab bot file" in reasons["notes.py"]
    assert "SyntaxError" in reasons["syntax.py"]
    assert "taken by fine.py" in reasons["zz-copy.py"]
    with pytest.raises(TournamentError, match="no folder"):
        load_bots(tmp_path / "nowhere", game="island")


# -- the schedule ------------------------------------------------------------------------------


def test_every_lineup_plays_one_deal_in_every_seat_and_everyone_plays_as_often():
    names = [f"b{i}" for i in range(10)]
    deals = schedule(names, players=4, games=2000, seed=5)
    assert len(deals) == 2000
    for start in range(0, 2000, 4):
        block = deals[start:start + 4]
        assert len({d.seed for d in block}) == 1 and len({d.block for d in block}) == 1
        assert len({frozenset(d.seats) for d in block}) == 1
        for k in range(4):  # every entrant sits in every position once
            assert {d.seats[k] for d in block} == set(block[0].seats)
    games = {n: sum(n in d.seats for d in deals) for n in names}
    assert max(games.values()) - min(games.values()) <= 4
    assert schedule(names, players=4, games=40, seed=5) == deals[:40]  # longer extends shorter
    assert schedule(names, players=4, games=40, seed=6) != deals[:40]
    assert len(schedule(names, players=3, games=10, seed=1)) == 12  # whole blocks
    with pytest.raises(TournamentError, match="at least 4 entrants"):
        schedule(["a", "b", "c"], players=4, games=4, seed=1)


# -- ratings and tables ------------------------------------------------------------------------


def test_ratings_follow_the_finishing_order_and_are_deterministic():
    records = [{"index": i, "seats": ["a", "b", "c"], "places": [1, 2, 3]} for i in range(20)]
    first = rate(records, ["a", "b", "c"])
    assert first == rate(list(reversed(records)), ["a", "b", "c"])  # rated in index order
    assert first["a"].mu > first["b"].mu > first["c"].mu
    assert first["a"].sigma < 25 / 3


def test_tables_count_wins_seats_and_head_to_head():
    entrants = [Entrant("a", "kill"), Entrant("b", "kill")]
    records = [
        {"index": 0, "seats": ["a", "b"], "places": [1, 2], "winner": 0, "failures": []},
        {"index": 1, "seats": ["b", "a"], "places": [1, 2], "winner": 0, "failures": []},
        {"index": 2, "seats": ["a", "b"], "places": [2, 1], "winner": None,
         "failures": [{"position": 0, "bot": "a", "kind": "raised", "reason": "raised X"}]},
    ]
    result = TournamentResult("kill", 2, 0, entrants, records)
    board = {row["bot"]: row for row in result.leaderboard()}
    assert (board["a"]["wins"], board["a"]["games"], board["a"]["failures"]) == (1, 3, 1)
    assert board["b"]["win_low"] < board["b"]["win_rate"] < board["b"]["win_high"]
    pair = [r for r in result.head_to_head() if (r["bot"], r["opponent"]) == ("a", "b")][0]
    assert (pair["ahead"], pair["behind"], pair["games"]) == (1, 2, 3)
    seats = {(r["bot"], r["seat"]): r["wins"] for r in result.by_seat()}
    assert seats[("a", 1)] == 1 and seats[("b", 1)] == 1 and seats[(None, 1)] == 2
    assert min(seat for _, seat in seats) == 1  # seats are numbered from 1
    assert [(f.bot, f.game, f.seat, f.kind) for f in result.failures] == [("a", 2, 1, "raised")]
    text = result.to_text()
    assert "a: raised X (1 game: 2)" in text


# -- whole tournaments -------------------------------------------------------------------------


def test_reference_tournament_is_fair_and_reproducible(tmp_path):
    first = run([], game="kill", players=3, games=12, seed=4, progress=False)
    again = run([], game="kill", players=3, games=12, seed=4, progress=False)
    assert first.records == again.records and first.to_text() == again.to_text()
    assert [r["seed"] for r in first.records[:3]] == [first.records[0]["seed"]] * 3
    other = run([], game="kill", players=3, games=12, seed=5, progress=False)
    assert other.records != first.records
    assert {e.name for e in first.entrants} == {e.name for e in reference_entrants("kill")}


@pytest.mark.parametrize("game", ["save", "panic", "doctorwho"])
def test_every_game_can_hold_a_tournament(game):
    result = run([], game=game, players=4, games=4, seed=1, progress=False)
    assert result.games == 4 and all(len(r["places"]) == 4 for r in result.records)


def test_island_with_strangers_seats_only_the_players(tmp_path):
    result = run([], game="island", players=3, games=3, seed=2, progress=False)
    assert all(len(r["seats"]) == 3 for r in result.records)


def test_student_bots_same_seed_same_table_and_resume_equals_uninterrupted(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    save_bot(Hoarder, "hoarder", game="island", folder=bots)
    bot_file(bots, "drawer", """
        def phase1(self, game, me):
            return self.rng.choice([super().phase1(game, me), game.legal_actions()[0]])
        """)
    whole = run(bots, game="island", players=4, games=8, seed=9, progress=False,
                results=tmp_path / "whole.jsonl")
    again = run(bots, game="island", players=4, games=8, seed=9, progress=False)
    assert whole.to_text() == again.to_text() and whole.records == again.records
    assert not whole.failures
    # interrupted after 4 games, the 5th cut off in the middle of its line
    lines = (tmp_path / "whole.jsonl").read_text().splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    part.write_text("".join(lines[:5]) + lines[5][:40])
    resumed = run(bots, game="island", players=4, games=8, seed=9, progress=False, results=part)
    assert resumed.records == whole.records
    assert resumed.leaderboard() == whole.leaderboard()
    assert len(part.read_text().splitlines()) == 9  # header + 8 games, the cut line redone
    rerun = run(bots, game="island", players=4, games=8, seed=9, progress=False, results=part)
    assert rerun.records == whole.records  # nothing left to play
    stored = TournamentResult.from_file(part)  # read back without the bot files
    assert stored.records == whole.records and stored.leaderboard() == whole.leaderboard()
    with pytest.raises(TournamentError, match="holds another tournament"):
        run(bots, game="island", players=4, games=8, seed=10, progress=False, results=part)


def test_run_refuses_bad_arguments(tmp_path):
    with pytest.raises(TournamentError, match="players must be"):
        run([], game="kill", players=0, games=4, seed=1, progress=False)
    with pytest.raises(TournamentError, match="seed must be"):
        run([], game="kill", players=3, games=4, seed=None, progress=False)
    with pytest.raises(TournamentError, match="folder of bot files or a list of Entrant"):
        run(42, game="kill", players=3, games=4, seed=1, progress=False)
    with pytest.raises(LuckyLabError):
        run([], game="kill", players=3, games=4, seed=1, limits="fast", progress=False)
    with pytest.raises(TournamentError, match="at least 5 entrants"):
        run([], game="kill", players=5, games=5, seed=1, progress=False)
    with pytest.raises(TournamentError, match="memory_mb"):
        Limits(memory_mb=10**9)


def test_results_file_of_something_else_is_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("hello\n")
    with pytest.raises(TournamentError, match="not a luckylab tournament results file"):
        ResultsFile(path, {"luckylab_tournament": 1})


def test_command_line_prints_the_leaderboard_with_seats_from_1(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    save_bot(Opportunist, "copycat", game="kill", folder=bots)
    done = subprocess.run([sys.executable, "-m", "luckylab", "tournament", str(bots), "--game",
                           "kill", "--players", "3", "--games", "6", "--seed", "2",
                           "--no-progress"], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "copycat" in done.stdout and "opportunist (reference)" in done.stdout
    assert "seat 1:" in done.stdout and "seat 0" not in done.stdout
    js = subprocess.run([sys.executable, "-m", "luckylab", "tournament", str(bots), "--game",
                         "kill", "--players", "3", "--games", "6", "--seed", "2",
                         "--no-progress", "--json"], capture_output=True, text=True, cwd=ROOT,
                        timeout=300)
    data = json.loads(js.stdout)
    assert data["games"] == 6 and {r["seat"] for r in data["by_seat"]} == {1, 2, 3}
    bad = subprocess.run([sys.executable, "-m", "luckylab", "tournament", str(tmp_path / "no"),
                          "--game", "kill"], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert bad.returncode == 2 and "no folder" in bad.stderr


@pytest.mark.parametrize("game", ["island", "kill", "save", "panic", "doctorwho"])
def test_bundled_bots_saved_as_files_play_in_workers_without_failing(tmp_path, game):
    """Every bundled bot, handed in as a student's file, plays its games in a worker process
    without a recorded failure (the engines' own memos are not "changing the state")."""
    from luckylab.agents import agent_class, agent_names

    for name in agent_names(game):
        save_bot(agent_class(game, name), f"copy-of-{name}", game=game, folder=tmp_path)
    result = run(tmp_path, game=game, players=3, games=6, seed=3, reference=False,
                 progress=False)
    assert not result.problems and result.games == 6
    assert result.failures == [], result.failures[:3]


def test_any_executor_gives_the_same_games(tmp_path):
    from concurrent.futures import ProcessPoolExecutor

    save_bot(Opportunist, "copycat", game="kill", folder=tmp_path)
    here = run(tmp_path, game="kill", players=3, games=6, seed=8, progress=False)
    with ProcessPoolExecutor(2) as pool:
        there = run(tmp_path, game="kill", players=3, games=6, seed=8, progress=False,
                    executor=pool)
    assert there.records == here.records


def test_without_openskill_run_names_the_extra_before_playing(monkeypatch):
    for name in [m for m in sys.modules if m == "openskill" or m.startswith("openskill.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "openskill", None)  # an import of it now fails
    with pytest.raises(TournamentError, match=r"luckylab\[tournament\]"):
        run([], game="kill", players=3, games=3, seed=1, progress=False)


def test_results_file_keeps_whole_lines_only(tmp_path):
    path = tmp_path / "r.jsonl"
    header = {"luckylab_tournament": 1, "seed": 3}
    store = ResultsFile(path, header)
    for i in range(3):
        store.append({"index": i})
    store.close()
    whole = path.read_text()
    path.write_text(whole + '{"index": 3, "se')  # cut off while writing game 3
    again = ResultsFile(path, header)
    again.close()
    assert sorted(again.done) == [0, 1, 2] and path.read_text() == whole  # no blank lines
    path.write_text(whole.splitlines()[0])  # the header alone, without its newline
    ResultsFile(path, header).close()
    assert path.read_text() == whole.splitlines()[0] + "\n"


# -- without the sandbox (a browser, or sandbox=False) -------------------------------------------


def test_in_process_bots_give_the_same_games_as_sandboxed_ones(tmp_path, capsys):
    """sandbox=False (what a browser gets, where no process can start) plays the bot files in
    this process: for well-behaved bots the same games, records and table as the workers, and
    one plain message saying the bots run without limits."""
    bots = tmp_path / "bots"
    bots.mkdir()
    save_bot(Hoarder, "hoarder", game="island", folder=bots)
    bot_file(bots, "drawer", """
        def phase1(self, game, me):
            print("thinking")
            return self.rng.choice([super().phase1(game, me), game.legal_actions()[0]])
        """)
    boxed = run(bots, game="island", players=4, games=8, seed=9, progress=False)
    capsys.readouterr()
    here = run(bots, game="island", players=4, games=8, seed=9, progress=False, sandbox=False)
    said = capsys.readouterr().err
    assert said.count("inside this Python") == 1 and "sandbox=False" in said
    assert not here.failures and not boxed.failures
    assert here.records == boxed.records  # same places, returns, turns and kept output
    assert here.to_text() == boxed.to_text()
    assert any("thinking" in r["output"].get("drawer", "") for r in here.records)
    entrants, problems = load_bots(bots, game="island", sandbox=False)
    assert [e.name for e in entrants] == ["drawer", "hoarder"] and problems == []
    run([], game="kill", players=3, games=3, seed=1, progress=False, sandbox=False)
    assert capsys.readouterr().err == ""  # no bot files, nothing to say


def test_in_process_bad_bots_lose_their_games_and_bad_files_are_reported(tmp_path):
    bot_file(tmp_path, "raiser", """
        def choose(self, game):
            raise ValueError("my mistake")
        """)
    bot_file(tmp_path, "cheater", """
        def choose(self, game):
            return "win please"
        """)
    bot_file(tmp_path, "crashes-on-import", "pass\nraise RuntimeError('boom')\n")
    result = run(tmp_path, game="island", players=4, games=8, seed=2, progress=False,
                 sandbox=False)
    assert [(p.file, "RuntimeError: boom" in p.reason) for p in result.problems] == [
        ("crashes-on-import.py", True)]
    kinds = {(f.bot, f.kind) for f in result.failures}
    assert kinds == {("raiser", "raised"), ("cheater", "illegal")}
    assert all("ValueError: my mistake" in f.reason for f in result.failures
               if f.bot == "raiser")
    assert result.games == 8  # every game finished, the stand-in bot in the failed seats


def test_sandbox_argument_is_checked_and_a_browser_gets_the_in_process_path(tmp_path,
                                                                             monkeypatch):
    from luckylab.tournament import sandbox as sandbox_module

    save_bot(Opportunist, "copycat", game="kill", folder=tmp_path)
    for bad in ("no", 0, 1, [], "False"):
        with pytest.raises(TournamentError, match="sandbox must be True, False or None"):
            run(tmp_path, game="kill", players=3, games=3, seed=1, progress=False, sandbox=bad)
        with pytest.raises(TournamentError, match="sandbox must be True, False or None"):
            load_bots(tmp_path, game="kill", sandbox=bad)
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert not sandbox_module.processes_available()
    with pytest.raises(TournamentError, match="cannot start processes"):
        run(tmp_path, game="kill", players=3, games=3, seed=1, progress=False, workers=2)
    with pytest.raises(TournamentError, match="sandbox=True needs worker processes"):
        run(tmp_path, game="kill", players=3, games=3, seed=1, progress=False, sandbox=True)

    def no_processes(*args, **kwargs):
        raise AssertionError("a browser cannot start a process")

    monkeypatch.setattr(sandbox_module.BotWorker, "_ensure", no_processes)
    result = run(tmp_path, game="kill", players=3, games=6, seed=8, progress=False)
    assert result.games == 6 and not result.failures and not result.problems
