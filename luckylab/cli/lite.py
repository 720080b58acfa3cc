"""``luckylab lite-build --out site/``: a JupyterLite site of the lessons (no server needed).

The site is static files: Python runs in the students' browsers (Pyodide), so any web host
(GitHub Pages, a school's web space, a USB stick served with ``python -m http.server``) can
serve a class of any size. The build, offline:

1. builds the luckylab wheel from the checkout (``pip wheel --no-build-isolation``, no index);
2. copies every lesson (``notebooks/*.ipynb``) and gives each *copy* a first cell that installs
   luckylab with piplite when it runs in Pyodide (``sys.platform == "emscripten"``), checks
   that every package the lessons import arrived (else one sentence: which package, from which
   host, what to ask the network admin) and does nothing elsewhere; the copies store every
   text as one string (JupyterLite shows nbformat's lists of lines with commas) and the start
   lesson's copy says what a stuck kernel means. The repository's notebooks are not changed,
   so nbval and Binder never see that cell. The copies' kernel is JupyterLite's ``python``;
3. runs ``jupyter lite build`` with the lessons as contents and the wheel served from the site
   (``pypi/``, listed in ``pipliteUrls``), so ``piplite.install("luckylab")`` finds it there
   (the install cell also installs what luckylab's :data:`SITE_EXTRAS` need: openskill, for
   the tournament lesson's ratings);
4. checks that the widgets front end (``@jupyter-widgets/jupyterlab-manager``) and the ipyevents
   extension made it into the site (``jupyter lite build`` silently leaves out an extension
   whose Python package is missing from the build environment), and that the site carries
   luckylab's JupyterLab settings (``settingsOverrides``: the ones ``luckylab lab`` and Binder
   use, :data:`luckylab.cli.lab.SETTINGS_OVERRIDES`: no Jupyter news pop-up).

The build needs the ``lite`` extra (``python -m pip install -e ".[lite]"``). At run time the
browser fetches Pyodide, numpy, matplotlib and networkx from Pyodide's CDN and comm,
ipywidgets, ipyevents and openskill from PyPI, so the students need internet access, but no
server runs any Python. With ``--pyodide DIR`` (:mod:`luckylab.cli.pyodide_bundle`) the site
serves a full Pyodide distribution and those wheels itself and needs no internet at all.
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
START_LESSON = "00_start_here.ipynb"
PYODIDE_KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
#: Where the kernel fetches Pyodide and its packages unless told otherwise (the default of
#: jupyterlite-pyodide-kernel 0.8.x: https://cdn.jsdelivr.net/pyodide/v314.0.6/full/).
PYODIDE_CDN_HOST = "cdn.jsdelivr.net"
#: Where piplite looks for a package that neither the site nor Pyodide has: PyPI's JSON API,
#: whose files are on files.pythonhosted.org.
PYPI_HOSTS = ("pypi.org", "files.pythonhosted.org")
#: What the lessons import, in the order the install cell checks it (a package's
#: dependencies before it), and where each comes from in a site that loads Pyodide from its
#: CDN. ``()`` means the site itself.
LESSON_PACKAGES: dict[str, tuple[str, ...]] = {
    "numpy": (PYODIDE_CDN_HOST,),
    "matplotlib": (PYODIDE_CDN_HOST,),
    "networkx": (PYODIDE_CDN_HOST,),
    "ipywidgets": PYPI_HOSTS,
    "ipyevents": PYPI_HOSTS,
    "openskill": PYPI_HOSTS,
    "luckylab": (),
}
#: luckylab's extras (pyproject.toml) whose packages the site provides too: the tournament
#: lesson rates its bots with openskill. A bundled site (``--pyodide``) serves their wheels.
SITE_EXTRAS = ("tournament",)
#: What the install cell installs with piplite after luckylab: the packages of SITE_EXTRAS
#: (piplite installs luckylab's own dependencies, not its extras).
EXTRA_INSTALLS = ("openskill",)
INSTALL_CELL_TEMPLATE = """\
# Only in JupyterLite (Python in this browser tab): install luckylab from this site and check
# that everything the lessons use has arrived. Anywhere else (JupyterLab, Binder) it does nothing.
import sys

