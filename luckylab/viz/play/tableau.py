"""The play table's picture of Doctor Who: The Card Game, drawn from one seat's observation.

:class:`Tableau` draws the table as the seat deciding may see it: a row per player (Time
Points, Dalek and TARDIS counters in play, cards in hand and reserve, Victory Points now, and
their Locations, each with its Defenders and the Enemies attacking it: face down as a count,
face up by name), then that seat's own hand and reserve as cards in their kind's colour
(Okabe-Ito, safe for colour-blind eyes) with their strength, and what it last passed and
received. Every card and Location is a box a click can pick
(:class:`~luckylab.viz.clicks.BoxClicks`: ``"card:<id>"``, ``"loc:<id>"``). It reads only
``observation(seat)`` and the public card list (the seat's view, ``game.view(seat)``), so no
hidden card of another seat can appear.

>>> from luckylab import new_game
>>> game = new_game("doctorwho", players=3, seed=2)
>>> tableau = Tableau(game)
>>> obs = game.observation(2)
>>> png = tableau.png(game, obs, [], 2, None, "Player 3 to decide", None)
>>> png[:4] == b"\\x89PNG", {f"card:{c}" for c in obs["hand"]} <= set(tableau.clicks.boxes)
(True, True)
>>> "Player 3 (you): to decide" in tableau.texts
True
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..blit import Painter
from ..clicks import BoxClicks
from ..draw import _ink_on
from ..style import OKABE_ITO

if TYPE_CHECKING:
    from ...games.doctorwho import DoctorWhoView

__all__ = ["KIND_COLOURS", "Tableau"]

KIND_COLOURS: Mapping[str, str] = {
    "defender": OKABE_ITO["sky blue"], "enemy": OKABE_ITO["vermillion"],
    "location": OKABE_ITO["bluish green"], "starting": OKABE_ITO["bluish green"],
    "support": OKABE_ITO["yellow"], "end": OKABE_ITO["black"]}
"""A card's colour by its kind (the kind is also written on the card)."""

_KEY = ("<small>Table: a row per player (TP, counters, cards, VP now, their Locations with "
        "Defenders <b>D</b> and attacking Enemies <b>E</b>; face-down cards are counted, not "
        "named); below, your hand and reserve: <b>blue</b> Defenders, <b>vermillion</b> "
        "Enemies, <b>green</b> Locations, <b>yellow</b> Support, strength in the corner. "
        "<b>Dashed blue</b>: what you may pick now; <b>black</b>: the choice picked. Click a "
        "card of your hand, then a Location; click again to do it.</small>")

WIDTH, HEIGHT = 100.0, 60.0
"""The picture's own coordinates (the boxes clicks are read in)."""


