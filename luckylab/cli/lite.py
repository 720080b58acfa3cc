"""``luckylab lite-build --out site/``: a JupyterLite site of the lessons (no server needed).

The site is static files: Python runs in the students' browsers (Pyodide), so any web host
(GitHub Pages, a school's web space, a USB stick served with ``python -m http.server``) can
serve a class of any size. The build, offline:

1. builds the luckylab wheel from the checkout (``pip wheel --no-build-isolation``, no index);
2. copies every lesson (``notebooks/*.ipynb``) and gives each *copy* a first cell that installs
   luckylab with piplite when it runs in Pyodide (``sys.platform == "emscripten"``) and does
   nothing elsewhere; the repository's notebooks are not changed, so nbval and Binder never see
   that cell. The copies' kernel is set to JupyterLite's Pyodide kernel (``python``);
3. runs ``jupyter lite build`` with the lessons as contents and the wheel served from the site
   (``pypi/``, listed in ``pipliteUrls``), so ``piplite.install("luckylab")`` finds it there;
4. checks that the widgets front end (``@jupyter-widgets/jupyterlab-manager``) and the ipyevents
   extension made it into the site (``jupyter lite build`` silently leaves out an extension
   whose Python package is missing from the build environment).

The build needs the ``lite`` extra (``python -m pip install -e ".[lite]"``). At run time the
browser fetches Pyodide, numpy, matplotlib and networkx from Pyodide's CDN and ipywidgets from
PyPI, so the students need internet access, but no server runs any Python.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..errors import LuckyLabError

WIDGETS_EXTENSION = "@jupyter-widgets/jupyterlab-manager"
EVENTS_EXTENSION = "ipyevents"
INSTALL_CELL_ID = "luckylab-lite-install"
INSTALL_CELL_SOURCE = (
    "# Only in JupyterLite (Python in this browser tab): install luckylab from this site.\n"
    "# Anywhere else (JupyterLab, Binder) this cell does nothing.\n"
    "import sys\n"
    "\n"
    'if sys.platform == "emscripten":\n'
    "    import piplite\n"
    "\n"
    '    await piplite.install("luckylab")'
)
SITE_CONFIG = {  # merged into the site's jupyter-lite.json
    "jupyter-config-data": {
        "appName": "luckylab",
        # window.jupyterapp, so a browser test can run a lesson (everything runs client-side
        # anyway: this exposes nothing a visitor could not already reach).
        "exposeAppInBrowser": "true",
    }
}
PYODIDE_KERNELSPEC = {"display_name": "Python (Pyodide)", "language": "python", "name": "python"}
BUILD_TOOLS = {  # module -> what provides it
    "jupyterlite_core": "jupyterlite-core",
    "jupyterlite_pyodide_kernel": "jupyterlite-pyodide-kernel",
    "jupyter_server": "jupyter_server (else: 'jupyter-server is not installed')",
    "jupyterlab_widgets": "jupyterlab_widgets (else the widgets are silently left out)",
    "ipyevents": "ipyevents (its lab extension: clickable maps)",
    "setuptools": "setuptools (to build the luckylab wheel)",
    "wheel": "wheel (to build the luckylab wheel)",
}
TIMEOUT_S = 900


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "lite-build",
        help="build a JupyterLite site of the lessons (needs the 'lite' extra)",
        description="Build a static JupyterLite site with every lesson, the widgets extension "
        "and the luckylab wheel, offline. Serve the folder from any web host.",
    )
    p.add_argument("--out", default="site", type=Path,
                   help="output folder (default: site); an earlier JupyterLite build there is "
                        "replaced, any other non-empty folder is refused")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print a JSON summary of the build")
    p.set_defaults(func=run)


def with_install_cell(notebook: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``notebook`` whose first cell installs luckylab in Pyodide, for the site.

    The notebook's other cells are unchanged; its kernel becomes JupyterLite's ``python``.
    Adding the cell twice is refused, so a copy is never injected twice.

    Examples
    --------
    >>> lesson = {"cells": [{"cell_type": "markdown", "id": "t", "metadata": {},
    ...                      "source": "# 0. Start here"}],
    ...           "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    >>> site_copy = with_install_cell(lesson)
    >>> [c["cell_type"] for c in site_copy["cells"]], len(lesson["cells"])
    (['code', 'markdown'], 1)
    >>> 'if sys.platform == "emscripten":' in site_copy["cells"][0]["source"]
    True
    """
    cells = notebook.get("cells")
    if not isinstance(cells, list):
        raise LuckyLabError("not a notebook: no list of cells")
    if any(cell.get("id") == INSTALL_CELL_ID for cell in cells):
        raise LuckyLabError(f"this notebook already has the {INSTALL_CELL_ID!r} cell")
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "id": INSTALL_CELL_ID,
        "metadata": {"tags": ["jupyterlite-install"]},
        "outputs": [],
        "source": INSTALL_CELL_SOURCE,
    }
    copy = json.loads(json.dumps(notebook))
    copy["cells"] = [cell, *copy["cells"]]
    copy.setdefault("metadata", {})["kernelspec"] = dict(PYODIDE_KERNELSPEC)
    if (copy.get("nbformat"), copy.get("nbformat_minor", 0)) < (4, 5):
        copy["nbformat"], copy["nbformat_minor"] = 4, 5  # cell ids need 4.5
    return copy


def missing_build_tools() -> list[str]:
    """What the build environment lacks (an empty list when the ``lite`` extra is installed)."""
    return [what for module, what in BUILD_TOOLS.items() if not importlib.util.find_spec(module)]


