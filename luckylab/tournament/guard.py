"""The guard around a student bot's worker process: no network, a folder of its own, and a
watch on what the bot asks Python to do (issue 39).

:func:`guard_worker` runs in the worker (:mod:`.sandbox`) after its own set-up and before the
bot file is imported. It

- **cuts the network** where the system lets an ordinary process do so: on Linux the worker
  moves into a new, empty network namespace (``unshare``: as root a network namespace alone,
  otherwise with a user namespace of its own whose only user is the teacher's). Nothing in it
  reaches any other machine or this machine's own services, whatever the bot does from Python
  or C. Where this is refused (another system, a container or kernel that forbids it) the
  worker says so plainly (``"open: ..."``, with the system's error) and the referee reports
  it once;
- gives the worker **a folder of its own** (a fresh temporary folder made by the referee and
  removed when the worker stops): its working directory, ``HOME`` and ``TMPDIR``;
- installs an **audit hook** (:func:`sys.addaudithook`, PEP 578) that refuses, with
  :class:`~luckylab.errors.SandboxViolation` (a ``PermissionError``), and records: creating a
  socket or looking up a network address, starting a process (``subprocess``, ``os.system``,
  ``os.exec*``, ``os.spawn*``, ``os.posix_spawn``, ``os.fork``, ``pty.spawn``), signalling
  another process, loading C code with ``ctypes``, changing its resource limits, and writing,
  creating, removing, renaming or changing files outside its folder. Reading files stays
  allowed (bots may read luckylab's data files). Because the attempt is recorded, a bot that
  catches the error still loses the game (:func:`guard_verdict`).

An audit hook is not a security boundary (PEP 578 says so): Python code that sets out to get
round it can. The network namespace is one (the kernel enforces it). docs/tournament.md,
sections 4 and 5, list what is protected, each with its test, and what is not.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from typing import Any

from ..errors import SandboxViolation

__all__ = ["guard_verdict", "guard_worker", "network_note", "note_guard", "probe_network",
           "remove_worker_folder", "worker_folder"]

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000

_STATE: dict[str, Any] = {"folder": None, "network": None, "seen": [], "pid": None}
"""In the worker: its folder, what became of the network, the attempts not yet reported."""


# -- the referee's side ------------------------------------------------------------------------


_REMOVERS: dict[str, Any] = {}


def worker_folder() -> str:
    """A fresh folder for one worker, under the system's temporary folder. It is removed by
    :func:`remove_worker_folder`, or when this process ends (also a pool's process, which
    ends without ``atexit``: multiprocessing runs its finalizers)."""
    import multiprocessing.util

    folder = tempfile.mkdtemp(prefix="luckylab-bot-")
    _REMOVERS[folder] = multiprocessing.util.Finalize(
        None, shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True}, exitpriority=-1)
    return folder


def remove_worker_folder(folder: str | None) -> None:
    """Remove a worker's folder and what the bot left in it."""
    if folder:
        remover = _REMOVERS.pop(folder, None)
        if remover is not None:
            remover()  # once: it is forgotten by multiprocessing too
        shutil.rmtree(folder, ignore_errors=True)


_NETWORK_SEEN: list[str] = []  # what this process's workers said (the first one)


def note_guard(guard: Any) -> None:
    """Keep what a worker said of its network (its ``load`` answer's ``guard``)."""
    if isinstance(guard, dict) and isinstance(guard.get("network"), str) and not _NETWORK_SEEN:
        _NETWORK_SEEN.append(guard["network"])


def network_note() -> str | None:
    """What the workers of this process said of the network: ``"cut"``, ``"open: why"``, or
    None when no worker has started here yet."""
    return _NETWORK_SEEN[0] if _NETWORK_SEEN else None


def _probe(conn: Any) -> None:
    conn.send(cut_network())
    conn.close()


def probe_network(context: Any, quiet: Any) -> str:
    """Whether a bot worker started from here would be cut off the network: what a worker of
    this process said, else one small process started with ``context`` (the sandbox's
    ``_context()``, under its ``without_main``: ``quiet``) tries."""
    seen = network_note()
    if seen is not None:
        return seen
    mine, theirs = context.Pipe()
    process = context.Process(target=_probe, args=(theirs,), daemon=True,
                              name="luckylab-network-probe")
    with quiet():
        process.start()
    theirs.close()
    try:
        answer = mine.recv() if mine.poll(30) else "open: the check did not answer"
    except (EOFError, OSError):
        answer = "open: the check's process died"
    finally:
        mine.close()
        process.join(5)
        if process.is_alive():
            process.kill()
    note_guard({"network": answer})
    return answer


# -- the worker's side -------------------------------------------------------------------------


