"""The volunteer's dilemma of one foiling round: who should pay, and who ends up paying
(:class:`DilemmaLab`, lesson 5).
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as W

from ..errors import OptionError
from .args import number, whole
from .base import LessonWidget, html_table, show_figure
from .draw import (
    new_figure,
)

__all__ = ["DilemmaLab"]


class DilemmaLab(LessonWidget):
    """The volunteer's dilemma of one foiling round: who should pay, and who ends up paying.

    Type each opponent's cards as Luck values ("2, 1, 0"), pick the asking order (from the
    attacker's left, ``I-FOIL-1``) and the attack value; the lab asks
    :func:`luckylab.analysis.dilemma.solve_foil_round` for the subgame-perfect plan (open hands, one
    round, each Luck point spent costs ``luck_cost``; see :mod:`luckylab.analysis.dilemma` for the
    model) and shows who pays, whether the attempt is foiled, and the ``I-FOIL-3`` loser.

    ``plan`` is the latest :class:`luckylab.analysis.dilemma.FoilPlan`, ``order`` the seating as
    names, ``seatings`` (with "every seating" ticked) one row per order from
    :func:`luckylab.analysis.dilemma.seat_order_effect`.

    Examples
    --------
    Worked example 6 of the Island rules: Luck 2, 0 and 5 against an attack of 4.

    >>> lab = DilemmaLab(attack=4, hands={"Janet": [2], "Sara": [0], "Simaon": [5]})
    >>> lab.plan.foiled, [lab.order[s] for s in lab.plan.payers]
    (True, ['Simaon'])
    """

    def __init__(self, attack: int = 4, hands: Mapping[str, Sequence[int]] | None = None,
                 luck_cost: float = 0.01) -> None:
        from ..analysis import dilemma as theory

        self._theory = theory
        if hands is None:
            hands = {"Janet": [2], "Sara": [0], "Simaon": [5]}
        whole("attack", attack, 1, 20, "DilemmaLab")
        number("luck_cost", luck_cost, 0.0, 0.25, "DilemmaLab")
        if not isinstance(hands, Mapping) or not all(
                isinstance(k, str) and isinstance(v, (list, tuple))
                and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v)
                for k, v in hands.items()):
            raise OptionError(f"DilemmaLab: hands must map names to lists of Luck values "
                              f"(whole numbers >= 0), not {hands!r}")
        if not 2 <= len(hands) <= 5:
            raise OptionError(f"DilemmaLab seats 2 to 5 opponents, not {len(hands)}")
        self.names = list(hands)
        wide = {"style": {"description_width": "110px"}, "layout": W.Layout(width="330px")}
        self.attack_slider = W.IntSlider(value=attack, min=1, max=20, description="attack value",
                                         continuous_update=False, **wide)
        self.cost_slider = W.FloatSlider(value=luck_cost, min=0.0, max=0.25, step=0.01,
                                         description="cost of 1 Luck", readout_format=".2f",
                                         continuous_update=False, **wide)
        self.hand_boxes = {
            name: W.Text(value=", ".join(str(v) for v in hand), description=name,
                         placeholder="Luck of each card, e.g. 2, 1", continuous_update=False,
                         **wide)
            for name, hand in hands.items()
        }
        orders = [(" \u2192 ".join(p), p) for p in itertools.permutations(self.names)]
        self.order_picker = W.Dropdown(options=orders, value=tuple(self.names),
                                       description="asking order", **wide)
        self.all_orders_box = W.Checkbox(value=False, description="every seating",
                                         indent=False)
        self.answer = W.HTML()
        self.path_view = W.HTML()
        self.strategy_view = W.HTML()
        self.seatings_view = W.HTML()
        self.output = W.Output()
        self.figure = new_figure(5.5, 2.8)
        self.ax = self.figure.add_subplot()
        self.plan: Any = None
        self.seatings: list[dict[str, Any]] = []
        for widget in [self.attack_slider, self.cost_slider, *self.hand_boxes.values(),
                       self.order_picker, self.all_orders_box]:
            widget.observe(lambda _: self.refresh(), names="value")
        super().__init__([
            W.HBox([W.VBox([self.attack_slider, self.cost_slider, self.order_picker,
                            self.all_orders_box]),
                    W.VBox([W.HTML("<b>cards (Luck values)</b>"),
                            *self.hand_boxes.values()])]),
            self.answer,
            W.HBox([self.output, W.VBox([self.path_view, self.strategy_view])]),
            self.seatings_view,
        ])
        self.refresh()

    @property
    def order(self) -> list[str]:
        """The asking order, as names (plan seat ``k`` is ``order[k]``)."""
        return list(self.order_picker.value)

    def hands(self) -> dict[str, list[int]]:
        """Each name's Luck values, read from the text boxes (``ValueError`` if unreadable)."""
        out = {}
        for name, box in self.hand_boxes.items():
            text = box.value.replace(";", ",").strip()
            try:
                out[name] = [int(v) for v in text.replace(",", " ").split()]
            except ValueError:
                raise OptionError(f"{name}'s cards must be whole Luck values like '2, 1', "
                                 f"not {box.value!r}") from None
            if any(v < 0 for v in out[name]):
                raise OptionError(f"{name}'s cards: Luck is never negative")
        return out

    def refresh(self) -> None:
        theory = self._theory
        try:
            hands = self.hands()
        except ValueError as exc:
            self.plan = None
            self.answer.value = f"<b style='color:#D55E00'>{html.escape(str(exc))}</b>"
            return
        order = self.order
        attack = self.attack_slider.value
        cost = round(self.cost_slider.value, 2)
        plan = theory.solve_foil_round(attack, [hands[n] for n in order], luck_cost=cost)
        self.plan = plan
        if plan.foiled:
            payers = ", ".join(f"{order[s]} ({plan.paid[s]} Luck)" for s in plan.payers)
            verdict = f"<b>Foiled.</b> Who pays: {html.escape(payers)}."
        else:
            loser = "nobody could have stopped it" if plan.loser is None else \
                f"{order[plan.loser]} could have covered it and is the loser (I-FOIL-3)"
            verdict = f"<b>The attacker wins</b>: {html.escape(loser)}."
        total = sum(sum(h) for h in hands.values())
        self.answer.value = (f"Attack {attack}; the table holds {total} Luck. {verdict}")
        self.path_view.value = "<b>the plan, seat by seat</b>" + html_table(
            ["asked", "still needed", "holds", "does"],
            [[order[st.seat], st.need, st.held,
              f"discards {list(st.cards)}" if st.discard else "passes"] for st in plan.path]
            + [[order[k], "-", sum(hands[order[k]]), "not asked"]
               for k in range(len(plan.path), len(order))])
        needs = list(range(1, attack + 1))
        self.strategy_view.value = (
            "<b>the full plan</b>: Luck each would discard if asked with this much still "
            "needed" + html_table(["", *map(str, needs)],
                              [[order[s], *(plan.strategy[s].get(n, 0) for n in needs)]
                               for s in range(len(order))]))
        if self.all_orders_box.value:
            self.seatings = theory.seat_order_effect(attack, [hands[n] for n in self.names],
                                                     names=self.names, luck_cost=cost)
            self.seatings_view.value = "<b>every seating</b>" + html_table(
                ["asking order", "who pays", "foiled?", "loser"],
                [[" \u2192 ".join(r["order"]),
                  ", ".join(f"{n} ({r['paid'][n]})" for n in r["payers"]) or "nobody",
                  "yes" if r["foiled"] else "no", r["loser"] or "-"] for r in self.seatings])
        else:
            self.seatings = []
            self.seatings_view.value = ""
        self._draw(order, hands, attack)

    def _draw(self, order: list[str], hands: dict[str, list[int]], attack: int) -> None:
        ax = self.ax
        ax.clear()
        held = [sum(hands[n]) for n in order]
        paid = [self.plan.paid.get(k, 0) for k in range(len(order))]
        xs = range(len(order))
        ax.bar(xs, held, color="#BBBBBB", label="Luck held")
        self.paid_bars = ax.bar(xs, paid, color="#0072B2", label="Luck discarded")
        ax.axhline(attack, color="#D55E00", linestyle="--", label=f"attack {attack}")
        ax.set_xticks(list(xs), order)
        ax.set_ylabel("Luck")
        ax.set_title("asking order \u2192", fontsize=9, loc="left")
        ax.legend(fontsize=7, loc="upper left")
        show_figure(self.output, self.figure)