def build_wheel(root: Path, dest: Path) -> Path:
    """Build the luckylab wheel from the checkout at ``root`` into ``dest``, offline.

    The source is copied first so the checkout gets no ``build/`` or ``*.egg-info`` folders.
    """
    source = dest / "src"
    shutil.copytree(root / "luckylab", source / "luckylab",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))  # fmt: skip
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        if (root / name).is_file():
            shutil.copy2(root / name, source / name)
    wheels = dest / "wheels"
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
               "--no-index", "--disable-pip-version-check", "-q",
               "-w", str(wheels), str(source)]  # fmt: skip
    _run(command, cwd=dest, what="building the luckylab wheel")
    built = sorted(wheels.glob("luckylab-*-py3-none-any.whl"))
    if len(built) != 1:
        raise LuckyLabError(f"expected one pure-Python luckylab wheel, got {built}")
    return built[0]


def copy_lessons(root: Path, contents: Path) -> list[str]:
    """Copy every lesson, with the install cell, to ``contents/notebooks``; return their names."""
    lessons = sorted((root / "notebooks").glob("*.ipynb"))
    if not lessons:
        raise LuckyLabError(f"no lessons in {root / 'notebooks'}")
    target = contents / "notebooks"
    target.mkdir(parents=True)
    for lesson in lessons:
        notebook = json.loads(lesson.read_text(encoding="utf-8"))
        text = json.dumps(with_install_cell(notebook), indent=1, ensure_ascii=False)
        (target / lesson.name).write_text(text + "\n", encoding="utf-8")
    rules = root / "docs" / "rules"
    if rules.is_dir():  # the lessons link to the rules (../docs/rules/<game>.md)
        shutil.copytree(rules, contents / "docs" / "rules")
    return [lesson.name for lesson in lessons]


def build_site(out: Path, root: Path | None = None) -> dict[str, Any]:
    """Build the JupyterLite site into ``out`` and return a summary (lessons, wheel, sizes).

    Raises :class:`~luckylab.errors.LuckyLabError` when the build tools are missing, when
    ``out`` is a non-empty folder that is not an earlier site, or when the build fails or
    leaves out the widgets extension.
    """
    from .lab import find_checkout

    missing = missing_build_tools()
    if missing:
        raise LuckyLabError(
            "the JupyterLite build needs the 'lite' extra: python -m pip install -e \".[lite]\" "
            f"(missing: {'; '.join(missing)})"
        )
    root = root or find_checkout()
    out = Path(out).resolve()
    if out.exists() and (not out.is_dir() or (
        any(out.iterdir()) and not (out / "jupyter-lite.json").is_file()
    )):  # fmt: skip
        raise LuckyLabError(
            f"{out} exists and is not an earlier JupyterLite build: choose an empty or new "
            "folder for --out"
        )
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="luckylab-lite-") as tmp:
        work = Path(tmp)
        wheel = build_wheel(root, work / "wheel")
        wheel_s = time.perf_counter() - started
        lessons = copy_lessons(root, work / "contents")
        lite_dir = work / "lite"
        lite_dir.mkdir()
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(SITE_CONFIG), encoding="utf-8")
        staged = work / "site"
        command = [sys.executable, "-m", "jupyterlite_core", "build",
                   "--lite-dir", str(lite_dir), "--contents", str(work / "contents"),
                   "--output-dir", str(staged), "--piplite-wheels", str(wheel)]  # fmt: skip
        _run(command, cwd=lite_dir, what="jupyter lite build")
        summary = check_site(staged)
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staged), str(out))
    files = [p for p in out.rglob("*") if p.is_file()]
    return {
        "out": str(out),
        "lessons": lessons,
        "wheel": summary["wheel"],
        "extensions": summary["extensions"],
        "files": len(files),
        "megabytes": round(sum(p.stat().st_size for p in files) / 1e6, 1),
        "wheel_seconds": round(wheel_s, 1),
        "seconds": round(time.perf_counter() - started, 1),
    }


def check_site(site: Path) -> dict[str, Any]:
    """Check a built site: the widgets and ipyevents extensions and the served luckylab wheel."""
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    data = config["jupyter-config-data"]
    extensions = sorted(e["name"] for e in data.get("federated_extensions", []))
    for needed in (WIDGETS_EXTENSION, EVENTS_EXTENSION):
        if needed not in extensions:
            raise LuckyLabError(f"the site lacks the {needed} extension (has: {extensions})")
    wheels = sorted(p.name for p in (site / "pypi").glob("luckylab-*.whl"))
    index = json.loads((site / "pypi" / "all.json").read_text(encoding="utf-8"))
    piplite_urls = (
        data.get("litePluginSettings", {})
        .get("@jupyterlite/pyodide-kernel-extension:kernel", {})
        .get("pipliteUrls", [])
    )
    if len(wheels) != 1 or "luckylab" not in index or not any(
        u.startswith("./pypi/all.json") for u in piplite_urls
    ):
        raise LuckyLabError(
            f"the site does not serve the luckylab wheel ({wheels}, {piplite_urls})"
        )
    return {"extensions": extensions, "wheel": f"pypi/{wheels[0]}"}


def _run(command: list[str], cwd: Path, what: str) -> None:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                            timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)  # fmt: skip
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).strip().splitlines()[-25:]
        raise LuckyLabError(f"{what} failed (exit {result.returncode}):\n" + "\n".join(tail))


def run(args: argparse.Namespace) -> int:
    summary = build_site(args.out)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"JupyterLite site in {summary['out']}: {len(summary['lessons'])} lessons, "
          f"{summary['wheel']}, extensions {', '.join(summary['extensions'])}; "
          f"{summary['megabytes']} MB in {summary['files']} files, built in "
          f"{summary['seconds']} s")  # fmt: skip
    print(f"Try it: python -m http.server -d {summary['out']} 8000, then open "
          "http://localhost:8000/lab/index.html?path=notebooks/00_start_here.ipynb")
    return 0
