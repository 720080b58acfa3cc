"""Ratings with uncertainty from the games' finishing orders (OpenSkill's Plackett-Luce model).

Why OpenSkill (the ``openskill`` package) rather than TrueSkill: it rates free-for-all games of
any number of players from their finishing order, with ties, as TrueSkill does, but it is
maintained (releases through 2025-2026), MIT-licensed with no patent or trademark attached
(TrueSkill is Microsoft's), and ships a pure-Python wheel (``py3-none-any``), so it installs on
Binder and in Pyodide/JupyterLite too. (The ``trueskill`` package's last release is from 2018
and comes as a source archive only.)

A rating is a belief about a bot's skill: ``mu`` (its centre) and ``sigma`` (its uncertainty,
shrinking as the bot plays). Every bot starts at mu 25, sigma 25/3. Games are rated one at a
time in the tournament's game order, so the same results give the same ratings.

>>> records = [{"index": 0, "seats": ["a", "b"], "places": [1, 2]},
...            {"index": 1, "seats": ["b", "a"], "places": [2, 1]}]
>>> table = rate(records, ["a", "b"])
>>> table["a"].mu > 25 > table["b"].mu
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import TournamentError

__all__ = ["Rating", "check_available", "rate"]


@dataclass(frozen=True)
class Rating:
    """A bot's rating: ``mu`` the centre, ``sigma`` the uncertainty; ``low``/``high`` the
    range mu ± 2 sigma (about 95 % of the belief)."""

    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise TournamentError(
            "ratings need the openskill package: pip install 'luckylab[tournament]' "
            "(or pip install openskill)") from None
    return PlackettLuce()


def check_available() -> None:
    """TournamentError naming the ``tournament`` extra when ``openskill`` is not installed.

    >>> check_available()
    """
    _model()


def rate(records: Iterable[Mapping[str, Any]], names: Sequence[str]) -> dict[str, Rating]:
    """Each name's :class:`Rating` after the games of ``records`` (``seats``: the names in
    their player positions; ``places``: 1 for first, equal numbers for a tie), rated in the
    order of their ``index``."""
    model = _model()
    current = {name: model.rating(name=name) for name in names}
    for record in sorted(records, key=lambda r: r["index"]):
        seats, places = record["seats"], record["places"]
        teams = [[current[name]] for name in seats]
        rated = model.rate(teams, ranks=list(places))
        for name, team in zip(seats, rated, strict=True):
            current[name] = team[0]
    return {name: Rating(r.mu, r.sigma) for name, r in current.items()}
