"""The measured strength of the look-ahead bots, read from package data.

``benchmarks/search_curve.py`` plays the games and writes ``luckylab/data/search_curve.json``,
the budget curve of the baseline bot ``pimc`` (determinized voting): for a few settings (game,
players, the opponents' bot), Player 1's wins at each search budget (iterations per decision; 0
= the bot the search rolls out with, played as itself), on the same seeded deals.
:func:`load_search_curve` reads it back and checks that every fact is labelled.

``benchmarks/bench_search.py --json`` writes ``luckylab/data/search_strength.json``: one row
per game, player count and opposition (copies of one readable bot, or a mix), the look-ahead
bot's results as Player 1 beside the best readable bot's in the same seat on the same deals;
:func:`load_search_strength` reads it and :func:`strength_rows` gives each row's means, 95 %
intervals and verdict.

>>> data = load_search_curve()
>>> data["source"]
'measured by benchmarks/search_curve.py'
>>> first = data["settings"][0]["points"][0]
>>> first["budget"], first["wins"] <= first["games"] == data["games_per_point"]
(0, True)
>>> row = strength_rows(load_search_strength())[0]
>>> row["low"] <= row["mean"] <= row["high"], row["met"] in (True, False)
(True, True)
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import SearchCurveError

__all__ = ["SearchCurveError", "has_room", "interval", "load_search_curve",
           "load_search_strength", "row_verdict", "strength_rows"]

DATA_FILE = "search_curve.json"
SOURCE = "measured by benchmarks/search_curve.py"
_TOP = ("source", "command", "luckylab_version", "commit", "seed", "games_per_point",
        "settings")
_SETTING = ("game", "players", "opponent", "rollout_bot", "search_settings", "points")
_POINT = ("budget", "games", "wins", "seed")
STRENGTH_FILE = "search_strength.json"
STRENGTH_SOURCE = "measured by benchmarks/bench_search.py"
_STRENGTH_TOP = ("source", "command", "luckylab_version", "commit", "date", "bot", "seeds",
                 "searcher", "rows")
_ROW = ("game", "players", "opponents", "metric", "games", "total", "total_sq",
        "best_readable", "best_total", "best_total_sq", "iterations", "searched", "simulations",
        "search_cpu_s", "max_decision_cpu_s")
_METRICS = ("win", "team score")


def _read(path: str | Path | None, name: str, script: str) -> tuple[Any, str]:
    where = f"luckylab/data/{name}" if path is None else str(path)
    try:
        if path is None:
            text = (resources.files("luckylab") / "data" / name).read_text("utf-8")
        else:
            text = Path(path).read_text("utf-8")
        return json.loads(text), where
    except (OSError, ValueError) as exc:
        raise SearchCurveError(f"cannot read {where}: {exc}; regenerate it with {script}"
                               ) from None


def load_search_curve(path: str | Path | None = None) -> dict[str, Any]:
    """The measured curve: the bundled ``search_curve.json`` or the file at ``path``.

    Raises :class:`SearchCurveError` naming the missing label when a fact is not labelled (its
    source, version, commit, seed, games or wins), or when wins exceed games.
    """
    data, where = _read(path, DATA_FILE, "benchmarks/search_curve.py")
    _require(data, _TOP, where)
    if data["source"] != SOURCE:
        raise SearchCurveError(f"{where}: source is {data['source']!r}, not {SOURCE!r}")
    for i, setting in enumerate(data["settings"]):
        _require(setting, _SETTING, f"{where} setting {i}")
        for j, point in enumerate(setting["points"]):
            here = f"{where} setting {i} point {j}"
            _require(point, _POINT, here)
            if not 0 <= point["wins"] <= point["games"]:
                raise SearchCurveError(f"{here}: {point['wins']} wins in {point['games']} "
                                       "games; wins must lie between 0 and the games")
    return data


def load_search_strength(path: str | Path | None = None) -> dict[str, Any]:
    """The measured strength table: the bundled ``search_strength.json`` or the file at ``path``.

    Each row: ``game``, ``players``, ``opponents`` (a readable bot's name, or ``"mix"``), the
    ``metric`` (``"win"``, or ``"team score"`` in Panic Island!, the score as a share of the
    best), the look-ahead bot's ``total`` (and ``total_sq``, the sum of squares) over ``games``
    as Player 1, and ``best_readable``, the readable bot with the highest total in the same seat
    on the same deals (``best_total``, ``best_total_sq``); the budget (``iterations``) and the
    search's cost. Raises :class:`SearchCurveError` when a fact is not labelled or a total does
    not fit its games.
    """
    data, where = _read(path, STRENGTH_FILE, "benchmarks/bench_search.py --json")
    _require(data, _STRENGTH_TOP, where)
    if data["source"] != STRENGTH_SOURCE:
        raise SearchCurveError(f"{where}: source is {data['source']!r}, not {STRENGTH_SOURCE!r}")
    if not isinstance(data["rows"], list) or not data["rows"]:
        raise SearchCurveError(f"{where}: rows must be a non-empty list of measured rows")
    for i, row in enumerate(data["rows"]):
        here = f"{where} row {i}"
        _require(row, _ROW, here)
        if row["metric"] not in _METRICS:
            raise SearchCurveError(f"{here}: metric is {row['metric']!r}, not one of "
                                   f"{', '.join(_METRICS)}")
        games = row["games"]
        if not (isinstance(games, int) and games > 0):
            raise SearchCurveError(f"{here}: games is {games!r}; a whole number above 0")
        for total, sq in (("total", "total_sq"), ("best_total", "best_total_sq")):
            t, t2 = row[total], row[sq]
            if not (isinstance(t, (int, float)) and isinstance(t2, (int, float))
                    and 0 <= t2 <= t + 1e-6 and t <= games + 1e-6):
                raise SearchCurveError(f"{here}: {total} {t!r} and {sq} {t2!r} in {games} "
                                       "games; each game scores between 0 and 1")
    return data


def interval(total: float, total_sq: float, games: int, metric: str = "win",
             z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of a mean of ``games`` results in [0, 1] that sum to ``total`` (their
    squares to ``total_sq``): Wilson's score interval for wins, the normal interval
    ``mean +- z * sd / sqrt(games)`` for a score (clipped to [0, 1]).

    >>> [round(x, 3) for x in interval(0, 0, 7)]      # 0 wins in 7
    [0.0, 0.354]
    >>> [round(x, 3) for x in interval(30, 25, 40, "team score")]
    [0.672, 0.828]
    """
    if games <= 0:
        return 0.0, 1.0
    p = total / games
    if metric == "win":
        centre = (p + z * z / (2 * games)) / (1 + z * z / games)
        half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (
            1 + z * z / games)
    else:
        variance = max(total_sq / games - p * p, 0.0) * games / max(games - 1, 1)
        centre, half = p, z * math.sqrt(variance / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def row_verdict(row: dict[str, Any]) -> str:
    """``"yes"`` when the searcher's 95 % interval lies wholly above the best readable bot's
    (the target of issue 24), ``"no"`` otherwise; ``"no (no room)"`` when not even a searcher
    that won every game could be clearly ahead (:func:`has_room`)."""
    lo, _ = interval(row["total"], row["total_sq"], row["games"], row["metric"])
    _, best_hi = interval(row["best_total"], row["best_total_sq"], row["games"], row["metric"])
    if lo > best_hi:
        return "yes"
    return "no" if has_room(row) else "no (no room)"


def has_room(row: dict[str, Any]) -> bool:
    """Whether a look-ahead bot *could* be clearly ahead in ``row``: a win-rate row where even
    winning all of its games gives an interval that still overlaps the best readable bot's
    (a rule that already wins 98 % or more of 400 games) has no room. A team-score row always
    has room (no score is a ceiling there).

    >>> has_room({"games": 400, "metric": "win", "best_total": 396, "best_total_sq": 396})
    False
    >>> has_room({"games": 400, "metric": "win", "best_total": 380, "best_total_sq": 380})
    True
    """
    if row["metric"] != "win":
        return True
    n = row["games"]
    best_hi = interval(row["best_total"], row["best_total_sq"], n, "win")[1]
    return interval(n, n, n, "win")[0] > best_hi


def strength_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of a strength table with their means, intervals and verdicts: ``mean``,
    ``low``, ``high`` (the look-ahead bot), ``best_mean``, ``best_low``, ``best_high`` (the
    best readable bot in the same seat), ``met`` (the intervals do not overlap, the searcher
    above), ``room`` (:func:`has_room`) and ``cpu_ms`` (mean CPU milliseconds per searched
    decision)."""
    out = []
    for row in data["rows"]:
        n, metric = row["games"], row["metric"]
        lo, hi = interval(row["total"], row["total_sq"], n, metric)
        blo, bhi = interval(row["best_total"], row["best_total_sq"], n, metric)
        out.append({**row, "mean": row["total"] / n, "low": lo, "high": hi,
                    "best_mean": row["best_total"] / n, "best_low": blo, "best_high": bhi,
                    "met": lo > bhi, "room": has_room(row),
                    "cpu_ms": 1000 * row["search_cpu_s"] / max(row["searched"], 1)})
    return out


def _require(item: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(item, dict):
        raise SearchCurveError(f"{where}: expected a table with {', '.join(keys)}")
    missing = [k for k in keys if k not in item]
    if missing:
        raise SearchCurveError(f"{where}: missing {', '.join(missing)} (every fact says where "
                               "it comes from)")
