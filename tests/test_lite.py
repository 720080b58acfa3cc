"""The JupyterLite site (``luckylab lite-build``) and the engine under Pyodide.

What runs here, offline:

- the build itself (slow): the luckylab wheel, every lesson with its install cell, the widgets
  and ipyevents extensions, the wheel served from the site's ``pypi/`` folder; the repository's
  lessons stay untouched;
- the engine's core under Node with the npm ``pyodide`` package (core only): seeded games of
  every engine, two sight tables and an exact P(foil), compared with CPython's output. It needs
  ``node`` and the npm package (fetched once with ``npm install`` into a cache folder, or given
  by ``LUCKYLAB_PYODIDE_DIR``), and networkx, which is pure Python and is copied from this
  environment into Pyodide's file system.

What cannot run here, and is skipped with the reason:

- numpy and matplotlib in Pyodide: Pyodide's ``loadPackage`` fetches them from its CDN;
- the lessons in a real browser on the published site (the kernel loads Pyodide from the CDN):
  ``test_published_site_runs_the_start_lesson_in_a_browser`` runs when ``LUCKYLAB_LITE_URL``
  names a published site (the Pages workflow sets it after deploying).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from luckylab.cli import COMMANDS, lite
from luckylab.errors import LuckyLabError

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_DIR = Path(__file__).resolve().parent / "pyodide"
PYODIDE_NPM = "pyodide@314.0.7"
NODE_TIMEOUT_S = 600
LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


# --- fast --------------------------------------------------------------------------------


def test_lite_build_is_a_registered_command():
    assert "luckylab.cli.lite" in COMMANDS


def test_install_cell_is_first_runs_only_in_pyodide_and_leaves_the_lesson_alone():
    lesson = json.loads((ROOT / "notebooks" / LESSONS[0]).read_text(encoding="utf-8"))
    before = json.dumps(lesson, sort_keys=True)
    copy = lite.with_install_cell(lesson)
    assert json.dumps(lesson, sort_keys=True) == before  # the original is not changed
    first = copy["cells"][0]
    assert first["cell_type"] == "code" and first["id"] == lite.INSTALL_CELL_ID
    assert first["outputs"] == [] and first["execution_count"] is None
    assert copy["cells"][1:] == lesson["cells"]
    assert copy["metadata"]["kernelspec"]["name"] == "python"  # JupyterLite's Pyodide kernel
    # Outside Pyodide the cell does nothing: it runs here without piplite and without await.
    source = first["source"]
    assert 'if sys.platform == "emscripten":' in source and 'piplite.install("luckylab")' in source
    body = source.replace("await ", "")  # top-level await is a kernel feature, not Python's
    namespace: dict = {}
    exec(compile(body, "install-cell", "exec"), namespace)  # noqa: S102 (our own fixed cell)
    assert "piplite" not in namespace and "piplite" not in sys.modules


def test_install_cell_is_never_added_twice():
    lesson = json.loads((ROOT / "notebooks" / LESSONS[0]).read_text(encoding="utf-8"))
    with pytest.raises(LuckyLabError, match="already has"):
        lite.with_install_cell(lite.with_install_cell(lesson))
    with pytest.raises(LuckyLabError, match="not a notebook"):
        lite.with_install_cell({"metadata": {}})


def test_lite_build_without_its_tools_names_the_extra(monkeypatch, tmp_path):
    real = lite.importlib.util.find_spec

    def find_spec(name, *args):
        return None if name == "jupyterlite_core" else real(name, *args)

    monkeypatch.setattr(lite.importlib.util, "find_spec", find_spec)
    with pytest.raises(LuckyLabError, match=r"'lite' extra.*jupyterlite-core"):
        lite.build_site(tmp_path / "site")


def test_lite_build_refuses_a_folder_that_is_not_an_earlier_site(tmp_path):
    if lite.missing_build_tools():
        pytest.skip(f"the lite extra is not installed: {lite.missing_build_tools()}")
    out = tmp_path / "mine"
    out.mkdir()
    (out / "homework.txt").write_text("keep me")
    with pytest.raises(LuckyLabError, match="not an earlier JupyterLite build"):
        lite.build_site(out)
    assert (out / "homework.txt").read_text() == "keep me"


# --- the build (slow, offline) ------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> dict:
    missing = lite.missing_build_tools()
    if missing:
        pytest.skip(f"the lite extra is not installed ({'; '.join(missing)})")
    before = digest(ROOT / "notebooks")
    stray = {p for p in ("build", "dist") if (ROOT / p).exists()}
    out = tmp_path_factory.mktemp("lite") / "site"
    summary = lite.build_site(out)
    summary["notebooks_before"] = before
    summary["stray_before"] = stray
    print(f"\nJupyterLite build: {summary['seconds']} s (wheel {summary['wheel_seconds']} s), "
          f"{summary['megabytes']} MB in {summary['files']} files")  # fmt: skip
    return summary


@pytest.mark.slow
def test_site_has_every_lesson_with_the_install_cell_first(site):
    lessons = Path(site["out"]) / "files" / "notebooks"
    assert sorted(p.name for p in lessons.glob("*.ipynb")) == LESSONS == site["lessons"]
    for name in LESSONS:
        original = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
        served = json.loads((lessons / name).read_text(encoding="utf-8"))
        assert served["cells"][0]["id"] == lite.INSTALL_CELL_ID, name
        assert served["cells"][1:] == original["cells"], name
    # ... and the contents index lists them, so the file browser shows them.
    index = json.loads((Path(site["out"]) / "api" / "contents" / "notebooks" / "all.json")
                       .read_text(encoding="utf-8"))  # fmt: skip
    assert sorted(c["name"] for c in index["content"] if c["type"] == "notebook") == LESSONS


@pytest.mark.slow
def test_site_serves_the_luckylab_wheel_and_lists_it_for_piplite(site):
    out = Path(site["out"])
    wheel = out / site["wheel"]
    assert wheel.name.endswith("-py3-none-any.whl") and wheel.parent.name == "pypi"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "luckylab/__init__.py" in names
    assert any(n.startswith("luckylab/data/") and n.endswith(".toml") for n in names)
    index = json.loads((out / "pypi" / "all.json").read_text(encoding="utf-8"))
    releases = index["luckylab"]["releases"]
    assert any(f["filename"] == wheel.name for files in releases.values() for f in files)
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"
    ]
    assert any(u.startswith("./pypi/all.json") for u in kernel["pipliteUrls"])


@pytest.mark.slow
def test_site_has_the_widgets_and_ipyevents_front_ends(site):
    out = Path(site["out"])
    assert lite.WIDGETS_EXTENSION in site["extensions"]
    assert lite.EVENTS_EXTENSION in site["extensions"]
    widgets = out / "extensions" / "@jupyter-widgets" / "jupyterlab-manager"
    assert (widgets / "package.json").is_file()
    assert (out / "extensions" / "ipyevents" / "package.json").is_file()
    assert (out / "lab" / "index.html").is_file()


@pytest.mark.slow
def test_site_build_leaves_the_repository_alone(site):
    assert digest(ROOT / "notebooks") == site["notebooks_before"]
    assert {p for p in ("build", "dist") if (ROOT / p).exists()} == site["stray_before"]


@pytest.mark.slow
def test_lite_build_replaces_an_earlier_site(site, tmp_path):
    """A second build into the same folder replaces it (the command line's path)."""
    out = tmp_path / "site"
    shutil.copytree(site["out"], out)
    (out / "stale.txt").write_text("from an old build")
    result = subprocess.run(
        [sys.executable, "-m", "luckylab", "lite-build", "--out", str(out), "--json"],
        cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True,
        timeout=900,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    summary = json.loads(result.stdout)
    assert summary["lessons"] == LESSONS and not (out / "stale.txt").exists()


# --- the engine under Pyodide (Node, offline) -------------------------------------------------


def pyodide_package(cache: Path) -> Path:
    """The npm ``pyodide`` package: LUCKYLAB_PYODIDE_DIR, or npm-installed into ``cache``."""
    given = os.environ.get("LUCKYLAB_PYODIDE_DIR")
    if given:
        return Path(given)
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js (node and npm) is not installed: cannot run Pyodide outside a browser")
    package = cache / "node_modules" / "pyodide"
    if not (package / "pyodide.asm.wasm").is_file():
        cache.mkdir(parents=True, exist_ok=True)
        result = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(cache),
             PYODIDE_NPM],
            capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        if result.returncode != 0 or not (package / "pyodide.asm.wasm").is_file():
            tail = (result.stdout + result.stderr).strip().splitlines()[-3:]
            pytest.skip(f"npm could not install {PYODIDE_NPM}: {' '.join(tail)}")
    return package


def networkx_archive(target: Path) -> Path:
    """networkx as installed here (pure Python), zipped for Pyodide's site-packages."""
    dist = metadata.distribution("networkx")
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in dist.files or []:
            path = Path(dist.locate_file(file))
            if path.is_file() and "__pycache__" not in file.parts:
                archive.write(path, str(file))
    return target


def run_in_pyodide(
    package: Path, script: Path, *options: str, timeout: float = NODE_TIMEOUT_S
) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["node", str(PYODIDE_DIR / "run_in_pyodide.mjs"), str(package), str(script), *options],
        capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.fixture(scope="module")
def pyodide(tmp_path_factory) -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "luckylab-tests"
    return pyodide_package(cache / PYODIDE_NPM.replace("@", "-"))


@pytest.mark.slow
def test_engine_core_in_pyodide_matches_cpython(site, pyodide, tmp_path):
    """Seeded games of all four engines (results and move records), the Isla Fortuna and Kill
    Doctor Lucky sight tables and an exact P(foil): the same, bit for bit, under Pyodide
    (with the site's own luckylab wheel) as under CPython."""
    script = PYODIDE_DIR / "engine_core.py"
    wheel = Path(site["out"]) / site["wheel"]
    nx = networkx_archive(tmp_path / "networkx.zip")
    in_browser = run_in_pyodide(pyodide, script, "--archive", str(nx), "--archive", str(wheel))
    assert in_browser.returncode == 0, in_browser.stderr[-3000:]
    here = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)  # fmt: skip
    assert here.returncode == 0, here.stderr[-3000:]
    pyodide_out, cpython_out = json.loads(in_browser.stdout), json.loads(here.stdout)
    assert pyodide_out.pop("platform") == "emscripten"
    cpython_out.pop("platform")
    assert set(pyodide_out["games"]) == {"island", "kill", "save", "panic"}
    assert pyodide_out == cpython_out


