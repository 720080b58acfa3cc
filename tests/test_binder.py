"""The Binder environment, built the way repo2docker builds it, imports luckylab and runs lesson 00.

What repo2docker does with this repository (``binder/requirements.txt`` + ``binder/runtime.txt``,
no ``environment.yml``): it reads configuration only from ``binder/`` (the root ``pyproject.toml``
is ignored), starts from its base environment for the Python that ``runtime.txt`` names
(JupyterLab 4, ipywidgets 8, notebook 7), copies the repository in and runs
``pip install -r binder/requirements.txt`` from the repository root.

These tests do the same as far as this machine allows: a fresh virtual environment with the
Python of ``runtime.txt`` (when the machine has it; otherwise the running Python, with a
warning), the repository's *tracked* files copied to a temporary folder (Binder sees only what is
committed), ``pip install -r binder/requirements.txt`` run from that copy, then ``import
luckylab`` and ``notebooks/00_start_here.ipynb`` executed with that environment's own kernel.

Not covered, for want of Docker and mybinder.org: the Docker image itself, repo2docker's conda
base environment (stood in for by what ``requirements.txt`` installs into the empty venv:
JupyterLab brings ipykernel and nbconvert), the JupyterHub single-user server and Binder's
launch and URL handling (``?urlpath=lab/tree/...``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
import warnings
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
START_NOTEBOOK = Path("notebooks") / "00_start_here.ipynb"
IN_CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")

INSTALL_TIMEOUT_S = 1200
NOTEBOOK_TIMEOUT_S = 900


def unavailable(reason: str) -> None:
    """Skip on a developer machine; fail under CI, where everything must really run."""
    if IN_CI:
        pytest.fail(f"{reason} (CI is set, so this must run)", pytrace=False)
    pytest.skip(reason)


def runtime_version() -> tuple[int, int]:
    text = (BINDER / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(\d+)\.(\d+)", text)
    assert match, f"binder/runtime.txt must read like 'python-3.12', not {text!r}"
    return int(match[1]), int(match[2])


def requirement_lines() -> list[str]:
    lines = []
    for raw in (BINDER / "requirements.txt").read_text().splitlines():
        line = raw.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


# --- the binder/ folder says what repo2docker needs (fast) ----------------------------------


def test_binder_folder_uses_requirements_and_runtime_only():
    """requirements.txt is read only without environment.yml (or Pipfile): keep it that way."""
    assert (BINDER / "requirements.txt").is_file()
    assert (BINDER / "runtime.txt").is_file()
    for shadowing in ("environment.yml", "environment.yaml", "Pipfile", "Pipfile.lock"):
        assert not (BINDER / shadowing).exists(), (
            f"binder/{shadowing} makes repo2docker ignore binder/requirements.txt"
        )


def test_binder_runtime_pins_a_python_the_package_supports():
    """Without runtime.txt Binder uses Python 3.10; the pin must satisfy requires-python."""
    major, minor = runtime_version()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert f"{major}.{minor}" in SpecifierSet(project["requires-python"])


def test_binder_requirements_install_the_package_from_the_repo_root():
    """repo2docker ignores pyproject.toml once binder/ exists: '.' (or '-e .') installs it."""
    lines = requirement_lines()
    assert "." in lines or "-e ." in lines, lines


def test_binder_requirements_keep_widgets_and_lab_on_the_images_major_versions():
    """Kernel and front end must match (ipywidgets 8 / jupyterlab_widgets 3 / JupyterLab 4),
    or every widget shows "Error displaying widget: model not found"."""
    allowed = {
        "ipywidgets": ("8.1.9", "7.8.5"),
        "jupyterlab_widgets": ("3.0.17", "1.1.11"),
        "jupyterlab": ("4.6.6", "3.6.8"),
    }  # (must allow, must refuse)
    seen = set()
    for line in requirement_lines():
        if line in (".", "-e ."):
            continue
        requirement = Requirement(line)
        name = requirement.name.lower().replace("-", "_")
        assert (
            name in {"ipywidgets", "jupyterlab_widgets", "jupyterlab"} or requirement.specifier
        ), f"unpinned extra requirement {line!r}: keep the image lean"
        if name in allowed:
            good, bad = allowed[name]
            assert requirement.specifier.contains(good), f"{line!r} refuses {name} {good}"
            assert not requirement.specifier.contains(bad), f"{line!r} allows {name} {bad}"
            seen.add(name)
    assert "ipywidgets" in seen, "pin ipywidgets 8 explicitly (the image's front end is 8)"


# --- the environment itself (slow: a fresh venv and a pip install) --------------------------


def find_python(version: tuple[int, int]) -> str | None:
    """An interpreter of ``version`` on this machine (PATH, pyenv, /usr), checked by running it."""
    name = f"python{version[0]}.{version[1]}"
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [shutil.which(name)]
    candidates += sorted(str(p) for p in pyenv.glob(f"{version[0]}.{version[1]}*/bin/{name}"))
    candidates += [f"/usr/bin/{name}", f"/usr/local/bin/{name}"]
    if sys.version_info[:2] == version:
        candidates.insert(0, sys.executable)
    for candidate in candidates:
        if not candidate or not Path(candidate).exists():
            continue
        probe = subprocess.run(
            [candidate, "-c", "import sys, venv; print(*sys.version_info[:2])"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        if probe.returncode == 0 and probe.stdout.split() == [str(v) for v in version]:
            return candidate
    return None


def tracked_copy(target: Path) -> Path:
    """Copy the repository's tracked files (what Binder clones) to ``target``."""
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, timeout=60)
    if listing.returncode != 0:  # not a git checkout (an sdist, say): take the whole tree
        shutil.copytree(
            ROOT,
            target,
            ignore=shutil.ignore_patterns(
                ".git", ".venv*", "build", "*.egg-info", "__pycache__", "test-artifacts"
            ),
        )
        return target
    for relative in filter(None, listing.stdout.decode().split("\0")):
        source = ROOT / relative
        if source.is_file():  # a tracked file deleted in the work tree is not there to copy
            destination = target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
    return target