if sys.platform == "emscripten":
    import importlib

    import piplite

    class SetupError(Exception):
        def _render_traceback_(self):  # show the sentence alone, without a traceback
            return [str(self)]

    try:
        await piplite.install("luckylab")
        await piplite.install({extras})  # the class tournament's ratings (lesson 13)
    except Exception:
        pass  # the check below says which package did not arrive, and from where
    where = {{  # package: the hosts it is downloaded from (none: this site)
{where}
    }}
    for package, hosts in where.items():
        try:
            importlib.import_module(package)
        except ImportError:
            if not hosts:  # this site itself
                try:
                    from js import location

                    hosts = (location.host,)
                except Exception:
                    hosts = ("this site",)
            raise SetupError(
                f"Python could not load {{package}}, which this page downloads from "
                f"{{' and '.join(hosts)}}: ask the network admin to allow "
                f"{{' and '.join('https://' + host for host in hosts)}}, then reload this "
                "page and run this cell again."
            ) from None
    import luckylab

    print("Ready: luckylab", luckylab.__version__,
          "{ready}")
    del where, package, hosts"""


def install_cell_source(hosts: dict[str, tuple[str, ...]] | None = None) -> str:
    """The source of the install cell, checking each package of ``hosts`` (default:
    :data:`LESSON_PACKAGES`, a site that loads Pyodide from its CDN) in that order.

    Examples
    --------
    >>> source = install_cell_source()
    >>> 'await piplite.install("luckylab")' in source, '"cdn.jsdelivr.net"' in source
    (True, True)
    >>> "cdn.jsdelivr.net" in install_cell_source({name: () for name in LESSON_PACKAGES})
    False
    """
    hosts = dict(LESSON_PACKAGES if hosts is None else hosts)
    where = "\n".join(
        f"        {json.dumps(name)}: "
        f"({', '.join(json.dumps(h) for h in found)}{',' if len(found) == 1 else ''}),"
        for name, found in hosts.items()
    )
    others = [name for name in hosts if name != "luckylab"]
    ready = f"with {', '.join(others[:-1])} and {others[-1]}." if len(others) > 1 else ""
    extras = json.dumps(EXTRA_INSTALLS[0] if len(EXTRA_INSTALLS) == 1 else list(EXTRA_INSTALLS))
    return INSTALL_CELL_TEMPLATE.format(where=where, ready=ready, extras=extras)


def site_requires(wheel: Path) -> list[str]:
    """What the site must provide for luckylab's ``wheel``: its requirements, plus those of
    :data:`SITE_EXTRAS` (without their ``extra == ...`` marker).

    Examples
    --------
    >>> import tempfile, zipfile
    >>> wheel = Path(tempfile.mkdtemp()) / "luckylab-1.0-py3-none-any.whl"
    >>> with zipfile.ZipFile(wheel, "w") as archive:
    ...     archive.writestr("luckylab-1.0.dist-info/METADATA", "Name: luckylab\\n"
    ...         "Requires-Dist: numpy>=1.22\\n"
    ...         'Requires-Dist: openskill<7,>=6.0; extra == "tournament"\\n'
    ...         "Requires-Dist: tomli>=2.0; python_version < '3.11'\\n"
    ...         'Requires-Dist: pytest; extra == "dev"\\n')
    >>> site_requires(wheel)
    ['numpy>=1.22', 'openskill<7,>=6.0', "tomli>=2.0; python_version < '3.11'"]
    """
    from packaging.requirements import Requirement

    from .pyodide_bundle import wheel_requires

    needed = []
    for line in wheel_requires(wheel):
        requirement = Requirement(line)
        marker = requirement.marker
        if marker is None or "extra" not in str(marker):  # other markers: check_bundle's
            needed.append(line)
        elif any(marker.evaluate({"extra": extra}) for extra in SITE_EXTRAS):
            requirement.marker = None
            needed.append(str(requirement))
    return needed


INSTALL_CELL_SOURCE = install_cell_source()
STUCK_KERNEL_NOTE = (
    "\n\n**If nothing happens.** In this browser version of the lessons, Python is downloaded "
    "into the browser tab when a lesson opens, from {where}. If the first code cell keeps "
    "showing `[*]` for more than two minutes and the kernel status at the top right says "
    "*Unknown* (or never says *Idle*), that download is blocked, often by a school network's "
    "filter. Reload the page once. If it is still stuck, tell your teacher: the network admin "
    "needs to allow {allow}. If the first code cell prints a sentence starting \"Python could "
    "not load\", that sentence names what to allow."
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
    p.add_argument("--pyodide", type=Path, metavar="DIR",
                   help="bundle this full Pyodide distribution (the unpacked "
                        "pyodide-<version>.tar.bz2 of a Pyodide release, plus the wheels "
                        "it lacks) so the site runs with no internet at all; see "
                        "docs/classroom.md")  # fmt: skip
    p.add_argument("--json", action="store_true", help="print a JSON summary of the build")
    p.set_defaults(func=run)


def with_install_cell(
    notebook: dict[str, Any], source: str = INSTALL_CELL_SOURCE
) -> dict[str, Any]:
    """A copy of ``notebook`` whose first cell (``source``) installs luckylab in Pyodide.

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
        # collapsed: students see a bar to click, and what the cell prints
        "metadata": {"tags": ["jupyterlite-install"], "jupyter": {"source_hidden": True}},
        "outputs": [],
        "source": source,
    }
    copy = json.loads(json.dumps(notebook))
    copy["cells"] = [cell, *copy["cells"]]
    copy.setdefault("metadata", {})["kernelspec"] = dict(PYODIDE_KERNELSPEC)
    if (copy.get("nbformat"), copy.get("nbformat_minor", 0)) < (4, 5):
        copy["nbformat"], copy["nbformat_minor"] = 4, 5  # cell ids need 4.5
    return copy


