"""Attempts over whole games: which attempt kills, how the table's Luck drains, how long it takes.

Input is a list of :class:`~luckylab.games.base.GameResult` from :func:`luckylab.simulate`.
A game that records its foiling rounds puts them in ``result.extra["attempts"]``, in order,
each a dict with ``turn``, ``attacker``, ``kind`` (``"murder"``, or ``"hazard"`` for a Hazard
thrown at Doctor Lucky, ``I-HAZ-4``), ``value`` (what had to be reached), ``foiled``,
``luck_spent`` and ``table_luck`` (the Luck the attacker's opponents held before the round),
and the Luck in all hands at the start of each turn in ``result.extra["table_luck_by_turn"]``.

Everything returned is plain data (lists of dicts), ready for a table or a plot; proportions
come with their standard errors, so a lesson can show how sure the simulation is.

This module owns summaries of simulated games. It plays no games (:mod:`luckylab.simulate`)
and computes no exact probabilities (:mod:`luckylab.analysis.luck`).

>>> from luckylab import GameResult
>>> def game(*foiled, luck=()):
...     log = [{"turn": t, "attacker": 0, "kind": "murder", "value": 2 + t, "foiled": f,
...             "luck_spent": 2 + t if f else 0, "table_luck": 12 - t}
...            for t, f in enumerate(foiled, start=1)]
...     return GameResult("island", 4, 0, finished=not foiled[-1], winner=None, loser=None,
...                       turns=len(foiled), attempts=len(foiled),
...                       extra={"attempts": log, "table_luck_by_turn": list(luck)})
>>> results = [game(True, False), game(False), game(True, True, False)]
>>> [(row["attempt"], row["games"], row["p_success"]) for row in attempt_outcomes(results)]
[(1, 3, 0.3333333333333333), (2, 2, 0.5), (3, 1, 1.0)]
>>> attempts_before_kill(results)["mean"]
2.0
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..errors import OptionError

__all__ = [
    "KINDS",
    "attempt_outcomes",
    "attempt_table",
    "attempts_before_kill",
    "foiling_when_able",
    "table_luck_over_turns",
]

KINDS = ("murder", "hazard", "all")
"""Which foiling rounds to count: murder attempts, Hazards on Doctor Lucky, or both."""

_FIELDS = ("turn", "attacker", "kind", "value", "foiled", "luck_spent", "table_luck")


def _proportion(hits: int, n: int) -> tuple[float | None, float | None]:
    if n == 0:
        return None, None
    p = hits / n
    return p, math.sqrt(p * (1 - p) / n)


def _attempts(result: Any, kind: str) -> list[dict[str, Any]]:
    if kind not in KINDS:
        raise OptionError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    extra = getattr(result, "extra", None)
    if not isinstance(extra, dict) or "attempts" not in extra:
        game = getattr(result, "game", "?")
        raise OptionError(f"this {game} result has no extra['attempts'] log: summaries of "
                         f"attempts need a game that records its foiling rounds (the Island)")
    log = extra["attempts"]
    for i, attempt in enumerate(log):
        missing = [f for f in _FIELDS if f not in attempt]
        if missing:
            raise OptionError(f"attempt {i} of game seed {getattr(result, 'seed', None)} lacks "
                             f"{missing}")
    return [a for a in log if kind == "all" or a["kind"] == kind]


def _results(results: Iterable[Any]) -> list[Any]:
    out = list(results)
    if not out:
        raise OptionError("no game results to summarize")
    return out


def attempt_table(results: Iterable[Any], kind: str = "all") -> list[dict[str, Any]]:
    """One row per attempt across all games: the game's index and seed, the attempt's number
    within its game (``number``, counting only attempts of ``kind``), and the logged fields.

    A flat table for pandas or a scatter plot.
    """
    rows = []
    for g, result in enumerate(_results(results)):
        for number, attempt in enumerate(_attempts(result, kind), start=1):
            rows.append({"game": g, "seed": result.seed, "number": number,
                         **{f: attempt[f] for f in _FIELDS}})
    return rows


def attempt_outcomes(results: Iterable[Any], kind: str = "murder") -> list[dict[str, Any]]:
    """P(the k-th attempt of a game succeeds), for k = 1, 2, ...

    Among the games that reached a k-th attempt (of ``kind``: ``"murder"`` by default,
    ``"hazard"`` or ``"all"``), the share in which it was not foiled. Each row: ``attempt``
    (k), ``games`` (how many reached it), ``succeeded``, ``p_success`` and its ``stderr``,
    ``mean_value`` (the average value to reach), ``mean_table_luck`` (the average Luck the
    opponents held), ``p_table_could_cover`` (how often they held at least the value).

    Attack grows by 1 after each failure (``I-KILL-3``) while the table's Luck drains, so
    later attempts should succeed more often.
    """
    by_k: dict[int, list[dict[str, Any]]] = {}
    for result in _results(results):
        for k, attempt in enumerate(_attempts(result, kind), start=1):
            by_k.setdefault(k, []).append(attempt)
    rows = []
    for k in sorted(by_k):
        group = by_k[k]
        n = len(group)
        succeeded = sum(1 for a in group if not a["foiled"])
        p, se = _proportion(succeeded, n)
        rows.append({
            "attempt": k, "games": n, "succeeded": succeeded, "p_success": p, "stderr": se,
            "mean_value": statistics.fmean(a["value"] for a in group),
            "mean_table_luck": statistics.fmean(a["table_luck"] for a in group),
            "p_table_could_cover": sum(a["table_luck"] >= a["value"] for a in group) / n,
        })
    return rows


def table_luck_over_turns(results: Iterable[Any]) -> list[dict[str, Any]]:
    """How the Luck in all hands drains, turn by turn.

    For each turn t (1-based): ``games`` (how many games were still going at its start), the
    ``mean``, ``stderr`` of the mean, ``min``, ``q1``, ``median``, ``q3`` and ``max`` of the
    total Luck in all hands then. Games that end drop out, so read late turns with their
    ``games`` count in mind.
    """
    series = []
    for result in _results(results):
        extra = getattr(result, "extra", None)
        if not isinstance(extra, dict) or "table_luck_by_turn" not in extra:
            raise OptionError("a result has no extra['table_luck_by_turn'] (a game that records "
                             "the Luck in hand each turn is needed: the Island)")
        series.append(list(extra["table_luck_by_turn"]))
    rows = []
    longest = max((len(s) for s in series), default=0)
    for t in range(longest):
        values = sorted(s[t] for s in series if len(s) > t)
        n = len(values)
        q1, median, q3 = (statistics.quantiles(values, n=4, method="inclusive") if n > 1
                          else (values[0],) * 3)
        rows.append({
            "turn": t + 1, "games": n, "mean": statistics.fmean(values),
            "stderr": statistics.stdev(values) / math.sqrt(n) if n > 1 else None,
            "min": values[0], "q1": q1, "median": median, "q3": q3, "max": values[-1],
        })
    return rows


def attempts_before_kill(results: Iterable[Any], kind: str = "all") -> dict[str, Any]:
    """How many attempts a game takes until Doctor Lucky dies.

    Counts, in each game that ended with a kill (a finished game whose last attempt was not
    foiled), the attempts of ``kind`` up to and including the killing one. ``kind="all"`` (the
    default) counts murder attempts and Hazards on Doctor Lucky alike, since either can kill
    (``I-HAZ-4``, ``I-END-1``). Returns ``games``, ``kills`` (games counted), ``unfinished``
    (games stopped at the turn cap, ``I-END-2``, not counted), ``mean`` (expected attempts
    per kill), its ``stderr``, ``mean_failed`` (foiled attempts before the kill) and
    ``distribution`` (number of attempts -> share of kills).
    """
    results = _results(results)
    counts = []
    unfinished = 0
    for result in results:
        everything = _attempts(result, "all")
        killed = bool(everything) and not everything[-1]["foiled"] and result.finished
        if not killed:
            unfinished += not result.finished
            continue
        if kind != "all" and everything[-1]["kind"] != kind:
            continue  # killed another way: not a kill of this kind
        counts.append(len(_attempts(result, kind)))
    n = len(counts)
    tally = Counter(counts)
    return {
        "games": len(results),
        "kills": n,
        "unfinished": unfinished,
        "kind": kind,
        "mean": statistics.fmean(counts) if n else None,
        "stderr": statistics.stdev(counts) / math.sqrt(n) if n > 1 else None,
        "mean_failed": statistics.fmean(counts) - 1 if n else None,
        "distribution": {k: tally[k] / n for k in sorted(tally)},
    }


def foiling_when_able(results: Iterable[Any], kind: str = "all") -> dict[str, Any]:
    """How often the table foiled when it could, and what it paid.

    ``p_foil`` in :mod:`luckylab.analysis.luck` is the chance the table *can* foil; whether
    the players *do* is their strategy (:mod:`luckylab.analysis.dilemma`). Over all logged
    attempts: how many there were, how often the opponents held enough (``could_cover``), how
    often they foiled, how often they foiled when they could (``p_foiled_when_able`` with
    ``stderr``), and the average Luck spent per foiled attempt against the value
    (``mean_overpay``).
    """
    attempts = [a for result in _results(results) for a in _attempts(result, kind)]
    able = [a for a in attempts if a["table_luck"] >= a["value"]]
    foiled = [a for a in attempts if a["foiled"]]
    p, se = _proportion(sum(1 for a in able if a["foiled"]), len(able))
    return {
        "attempts": len(attempts),
        "could_cover": len(able),
        "foiled": len(foiled),
        "p_foiled_when_able": p,
        "stderr": se,
        "mean_luck_spent": (statistics.fmean(a["luck_spent"] for a in foiled)
                            if foiled else None),
        "mean_overpay": (statistics.fmean(a["luck_spent"] - a["value"] for a in foiled)
                         if foiled else None),
    }