def isolated_env(home: Path, prefix: Path) -> dict[str, str]:
    """Environment for commands in the Binder venv, activated as on Binder.

    The venv's bin/ goes first on PATH: ``jupyter <sub>`` runs ``jupyter-<sub>`` from PATH, so
    without it ``jupyter nbconvert`` would quietly use this machine's own Jupyter and kernel.
    No user Jupyter/IPython/matplotlib configuration leaks in.
    """
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "JUPYTER_PATH", "MPLBACKEND", "VIRTUAL_ENV", "PYTHONHOME")
    }
    for name, sub in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
        ("MPLCONFIGDIR", "matplotlib"),
    ):
        (home / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / sub)
    env["VIRTUAL_ENV"] = str(prefix)
    env["PATH"] = os.pathsep.join([str(prefix / "bin"), env.get("PATH", os.defpath)])
    return env


def run(command: list[str], cwd: Path, env: dict[str, str], timeout: float, what: str):
    result = subprocess.run(
        command,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    if result.returncode != 0:
        pytest.fail(
            f"{what} failed ({result.returncode}): {' '.join(command)}\n"
            f"--- stdout ---\n{result.stdout[-4000:]}\n--- stderr ---\n"
            f"{result.stderr[-4000:]}",
            pytrace=False,
        )
    return result


class BinderEnv:
    def __init__(self, repo: Path, prefix: Path, env: dict[str, str], version: tuple[int, int]):
        self.repo, self.prefix, self.env, self.version = repo, prefix, env, version

    @property
    def python(self) -> str:
        return str(self.prefix / "bin" / "python")

    def run(
        self, *args: str, what: str, cwd: Path | None = None, timeout: float = 300
    ) -> subprocess.CompletedProcess:
        return run([self.python, *args], cwd or self.repo, self.env, timeout, what)


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory) -> BinderEnv:
    """A fresh venv with binder/requirements.txt installed from a copy of the repository."""
    wanted = runtime_version()
    interpreter = find_python(wanted)
    if interpreter is None:
        warnings.warn(
            f"binder/runtime.txt asks for Python {wanted[0]}.{wanted[1]}, which this machine "
            f"lacks: building the Binder environment with {sys.version.split()[0]} instead",
            stacklevel=1,
        )
        interpreter = sys.executable
    base = tmp_path_factory.mktemp("binder")
    repo = tracked_copy(base / "repo")
    prefix = base / "venv"
    env = isolated_env(base / "home", prefix)
    if interpreter == sys.executable:
        venv.EnvBuilder(with_pip=True, clear=True).create(prefix)
    else:
        run([interpreter, "-m", "venv", str(prefix)], base, env, 300, "creating the venv")
    binder = BinderEnv(repo, prefix, env, wanted)
    # Exactly repo2docker's step, from the repository root.
    binder.run(
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "-r",
        "binder/requirements.txt",
        what="pip install -r binder/requirements.txt",
        timeout=INSTALL_TIMEOUT_S,
    )
    return binder


