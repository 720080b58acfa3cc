"""The Binder environment, built the way repo2docker builds it, imports luckylab and runs lesson 00.

What repo2docker does with this repository (``binder/requirements.txt``, ``binder/postBuild``,
``binder/runtime.txt``, no ``environment.yml``): it reads configuration only from ``binder/``
(the root ``pyproject.toml`` is ignored), starts from its base environment for the Python that
``runtime.txt`` names (JupyterLab 4, ipywidgets 8, notebook 7), then, because requirements.txt
holds no local reference, copies *only* requirements.txt and runs ``pip install -r
binder/requirements.txt`` (a cached layer), then copies the repository and runs
``binder/postBuild`` (``pip install --no-deps .``). The order is checked on repo2docker's own
Dockerfile (``repo2docker --no-build --debug``, which needs no Docker).

The slow tests do the same as far as this machine allows: a fresh virtual environment with the
Python of ``runtime.txt`` (when the machine has it; otherwise the running Python, with a
warning), JupyterLab 4 installed first as a stand-in for the base image, the repository's
*tracked* files copied to a temporary folder (Binder sees only what is committed), ``pip install
-r binder/requirements.txt`` then ``binder/postBuild`` run from that copy, then ``import
luckylab`` and ``notebooks/00_start_here.ipynb`` executed with that environment's own kernel.

Not covered, for want of Docker and mybinder.org: the Docker image itself, repo2docker's conda
base environment (stood in for by JupyterLab from PyPI in the empty venv), the JupyterHub
single-user server and Binder's launch and URL handling (``?urlpath=lab/tree/...``).
"""

from __future__ import annotations

import importlib.util
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
# What repo2docker's base environment gives the kernel (its environment.py-3.12.yml asks for
# jupyterlab 4, notebook 7, ipywidgets 8, jupyter_server 2): JupyterLab brings ipykernel and
# nbconvert. The pins in binder/requirements.txt then go on top, as on Binder.
IMAGE_STANDIN = ["jupyterlab>=4,<5"]
# pip compiles every installed module to bytecode by default: some 40 % of the two installs here,
# for files the tests never import (Python compiles what they do import as they import it).
NO_COMPILE = "--no-compile"
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


def local_reference(line: str) -> bool:
    """repo2docker's rule (utils.is_local_pip_requirement): such a line makes it copy the whole
    repository before ``pip install``, so every commit reinstalls every dependency."""
    line = line.split("#", 1)[0].strip()
    if line.startswith(("-r", "-c", "--requirement", "--constraint")):
        return True
    if line.startswith("--") and "=" in line:
        line = line.split("=", 1)[1]
    if line.startswith("-"):
        parts = line.split(None, 1)
        line = parts[1] if len(parts) > 1 else ""
    return line.startswith((".", "/", "file:"))


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> dict[str, str]:
    found = {}
    for line in requirement_lines():
        requirement = Requirement(line)
        found[canonical(requirement.name)] = next(iter(requirement.specifier)).version
    return found


def test_binder_requirements_are_exact_pins_with_no_local_reference():
    """Only ``name==version`` lines: repo2docker installs them before copying the repository
    (a layer reused across commits), and a class gets what the teacher rehearsed."""
    lines = requirement_lines()
    assert lines
    for line in lines:
        assert not local_reference(line), f"{line!r} is a local reference: it defeats the cache"
        specs = list(Requirement(line).specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"{line!r} is not an exact pin"
        assert "*" not in specs[0].version, line


def test_binder_pins_cover_every_runtime_dependency_and_the_constraints():
    """Every runtime dependency of pyproject.toml (for the runtime.txt Python) and every line of
    binder/constraints.in has a pin that satisfies it (re-run binder/pin.py after changing
    either)."""
    from packaging.markers import default_environment

    major, minor = runtime_version()
    environment = dict(default_environment(), python_version=f"{major}.{minor}",
                       python_full_version=f"{major}.{minor}.0")  # fmt: skip
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    constraints = [
        line.split("#", 1)[0].strip()
        for line in (BINDER / "constraints.in").read_text().splitlines()
    ]
    pinned = pins()
    for line in [*project["dependencies"], *filter(None, constraints)]:
        requirement = Requirement(line)
        if requirement.marker and not requirement.marker.evaluate(environment):
            continue
        name = canonical(requirement.name)
        assert name in pinned, f"{requirement.name} has no pin in binder/requirements.txt"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"binder pins {name}=={pinned[name]}, outside {line!r}: run binder/pin.py"
        )
    assert "luckylab" not in pinned


def test_binder_requirements_keep_widgets_on_the_images_major_versions():
    """Kernel and front end must match (ipywidgets 8 / jupyterlab_widgets 3 with Binder's
    JupyterLab 4), or every widget shows "Error displaying widget: model not found". Both
    halves are pinned, so the front end Binder serves is the one the kernel expects."""
    pinned = pins()
    for name, major in (("ipywidgets", "8"), ("jupyterlab-widgets", "3")):
        assert name in pinned, f"pin {name} (both halves of the widgets)"
        assert pinned[name].split(".")[0] == major, f"{name}=={pinned[name]}: need {major}.x"
    assert "jupyterlab" not in pinned, "JupyterLab comes with Binder's image: do not replace it"


