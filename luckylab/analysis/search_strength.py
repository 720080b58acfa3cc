"""The measured strength of the look-ahead bot (lesson 11), read from package data.

``benchmarks/search_curve.py`` plays the games and writes ``luckylab/data/search_curve.json``:
for a few settings (game, players, the opponents' bot), Player 1's wins at each search budget
(iterations per decision; 0 = the bot the search rolls out with, played as itself), on the same
seeded deals. :func:`load_search_curve` reads it back and checks that every fact is labelled.
``benchmarks/bench_search.py --json`` writes ``luckylab/data/search_strength.json``: one row
per opposition (three copies of one readable bot, or a mix), the look-ahead bot's wins as
Player 1 beside the best readable bot's wins in the same seat on the same deals;
:func:`load_search_strength` reads it.

>>> data = load_search_curve()
>>> data["source"]
'measured by benchmarks/search_curve.py'
>>> first = data["settings"][0]["points"][0]
>>> first["budget"], first["wins"] <= first["games"] == data["games_per_point"]
(0, True)
>>> row = load_search_strength()["rows"][0]
>>> row["wins"] <= row["games"], row["best_wins"] <= row["best_games"]
(True, True)
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import LuckyLabError

__all__ = ["SearchCurveError", "load_search_curve", "load_search_strength"]

DATA_FILE = "search_curve.json"
SOURCE = "measured by benchmarks/search_curve.py"
_TOP = ("source", "command", "luckylab_version", "commit", "seed", "games_per_point",
        "settings")
_SETTING = ("game", "players", "opponent", "rollout_bot", "search_settings", "points")
_POINT = ("budget", "games", "wins", "seed")
STRENGTH_FILE = "search_strength.json"
STRENGTH_SOURCE = "measured by benchmarks/bench_search.py"
_STRENGTH_TOP = ("source", "command", "luckylab_version", "commit", "seeds", "iterations", "rows")
_ROW = ("game", "players", "opponents", "games", "wins", "best_readable", "best_games",
        "best_wins")


class SearchCurveError(LuckyLabError, ValueError):
    """A search-curve file that is missing, unreadable or not labelled as measured."""


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
    look-ahead bot's ``wins`` in ``games`` as Player 1, and ``best_readable``, the readable bot
    that won most (``best_wins`` of ``best_games``) in the same seat on the same deals. Raises
    :class:`SearchCurveError` when a fact is not labelled or wins exceed games.
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
        for wins, games in (("wins", "games"), ("best_wins", "best_games")):
            if not (isinstance(row[wins], int) and isinstance(row[games], int)
                    and 0 <= row[wins] <= row[games]):
                raise SearchCurveError(f"{here}: {row[wins]!r} {wins} in {row[games]!r} {games};"
                                       " both must be whole numbers, wins between 0 and games")
    return data


def _require(item: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(item, dict):
        raise SearchCurveError(f"{where}: expected a table with {', '.join(keys)}")
    missing = [k for k in keys if k not in item]
    if missing:
        raise SearchCurveError(f"{where}: missing {', '.join(missing)} (every fact says where "
                               "it comes from)")