class Tableau:
    """Doctor Who's table, repainted whole each time (see the module docstring)."""

    def __init__(self, game: Any) -> None:
        self.figure = Figure(figsize=(9.5, 6.0), dpi=80)
        self.ax = self.figure.add_axes((0.0, 0.0, 1.0, 1.0))
        self.clicks = BoxClicks(self.ax)
        self.texts: list[str] = []
        self.key = _KEY
        self.board = None
        self.drawing = None
        self.painter = Painter()
        self._frames = 0

    # -- drawing helpers -----------------------------------------------------------------------
    def _text(self, x: float, y: float, text: str, **kw: Any) -> None:
        self.texts.append(text)
        self.ax.text(x, y, text, **kw)

    def _box(self, key: str | None, x: float, y: float, w: float, h: float, colour: str,
             marks: Mapping[str, str]) -> None:
        mark = marks.get(key or "")
        edge, width, style = "#555555", 0.8, "-"
        if mark == "target":
            edge, width, style = OKABE_ITO["blue"], 2.0, "--"
        elif mark == "chosen":
            edge, width, style = "#000000", 3.0, "-"
        self.ax.add_patch(FancyBboxPatch((x, y), w, h,
                                         boxstyle="round,pad=0.0,rounding_size=0.6",
                                         facecolor=colour, edgecolor=edge, linewidth=width,
                                         linestyle=style))
        if key is not None:
            self.clicks.boxes[key] = (x, y, x + w, y + h)

    def _name(self, view: DoctorWhoView, cid: int | None) -> str:
        return "?" if cid is None else str(view.card(cid))

    # -- the picture -----------------------------------------------------------------------------
    def png(self, game: Any, obs: Mapping[str, Any], targets: Sequence[str], you: int,
            focused: str | None, title: str, namer: Any, chosen: Sequence[str] = ()) -> bytes:
        """The table now as ``you`` may see it (``obs``), ``targets`` dashed, ``chosen`` (and
        ``focused``) framed."""
        view = game.view(you)  # the card list: public, read through the seat's view
        ax = self.ax
        ax.cla()
        ax.set_axis_off()
        ax.set_xlim(0, WIDTH)
        ax.set_ylim(0, HEIGHT)
        self.clicks.boxes = {}
        self.texts = []
        marks = {k: "target" for k in targets}
        marks.update({k: "chosen" for k in chosen})
        if focused is not None:
            marks[focused] = "chosen"
        self._text(1, HEIGHT - 1.5, title, fontsize=11, va="top", fontweight="bold")
        players = int(obs["players"])
        row_h = min(10.0, 38.0 / players)
        top = HEIGHT - 5.0
        for seat in range(players):
            self._player_row(view, obs, seat, you, top - (seat + 1) * row_h, row_h, marks)
        self._hand(view, obs, you, marks)
        self._frames += 1  # a new key: the whole picture is painted anew
        return self.painter.png(self.figure, [], key=self._frames)

    def _player_row(self, view: DoctorWhoView, obs: Mapping[str, Any], seat: int, you: int,
                    y: float, h: float, marks: Mapping[str, str]) -> None:
        deciding = obs["current_player"] == seat
        self.ax.add_patch(Rectangle((0.3, y + 0.2), WIDTH - 0.6, h - 0.4,
                                    facecolor="#fff6d5" if deciding else "#f4f4f4",
                                    edgecolor="#999999", linewidth=0.6))
        who = f"Player {seat + 1}" + (" (you)" if seat == you else "")
        lines = [f"{obs['tp'][seat]} TP, {obs['scores'][seat]} VP now",
                 f"Daleks {obs['daleks'][seat]}/5, TARDIS {obs['tardises'][seat]}/5",
                 f"{obs['hands'][seat]} in hand, {obs['reserves'][seat]} in reserve"]
        self._text(1.0, y + h - 1.0, who + (": to decide" if deciding else ""), fontsize=8,
                   va="top", fontweight="bold")
        self._text(1.0, y + h - 3.2, "\n".join(lines), fontsize=7, va="top", linespacing=1.3)
        locs = [loc for loc in obs["locations"] if loc["owner"] == seat]
        if not locs:
            return
        x0, gap = 22.0, 0.8
        w = min(16.0, (WIDTH - x0 - 1) / len(locs) - gap)
        for k, loc in enumerate(locs):
            x = x0 + k * (w + gap)
            self._location(view, loc, x, y + 0.5, w, h - 1.0, marks)

    def _location(self, view: DoctorWhoView, loc: Mapping[str, Any], x: float, y: float,
                  w: float, h: float, marks: Mapping[str, str]) -> None:
        lid = loc["card"]
        card = view.card(lid)
        self._box(f"loc:{lid}", x, y, w, h, "#ffffff", marks)
        self.ax.add_patch(Rectangle((x, y + h - 1.6), w, 1.6, facecolor=KIND_COLOURS[card.kind],
                                    edgecolor="none"))
        chars = max(int(w * 1.35), 6)
        self._text(x + 0.4, y + h - 0.8, textwrap.shorten(f"{card.name} {card.vp} VP", chars,
                                                          placeholder="."),
                   fontsize=6.5, va="center", color=_ink_on(KIND_COLOURS[card.kind]))
        lines = []
        if loc["tardis"]:
            lines.append("TARDIS")
        for letter, cards in (("D", loc["defenders"]), ("E", loc["enemies"])):
            if not cards:
                continue
            down = sum(c is None for c in cards)
            named = [self._name(view, c) for c in cards if c is not None]
            by = f" (P{loc['attacker'] + 1})" if letter == "E" else ""
            parts = named + ([f"{down} face down"] if down else [])
            lines.append(textwrap.shorten(f"{letter}{by}: " + ", ".join(parts), chars * 2,
                                          placeholder="."))
        if lines:
            self._text(x + 0.4, y + h - 2.0, "\n".join(textwrap.fill(line, chars)
                                                       for line in lines)[:200],
                       fontsize=5.8, va="top", linespacing=1.15)

    def _hand(self, view: DoctorWhoView, obs: Mapping[str, Any], you: int,
              marks: Mapping[str, str]) -> None:
        passed = ", ".join(self._name(view, c) for c in obs["passed"]) or "nothing yet"
        received = ", ".join(self._name(view, c) for c in obs["received"]) or "nothing yet"
        right = (you - 1) % int(obs["players"]) + 1
        self._text(1.0, 17.6, f"Your hand and reserve (Player {you + 1}); {obs['deck']} cards "
                   "in the deck" + ("; the End Game" if obs["endgame"] else ""), fontsize=8,
                   va="top", fontweight="bold")
        self._text(1.0, 15.4, textwrap.shorten(f"You passed to Player {right}: {passed}. "
                                               f"You received: {received}.", 150,
                                               placeholder="..."),
                   fontsize=7, va="top")
        cards = [(c, "") for c in obs["hand"]] + [(c, "reserve") for c in obs["reserve"]] + \
            [(c, "reserve, face up") for c in obs["reserve_up"][you]]
        if not cards:
            self._text(1.0, 8.0, "(no cards)", fontsize=8)
            return
        gap = 0.7
        w = min(10.0, (WIDTH - 2) / len(cards) - gap)
        for k, (cid, where) in enumerate(cards):
            self._card(view, cid, where, 1.0 + k * (w + gap), 0.6, w, 12.0, marks)

    def _card(self, view: DoctorWhoView, cid: int, where: str, x: float, y: float, w: float,
              h: float, marks: Mapping[str, str]) -> None:
        card = view.card(cid)
        colour = KIND_COLOURS.get(card.kind, "#dddddd")
        self._box(f"card:{cid}", x, y, w, h, "#ffffff", marks)
        self.ax.add_patch(Rectangle((x, y + h - 3.4), w, 3.4, facecolor=colour,
                                    edgecolor="none"))
        ink = _ink_on(colour)
        if card.kind in ("defender", "enemy"):
            corner = str(card.strength)
        elif card.kind in ("location", "starting"):
            corner = f"{card.vp}VP"
        else:
            corner = ""
        self._text(x + w - 0.4, y + h - 1.7, corner, fontsize=11, ha="right", va="center",
                   fontweight="bold", color=ink)
        kind = card.type if card.type and card.type != card.name else card.kind
        self._text(x + 0.4, y + h - 1.7, textwrap.shorten(kind, max(int(w * 1.1), 5),
                                                          placeholder="."),
                   fontsize=6, va="center", color=ink)
        chars = max(int(w * 1.4), 6)
        self._text(x + w / 2, y + h - 4.2, "\n".join(textwrap.wrap(card.name, chars)[:3]),
                   fontsize=7, ha="center", va="top")
        if where:
            self._text(x + w / 2, y + 0.6, where, fontsize=6, ha="center", va="bottom",
                       style="italic")