@pytest.mark.slow
def test_numpy_in_pyodide(pyodide, tmp_path):
    """numpy (the Monte Carlo engine, the figures) is not in the npm core: Pyodide fetches it
    from its CDN, which this machine cannot reach; where it can, numpy must import."""
    script = tmp_path / "numpy_probe.py"
    script.write_text("import numpy\nprint(numpy.__version__)\n")
    try:
        result = run_in_pyodide(pyodide, script, "--load", "numpy", timeout=180)
    except subprocess.TimeoutExpired:
        pytest.skip("Pyodide's loadPackage('numpy') did not finish in 180 s (CDN unreachable)")
    if result.returncode == 3:
        pytest.skip(f"Pyodide cannot load numpy offline (no CDN): {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip()


# --- the site in a real browser, offline (the page, not the kernel) -------------------------

IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
@pytest.mark.browser
def test_site_opens_the_start_lesson_in_chromium_with_the_widget_extensions(site):
    """The built site, served from 127.0.0.1, opens lesson 00 in Chromium: JupyterLite's page
    loads, the widgets and ipyevents extensions are registered, the install cell comes first.
    The kernel itself cannot start here (it loads Pyodide from the CDN)."""
    try:
        from browser_support import CHROMIUM, CHROMIUM_ARGS
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        if IN_CI:
            pytest.fail(f"playwright is missing under CI: {error}", pytrace=False)
        pytest.skip(f"playwright is not installed: {error}")
    if not CHROMIUM.exists():
        if IN_CI:
            pytest.fail(f"{CHROMIUM} is missing under CI", pytrace=False)
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
         site["out"], str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(f"http://127.0.0.1:{port}/lab/index.html"
                          "?path=notebooks/00_start_here.ipynb", timeout=120_000)  # fmt: skip
                page.wait_for_function(
                    """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                               return w && w.context && w.context.isReady && w.content
                                      && w.content.widgets.length > 1; }""",
                    timeout=180_000,
                )
                info = page.evaluate("""() => {
                    const app = window.jupyterapp, nb = app.shell.currentWidget;
                    return {plugins: app.listPlugins(), path: nb.context.path,
                            cells: nb.content.widgets.map(c => c.model.sharedModel.getSource())};
                }""")  # fmt: skip
            finally:
                browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    assert info["path"] == "notebooks/00_start_here.ipynb"
    assert "@jupyter-widgets/jupyterlab-manager:plugin" in info["plugins"]
    assert "ipyevents" in info["plugins"]
    assert info["cells"][0] == lite.INSTALL_CELL_SOURCE
    original = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    assert info["cells"][1:] == ["".join(c["source"]) for c in original["cells"]]


def test_pages_workflow_builds_publishes_and_checks_the_site():
    """.github/workflows/pages.yml builds with the lite extra, publishes the folder it built and
    runs the published-site browser test (whose name it selects) against the deployed URL."""
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert 'pip install -e ".[lite]"' in workflow
    assert "python -m luckylab lite-build --out site" in workflow
    assert "actions/upload-pages-artifact@" in workflow and "path: site" in workflow
    assert "actions/deploy-pages@" in workflow and "pages: write" in workflow
    selected = re.search(r"tests/test_lite.py -k (\w+)", workflow)
    assert selected and "LUCKYLAB_LITE_URL" in workflow
    names = [n for n in globals() if n.startswith("test_") and selected[1] in n]
    assert names == ["test_published_site_runs_the_start_lesson_in_a_browser"]


# --- the published site in a real browser (needs the CDN) ----------------------------------


@pytest.mark.browser
def test_published_site_runs_the_start_lesson_in_a_browser():
    """Open lesson 00 on the published site in Chromium and run it, install cell included.

    Needs the published site (``LUCKYLAB_LITE_URL``, e.g. the GitHub Pages address) and a
    network that reaches Pyodide's CDN and PyPI: the Pages workflow runs it after deploying.
    """
    url = os.environ.get("LUCKYLAB_LITE_URL")
    if not url:
        pytest.skip(
            "needs a published site (LUCKYLAB_LITE_URL) and Pyodide's CDN and PyPI, which this "
            "machine cannot reach: the kernel loads Pyodide, numpy and matplotlib from the CDN"
        )
    playwright = pytest.importorskip("playwright.sync_api")
    from browser_support import CHROMIUM, CHROMIUM_ARGS

    lesson = f"{url.rstrip('/')}/lab/index.html?path=notebooks/00_start_here.ipynb"
    with playwright.sync_playwright() as p:
        options = {"args": CHROMIUM_ARGS}
        if CHROMIUM.exists():
            options["executable_path"] = str(CHROMIUM)
        browser = p.chromium.launch(**options)
        try:
            page = browser.new_page()
            page.goto(lesson, timeout=120_000)
            page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell"
                                   " .currentWidget && window.jupyterapp.shell.currentWidget"
                                   " .sessionContext", timeout=180_000)  # fmt: skip
            page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.ready")
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.wait_for_function(
                """() => {
                    const code = '.jp-Notebook .jp-CodeCell .jp-InputPrompt';
                    const prompts = [...document.querySelectorAll(code)];
                    return prompts.length > 0 && prompts.every(
                        p => /\\[\\d+\\]/.test(p.textContent));
                }""",
                timeout=900_000,
            )  # every code cell has run (a number in its prompt, no [*])
            text = page.locator(".jp-Notebook").inner_text()
            assert "Traceback" not in text, text[-3000:]
            assert "Error displaying widget" not in text, text[-3000:]
        finally:
            browser.close()
