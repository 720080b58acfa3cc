"""The four Island lesson widgets, under the module name they had when they shared one file.

Each now has a module of its own (:mod:`luckylab.viz.sight_explorer`,
:mod:`luckylab.viz.turn_stepper`, :mod:`luckylab.viz.foil_lab`, :mod:`luckylab.viz.dilemma_lab`);
``from luckylab.viz import SightExplorer`` is the way the lessons import them. Nothing inside
luckylab imports this module (``tests/test_layering.py`` checks).
"""

from __future__ import annotations

from .dilemma_lab import DilemmaLab
from .foil_lab import FoilLab
from .sight_explorer import SightExplorer
from .turn_stepper import TurnStepper

__all__ = ["DilemmaLab", "FoilLab", "SightExplorer", "TurnStepper"]
