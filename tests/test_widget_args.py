"""Widgets refuse odd arguments with a luckylab error, free their memory on ``close()`` and
draw boards whose space names look like math markup (issue 15). Driven through controls."""

from __future__ import annotations

import gc
import io
import tracemalloc

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from luckylab.errors import LuckyLabError, OptionError  # noqa: E402
from luckylab.viz import DilemmaLab, FoilLab, SightExplorer, TurnStepper  # noqa: E402
from luckylab.viz.mansion import MansionExplorer  # noqa: E402
from luckylab.viz.panic_widget import PanicWidget  # noqa: E402
from luckylab.viz.ship import ShipStepper  # noqa: E402

ODD = [
    (TurnStepper, {"players": True}),
    (TurnStepper, {"players": 9}),
    (TurnStepper, {"players": 4.0}),
    (TurnStepper, {"seed": -1}),
    (TurnStepper, {"seed": "1"}),
    (TurnStepper, {"history": -5}),
    (TurnStepper, {"game": "chess"}),
    (TurnStepper, {"agents": ["random"]}),
    (TurnStepper, {"agents": "genius"}),
    (TurnStepper, {"game": "kill", "agents": ["ismcts", "cautious", "random", "random"]}),
    (TurnStepper, {"youre_out": "no"}),
    (FoilLab, {"attack": 60}),
    (FoilLab, {"attack": 0}),
    (FoilLab, {"opponents": 0}),
    (FoilLab, {"cards_each": 11}),
    (FoilLab, {"known": 2.5}),
    (FoilLab, {"samples": 0}),
    (FoilLab, {"samples": 10**9}),
    (DilemmaLab, {"attack": 21}),
    (DilemmaLab, {"luck_cost": 1.0}),
    (DilemmaLab, {"luck_cost": float("nan")}),
    (DilemmaLab, {"hands": {}}),
    (DilemmaLab, {"hands": {"A": [1], "B": ["x"]}}),
    (DilemmaLab, {"hands": {"A": [1], "B": [-1]}}),
    (DilemmaLab, {"hands": [1, 2]}),
    (SightExplorer, {"pawns": {}}),
    (SightExplorer, {"pawns": {"Ann": "Nowhere"}}),
    (SightExplorer, {"cat_blocks": "sideways"}),
    (SightExplorer, {"board": 3}),
    (PanicWidget, {"real_seconds": 0}),
    (PanicWidget, {"real_seconds": float("inf")}),
    (PanicWidget, {"clock": "sand"}),
    (PanicWidget, {"players": 0}),
    (PanicWidget, {"seed": -2}),
    (PanicWidget, {"game": "panic"}),
    (ShipStepper, {"players": True}),
    (ShipStepper, {"players": 4.0}),
    (ShipStepper, {"seed": -1}),
    (ShipStepper, {"agents": "nope"}),
    (MansionExplorer, {"board": 5}),
    (MansionExplorer, {"view": "x-ray"}),
    (MansionExplorer, {"room": "Nowhere"}),
]


@pytest.mark.parametrize(("cls", "kwargs"), ODD,
                         ids=[f"{c.__name__}-{k}" for c, k in ODD])
def test_odd_constructor_arguments_raise_a_luckylab_error(cls, kwargs):
    with pytest.raises(LuckyLabError) as info:
        cls(**kwargs)
    assert str(info.value)


def test_out_of_range_arguments_are_refused_not_clamped():
    with pytest.raises(OptionError, match="attack must be a whole number from 1 to 40, not 60"):
        FoilLab(attack=60)
    lab = FoilLab(attack=40)
    assert lab.attack_slider.value == 40


def test_turnstepper_refuses_save_and_panic_and_names_their_widgets():
    with pytest.raises(OptionError, match="ShipStepper"):
        TurnStepper(game="save")
    with pytest.raises(OptionError, match="PanicWidget"):
        TurnStepper(game="panic")
    stepper = TurnStepper(game="kill", seed=2)
    stepper.step_button.click()
    assert len(stepper.game.history) == 1


@pytest.mark.parametrize("cls", [TurnStepper, SightExplorer, FoilLab, DilemmaLab, PanicWidget,
                                 ShipStepper, MansionExplorer])
def test_close_releases_the_widget_and_its_figures(cls, frozen_heap):
    """Constructing and closing a widget keeps (almost) nothing: it kept about 2 MB before."""
    widget = cls()
    widget.close()
    del widget
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(3):
        widget = cls()
        children = list(widget.children)
        widget.close()
        assert all(child.comm is None for child in children)
        del widget, children
    gc.collect()
    kept = (tracemalloc.get_traced_memory()[0] - before) / 3
    tracemalloc.stop()
    assert kept < 400_000, f"{kept / 1e6:.2f} MB kept per construction"


def test_space_names_with_invalid_math_markup_still_draw(tmp_path):
    from luckylab import load_board
    from luckylab.viz.draw import draw_board

    weird = "Cost $\\frac{1}$ Bay"
    path = tmp_path / "b.toml"
    path.write_text(
        'kinds = ["beach"]\nname = "Price $x$ isle"\n'
        '[[spaces]]\nnumber = 1\nname = "Cost $\\\\frac{1}$ Bay"\nkind = "beach"\n'
        'adjacent = ["Two"]\n'
        '[[spaces]]\nnumber = 2\nname = "Two"\nkind = "beach"\n'
        'adjacent = ["Cost $\\\\frac{1}$ Bay"]\n',
        encoding="utf-8")
    board = load_board(path)
    assert weird in board
    drawing = draw_board(board, {"pawns": {"Ann": weird}, "doctor": "Two", "cat": None})
    drawing.fig.savefig(io.BytesIO(), format="png")
    explorer = SightExplorer(board=board, pawns={"Ann": weird}, doctor="Two", cat=None)
    explorer.doctor_picker.value = weird
    explorer.map_figure.savefig(io.BytesIO(), format="png")
    explorer.close()