def joined(notebook: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``notebook`` with every multi-line text stored as one string.

    nbformat allows a cell's ``source``, a stream's ``text`` and each value of an output's
    ``data`` (and of a cell's ``attachments``) to be a list of lines; JupyterLite shows such a
    list joined with commas (",average Luck ..."), so the site's copies use strings.

    Examples
    --------
    >>> cell = {"cell_type": "code", "source": ["a = 1\\n", "a"], "outputs": [
    ...     {"output_type": "stream", "name": "stdout", "text": ["x\\n", "y\\n"]},
    ...     {"output_type": "execute_result", "data": {"text/plain": ["1\\n", "2"]}}]}
    >>> copy = joined({"cells": [cell]})["cells"][0]
    >>> copy["source"], copy["outputs"][0]["text"], copy["outputs"][1]["data"]["text/plain"]
    ('a = 1\\na', 'x\\ny\\n', '1\\n2')
    >>> cell["source"]  # the original is not changed
    ['a = 1\\n', 'a']
    """

    def text(value: Any) -> Any:
        return "".join(value) if isinstance(value, list) else value

    def bundle(values: Any) -> Any:  # a mimebundle: each value may be a list of lines
        return {k: text(v) for k, v in values.items()} if isinstance(values, dict) else values

    copy = json.loads(json.dumps(notebook))
    for cell in copy.get("cells", []):
        cell["source"] = text(cell.get("source", ""))
        if isinstance(cell.get("attachments"), dict):
            cell["attachments"] = {k: bundle(v) for k, v in cell["attachments"].items()}
        for output in cell.get("outputs", []):
            if "text" in output:
                output["text"] = text(output["text"])
            if "data" in output:
                output["data"] = bundle(output["data"])
    return copy


def list_valued_texts(notebook: dict[str, Any]) -> list[str]:
    """Where ``notebook`` still stores text as a list of lines (``[]`` for a site copy).

    Examples
    --------
    >>> list_valued_texts({"cells": [{"source": ["a\\n", "b"], "outputs": []}]})
    ['cell 0: source']
    """
    found = []
    for i, cell in enumerate(notebook.get("cells", [])):
        if isinstance(cell.get("source"), list):
            found.append(f"cell {i}: source")
        for name, values in (cell.get("attachments") or {}).items():
            found += [f"cell {i}: attachment {name} {k}" for k, v in values.items()
                      if isinstance(v, list)]  # fmt: skip
        for j, output in enumerate(cell.get("outputs", [])):
            if isinstance(output.get("text"), list):
                found.append(f"cell {i}: output {j} text")
            found += [f"cell {i}: output {j} {k}" for k, v in (output.get("data") or {}).items()
                      if isinstance(v, list)]  # fmt: skip
    return found


def site_copy(
    notebook: dict[str, Any], source: str = INSTALL_CELL_SOURCE, note: str = ""
) -> dict[str, Any]:
    """The site's copy of a lesson: texts joined, the install cell first, and ``note``
    appended to the lesson's first markdown cell (the start lesson's stuck-kernel advice).

    Examples
    --------
    >>> lesson = {"cells": [{"cell_type": "markdown", "id": "t", "metadata": {},
    ...                      "source": ["# 0. Start\\n", "here"]}],
    ...           "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    >>> site_copy(lesson, note="\\n\\nIf nothing happens ...")["cells"][1]["source"]
    '# 0. Start\\nhere\\n\\nIf nothing happens ...'
    """
    copy = joined(with_install_cell(notebook, source))
    if note:
        first = next((c for c in copy["cells"] if c.get("cell_type") == "markdown"), None)
        if first is None:
            raise LuckyLabError("the start lesson has no markdown cell for the note")
        first["source"] = first["source"].rstrip("\n") + note
    return copy


def stuck_kernel_note(bundled: bool) -> str:
    """The start lesson's advice for a kernel that never starts, for this kind of site."""
    if bundled:
        where = "this site"
        allow = "every file of this site's address (.wasm, .whl and .zip files included)"
    else:
        hosts = (PYODIDE_CDN_HOST, *PYPI_HOSTS)
        where = f"{PYODIDE_CDN_HOST} (Python itself) and PyPI (a few packages)"
        allow = ", ".join(f"https://{h}" for h in hosts[:-1]) + f" and https://{hosts[-1]}"
    return STUCK_KERNEL_NOTE.format(where=where, allow=allow)


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


def copy_lessons(root: Path, contents: Path, bundled: bool = False) -> list[str]:
    """Copy every lesson (:func:`site_copy`) to ``contents/notebooks``; return their names.

    ``bundled``: the site serves Pyodide and every package itself (``--pyodide``), so the
    install cell and the start lesson's note name this site instead of the CDN and PyPI.
    """
    lessons = sorted((root / "notebooks").glob("*.ipynb"))
    if not lessons:
        raise LuckyLabError(f"no lessons in {root / 'notebooks'}")
    target = contents / "notebooks"
    target.mkdir(parents=True)
    for lesson in lessons:
        notebook = json.loads(lesson.read_text(encoding="utf-8"))
        hosts = {name: () for name in LESSON_PACKAGES} if bundled else LESSON_PACKAGES
        note = stuck_kernel_note(bundled) if lesson.name == START_LESSON else ""
        copy = site_copy(notebook, install_cell_source(hosts), note)
        text = json.dumps(copy, indent=1, ensure_ascii=False)
        (target / lesson.name).write_text(text + "\n", encoding="utf-8")
    rules = root / "docs" / "rules"
    if rules.is_dir():  # the lessons link to the rules (../docs/rules/<game>.md)
        shutil.copytree(rules, contents / "docs" / "rules")
    return [lesson.name for lesson in lessons]


def build_site(out: Path, root: Path | None = None, pyodide: Path | None = None) -> dict[str, Any]:
    """Build the JupyterLite site into ``out`` and return a summary (lessons, wheel, sizes).

    ``pyodide``: a full Pyodide distribution folder to bundle (see
    :mod:`luckylab.cli.pyodide_bundle`): the site then loads Pyodide, its packages and the
    widgets from itself and needs no internet.

    Raises :class:`~luckylab.errors.LuckyLabError` when the build tools are missing, when
    ``out`` is a non-empty folder that is not an earlier site, when ``pyodide`` is not a
    full distribution (naming what it lacks), or when the build fails or leaves out the
    widgets extension.
    """
    from . import pyodide_bundle
    from .lab import find_checkout, settings_overrides

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
    if pyodide is not None:
        pyodide_bundle.read_lock(pyodide)  # a wrong folder fails before the slow part
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="luckylab-lite-") as tmp:
        work = Path(tmp)
        wheel = build_wheel(root, work / "wheel")
        wheel_s = time.perf_counter() - started
        bundle = None
        if pyodide is not None:
            bundle = pyodide_bundle.check_bundle(pyodide, site_requires(wheel))
        lessons = copy_lessons(root, work / "contents", bundled=bundle is not None)
        lite_dir = work / "lite"
        lite_dir.mkdir()
        config = json.loads(json.dumps(SITE_CONFIG))
        config["jupyter-config-data"]["settingsOverrides"] = settings_overrides()
        wheels = [wheel]
        if bundle is not None:
            # jupyterlite-pyodide-kernel copies a Pyodide found at <lite dir>/static/pyodide
            # into the site and points the kernel's pyodideUrl at its pyodide.mjs; Pyodide
            # then loads its packages from the same folder (indexURL).
            (lite_dir / "static").mkdir()
            (lite_dir / "static" / "pyodide").symlink_to(bundle.folder, target_is_directory=True)
            wheels += bundle.wheels
            config["jupyter-config-data"]["litePluginSettings"] = {
                PYODIDE_KERNEL_PLUGIN: {"disablePyPIFallback": True}
            }
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(config), encoding="utf-8")
        staged = work / "site"
        command = [sys.executable, "-m", "jupyterlite_core", "build",
                   "--lite-dir", str(lite_dir), "--contents", str(work / "contents"),
                   "--output-dir", str(staged)]  # fmt: skip
        for served in wheels:
            command += ["--piplite-wheels", str(served)]
        _run(command, cwd=lite_dir, what="jupyter lite build")
        summary = check_site(staged, bundle)
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
        "pyodide": summary["pyodide"],
        "files": len(files),
        "megabytes": round(sum(p.stat().st_size for p in files) / 1e6, 1),
        "wheel_seconds": round(wheel_s, 1),
        "seconds": round(time.perf_counter() - started, 1),
    }


