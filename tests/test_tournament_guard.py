"""The guard around a student bot's worker (issue 39, item 3): no network where Linux allows it,
a folder of its own, and a bot that opens a socket, writes outside its folder or starts a
process loses the game with the reason recorded (luckylab/tournament/guard.py).

Each test here fails without the guard (a bot reaches the listening socket, the file outside
its folder is written, the process runs, the worker shares the referee's network).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from luckylab.tournament import guard, load_bots, run
from luckylab.tournament.sandbox import _context, without_main

LINUX = sys.platform.startswith("linux")


def kill_bot(folder: Path, name: str, choose_body: str, *, top: str = "") -> Path:
    """A Kill bot file whose ``choose`` runs ``choose_body`` and then plays as Opportunist;
    ``top`` is code run when the file is imported."""
    path = folder / f"{name}.py"
    path.write_text(
        f"LUCKYLAB_BOT = {{'name': {name!r}, 'game': 'kill', 'class': 'Bot'}}\n"
        "import os, socket, subprocess\n"
        "from luckylab.agents.kill import Opportunist\n"
        f"{textwrap.dedent(top)}\n\n"
        "class Bot(Opportunist):\n"
        "    def choose(self, game):\n"
        f"{textwrap.indent(textwrap.dedent(choose_body), ' ' * 8)}\n"
        "        return super().choose(game)\n")
    return path


def play(folder: Path, games: int = 2, players: int = 2):
    return run(folder, game="kill", players=players, games=games, seed=5, reference=False,
               progress=False)


def failures_of(result, name: str):
    return [f for f in result.failures if f.bot == name]


def lost_every_game(result, name: str, kind: str, *words: str) -> list:
    played = {row["bot"]: row["games"] for row in result.leaderboard()}
    lost = failures_of(result, name)
    assert played[name] >= 1 and len(lost) == played[name], (name, result.failures)
    assert {f.kind for f in lost} == {kind}, lost
    for word in words:
        assert all(word in f.reason for f in lost), (word, lost)
    return lost


@pytest.fixture
def listener():
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    yield server
    server.close()


def nobody_called(server: socket.socket) -> bool:
    try:
        server.accept()[0].close()
    except BlockingIOError:
        return True
    return False


def test_a_bot_that_opens_a_socket_loses_and_reaches_nothing(tmp_path, listener):
    port = listener.getsockname()[1]
    kill_bot(tmp_path, "caller", f"""\
        s = socket.socket()
        s.connect(("127.0.0.1", {port}))
        s.sendall(b"the hidden cards")""")
    kill_bot(tmp_path, "good", "pass")
    result = play(tmp_path)
    lost = lost_every_game(result, "caller", "forbidden", "opened a network socket")
    assert "AF_INET" in lost[0].reason
    assert failures_of(result, "good") == []
    assert nobody_called(listener)


def test_a_bot_that_catches_the_refusal_and_plays_on_still_loses(tmp_path, listener):
    port = listener.getsockname()[1]
    kill_bot(tmp_path, "sly", f"""\
        try:
            socket.create_connection(("127.0.0.1", {port}), timeout=1).sendall(b"hi")
        except Exception:
            pass  # carry on as if nothing happened""")
    kill_bot(tmp_path, "good", "pass")
    result = play(tmp_path)
    lost_every_game(result, "sly", "forbidden", "127.0.0.1", str(port))
    assert nobody_called(listener)


def test_a_bot_that_writes_outside_its_folder_loses_and_the_file_is_not_written(tmp_path):
    outside = tmp_path / "elsewhere" / "owned.txt"
    outside.parent.mkdir()
    home = Path(os.path.expanduser("~")) / f"luckylab-owned-{uuid.uuid4().hex}.txt"
    bots = tmp_path / "bots"
    bots.mkdir()
    kill_bot(bots, "scribbler", f"""\
        try:
            open({str(outside)!r}, "w").write("owned")
        except PermissionError:
            pass
        with open({str(home)!r}, "a") as f:  # the teacher's home
            f.write("owned")""")
    kill_bot(bots, "good", "pass")
    try:
        result = play(bots)
        assert not outside.exists() and not home.exists()
    finally:
        home.unlink(missing_ok=True)
    lost = lost_every_game(result, "scribbler", "forbidden", "wrote outside its folder")
    assert str(outside) in lost[0].reason and "1 more attempt" in lost[0].reason


def test_a_bot_that_starts_a_process_loses_and_the_process_never_runs(tmp_path):
    marker = tmp_path / "ran.txt"
    bots = tmp_path / "bots"
    bots.mkdir()
    kill_bot(bots, "runner", f"""\
        subprocess.run(["true"])
        subprocess.run(["touch", {str(marker)!r}])""")
    kill_bot(bots, "good", "pass")
    result = play(bots)
    lost_every_game(result, "runner", "forbidden",
                    "tried to start a process (subprocess.Popen: ['true'])")
    assert not marker.exists()


