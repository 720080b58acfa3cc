"""Plots of a class tournament (:mod:`luckylab.tournament`): ratings with their uncertainty, and
wins by seat. Colour-blind-safe (:mod:`luckylab.viz.style`): reference bots and student bots
differ by marker and line style as well as colour. Each plot has a ``describe_...`` twin that
says in words what it shows (alt text for :func:`luckylab.viz.figures.show`).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from luckylab.tournament import run
>>> result = run([], game="kill", players=3, games=6, seed=1, progress=False)
>>> ax = plot_ratings(result)
>>> ax.get_xlabel()
'rating (mu, bar: mu ± 2 sigma)'
>>> describe_seats(result).startswith("Wins by seat")
True
>>> import matplotlib.pyplot as plt; plt.close("all")
"""

from __future__ import annotations

from typing import Any

from ..errors import OptionError
from .style import decorate, series

__all__ = ["describe_ratings", "describe_seats", "plot_ratings", "plot_seats"]


def _axes(ax: Any, height: float = 4.0) -> Any:
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, height))
    return ax


def _check(result: Any) -> None:
    if not (hasattr(result, "leaderboard") and hasattr(result, "by_seat")):
        raise OptionError(f"plot a TournamentResult (from luckylab.tournament.run), not "
                          f"{type(result).__name__}")


def plot_ratings(result: Any, ax: Any = None) -> Any:
    """Each bot's rating, best at the top, with a bar from mu - 2 sigma to mu + 2 sigma: bots
    whose bars overlap may not really differ in skill. Returns the axes."""
    _check(result)
    rows = result.leaderboard()
    ax = _axes(ax, max(2.5, 0.35 * len(rows) + 1))
    y = list(range(len(rows)))[::-1]
    for kind, label in ((False, "student bot"), (True, "reference bot")):
        picked = [(yy, r) for yy, r in zip(y, rows, strict=True) if r["reference"] is kind]
        if not picked:
            continue
        style = series(1 if kind else 0)
        ax.errorbar([r["rating"] for _, r in picked], [yy for yy, _ in picked],
                    xerr=[[2 * r["rating_sigma"] for _, r in picked]] * 2,
                    color=style["color"], marker=style["marker"], linestyle="none",
                    capsize=3, label=label)
    ax.set_yticks(y)
    ax.set_yticklabels([r["bot"] for r in rows])
    decorate(ax, title=f"Ratings after {result.games} games",
             xlabel="rating (mu, bar: mu ± 2 sigma)", ylabel="bot")
    return ax


def plot_seats(result: Any, ax: Any = None, bot: str | None = None) -> Any:
    """Win rate by seat (seats numbered from 1) with Wilson 95 % intervals, for all bots
    together or for one ``bot``; the dashed line is one win in ``players`` games. Returns the
    axes."""
    _check(result)
    if bot is not None and bot not in {r["bot"] for r in result.leaderboard()}:
        raise OptionError(f"no bot {bot!r} in this tournament")
    rows = [r for r in result.by_seat() if r["bot"] == bot]
    ax = _axes(ax)
    style = series(0)
    seats = [r["seat"] for r in rows]
    rates = [r["win_rate"] for r in rows]
    low = [max(0.0, r["win_rate"] - r["win_low"]) for r in rows]
    high = [max(0.0, r["win_high"] - r["win_rate"]) for r in rows]
    ax.bar(seats, rates, color=style["color"], alpha=0.8, label="win rate")
    ax.errorbar(seats, rates, yerr=[low, high], color="black", linestyle="none", capsize=4,
                label="95% interval")
    ax.axhline(1 / result.players, color=series(1)["color"], linestyle="--",
               label=f"1 in {result.players}")
    ax.set_xticks(seats)
    who = "all bots" if bot is None else bot
    decorate(ax, title=f"Wins by seat ({who})", xlabel="seat", ylabel="win rate")
    return ax


def describe_ratings(result: Any) -> str:
    """The ratings plot in words (alt text)."""
    _check(result)
    rows = result.leaderboard()
    parts = [f"{r['bot']} {r['rating']:.1f} (± {2 * r['rating_sigma']:.1f})" for r in rows]
    return f"Ratings after {result.games} games, best first: " + "; ".join(parts) + "."


def describe_seats(result: Any, bot: str | None = None) -> str:
    """The seats plot in words (alt text)."""
    _check(result)
    rows = [r for r in result.by_seat() if r["bot"] == bot]
    parts = [f"seat {r['seat']} {r['win_rate']:.0%} ({r['win_low']:.0%} to {r['win_high']:.0%})"
             for r in rows]
    who = "all bots" if bot is None else bot
    return (f"Wins by seat for {who}: " + "; ".join(parts)
            + f". One win in {result.players} games would be {1 / result.players:.0%}.")
