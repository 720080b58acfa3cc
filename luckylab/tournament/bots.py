"""Bot files: a student's bot saved as one self-contained ``.py`` file, and a folder of them read
back as tournament entrants.

:func:`save_bot` writes the class's source (found with :func:`inspect.getsource`, or from the
notebook cell that defined it) under a header naming the bot, its author label and its game,
with the imports, constants and helper functions the class uses. :func:`load_bots` reads a
folder of such files: the header is read without running anything; each file is then imported
in a separate worker process (:mod:`luckylab.tournament.sandbox`), so a file that fails to
import, or holds a bot for another game, is reported by name (a :class:`Problem`) and left out.

>>> import tempfile
>>> from luckylab.agents.island import CautiousAgent
>>> folder = tempfile.mkdtemp()
>>> path = save_bot(CautiousAgent, "team-7", game="island", author="Ana", folder=folder)
>>> path.name
'team-7.py'
>>> read_header(path)["class"]
'CautiousAgent'
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import inspect
import linecache
import re
import sys
import types
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._version import __version__
from ..agents.base import Agent
from ..errors import BotFileError, TournamentError
from ..games.base import _TITLES
from ..games.registry import GAMES

__all__ = ["HEADER", "Entrant", "Problem", "load_bots", "read_header",
           "reference_entrants", "save_bot"]

HEADER = "LUCKYLAB_BOT"
"""The name of the dict at the top of a bot file: name, author, game, class, luckylab version."""

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
"""A bot's name: letters, digits, ``_ . -``; 1 to 40 characters, starting with a letter or digit."""

_PLAIN = (int, float, str, bool, type(None), bytes)


@dataclass(frozen=True)
class Entrant:
    """One bot in a tournament: a student's bot file, or a bundled reference bot.

    ``name`` is unique in a tournament (a reference bot's name ends in `` (reference)``, which
    no file's name can). ``path`` and ``class_name`` locate a file's class; ``agent`` names a
    bundled bot; ``sha256`` pins the file's text (a results file refuses a changed bot).

    >>> [e.name for e in reference_entrants("kill")]
    ['opportunist (reference)', 'patient (reference)', 'random (reference)']
    """

    name: str
    game: str
    author: str | None = None
    path: Path | None = None
    class_name: str = ""
    agent: str | None = None
    sha256: str = ""

    @property
    def reference(self) -> bool:
        """True for a bundled bot (it runs inside the tournament's own process)."""
        return self.path is None

    def identity(self) -> dict[str, Any]:
        """What the results file pins: name, author, and the file's digest or the bundled
        bot's name."""
        return {"name": self.name, "author": self.author, "sha256": self.sha256,
                "agent": self.agent}

    def agent_class(self) -> type[Agent]:
        """The bundled bot's class (reference entrants only)."""
        from ..agents import agent_class

        if self.agent is None:
            raise TournamentError(f"{self.name} is a bot file; it runs in a worker process")
        return agent_class(self.game, self.agent)


@dataclass(frozen=True)
class Problem:
    """A bot file left out of a tournament, and why (printed as ``file: reason``)."""

    file: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.reason}"


def reference_entrants(game: str) -> list[Entrant]:
    """The game's bundled readable bots as entrants (the look-ahead bot is left out: slow).

    >>> [e.agent for e in reference_entrants("island")]
    ['cautious', 'aggressive', 'random']
    """
    from ..agents import agent_names

    _check_game(game)
    return [Entrant(name=f"{agent} (reference)", game=game, agent=agent, class_name=agent)
            for agent in agent_names(game)]


def _check_game(game: Any) -> None:
    if game not in GAMES:
        raise TournamentError(f"game must be one of {', '.join(GAMES)}, not {game!r:.60}")


def _check_name(name: Any) -> None:
    if not isinstance(name, str) or not NAME.match(name):
        raise BotFileError(f"a bot's name is 1 to 40 letters, digits, '_', '.' or '-', starting "
                           f"with a letter or digit (e.g. 'team-7'), not {name!r:.60}")


