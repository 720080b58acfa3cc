"""Each student bot plays in its own worker process, under limits.

A tournament runs code the teacher did not write. A bot file's class is imported and played in
a separate process (``multiprocessing``, started with ``forkserver`` where the system has it,
else ``spawn``), one per bot, reused from game to game. The worker never holds the real game:
for each decision the referee sends the seat's world (:mod:`luckylab.games.shown`: the seat's
hand, the board, the past as the seat saw it, every hidden card dealt anew, no seed; sent by
:mod:`.worlds`), and only plain data crosses back: the action as JSON (``action.to_data()``),
which the referee rebuilds from the game's own action types and checks with ``apply``. What is
enforced:

- **time**: CPU time per decision (a profiling timer interrupts the bot) and per game, with
  ``RLIMIT_CPU`` as a backstop that stops a process stuck outside Python; a wall-clock
  watchdog in the referee stops a worker that does not answer in time (sleeping, blocked);
- **memory**: ``RLIMIT_AS``, the worker's address space may grow by :attr:`Limits.memory_mb`;
  an allocation beyond it fails with ``MemoryError`` inside the bot;
- **output**: ``print`` goes to a capped buffer (the start is kept with the game's result);
  the worker's own stdout and stderr file descriptors go to ``/dev/null``;
- **the game state**: a bot that changes the copy it was shown loses the game, and the copy is
  thrown away, so the real game never changes;
- **the machine** (:mod:`.guard`, before the bot file is imported): no network where Linux
  lets the worker have a network namespace of its own (else the referee says why, once); a
  folder of its own (working directory, ``HOME``, ``TMPDIR``), removed when the worker stops;
  an audit hook that refuses and records sockets, new processes, signals to other processes,
  ``ctypes``, changing its limits, and writing outside its folder;
- **failures**: a bot that raises, returns something that is not a legal action, runs out of
  time or memory, floods the output, changes the state or tries what the guard refuses loses
  that game (the reason is recorded; ``forbidden`` even if it caught the refusal); the game is
  finished by the game's default bundled bot in its seat, so the other bots play a whole game.
  A worker that dies or hangs is killed and started again for the next game.

What this does **not** protect against: a bot file is Python, run with the teacher's user
rights. The audit hook is not a security boundary (PEP 578): code written to get round it can,
and then write the teacher's files or start programs; only the network namespace is enforced
by the kernel, and only on Linux where it is allowed. A bot may read any file the teacher can.
These limits stop mistakes and ordinary cheating, not an attacker: for a class whose code you
have not read, run the tournament in a container (docs/tournament.md, section 5) or on Binder.
Windows has no ``resource`` module and no network namespace: there the CPU, memory and network
are not limited (the wall-clock watchdog, the per-decision checks, the folder and the audit
hook still are). Shared read-only game data (the board) is not copied for the bot; a bot that
edits it changes only its own worker's copy.

>>> Limits(decision_seconds=0.5).decision_seconds
0.5
>>> Limits(memory_mb=0)
Traceback (most recent call last):
luckylab.errors.TournamentError: memory_mb must be a whole number from 32 to 65536, not 0
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import math
import multiprocessing
import os
import pickle
import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..agents.base import Agent
from ..errors import BotFileError, BotTimeUp, TournamentError
from .guard import guard_verdict, guard_worker, note_guard, remove_worker_folder, worker_folder

__all__ = ["BotWorker", "Limits", "check_files", "import_bot", "processes_available",
           "use_sandbox"]


@dataclass(frozen=True)
class Limits:
    """What one student bot may use. Seconds are CPU seconds except ``wall_seconds``.

    ``decision_seconds``: CPU time for one decision; ``game_seconds``: for all its decisions in
    one game; ``memory_mb``: how far its worker's memory may grow; ``output_chars``: how much it
    may print in one game; ``wall_seconds``: how long the referee waits for one answer (clock
    time: set it well above ``decision_seconds`` on a busy machine); ``import_seconds``: how long
    importing a bot file may take.
    """

    decision_seconds: float = 1.0
    game_seconds: float = 20.0
    memory_mb: int = 512
    output_chars: int = 10_000
    wall_seconds: float = 10.0
    import_seconds: float = 20.0

    def __post_init__(self) -> None:
        for name in ("decision_seconds", "game_seconds", "wall_seconds", "import_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    0 < value <= 3600):
                raise TournamentError(f"{name} must be a number of seconds above 0 and at most "
                                      f"3600, not {value!r:.40}")
        for name, low, high in (("memory_mb", 32, 65536), ("output_chars", 0, 10**7)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise TournamentError(f"{name} must be a whole number from {low} to {high}, "
                                      f"not {value!r:.40}")

    def to_data(self) -> dict[str, Any]:
        return asdict(self)


@contextlib.contextmanager
def without_main() -> Iterator[None]:
    """Start processes without them importing the caller's ``__main__`` again.

    ``multiprocessing`` re-runs the main script (or module) in every new process, which a
    teacher's script without ``if __name__ == "__main__":`` cannot survive; the bot workers
    need nothing from it (they start from this module).
    """
    main = sys.modules.get("__main__")
    saved = {k: main.__dict__[k] for k in ("__file__", "__spec__")
             if main is not None and k in main.__dict__}
    try:
        if "__file__" in saved:
            del main.__file__  # type: ignore[union-attr]
        if "__spec__" in saved:
            main.__spec__ = None  # type: ignore[union-attr]
        yield
    finally:
        if main is not None:
            main.__dict__.update(saved)


_FORKSERVER_PID: list[int] = []  # the process that started using the fork server


def _context() -> Any:
    """forkserver (quick to start a worker) where there is one, else spawn. A process forked
    from one that already uses the fork server (a fork pool's worker) inherits a handle on a
    server it cannot use, so it spawns. ``LUCKYLAB_TOURNAMENT_START=spawn`` in the environment
    forces spawn (every worker is then a child of its referee: the benchmark counts their CPU
    time)."""
    methods = multiprocessing.get_all_start_methods()
    if os.environ.get("LUCKYLAB_TOURNAMENT_START") == "spawn" or "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    if not _FORKSERVER_PID:
        _FORKSERVER_PID.append(os.getpid())
    if _FORKSERVER_PID[0] != os.getpid():
        return multiprocessing.get_context("spawn")
    return multiprocessing.get_context("forkserver")


def processes_available() -> bool:
    """False where this Python cannot start a process: Pyodide, in a browser tab
    (``sys.platform == "emscripten"``, the JupyterLite site of the lessons).

    >>> processes_available() == (sys.platform != "emscripten")
    True
    """
    return sys.platform != "emscripten"


def use_sandbox(sandbox: Any) -> bool:
    """Whether bot files run each in its own worker process: ``sandbox`` (True or False), or
    for None, wherever processes can be started (:func:`processes_available`).

    Without the sandbox, a bot file is imported and played inside the calling process, like
    the bundled bots, with none of the limits: only for bots whose authors run them on their
    own machine (a student's bot in the browser), never for a class's files.

    >>> use_sandbox(None) == processes_available(), use_sandbox(False)
    (True, False)
    >>> use_sandbox("no")
    Traceback (most recent call last):
    luckylab.errors.TournamentError: sandbox must be True, False or None (None: a worker process \
per bot wherever processes can be started), not 'no'
    """
    if sandbox is None:
        return processes_available()
    if not isinstance(sandbox, bool):
        raise TournamentError("sandbox must be True, False or None (None: a worker process per "
                              f"bot wherever processes can be started), not {sandbox!r:.40}")
    if sandbox and not processes_available():
        raise TournamentError("sandbox=True needs worker processes, which this Python cannot "
                              "start (it runs in a browser): use sandbox=None or False")
    return sandbox


_IMPORTED: dict[tuple[str, str, str, str], type[Agent]] = {}


def imported_bot(path: Path, class_name: str, game: str, sha256: str) -> type[Agent]:
    """:func:`import_bot` in this process, once per file version (``sha256``): for a
    tournament without the sandbox (:func:`use_sandbox`)."""
    key = (str(path), class_name, game, sha256)
    cls = _IMPORTED.get(key)
    if cls is None:
        cls = _IMPORTED[key] = import_bot(path, class_name, game)
    return cls


# -- the worker process ------------------------------------------------------------------------


class _CappedText(io.TextIOBase):
    """A stdout that keeps the first ``keep`` characters and counts the rest."""

    def __init__(self, keep: int) -> None:
        self.keep, self.parts, self.kept, self.total = keep, [], 0, 0

    def writable(self) -> bool:
        return True

    def write(self, text: Any) -> int:
        text = str(text)
        self.total += len(text)
        if self.kept < self.keep:
            piece = text[:self.keep - self.kept]
            self.parts.append(piece)
            self.kept += len(piece)
        return len(text)

    def take(self) -> str:
        out = "".join(self.parts)
        self.parts = []
        return out


def _lock_down(limits: Limits) -> None:
    """In the worker: quiet file descriptors, a memory limit, the CPU timer's handler."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            os.dup2(devnull, fd)
    try:
        import resource
        import signal
    except ImportError:  # Windows: no rlimits, no profiling timer
        return

    def out_of_time(signum: int, frame: Any) -> None:
        raise BotTimeUp

    signal.signal(signal.SIGPROF, out_of_time)
    size = _address_space()
    if size is not None:
        cap = size + limits.memory_mb * 2**20
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _address_space() -> int | None:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def _cpu_backstop(seconds: float) -> None:
    """RLIMIT_CPU: the worker is stopped once its total CPU time passes now + ``seconds``."""
    try:
        import resource
    except ImportError:
        return
    used = time.process_time()
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    want = math.ceil(used + seconds)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (want, hard))


def _timer(seconds: float) -> None:
    try:
        import signal

        signal.setitimer(signal.ITIMER_PROF, max(seconds, 0.0))
    except (ImportError, AttributeError):
        pass


_CACHE = re.compile(r"memo|cache", re.IGNORECASE)
"""Attributes an engine writes while answering a question (a memo): not the game's state."""


def _changed(view: Any, real: Any) -> str | None:
    """The first attribute in which ``view`` differs from ``real``, or None."""
    import random

    mine, theirs = view.__dict__, real.__dict__
    extra = sorted(k for k in set(mine) ^ set(theirs) if not _CACHE.search(k))
    if extra:
        return extra[0]
    for key, value in theirs.items():
        if _CACHE.search(key):
            continue  # an engine's own memo of a computation (Island's _move_memo)
        other = mine.get(key)
        if other is value:
            continue
        if isinstance(value, random.Random):
            if not isinstance(other, random.Random) or other.getstate() != value.getstate():
                return key
            continue
        try:
            if other != value:
                return key
        except Exception:
            return key
    return None


def _fail(kind: str, why: str, out: str = "") -> bytes:
    return json.dumps({"fail": kind, "why": why[:500], "out": out}).encode()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, but not ours to signal (or no signals here): assume alive
        return True
    return True


def _serve(conn: Any, limits_data: dict[str, Any], referee: int | None = None,
           folder: str | None = None) -> None:
    """The worker's loop: requests and answers are JSON, one message each. It ends when the
    referee says stop, closes the pipe, or is gone (checked every few seconds while idle: a
    killed notebook kernel leaves no bot processes behind)."""
    limits = Limits(**limits_data)
    _lock_down(limits)
    from .worlds import WorldReceiver

    capture = _CappedText(limits.output_chars)
    sys.stdout = sys.stderr = capture  # type: ignore[assignment]
    guarded = guard_worker(folder)  # no network, its own folder, the audit hook (guard.py)
    cls: Any = None
    receivers: dict[str, WorldReceiver] = {}  # one per game variant
    receiver: Any = None
    bot: Any = None
    broken: tuple[str, str] | None = None
    used = 0.0
    while True:
        try:
            while not conn.poll(3.0):
                if referee is not None and not _alive(referee):
                    return
            request = pickle.loads(conn.recv_bytes())  # from the referee, never from a bot
        except (EOFError, OSError):
            return
        op = request["op"]
        if op == "stop":
            return
        if op == "load":
            try:
                cls = import_bot(request["path"], request["class"], request["game"])
                capture.take()
                answer = json.dumps({"ok": True, "guard": guarded}).encode()
            except BotFileError as exc:
                answer = _fail("import", str(exc))
            except BaseException as exc:  # a bot file may raise anything while it loads
                answer = _fail("import", f"{type(exc).__name__}: {exc}")
            forbidden = guard_verdict()
            conn.send_bytes(answer if forbidden is None else _fail(
                forbidden[0], f"while it was imported, it {forbidden[1]}"))
            continue
        if op == "start":
            capture.take()
            capture.total = 0
            broken, used, bot = None, 0.0, None
            variant = json.dumps([request["game"], request["players"], request["options"]],
                                 sort_keys=True)
            receiver = receivers.get(variant)
            if receiver is None:
                receiver = receivers[variant] = WorldReceiver(
                    request["game"], request["players"], request["options"])
            receiver.new_game()
            _cpu_backstop(limits.game_seconds + limits.decision_seconds + 5)
            started = time.process_time()
            try:
                _timer(limits.decision_seconds)
                bot = cls(seed=request["bot_seed"])
                _timer(0)
            except BotTimeUp:
                broken = ("time", f"making the bot took more than {limits.decision_seconds:g} s "
                                  "of CPU time")
            except MemoryError:
                _timer(0)
                broken = ("memory", f"ran out of memory (limit {limits.memory_mb} MB)")
            except BaseException as exc:
                _timer(0)
                broken = ("raised", f"making the bot raised {type(exc).__name__}: {exc}")
            used += time.process_time() - started
            continue
        # op == "decide": the seat's world (never the real game: see games/shown.py)
        try:
            view = receiver.world(request["world"])
            shown = view.clone()  # to compare with, after (the engine's own copy: cheaper)
        except Exception as exc:  # only a bot that edited the shared game data gets here
            broken = broken or ("state", f"its copy of the game broke ({type(exc).__name__})")
        broken = guard_verdict() or broken  # what it tried since its last decision
        if broken is not None:
            conn.send_bytes(_fail(*broken, out=capture.take()))
            continue
        budget = min(limits.decision_seconds, limits.game_seconds - used)
        if budget < 0.001:  # (a timer of 0 would be no timer at all)
            broken = ("time", f"used more than {limits.game_seconds:g} s of CPU time in one "
                              "game")
            conn.send_bytes(_fail(*broken, out=capture.take()))
            continue
        started = time.process_time()
        action = None
        try:
            _timer(budget)
            action = bot.choose(view)
            _timer(0)
        except BotTimeUp:
            if budget < limits.decision_seconds:
                broken = ("time", f"used more than {limits.game_seconds:g} s of CPU time in "
                                  "one game")
            else:
                broken = ("time", f"took more than {limits.decision_seconds:g} s of CPU time "
                                  "to decide")
        except MemoryError:
            _timer(0)
            broken = ("memory", f"ran out of memory (limit {limits.memory_mb} MB more)")
        except BaseException as exc:  # whatever the bot raises loses it the game
            _timer(0)
            broken = ("raised", _raised(exc))
        broken = guard_verdict() or broken  # it lost even if it caught the guard's refusal
        used += time.process_time() - started
        if broken is None and capture.total > limits.output_chars:
            broken = ("output", f"printed more than {limits.output_chars:,} characters in "
                                "one game")
        if broken is None:
            try:
                attribute = _changed(view, shown)
            except Exception:
                attribute = "?"
            if attribute is not None:
                broken = ("state", f"changed the game state it was shown ({attribute!r})")
        if broken is None:
            try:
                text = json.dumps({"action": action.to_data(), "out": capture.take()})
            except Exception:
                broken = ("illegal", f"returned {_short(action)}, which is not an action of "
                                     "this game")
            else:
                conn.send_bytes(text.encode())
                continue
        conn.send_bytes(_fail(*broken, out=capture.take()))


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."


def _raised(exc: BaseException) -> str:
    import traceback

    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "luckylab_bot_" in f.filename
              or "/luckylab/" not in f.filename.replace("\\", "/")]
    where = f" (line {frames[-1].lineno})" if frames else ""
    return f"raised {type(exc).__name__}: {str(exc)[:200]}{where}"


