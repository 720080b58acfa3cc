"""Self-checking exercises: ``luckylab.check("04.1", my_answer)`` says "correct" or gives a hint.

The answers live in package data (``luckylab/data/answers/<lesson>.toml``, one file per lesson),
never in the notebooks students receive, and the feedback never prints the answer. The test
suite checks that every answer here is the one its lesson's solution cell computes, so the two
cannot drift apart.

An answer file holds one table per exercise::

    [answers."04.1"]
    kind = "integer"           # integer | number | text | set | sequence
    value = 14
    hint = "p_foil(attack, [5, 5]) falls as the attack grows; find where it drops below 0.5."

``number`` answers accept ``tolerance`` (absolute, default 0.005) and say so in the hint;
``text`` answers accept any of ``value`` (a string or a list of strings), ignoring case and
surrounding spaces; ``set`` answers compare as sets, ``sequence`` answers in order.

A common wrong answer can have a message of its own, shown instead of the hint (compared as
the answer is, with the same tolerance; it must not be accepted itself)::

    [[answers."12.2".mistakes]]
    value = 0.6667
    message = "that counts every deal in which Player 2 holds 3 or more ..."

>>> from luckylab import check
>>> check("demo.1", 6)
correct
>>> check("demo.1", 5)
not yet: count the faces of one die.
>>> check("demo.1", None)
not answered yet: replace None with your answer.
>>> bool(check("demo.1", 6))
True
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from numbers import Integral, Real
from typing import Any

from ..errors import LuckyLabError, UnknownExercise

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["Feedback", "UnknownExercise", "answer_key", "check"]

KINDS = ("integer", "number", "text", "set", "sequence")
DEFAULT_TOLERANCE = 0.005
_ID = re.compile(r"^[0-9]{2}[a-z]?\.[0-9]+$|^demo\.[0-9]+$")


@dataclass(frozen=True, slots=True)
class Feedback:
    """What :func:`check` says: ``ok`` and a message that never contains the answer."""

    exercise: str
    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:  # what a notebook shows
        return self.message


@dataclass(frozen=True, slots=True)
class Mistake:
    """A common wrong answer and what to say to it (instead of the hint)."""

    value: Any
    message: str


@dataclass(frozen=True, slots=True)
class Answer:
    """One exercise's answer as stored in package data."""

    exercise: str
    kind: str
    value: Any
    hint: str
    tolerance: float = 0.0
    mistakes: tuple[Mistake, ...] = ()


def check(exercise: str, answer: Any) -> Feedback:
    """Check a student's answer to ``exercise`` (for example ``"04.1"``) without revealing it.

    Returns a :class:`Feedback` that shows as ``correct`` or ``not yet: <hint>``; ``None``
    (the placeholder in a fresh exercise cell) shows ``not answered yet``.

    >>> check("demo.2", 0.1667)
    correct
    >>> check("demo.2", 0.2)
    not yet: one face out of six (within 0.005).
    """
    key = answer_key()
    if not isinstance(exercise, str):
        raise UnknownExercise(f"an exercise id is a string such as '04.1', not {exercise!r}")
    try:
        expected = key[exercise]
    except KeyError:
        lesson = exercise.split(".")[0]
        known = sorted(e for e in key if e.split(".")[0] == lesson) or sorted(key)[:12]
        raise UnknownExercise(
            f"no exercise {exercise!r} has a check; exercises with checks: {', '.join(known)}"
        ) from None
    if answer is None or answer is Ellipsis:
        return Feedback(exercise, False, "not answered yet: replace None with your answer.")
    ok, why = _compare(expected, answer)
    if ok:
        return Feedback(exercise, True, "correct")
    for mistake in expected.mistakes:
        if _compare(_as_answer(expected, mistake), answer)[0]:
            return Feedback(exercise, False, f"not yet: {mistake.message}")
    message = f"not yet: {why + ' ' if why else ''}{expected.hint}"
    if expected.kind == "number":
        message = message.rstrip(".") + f" (within {expected.tolerance:g})."
    return Feedback(exercise, False, message)


def _compare(expected: Answer, answer: Any) -> tuple[bool, str]:
    kind = expected.kind
    if kind == "integer":
        if isinstance(answer, bool) or not isinstance(answer, Integral):
            if not isinstance(answer, bool) and isinstance(answer, Real) and answer % 1 == 0:
                answer = int(answer)
            else:
                return False, "the answer is a whole number."
        return int(answer) == expected.value, ""
    if kind == "number":
        if isinstance(answer, bool) or not isinstance(answer, Real):
            return False, "the answer is a number."
        value = float(answer)
        if not math.isfinite(value):
            return False, "the answer is a finite number."
        return abs(value - expected.value) <= expected.tolerance, ""
    if kind == "text":
        if not isinstance(answer, str):
            return False, "the answer is a word or a name, in quotes."
        return _norm(answer) in {_norm(v) for v in expected.value}, ""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
        return False, "the answer is a collection (a set or a list)."
    items = [_norm(a) if isinstance(a, str) else a for a in answer]
    wanted = [_norm(v) if isinstance(v, str) else v for v in expected.value]
    if kind == "set":
        try:
            return set(items) == set(wanted), ""
        except TypeError:
            return False, "the items should be plain names or numbers."
    return items == wanted, ""  # sequence


