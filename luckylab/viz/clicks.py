"""Clickable maps: which space a mouse event on a map picture points at.

A widget shows its map as PNG bytes in an ``ipywidgets.Image`` and listens to it with
``ipyevents.Event``. A click arrives as a dict of browser coordinates; :class:`ClickMap` turns
it into a space of the board, using the same matplotlib transform that painted the picture,
so what is under the pointer is what gets picked. The island's spaces are discs (the nearest
centre within reach of the pointer); the geometry boards' spaces are rectangles.

This module owns no drawing and no rules: it reads an ``Axes`` that has been painted once
(after the first frame the layout is frozen, see :mod:`luckylab.viz.blit`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from ..boards.board import Board

__all__ = ["BoxClicks", "ClickMap", "attach_clicks", "event_pixel"]


def event_pixel(event: Mapping[str, Any], natural: tuple[int, int]) -> tuple[float, float] | None:
    """Where ``event`` (an ipyevents mouse event dict) points, in the picture's own pixels.

    ipyevents adds ``dataX``/``dataY`` (already in the image's natural pixels) for an
    ``ipywidgets.Image``; otherwise ``relativeX``/``relativeY`` are scaled by the natural size
    over the displayed size (``boundingRectWidth``/``boundingRectHeight``). Returns None for an
    event without coordinates.

    >>> event_pixel({"relativeX": 50, "relativeY": 20, "boundingRectWidth": 400,
    ...              "boundingRectHeight": 300}, natural=(800, 600))
    (100.0, 40.0)
    >>> event_pixel({"dataX": 7, "dataY": 9, "relativeX": 1, "relativeY": 1}, (800, 600))
    (7.0, 9.0)
    """
    if "dataX" in event and "dataY" in event:
        return float(event["dataX"]), float(event["dataY"])
    try:
        x, y = float(event["relativeX"]), float(event["relativeY"])
    except (KeyError, TypeError, ValueError):
        return None
    width = float(event.get("boundingRectWidth") or natural[0])
    height = float(event.get("boundingRectHeight") or natural[1])
    if width <= 0 or height <= 0:
        return None
    return x * natural[0] / width, y * natural[1] / height


class ClickMap:
    """Pixel <-> space for one painted map.

    Parameters
    ----------
    board
        The board drawn in ``ax``.
    ax
        The axes the board is drawn in (data coordinates are the board's ``pos`` or, for a
        geometry board, its rectangles).
    spaces
        The spaces that can be clicked (default: all of the board's).

    Examples
    --------
    >>> from luckylab import load_board
    >>> from luckylab.viz.draw import draw_board, new_figure
    >>> board = load_board("isla-fortuna")
    >>> drawing = draw_board(board, ax=new_figure().add_subplot())
    >>> _ = drawing.render_png()              # paint once: the layout is now frozen
    >>> clicks = ClickMap(board, drawing.ax)
    >>> x, y = clicks.pixel_of("Frog Pond")
    >>> clicks.space_at({"dataX": x, "dataY": y})
    'Frog Pond'
    """

    def __init__(self, board: Board, ax: Any, spaces: Any = None) -> None:
        self.board = board
        self.ax = ax
        self.spaces = tuple(board.spaces if spaces is None else spaces)
        geometry = getattr(board, "geometry", None)
        self.rects = getattr(geometry, "rects", None) or None

    @property
    def natural(self) -> tuple[int, int]:
        """The picture's size in pixels (width, height), as the PNG is painted."""
        bbox = self.ax.figure.bbox
        return round(bbox.width), round(bbox.height)

    def _centre(self, space: str) -> tuple[float, float]:
        if self.rects is not None:
            return self.rects[space].center
        return self.board.space(space).pos

    def pixel_of(self, space: str) -> tuple[float, float]:
        """The picture pixel (x right, y down) at the centre of ``space``."""
        self.board.check(space)
        x, y = self.ax.transData.transform(self._centre(space))
        return float(x), float(self.natural[1] - y)

    def space_at(self, event: Mapping[str, Any]) -> str | None:
        """The space under an ipyevents mouse event, or None (a click on the sea or a wall)."""
        pixel = event_pixel(event, self.natural)
        if pixel is None:
            return None
        px, py = pixel
        x, y = self.ax.transData.inverted().transform((px, self.natural[1] - py))
        if self.rects is not None:
            for space in self.spaces:
                r = self.rects[space]
                if r.x0 <= x <= r.x1 and r.y0 <= y <= r.y1:
                    return space
            return None
        # Discs: the nearest centre, if the pointer is within half a typical spacing of it.
        best, best_d = None, math.inf
        for space in self.spaces:
            sx, sy = self.board.space(space).pos
            d = math.hypot(sx - x, sy - y)
            if d < best_d:
                best, best_d = space, d
        return best if best_d <= self._reach() else None

    def _reach(self) -> float:
        reach = getattr(self, "_reach_cache", None)
        if reach is None:
            points = [self.board.space(s).pos for s in self.board.spaces]
            gaps = sorted(min(math.dist(p, q) for q in points if q is not p) for p in points) \
                if len(points) > 1 else [1.0]
            reach = self._reach_cache = 0.5 * gaps[len(gaps) // 2]
        return reach


class BoxClicks:
    """Pixel <-> thing for a picture without a board (Doctor Who's table): named rectangles in
    the data coordinates of ``ax``, set anew each time the picture is drawn.

    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(4, 2), dpi=50)
    >>> ax = fig.add_axes((0, 0, 1, 1)); _ = ax.set_xlim(0, 4); _ = ax.set_ylim(0, 2)
    >>> clicks = BoxClicks(ax)
    >>> clicks.boxes = {"card:7": (1.0, 0.0, 2.0, 1.0)}
    >>> clicks.pixel_of("card:7")
    (75.0, 75.0)
    >>> clicks.space_at({"dataX": 75, "dataY": 75}), clicks.space_at({"dataX": 5, "dataY": 5})
    ('card:7', None)
    """

    def __init__(self, ax: Any) -> None:
        self.ax = ax
        self.boxes: dict[str, tuple[float, float, float, float]] = {}

    @property
    def natural(self) -> tuple[int, int]:
        """The picture's size in pixels (width, height), as the PNG is painted."""
        bbox = self.ax.figure.bbox
        return round(bbox.width), round(bbox.height)

    def pixel_of(self, key: str) -> tuple[float, float]:
        """The picture pixel (x right, y down) at the centre of the box ``key``."""
        x0, y0, x1, y1 = self.boxes[key]
        x, y = self.ax.transData.transform(((x0 + x1) / 2, (y0 + y1) / 2))
        return float(x), float(self.natural[1] - y)

    def space_at(self, event: Mapping[str, Any]) -> str | None:
        """The key of the box under an ipyevents mouse event, or None (the last box drawn wins
        where two overlap)."""
        pixel = event_pixel(event, self.natural)
        if pixel is None:
            return None
        x, y = self.ax.transData.inverted().transform((pixel[0], self.natural[1] - pixel[1]))
        hit = None
        for key, (x0, y0, x1, y1) in self.boxes.items():
            if x0 <= x <= x1 and y0 <= y <= y1:
                hit = key
        return hit


def attach_clicks(image: Any, on_click: Callable[[Mapping[str, Any]], None],
                  on_hover: Callable[[Mapping[str, Any]], None] | None = None) -> list[Any]:
    """Listen to clicks (and, optionally, pointer moves) on an ``ipywidgets.Image``.

    Returns the ``ipyevents.Event`` listeners (keep a reference, or the browser stops
    sending); an empty list where ipyevents is not installed (the dropdowns still work then).
    Clicks have a listener of their own: pointer moves are throttled, clicks never are.
    """
    try:
        from ipyevents import Event
    except ImportError:  # pragma: no cover - ipyevents is a dependency
        return []
    clicks = Event(source=image, watched_events=["click"], prevent_default_action=True)
    clicks.on_dom_event(on_click)
    listeners = [clicks]
    if on_hover is not None:
        moves = Event(source=image, watched_events=["mousemove"],
                      throttle_or_debounce="throttle", wait=150)
        moves.on_dom_event(on_hover)
        listeners.append(moves)
    return listeners
