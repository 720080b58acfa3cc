"""A Pyodide distribution bundled into the JupyterLite site (``lite-build --pyodide DIR``).

By default the site's kernel downloads Pyodide and its packages (numpy, matplotlib,
networkx, ...) from Pyodide's CDN, and the widgets (ipywidgets, ipyevents and what they need)
from PyPI. A teacher who downloads the **full** Pyodide distribution once (the
``pyodide-<version>.tar.bz2`` of a Pyodide GitHub release, unpacked) can build a site that
needs no internet at all: the folder is served from the site and the kernel's ``pyodideUrl``
points at it (Pyodide then loads its packages from the same folder); the few pure-Python
wheels that are not part of Pyodide are read from the same folder and served from the site's
``pypi/`` folder, with piplite's fall-back to PyPI switched off.

This module checks such a folder before the build, so a wrong download fails with a sentence
saying what is missing, not with a silent hang in the students' browsers.
"""

from __future__ import annotations

import email.parser
import json
import shlex
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from ..errors import OptionError

#: What every Pyodide distribution has; jupyterlite-pyodide-kernel 0.8.x loads ``pyodide.mjs``
#: (an ES module: its kernel runs in a module worker).
CORE_FILES = ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: What the kernel loads when it starts, besides its own wheels (ipykernel, piplite,
#: pyodide-kernel, served by the site): micropip from Pyodide, then ``piplite.install`` of
#: comm, jedi and ipython (read from the kernel's worker in jupyterlite-pyodide-kernel 0.8.6).
KERNEL_START = ("micropip", "comm", "jedi", "ipython")
#: The wheels the kernel's extension serves itself (its ``static/pypi/all.json``), if that
#: file cannot be read.
KERNEL_WHEELS = ("ipykernel", "piplite", "pyodide-kernel", "widgetsnbextension")
KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
RELEASES = "https://github.com/pyodide/pyodide/releases"


@dataclass(frozen=True)
class PyodideBundle:
    """A checked Pyodide folder: what the site will load from it and the extra wheels."""

    folder: Path
    python: str  # Pyodide's Python, e.g. "3.14.2"
    packages: tuple[str, ...]  # the lock's packages the lessons and the kernel load
    wheels: tuple[Path, ...]  # pure-Python wheels from the folder that Pyodide lacks

    def summary(self) -> dict[str, Any]:
        return {"folder": str(self.folder), "python": self.python,
                "packages": len(self.packages),
                "wheels": [w.name for w in self.wheels]}  # fmt: skip


def kernel_versions() -> tuple[str, str]:
    """The Pyodide version and its Python (major.minor) that the installed kernel expects."""
    from jupyterlite_pyodide_kernel import constants

    return constants.PYODIDE_VERSION, constants.PYODIDE_PYTHON_VERSION


def tarball_hint() -> str:
    """Where to get the full distribution the installed kernel expects."""
    version, _ = kernel_versions()
    return (f"download pyodide-{version}.tar.bz2 (the full distribution, not pyodide-core) "
            f"from {RELEASES}/tag/{version} and unpack it (tar xjf): it makes a folder "
            "named pyodide")  # fmt: skip


def read_lock(folder: Path) -> dict[str, Any]:
    """Check that ``folder`` is a Pyodide distribution of the right Python; return its lock.

    Raises :class:`~luckylab.errors.OptionError` naming the missing files, or the Python
    mismatch, with where to get the right download.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as empty:
    ...     read_lock(Path(empty))
    Traceback (most recent call last):
    ...
    luckylab.errors.OptionError: --pyodide ... is not a Pyodide distribution: it lacks ...
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise OptionError(f"--pyodide {folder}: no such folder; {tarball_hint()}")
    missing = [name for name in CORE_FILES if not (folder / name).is_file()]
    if missing:
        raise OptionError(
            f"--pyodide {folder} is not a Pyodide distribution: it lacks {', '.join(missing)} "
            f"(jupyterlite-pyodide-kernel {_kernel_package_version()} loads pyodide.mjs); "
            f"{tarball_hint()}"
        )
    try:
        lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))
        packages, python = lock["packages"], str(lock["info"]["python"])
    except (ValueError, KeyError, TypeError) as error:
        raise OptionError(
            f"--pyodide {folder}: pyodide-lock.json is not a Pyodide lock file ({error})"
        ) from None
    version, wanted = kernel_versions()
    if python.split(".")[:2] != wanted.split("."):
        raise OptionError(
            f"--pyodide {folder} is a Pyodide for Python {python}, but the installed "
            f"jupyterlite-pyodide-kernel expects Pyodide {version} (Python {wanted}); "
            f"{tarball_hint()}"
        )
    return {"python": python, "packages": packages}


def check_bundle(folder: Path, requires: list[str]) -> PyodideBundle:
    """Check that ``folder`` holds everything the site needs to run with no internet.

    ``requires`` are luckylab's requirements (its wheel's ``Requires-Dist``). Follows them,
    and what the kernel loads when it starts, through Pyodide's lock file (whose packages
    must be in the folder: the npm package and ``pyodide-core`` have none) and through the
    pure-Python wheels in the folder (for what Pyodide lacks, such as ipywidgets).

    Raises :class:`~luckylab.errors.OptionError` naming what is missing and how to get it.
    """
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    folder = Path(folder).resolve()
    lock = read_lock(folder)
    by_name = {canonicalize_name(name): info for name, info in lock["packages"].items()}
    extra = _extra_wheels(folder, set(by_name))
    served = {canonicalize_name(n) for n in kernel_wheels()} | {"luckylab"}
    env = pyodide_environment(lock["python"])
    todo, seen = [*requires, *KERNEL_START], set()
    from_lock, from_wheels, missing = set(), {}, {}
    while todo:
        try:
            requirement = Requirement(todo.pop())
        except InvalidRequirement:
            continue
        if requirement.marker and not requirement.marker.evaluate(env):
            continue
        name = canonicalize_name(requirement.name)
        if name in seen or name in served:
            continue
        seen.add(name)
        if name in by_name:
            from_lock.add(name)
            todo += [str(d) for d in by_name[name].get("depends", [])]
        elif name in extra:
            from_wheels[name] = extra[name]
            todo += wheel_requires(extra[name])
        else:
            missing[name] = _installed_version(name)
            todo += _installed_requires(name)
    first = ("numpy", "matplotlib", "networkx")
    absent = sorted(
        (name for name in from_lock
         if not (folder / str(by_name[name]["file_name"])).is_file()),
        key=lambda name: (name not in first, first.index(name) if name in first else 0, name),
    )  # fmt: skip
    if absent:
        shown = ", ".join(absent[:3]) + (f" and {len(absent) - 3} more" if len(absent) > 3 else "")
        raise OptionError(
            f"--pyodide {folder} has Pyodide's core but not its packages: the files of "
            f"{shown} are not there (the npm package 'pyodide' and pyodide-core-*.tar.bz2 "
            f"have none); {tarball_hint()}"
        )
    if missing:
        pins = " ".join(f"{n}=={v}" if v else n for n, v in sorted(missing.items()))
        raise OptionError(
            f"the lessons also need {', '.join(sorted(missing))}, which are not part of "
            f"Pyodide: download their wheels into the Pyodide folder once, with "
            f"{PURE_DOWNLOAD} --python-version {_minor(lock['python'])} "
            f"--dest {shlex.quote(str(folder))} {pins}"
        )
    return PyodideBundle(
        folder=folder,
        python=lock["python"],
        packages=tuple(sorted(from_lock)),
        wheels=tuple(from_wheels[name] for name in sorted(from_wheels)),
    )


PURE_DOWNLOAD = ("python -m pip download --no-deps --only-binary=:all: --platform any "
                 "--implementation py --abi none")
"""The start of the command that fetches pure-Python wheels for Pyodide: without the platform,
implementation and ABI, pip takes a package's compiled CPython wheel where it has one
(openskill does), which Pyodide cannot load."""


def _minor(python: str) -> str:
    return ".".join(python.split(".")[:2])


def pyodide_environment(python: str) -> dict[str, str]:
    """The environment markers of Pyodide's Python ``python`` (e.g. "3.14.2")."""
    return {
        "python_version": ".".join(python.split(".")[:2]),
        "python_full_version": python,
        "sys_platform": "emscripten",
        "platform_system": "Emscripten",
        "platform_machine": "wasm32",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def kernel_wheels() -> list[str]:
    """The names of the wheels the Pyodide kernel's extension serves from the site."""
    from jupyter_core.paths import jupyter_path

    for base in jupyter_path("labextensions"):
        index = Path(base) / KERNEL_EXTENSION / "static" / "pypi" / "all.json"
        if index.is_file():
            return sorted(json.loads(index.read_text(encoding="utf-8")))
    return list(KERNEL_WHEELS)


def wheel_requires(wheel: Path) -> list[str]:
    """The ``Requires-Dist`` lines of a wheel file."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        if len(names) != 1:
            raise OptionError(f"{wheel} is not a wheel: no single .dist-info/METADATA")
        text = archive.read(names[0]).decode("utf-8")
    return email.parser.Parser().parsestr(text).get_all("Requires-Dist") or []


def _extra_wheels(folder: Path, in_lock: set[str]) -> dict[str, Path]:
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename

    found = {}
    for wheel in sorted(folder.glob("*.whl")):
        try:
            name, _, _, tags = parse_wheel_filename(wheel.name)
        except InvalidWheelFilename:
            continue
        if name not in in_lock and any(t.abi == "none" and t.platform == "any" for t in tags):
            found[str(name)] = wheel
    return found


def _installed_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _installed_requires(name: str) -> list[str]:
    try:
        return metadata.requires(name) or []
    except metadata.PackageNotFoundError:
        return []


def _kernel_package_version() -> str:
    return _installed_version("jupyterlite-pyodide-kernel") or "0.8"
