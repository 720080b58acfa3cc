"""What every lesson widget shares: closing everything it owns, and showing a picture.

``ipywidgets`` keeps every open widget alive in its registry (and their callbacks keep the
owner alive), so a widget that is closed but leaves its children open leaks them each time a
cell runs again (issue 29). :class:`LessonWidget` is the base of luckylab's widgets: its
:meth:`~LessonWidget.close` closes every child widget it owns (:func:`release`) and clears its
figures; ``tests/test_widget_close.py`` counts the live widgets before and after.

Pictures are ordinary matplotlib figures rendered to PNG and shown inside an
``ipywidgets.Output`` (no ipympl, so nothing to install on Binder). Each widget draws its map
once and afterwards only moves artists (:meth:`luckylab.viz.draw.BoardDrawing.update`);
``benchmarks/bench_widgets.py`` times a step redraw.

Every widget only *holds and redraws*: the rules live in the engines and the maths in
:mod:`luckylab.analysis`; a widget asks them and shows the answers, so what a student sees is
exactly what the tested engine says. The widgets are ``ipywidgets.VBox`` subclasses: put one at
the end of a cell to show it. In plain Python (tests, scripts) they work too:
``button.click()`` and ``.value = ...`` run the same handlers.
"""

from __future__ import annotations

import html
import io
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as W
from IPython.display import Image, display
from matplotlib.figure import Figure

from ..boards import Board, load_board
from ..errors import OptionError

if TYPE_CHECKING:
    from .draw import BoardDrawing

__all__ = ["LessonWidget", "board_or_name", "figure_png", "html_table", "release", "show_figure",
           "space_label"]


class LessonWidget(W.VBox):
    """The base of luckylab's widgets: ``close()`` closes the widget, every child widget it
    owns and its figures (frees their memory).

    >>> import ipywidgets as W
    >>> box = LessonWidget([W.HBox([W.Button(), W.IntSlider()])])
    >>> box.close()
    >>> [w.comm for w in (box, *box.children, *box.children[0].children)]
    [None, None, None, None]
    """

    def close(self) -> None:
        """Close the widget, its controls and its figures (frees their memory)."""
        release(self)
        super().close()


def release(widget: W.Widget) -> None:
    """Close ``widget``'s child widgets (ipywidgets keeps every open widget alive in its
    registry, and their callbacks keep the owner alive) and clear its matplotlib figures, so
    that re-running a cell does not pile up memory."""
    if sys.meta_path is None:  # called from __del__ while Python shuts down: nothing to free
        return
    seen: set[int] = set()
    stack: list[Any] = [widget]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, W.Widget):
            stack.extend(getattr(item, "children", ()))
            stack.extend(v for v in (getattr(item, "layout", None), getattr(item, "style", None))
                         if isinstance(v, W.Widget))
            if item is not widget:
                item.close()
        if item is widget or not isinstance(item, W.Widget):
            values = vars(item).values() if hasattr(item, "__dict__") else ()
            for value in list(values):
                if isinstance(value, Figure):
                    value.clear()
                elif isinstance(value, W.Widget):
                    stack.append(value)
                elif isinstance(value, (list, tuple)):
                    stack.extend(v for v in value if isinstance(v, W.Widget))
                elif isinstance(value, dict):
                    stack.extend(v for v in value.values() if isinstance(v, W.Widget))


def board_or_name(board: Board | str | None) -> Board:
    """``board``, or the built-in board it names (``None``: the island).

    >>> board_or_name("kill").key
    'kill-doctor-lucky'
    """
    if board is None:
        return load_board("isla-fortuna")
    if not isinstance(board, (str, Board)):
        raise OptionError(f"board must be a Board or a board name, not {board!r}")
    return load_board(board) if isinstance(board, str) else board


def figure_png(fig: Any) -> bytes:
    """Render a figure to PNG bytes (what the inline backend would do, minus the tight-bbox
    second pass, which doubles the cost of every redraw)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=fig.dpi)
    return buffer.getvalue()


def show_figure(output: W.Output, fig: Any, drawing: BoardDrawing | None = None) -> bytes:
    """Render and show a figure in ``output``; returns the PNG bytes.

    Outside IPython (tests, scripts) there is no front end to show it to, so the picture is
    only rendered: ``display`` would print ``<IPython.core.display.Image object>`` instead.
    """
    png = drawing.render_png() if drawing is not None else figure_png(fig)
    from IPython import get_ipython

    if get_ipython() is None:
        return png
    with output:
        output.clear_output(wait=True)
        display(Image(data=png, format="png"))
    return png


def space_label(board: Board, space: str | None) -> str:
    """A space as a player names it: "7, Observatory" (its number first, if it has one).

    >>> space_label(board_or_name("island"), None)
    '-'
    """
    if space is None:
        return "-"
    number = board.number(space)
    return space if number is None else f"{number}, {space}"


def html_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A small HTML table, every cell escaped.

    >>> html_table(["a"], [["<b>"]]).count("&lt;b&gt;")
    1
    """
    head = "".join(f"<th style='text-align:left;padding:2px 8px'>{html.escape(h)}</th>"
                   for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td style='padding:2px 8px'>{html.escape(str(c))}</td>" for c in row)
        + "</tr>" for row in rows)
    return f"<table style='border-collapse:collapse;font-size:90%'><tr>{head}</tr>{body}</table>"
