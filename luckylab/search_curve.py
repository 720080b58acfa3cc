"""The measured budget-strength curve of the look-ahead bot (lesson 11), read from package data.

``benchmarks/search_curve.py`` plays the games and writes ``luckylab/data/search_curve.json``:
for a few settings (game, players, the opponents' bot), Player 1's wins at each search budget
(iterations per decision; 0 = the bot the search rolls out with, played as itself), on the same
seeded deals. :func:`load_search_curve` reads it back and checks that every fact is labelled.

>>> data = load_search_curve()
>>> data["source"]
'measured by benchmarks/search_curve.py'
>>> first = data["settings"][0]["points"][0]
>>> first["budget"], first["wins"] <= first["games"] == data["games_per_point"]
(0, True)
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import LuckyLabError

__all__ = ["SearchCurveError", "load_search_curve"]

DATA_FILE = "search_curve.json"
SOURCE = "measured by benchmarks/search_curve.py"
_TOP = ("source", "command", "luckylab_version", "commit", "seed", "games_per_point",
        "settings")
_SETTING = ("game", "players", "opponent", "rollout_bot", "search_settings", "points")
_POINT = ("budget", "games", "wins", "seed")


class SearchCurveError(LuckyLabError, ValueError):
    """A search-curve file that is missing, unreadable or not labelled as measured."""


def load_search_curve(path: str | Path | None = None) -> dict[str, Any]:
    """The measured curve: the bundled ``search_curve.json`` or the file at ``path``.

    Raises :class:`SearchCurveError` naming the missing label when a fact is not labelled (its
    source, version, commit, seed, games or wins), or when wins exceed games.
    """
    try:
        if path is None:
            text = (resources.files("luckylab") / "data" / DATA_FILE).read_text("utf-8")
            where = f"luckylab/data/{DATA_FILE}"
        else:
            text = Path(path).read_text("utf-8")
            where = str(path)
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise SearchCurveError(f"cannot read the search curve {where if path is None else path}"
                               f": {exc}; regenerate it with benchmarks/search_curve.py") from None
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


def _require(item: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(item, dict):
        raise SearchCurveError(f"{where}: expected a table with {', '.join(keys)}")
    missing = [k for k in keys if k not in item]
    if missing:
        raise SearchCurveError(f"{where}: missing {', '.join(missing)} (every fact says where "
                               "it comes from)")
