"""Fast PNG frames for widgets: paint a figure once, then repaint only what moves.

The drawings (:mod:`.draw`, :mod:`.mansion`, :mod:`.ship`) keep one :class:`Painter` each.
The first frame paints the whole figure without the moving artists and keeps that picture;
later frames paste it and paint the moving artists on top, which costs a fraction of a full
repaint. The layout is frozen after the first frame so the kept picture stays valid: a
figure painted this way must hold nothing else that changes.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

__all__ = ["Painter"]


class Painter:
    """Renders one matplotlib figure to PNG bytes, keeping the static background."""

    def __init__(self) -> None:
        self._canvas: Any = None
        self._background: Any = None
        self._key: Hashable = None

    def png(self, fig: Any, moving: Sequence[Any], key: Hashable = None,
            also: Iterable[Any] = ()) -> bytes:
        """One frame of ``fig``: ``moving`` artists over the kept background.

        ``key`` describes what the background shows beyond the static map (a legend, say);
        a new key repaints the background. ``also`` lists still artists painted again on top
        (labels that a moving artist would otherwise cover).
        """
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from PIL import Image

        if self._canvas is None or fig.canvas is not self._canvas:
            self._canvas = FigureCanvasAgg(fig)
            self._background = None
        canvas = self._canvas
        for artist in moving:
            artist.set_animated(True)
        try:
            if self._background is None or key != self._key:
                canvas.draw()  # runs the layout engine once, skipping animated artists
                fig.set_layout_engine("none")
                self._background = canvas.copy_from_bbox(fig.bbox)
                self._key = key
            else:
                canvas.restore_region(self._background)
            renderer = canvas.get_renderer()
            for artist in sorted([*moving, *also], key=lambda a: a.get_zorder()):
                artist.draw(renderer)
        finally:
            for artist in moving:
                artist.set_animated(False)
        width, height = canvas.get_width_height()
        image = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA",
                                 0, 1)
        buffer = io.BytesIO()
        image.save(buffer, format="png", compress_level=1)
        return buffer.getvalue()