def test_other_refusals_each_lose_the_game_with_their_reason(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    bots = tmp_path / "bots"
    bots.mkdir()
    cases = {
        "shell": ("os.system('true')", "tried to start a process (os.system"),
        "forks": ("if os.fork() == 0:\n    os._exit(0)", "tried to start a process (os.fork"),
        "remover": (f"os.remove({str(victim)!r})", "wrote outside its folder (os.remove"),
        "linker": (f"if not os.path.lexists('link'):\n    os.symlink({str(victim)!r}, 'link')\n"
                   "open('link', 'w').write('x')",
                   "wrote outside its folder"),
        "signaller": (f"os.kill({os.getpid()}, {int(signal.SIGCONT)})",
                      "signalled another process"),
        "unlimited": ("import resource\n"
                      "soft, hard = resource.getrlimit(resource.RLIMIT_CPU)\n"
                      "resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))",
                      "tried to change its limits"),
        "c-coder": ("import ctypes\nctypes.CDLL(None).getpid()", "used ctypes"),
        "c-helper": ("import _posixsubprocess", "tried to start a process"),
    }
    if not LINUX:
        del cases["c-helper"]
    for name, (body, _) in cases.items():
        kill_bot(bots, name, body)
    kill_bot(bots, "good", "pass")
    result = play(bots, games=3 * 3, players=3)
    for name, (_, words) in cases.items():
        lost_every_game(result, name, "forbidden", words)
    assert failures_of(result, "good") == []
    assert victim.read_text() == "keep me"


def test_a_bot_has_a_folder_of_its_own_where_it_may_write(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    kill_bot(bots, "keeper", """\
        import tempfile
        here = os.getcwd()
        assert here != START and os.path.basename(here).startswith("luckylab-bot-"), here
        assert os.path.expanduser("~") == here == tempfile.gettempdir()
        with open("notes.txt", "a") as f:
            f.write("a note\\n")
        with open(os.path.expanduser("~/owned.txt"), "w") as f:
            f.write("mine")
        os.makedirs("sub/dir", exist_ok=True)
        os.replace("owned.txt", "sub/dir/moved.txt")
        with tempfile.NamedTemporaryFile("w") as f:
            f.write("scratch")
        open(os.path.join(os.path.dirname(os.__file__), "os.py")).read(10)  # reading: allowed
        print(here)""", top=f"START = {os.getcwd()!r}")
    kill_bot(bots, "good", "pass")
    result = play(bots)
    assert result.failures == []
    folders = {line for r in result.records for line in r["output"].get("keeper", "").split()}
    assert folders and not any(Path(f).exists() for f in folders)  # removed with the worker


def test_a_bot_file_that_does_it_while_imported_is_left_out_with_the_reason(tmp_path, listener):
    port = listener.getsockname()[1]
    outside = tmp_path / "owned.txt"
    bots = tmp_path / "bots"
    bots.mkdir()
    kill_bot(bots, "early-caller", "pass", top=f"""\
        try:
            socket.create_connection(("127.0.0.1", {port}), timeout=1)
        except OSError:
            pass""")
    kill_bot(bots, "early-writer", "pass", top=f"open({str(outside)!r}, 'w').write('x')")
    kill_bot(bots, "good", "pass")
    entrants, problems = load_bots(bots, game="kill")
    assert [e.name for e in entrants] == ["good"]
    why = {p.file: p.reason for p in problems}
    assert set(why) == {"early-caller.py", "early-writer.py"}
    assert why["early-caller.py"].startswith("while it was imported, it used the network")
    assert why["early-writer.py"] == ("while it was imported, it wrote outside its folder "
                                      f"({outside})")
    assert nobody_called(listener) and not outside.exists()


@pytest.mark.skipif(not LINUX, reason="network namespaces are Linux's")
def test_the_worker_is_in_a_network_namespace_of_its_own_where_linux_allows(tmp_path):
    status = guard.probe_network(_context(), without_main)
    if status != "cut":
        pytest.skip(f"no network namespace for bot workers here: {status}")
    ours = os.readlink("/proc/self/ns/net")
    kill_bot(tmp_path, "looker", f"""\
        theirs = os.readlink("/proc/self/ns/net")
        assert theirs != {ours!r}, "same network as the referee" """)
    kill_bot(tmp_path, "good", "pass")
    result = play(tmp_path)
    assert result.failures == [] and result.network == "cut"


@pytest.mark.skipif(not LINUX, reason="network namespaces are Linux's")
def test_the_network_namespace_alone_stops_a_connection_that_gets_past_python(listener):
    # the kernel's part, without the audit hook: a forked process cut off, then connecting
    port = listener.getsockname()[1]
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 3
        try:
            if guard.cut_network() != "cut":
                code = 2
            else:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=2).close()
                    code = 1
                except OSError:
                    code = 0
        finally:
            os._exit(code)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if code == 2:
        pytest.skip(f"no network namespace here: {guard.probe_network(_context(), without_main)}")
    assert code == 0 and nobody_called(listener)


def test_the_referee_says_once_when_the_network_is_not_cut(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(guard, "probe_network", lambda *args: "open: no namespaces (a test)")
    kill_bot(tmp_path, "good", "pass")
    kill_bot(tmp_path, "other", "pass")
    result = play(tmp_path)
    said = capsys.readouterr().err
    assert said.count("not cut off the network on this machine (no namespaces (a test))") == 1
    assert result.network == "open: no namespaces (a test)"
    assert "not cut off the network (no namespaces (a test))" in result.to_text()