@pytest.mark.slow
def test_binder_env_imports_luckylab_from_its_own_install(binder_env):
    """luckylab comes from the venv (not this checkout), with its data files and a board."""
    probe = binder_env.run(
        "-c",
        """
import json, sys, importlib.metadata as md
import luckylab
board = luckylab.load_board("isla-fortuna")
print(json.dumps({
    "python": list(sys.version_info[:2]),
    "luckylab": luckylab.__file__,
    "spaces": len(board.spaces),
    "heavy_on_import": [m for m in ("matplotlib", "ipywidgets") if m in sys.modules],
    "versions": {d: md.version(d) for d in
                 ("ipywidgets", "jupyterlab", "jupyterlab_widgets", "ipykernel", "matplotlib",
                  "networkx")},
}))
""",
        what="import luckylab in the Binder venv",
        cwd=binder_env.prefix,
    )  # not the repo: no '' import
    facts = json.loads(probe.stdout.strip().splitlines()[-1])
    where = Path(facts["luckylab"]).resolve()
    assert binder_env.prefix.resolve() in where.parents, f"luckylab imported from {where}"
    assert facts["spaces"] > 0
    assert facts["heavy_on_import"] == []
    versions = facts["versions"]
    assert versions["ipywidgets"].startswith("8."), versions
    assert versions["jupyterlab_widgets"].startswith("3."), versions
    assert versions["jupyterlab"].startswith("4."), versions
    if find_python(binder_env.version) is not None:
        assert tuple(facts["python"]) == binder_env.version


@pytest.mark.slow
def test_binder_env_has_the_widget_front_end_enabled(binder_env):
    """JupyterLab in the venv loads @jupyter-widgets/jupyterlab-manager (else: no widgets)."""
    listing = binder_env.run(
        "-m", "jupyterlab.labextensions", "list", what="jupyter labextension list"
    )
    text = listing.stdout + listing.stderr
    line = next((x for x in text.splitlines() if "@jupyter-widgets/jupyterlab-manager" in x), "")
    assert "enabled" in line and "OK" in line, text


@pytest.mark.slow
def test_binder_env_runs_the_start_notebook(binder_env, tmp_path):
    """notebooks/00_start_here.ipynb runs top to bottom with the venv's own kernel."""
    if not (binder_env.repo / START_NOTEBOOK).exists():
        unavailable(f"{START_NOTEBOOK} is not in the repository (tracked files) yet")
    # The kernel nbconvert will start must be the venv's own (python3 from its ipykernel).
    spec = json.loads(binder_env.run("-c", (
        "import json; from jupyter_client.kernelspec import KernelSpecManager as M; "
        "s = M().get_kernel_spec('python3'); print(json.dumps([s.resource_dir, s.argv]))"
    ), what="finding the python3 kernel", cwd=binder_env.prefix).stdout)  # fmt: skip
    kernel_dir = Path(spec[0]).resolve()
    assert binder_env.prefix.resolve() in kernel_dir.parents, f"python3 kernel at {kernel_dir}"
    assert spec[1][0] == "python" or Path(spec[1][0]).parent == binder_env.prefix / "bin", spec

    lessons = tmp_path / "notebooks"
    shutil.copytree(binder_env.repo / "notebooks", lessons)  # run where the lesson lives
    binder_env.run(
        "-m", "nbconvert", "--to", "notebook", "--execute",
        f"--ExecutePreprocessor.timeout={NOTEBOOK_TIMEOUT_S}",
        "--ExecutePreprocessor.kernel_name=python3",
        "--output", "executed.ipynb", START_NOTEBOOK.name,
        what=f"executing {START_NOTEBOOK} in the Binder venv", cwd=lessons,
        timeout=NOTEBOOK_TIMEOUT_S + 120,
    )  # fmt: skip
    executed = json.loads((lessons / "executed.ipynb").read_text())
    errors = [
        f"cell {i}: {out.get('ename')}: {out.get('evalue')}"
        for i, cell in enumerate(executed["cells"])
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    assert not errors, errors
    code_cells = [c for c in executed["cells"] if c["cell_type"] == "code" and c["source"]]
    assert code_cells and all(c.get("execution_count") for c in code_cells)
