"""The exceptions luckylab raises.

Errors are part of the interface: each message says what was wrong and, where the list is
short, what is allowed instead. Every exception here derives from :class:`LuckyLabError`, so
``except LuckyLabError`` catches them all; each also derives from the built-in exception a
Python user would expect (``ValueError``, ``KeyError``), so ordinary handlers keep working.
"""

from __future__ import annotations

__all__ = [
    "ActionFieldError",
    "BoardError",
    "DeckError",
    "IllegalAction",
    "LuckyLabError",
    "OptionError",
    "ReplayError",
    "UnknownGame",
    "UnknownSpace",
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


def _rebuild(cls: type, args: tuple[object, ...], state: dict[str, object]) -> Exception:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


def _close_matches(word: str, candidates: list[str]) -> list[str]:
    import difflib

    return difflib.get_close_matches(word, candidates, n=2, cutoff=0.6)