def kernel_settings(site: Path) -> dict[str, Any]:
    """The Pyodide kernel's settings in a built site's ``jupyter-lite.json``."""
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    plugins = config["jupyter-config-data"].get("litePluginSettings", {})
    return plugins.get(PYODIDE_KERNEL_PLUGIN, {})


def check_site(site: Path, bundle: Any = None) -> dict[str, Any]:
    """Check a built site: the widgets and ipyevents extensions, luckylab's JupyterLab settings
    (no news pop-up), the served luckylab wheel and, for a bundled Pyodide (``bundle``), that
    the kernel loads it and every extra wheel from the site with no fall-back to PyPI."""
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))
    data = config["jupyter-config-data"]
    extensions = sorted(e["name"] for e in data.get("federated_extensions", []))
    for needed in (WIDGETS_EXTENSION, EVENTS_EXTENSION):
        if needed not in extensions:
            raise LuckyLabError(f"the site lacks the {needed} extension (has: {extensions})")
    from .lab import settings_overrides

    overrides = data.get("settingsOverrides", {})
    for plugin, settings in settings_overrides().items():
        if {k: overrides.get(plugin, {}).get(k) for k in settings} != settings:
            raise LuckyLabError(f"the site lacks luckylab's settings for {plugin} "
                                f"({settings}; has {overrides.get(plugin)})")
    wheels = sorted(p.name for p in (site / "pypi").glob("luckylab-*.whl"))
    index = json.loads((site / "pypi" / "all.json").read_text(encoding="utf-8"))
    settings = kernel_settings(site)
    piplite_urls = settings.get("pipliteUrls", [])
    if (
        len(wheels) != 1
        or "luckylab" not in index
        or not any(u.startswith("./pypi/all.json") for u in piplite_urls)
    ):
        raise LuckyLabError(
            f"the site does not serve the luckylab wheel ({wheels}, {piplite_urls})"
        )
    pyodide_url = settings.get("pyodideUrl")
    if bundle is not None:
        served = site / str(pyodide_url or "").removeprefix("./")
        lacking = sorted(
            w.name for w in bundle.wheels if not (site / "pypi" / w.name).is_file()
        )  # fmt: skip
        if (
            not (pyodide_url or "").startswith("./")
            or not served.is_file()
            or not (served.parent / "pyodide-lock.json").is_file()
            or settings.get("disablePyPIFallback") is not True
            or lacking
        ):
            raise LuckyLabError(
                f"the site does not load the bundled Pyodide from itself (pyodideUrl "
                f"{pyodide_url!r}, disablePyPIFallback {settings.get('disablePyPIFallback')}, "
                f"wheels not served: {lacking})"
            )
    elif pyodide_url is not None:
        raise LuckyLabError(f"the site sets pyodideUrl {pyodide_url!r} without --pyodide")
    return {"extensions": extensions, "wheel": f"pypi/{wheels[0]}",
            "pyodide": pyodide_url or "cdn"}  # fmt: skip


