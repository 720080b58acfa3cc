"""The exceptions luckylab raises.

Errors are part of the interface: each message says what was wrong and, where the list is
short, what is allowed instead. Every exception here derives from :class:`LuckyLabError`, so
``except LuckyLabError`` catches them all; each also derives from the built-in exception a
Python user would expect (``ValueError``, ``KeyError``), so ordinary handlers keep working.

Every exception class of the package is defined here (``tests/test_layering.py`` checks), so
this module imports nothing else of luckylab. The modules that raise them import them from here
and keep their old names importable (``luckylab.simulation.GameFailed`` is this
:class:`GameFailed`).

>>> issubclass(GameFailed, LuckyLabError) and issubclass(UnknownExercise, KeyError)
True
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ActionFieldError",
    "ActionSpaceError",
    "BadBudget",
    "BotFileError",
    "BoardError",
    "DeckError",
    "GameFailed",
    "HiddenInformation",
    "IllegalAction",
    "LessonError",
    "LuckyLabError",
    "MissingExtra",
    "ObservationError",
    "OptionError",
    "PlayTableError",
    "ReplayError",
    "SandboxViolation",
    "SearchCurveError",
    "StraySolutionTag",
    "StudentCopyError",
    "TournamentError",
    "UnknownExercise",
    "UnknownGame",
    "UnknownSpace",
    "UnsafeDestination",
    "VolunteersDilemmaError",
]


class LuckyLabError(Exception):
    """Base class of every error luckylab raises on purpose."""

    def __reduce__(self) -> tuple[object, ...]:
        # errors cross process pools (simulate with workers): rebuild them with their fields
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


class BoardError(LuckyLabError, ValueError):
    """A board data file is malformed. The message names the file and the field."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        super().__init__(f"{source}: {field}: {problem}")


class DeckError(LuckyLabError, ValueError):
    """A card list data file is malformed. The message names the file and the field."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        super().__init__(f"{source}: {field}: {problem}")


class UnknownSpace(LuckyLabError, KeyError):
    """A space name that the board does not have."""

    def __init__(self, name: object, board: str, known: list[str] | None = None) -> None:
        self.name = name
        self.board = board
        hint = ""
        if known:
            close = _close_matches(str(name), known)
            hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
        message = f"{board} has no space {name!r}{hint}"
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:  # KeyError would otherwise wrap the message in quotes
        return self.message


class OptionError(LuckyLabError, ValueError, TypeError):
    """A game option, widget argument or command-line value of the wrong type or out of range.

    It is both a ``ValueError`` and a ``TypeError``, so either ``except`` clause catches it.
    """


class ReplayError(LuckyLabError, ValueError):
    """A game record that does not replay: malformed, from another board, deck or version, or
    with an action the game refuses. ``index`` is the record entry (action number) that failed,
    or None when the record as a whole is wrong."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message if index is None else f"record action {index}: {message}")


class UnknownGame(LuckyLabError, ValueError):
    """A game, board or deck name that luckylab does not know."""


class IllegalAction(LuckyLabError, ValueError):
    """An action that the rules do not allow now. The game state is left unchanged.

    ``reason`` says why; ``legal`` lists some legal alternatives when the list is short.
    """

    def __init__(self, reason: str, legal: list[object] | None = None) -> None:
        self.reason = reason
        self.legal = list(legal) if legal else []
        message = reason
        if legal and len(legal) <= 8:
            message += "; legal now: " + ", ".join(str(a) for a in legal)
        super().__init__(message)


class ActionFieldError(IllegalAction, TypeError):
    """An action whose field has the wrong type (a float or bool card id, a number for a space
    name). Like every :class:`IllegalAction` it leaves the game unchanged."""


# -- raised above the rules: simulations, bots, analysis, widgets, lessons ----------------------


class ActionSpaceError(LuckyLabError, ValueError):
    """A game's action space is declared wrong (a programming error in a game module)."""


class ObservationError(LuckyLabError, TypeError):
    """An engine put something other than plain data into an observation."""


class HiddenInformation(LuckyLabError, LookupError):
    """A seat's view (``game.view(seat)``) was asked for something hidden from that seat,
    such as another player's hand; the message says what the seat may ask instead."""


class MissingExtra(LuckyLabError, ImportError):
    """An optional part of luckylab needs packages that are not installed; the message names
    the extra to install (``pip install 'luckylab[openspiel]'``)."""


class GameFailed(LuckyLabError):
    """A game raised during a simulation: ``index`` and ``seed`` name it, ``cause`` says why.

    Replay it alone with ``play_game(game, players, seed, agents)``. :func:`simulate` attaches
    the games that did finish as ``results``: a list of ``(index, result)`` in game order.
    """

    def __init__(self, index: int, seed: int, cause: str) -> None:
        super().__init__(f"game {index} (seed {seed}) failed: {cause}")
        self.index, self.seed, self.cause = index, seed, cause
        self.results: list[tuple[int, Any]] = []  # (index, GameResult)

    def __reduce__(self) -> tuple[Any, ...]:
        return (GameFailed, (self.index, self.seed, self.cause))


class BadBudget(LuckyLabError, ValueError):
    """A search setting out of range: says which, and what is allowed."""


class SearchCurveError(LuckyLabError, ValueError):
    """A search-curve file that is missing, unreadable or not labelled as measured."""


class VolunteersDilemmaError(LuckyLabError, ValueError):
    """Parameters that do not make a volunteer's dilemma (says what is allowed)."""


class PlayTableError(LuckyLabError, ValueError):
    """A play table was asked for something it cannot do (a bad seat, an unknown bot, ...)."""


class UnknownExercise(LuckyLabError, KeyError):
    """An exercise id that no lesson's answer file defines."""

    def __str__(self) -> str:  # KeyError would otherwise wrap the message in quotes
        return str(self.args[0])


class LessonError(LuckyLabError, ValueError):
    """A lessons folder or notebook that the lesson tools cannot work with; says which and why."""


class StudentCopyError(LessonError):
    """Student copies cannot be made as asked."""


class UnsafeDestination(StudentCopyError):
    """The output folder is the lessons folder, or inside it."""


class StraySolutionTag(StudentCopyError):
    """A ``solution`` tag on a cell that is not a solution (listed in ``problems``)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__(
            "a solution tag on a cell that is not a solution would strip it from the student "
            "copy; fix the tags first:\n  " + "\n  ".join(self.problems)
        )


class TournamentError(LuckyLabError, ValueError):
    """A class tournament cannot run as asked (:mod:`luckylab.tournament`): says what and why."""


class BotFileError(TournamentError):
    """A bot cannot be saved to, or loaded from, a tournament bot file: names the bot or file."""


class SandboxViolation(LuckyLabError, PermissionError):
    """A student bot, in its tournament worker, tried something the guard refuses: a network
    socket, a new process, writing outside its own folder (:mod:`luckylab.tournament.guard`).
    The bot loses the game even if it catches this: the guard records the attempt."""


class BotTimeUp(BaseException):  # noqa: N818 - not an error of luckylab: a signal to a bot
    """Raised inside a student bot's ``choose`` when its CPU time for the decision is up
    (:mod:`luckylab.tournament.sandbox`). A ``BaseException``, so the bot's own
    ``except Exception`` does not swallow it; never raised to a luckylab user (hence not in
    ``__all__``)."""


def _rebuild(cls: type, args: tuple[object, ...], state: dict[str, object]) -> Exception:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


def _close_matches(word: str, candidates: list[str]) -> list[str]:
    import difflib

    return difflib.get_close_matches(word, candidates, n=2, cutoff=0.6)