def save_bot(cls: type, name: str, *, game: str, author: str | None = None,
             folder: str | Path = "bots") -> Path:
    """Write the bot class ``cls`` to ``folder/name.py``: one self-contained file to hand in.

    The file holds a header (name, ``author`` label, game), the imports, constants and helper
    functions the class uses, and the class itself. It is checked by running it once here, and
    an existing file of that name is replaced. Raises :class:`~luckylab.errors.BotFileError`
    for a class that is not a bot of ``game``, a class whose source cannot be found (define it
    in a notebook cell or a ``.py`` file), a name the class uses that cannot be written down
    (an object made in the notebook), or a bad name.

    >>> import tempfile
    >>> from luckylab.agents.kill import Opportunist
    >>> save_bot(Opportunist, "bold", game="kill", folder=tempfile.mkdtemp()).name
    'bold.py'
    >>> save_bot(Opportunist, "bold", game="island", folder=tempfile.mkdtemp())
    Traceback (most recent call last):
    luckylab.errors.BotFileError: Opportunist is a bot for Kill Doctor Lucky, not for island
    """
    _check_game(game)
    _check_name(name)
    if author is not None and not (isinstance(author, str) and 0 < len(author) <= 60
                                   and author.isprintable()):
        raise BotFileError(f"author is a label of 1 to 60 printable characters, or None, "
                           f"not {author!r:.60}")
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise BotFileError(f"save_bot saves a bot class (a subclass of luckylab's Agent, e.g. "
                           f"class MyBot(CautiousAgent): ...), not {cls!r:.60}")
    if cls.game_name not in (None, game):
        title = _TITLES.get(cls.game_name, cls.game_name)
        raise BotFileError(f"{cls.__name__} is a bot for {title}, not for {game}")
    text = bot_file_text(cls, name, game=game, author=author)
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise BotFileError(f"folder {str(target)!r} is a file, not a folder")
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    from .sandbox import import_bot

    try:
        import_bot(path, cls.__name__, game)
    except BotFileError as exc:
        path.unlink()
        raise BotFileError(f"the saved file does not run on its own, so it was not kept: {exc}. "
                           "Define every helper the class uses in a notebook cell, or inside "
                           "the class") from None
    return path


def bot_file_text(cls: type, name: str, *, game: str, author: str | None) -> str:
    """The text of the bot file :func:`save_bot` writes for ``cls``."""
    source = class_source(cls)
    header = {"name": name, "author": author, "game": game, "class": cls.__name__,
              "luckylab": __version__}
    by = f" (by {author})" if author else ""
    imports, definitions = _dependencies(cls, source)
    parts = [
        f'"""A luckylab tournament bot: {name}{by}, for {_TITLES[game]}.\n\n'
        f"Saved by luckylab.tournament.save_bot from the class {cls.__name__}. Hand this file "
        f"in; the teacher runs\n``python -m luckylab tournament FOLDER --game {game}``.\n"
        '"""\n\nfrom __future__ import annotations\n',
        f"{HEADER} = {header!r}\n",
    ]
    if imports:
        parts.append("\n".join(imports) + "\n")
    parts.extend(d + "\n" for d in definitions)
    parts.append(source)
    return "\n".join(parts)


def class_source(obj: Any) -> str:
    """The source of a class or function, from its file or from the notebook cell that defined
    it (IPython keeps each cell's text where :mod:`linecache` finds it); dedented."""
    try:
        return _dedent(inspect.getsource(obj))
    except (OSError, TypeError):
        pass
    found = _source_from_cells(obj)
    if found is None:
        kind = "class" if isinstance(obj, type) else "function"
        raise BotFileError(
            f"cannot find the source of the {kind} {getattr(obj, '__name__', obj)!r}: define it "
            "in a notebook cell or a .py file (not at a plain python prompt, nor with type()), "
            "then run that cell again")
    return found


def _dedent(source: str) -> str:
    import textwrap

    return textwrap.dedent(source)


def _source_from_cells(obj: Any) -> str | None:
    """Find ``obj``'s definition in the file one of its functions was compiled from."""
    codes = []
    if isinstance(obj, types.FunctionType):
        codes.append(obj.__code__)
    elif isinstance(obj, type):
        for value in vars(obj).values():
            func = getattr(value, "__func__", value)
            func = getattr(func, "__wrapped__", func)
            if isinstance(func, types.FunctionType):
                codes.append(func.__code__)
    files = [code.co_filename for code in codes]
    if isinstance(obj, type) and not files:  # a class without methods: the latest cell with it
        files = [f for f in reversed(list(linecache.cache)) if isinstance(f, str)
                 and (f.startswith("<ipython-input-") or "ipykernel_" in f)]
    for filename in files:
        lines = linecache.getlines(filename)
        if not lines:
            continue
        text = "".join(lines)
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        wanted = ast.ClassDef if isinstance(obj, type) else (ast.FunctionDef,
                                                               ast.AsyncFunctionDef)
        for node in ast.walk(tree):
            if not (isinstance(node, wanted) and node.name == obj.__name__):
                continue
            if not codes or any(c.co_filename == filename and node.lineno <= c.co_firstlineno
                                <= (node.end_lineno or 0) for c in codes):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                return _dedent("".join(lines[start - 1:node.end_lineno]))
    return None