def import_bot(path: str | Path, class_name: str, game: str) -> type[Agent]:
    """Run the bot file ``path`` and return its class ``class_name`` (a bot of ``game``).

    This runs the file's code in the calling process: the tournament calls it only inside a
    worker process (this module). Any failure is a
    :class:`~luckylab.errors.BotFileError` saying what went wrong.
    """
    path = Path(path)
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    module_name = f"luckylab_bot_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise BotFileError(f"cannot load {path.name} as a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # a bot file's error of any kind is reported, not raised
        sys.modules.pop(module_name, None)
        raise BotFileError(f"importing it failed: {_last_words(exc)}") from None
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise BotFileError(f"it defines no bot class {class_name!r} (a subclass of Agent)")
    if cls.game_name not in (None, game):
        raise BotFileError(f"{class_name} is a bot for {cls.game_name}, not for {game}")
    return cls


def _last_words(exc: BaseException) -> str:
    """``ValueError: msg (line 12)``: an error and the bot file line it came from."""
    import traceback

    text = f"{type(exc).__name__}: {exc}"[:300]
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if "luckylab_bot_" in f.filename or f.filename.endswith(".py")
              and "/luckylab/" not in f.filename]
    if isinstance(exc, SyntaxError) and exc.lineno:
        return f"{text} (line {exc.lineno})"
    if frames:
        return f"{text} (line {frames[-1].lineno})"
    return text


