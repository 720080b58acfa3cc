"""A playable Panic Island! table: 25 card buttons, the clock, the saved cards, the Gouga button.

The widget holds a :class:`~luckylab.games.panic.PanicGame` and redraws from it; every click
becomes one action (``Reveal``, ``GougaCall``, ``Place``, ``WakeGouga``) handed to
``game.apply``. It computes no rules: what a click means comes from the phase and what is
allowed from the game (a refused click shows the game's own reason and changes nothing). It
draws what every player at the table sees, read from a seat's view (``game.view(0)``: a
face-down card is hidden from every seat alike).

Two clocks:

* ``clock="turns"`` (default, for a calm classroom): the game's budget of seconds
  (``P-TIME-1``): every reveal, save and obstacle spends its modelled seconds.
* ``clock="real"``: a real two-minute hourglass. The game's own clock is switched off
  (``clock="external"``) and the widget tells it :class:`~luckylab.games.panic.TimeUp` when the
  wall clock has run out. The display is refreshed on each click (no background thread, so it
  works the same in JupyterLab, on Binder and in plain pytest).

>>> widget = PanicWidget(seed=9, players=2)
>>> widget.click("r1c1"); widget.click("r1c2")
>>> widget.game.score, widget.buttons["r1c1"].disabled, widget.buttons["r1c2"].description
(1, True, '(red native)')

Every card button also carries a sentence a screen reader can say (its tooltip, the button's
``title``): where it is and what it shows.

>>> widget.buttons["r1c2"].tooltip
'row 1, column 2: red native, seen last turn, face down again'
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..errors import IllegalAction, LuckyLabError, OptionError
from ..games.panic import (
    GOUGA_KINDS,
    GougaCall,
    PanicGame,
    PanicView,
    Place,
    Reveal,
    TimeUp,
    WakeGouga,
    band,
)
from .args import number
from .base import LessonWidget

__all__ = ["PanicWidget"]

_COLOURS = {"red": "#f4a3a3", "yellow": "#f7e08a", "obstacle": "#b9c7e6", "raft": "#c9a77c",
            "paddle": "#c9a77c", "volcano": "#6b3b2a", "seen": "#e9e9e9"}
_PROMPTS = {
    "turn": "turn over a card (or wake Gouga)",
    "second": "turn over a second card",
    "gouga": "choose native, dodo or egg, then click one card",
    "place": "click an empty place to put the card back",
}


class PanicWidget(LessonWidget):
    """Play Panic Island! in a notebook.

    Parameters
    ----------
    game
        A game to show; by default a new one from ``players``, ``seed`` and ``options``.
    clock
        ``"turns"`` (the budget of seconds) or ``"real"`` (a wall clock of ``real_seconds``).
    now
        The wall clock (seconds); tests pass a fake one.
    """

    def __init__(self, game: PanicGame | None = None, players: int = 4, seed: int | None = 0,
                 clock: str = "turns", real_seconds: float = 120.0,
                 now: Callable[[], float] = time.monotonic, **options: Any) -> None:
        if clock not in ("turns", "real"):
            raise OptionError(f"clock is 'turns' or 'real', not {clock!r}")
        number("real_seconds", real_seconds, 0.0, 3600.0, "PanicWidget", above=True)
        if game is not None and not isinstance(game, PanicGame):
            raise OptionError(f"PanicWidget shows a Panic Island game, not {game!r}")
        self.clock = clock
        self.real_seconds = float(real_seconds)
        self.now = now
        self.started: float | None = None
        self._options = dict(options, players=players)
        if game is None:
            game = self._new_game(seed)
        self.game = game
        self.message = ""

        board = game.view().board
        self.buttons: dict[str, W.Button] = {}
        for place in board.spaces:
            button = W.Button(description="?", tooltip=place,
                              layout=W.Layout(width="96px", height="56px"))
            button.on_click(lambda _b, p=place: self.click(p))
            self.buttons[place] = button
        cols = max(board.space(p).pos[0] for p in board.spaces)
        self.grid = W.GridBox(list(self.buttons.values()),
                              layout=W.Layout(grid_template_columns=f"repeat({int(cols)}, 100px)"))
        self.gouga_button = W.Button(description="Gouga!", button_style="warning",
                                     tooltip="wake Gouga (once per game)")
        self.gouga_button.on_click(lambda _b: self.wake_gouga())
        self.kind = W.ToggleButtons(options=list(GOUGA_KINDS), value="dodo",
                                    description="Gouga:")
        self.new_button = W.Button(description="new island", icon="refresh",
                                   tooltip="start a new island (the next seed)")
        self.new_button.on_click(lambda _b: self.restart())
        self.clock_bar = W.FloatProgress(min=0.0, max=1.0, value=1.0, description="time",
                                         bar_style="info")
        self.status = W.HTML()
        self.news = W.HTML()
        super().__init__([
            W.HBox([self.clock_bar, self.gouga_button, self.new_button]),
            self.kind,
            W.HBox([self.grid, self.status]),
            self.news,
        ])
        self.redraw()

    # -- actions -------------------------------------------------------------------------------
    def _new_game(self, seed: int | None) -> PanicGame:
        options = dict(self._options)
        players = options.pop("players")
        if self.clock == "real":
            options["clock"] = "external"
        self.started = None
        return PanicGame(players=players, seed=seed, **options)

    def restart(self, seed: int | None = None) -> None:
        """A new island (the next seed unless one is given)."""
        if seed is None:
            seed = (self.game.seed or 0) + 1
        self.game = self._new_game(seed)
        self.message = ""
        self.redraw()

    def click(self, place: str) -> None:
        """What clicking a card means now, by the game's phase: reveal, Gouga call, or place."""
        phase = self.table.phase
        if phase == "gouga":
            action: Any = GougaCall(self.kind.value, place)
        elif phase == "place":
            action = Place(place)
        else:
            action = Reveal(place)
        self.act(action)

    def wake_gouga(self) -> None:
        self.act(WakeGouga())

    def act(self, action: Any) -> None:
        """Apply ``action``; a refused one leaves the game unchanged and shows why."""
        if self._real_time_is_up():
            self.redraw()
            return
        try:
            events = self.game.apply(action)
        except (IllegalAction, LuckyLabError) as exc:
            self.message = f"Not allowed: {exc}"
        else:
            self.message = " ".join(str(e) for e in events)
        self.redraw()

    def _real_time_is_up(self) -> bool:
        if self.clock != "real" or self.game.is_over:
            return False
        if self.started is None:
            self.started = self.now()  # the hourglass turns with the first click
            return False
        if self.seconds_left() <= 0:
            events = self.game.apply(TimeUp())
            self.message = " ".join(str(e) for e in events)
            return True
        return False

    def seconds_left(self) -> float:
        """Seconds left on the clock in use."""
        if self.clock == "turns":
            return max(self.table.time_left, 0.0)
        if self.started is None:
            return self.real_seconds
        return max(self.real_seconds - (self.now() - self.started), 0.0)

    # -- drawing -------------------------------------------------------------------------------
    @property
    def table(self) -> PanicView:
        """What everybody at the table sees (Seat 1's view: Panic hides the same from all)."""
        return self.game.view(0)

    def face(self, place: str) -> tuple[str, str | None, bool]:
        """What a button shows: (label, colour, clickable) — read from the view, nothing more."""
        game, view = self.game, self.table
        if place in view.empty_places():
            return ("", None, view.phase == "place")
        if place in view.covered:
            return ("Landslide", _COLOURS["obstacle"], False)
        if place == view.volcano:
            return ("volcano", _COLOURS["volcano"], not game.is_over)
        if place in view.face_up:
            card = view.card_at(place)
            return (card.name, _colour(card), False)
        seen = dict(view.last_seen)
        if place in seen:  # last turn's cards, just turned back: look quickly!
            return (f"({view.card(seen[place]).name})", _COLOURS["seen"], not game.is_over)
        return ("?", None, not game.is_over)

    def spoken(self, place: str) -> str:
        """The sentence a screen reader says for a card button: where, what, and whether it can
        be clicked (the button's tooltip)."""
        label, _colour, clickable = self.face(place)
        row, col = _row_col(place)
        where = f"row {row}, column {col}" if row else place
        game = self.game
        if label == "?":
            what = "face down"
        elif label == "":
            what = "empty place"
        elif label.startswith("("):
            what = f"{label[1:-1]}, seen last turn, face down again"
        elif label == "volcano":
            what = "the volcano, face up"
        else:
            what = f"{label}, face up"
        if not clickable:
            what += "" if game.is_over else ", cannot be clicked now"
        return f"{where}: {what}"

    def redraw(self) -> None:
        game, view = self.game, self.table
        for place, button in self.buttons.items():
            label, colour, clickable = self.face(place)
            button.description = label
            button.style.button_color = colour
            button.disabled = not clickable
            button.button_style = "danger" if place == view.volcano else ""
            button.tooltip = self.spoken(place)
        self.gouga_button.disabled = WakeGouga() not in game.legal_actions()
        self.kind.disabled = view.phase != "gouga"
        left = self.seconds_left()
        total = view.budget if self.clock == "turns" else self.real_seconds
        self.clock_bar.value = left / total
        self.clock_bar.bar_style = "danger" if left < 0.2 * total else "info"
        self.status.value = self._status_html(left)
        self.news.value = f"<p>{html.escape(self.message)}</p>" if self.message else ""

    def _status_html(self, left: float) -> str:
        game, view = self.game, self.table
        saved = ", ".join(view.card(c).name for c in view.saved) or "none yet"
        found = {view.card(c).kind for c in view.found}
        obstacles = ", ".join(view.card(c).name for c in view.continuous) or "none"
        clock = ("budget" if self.clock == "turns" else
                 "real clock, updated on each click")
        if game.is_over:
            verdict = "won!" if view.won else "lost."
            doing = (f"<b>Game over ({view.end}): {verdict}</b> Score {view.score}: "
                     f"{band(view.score)}")
        else:
            doing = f"P{game.current_player + 1}: {_PROMPTS[view.phase]}"
        tick = {True: "&#10004;", False: "&#10008;"}
        rows = [
            doing,
            f"Time left: {left:.1f} s ({clock})",
            f"Turn {view.turn + 1}; Gouga: {view.gouga}",
            f"Saved ({view.score}): {html.escape(saved)}",
            f"Raft {tick['raft' in found]} &nbsp; Paddle {tick['paddle' in found]}",
            f"Active obstacles: {html.escape(obstacles)}",
        ]
        return "<div style='margin-left:1em'>" + "<br>".join(rows) + "</div>"


def _row_col(place: str) -> tuple[int | None, int | None]:
    """``"r2c3"`` -> ``(2, 3)``; other names -> ``(None, None)``."""
    if place.startswith("r") and "c" in place:
        row, _, col = place[1:].partition("c")
        if row.isdigit() and col.isdigit():
            return int(row), int(col)
    return None, None


def _colour(card: Any) -> str:
    if card.obstacle is not None:
        return _COLOURS["obstacle"]
    return _COLOURS.get(card.colour or card.kind, _COLOURS["seen"])
