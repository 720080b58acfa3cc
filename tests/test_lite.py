"""The JupyterLite site (``luckylab lite-build``) and the engine under Pyodide.

What runs here, offline:

- the build itself (slow): the luckylab wheel, every lesson with its install cell, the widgets
  and ipyevents extensions, the wheel served from the site's ``pypi/`` folder; the repository's
  lessons stay untouched;
- the engine's core under Node with the npm ``pyodide`` package (core only): seeded games of
  every engine, two sight tables and an exact P(foil), compared with CPython's output. It needs
  ``node`` and the npm package (fetched once with ``npm install`` into a cache folder, or given
  by ``LUCKYLAB_PYODIDE_DIR``), and networkx, which is pure Python and is copied from this
  environment into Pyodide's file system;
- a site built with ``--pyodide`` from a partial distribution (the npm core, Pyodide's own
  pure-Python packages fetched once from PyPI, broken files for the compiled ones) starts its
  kernel in Chromium with every other host refused; its install cell names the broken numpy
  (skipped when npm, PyPI or Chromium are missing).

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


#: A small Pyodide lock: what the lessons and the kernel load, with their dependencies, and
#: one package they do not need (scipy), whose file a fake distribution leaves out.
FAKE_LOCK = {
    "micropip": [], "numpy": [], "matplotlib": ["numpy", "pyparsing"], "pyparsing": [],
    "networkx": ["decorator", "numpy", "matplotlib"], "decorator": [],
    "ipython": ["traitlets", "pygments"], "traitlets": [], "pygments": [],
    "jedi": ["parso"], "parso": [], "scipy": ["numpy"],
}  # fmt: skip
#: What Pyodide lacks (name, version, Requires-Dist), as on PyPI for ipywidgets 8.1.9.
FAKE_EXTRA_WHEELS = [
    ("comm", "0.2.3", []),
    ("ipywidgets", "8.1.9", ["comm>=0.1.3", "ipython>=6.1.0", "traitlets>=4.3.1",
                             "widgetsnbextension~=4.0.16", "jupyterlab_widgets~=3.0.17",
                             'pytest>=3.6.0; extra == "test"']),
    ("jupyterlab_widgets", "3.0.17", []),
    ("ipyevents", "2.0.4", ["ipywidgets>=7.6.0"]),
    ("openskill", "6.2.0", []),
]  # fmt: skip


def fake_wheel(folder: Path, name: str, version: str, requires: list[str]) -> Path:
    """A pure-Python wheel with just a package and its metadata."""
    dist = f"{name.replace('-', '_')}-{version}"
    path = folder / f"{dist}-py3-none-any.whl"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name.replace('-', '_')}/__init__.py", "")
        archive.writestr(f"{dist}.dist-info/METADATA", meta)
        wheel = "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        archive.writestr(f"{dist}.dist-info/WHEEL", wheel)
        archive.writestr(f"{dist}.dist-info/RECORD", "")
    return path


def fake_pyodide(folder: Path, packages: bool = True, extra: bool = True) -> Path:
    """A folder shaped like the full Pyodide distribution the kernel expects (tiny files):
    the core files, a lock of FAKE_LOCK and, with ``packages``, the files of its packages
    (scipy's left out), with ``extra``, the wheels Pyodide lacks."""
    from luckylab.cli.pyodide_bundle import kernel_versions

    folder.mkdir(parents=True)
    for name in ("pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip"):  # fmt: skip
        (folder / name).write_text(f"fake {name}\n")
    lock = {"info": {"python": kernel_versions()[1] + ".2", "arch": "wasm32"}, "packages": {}}
    for name, depends in FAKE_LOCK.items():
        file_name = f"{name}-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl"
        lock["packages"][name] = {"name": name, "version": "1.0", "file_name": file_name,
                                  "depends": depends, "imports": [name]}  # fmt: skip
        if packages and name != "scipy":
            (folder / file_name).write_bytes(b"fake wheel")
    (folder / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    if extra:
        for name, version, requires in FAKE_EXTRA_WHEELS:
            fake_wheel(folder, name, version, requires)
    return folder


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


def run_install_cell(source: str, *, fail: str | None = None, host: str | None = None,
                     install_error: bool = False) -> subprocess.CompletedProcess:
    """Run an install cell in IPython (as the kernel does, top-level await included) in a
    fresh Python that pretends to be Pyodide: a fake ``piplite`` (whose install fails with
    ``install_error``, as a download that broke off), ``fail`` made unimportable (a package
    that did not arrive) and, with ``host``, a fake ``js.location`` (the page's address)."""
    harness = f"""
import sys, types
import IPython.core.interactiveshell as ipy
import numpy, matplotlib, networkx, ipywidgets, ipyevents, openskill, luckylab  # real ones
piplite = types.ModuleType("piplite")
async def install(name):
    if {install_error!r}:
        raise ValueError("Can't fetch metadata for 'networkx' (a broken download)")
piplite.install = install
sys.modules["piplite"] = piplite
if {fail!r}:
    sys.modules[{fail!r}] = None  # import fails: ModuleNotFoundError
if {host!r}:
    js = types.ModuleType("js")
    js.location = types.SimpleNamespace(host={host!r})
    sys.modules["js"] = js
sys.platform = "emscripten"
shell = ipy.InteractiveShell.instance()
result = shell.run_cell(sys.stdin.read())
sys.stdout.flush()
sys.exit(0 if result.success else 1)
"""
    return subprocess.run([sys.executable, "-c", harness], input=source, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=300)  # fmt: skip


def test_install_cell_names_the_package_the_host_and_what_to_ask_when_a_download_failed():
    result = run_install_cell(lite.INSTALL_CELL_SOURCE, fail="networkx", install_error=True)
    assert result.returncode == 1, result.stderr
    shown = (result.stdout + result.stderr).strip()
    assert shown == (
        "Python could not load networkx, which this page downloads from cdn.jsdelivr.net: "
        "ask the network admin to allow https://cdn.jsdelivr.net, then reload this page and "
        "run this cell again."
    )  # one sentence: no traceback, no "Ready"
    result = run_install_cell(lite.INSTALL_CELL_SOURCE, fail="ipyevents")
    assert result.returncode == 1
    assert (result.stdout + result.stderr).strip().startswith(
        "Python could not load ipyevents, which this page downloads from pypi.org and "
        "files.pythonhosted.org: ask the network admin to allow https://pypi.org and "
        "https://files.pythonhosted.org, then"
    )


def test_install_cell_of_a_bundled_site_names_the_site_itself():
    source = lite.install_cell_source({name: () for name in lite.LESSON_PACKAGES})
    result = run_install_cell(source, fail="numpy", host="lessons.school.example")
    assert result.returncode == 1
    assert (result.stdout + result.stderr).strip() == (
        "Python could not load numpy, which this page downloads from lessons.school.example: "
        "ask the network admin to allow https://lessons.school.example, then reload this page "
        "and run this cell again."
    )


def test_install_cell_says_ready_when_everything_arrived():
    import luckylab

    result = run_install_cell(lite.INSTALL_CELL_SOURCE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == (
        f"Ready: luckylab {luckylab.__version__} with numpy, matplotlib, networkx, ipywidgets, "
        "ipyevents and openskill."
    )


def test_install_cell_installs_openskill_for_the_tournament_lesson_and_checks_it():
    """Lesson 13 rates its bots with openskill, which is luckylab's ``tournament`` extra:
    piplite installs luckylab's dependencies, not its extras, so the cell installs it too."""
    source = lite.INSTALL_CELL_SOURCE
    first = source.index('await piplite.install("luckylab")')
    assert source.index('await piplite.install("openskill")') > first
    result = run_install_cell(source, fail="openskill")
    assert result.returncode == 1
    assert (result.stdout + result.stderr).strip().startswith(
        "Python could not load openskill, which this page downloads from pypi.org and "
        "files.pythonhosted.org: ask the network admin"
    )
    lesson = (ROOT / "notebooks" / "13_class_tournament.ipynb").read_text(encoding="utf-8")
    assert "tournament.run(" in lesson  # the lesson that needs it is still among the lessons


def test_a_bundled_site_serves_the_tournament_extra_openskill(tmp_path):
    """A site with its own Pyodide (no PyPI) must carry openskill's wheel: site_requires adds
    the packages of luckylab's SITE_EXTRAS (read here from pyproject.toml) to its own."""
    from luckylab.cli import pyodide_bundle

    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    def with_extra(requirement: str, extra: str) -> str:  # as a wheel's METADATA writes it
        name, _, marker = requirement.partition(";")
        marker = f"({marker.strip()}) and " if marker.strip() else ""
        return f'{name.strip()}; {marker}extra == "{extra}"'

    requires = list(project["dependencies"]) + [
        with_extra(r, extra)
        for extra, rs in project["optional-dependencies"].items() for r in rs
    ]  # fmt: skip
    wheel = fake_wheel(tmp_path, "luckylab", "1.0", requires)
    needed = lite.site_requires(wheel)
    names = [r.split(";")[0].split("<")[0].split(">")[0].split("=")[0] for r in needed]
    assert "openskill" in names and "pytest" not in names
    assert all(r in needed for r in project["dependencies"])
    bundle = pyodide_bundle.check_bundle(fake_pyodide(tmp_path / "pyodide"), needed)
    assert "openskill" in [w.name.split("-")[0] for w in bundle.wheels]
    bare = fake_pyodide(tmp_path / "bare")
    (bare / "openskill-6.2.0-py3-none-any.whl").unlink()
    with pytest.raises(LuckyLabError, match="the lessons also need openskill"):
        pyodide_bundle.check_bundle(bare, needed)


def test_site_copies_store_every_text_as_one_string():
    """nbformat's lists of lines show up in JupyterLite with a comma before every line after
    the first: the site's copies join them, and change nothing else."""
    lists = 0
    for name in LESSONS:
        lesson = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
        copy = lite.site_copy(lesson)
        assert lite.list_valued_texts(copy) == [], name
        lists += len(lite.list_valued_texts(lesson))
        for original, served in zip(lesson["cells"], copy["cells"][1:], strict=True):
            assert served["source"] == "".join(original["source"])
            for out, out_served in zip(original.get("outputs", []), served.get("outputs", []),
                                       strict=True):  # fmt: skip
                assert out_served.get("text") == (
                    "".join(out["text"]) if isinstance(out.get("text"), list) else out.get("text")
                )
                assert set(out_served.get("data", {})) == set(out.get("data", {}))
    assert lists > 70  # the lessons do store lists (70 multi-line printed outputs and more)


def test_start_lesson_says_what_a_stuck_kernel_means():
    lesson = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    first = "".join(lesson["cells"][0]["source"])
    for bundled, hosts in ((False, ["https://cdn.jsdelivr.net", "https://pypi.org",
                                    "https://files.pythonhosted.org"]),
                           (True, ["this site"])):  # fmt: skip
        copy = lite.site_copy(lesson, note=lite.stuck_kernel_note(bundled))
        text = copy["cells"][1]["source"]
        assert text.startswith(first) and text != first
        note = " ".join(text[len(first):].split())
        assert "`[*]`" in note and "*Unknown*" in note and "Reload the page" in note
        assert all(h in note for h in hosts), note
        assert ("cdn.jsdelivr.net" in note) is not bundled


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


# --- a bundled Pyodide (--pyodide DIR): the folder's checks ----------------------------------


def test_pyodide_folder_must_be_a_pyodide_distribution(tmp_path):
    from luckylab.cli import pyodide_bundle

    with pytest.raises(LuckyLabError, match=r"no such folder; download pyodide-3[\d.]+\.tar\.bz2"):
        pyodide_bundle.read_lock(tmp_path / "nowhere")
    folder = fake_pyodide(tmp_path / "pyodide")
    (folder / "pyodide.mjs").unlink()
    (folder / "pyodide-lock.json").unlink()
    lacks = r"not a Pyodide distribution: it lacks pyodide\.mjs, pyodide-lock\.json"
    with pytest.raises(LuckyLabError, match=lacks + r".*github\.com/pyodide/pyodide/releases"):
        pyodide_bundle.read_lock(folder)


def test_pyodide_for_another_python_is_refused(tmp_path):
    from luckylab.cli import pyodide_bundle

    folder = fake_pyodide(tmp_path / "pyodide")
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    lock["info"]["python"] = "3.12.7"
    (folder / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(LuckyLabError, match=r"for Python 3\.12\.7, but .* expects Pyodide"):
        pyodide_bundle.read_lock(folder)


def test_pyodide_core_without_its_packages_is_refused(tmp_path):
    from luckylab.cli import pyodide_bundle

    folder = fake_pyodide(tmp_path / "pyodide", packages=False)
    with pytest.raises(LuckyLabError, match=r"core but not its packages: the files of numpy, "
                       r"matplotlib, networkx and 8 more .*full distribution"):  # fmt: skip
        pyodide_bundle.check_bundle(folder, ["numpy>=1.22", "networkx>=3.0"])


def test_pyodide_bundle_without_the_widget_wheels_says_how_to_get_them(tmp_path):
    from luckylab.cli import pyodide_bundle

    folder = fake_pyodide(tmp_path / "pyodide", extra=False)
    with pytest.raises(LuckyLabError) as caught:
        pyodide_bundle.check_bundle(folder, ["numpy", "ipywidgets>=8,<9", "ipyevents>=2,<3"])
    message = str(caught.value)
    assert "comm, ipyevents, ipywidgets, jupyterlab-widgets" in message
    pins = " ".join(f"{n}=={metadata.version(n)}" for n in
                    ("comm", "ipyevents", "ipywidgets", "jupyterlab-widgets"))  # fmt: skip
    python = ".".join(pyodide_bundle.read_lock(folder)["python"].split(".")[:2])
    assert message.endswith(
        f"python -m pip download --no-deps --only-binary=:all: --platform any --implementation "
        f"py --abi none --python-version {python} --dest {folder} {pins}"
    )


def test_pyodide_bundle_follows_the_lessons_and_the_kernel_through_the_lock(tmp_path):
    from luckylab.cli import pyodide_bundle

    folder = fake_pyodide(tmp_path / "pyodide")
    requires = ["networkx>=3.0", "numpy>=1.22", "matplotlib>=3.7", "ipywidgets>=8.0,<9",
                "ipyevents>=2.0,<3", "tomli>=2.0; python_version < '3.11'"]  # fmt: skip
    bundle = pyodide_bundle.check_bundle(folder, requires)
    assert set(bundle.packages) == set(FAKE_LOCK) - {"scipy"}  # scipy: not needed, not there
    assert [w.name.split("-")[0] for w in bundle.wheels] == [
        "comm", "ipyevents", "ipywidgets", "jupyterlab_widgets"]  # fmt: skip


@pytest.mark.slow
def test_npm_pyodide_core_is_refused_as_a_bundle(pyodide):
    """The npm package ``pyodide`` (what this machine has) has the core files and the real
    lock, but none of the packages: the builder says so instead of building a site that
    would hang."""
    from luckylab.cli import pyodide_bundle

    lock = pyodide_bundle.read_lock(pyodide)  # the core files are there
    assert {"numpy", "matplotlib", "networkx", "ipython", "micropip"} <= set(lock["packages"])
    with pytest.raises(LuckyLabError, match="core but not its packages"):
        pyodide_bundle.check_bundle(pyodide, ["numpy", "matplotlib", "networkx"])


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
        assert served["cells"][0]["source"] == lite.INSTALL_CELL_SOURCE, name
        note = lite.stuck_kernel_note(bundled=False) if name == lite.START_LESSON else ""
        assert served["cells"][1:] == lite.site_copy(original, note=note)["cells"][1:], name
    # ... and the contents index lists them, so the file browser shows them.
    index = json.loads((Path(site["out"]) / "api" / "contents" / "notebooks" / "all.json")
                       .read_text(encoding="utf-8"))  # fmt: skip
    assert sorted(c["name"] for c in index["content"] if c["type"] == "notebook") == LESSONS


def list_valued(notebook: dict) -> list[str]:
    """Every text of ``notebook`` stored as a list (JupyterLite shows it with commas)."""
    found = []
    for i, cell in enumerate(notebook["cells"]):
        if not isinstance(cell["source"], str):
            found.append(f"cell {i} source")
        for j, output in enumerate(cell.get("outputs", [])):
            texts = {"text": output.get("text", "")} | output.get("data", {})
            found += [f"cell {i} output {j} {k}" for k, v in texts.items()
                      if not isinstance(v, (str, dict))]  # fmt: skip (JSON outputs: dicts)
    return found


@pytest.mark.slow
def test_site_notebooks_have_no_list_valued_text(site):
    notebooks = sorted((Path(site["out"]) / "files").rglob("*.ipynb"))
    assert len(notebooks) == len(LESSONS)
    outputs = 0
    for path in notebooks:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        assert list_valued(notebook) == [], path.name
        outputs += sum(len(c.get("outputs", [])) for c in notebook["cells"])
    assert outputs > 100  # the stored outputs are there, as strings


@pytest.mark.slow
def test_site_loads_pyodide_from_the_cdn_and_names_the_hosts(site):
    """Without --pyodide the kernel keeps its default (Pyodide's CDN, the host the docs and
    the install cell name) and piplite may fall back to PyPI."""
    settings = lite.kernel_settings(Path(site["out"]))
    assert "pyodideUrl" not in settings and not settings.get("disablePyPIFallback")
    assert site["pyodide"] == "cdn"
    from jupyterlite_pyodide_kernel.constants import PYODIDE_CDN_URL

    assert PYODIDE_CDN_URL.startswith(f"https://{lite.PYODIDE_CDN_HOST}/")
    guide = (ROOT / "docs" / "classroom.md").read_text(encoding="utf-8")
    for host in (lite.PYODIDE_CDN_HOST, *lite.PYPI_HOSTS):
        assert f"`{host}`" in guide


@pytest.fixture(scope="module")
def bundled_site(tmp_path_factory) -> dict:
    missing = lite.missing_build_tools()
    if missing:
        pytest.skip(f"the lite extra is not installed ({'; '.join(missing)})")
    base = tmp_path_factory.mktemp("lite-bundled")
    folder = fake_pyodide(base / "pyodide")
    summary = lite.build_site(base / "site", pyodide=folder)
    summary["folder"] = folder
    return summary


@pytest.mark.slow
def test_site_with_a_bundled_pyodide_points_the_kernel_at_it(bundled_site):
    """lite-build --pyodide DIR: the site serves the distribution and the wheels Pyodide
    lacks, the kernel's pyodideUrl is the site's copy (Pyodide loads its packages from the
    same folder) and piplite never falls back to PyPI."""
    out, folder = Path(bundled_site["out"]), bundled_site["folder"]
    settings = lite.kernel_settings(out)
    assert settings["pyodideUrl"] == "./static/pyodide/pyodide.mjs" == bundled_site["pyodide"]
    assert settings["disablePyPIFallback"] is True
    served = out / "static" / "pyodide"
    assert not served.is_symlink()
    for name in ("pyodide.mjs", "pyodide.asm.wasm", "pyodide-lock.json"):
        assert (served / name).read_bytes() == (folder / name).read_bytes()
    numpy = json.loads((folder / "pyodide-lock.json").read_text())["packages"]["numpy"]
    assert (served / numpy["file_name"]).is_file()
    index = json.loads((out / "pypi" / "all.json").read_text(encoding="utf-8"))
    assert {"luckylab", "comm", "ipywidgets", "jupyterlab-widgets", "ipyevents",
            "openskill"} <= set(index)
    start = json.loads((out / "files" / "notebooks" / lite.START_LESSON).read_text())
    cell, note = start["cells"][0]["source"], start["cells"][1]["source"]
    for host in (lite.PYODIDE_CDN_HOST, *lite.PYPI_HOSTS):
        assert host not in cell and host not in note
    assert "this site" in note


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
def test_site_never_asks_about_the_jupyter_news(site):
    """Issue 26: the site's settings (jupyter-lite.json's settingsOverrides, what JupyterLite
    applies to the plugins' defaults) switch the news feed off, as ``luckylab lab`` and Binder
    do, with the same file; the value fits the schema the site itself serves."""
    from luckylab.cli.lab import settings_overrides

    out = Path(site["out"])
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    overrides = config["jupyter-config-data"]["settingsOverrides"]
    plugin = "@jupyterlab/apputils-extension:notification"
    assert overrides[plugin]["fetchNews"] == "false"
    assert overrides[plugin] == settings_overrides()[plugin]
    schemas = list(out.rglob("apputils-extension/notification.json"))
    if schemas:  # the site serves the plugin's schema: "false" is its "Never"
        schema = json.loads(schemas[0].read_text(encoding="utf-8"))
        never = [c["const"] for c in schema["properties"]["fetchNews"]["oneOf"]
                 if c["title"] == "Never"]
        assert never == ["false"]


def test_a_site_without_the_settings_is_refused(tmp_path):
    """check_site names the missing settings (a build that dropped them fails loudly)."""
    site = tmp_path / "site"
    site.mkdir()
    data = {"federated_extensions": [{"name": lite.WIDGETS_EXTENSION},
                                     {"name": lite.EVENTS_EXTENSION}]}
    (site / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": data}))
    with pytest.raises(LuckyLabError, match="lacks luckylab's settings for "
                       "@jupyterlab/apputils-extension:notification"):
        lite.check_site(site)


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
    return installed_archive("networkx", target)


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


def installed_archive(name: str, target: Path) -> Path:
    """A pure-Python distribution as installed here, zipped for Pyodide's site-packages."""
    dist = metadata.distribution(name)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in dist.files or []:
            path = Path(dist.locate_file(file))
            if path.is_file() and "__pycache__" not in file.parts:
                archive.write(path, str(file))
    return target


@pytest.mark.slow
def test_tournament_in_pyodide_plays_in_process_with_the_same_table(pyodide, tmp_path):
    """Lesson 13 in the browser: Pyodide cannot start processes, so run() plays the bot files
    in its own Python, says so once, and gives the same games and table as CPython's worker
    processes (openskill installed as the site's install cell does; luckylab from the
    checkout)."""
    package = tmp_path / "luckylab.zip"
    with zipfile.ZipFile(package, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted((ROOT / "luckylab").rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                archive.write(path, str(path.relative_to(ROOT)))
    archives = [installed_archive(n, tmp_path / f"{n}.zip") for n in ("networkx", "openskill")]
    options = [x for a in [*archives, package] for x in ("--archive", str(a))]
    script = PYODIDE_DIR / "tournament.py"
    in_browser = run_in_pyodide(pyodide, script, *options)
    assert in_browser.returncode == 0, in_browser.stderr[-3000:]
    here = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)  # fmt: skip
    assert here.returncode == 0, here.stderr[-3000:]
    browser, cpython = json.loads(in_browser.stdout), json.loads(here.stdout)
    assert (browser["platform"], cpython["platform"]) == ("emscripten", sys.platform)
    assert browser["said"].count("a browser cannot start a separate process") == 1
    assert cpython["said"] == ""
    assert browser["games"] == cpython["games"] and browser["table"] == cpython["table"]
    assert not any(g["failures"] for g in browser["games"])


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
                page.wait_for_selector(".jp-OutputArea-output", timeout=60_000)
                info = page.evaluate("""() => {
                    const app = window.jupyterapp, nb = app.shell.currentWidget;
                    const shown = [...document.querySelectorAll('.jp-OutputArea-output')];
                    return {plugins: app.listPlugins(), path: nb.context.path,
                            cells: nb.content.widgets.map(c => c.model.sharedModel.getSource()),
                            outputs: shown.map(e => e.innerText)};
                }""")  # fmt: skip
            finally:
                browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    assert info["path"] == "notebooks/00_start_here.ipynb"
    # The stored outputs show as printed: no line starts with the comma of a joined list.
    lines = [line for text in info["outputs"] for line in text.splitlines()]
    assert any("\n" in text.strip() for text in info["outputs"]), info["outputs"][:3]
    assert not [line for line in lines if line.startswith(",")], info["outputs"][:3]
    assert "@jupyter-widgets/jupyterlab-manager:plugin" in info["plugins"]
    assert "ipyevents" in info["plugins"]
    assert info["cells"][0] == lite.INSTALL_CELL_SOURCE
    original = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))
    copy = lite.site_copy(original, note=lite.stuck_kernel_note(bundled=False))
    assert info["cells"][1:] == [c["source"] for c in copy["cells"][1:]]


def partial_pyodide(core: Path, folder: Path, cache: Path) -> Path:
    """A bundle-able Pyodide folder built from the npm core: Pyodide's own pure-Python
    packages that the kernel and the lessons load, downloaded from PyPI (the lock's hashes
    rewritten to match, as Pyodide checks them), broken files in place of the compiled ones
    (numpy, matplotlib, ...: not on PyPI, a download that failed), and the wheels Pyodide
    lacks. Skips when PyPI cannot be reached."""
    from packaging.utils import canonicalize_name

    from luckylab.cli import pyodide_bundle

    lock = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))
    by_name = {canonicalize_name(n): info for n, info in lock["packages"].items()}
    needed, todo = set(), ["micropip", "ipython", "jedi", "networkx", "matplotlib", "numpy"]
    while todo:
        name = canonicalize_name(todo.pop())
        if name not in needed:
            needed.add(name)
            todo += by_name[name]["depends"]
    pure = sorted(f"{n}=={by_name[n]['version']}" for n in needed
                  if by_name[n]["file_name"].endswith("-none-any.whl"))  # fmt: skip
    extra = [f"{n}=={metadata.version(n)}"  # the lessons' wheels Pyodide lacks
             for n in ("comm", "ipywidgets", "jupyterlab_widgets", "ipyevents",
                       "openskill")]  # fmt: skip
    cache.mkdir(parents=True, exist_ok=True)
    pure_only = ["--platform", "any", "--implementation", "py", "--abi", "none",
                 "--python-version", ".".join(lock["info"]["python"].split(".")[:2])]
    for specs, python in ((pure, ["--python-version", lock["info"]["python"]]),
                          (extra, pure_only)):
        result = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--disable-pip-version-check", "-q", *python, "--dest", str(cache), *specs],
            capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL,
            env=dict(os.environ, PIP_CONSTRAINT=""),
        )  # fmt: skip
        if result.returncode != 0:
            pytest.skip(f"pip could not download Pyodide's pure packages: {result.stderr[-300:]}")
    folder.mkdir(parents=True)
    for name in pyodide_bundle.CORE_FILES + ("pyodide.asm.mjs",):
        if name != "pyodide-lock.json":
            shutil.copy2(core / name, folder / name)
    downloaded = {p.name: p for p in cache.glob("*.whl")}
    for name in needed:
        info = by_name[name]
        if info["file_name"] in downloaded:
            data = downloaded[info["file_name"]].read_bytes()
            info["sha256"] = hashlib.sha256(data).hexdigest()
        else:
            data = b"a download that broke off"
        (folder / info["file_name"]).write_bytes(data)
    for spec in extra:
        name, version = spec.split("==")
        shutil.copy2(next(cache.glob(f"{name}-{version}-*.whl")), folder)
    (folder / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    return folder


@pytest.mark.slow
@pytest.mark.browser
def test_bundled_site_starts_its_kernel_offline_and_names_a_broken_package(pyodide, tmp_path):
    """A site built with --pyodide, served from 127.0.0.1, in Chromium with every other host
    refused: the kernel starts from the site's copy of Pyodide, and Run All on lesson 00 stops
    at the install cell with one sentence naming numpy (whose file is broken) and this site."""
    try:
        from browser_support import CHROMIUM, CHROMIUM_ARGS
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        pytest.skip(f"playwright is not installed: {error}")
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    if lite.missing_build_tools():
        pytest.skip(f"the lite extra is not installed: {lite.missing_build_tools()}")
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "luckylab-tests"
    folder = partial_pyodide(pyodide, tmp_path / "pyodide", cache / "pyodide-pure-wheels")
    out = Path(lite.build_site(tmp_path / "site", pyodide=folder)["out"])
    port, refused = free_port(), []
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(out),
         str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip

    def offline(route):
        if route.request.url.startswith(f"http://127.0.0.1:{port}/"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.context.route("**/*", offline)
                page.goto(f"http://127.0.0.1:{port}/lab/index.html"
                          "?path=notebooks/00_start_here.ipynb", timeout=120_000)  # fmt: skip
                page.wait_for_function(
                    """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                               const s = w && w.sessionContext && w.sessionContext.session;
                               return s && s.kernel && s.kernel.status === 'idle'; }""",
                    timeout=600_000, polling=1000,
                )  # the kernel started, from the site's Pyodide
                page.evaluate("""() => { window.jupyterapp.commands.execute(
                                     'notebook:run-all-cells'); return true; }""")  # fmt: skip
                page.wait_for_function(
                    """() => window.jupyterapp.shell.currentWidget.content.widgets[0]
                             .model.outputs.length > 0""",
                    timeout=600_000, polling=1000,
                )
                page.wait_for_timeout(3000)  # Run All has stopped, or gone on
                info = page.evaluate("""() => { const nb = window.jupyterapp.shell.currentWidget;
                    return {path: nb.context.path,
                            outputs: nb.content.widgets.map(c => c.model.outputs
                                ? c.model.outputs.toJSON() : [])}; }""")  # fmt: skip
            finally:
                browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    assert refused == []
    assert info["path"] == "notebooks/00_start_here.ipynb"
    first, *rest = info["outputs"]
    sentence = (f"Python could not load numpy, which this page downloads from 127.0.0.1:{port}: "
                f"ask the network admin to allow https://127.0.0.1:{port}, then reload this "
                "page and run this cell again.")  # fmt: skip
    assert [o.get("traceback") for o in first] == [[sentence]], first
    assert all(outputs == [] for outputs in rest)  # Run All stopped there


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
