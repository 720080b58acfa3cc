"""The play table's picture of Panic Island!: the island's cards in their grid, and the clock.

:class:`GridMap` draws, from one seat's observation only, every place of the grid as a card:
face down (``?``), face up (its name, in its colour), seen last turn and face down again (its
name in brackets, grey: look quickly!), covered by a Landslide, the volcano, or empty. Beside
the grid: the team's hourglass (the time budget, ``P-TIME-1``), its score, the raft and paddle.
The places are clickable like the island map (:class:`~luckylab.viz.clicks.ClickMap` reads the
grid's own positions). It decides no rule.

>>> from luckylab import new_game
>>> game = new_game("panic", players=2, seed=3)
>>> grid = GridMap(game)
>>> png = grid.png(game, game.observation(0), ["r1c1"], 0, None, "Player 1 to decide", None)
>>> png[:4] == b"\\x89PNG", grid.labels["r1c1"], grid.labels["r3c3"]
(True, '?', 'volcano')
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..blit import Painter
from ..clicks import ClickMap
from ..style import OKABE_ITO

__all__ = ["GridMap", "face"]

COLOURS = {"red": "#f4a3a3", "yellow": "#f7e08a", "obstacle": "#b9c7e6", "raft": "#c9a77c",
           "paddle": "#c9a77c", "volcano": "#6b3b2a", "seen": "#e9e9e9", "down": "#ffffff",
           "empty": "#f7f7f7"}
"""The card colours (those of :mod:`luckylab.viz.panic_widget`): the game's red and yellow, the
obstacles' blue, wood for the raft and paddle; the card's name always says its colour too."""

_KEY = ("<small>Island: <b>?</b> a face-down card, a name in (brackets) a card seen last turn "
        "and face down again, <b>dashed blue</b> the cards you may pick now, the <b>black</b> "
        "frame the card picked. Click a card to pick it, click it again to do it.</small>")


def face(game: Any, obs: Mapping[str, Any], place: str,
         recent: Collection[str] = ()) -> tuple[str, str]:
    """What ``place`` shows to a seat whose observation is ``obs``: (label, colour).
    ``recent``: the places turned over last turn (shown in brackets while face down)."""
    if place in obs["empty"]:
        return "", COLOURS["empty"]
    if place in obs["covered"]:
        return "Landslide", COLOURS["obstacle"]
    if place == obs["volcano"]:
        return "volcano", COLOURS["volcano"]
    known = obs["cards"].get(place)
    if place in obs["face_up"] and known is not None:
        card = game.view().card(known)  # which card an id is, everybody knows
        return card.name, _colour(card)
    if place in recent and known is not None:
        return f"({game.view().card(known).name})", COLOURS["seen"]
    return "?", COLOURS["down"]


def _colour(card: Any) -> str:
    if card.obstacle is not None:
        return COLOURS["obstacle"]
    return COLOURS.get(card.colour or card.kind, COLOURS["seen"])


class GridMap:
    """The grid of ``game`` (a Panic Island! game) and its clock, repainted whole each time.

    ``figure`` is the matplotlib figure, ``board`` the grid's board, ``clicks`` turns a click
    into a place, ``labels`` holds what each place showed last, ``key`` explains the marks.
    """

    def __init__(self, game: Any) -> None:
        self.board = game.view().board
        self.figure = Figure(figsize=(9.5, 4.8), dpi=80)
        self.ax = self.figure.add_axes((0.01, 0.01, 0.58, 0.9))
        self.side = self.figure.add_axes((0.61, 0.01, 0.38, 0.9))
        xs = [self.board.space(p).pos[0] for p in self.board.spaces]
        ys = [self.board.space(p).pos[1] for p in self.board.spaces]
        self.limits = (min(xs) - 0.55, max(xs) + 0.55, min(ys) - 0.55, max(ys) + 0.55)
        self.budget = float(game.observation(0)["time_left"])
        self.recent: set[str] = set()
        self.labels: dict[str, str] = {}
        self.key = _KEY
        self.clicks = ClickMap(self.board, self.ax)
        self.drawing = None
        self.painter = Painter()
        self._frames = 0

    def png(self, game: Any, obs: Mapping[str, Any], targets: Sequence[str], you: int,
            focused: str | None, title: str, namer: Any, chosen: Sequence[str] = ()) -> bytes:
        """The grid now, from ``obs`` (what the seat ``you`` may know), ``targets`` dashed,
        ``focused`` framed."""
        ax, side = self.ax, self.side
        for a in (ax, side):
            a.cla()
            a.set_axis_off()
        ax.set_xlim(self.limits[0], self.limits[1])
        ax.set_ylim(self.limits[2], self.limits[3])
        ax.set_aspect("auto")
        wanted = set(targets)
        for place in self.board.spaces:
            x, y = self.board.space(place).pos
            label, colour = face(game, obs, place, self.recent)
            self.labels[place] = label
            edge, width, style = "#555555", 1.0, "-"
            if place in wanted:
                edge, width, style = OKABE_ITO["blue"], 2.2, "--"
            if place == focused:
                edge, width, style = "#000000", 3.0, "-"
            ax.add_patch(FancyBboxPatch((x - 0.43, y - 0.4), 0.86, 0.8,
                                        boxstyle="round,pad=0.0,rounding_size=0.08",
                                        facecolor=colour, edgecolor=edge, linewidth=width,
                                        linestyle=style))
            ink = "white" if colour == COLOURS["volcano"] else "black"
            ax.text(x, y, "\n".join(textwrap.wrap(label, 11)) or " ", ha="center",
                    va="center", fontsize=8 if label != "?" else 14, color=ink)
        self.figure.suptitle(title, x=0.3, y=0.985, fontsize=11, va="top")
        self._side(game, obs)
        self._frames += 1  # a new key: the whole picture is painted anew
        return self.painter.png(self.figure, [], key=self._frames)

    def _side(self, game: Any, obs: Mapping[str, Any]) -> None:
        """The hourglass (time left of the budget), the score, the raft and the paddle."""
        side = self.side
        side.set_xlim(0, 1)
        side.set_ylim(0, 1)
        left = max(float(obs["time_left"]), 0.0)
        share = left / self.budget if self.budget else 0.0
        side.text(0.0, 0.95, f"Hourglass: {left:.0f} of {self.budget:.0f} s left", fontsize=10,
                  va="center")
        side.add_patch(Rectangle((0.0, 0.84), 1.0, 0.06, facecolor="#eeeeee",
                                 edgecolor="#555555"))
        bar = OKABE_ITO["vermillion"] if share < 0.2 else OKABE_ITO["sky blue"]
        side.add_patch(Rectangle((0.0, 0.84), share, 0.06, facecolor=bar, edgecolor="none"))
        view = game.view()  # the card ids come from the seat's observation
        found = {view.card(c).kind for c in obs["found"]}
        tick = {True: "found", False: "not yet"}
        saved = [view.card(c).name for c in obs["saved"]]
        lines = [f"Turn {obs['turn'] + 1}; Gouga: {obs['gouga']}",
                 f"Raft: {tick['raft' in found]}; paddle: {tick['paddle' in found]}",
                 f"Saved by the team: {obs['score']}"]
        lines += textwrap.wrap(", ".join(saved), 40)[:4]
        if obs["continuous"]:
            lines.append("Obstacles: " + ", ".join(view.card(c).name
                                                   for c in obs["continuous"]))
        side.text(0.0, 0.76, "\n".join(lines), fontsize=9, va="top", linespacing=1.5)
