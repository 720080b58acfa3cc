"""``luckylab lab [-- JUPYTERLAB OPTIONS]``: open JupyterLab on the start lesson.

The lessons live in the repository's ``notebooks/`` folder, not in the installed package, so
the command finds the checkout from where the package was imported (an editable install, or
``PYTHONPATH`` pointing at a clone), falling back to the current folder and its parents. It
starts ``python -m jupyterlab`` with the checkout as the server's root, opened on
``notebooks/00_start_here.ipynb``, whatever folder of the checkout it is run from.

Running as root (Docker, Codespaces, most CI machines) JupyterLab refuses to start without
``--allow-root``: the command adds it, with a one-line note. Everything after ``--`` goes to
JupyterLab unchanged, e.g. ``luckylab lab -- --port 8899 --no-browser``.

JupyterLab starts with luckylab's default settings (:data:`SETTINGS_OVERRIDES`: no "Would you
like to get notified about official Jupyter news?" pop-up over the lessons): the command puts
the Jupyter config folder the package ships (:data:`JUPYTER_CONFIG`) on
``JUPYTER_CONFIG_PATH``. They are defaults: a user's own settings still win.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from ..errors import LuckyLabError

START_LESSON = Path("notebooks") / "00_start_here.ipynb"
SOURCE = "https://github.com/luckylab/luckylab"
JUPYTER_CONFIG = Path(__file__).resolve().parent.parent / "data" / "jupyter"
"""A Jupyter config folder shipped in the package, holding :data:`SETTINGS_OVERRIDES`."""
SETTINGS_OVERRIDES = (JUPYTER_CONFIG / "labconfig" / "default_setting_overrides.d"
                      / "luckylab.json")
"""JupyterLab's defaults for the lessons (plugin id -> settings): the news feed is never
fetched and never asked about. The one file ``luckylab lab`` (through ``JUPYTER_CONFIG_PATH``),
Binder (``binder/postBuild`` copies it into the image's ``etc/jupyter``) and the JupyterLite
site (``luckylab lite-build`` makes it the site's ``overrides.json``) all use."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "lab",
        help="open JupyterLab on the start lesson (needs the 'lab' extra)",
        description="Open JupyterLab on notebooks/00_start_here.ipynb, from anywhere in a "
        "checkout of luckylab. Run as root (Docker, Codespaces, CI), it adds --allow-root, "
        "which JupyterLab needs there, and says so. Options after '--' go to JupyterLab "
        "unchanged, e.g. 'luckylab lab -- --port 8899 --no-browser'.",
    )
    p.add_argument(
        "jupyterlab_args",
        nargs=argparse.REMAINDER,
        metavar="-- JUPYTERLAB OPTIONS",
        help="passed to JupyterLab (after '--')",
    )
    p.set_defaults(func=run)


def _is_checkout(folder: Path) -> bool:
    return (folder / START_LESSON).is_file() and (folder / "pyproject.toml").is_file()


def find_checkout(package_dir: Path | None = None, cwd: Path | None = None) -> Path:
    """The root of the luckylab checkout that holds the lessons.

    Looks first beside the imported package (``luckylab/..``), then in ``cwd`` and its
    parents. Raises :class:`~luckylab.errors.LuckyLabError` saying where to get the lessons
    when neither has them (a wheel installed from PyPI ships no notebooks).

    Examples
    --------
    >>> from luckylab.cli.lab import find_checkout, START_LESSON
    >>> (find_checkout() / START_LESSON).is_file()
    True
    """
    if package_dir is None:
        package_dir = Path(__file__).resolve().parent.parent
    candidates = [package_dir.parent]
    here = (cwd or Path.cwd()).resolve()
    candidates += [here, *here.parents]
    for folder in candidates:
        if _is_checkout(folder):
            return folder
    raise LuckyLabError(
        f"the lessons are not here: luckylab is installed at {package_dir} without its "
        f"notebooks, and no folder from {here} upwards holds {START_LESSON.as_posix()}. "
        f"The lessons come with the source: git clone {SOURCE} && cd luckylab && "
        f'python -m pip install -e ".[lab]" && python -m luckylab lab '
        f"(or open them without installing anything: see docs/classroom.md)"
    )


def settings_overrides() -> dict[str, dict[str, object]]:
    """The JupyterLab settings luckylab ships (:data:`SETTINGS_OVERRIDES`).

    >>> settings_overrides()["@jupyterlab/apputils-extension:notification"]["fetchNews"]
    'false'
    """
    data: dict[str, dict[str, object]] = json.loads(
        SETTINGS_OVERRIDES.read_text(encoding="utf-8"))
    return data


def lab_environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment JupyterLab runs in: ``environ`` (default: this process's) with the
    package's Jupyter config folder first on ``JUPYTER_CONFIG_PATH``.

    >>> env = lab_environment({"JUPYTER_CONFIG_PATH": "/etc/mine"})
    >>> env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(JUPYTER_CONFIG), "/etc/mine"]
    True
    """
    env = dict(os.environ if environ is None else environ)
    paths = [p for p in env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep)
             if p and p != str(JUPYTER_CONFIG)]
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join([str(JUPYTER_CONFIG), *paths])
    return env


def running_as_root() -> bool:
    """True for the superuser on POSIX (never on Windows)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def lab_command(
    forwarded: list[str], root: Path, as_root: bool | None = None
) -> tuple[list[str], list[str]]:
    """The JupyterLab command line for ``root`` and the notes to print first.

    Examples
    --------
    >>> from pathlib import Path
    >>> argv, notes = lab_command(["--", "--port", "8899"], Path("/repo"), as_root=True)
    >>> argv[-4:]
    ['notebooks/00_start_here.ipynb', '--allow-root', '--port', '8899']
    >>> notes[0].startswith("running as root")
    True
    """
    forwarded = list(forwarded)
    if forwarded[:1] == ["--"]:
        forwarded = forwarded[1:]
    if as_root is None:
        as_root = running_as_root()
    argv = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.root_dir={root}",
        START_LESSON.as_posix(),
    ]
    notes = []
    if as_root and not any(a.startswith("--allow-root") for a in forwarded):
        argv.append("--allow-root")
        notes.append(
            "running as root (as in Docker, Codespaces or CI): passing --allow-root to JupyterLab"
        )
    return argv + forwarded, notes


def run(args: argparse.Namespace) -> int:
    forwarded = list(args.jupyterlab_args)
    if importlib.util.find_spec("jupyterlab") is None:
        raise LuckyLabError(
            "JupyterLab is not installed in this Python "
            f"({sys.executable}): install the 'lab' extra from the checkout with "
            'python -m pip install -e ".[lab]" (or python -m pip install jupyterlab)'
        )
    root = find_checkout()
    argv, notes = lab_command(forwarded, root)
    for note in notes:
        print(f"luckylab: {note}", file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    env = lab_environment()
    if os.name == "posix":  # JupyterLab takes over this process: Ctrl-C and signals reach it
        os.chdir(root)
        os.execve(argv[0], argv, env)
    return subprocess.call(argv, cwd=root, env=env)  # pragma: no cover (Windows)