# -- the referee's side ----------------------------------------------------------------------


class BotWorker:
    """The referee's handle on one bot's worker process (started when first needed, started
    again after it dies or is stopped).

    ``start_game`` sends a new game (no answer awaited); ``decide`` sends the seat's world
    (:class:`~luckylab.tournament.worlds.WorldSender`) and returns the bot's answer.
    """

    def __init__(self, path: Path, class_name: str, game: str, limits: Limits) -> None:
        self.path, self.class_name, self.game, self.limits = path, class_name, game, limits
        self._process: Any = None
        self._conn: Any = None
        self._owner = os.getpid()
        self._folder: str | None = None  # the worker's own folder (guard.py)
        self.restarts = 0

    def _ensure(self) -> tuple[str, str] | None:
        if self._owner != os.getpid():  # a forked copy of this handle: the worker is not ours
            self._process, self._conn, self._owner = None, None, os.getpid()
            self._folder = None
        if self._process is not None and self._process.is_alive():
            return None
        if self._process is not None:
            self.restarts += 1
            self.close()
        context = _context()
        mine, theirs = context.Pipe()
        self._folder = worker_folder()
        process = context.Process(target=_serve, args=(theirs, self.limits.to_data(),
                                                       os.getpid(), self._folder),
                                  daemon=True, name=f"luckylab-bot-{self.path.stem}")
        with without_main():
            process.start()
        theirs.close()
        self._process, self._conn = process, mine
        answer = self._ask({"op": "load", "path": str(self.path), "class": self.class_name,
                            "game": self.game}, self.limits.import_seconds)
        if "fail" in answer:
            self.close()
            return answer["fail"], answer["why"]
        note_guard(answer.get("guard"))
        return None

    def _ask(self, request: dict[str, Any], wait: float) -> dict[str, Any]:
        try:
            self._conn.send_bytes(pickle.dumps(request, protocol=5))
            if not self._conn.poll(wait):
                self.close()
                return {"fail": "time", "why": f"did not answer within {wait:g} s (clock "
                                              "time); its worker was stopped"}
            return json.loads(self._conn.recv_bytes())
        except (EOFError, OSError, ValueError):
            code = self._process.exitcode if self._process is not None else None
            self.close()
            return {"fail": "crashed", "why": _death(code, self.limits)}

    def start_game(self, game: str, players: int, options: dict[str, Any],
                   bot_seed: int) -> tuple[str, str] | None:
        """Start a game in the worker (its variant, never its seed: the worker never learns the
        real deal); a reason when the worker cannot be started."""
        problem = self._ensure()
        if problem is not None:
            return problem
        try:
            self._conn.send_bytes(pickle.dumps({
                "op": "start", "game": game, "players": players, "options": options,
                "bot_seed": bot_seed}, protocol=5))
        except (OSError, ValueError):
            self.close()
            return "crashed", _death(None, self.limits)
        return None

    def decide(self, world: bytes) -> dict[str, Any]:
        """The bot's answer on ``world`` (a seat's world, as
        :meth:`~luckylab.tournament.worlds.WorldSender.world` sends it):
        ``{"action": data, "out": text}`` or ``{"fail", "why", "out"}``."""
        if self._conn is None:
            return {"fail": "crashed", "why": _death(None, self.limits)}
        return self._ask({"op": "decide", "world": world}, self.limits.wall_seconds)

    def close(self) -> None:
        """Stop the worker process (if running)."""
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.close()
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(5)
            self._process.close() if not self._process.is_alive() else None
        remove_worker_folder(self._folder)
        self._process, self._conn, self._folder = None, None, None


def _death(code: int | None, limits: Limits) -> str:
    import signal

    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        if name == "SIGXCPU":
            return (f"its worker was stopped by the CPU-time limit (more than "
                    f"{limits.game_seconds:g} s in one game)")
        return f"its worker process died ({name})"
    return "its worker process died" + (f" (exit code {code})" if code is not None else "")


def check_files(files: Sequence[tuple[Path, str]], game: str, limits: Limits) -> list[str | None]:
    """Import each ``(path, class name)`` in a worker process: None where the file gives a bot
    of ``game``, else the reason (an import that fails, hangs or crashes)."""
    verdicts: list[str | None] = []
    for path, class_name in files:
        worker = BotWorker(path, class_name, game, limits)
        problem = worker._ensure()
        worker.close()
        verdicts.append(None if problem is None else problem[1])
    return verdicts