def _run(command: list[str], cwd: Path, what: str) -> None:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                            timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)  # fmt: skip
    if result.returncode != 0:
        tail = (result.stdout + result.stderr).strip().splitlines()[-25:]
        raise LuckyLabError(f"{what} failed (exit {result.returncode}):\n" + "\n".join(tail))


def run(args: argparse.Namespace) -> int:
    summary = build_site(args.out, pyodide=args.pyodide)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"JupyterLite site in {summary['out']}: {len(summary['lessons'])} lessons, "
          f"{summary['wheel']}, extensions {', '.join(summary['extensions'])}; "
          f"{summary['megabytes']} MB in {summary['files']} files, built in "
          f"{summary['seconds']} s")  # fmt: skip
    if summary["pyodide"] == "cdn":
        print(f"At run time the browser downloads Pyodide and numpy, matplotlib, networkx from "
              f"{PYODIDE_CDN_HOST} and ipywidgets, ipyevents, openskill from "
              f"{' and '.join(PYPI_HOSTS)} "
              "(docs/classroom.md: the hosts a school network must allow)")  # fmt: skip
    else:
        print(f"Pyodide and every package are served from the site ({summary['pyodide']}): "
              "it needs no internet")  # fmt: skip
    print(
        f"Try it: python -m http.server -d {summary['out']} 8000, then open "
        "http://localhost:8000/lab/index.html?path=notebooks/00_start_here.ipynb"
    )
    return 0
