"""How likely is a murder attempt to be foiled? The exact answer, the Luck distribution and a
Monte Carlo check side by side (:class:`FoilLab`, lesson 4).
"""

from __future__ import annotations

import random
from typing import Any

import ipywidgets as W

from .args import whole
from .base import LessonWidget, show_figure
from .draw import (
    new_figure,
)

__all__ = ["FoilLab"]


class FoilLab(LessonWidget):
    """How likely is a murder attempt to be foiled? Exact answer, Luck distribution, Monte Carlo.

    Sliders: the attack value, how many opponents, how many cards each holds, and how many cards
    you have seen (your own hand and the discards; which ones is decided by ``seed``, since
    the Luck of what you have seen changes what is left). ``p_exact`` is
    :func:`luckylab.analysis.luck.p_foil`; ``distribution`` the exact distribution of the table's
    Luck; ``mc_curve`` the Monte Carlo estimate after each batch of deals.

    Examples
    --------
    >>> from luckylab.analysis.luck import p_foil
    >>> lab = FoilLab(attack=12, opponents=2, cards_each=5, known=0)
    >>> lab.p_exact == p_foil(12, [5, 5])
    True
    >>> lab.attack_slider.value = 30
    >>> lab.p_exact < 0.01
    True
    """

    def __init__(self, attack: int = 6, opponents: int = 3, cards_each: int = 6,
                 known: int = 0, samples: int = 2000, seed: int = 1,
                 deck: Any = "island") -> None:
        from ..analysis import luck as probability

        for name, value, low, high in (("attack", attack, 1, 40), ("opponents", opponents, 1, 7),
                                       ("cards_each", cards_each, 0, 10), ("known", known, 0, 30),
                                       ("samples", samples, 100, 20000), ("seed", seed, 0, None)):
            whole(name, value, low, high, "FoilLab")
        self._prob = probability
        self.deck = list(probability.remaining_cards(deck))
        self.seed = seed
        slider = {"continuous_update": False, "style": {"description_width": "150px"},
                  "layout": W.Layout(width="430px")}
        self.attack_slider = W.IntSlider(value=attack, min=1, max=40,
                                         description="attack value", **slider)
        self.opponents_slider = W.IntSlider(value=opponents, min=1, max=7,
                                            description="opponents", **slider)
        self.cards_slider = W.IntSlider(value=cards_each, min=0, max=10,
                                        description="cards each", **slider)
        self.known_slider = W.IntSlider(value=known, min=0, max=30,
                                        description="cards you have seen", **slider)
        self.samples_slider = W.IntSlider(value=samples, min=100, max=20000, step=100,
                                          description="Monte Carlo deals", **slider)
        self.answer = W.HTML()
        self.output = W.Output()
        self.figure = new_figure(10, 3.6)
        self.dist_ax, self.mc_ax = self.figure.subplots(1, 2, width_ratios=[1.2, 1])
        self.p_exact: float = 0.0
        self.distribution: dict[int, float] = {}
        self.mc_curve: list[tuple[int, float]] = []
        self.known_cards: list[Any] = []
        sliders = [self.attack_slider, self.opponents_slider, self.cards_slider,
                   self.known_slider, self.samples_slider]
        for s in sliders:
            s.observe(lambda _: self.refresh(), names="value")
        super().__init__([W.HBox([W.VBox(sliders[:3]), W.VBox(sliders[3:])]), self.answer,
                          self.output])
        self.refresh()

    @property
    def hand_sizes(self) -> list[int]:
        return [self.cards_slider.value] * self.opponents_slider.value

    def refresh(self) -> None:
        prob = self._prob
        attack = self.attack_slider.value
        sizes = self.hand_sizes
        rng = random.Random(self.seed)
        self.known_cards = rng.sample(self.deck, self.known_slider.value)
        unseen = len(self.deck) - len(self.known_cards)
        if sum(sizes) > unseen:
            self.answer.value = (f"<b>Too many cards:</b> {len(sizes)} hands of "
                                 f"{self.cards_slider.value} need {sum(sizes)} cards, but only "
                                 f"{unseen} are unseen. Lower a slider.")
            self.p_exact, self.distribution, self.mc_curve = float("nan"), {}, []
            return
        self.p_exact = float(prob.p_foil(attack, sizes, deck=self.deck, known=self.known_cards))
        self.distribution = {s: float(p) for s, p in prob.luck_distribution(
            self.deck, sum(sizes), known=self.known_cards).items()}
        self.mc_curve = self._monte_carlo(attack, sizes)
        seen_luck = sum(c.luck for c in self.known_cards)
        mc = self.mc_curve[-1][1] if self.mc_curve else float("nan")
        self.answer.value = (
            f"{len(sizes)} opponents with {self.cards_slider.value} cards each hold "
            f"{sum(sizes)} of the {unseen} cards you have not seen"
            + (f" (you have seen {len(self.known_cards)} cards with {seen_luck} Luck)"
               if self.known_cards else "")
            + f". <b>Exact P(they can foil an attack of {attack}) = {self.p_exact:.4f}</b>; "
            f"Monte Carlo after {self.samples_slider.value} deals: {mc:.4f}.")
        self._draw(attack)

    def _monte_carlo(self, attack: int, sizes: list[int]) -> list[tuple[int, float]]:
        """Deal in growing batches from one seeded stream; the running estimate after each."""
        total = self.samples_slider.value
        stream = random.Random(self.seed + 1)
        curve, hits, done, batch = [], 0, 0, 25
        while done < total:
            n = min(batch, total - done)
            est = self._prob.monte_carlo_p_foil(attack, sizes, deck=self.deck,
                                                known=self.known_cards, samples=n, seed=stream)
            hits += est.hits
            done += n
            curve.append((done, hits / done))
            batch *= 2
        return curve

    def _draw(self, attack: int) -> None:
        ax = self.dist_ax
        ax.clear()
        totals = list(self.distribution)
        ps = [self.distribution[s] for s in totals]
        colors = ["#0072B2" if s >= attack else "#BBBBBB" for s in totals]
        self.bars = ax.bar(totals, ps, color=colors, width=0.85)
        ax.axvline(attack - 0.5, color="#D55E00", linewidth=2)
        ax.set_xlabel("Luck the whole table holds")
        ax.set_ylabel("probability")
        ax.set_title(f"blue: enough to foil {attack} (P = {self.p_exact:.3f})", fontsize=10)
        ax = self.mc_ax
        ax.clear()
        if self.mc_curve:
            xs, ys = zip(*self.mc_curve, strict=True)
            p = self.p_exact
            # Where a fair simulation lands 95% of the time: exact +- 2 standard errors.
            spread = [2 * (p * (1 - p) / n) ** 0.5 for n in xs]
            ax.fill_between(xs, [max(0.0, p - s) for s in spread],  # a probability band
                            [min(1.0, p + s) for s in spread],  # stays inside [0, 1]
                            color="#0072B2", alpha=0.15, label="exact \u00b1 2 s.e.")
            ax.plot(xs, ys, marker="o", color="#E69F00", label="Monte Carlo so far")
        ax.axhline(self.p_exact, color="#0072B2", linestyle="--", label="exact")
        ax.set_xscale("log")
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("deals simulated (log scale)")
        ax.set_ylabel("P(foil)")
        ax.legend(fontsize=8, loc="best")
        ax.set_title("simulation converging to the exact line", fontsize=10)
        show_figure(self.output, self.figure)
