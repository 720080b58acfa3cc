"""Pictures and widgets for the lessons.

``import luckylab`` never imports this package (it needs matplotlib, and the widgets need
ipywidgets); notebooks import it explicitly::

    from luckylab.viz import draw_board, SightExplorer

Names load on first use, so ``from luckylab.viz import draw_board`` does not import ipywidgets.

Modules
-------
:mod:`luckylab.viz.draw`
    Any board as a map (:func:`draw_board`: the island's graph, or the rooms of a geometry
    board), the sight matrix.
:mod:`luckylab.viz.base`
    What every widget shares: :class:`~luckylab.viz.base.LessonWidget`, whose ``close()``
    closes every child widget it owns.
:mod:`luckylab.viz.sight_explorer`, :mod:`luckylab.viz.turn_stepper`,
:mod:`luckylab.viz.foil_lab`, :mod:`luckylab.viz.dilemma_lab`
    The Island lessons, one widget each: :class:`SightExplorer`, :class:`TurnStepper`,
    :class:`FoilLab`, :class:`DilemmaLab`.
:mod:`luckylab.viz.play`
    :class:`PlayTable`: play Island, Kill or Save Doctor Lucky against the bots on a clickable
    map (:mod:`luckylab.viz.clicks` turns ipyevents clicks into spaces).
:mod:`luckylab.viz.mansion`, :mod:`luckylab.viz.ship`, :mod:`luckylab.viz.panic_widget`
    Kill Doctor Lucky's mansion (straight-line sight), Save Doctor Lucky's sinking ship, and
    Panic Island!.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

_WHERE = {
    "BoardDrawing": "draw",
    "Scene": "draw",
    "draw_board": "draw",
    "draw_sight_matrix": "draw",
    "scene_of": "draw",
    "SightExplorer": "sight_explorer",
    "TurnStepper": "turn_stepper",
    "FoilLab": "foil_lab",
    "DilemmaLab": "dilemma_lab",
    "MansionExplorer": "mansion",
    "draw_mansion": "mansion",
    "ShipStepper": "ship",
    "draw_ship": "ship",
    "PanicWidget": "panic_widget",
    "SeatView": "doctorwho",
    "PlayTable": "play",
    "ClickMap": "clicks",
    "decorate": "style",
    "show": "figures",
    "figure_bundle": "figures",
    "series": "style",
}

__all__ = sorted(_WHERE)  # resolved lazily by __getattr__


def __getattr__(name: str) -> Any:
    try:
        module = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module 'luckylab.viz' has no attribute {name!r}") from None
    return getattr(_module(module), name)


def _module(name: str) -> ModuleType:
    """The module ``luckylab.viz.<name>``, imported by name (not from a string), so the import
    graph that ``tests/test_layering.py`` reads sees each one."""
    if name == "draw":
        from . import draw as module
    elif name == "sight_explorer":
        from . import sight_explorer as module
    elif name == "turn_stepper":
        from . import turn_stepper as module
    elif name == "foil_lab":
        from . import foil_lab as module
    elif name == "dilemma_lab":
        from . import dilemma_lab as module
    elif name == "mansion":
        from . import mansion as module
    elif name == "ship":
        from . import ship as module
    elif name == "panic_widget":
        from . import panic_widget as module
    elif name == "doctorwho":
        from . import doctorwho as module
    elif name == "play":
        from . import play as module
    elif name == "clicks":
        from . import clicks as module
    elif name == "figures":
        from . import figures as module
    else:
        from . import style as module
    return module


def __dir__() -> list[str]:
    return sorted(__all__)