def _as_answer(expected: Answer, mistake: Mistake) -> Answer:
    """A mistake as an answer of the same kind and tolerance, to compare with."""
    value = [mistake.value] if expected.kind == "text" else mistake.value
    return Answer(expected.exercise, expected.kind, value, expected.hint, expected.tolerance)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


@cache
def answer_key() -> Mapping[str, Answer]:
    """Every exercise id with a check -> its :class:`Answer` (read once from package data).

    >>> "demo.1" in answer_key()
    True
    """
    folder = resources.files("luckylab") / "data" / "answers"
    key: dict[str, Answer] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        source = f"answers/{entry.name}"
        try:
            data = tomllib.loads(entry.read_text("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise LuckyLabError(f"{source}: not valid TOML: {exc}") from None
        unknown = set(data) - {"answers"}
        if unknown:
            raise LuckyLabError(f"{source}: unknown top-level keys {sorted(unknown)}")
        for exercise, table in data.get("answers", {}).items():
            if exercise in key:
                raise LuckyLabError(f"{source}: exercise {exercise!r} is defined twice")
            key[exercise] = _answer(source, exercise, table)
    return key


def _answer(source: str, exercise: str, table: Any) -> Answer:
    where = f"{source}: answers.{exercise}"
    if not _ID.match(exercise):
        raise LuckyLabError(f"{where}: an exercise id looks like '04.1' (lesson.number)")
    if not isinstance(table, dict):
        raise LuckyLabError(f"{where}: must be a table")
    unknown = set(table) - {"kind", "value", "hint", "tolerance", "mistakes"}
    if unknown:
        raise LuckyLabError(f"{where}: unknown keys {sorted(unknown)}")
    kind, value, hint = table.get("kind"), table.get("value"), table.get("hint")
    if kind not in KINDS:
        raise LuckyLabError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if not isinstance(hint, str) or not hint.strip():
        raise LuckyLabError(f"{where}: hint must be a non-empty string (shown when wrong)")
    tolerance = 0.0
    if kind == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
        raise LuckyLabError(f"{where}: value must be an integer")
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise LuckyLabError(f"{where}: value must be a number")
        tolerance = table.get("tolerance", DEFAULT_TOLERANCE)
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not (
            math.isfinite(tolerance) and tolerance >= 0
        ):
            raise LuckyLabError(f"{where}: tolerance must be a finite number >= 0")
        value = float(value)
    elif "tolerance" in table:
        raise LuckyLabError(f"{where}: tolerance is only for kind = 'number'")
    if kind == "text":
        value = [value] if isinstance(value, str) else value
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise LuckyLabError(f"{where}: value must be a string or a list of strings")
    if kind in ("set", "sequence") and not isinstance(value, list):
        raise LuckyLabError(f"{where}: value must be a list")
    answer = Answer(exercise, kind, value, hint.strip(), float(tolerance))
    return Answer(exercise, kind, value, hint.strip(), float(tolerance),
                  _mistakes(where, answer, table.get("mistakes", [])))


def _mistakes(where: str, answer: Answer, tables: Any) -> tuple[Mistake, ...]:
    """The ``mistakes`` of one answer: each a table with a wrong ``value`` and a ``message``."""
    if not isinstance(tables, list):
        raise LuckyLabError(f"{where}: mistakes must be a list of tables ([[...mistakes]])")
    mistakes = []
    for n, table in enumerate(tables, 1):
        place = f"{where}: mistake {n}"
        if not isinstance(table, dict) or set(table) != {"value", "message"}:
            raise LuckyLabError(f"{place}: a mistake is a table of exactly 'value' and "
                                "'message'")
        message = table["message"]
        if not isinstance(message, str) or not message.strip():
            raise LuckyLabError(f"{place}: message must be a non-empty string")
        value = table["value"]
        kinds = {"integer": int, "number": (int, float), "text": str, "set": list,
                 "sequence": list}[answer.kind]
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise LuckyLabError(f"{place}: value must be of the answer's kind ({answer.kind})")
        mistake = Mistake(value, message.strip())
        if _compare(answer, value)[0]:
            raise LuckyLabError(f"{place}: the check accepts this value; a mistake must be "
                                "wrong")
        if str(answer.value) in mistake.message:
            raise LuckyLabError(f"{place}: the message must not give the answer away")
        mistakes.append(mistake)
    return tuple(mistakes)