def _free_names(source: str) -> list[str]:
    """Names a class or function reads that it does not define itself, in order of first use."""
    tree = ast.parse(source)
    bound: set[str] = set()
    used: list[str] = []
    top = tree.body[0] if tree.body else None
    in_notes = {id(n) for note in _annotations(tree) for n in ast.walk(note)}
    for node in ast.walk(tree):
        if id(node) in in_notes:
            continue  # the bot file never evaluates annotations (from __future__ import ...)
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                if node.id not in used:
                    used.append(node.id)
            else:
                bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node is not top:
                bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    own = {top.name} if isinstance(top, (ast.FunctionDef, ast.ClassDef)) else set()
    return [n for n in used if n not in bound and n not in own and not hasattr(builtins, n)]


def _annotations(tree: ast.AST) -> list[ast.expr]:
    """The annotation expressions in ``tree``."""
    notes: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            notes.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns:
            notes.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            notes.append(node.annotation)
    return notes


def _namespace(obj: Any) -> dict[str, Any]:
    """The globals ``obj`` was defined in (a function's ``__globals__``, else its module's)."""
    funcs = [obj] if isinstance(obj, types.FunctionType) else [
        getattr(v, "__func__", v) for v in vars(obj).values()]
    for func in funcs:
        if isinstance(func, types.FunctionType):
            return inspect.unwrap(func).__globals__
    module = sys.modules.get(getattr(obj, "__module__", ""), None)
    return vars(module) if module is not None else {}


def _importable(value: Any) -> str | None:
    """``from module import name`` for a class or function that lives in an importable module."""
    module_name = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if not module_name or module_name == "__main__" or not qualname or "." in qualname:
        return None
    module = sys.modules.get(module_name)
    if module is None or not _installed(module):
        return None
    if getattr(module, qualname, None) is not value:
        return None
    return module_name


def _installed_global(namespace: dict[str, Any], name: str, value: Any) -> str | None:
    """The module to import ``name`` from when it is a global of an installed module (such as
    a bundled bot's table of action kinds), else None."""
    module = sys.modules.get(namespace.get("__name__", ""))
    if module is None or module.__name__ == "__main__" or not _installed(module):
        return None
    return module.__name__ if getattr(module, name, None) is value else None


def _installed(module: types.ModuleType) -> bool:
    """luckylab, the standard library or an installed package: importable on the teacher's
    machine too (a student's own ``.py`` file next to the notebook is not)."""
    import sysconfig

    name = module.__name__.partition(".")[0]
    if name == "luckylab" or name in sys.builtin_module_names or name in getattr(
            sys, "stdlib_module_names", ()):
        return True
    where = getattr(module, "__file__", None)
    if where is None:
        return False
    paths = sysconfig.get_paths()
    roots = {paths[k] for k in ("purelib", "platlib", "stdlib", "platstdlib") if k in paths}
    resolved = str(Path(where).resolve())
    return any(resolved.startswith(str(Path(r).resolve())) for r in roots)


def _plain(value: Any) -> bool:
    if isinstance(value, _PLAIN):
        return not isinstance(value, float) or value == value  # nan has no faithful repr
    if isinstance(value, (tuple, list, set, frozenset)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return False


def _dependencies(cls: type, source: str) -> tuple[list[str], list[str]]:
    """The import lines and the definitions (constants, helper functions and classes from the
    notebook) that ``cls``'s source needs, dependencies first."""
    imports: list[str] = []
    definitions: list[str] = []
    seen: set[str] = set()

    def visit(obj: Any, text: str) -> None:
        namespace = _namespace(obj)
        for name in _free_names(text):
            if name in seen:
                continue
            seen.add(name)
            if name not in namespace:
                raise BotFileError(
                    f"{cls.__name__} uses the name {name!r}, which is not defined where the "
                    "class is: define it in a notebook cell (and run the cell) or inside the "
                    "class")
            value = namespace[name]
            if isinstance(value, types.ModuleType):
                if not _installed(value):
                    raise BotFileError(
                        f"{cls.__name__} uses the module {value.__name__!r}, a file of yours "
                        "that the teacher does not have: copy what the bot needs from it into "
                        "the notebook")
                line = (f"import {value.__name__}" if value.__name__ == name
                        else f"import {value.__name__} as {name}")
                if "." in value.__name__ and value.__name__.rpartition(".")[2] == name:
                    line = f"from {value.__name__.rpartition('.')[0]} import {name}"
                imports.append(line)
            elif (module := _importable(value)) is not None:
                real = value.__qualname__
                imports.append(f"from {module} import {real}" if real == name
                               else f"from {module} import {real} as {name}")
            elif isinstance(value, (type, types.FunctionType)):
                if getattr(value, "__name__", None) != name:
                    raise BotFileError(f"{cls.__name__} uses {name!r}, another name for "
                                       f"{value.__name__!r}; use the name it was defined with")
                text_of = class_source(value)
                visit(value, text_of)
                definitions.append(text_of)
            elif _plain(value):
                definitions.append(f"{name} = {value!r}")
            elif (home := _installed_global(namespace, name, value)) is not None:
                imports.append(f"from {home} import {name}")  # a bundled bot's own table
            else:
                raise BotFileError(
                    f"{cls.__name__} uses {name!r}, a {type(value).__name__} made in the "
                    "notebook, which cannot be written into a file: make it a constant "
                    "(numbers, strings, lists, dicts), or build it inside the class")

    visit(cls, source)
    return list(dict.fromkeys(imports)), definitions


def read_header(path: str | Path) -> dict[str, Any]:
    """The ``LUCKYLAB_BOT`` header of a bot file, read without running the file.

    Raises :class:`~luckylab.errors.BotFileError` naming the file when there is none or it is
    malformed.
    """
    path = Path(path)
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError) as exc:
        raise BotFileError(f"cannot read it as Python: {type(exc).__name__}: {exc}") from None
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == HEADER):
            try:
                header = ast.literal_eval(node.value)
            except ValueError:
                break
            if (isinstance(header, dict) and isinstance(header.get("class"), str)
                    and header["class"].isidentifier()):
                return header
            break
    raise BotFileError(f"not a luckylab bot file (no {HEADER} = {{...}} header with the bot's "
                       "name, game and class): save bots with luckylab.tournament.save_bot")