def cut_network() -> str:
    """Move this process into a new, empty network namespace: ``"cut"``, or ``"open: why"``.

    Call it before the process starts any thread (the kernel refuses a user namespace to a
    process with threads). Pipes and sockets already open (the one to the referee) keep
    working."""
    if not sys.platform.startswith("linux"):
        return f"open: {sys.platform} has no network namespaces"
    try:
        import ctypes
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        unshare = libc.unshare
    except (ImportError, OSError, AttributeError) as exc:
        return f"open: cannot call the system's unshare ({type(exc).__name__}: {exc})"
    if unshare(CLONE_NEWNET) == 0:  # allowed as root (CAP_SYS_ADMIN)
        return "cut"
    uid, gid = os.getuid(), os.getgid()
    if unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0:
        number = ctypes.get_errno()
        import errno

        name = errno.errorcode.get(number, str(number))
        return (f"open: the system refuses a new network namespace to this process "
                f"(unshare: {name}, {os.strerror(number)}; unprivileged user namespaces may be "
                "switched off, or a container's seccomp profile forbids them)")
    # in the new user namespace, stay the same user and group, so files keep their owner
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"),
                       ("gid_map", f"{gid} {gid} 1")):
        with contextlib.suppress(OSError), open(f"/proc/self/{name}", "w") as f:
            f.write(text)
    return "cut"


def guard_worker(folder: str | None) -> dict[str, str]:
    """Guard this worker process (see the module's text); returns ``{"network": "cut" or
    "open: why", "folder": path}`` for the referee. Call it once, after the worker's own
    set-up (its limits, its quiet file descriptors) and before it imports a bot file."""
    if _STATE["pid"] == os.getpid():
        return {"network": _STATE["network"], "folder": _STATE["folder"] or ""}
    network = cut_network()
    if folder is None:
        folder = worker_folder()
    folder = os.path.realpath(folder)
    os.chdir(folder)
    for name in ("HOME", "TMPDIR", "TEMP", "TMP", "USERPROFILE"):
        os.environ[name] = folder
    tempfile.tempdir = folder
    sys.dont_write_bytecode = True  # imports write no .pyc files next to luckylab or the bots
    import socket  # noqa: F401 - its names, before the hook (for the reasons it writes)
    import subprocess

    # subprocess's C helper starts a process without an audit event: keep it out of reach
    helper = sys.modules.pop("_posixsubprocess", None)
    if helper is not None and getattr(subprocess, "_posixsubprocess", None) is helper:
        subprocess._posixsubprocess = _NoHelper()  # type: ignore[attr-defined]
    _STATE.update(folder=folder, network=network, seen=[], pid=os.getpid())
    sys.addaudithook(_hook)
    return {"network": network, "folder": folder}


def guard_verdict() -> tuple[str, str] | None:
    """``("forbidden", reason)`` for the first attempt the guard refused since the last call
    (and how many more), or None. The attempts are then forgotten."""
    seen = _STATE["seen"]
    if not seen:
        return None
    first, more = seen[0], len(seen) - 1
    seen.clear()
    return "forbidden", first + (f" (and {more} more attempt{'s' * (more > 1)})" if more else "")


class _NoHelper:
    """Stands in for ``_posixsubprocess`` inside ``subprocess``."""

    def fork_exec(self, *args: Any) -> Any:
        raise _refuse(f"tried to start a process (_posixsubprocess.fork_exec: {_brief(args[0])})")


def _refuse(reason: str) -> SandboxViolation:
    _STATE["seen"].append(reason)
    return SandboxViolation(f"not allowed in a tournament: the bot {reason}")


def _brief(value: Any, size: int = 80) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"a {type(value).__name__}"
    return text if len(text) <= size else text[:size - 3] + "..."


def _path_text(path: Any) -> str | None:
    try:
        return os.fsdecode(os.fspath(path))
    except TypeError:
        return None


def _under_fd(fd: Any) -> str | None:
    """The path an open file descriptor names (Linux), or None."""
    if not isinstance(fd, int) or isinstance(fd, bool):
        return None
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def _outside(path: Any, dir_fd: Any = None, follow: bool = True) -> str | None:
    """The real path of ``path`` when it is outside the worker's folder, else None.
    ``follow``: the file a symbolic link points to (False: the link itself)."""
    folder = _STATE["folder"]
    if isinstance(path, int) and not isinstance(path, bool):  # an open file descriptor
        target = _under_fd(path)
        if target is None or not target.startswith("/"):
            return None  # a pipe, a socket the guard let through, or no /proc: nothing to say
        text = target
    else:
        text = _path_text(path)
        if text is None:
            return None
        if isinstance(dir_fd, int) and dir_fd >= 0 and not os.path.isabs(text):
            base = _under_fd(dir_fd)
            if base is None:
                return f"{text} (relative to an open folder)"
            text = os.path.join(base, text)
    if follow:
        real = os.path.realpath(text)
    else:
        head, tail = os.path.split(os.path.abspath(text))
        real = os.path.join(os.path.realpath(head), tail)
    if real == folder or real.startswith(folder + os.sep) or real == os.devnull:
        return None
    return real


