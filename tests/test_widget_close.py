"""Closing a widget closes every widget it made (issue 29).

ipywidgets keeps every open widget in a registry until it is closed, so a lesson widget that
leaves a child open leaks it each time its cell runs again. For each of luckylab's widgets: count
the live widgets, build it, use it a little, close it, count again; the counts are equal.
"""

from __future__ import annotations

import gc

import matplotlib

matplotlib.use("Agg")

import ipywidgets as W  # noqa: E402
import pytest  # noqa: E402

from luckylab.analysis.hidden_foil import HiddenFoil  # noqa: E402
from luckylab.viz import (  # noqa: E402
    DilemmaLab,
    FoilLab,
    MansionExplorer,
    PanicWidget,
    SeatView,
    ShipStepper,
    SightExplorer,
    TurnStepper,
)
from luckylab.viz.base import LessonWidget, release  # noqa: E402
from luckylab.viz.hidden_hands import HiddenHandsTable  # noqa: E402

pytestmark = pytest.mark.usefixtures("frozen_heap")  # gc.collect() in every count


def live_widgets() -> int:
    """How many widgets ipywidgets holds open (``Widget.widgets`` before ipywidgets 8)."""
    gc.collect()
    try:
        from ipywidgets.widgets.widget import _instances
    except ImportError:  # ipywidgets 7
        _instances = W.Widget.widgets
    return len(_instances)


def use(widget):
    """Press what can be pressed a few times, so widgets made along the way are counted too."""
    for name in ("step", "play_to_attempt", "refresh", "redraw"):
        method = getattr(widget, name, None)
        if callable(method):
            for _ in range(2):
                method()
            break


WIDGETS = {
    "SightExplorer": lambda: SightExplorer(),
    "TurnStepper": lambda: TurnStepper(players=3, seed=2),
    "FoilLab": lambda: FoilLab(),
    "DilemmaLab": lambda: DilemmaLab(),
    "MansionExplorer": lambda: MansionExplorer(),
    "ShipStepper": lambda: ShipStepper(seed=2),
    "PanicWidget": lambda: PanicWidget(seed=2),
    "SeatView": lambda: SeatView(seed=2),
    "HiddenHandsTable": lambda: HiddenHandsTable(
        HiddenFoil(attack=3, foilers=2, deck=(0, 1, 2, 3, 4)),
        {(s, (v,)): {"pass": 0, "foil": 1} for s in (0, 1) for v in (3, 4)}, you=2, seed=1),
}


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_closing_a_widget_leaves_no_widget_open(name):
    make = WIDGETS[name]
    before = live_widgets()
    for _ in range(2):
        widget = make()
        assert isinstance(widget, LessonWidget)
        made = live_widgets() - before
        use(widget)
        widget.close()
        del widget
    assert made > 5  # the count sees the widget's children
    assert live_widgets() == before


def test_the_count_sees_a_leak():
    before = live_widgets()
    box = W.VBox([W.HBox([W.Button()])])
    box.close()  # a plain VBox closes itself, not its children
    assert live_widgets() > before
    release(box)  # what LessonWidget.close adds
    assert live_widgets() == before