def file_digest(path: Path) -> str:
    """SHA-256 of a bot file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_bots(folder: str | Path, *, game: str, limits: Any = None, sandbox: bool | None = None
              ) -> tuple[list[Entrant], list[Problem]]:
    """The bot files of ``folder`` (every ``*.py``) as entrants of ``game``, and the files left
    out with the reason (a :class:`Problem` each: no header, another game, a name used twice,
    an import that fails, hangs or crashes).

    Each file is imported in a worker process under ``limits``
    (:class:`~luckylab.tournament.sandbox.Limits`), never in this one; except with
    ``sandbox=False``, the default where no process can be started (in a browser): then each
    file is imported here, without limits
    (:func:`~luckylab.tournament.sandbox.use_sandbox`).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "broken.py").write_text("LUCKYLAB_BOT = {'name': 'b', 'game': 'kill', "
    ...                                       "'class': 'B'}\\nimport nothing_at_all\\n")
    >>> entrants, problems = load_bots(folder, game="kill")
    >>> entrants, [p.file for p in problems]
    ([], ['broken.py'])
    >>> print(problems[0].reason)
    importing it failed: ModuleNotFoundError: No module named 'nothing_at_all' (line 2)
    """
    from .sandbox import Limits, check_files, imported_bot, use_sandbox

    _check_game(game)
    sandbox = use_sandbox(sandbox)
    where = Path(folder)
    if not where.is_dir():
        raise TournamentError(f"no folder {str(where)!r} of bot files")
    limits = Limits() if limits is None else limits
    problems: list[Problem] = []
    candidates: list[Entrant] = []
    names: dict[str, str] = {}
    for path in sorted(where.glob("*.py")):
        try:
            header = read_header(path)
        except BotFileError as exc:
            problems.append(Problem(path.name, str(exc)))
            continue
        name, its_game = header.get("name"), header.get("game")
        if its_game != game:
            problems.append(Problem(path.name, f"a bot for {its_game!r:.40}, not for {game}"))
            continue
        try:
            _check_name(name)
        except BotFileError as exc:
            problems.append(Problem(path.name, str(exc)))
            continue
        if name in names:
            problems.append(Problem(path.name, f"the name {name!r} is taken by {names[name]}"))
            continue
        names[name] = path.name
        author = header.get("author")
        candidates.append(Entrant(name=name, game=game,
                                  author=author if isinstance(author, str) else None,
                                  path=path.resolve(), class_name=header["class"],
                                  sha256=file_digest(path)))
    if sandbox:
        verdicts = check_files([(e.path, e.class_name) for e in candidates], game, limits)
    else:
        verdicts = []
        for e in candidates:
            try:
                imported_bot(e.path, e.class_name, game, e.sha256)  # type: ignore[arg-type]
                verdicts.append(None)
            except BotFileError as exc:
                verdicts.append(str(exc))
    entrants = []
    for entrant, verdict in zip(candidates, verdicts, strict=True):
        if verdict is None:
            entrants.append(entrant)
        else:
            problems.append(Problem(entrant.path.name, verdict))  # type: ignore[union-attr]
    problems.sort(key=lambda p: p.file)
    return sorted(entrants, key=lambda e: e.name), problems


def entrant_names(entrants: Iterable[Entrant]) -> list[str]:
    """The names, in order."""
    return [e.name for e in entrants]