_WRITE_FLAGS = (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC)


def _open(args: tuple[Any, ...]) -> str | None:
    path, mode, flags = (tuple(args) + (None, None, 0))[:3]
    if isinstance(mode, str):
        writes = any(c in mode for c in "wax+")
    else:
        writes = bool((flags or 0) & _WRITE_FLAGS)
    if writes:
        where = _outside(path)
        return None if where is None else f"wrote outside its folder ({where})"
    if mode is None and not isinstance(path, int):  # os.open for reading: a folder?
        text = _path_text(path)
        if text is not None and os.path.isdir(text):
            where = _outside(text)
            if where is not None:
                return (f"opened a folder outside its own ({where}), which would let it write "
                        "there")
    return None


def _paths(*spec: tuple[int, int | None, bool]) -> Any:
    """A check of an event whose argument ``i`` is a path, argument ``j`` its dir_fd."""

    def check(event: str, args: tuple[Any, ...]) -> str | None:
        for i, j, follow in spec:
            if i >= len(args):
                continue
            dir_fd = args[j] if j is not None and j < len(args) else None
            where = _outside(args[i], dir_fd, follow)
            if where is not None:
                return f"wrote outside its folder ({event}: {where})"
        return None

    return check


def _process(event: str, args: tuple[Any, ...]) -> str:
    shown = {"subprocess.Popen": 1, "os.exec": 1, "os.posix_spawn": 1, "os.spawn": 2,
             "os.system": 0, "pty.spawn": 0}.get(event)
    what = f": {_brief(args[shown])}" if shown is not None and shown < len(args) else ""
    return f"tried to start a process ({event}{what})"


def _socket(event: str, args: tuple[Any, ...]) -> str:
    if event == "socket.__new__":
        names = []
        for value in args[1:3]:
            try:
                import socket

                names.append((socket.AddressFamily if not names else socket.SocketKind)(
                    value).name)
            except (ValueError, TypeError):
                names.append(_brief(value))
        return f"opened a network socket (socket.socket: {', '.join(names)})"
    if event in ("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"):
        return f"opened a network socket ({event} to {_brief(args[1] if len(args) > 1 else '')})"
    return f"used the network ({event}: {_brief(args[:2])})"


def _signal(event: str, args: tuple[Any, ...]) -> str | None:
    pid, sig = (tuple(args) + (None, None))[:2]
    if sig == 0 or (event == "os.kill" and pid == os.getpid()):
        return None
    return f"signalled another process ({event}({_brief(pid)}, {_brief(sig)}))"


def _limits(event: str, args: tuple[Any, ...]) -> str | None:
    caller = sys._getframe(2)  # the hook, then the code that asked
    if caller.f_globals.get("__name__") == "luckylab.tournament.sandbox":
        return None  # the worker's own CPU limit for the next game
    return f"tried to change its limits ({event})"


def _import(event: str, args: tuple[Any, ...]) -> str | None:
    if args and args[0] == "_posixsubprocess":
        return "tried to start a process (import _posixsubprocess)"
    return None


_CHECKS: dict[str, Any] = {
    "open": lambda event, args: _open(args),
    "import": _import,
    "os.remove": _paths((0, 1, False)),
    "os.rmdir": _paths((0, 1, False)),
    "os.mkdir": _paths((0, 2, False)),
    "os.rename": _paths((0, 2, False), (1, 3, False)),
    "os.link": _paths((0, 2, True), (1, 3, False)),
    "os.symlink": _paths((1, 2, False)),
    "os.chmod": _paths((0, 2, True)),
    "os.chown": _paths((0, 3, True)),
    "os.chflags": _paths((0, None, True)),
    "os.utime": _paths((0, 3, True)),
    "os.truncate": _paths((0, None, True)),
    "os.setxattr": _paths((0, None, True)),
    "os.removexattr": _paths((0, None, True)),
    "shutil.rmtree": _paths((0, 1, False)),
    "resource.setrlimit": _limits,
    "resource.prlimit": _limits,
    "os.kill": _signal,
    "os.killpg": _signal,
}
for _event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
               "os.fork", "os.forkpty", "pty.spawn", "os.startfile"):
    _CHECKS[_event] = _process
for _event in ("socket.__new__", "socket.connect", "socket.bind", "socket.sendto",
               "socket.sendmsg", "socket.getaddrinfo", "socket.gethostbyname",
               "socket.gethostbyaddr", "socket.getnameinfo"):
    _CHECKS[_event] = _socket
for _event in ("ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.cdata",
               "ctypes.PyObj_FromPtr"):
    _CHECKS[_event] = lambda event, args: f"used ctypes ({event}: {_brief(args[:2], 60)})"


def _hook(event: str, args: tuple[Any, ...]) -> None:
    check = _CHECKS.get(event)
    if check is None or _STATE["pid"] != os.getpid():
        return
    reason = check(event, args)
    if reason is not None:
        raise _refuse(reason)