def test_binder_postbuild_installs_only_the_package_and_is_executable():
    script = BINDER / "postBuild"
    text = script.read_text()
    assert text.startswith("#!/bin/bash\n") and "set -euo pipefail" in text
    commands = [x for x in text.splitlines() if x.strip() and not x.lstrip().startswith("#")]
    assert commands[-1].split() == [
        "python", "-m", "pip", "install", "--no-cache-dir", "--no-deps", "."
    ]  # fmt: skip
    listing = subprocess.run(["git", "ls-files", "-s", "binder/postBuild"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    if listing.returncode == 0 and listing.stdout:
        assert listing.stdout.startswith("100755"), "binder/postBuild must be executable in git"


NEWS_PLUGIN = "@jupyterlab/apputils-extension:notification"
SHIPPED_SETTINGS = Path("luckylab/data/jupyter/labconfig/default_setting_overrides.d/luckylab.json")


def test_binder_postbuild_installs_the_shipped_jupyterlab_settings(tmp_path):
    """Issue 26: postBuild puts the settings ``luckylab lab`` uses (no Jupyter news pop-up)
    into the environment's Jupyter config folder. Run for real, with ``python`` stood in for by
    a script that names a temporary folder as that config folder and records the pip call."""
    from luckylab.cli.lab import SETTINGS_OVERRIDES, settings_overrides

    assert SETTINGS_OVERRIDES == ROOT / SHIPPED_SETTINGS
    assert settings_overrides()[NEWS_PLUGIN]["fetchNews"] == "false"
    shims, config = tmp_path / "bin", tmp_path / "etc" / "jupyter"
    shims.mkdir()
    (shims / "python").write_text(
        "#!/bin/bash\n"
        f'if [ "$1" = -c ]; then echo "{config}"; else echo "$*" >> "{tmp_path}/pip.log"; fi\n')
    (shims / "python").chmod(0o755)
    env = dict(os.environ, PATH=os.pathsep.join([str(shims), os.environ.get("PATH", "")]))
    done = subprocess.run(["bash", str(BINDER / "postBuild")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    installed = config / "labconfig" / "default_setting_overrides.d" / "luckylab.json"
    assert json.loads(installed.read_text()) == settings_overrides()
    assert (tmp_path / "pip.log").read_text().split() == [
        "-m", "pip", "install", "--no-cache-dir", "--no-deps", "."]
    text = (BINDER / "postBuild").read_text()
    assert "jupyter_core.paths as p; print(p.ENV_CONFIG_PATH[0])" in text  # the env's folder


def test_repo2docker_installs_the_pins_before_it_copies_the_repository(tmp_path):
    """repo2docker's own Dockerfile for this repository (``--no-build``: no Docker needed):
    requirements.txt is copied alone and installed, *then* the repository is copied, *then*
    postBuild runs. A notebook-only commit therefore reuses the dependency layer."""
    if importlib.util.find_spec("repo2docker") is None:
        unavailable("repo2docker is not installed (jupyter-repo2docker, in the 'test' extra)")
    repo = tracked_copy(tmp_path / "repo")
    result = subprocess.run(
        [sys.executable, "-m", "repo2docker", "--no-build", "--no-run", "--debug", str(repo)],
        capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    lines = [x.strip() for x in (result.stdout + result.stderr).splitlines()]

    def where(*parts: str) -> int:
        hits = [i for i, x in enumerate(lines) if all(part in x for part in parts)]
        assert len(hits) == 1, f"{parts}: lines {hits}"
        return hits[0]

    copy_pins = where("COPY ", " src/binder/requirements.txt ")
    install = where("RUN ", "pip install", '-r "binder/requirements.txt"')
    copy_repo = where("COPY ", " src/ ${REPO_DIR}/")
    post_build = where("RUN ./binder/postBuild")
    assert copy_pins < install < copy_repo < post_build


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
    # The base image's part (repo2docker's conda environment): JupyterLab 4 and its kernel.
    binder.run("-m", "pip", "install", "--disable-pip-version-check", NO_COMPILE, *IMAGE_STANDIN,
               what="installing the base-image stand-in", timeout=INSTALL_TIMEOUT_S)  # fmt: skip
    # Then exactly repo2docker's steps, from the repository root: the pins, then postBuild.
    binder.run(
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        NO_COMPILE,
        "-r",
        "binder/requirements.txt",
        what="pip install -r binder/requirements.txt",
        timeout=INSTALL_TIMEOUT_S,
    )
    run(["bash", "binder/postBuild"], repo, env, INSTALL_TIMEOUT_S, "binder/postBuild")
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
    "pinned": {d: md.version(d) for d in json.loads(sys.argv[1])},
}))
""",
        json.dumps(sorted(pins())),
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
    # Every pin survived (the image stand-in did not override one, postBuild added no deps).
    assert {canonical(k): v for k, v in facts["pinned"].items()} == pins()
    if find_python(binder_env.version) is not None:
        assert tuple(facts["python"]) == binder_env.version


@pytest.mark.slow
def test_binder_env_jupyterlab_reads_the_shipped_settings(binder_env):
    """The venv's JupyterLab finds the default settings postBuild installed: its settings API
    code gives fetchNews "false" (never ask about the Jupyter news feed)."""
    probe = binder_env.run(
        "-c",
        "import json, sys; from jupyterlab_server.settings_utils import _get_overrides; "
        "print(json.dumps(_get_overrides(sys.prefix + '/share/jupyter/lab/settings')[0]))",
        what="reading JupyterLab's setting overrides in the Binder venv",
        cwd=binder_env.prefix,
    )
    overrides = json.loads(probe.stdout.strip().splitlines()[-1])
    assert overrides[NEWS_PLUGIN]["fetchNews"] == "false"


@pytest.mark.slow
def test_binder_env_has_the_widget_front_end_enabled(binder_env):
    """JupyterLab in the venv loads the widgets front end (else: no widgets) and ipyevents'."""
    listing = binder_env.run(
        "-m", "jupyterlab.labextensions", "list", what="jupyter labextension list"
    )
    text = listing.stdout + listing.stderr
    for extension in ("@jupyter-widgets/jupyterlab-manager", "ipyevents"):
        line = next((x for x in text.splitlines() if extension in x), "")
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
