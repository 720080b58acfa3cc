"""The layers of luckylab run one way (issue 22, item 4).

The import graph of ``luckylab/`` is read from the source with ``ast``: every ``import`` and
``from ... import``, at the top of a module or inside a function, relative imports resolved to
the module they name. On that graph:

- no cycles between modules;
- no module imports a higher layer (:data:`LAYERS`, lowest first); the old-path modules
  (``luckylab/probability.py`` and the like) may import anything, but nothing in luckylab
  imports them;
- no module of luckylab is imported from a string (``importlib.import_module``,
  ``__import__``), which would hide a dependency from this graph;
- ``import luckylab`` stays light (no matplotlib, no ipywidgets);
- every exception class of the package is defined in :mod:`luckylab.errors`.

The rules have no exceptions: :data:`ALLOWED` is empty. The first tests feed the checks small
made-up graphs and sources, so a broken check cannot pass unnoticed.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import networkx as nx
import pytest

import luckylab
import luckylab.errors

ROOT = Path(luckylab.__file__).parent
PACKAGE = "luckylab"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("luckylab.boards", "luckylab.cards", "luckylab.errors", "luckylab._version"),
    ("luckylab.games",),
    ("luckylab.agents",),
    ("luckylab.simulation", "luckylab.analysis", "luckylab.tournament", "luckylab.interop"),
    ("luckylab.viz",),
    ("luckylab.lessons", "luckylab.cli"),
    ("luckylab", "luckylab.__main__"),
)
"""Each module belongs to the layer of its longest prefix here; a module may import its own
layer and the layers below it (lowest first)."""

ALLOWED: frozenset[tuple[str, str]] = frozenset()
"""(importer, imported) pairs excused from the rules. Empty, and it stays empty."""

DYNAMIC_IMPORTS = ("import_module", "__import__")


# -- reading the graph ---------------------------------------------------------------------------


def module_names(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package: dotted name -> file (a package is its ``__init__.py``)."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join((package, *parts))] = path
    return names


def is_package(name: str, modules: Mapping[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


OLD_PATHS_REEXPORTING = frozenset({"luckylab.viz.widgets"})
"""Old-path modules that gather several moved modules (the four widgets of one old file)."""


def alias_modules(modules: Mapping[str, Path]) -> set[str]:
    """The old-path modules: those that replace themselves in ``sys.modules`` with a moved
    module, and :data:`OLD_PATHS_REEXPORTING`."""
    return {name for name, path in modules.items()
            if "sys.modules[__name__] = " in path.read_text(encoding="utf-8")
            or name in OLD_PATHS_REEXPORTING}


def _resolve(name: str, modules: Mapping[str, Path]) -> str | None:
    """The module an imported dotted name runs: itself, or its longest known prefix."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, source: str, modules: Mapping[str, Path],
               package: str = PACKAGE) -> list[tuple[str, int]]:
    """The package modules that module ``name`` imports, with line numbers, anywhere in it."""
    here = name if is_package(name, modules) else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = here.split(".")
                base_parts = base_parts[:len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # ``from .analysis import luck`` imports the module luckylab.analysis.luck
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            if target == package or target.startswith(package + "."):
                resolved = _resolve(target, modules)
                if resolved is not None and resolved != name:
                    found.append((resolved, node.lineno))
    return found


def string_imports(source: str, package: str = PACKAGE) -> list[tuple[str, int]]:
    """Calls of ``import_module``/``__import__`` that may load a module of the package: the
    argument is not a literal string naming another package (an f-string or a variable could
    name any module)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if called not in DYNAMIC_IMPORTS:
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and not (
                arg.value == package or arg.value.startswith((package + ".", "."))):
            continue  # a literal name of another package (an optional dependency)
        found.append((ast.unparse(node), node.lineno))
    return found


def import_graph(root: Path = ROOT, package: str = PACKAGE) -> nx.DiGraph:
    """Modules as nodes, an edge per import (``lines`` says where)."""
    modules = module_names(root, package)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for target, line in imports_of(name, path.read_text(encoding="utf-8"), modules, package):
            if graph.has_edge(name, target):
                graph.edges[name, target]["lines"].append(line)
            else:
                graph.add_edge(name, target, lines=[line])
    return graph


# -- the rules -----------------------------------------------------------------------------------


def layer_of(module: str, layers: Iterable[Iterable[str]] = LAYERS) -> int:
    best, level = -1, None
    for i, names in enumerate(layers):
        for prefix in names:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, level = len(prefix), i
    if level is None:
        raise AssertionError(f"{module} is in no layer of LAYERS: add it where it belongs")
    return level


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """One cycle (as a list of modules) per group of modules that import each other."""
    found = []
    for group in nx.strongly_connected_components(graph):
        if len(group) > 1:
            cycle = nx.find_cycle(graph.subgraph(group))
            found.append([a for a, _ in cycle] + [cycle[0][0]])
    return sorted(found)


def upward_imports(graph: nx.DiGraph, aliases: set[str],
                   layers: Iterable[Iterable[str]] = LAYERS) -> list[str]:
    """Imports of a higher layer, and imports of an old-path module, in words."""
    layers = tuple(tuple(names) for names in layers)
    problems = []
    for a, b in sorted(graph.edges):
        if (a, b) in ALLOWED:
            continue
        where = f"{a} (line {graph.edges[a, b]['lines'][0]}) imports {b}"
        if b in aliases:
            problems.append(f"{where}, an old path: import the module it names")
        elif a not in aliases and layer_of(b, layers) > layer_of(a, layers):
            problems.append(f"{where}, a higher layer")
    return problems


# -- the checks can fail -------------------------------------------------------------------------


def test_a_made_up_graph_with_a_cycle_and_an_upward_import_is_reported():
    graph = nx.DiGraph()
    graph.add_edge("luckylab.games.island", "luckylab.games.base", lines=[3])
    graph.add_edge("luckylab.games.base", "luckylab.games.island", lines=[9])  # the cycle
    graph.add_edge("luckylab.boards.board", "luckylab.viz.draw", lines=[5])  # data -> viz
    graph.add_edge("luckylab.viz.draw", "luckylab.boards.board", lines=[7])  # fine alone...
    graph.add_edge("luckylab.cards.decks", "luckylab.probability", lines=[2])  # an old path
    graph.add_edge("luckylab.probability", "luckylab.analysis.luck", lines=[1])
    found = cycles(graph)
    assert ["luckylab.games.base", "luckylab.games.island", "luckylab.games.base"] in found \
        or ["luckylab.games.island", "luckylab.games.base", "luckylab.games.island"] in found
    assert any("luckylab.viz.draw" in c and "luckylab.boards.board" in c for c in found)
    problems = upward_imports(graph, aliases={"luckylab.probability"})
    assert problems == [
        "luckylab.boards.board (line 5) imports luckylab.viz.draw, a higher layer",
        "luckylab.cards.decks (line 2) imports luckylab.probability, an old path: import the "
        "module it names",
    ]


def test_imports_are_read_everywhere_and_relative_ones_resolved():
    modules = {name: Path(f"{name.replace('.', '/')}.py") for name in (
        "luckylab.games.base", "luckylab.games.registry", "luckylab.analysis.luck",
        "luckylab.errors", "luckylab.boards.board")}
    modules["luckylab"] = Path("luckylab/__init__.py")
    modules["luckylab.analysis"] = Path("luckylab/analysis/__init__.py")
    source = '''
import os
from ..errors import OptionError
def replay():
    from .registry import new_game
    from .. import new_game as face
class X:
    def f(self):
        import luckylab.boards.board
        from ..analysis import luck
'''
    found = imports_of("luckylab.games.base", source, modules)
    assert sorted(found, key=lambda f: f[1]) == [
        ("luckylab.errors", 3), ("luckylab.games.registry", 5), ("luckylab", 6),
        ("luckylab.boards.board", 9), ("luckylab.analysis.luck", 10)]


def test_string_imports_of_the_package_are_found():
    source = '''
import importlib
def f(game, name):
    importlib.import_module(f"luckylab.agents.{game}")
    importlib.import_module("luckylab.games.kill")
    __import__(name)
    importlib.import_module(".island", __package__)
    importlib.import_module("tqdm.auto")
'''
    found = [line for _, line in string_imports(source)]
    assert found == [4, 5, 6, 7]


# -- the rules hold for luckylab -----------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return import_graph()


def test_the_graph_is_read(graph):
    # the reader sees imports at the top and inside functions, relative and absolute
    assert graph.has_edge("luckylab.games.island", "luckylab.games.base")
    assert graph.has_edge("luckylab.simulation", "luckylab.games.registry")  # in a function
    assert graph.has_edge("luckylab", "luckylab.lessons.exercises")
    assert len(graph) > 60 and graph.number_of_edges() > 150


def _cycles_in_words(graph: nx.DiGraph, outside: str = "") -> list[str]:
    found = [c for c in cycles(graph)
             if not all((a, b) in ALLOWED for a, b in zip(c, c[1:], strict=False))
             and not (outside and all(m.startswith(outside) for m in c))]
    return [" -> ".join(c) for c in found]


def test_no_cycles_between_modules(graph):
    found = _cycles_in_words(graph)
    assert not found, "modules that import each other:\n" + "\n".join(found)


def test_no_module_imports_a_higher_layer_or_an_old_path(graph):
    problems = upward_imports(graph, alias_modules(module_names()))
    assert not problems, "\n".join(problems)


def test_nothing_below_the_face_imports_the_face(graph):
    importers = sorted(a for a, b in graph.edges if b == PACKAGE and a != "luckylab.__main__")
    assert not importers, f"import the module that defines the name, not luckylab: {importers}"


def _string_imports_in_words(outside: str = "") -> list[str]:
    return [f"{name} line {line}: {call}"
            for name, path in module_names().items()
            if not (outside and (name == outside or name.startswith(outside + ".")))
            for call, line in string_imports(path.read_text(encoding="utf-8"))]


def test_no_module_of_the_package_is_imported_from_a_string():
    found = _string_imports_in_words()
    assert not found, "import these by name so the graph sees them:\n" + "\n".join(found)


def test_the_old_paths_are_the_moved_modules_themselves():
    old = {
        "luckylab.board": "luckylab.boards.board",
        "luckylab.geometry": "luckylab.boards.geometry",
        "luckylab.doctorwho_cards": "luckylab.cards.doctorwho",
        "luckylab.probability": "luckylab.analysis.luck",
        "luckylab.theory": "luckylab.analysis.dilemma",
        "luckylab.outcomes": "luckylab.analysis.attempts",
        "luckylab.save_analysis": "luckylab.analysis.sinking",
        "luckylab.panic_analysis": "luckylab.analysis.memory",
        "luckylab.search_curve": "luckylab.analysis.search_strength",
    }
    assert set(old) | OLD_PATHS_REEXPORTING == alias_modules(module_names())
    for name, new in old.items():
        assert importlib.import_module(name) is importlib.import_module(new)
    assert sys.modules["luckylab.check"] is importlib.import_module("luckylab.lessons.exercises")
    from luckylab.check import answer_key  # noqa: F401  (the old module path still imports)

    from luckylab.viz import widgets
    from luckylab.viz.dilemma_lab import DilemmaLab

    assert widgets.DilemmaLab is DilemmaLab

    assert callable(luckylab.check) and luckylab.check.__name__ == "check"


def test_the_registry_and_the_command_line_import_what_they_list():
    from luckylab.__main__ import build_parser
    from luckylab.cli import COMMANDS
    from luckylab.games.registry import GAMES, game_class

    for game, where in GAMES.items():
        cls = game_class(game)
        assert f"{cls.__module__}:{cls.__name__}" == where
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert len(commands) == len(COMMANDS)
    assert all(name in sys.modules for name in COMMANDS)


def test_import_luckylab_stays_light():
    code = ("import sys, luckylab; "
            "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'IPython', 'nbformat', "
            "'pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT.parent, timeout=120)
    assert done.stdout.strip() == "[]", done.stderr


def exception_classes_outside_errors(root: Path = ROOT, skip: str = "") -> list[str]:
    """Classes (read from the source) outside ``errors.py`` that derive from an exception: a
    base named ``...Error``/``...Exception`` or any class :mod:`luckylab.errors` defines.
    ``skip`` leaves out a folder of the package (``"games"``)."""
    ours = set(luckylab.errors.__all__)
    found = []
    for path in sorted(root.rglob("*.py")):
        if path == root / "errors.py" or (skip and path.is_relative_to(root / skip)):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b).rpartition(".")[2] for b in node.bases]
                if any(b in ours or b.endswith(("Error", "Exception")) for b in bases):
                    found.append(f"{path.relative_to(root.parent)}: class {node.name}")
    return found


def test_no_exception_class_is_defined_outside_errors():
    assert exception_classes_outside_errors() == []


def luckylab_exceptions() -> list[type]:
    """Every subclass of LuckyLabError that a module of the package defines (all imported)."""
    for info in pkgutil.walk_packages(luckylab.__path__, PACKAGE + "."):
        # an interop adapter without its optional library raises MissingExtra
        with contextlib.suppress(luckylab.errors.MissingExtra):
            importlib.import_module(info.name)
    seen, todo = set(), [luckylab.errors.LuckyLabError]
    while todo:
        cls = todo.pop()
        seen.add(cls)
        todo.extend(c for c in cls.__subclasses__() if c not in seen)
    return sorted((c for c in seen if c.__module__.startswith(PACKAGE)), key=lambda c: c.__name__)


def not_in_errors(classes: Iterable[type]) -> list[str]:
    return [f"{c.__module__}.{c.__qualname__}" for c in classes
            if getattr(luckylab.errors, c.__name__, None) is not c]


def test_every_exception_of_the_package_is_defined_in_errors():
    ours = luckylab_exceptions()
    assert not not_in_errors(ours), f"define these in luckylab/errors.py: {not_in_errors(ours)}"
    assert sorted(luckylab.errors.__all__) == sorted(c.__name__ for c in ours)
