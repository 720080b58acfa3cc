"""Pictures and widgets for the lessons: :mod:`luckylab.viz.draw` and :mod:`luckylab.viz.widgets`.

``import luckylab`` never imports this package (it needs matplotlib, and the widgets need
ipywidgets); notebooks import it explicitly::

    from luckylab.viz import draw_board, SightExplorer

Names load on first use, so ``from luckylab.viz import draw_board`` does not import ipywidgets.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "BoardDrawing",
    "DilemmaLab",
    "FoilLab",
    "Scene",
    "SightExplorer",
    "TurnStepper",
    "draw_board",
    "draw_sight_matrix",
    "scene_of",
]

_WHERE = {
    "BoardDrawing": "draw",
    "Scene": "draw",
    "draw_board": "draw",
    "draw_sight_matrix": "draw",
    "scene_of": "draw",
    "SightExplorer": "widgets",
    "TurnStepper": "widgets",
    "FoilLab": "widgets",
    "DilemmaLab": "widgets",
}


def __getattr__(name: str) -> Any:
    try:
        module = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module 'luckylab.viz' has no attribute {name!r}") from None
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(__all__)
