"""Consumers read a game through the protocol or the game's documented view (issue 41, item 4).

Outside ``luckylab/games/`` (bots, simulation, analyses, widgets, the tournament, interop, the
lessons, the command line) a game state is read only through

- the protocol (:class:`luckylab.games.protocol.GameState`: :data:`PROTOCOL`), and
- the game's view, ``game.view(seat)`` (a :class:`~luckylab.games.protocol.SeatView`: typed,
  documented, built from what that seat may know; ``game.view()`` is the open table).

The check reads the source with ``ast``. An attribute read counts as a read of an engine when
its receiver is a game: a name conventionally holding one (:data:`GAME_NAMES`: ``game``,
``state``, ``world`` ...), an attribute so named (``self.game``, ``table._game``), or a
parameter annotated with an engine class or the protocol. Such a read of an engine attribute
that is not in :data:`PROTOCOL` is reported; so is a read of any *private* engine attribute
(``_sight``, ``_decider`` ...) on any receiver but ``self`` or ``cls``, whatever it is called.
:data:`ALLOWED` is empty, and the first tests plant reads in made-up sources to show that a
broken check cannot pass unnoticed.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

import luckylab
from luckylab.games.protocol import GameState
from luckylab.games.registry import game_class, new_game

ROOT = Path(luckylab.__file__).parent
BUNDLED = ("island", "kill", "save", "panic", "doctorwho")

PROTOCOL = frozenset(
    {n for n in dir(GameState) if not n.startswith("_")} | set(GameState.__annotations__)
    | {"action_space", "action_from_data", "events", "phase", "view"})
"""The protocol's names (``luckylab.games.protocol``): what any consumer may read of any game."""

GAME_NAMES = frozenset({"game", "state", "world", "g", "_game", "_state", "_world"})
"""Names (and attribute names) that hold a game state in luckylab's code."""

ALLOWED: frozenset[tuple[str, str]] = frozenset()
"""(module path, attribute) pairs excused. Empty, and it stays empty."""


def engine_attributes(games: Iterable[str] = BUNDLED) -> dict[str, set[str]]:
    """Every attribute name of the bundled engines (class and a fresh game's instance), with
    the games that have it; the protocol's names and Python's own left out."""
    found: dict[str, set[str]] = {}
    for name in games:
        cls = game_class(name)
        names = set(dir(cls)) | set(vars(new_game(name, players=3, seed=1)))
        for attr in names:
            if not (attr.startswith("__") and attr.endswith("__")) and attr not in PROTOCOL:
                found.setdefault(attr, set()).add(name)
    return found


def _engine_classes() -> frozenset[str]:
    return frozenset({game_class(g).__name__ for g in BUNDLED} | {"GameState", "GameBase"})


def _annotated_games(tree: ast.AST, classes: frozenset[str]) -> set[str]:
    """Parameter names annotated with an engine class or the protocol, anywhere in ``tree``."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
                if arg.annotation is not None:
                    text = ast.unparse(arg.annotation)
                    if any(c in text for c in classes):
                        out.add(arg.arg)
    return out


def _is_game(node: ast.expr, annotated: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in GAME_NAMES or node.id in annotated
    if isinstance(node, ast.Attribute):
        return node.attr in GAME_NAMES
    return False


def engine_reads(source: str, engine: Mapping[str, set[str]],
                 classes: frozenset[str] | None = None) -> list[tuple[int, str, str]]:
    """(line, receiver, attribute) for every read of an engine attribute outside the protocol
    in ``source``: on a game receiver, or a private one on any receiver but self/cls."""
    tree = ast.parse(source)
    annotated = _annotated_games(tree, classes or _engine_classes())
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or node.attr not in engine:
            continue
        receiver = node.value
        private = node.attr.startswith("_")
        on_self = isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")
        if _is_game(receiver, annotated) or (private and not on_self):
            found.append((node.lineno, ast.unparse(receiver), node.attr))
    return sorted(found)


def consumer_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of luckylab outside ``games/``, by its path from the package's parent."""
    return {str(p.relative_to(root.parent)): p for p in sorted(root.rglob("*.py"))
            if p.relative_to(root).parts[0] != "games"}


def all_engine_reads(root: Path = ROOT) -> list[str]:
    engine = engine_attributes()
    classes = _engine_classes()
    out = []
    for where, path in consumer_modules(root).items():
        for line, receiver, attr in engine_reads(path.read_text(encoding="utf-8"), engine,
                                                 classes):
            if (where, attr) not in ALLOWED:
                out.append(f"{where}:{line}: {receiver}.{attr}")
    return out


# -- the check can fail --------------------------------------------------------------------------


ENGINE = {"hands": {"island"}, "_sight": {"island"}, "position": {"island", "kill"},
          "can_attack": {"island"}}


