"""The layers of luckylab run one way (issue 22, item 4).

The import graph of ``luckylab/`` is read from the source with ``ast``: every ``import`` and
``from ... import``, at the top of a module, inside a function or in a package's ``__init__``,
relative imports resolved to the module they name. An import that reads a package's namespace
is an edge to the package's ``__init__`` too: ``from . import state`` and
``from luckylab.agents import agent_class`` (the package runs and is asked for the name), and
``import luckylab.viz.play.state as state`` (bound by reading ``luckylab.viz.play.state`` off
its package); ``from .state import seen`` and a plain ``import luckylab.boards.board`` read no
package's namespace. (A submodule that does ``from . import sibling`` while its package's
``__init__`` imports it is a cycle, one that breaks when the order of imports changes.) On that
graph:

- no cycles between modules (issue 41: none inside a package either);
- no module imports a higher layer (:data:`LAYERS`, lowest first);
- no module of luckylab is imported from a string (``importlib.import_module``,
  ``__import__``), which would hide a dependency from this graph;
- no module puts a module into ``sys.modules`` under a name of the package (an alias: a module
  standing in for another under an old path); every module has one name, and the old names
  (``luckylab.theory`` and the like, issue 41) are gone;
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


def sys_modules_writes(source: str, package: str = PACKAGE) -> list[tuple[str, int]]:
    """Writes into ``sys.modules`` under a name that may be the package's: an assignment
    ``sys.modules[key] = ...``, or ``sys.modules.setdefault(key, ...)`` / ``.update({...})``,
    whose key uses ``__name__``/``__package__`` or is a literal name of the package (a module of
    ours standing in for another, or for itself under a second name). A key that is a plain
    variable, like the tournament's ``luckylab_bot_<digest>`` for a bot file it loads, is not
    a name of the package."""

    def ours(key: ast.expr) -> bool:
        names = {n.id for n in ast.walk(key) if isinstance(n, ast.Name)}
        texts = [n.value for n in ast.walk(key)
                 if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        return bool(names & {"__name__", "__package__"}) or any(
            t == package or t.startswith((package + ".", ".")) for t in texts)

    def is_sys_modules(node: ast.expr) -> bool:
        return ast.unparse(node) in ("sys.modules", "modules")

    found = []
    for node in ast.walk(ast.parse(source)):
        keys: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            keys = [t.slice for t in targets
                    if isinstance(t, ast.Subscript) and is_sys_modules(t.value)]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("setdefault", "update") and is_sys_modules(node.func.value)):
            keys = node.args[:1]  # the key, or the dict of keys and modules
        if any(ours(k) for k in keys):
            found.append((ast.unparse(node).splitlines()[0], node.lineno))
    return found


def alias_modules(modules: Mapping[str, Path], package: str = PACKAGE) -> set[str]:
    """The modules that write a module into ``sys.modules`` under a name of the package
    (:func:`sys_modules_writes`): aliases, which the package has none of."""
    return {name for name, path in modules.items()
            if sys_modules_writes(path.read_text(encoding="utf-8"), package)}


def _resolve(name: str, modules: Mapping[str, Path]) -> str | None:
    """The module an imported dotted name runs: itself, or its longest known prefix."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, source: str, modules: Mapping[str, Path],
               package: str = PACKAGE) -> list[tuple[str, int]]:
    """The package modules that module ``name`` imports, with line numbers, anywhere in it
    (and the packages whose namespace an import reads: see the module's docstring)."""
    here = name if is_package(name, modules) else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = []
            for a in node.names:
                targets.append(a.name)
                if a.asname:  # ``import a.b.c as m`` reads b off a, then c off a.b
                    parts = a.name.split(".")
                    targets += [".".join(parts[:i]) for i in range(1, len(parts))]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = here.split(".")
                base_parts = base_parts[:len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # ``from .analysis import luck`` imports the module luckylab.analysis.luck and reads
            # it off the package: an edge to both (``from .analysis.luck import p_foil``: one)
            targets = [base]
            targets += [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
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


def upward_imports(graph: nx.DiGraph, layers: Iterable[Iterable[str]] = LAYERS) -> list[str]:
    """Imports of a higher layer, in words."""
    layers = tuple(tuple(names) for names in layers)
    problems = []
    for a, b in sorted(graph.edges):
        if (a, b) not in ALLOWED and layer_of(b, layers) > layer_of(a, layers):
            problems.append(f"{a} (line {graph.edges[a, b]['lines'][0]}) imports {b}, "
                            "a higher layer")
    return problems


# -- the checks can fail -------------------------------------------------------------------------


def test_a_made_up_graph_with_a_cycle_and_an_upward_import_is_reported():
    graph = nx.DiGraph()
    graph.add_edge("luckylab.games.island", "luckylab.games.base", lines=[3])
    graph.add_edge("luckylab.games.base", "luckylab.games.island", lines=[9])  # the cycle
    graph.add_edge("luckylab.boards.board", "luckylab.viz.draw", lines=[5])  # data -> viz
    graph.add_edge("luckylab.viz.draw", "luckylab.boards.board", lines=[7])  # fine alone...
    graph.add_edge("luckylab.cards.decks", "luckylab.analysis.luck", lines=[2])  # upward too
    found = cycles(graph)
    assert ["luckylab.games.base", "luckylab.games.island", "luckylab.games.base"] in found \
        or ["luckylab.games.island", "luckylab.games.base", "luckylab.games.island"] in found
    assert any("luckylab.viz.draw" in c and "luckylab.boards.board" in c for c in found)
    problems = upward_imports(graph)
    assert problems == [
        "luckylab.boards.board (line 5) imports luckylab.viz.draw, a higher layer",
        "luckylab.cards.decks (line 2) imports luckylab.analysis.luck, a higher layer",
    ]


def test_a_made_up_alias_is_reported(tmp_path):
    # the nine old top-level modules swapped themselves in like this (issue 41)
    toy = tmp_path / "toy"
    (toy / "analysis").mkdir(parents=True)
    (toy / "__init__.py").write_text("import sys\nfrom .analysis import luck\n"
                                     'sys.modules.setdefault(f"{__name__}.check", luck)\n')
    (toy / "analysis" / "__init__.py").write_text("")
    (toy / "analysis" / "luck.py").write_text("def p_foil():\n    return 1\n")
    (toy / "probability.py").write_text(
        "import sys\nfrom .analysis import luck as _module\nsys.modules[__name__] = _module\n")
    (toy / "loader.py").write_text(  # a bot file loaded under a name of its own: not an alias
        "import sys\ndef load(name, module):\n    sys.modules[name] = module\n"
        "    sys.modules.pop(name, None)\n")
    assert alias_modules(module_names(toy, "toy"), "toy") == {"toy", "toy.probability"}
    source = '''
import sys
from sys import modules
sys.modules["luckylab.theory"] = dilemma
modules[__package__ + ".board"] = board
sys.modules.update({"luckylab.outcomes": attempts})
sys.modules.setdefault("tqdm.auto", tqdm)
sys.modules[f"luckylab_bot_{digest}"] = bot
'''
    assert [line for _, line in sys_modules_writes(source)] == [4, 5, 6]


def test_imports_are_read_everywhere_and_relative_ones_resolved():
    modules = {name: Path(f"{name.replace('.', '/')}.py") for name in (
        "luckylab.games.base", "luckylab.games.registry", "luckylab.analysis.luck",
        "luckylab.errors", "luckylab.boards.board")}
    for package in ("luckylab", "luckylab.analysis", "luckylab.boards", "luckylab.games"):
        modules[package] = Path(f"{package.replace('.', '/')}/__init__.py")
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
        from ..analysis.luck import p_foil
        import luckylab.boards.board as board
        from . import registry
'''
    found = imports_of("luckylab.games.base", source, modules)
    assert sorted(found, key=lambda f: f[1]) == [
        ("luckylab.errors", 3), ("luckylab.games.registry", 5), ("luckylab", 6),
        ("luckylab.boards.board", 9),
        # the package's namespace is read too: an edge to its __init__ as well
        ("luckylab.analysis", 10), ("luckylab.analysis.luck", 10),
        ("luckylab.analysis.luck", 11),
        ("luckylab.boards.board", 12), ("luckylab", 12), ("luckylab.boards", 12),
        ("luckylab.games", 13), ("luckylab.games.registry", 13)]


def test_a_made_up_package_that_imports_itself_through_its_init_is_reported(tmp_path):
    # issue 41: luckylab.viz.play's __init__ imported .choices, which did ``from . import
    # state``: a cycle through the package's namespace, one an import-order change would break
    toy = tmp_path / "toy"
    (toy / "play").mkdir(parents=True)
    (toy / "__init__.py").write_text("")
    (toy / "play" / "__init__.py").write_text("from .choices import Choice\n")
    (toy / "play" / "choices.py").write_text(
        "from . import state\nclass Choice:\n    def f(self):\n        return state.seen()\n")
    (toy / "play" / "state.py").write_text("def seen():\n    return 1\n")
    graph = import_graph(toy, "toy")
    assert cycles(graph) == [["toy.play", "toy.play.choices", "toy.play"]]
    # by the submodule's own path, no cycle: the package is not asked for anything
    (toy / "play" / "choices.py").write_text(
        "from .state import seen\nclass Choice:\n    def f(self):\n        return seen()\n")
    assert cycles(import_graph(toy, "toy")) == []
    # nor hidden in a function, or reached through ``import ... as``
    (toy / "play" / "choices.py").write_text(
        "class Choice:\n    def f(self):\n        import toy.play.state as state\n"
        "        return state.seen()\n")
    assert cycles(import_graph(toy, "toy")) == [["toy.play", "toy.play.choices", "toy.play"]]


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
    assert graph.has_edge("luckylab.games.island.rules", "luckylab.games.base")
    assert graph.has_edge("luckylab.simulation", "luckylab.games.registry")  # in a function
    assert graph.has_edge("luckylab", "luckylab.lessons.exercises")
    assert graph.has_edge("luckylab.agents", "luckylab.agents.ismcts")  # in __init__'s function
    # ``from .state import seen`` reads the module, not the package luckylab.viz.play
    assert graph.has_edge("luckylab.viz.play.choices", "luckylab.viz.play.state")
    assert not graph.has_edge("luckylab.viz.play.choices", "luckylab.viz.play")
    assert len(graph) > 60 and graph.number_of_edges() > 150


def _cycles_in_words(graph: nx.DiGraph, outside: str = "") -> list[str]:
    found = [c for c in cycles(graph)
             if not all((a, b) in ALLOWED for a, b in zip(c, c[1:], strict=False))
             and not (outside and all(m.startswith(outside) for m in c))]
    return [" -> ".join(c) for c in found]


def test_no_cycles_between_modules(graph):
    found = _cycles_in_words(graph)
    assert not found, "modules that import each other:\n" + "\n".join(found)


def test_no_module_imports_a_higher_layer(graph):
    problems = upward_imports(graph)
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


def test_no_module_is_an_alias():
    found = {name: sys_modules_writes(path.read_text(encoding="utf-8"))
             for name, path in module_names().items()}
    found = {name: writes for name, writes in found.items() if writes}
    assert not found, f"import the module by its own name instead: {found}"
    assert alias_modules(module_names()) == set()


OLD_MODULES = {
    "luckylab.board": "luckylab.boards.board",
    "luckylab.geometry": "luckylab.boards.geometry",
    "luckylab.doctorwho_cards": "luckylab.cards.doctorwho",
    "luckylab.probability": "luckylab.analysis.luck",
    "luckylab.theory": "luckylab.analysis.dilemma",
    "luckylab.outcomes": "luckylab.analysis.attempts",
    "luckylab.save_analysis": "luckylab.analysis.sinking",
    "luckylab.panic_analysis": "luckylab.analysis.memory",
    "luckylab.search_curve": "luckylab.analysis.search_strength",
    "luckylab.check": "luckylab.lessons.exercises",  # luckylab.check is the face's function
    "luckylab.viz.widgets": "luckylab.viz.sight_explorer",  # and turn_stepper, foil_lab, ...
}
"""The old module names removed in issue 41 -> where their code lives."""


@pytest.mark.parametrize("old", sorted(OLD_MODULES))
def test_an_old_module_name_is_gone(old, monkeypatch):
    # An editable install's finder (setuptools) looks for a name missing here in the checkout
    # it was installed from, which in a second git worktree is another copy of luckylab: look
    # only where this luckylab is (on a plain or a wheel install nothing changes).
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path
                                           if not f.__module__.startswith("__editable__")])
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
    assert old not in sys.modules
    importlib.import_module(OLD_MODULES[old])


def test_the_old_names_inside_modules_are_gone():
    from luckylab.analysis import dilemma
    from luckylab.boards import files
    from luckylab.games import foiling
    from luckylab.viz import base

    old = {  # module -> (old name, where the one it stood for lives)
        "luckylab.analysis.dilemma": ("FoilRound", dilemma.FoilPlan),  # a second FoilRound
        "luckylab.boards": ("_parse", files._parse),
        "luckylab.viz.args": ("release", base.release),
    }
    for module, (name, real) in old.items():
        assert not hasattr(importlib.import_module(module), name), f"{module}.{name}"
        assert callable(real)
    assert "FoilRound" not in dilemma.__all__ and foiling.FoilRound.__module__ == foiling.__name__
    assert callable(luckylab.check) and luckylab.check.__name__ == "check"
    assert sys.modules[luckylab.check.__module__] is importlib.import_module(
        "luckylab.lessons.exercises")


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
