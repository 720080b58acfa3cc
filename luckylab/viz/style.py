"""One figure style for every lesson: readable axes, colour-blind-safe series, projector mode.

Every lesson figure goes through :func:`decorate` (title, axis labels, a legend only for what
is drawn) and draws its series with :func:`series` (Okabe-Ito colours, each with its own line
style and marker, so no two series differ by colour alone). :func:`use` applies the lesson
style to matplotlib; ``use(projector=True)`` makes every font at least 14 pt for a classroom
projector.

A figure's caption is a one-sentence markdown cell right under it ("*Figure: ...*"); widgets
put the same sentence in their image's tooltip.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> from luckylab.viz.style import decorate, series, use
>>> use()
>>> fig, ax = plt.subplots()
>>> _ = ax.plot([1, 2, 3], [0.2, 0.5, 0.9], label="exact", **series(0))
>>> _ = ax.plot([1, 2, 3], [0.3, 0.4, 0.8], **series(1))        # no label: not in the legend
>>> decorate(ax, title="P(foil) by attack", xlabel="attack", ylabel="P(foil)")
>>> [text.get_text() for text in ax.get_legend().get_texts()]
['exact']
>>> plt.close(fig)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import OptionError

__all__ = [
    "LINESTYLES",
    "MARKERS",
    "OKABE_ITO",
    "PALETTE",
    "decorate",
    "series",
    "style_cycle",
    "use",
]

OKABE_ITO: dict[str, str] = {
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
    "black": "#000000",
}
"""The Okabe-Ito palette (Okabe & Ito 2008), safe for the common colour-vision deficiencies."""

PALETTE: tuple[str, ...] = (
    OKABE_ITO["blue"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["bluish green"],
    OKABE_ITO["orange"],
    OKABE_ITO["reddish purple"],
    OKABE_ITO["sky blue"],
    OKABE_ITO["black"],
    OKABE_ITO["yellow"],
)
"""Series colours in the order lessons use them (yellow last: it is faint on white)."""

LINESTYLES: tuple[Any, ...] = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3)), "-", "--")
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "*")

BASE_FONT = 11
PROJECTOR_FONT = 14


def series(i: int) -> dict[str, Any]:
    """Colour, line style and marker of the ``i``-th series (cycles after eight).

    >>> series(0)["color"], series(1)["linestyle"], series(9)["marker"]
    ('#0072B2', '--', 's')
    """
    if isinstance(i, bool) or not isinstance(i, int) or i < 0:
        raise OptionError(f"series index must be an int >= 0, not {i!r}")
    k = i % len(PALETTE)
    return {"color": PALETTE[k], "linestyle": LINESTYLES[k], "marker": MARKERS[k]}


def style_cycle() -> Iterator[dict[str, Any]]:
    """Endless :func:`series` styles, for loops that draw one series per item."""
    i = 0
    while True:
        yield series(i)
        i += 1


def use(projector: bool = False) -> None:
    """Apply the lesson style to matplotlib (fonts, colour cycle with line styles, grid).

    ``projector=True`` sets every font to at least 14 pt and thicker lines, for a class
    looking at one screen.
    """
    import matplotlib as mpl
    from cycler import cycler

    size = PROJECTOR_FONT if projector else BASE_FONT
    mpl.rcParams.update({
        "font.size": size,
        "axes.titlesize": size + 1,
        "axes.labelsize": size,
        "xtick.labelsize": size - (0 if projector else 1),
        "ytick.labelsize": size - (0 if projector else 1),
        "legend.fontsize": size - (0 if projector else 1),
        "figure.titlesize": size + 2,
        "lines.linewidth": 2.2 if projector else 1.6,
        "lines.markersize": 7 if projector else 5,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.prop_cycle": cycler(color=list(PALETTE)) + cycler(linestyle=list(LINESTYLES)),
    })


def decorate(ax: Any, *, title: str | None = None, xlabel: str | None = None,
             ylabel: str | None = None, legend: bool | None = None, **legend_options: Any) -> None:
    """Title and label ``ax``; add a legend only if something drawn carries a label.

    ``xlabel`` and ``ylabel`` are required unless the axes already have them: an unlabelled
    axis is an error, not a style choice. ``legend=False`` suppresses the legend;
    ``legend=True`` requires one (and fails if nothing drawn has a label).
    """
    if title is not None:
        ax.set_title(title)
    if xlabel is not None:
        ax.set_xlabel(xlabel)
    if ylabel is not None:
        ax.set_ylabel(ylabel)
    if not ax.get_xlabel() or not ax.get_ylabel():
        raise OptionError("label both axes: decorate(ax, xlabel=..., ylabel=...)")
    handles, labels = ax.get_legend_handles_labels()
    if legend is False or (legend is None and not handles):
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        return
    if not handles:
        raise OptionError("legend=True but nothing drawn has a label")
    ax.legend(handles, labels, **legend_options)