def test_planted_reads_of_an_engine_are_found():
    source = '''
def choose(self, game):
    view = game.view(0)
    mine = view.hand                       # the view: fine
    theirs = game.hands[1]                 # an engine attribute: reported
    where = self.game.position             # a game held by a widget: reported
    sight = board._sight                   # a private engine attribute, any receiver
    return self._sight, game.legal_actions()   # its own private attribute; the protocol

def helper(ship: "IslandGame"):
    return ship.can_attack(0)              # annotated with an engine class: reported
'''
    found = engine_reads(source, ENGINE, frozenset({"IslandGame"}))
    assert [(line, attr) for line, _, attr in found] == [
        (5, "hands"), (6, "position"), (7, "_sight"), (11, "can_attack")]


def test_the_engines_attributes_are_read_from_the_engines():
    engine = engine_attributes()
    assert {"hands", "position", "_decider"} <= set(engine)
    assert "legal_actions" not in engine and "view" not in engine  # the protocol's
    assert engine["cat"] == {"island"}


# -- the rule holds for luckylab -----------------------------------------------------------------


def test_consumers_read_only_the_protocol_and_the_views():
    found = all_engine_reads()
    counts = Counter(line.rpartition(".")[2] for line in found)
    assert not found, (f"{len(found)} reads of {len(counts)} engine attributes outside the "
                       "protocol (read the game's view instead):\n" + "\n".join(found))


@pytest.mark.parametrize("game", BUNDLED)
def test_every_game_has_a_view(game):
    from luckylab.errors import HiddenInformation
    from luckylab.games.protocol import SeatView

    state = new_game(game, players=3, seed=2)
    view = state.view(0)
    assert isinstance(view, SeatView) and view.seat == 0
    assert state.view().seat is None
    if getattr(type(view), "hand_of", None) is not None and state.num_seats > 1:
        with pytest.raises(HiddenInformation):
            view.hand_of(1)


# -- no game-name branching outside the registries ----------------------------------------------


def _game_like(node: ast.expr) -> bool:
    text = ast.unparse(node)
    return "game" in text.rsplit(".", 1)[-1]


def _names_a_game(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in BUNDLED
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_game(e) for e in node.elts)
    return False


def _only_raises(body: list[ast.stmt]) -> bool:
    return all(isinstance(s, ast.Raise) for s in body)


def game_branches(source: str, engine: Mapping[str, set[str]],
                  classes: frozenset[str]) -> list[tuple[int, str]]:
    """Where code chooses what to do by which game it has: a game's name compared with a
    bundled game's name, ``isinstance`` with an engine class, or ``getattr``/``hasattr``
    probing a game for an attribute the protocol does not promise. A check whose branch only
    raises (a game-specific widget refusing another game) is not a branch."""
    tree = ast.parse(source)
    guards = {id(n.test) for n in ast.walk(tree) if isinstance(n, ast.If) and _only_raises(n.body)}
    inside_guard: set[int] = set()
    for node in ast.walk(tree):
        if id(node) in guards:
            inside_guard.update(id(n) for n in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in inside_guard:
            continue
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_names_a_game(o) for o in operands) and any(_game_like(o) for o in operands):
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if (node.func.id == "isinstance" and len(node.args) == 2
                    and any(c in ast.unparse(node.args[1]) for c in classes)):
                found.append((node.lineno, ast.unparse(node)))
            if (node.func.id in ("getattr", "hasattr") and len(node.args) >= 2
                    and _is_game(node.args[0], set())
                    and isinstance(node.args[1], ast.Constant)
                    and node.args[1].value in engine):
                found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def all_game_branches(root: Path = ROOT) -> list[str]:
    engine = engine_attributes()
    classes = _engine_classes() - {"GameState", "GameBase"}
    return [f"{where}:{line}: {text}" for where, path in consumer_modules(root).items()
            for line, text in game_branches(path.read_text(encoding="utf-8"), engine, classes)]


def test_planted_game_branches_are_found():
    source = '''
def draw(game, view):
    if game.game_name == "island":          # a branch on the game's name
        return 1
    if isinstance(game, KillGame):          # a branch on the engine's class
        return 2
    cat = getattr(game, "cat", None)        # probing for an attribute
    if game.game_name not in ("save",):     # refusing another game: not a branch
        raise ValueError("a Save widget")
    kind = "save" if view.phase == "x" else "found"   # not a game's name
    return getattr(game, "game_name", None), kind in ("save", "found")
'''
    found = game_branches(source, {"cat": {"island"}}, frozenset({"KillGame"}))
    assert [line for line, _ in found] == [3, 5, 7]


def test_no_game_name_branching_outside_the_registries():
    found = all_game_branches()
    assert not found, "choose by the protocol, the view or a table by game:\n" + "\n".join(found)


@pytest.mark.parametrize("game", BUNDLED)
def test_a_view_is_read_only_and_copies_with_its_game(game):
    import copy

    state = new_game(game, players=3, seed=2)
    view = state.view(1)
    with pytest.raises(AttributeError, match="read-only"):
        view.seat = 0
    twin, twin_view = copy.deepcopy((state, view))
    assert twin_view.seat == 1 and twin_view._game is twin and twin is not state
