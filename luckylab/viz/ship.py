"""The sinking ship of Save Doctor Lucky, drawn deck by deck, and a widget that steps a game.

The ship is a geometry board (:mod:`luckylab.boards.geometry`), so it is drawn with
:func:`luckylab.viz.mansion.draw_mansion`: walls, rooms, doors and hatches exactly as the data
file places them (a side view: deck A on top, the stern on the left). This module adds what a
*game* on it shows:

* the sea, rising over every deck that has sunk (``S-SINK-1``), with a label beside each deck:
  afloat or sunk, and how many cards are left in its draw pile (the clock, ``S-SETUP-3``);
* the pawns (``Player 1``, ``Player 2``, ... as in the game's event log) and Doctor Lucky's star;
* Doctor Lucky's room, the straight sight lines out of it and every room from which somebody
  would see a rescue there (``S-SAVE-1``, ``S-SIGHT-1``), on the ship *as it is now*: lines no
  longer run through flooded rooms.

:class:`ShipStepper` is the lesson's widget: a seeded game with bots, stepped one decision at a
time, to the next sinking or to the next rescue attempt. It holds the game and redraws it; every
rule lives in :class:`~luckylab.games.save.SaveGame`.

The ship drawn here is a reconstruction (the published layout is unknown); the figure's title
says so.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from luckylab import new_game
>>> game = new_game("save", players=4, seed=3)
>>> drawing = draw_ship(game)
>>> drawing.sea.get_visible(), drawing.deck_labels["D"].get_text()
(False, 'deck D\\n17 cards\\n(draw here)')
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as W
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.text import Text

from ..boards.board import Board
from ..boards.geometry import Geometry
from ..errors import OptionError
from ..games.save import SaveGame, SaveView
from .args import whole
from .base import LessonWidget
from .blit import Painter
from .draw import DOCTOR, DOCTOR_COLOR, SIGHT_COLOR, new_figure
from .mansion import (
    DOOR_COLOR,
    MARKS,
    ROOM_COLORS,
    WALL_COLOR,
    MansionDrawing,
    draw_mansion,
    merged_bands,
)

__all__ = [
    "SEA_COLOR", "ShipDrawing", "ShipStepper", "draw_ship", "draw_sinking", "seat_label",
    "ship_figsize", "ship_title",
]

SEA_COLOR = "#2B6CB0"
"""The water over sunken decks (with white wave lines, so it reads without colour too)."""

_MARGIN = 20.0  # data units left of the hull for the deck labels
_DOCTOR_ROOM = "chosen"  # MARKS styles used, with this module's own legend words
_WITNESS_ROOM = "visible"
_LEGEND_WORDS = {
    _DOCTOR_ROOM: "Doctor Lucky's room",
    _WITNESS_ROOM: "sees his room: a witness could stand here",
}


def seat_label(seat: int) -> str:
    """A pawn's label: ``"Player 3"`` for seat 2, the words the game's event log uses."""
    return f"Player {seat + 1}"


@dataclass(eq=False)
class ShipDrawing:
    """The matplotlib objects of a ship picture.

    ``mansion`` is the :class:`~luckylab.viz.mansion.MansionDrawing` of the whole ship (rooms,
    doors, marks, sight bands, pawns); ``sea`` the water rectangle (its top is the waterline);
    ``deck_labels`` deck letter -> the ``Text`` beside it; ``decks`` deck letter -> its
    ``(top, bottom)`` in data coordinates, top deck first. :meth:`update` moves these artists
    to show a game; nothing is drawn twice.
    """

    ship: Board
    mansion: MansionDrawing
    sea: Rectangle
    deck_labels: dict[str, Text]
    decks: dict[str, tuple[float, float]]
    legend: Any = None
    waterline: float | None = None
    deciding: int | None = None
    _painter: Painter = field(default_factory=Painter, repr=False, compare=False)

    @property
    def fig(self) -> Figure:
        return self.mansion.fig

    @property
    def ax(self) -> Axes:
        return self.mansion.ax

    @property
    def title(self) -> Text:
        return self.mansion.title

    def update(self, game: SaveGame, title: str | None = None) -> ShipDrawing:
        """Show ``game`` as it is now: sea, deck labels, pawns, Doctor Lucky, who sees his room.

        Returns ``self``.
        """
        view = game.view()  # the open table (only public facts are drawn)
        if view.ship is not self.ship:
            raise OptionError("this drawing shows another ship; draw this game's ship first")
        self._sink(view)
        afloat = view.board  # the rooms still afloat, with sight derived again (S-SINK-1)
        doctor = view.doctor
        witnesses = sorted(afloat.seen_by(doctor) - {doctor})
        marks = {room: _WITNESS_ROOM for room in witnesses}
        marks[doctor] = _DOCTOR_ROOM
        self.mansion.mark(marks)
        geometry = afloat.geometry
        bands = merged_bands(geometry.sight_bands(doctor)) if isinstance(geometry, Geometry) \
            else []
        self.mansion.bands.set_paths([Rectangle((b.rect.x0, b.rect.y0), b.rect.width,
                                                b.rect.height) for b in bands])
        self.mansion.bands.set_visible(bool(bands))
        self.mansion.shown_bands = tuple(bands)
        self.mansion.sight_of = doctor
        self.mansion.place({seat_label(s): view.position(s) for s in view.seats}, doctor)
        # The seat that decides now stands out by size as well as by the title.
        self.deciding = game.current_player
        for label, marker in self.mansion.pawns.items():
            marker.set_markersize(17 if label == _label_or_none(self.deciding) else 12)
        self.title.set_text(title if title is not None else ship_title(game))
        return self

    def pawn_handles(self) -> list[Any]:
        """Legend entries for the pawns drawn, one per player in its colour ("Player 1")."""
        handles = []
        for label, marker in self.mansion.pawns.items():
            handles.append(Line2D([], [], linestyle="none", marker="o", markersize=9,
                                  markerfacecolor=marker.get_markerfacecolor(),
                                  markeredgecolor="black", label=label))
        return handles

    def _sink(self, view: SaveView) -> None:
        bottom_afloat = max((self.decks[d][1] for d in view.afloat), default=None)
        bounds = self.mansion.geometry.bounds
        if len(view.afloat) == len(view.decks):
            self.sea.set_visible(False)
            self.waterline = None
        else:
            top = bounds.y0 if bottom_afloat is None else bottom_afloat
            self.sea.set_y(top)
            self.sea.set_height(bounds.y1 - top)
            self.sea.set_visible(True)
            self.waterline = top
        sunk, piles = view.sunk, view.pile_sizes
        for deck, text in self.deck_labels.items():
            if deck in sunk:
                text.set_text(f"deck {deck}\nsunk")
                text.set_color("#FFFFFF")
            else:
                pile = piles[deck]
                draw = "\n(draw here)" if deck == view.draw_deck else ""
                text.set_text(f"deck {deck}\n{pile} card{'s' if pile != 1 else ''}{draw}")
                text.set_color("#1A1A1A")

    def png(self) -> bytes:
        """The figure as PNG bytes (a full paint; see :meth:`render_png` for the fast one)."""
        buffer = io.BytesIO()
        self.fig.savefig(buffer, format="png", dpi=self.fig.dpi)
        return buffer.getvalue()

    def _moving_artists(self) -> list[Any]:
        m = self.mansion
        return [*m.marks.values(), m.bands, self.sea, *self.deck_labels.values(),
                *m.pawns.values(), m.doctor, self.title]

    def render_png(self) -> bytes:
        """The figure as PNG bytes, painting only what moves (what a widget step needs).

        The first call paints the ship without the moving artists (marks, sight bands, sea,
        deck labels, pawns, Doctor Lucky, title), keeps that picture and freezes the layout;
        later calls paste it and paint the moving artists on top, with the room names under a
        mark or a band painted again so that they stay crisp. The figure must hold nothing
        else that changes (the widget gives the ship its own figure).
        """
        m = self.mansion
        covered = set(m.marked)
        for band in m.shown_bands:
            covered |= band.spaces
        names = [m.labels[room] for room in covered if m.labels[room].get_visible()]
        return self._painter.png(self.fig, self._moving_artists(), also=names)


def _label_or_none(seat: int | None) -> str | None:
    return None if seat is None else seat_label(seat)


def ship_title(game: SaveGame) -> str:
    """A one-line caption of the game's state (who plays, what is afloat).

    >>> from luckylab import new_game
    >>> ship_title(new_game("save", players=4, seed=3))
    '0 turns played; Player 2 to play; decks afloat ABCD; reconstructed ship'

    Players count from 1, as in the event log and the key beside the picture.
    """
    view = game.view()
    played = f"{view.turns} turn{'' if view.turns == 1 else 's'} played"
    if game.is_over:
        end = view.end_reason
        if end == "rescued":
            sunk = len(view.sunk)
            return (f"{played}: Player {view.winner + 1} rescues Doctor Lucky "
                    f"({sunk} deck{'' if sunk == 1 else 's'} sunk)")
        if end == "sunk":
            return f"{played}: the ship has sunk, nobody wins"
        return f"{played}: stopped ({end})"
    doing = {"turn": "to play", "active": "active turn", "foil": "asked to stop a rescue"}
    return (f"{played}; Player {game.current_player + 1} {doing[view.phase]}; decks afloat "
            f"{''.join(view.afloat)}; reconstructed ship")


def draw_ship(
    game_or_ship: SaveGame | Board | str = "save-doctor-lucky",
    ax: Axes | None = None,
    *,
    width: float = 11.0,
    legend: bool = True,
    show_names: bool = True,
    title: str | None = None,
) -> ShipDrawing:
    """Draw the ship as a side view, deck A on top; with a game, show that game now.

    Parameters
    ----------
    game_or_ship
        A :class:`~luckylab.games.save.SaveGame` (drawn as it is now), or a ship: a geometry
        board with a ``deck`` on every room, or its name.
    ax
        Axes to draw into; ``None`` makes a new pyplot figure (shown by the inline backend).
    width, legend, show_names, title
        Figure width in inches (new figures only), the key below the picture, room names,
        and a title instead of the default caption.

    Returns
    -------
    ShipDrawing
    """
    from ..boards import load_board
    from ..games.save import ship_decks

    game = None
    if isinstance(game_or_ship, str):
        ship = load_board(game_or_ship)
    elif isinstance(game_or_ship, Board):
        ship = game_or_ship
    else:  # a Save game: its whole ship, sunk rooms included
        game = game_or_ship
        ship = game.view().ship
    geometry = ship.geometry
    if not isinstance(geometry, Geometry):
        raise OptionError(f"{ship.name} is not a geometry board (it has no rectangles to draw)")
    letters = ship_decks(ship)  # raises BoardError unless every room has a deck
    bounds = geometry.bounds
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=ship_figsize(ship, width, legend), layout="constrained")
    mansion = draw_mansion(ship, ax, show_names=show_names, legend=False,
                           title=title if title is not None else "")
    ax.set_xlim(bounds.x0 - _MARGIN, bounds.x1)
    decks = {}
    for d in letters:
        rects = [geometry.rects[s] for s in ship.spaces if ship.space(s).deck == d]
        decks[d] = (min(r.y0 for r in rects), max(r.y1 for r in rects))
    labels = {d: ax.text(bounds.x0 - _MARGIN / 2, (top + bottom) / 2, f"deck {d}",
                         ha="center", va="center", fontsize=8, zorder=6)
              for d, (top, bottom) in decks.items()}
    # The sea covers the whole width of the picture below the waterline (hatched: waves).
    sea = Rectangle((bounds.x0 - _MARGIN, bounds.y1), bounds.width + _MARGIN, 0.0,
                    facecolor=SEA_COLOR, edgecolor="#CFE3F5", hatch="-", linewidth=0.0,
                    alpha=0.82, zorder=5, visible=False)
    ax.add_patch(sea)
    drawing = ShipDrawing(ship=ship, mansion=mansion, sea=sea, deck_labels=labels, decks=decks)
    if game is not None:
        drawing.update(game, title)
    else:
        drawing.title.set_text(title if title is not None else
                               f"{ship.name}: decks {', '.join(letters)}, top to bottom")
    if legend:
        drawing.legend = ax.figure.legend(
            handles=_legend_handles(ship) + drawing.pawn_handles(), ncols=4, fontsize=8,
            loc="outside lower center", frameon=False)
    return drawing


def ship_figsize(ship: Board, width: float, legend: bool) -> tuple[float, float]:
    """Figure size (inches) for a ship picture ``width`` inches wide, labels margin included."""
    b = ship.geometry.bounds
    return (width, width * b.height / (b.width + _MARGIN) + (1.1 if legend else 0.45))


def _legend_handles(ship: Board) -> list[Any]:
    handles: list[Any] = [Patch(facecolor=ROOM_COLORS.get(k, "#E8DCC6"), edgecolor="#333333",
                                label=k) for k in ship.kinds]
    handles += [
        Patch(facecolor=WALL_COLOR, label="wall"),
        Patch(facecolor=DOOR_COLOR, edgecolor="#333333", label="door or hatch"),
        Patch(facecolor=SEA_COLOR, edgecolor="#CFE3F5", hatch="-", alpha=0.82,
              label="sunk deck"),
        Patch(facecolor=SIGHT_COLOR, alpha=0.28, label="straight lines from his room"),
    ]
    for name in (_DOCTOR_ROOM, _WITNESS_ROOM):
        style = MARKS[name]
        handles.append(Patch(facecolor=style["facecolor"], alpha=style["alpha"],
                             hatch=style["hatch"], edgecolor=style["edgecolor"],
                             label=_LEGEND_WORDS[name]))
    handles.append(Line2D([], [], linestyle="none", marker="*", markersize=13,
                          markerfacecolor=DOCTOR_COLOR, markeredgecolor="black", label=DOCTOR))
    handles.append(Line2D([], [], linestyle="none", marker="o", markersize=9,
                          markerfacecolor="#BBBBBB", markeredgecolor="black",
                          label="pawn (bigger: deciding now)"))
    return handles


def draw_sinking(games: Sequence[SaveGame], ncols: int = 2, width: float = 13.0,
                 ) -> list[ShipDrawing]:
    """Small pictures of several moments of a game side by side (from
    :func:`luckylab.analysis.sinking.sinking_snapshots`): one panel per game state, one key.
    Returns the drawings, first panel first; ``drawings[0].fig`` is the figure."""
    import matplotlib.pyplot as plt

    if not games:
        raise OptionError("no game states to draw")
    rows = -(-len(games) // ncols)
    ship = games[0].ship
    _, panel_h = ship_figsize(ship, width / ncols, legend=False)
    fig, axes = plt.subplots(rows, ncols, figsize=(width, panel_h * rows + 0.9),
                             layout="constrained", squeeze=False)
    drawings = []
    for k, ax in enumerate(axes.flat):
        if k >= len(games):
            ax.set_axis_off()
            continue
        drawing = draw_ship(games[k], ax, legend=False, show_names=False)
        drawing.title.set_fontsize(9)
        for text in drawing.deck_labels.values():
            text.set_fontsize(7)
        drawings.append(drawing)
    drawings[0].legend = fig.legend(handles=_legend_handles(ship) + drawings[0].pawn_handles(),
                                    loc="outside lower center", ncols=5, fontsize=8,
                                    frameon=False)
    return drawings


# -- the widget -------------------------------------------------------------------------------
class ShipStepper(LessonWidget):
    """Step through a seeded game of Save Doctor Lucky and watch the ship sink.

    Parameters
    ----------
    players
        3 to 7 (``S-SETUP-1``).
    seed
        The game's seed; the bots are seeded from it as :func:`luckylab.simulation.play_game`
        seeds them, so the game on screen is the game a simulation with this seed plays.
    agents
        One agent name for every seat, or one per seat (``luckylab.agents.save.AGENTS``).
    options
        Rule options for :class:`~luckylab.games.save.SaveGame` (``deck_steps=True``...).

    Buttons: **Step** (one decision), **To next sinking**, **To next rescue attempt**, **Reset**
    (a new game from the seed box, the player count and the bot pickers). ``game`` is the live
    game, ``log_lines`` its events in plain words (the last step's in bold in the log view),
    ``drawing`` the picture (drawn once, updated on every step), ``png`` the last picture
    rendered.

    Examples
    --------
    >>> stepper = ShipStepper(players=4, seed=0, agents="greedy")
    >>> stepper.sinking_button.click()
    >>> stepper.game.view().sunk, stepper.drawing.sea.get_visible()
    (('D',), True)
    """

    MAX_PLAY = 5000
    """Most decisions one fast-forward plays (the game's turn cap ends any game sooner)."""

    def __init__(self, players: int = 4, seed: int = 0,
                 agents: str | Sequence[str] | None = None, **options: Any) -> None:
        from ..agents import agent_names

        self.options = dict(options)
        names = agent_names("save")
        low = 2 if options.get("allow_two_players") else 3
        whole("seed", seed, 0, None, "ShipStepper")
        if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= 7:
            raise OptionError(f"Save Doctor Lucky takes {low} to 7 players, not {players!r}")
        if agents is None or isinstance(agents, str):
            chosen = [agents or names[0]] * players
        else:
            chosen = list(agents)
            if len(chosen) != players:
                raise OptionError(f"agents names one bot per player: {players} needed, "
                                 f"{len(chosen)} given")
        for name in chosen:
            if name not in names:
                raise OptionError(f"no Save Doctor Lucky bot {name!r}; bots: {', '.join(names)}")
        small = W.Layout(width="170px")
        self.seed_box = W.IntText(value=seed, description="seed", layout=small)
        self.players_picker = W.Dropdown(options=list(range(low, 8)), value=players,
                                         description="players", layout=small)
        self.agent_pickers = [
            W.Dropdown(options=names, value=chosen[k] if k < players else chosen[-1],
                       description=seat_label(k), layout=small)
            for k in range(7)
        ]
        self.step_button = W.Button(description="Step", icon="step-forward",
                                    tooltip="one decision of the bot whose turn it is")
        self.sinking_button = W.Button(description="To next sinking", icon="fast-forward",
                                       tooltip="play until a deck sinks (or the game ends)",
                                       layout=W.Layout(width="170px"))
        self.attempt_button = W.Button(description="To next rescue attempt",
                                       icon="fast-forward", layout=W.Layout(width="200px"),
                                       tooltip="play until somebody tries a rescue")
        self.reset_button = W.Button(description="Reset", icon="refresh",
                                     tooltip="a new game: this seed, these players and bots")
        self.status = W.HTML()
        self.log_view = W.HTML(layout=W.Layout(max_height="240px", overflow="auto"))
        self.log_view.add_class("luckylab-event-log")  # what the browser test reads
        self.map_output = W.Output()
        self.agent_box = W.HBox([])
        self.log_lines: list[str] = []
        self.last_events: list[Any] = []
        self.png = b""

        self.step_button.on_click(lambda _b: self.step())
        self.sinking_button.on_click(lambda _b: self.play_to_sinking())
        self.attempt_button.on_click(lambda _b: self.play_to_attempt())
        self.reset_button.on_click(lambda _b: self.reset())
        self.players_picker.observe(lambda _c: self._show_agent_pickers(), names="value")
        super().__init__([
            W.HBox([self.seed_box, self.players_picker, self.reset_button]),
            self.agent_box,
            W.HBox([self.step_button, self.sinking_button, self.attempt_button]),
            self.map_output,
            W.HBox([W.VBox([W.HTML("<b>what happened</b>"), self.log_view],
                           layout=W.Layout(width="58%")),
                    W.VBox([self.status], layout=W.Layout(width="42%"))]),
        ])
        self._show_agent_pickers()
        self.game = SaveGame(players=players, seed=seed, **self.options)
        self.figure = new_figure(*ship_figsize(self.game.view().ship, 10.5, True), dpi=72)
        self.drawing = draw_ship(self.game, self.figure.add_subplot())
        self.reset()

    def _show_agent_pickers(self) -> None:
        self.agent_box.children = tuple(self.agent_pickers[: self.players_picker.value])

    @property
    def agent_choice(self) -> list[str]:
        """The bot name of each seat, as the pickers say."""
        return [p.value for p in self.agent_pickers[: self.players_picker.value]]

    # -- driving the game ------------------------------------------------------------------------
    def reset(self) -> None:
        """A new game from the seed box, the player count and the bot pickers."""
        from ..analysis.sinking import seat_bots

        seed = int(self.seed_box.value)
        self.game = SaveGame(players=int(self.players_picker.value), seed=seed, **self.options)
        self.agents = seat_bots(self.game, seed, self.agent_choice)
        self.log_lines = [e.text for e in self.game.events]
        self.last_events = []
        self.redraw()

    def _decide(self) -> list[Any]:
        game = self.game
        events = game.apply(self.agents[game.current_player].choose(game))
        self.log_lines.extend(e.text for e in events)
        return events

    def step(self) -> list[Any]:
        """One decision of the bot whose turn it is; returns its events."""
        self.last_events = [] if self.game.is_over else self._decide()
        self.redraw()
        return self.last_events

    def _play_until(self, kinds: set[str]) -> list[Any]:
        events: list[Any] = []
        for _ in range(self.MAX_PLAY):
            if self.game.is_over:
                break
            step = self._decide()
            events.extend(step)
            if any(e.kind in kinds for e in step):
                break
        self.last_events = events
        self.redraw()
        return events

    def play_to_sinking(self) -> list[Any]:
        """Play until a deck sinks (``S-SINK-1``) or the game ends; returns the events."""
        return self._play_until({"sink"})

    def play_to_attempt(self) -> list[Any]:
        """Play until somebody tries a rescue (``S-SAVE-1``) or the game ends; the failure
        round that follows is then stepped seat by seat. Returns the events."""
        return self._play_until({"rescue"})

    # -- drawing ----------------------------------------------------------------------------------
    def redraw(self) -> None:
        """Update the picture, the status and the log from the game."""
        self.drawing.update(self.game)
        self.png = self.drawing.render_png()
        self._show()
        self.status.value = self._status_html()
        recent = self.log_lines[-16:]
        start = len(self.log_lines) - len(recent) + 1
        fresh = len(self.log_lines) - len(self.last_events)
        items = "".join(
            f"<li>{'<b>' if start + k > fresh else ''}{html.escape(text)}"
            f"{'</b>' if start + k > fresh else ''}</li>" for k, text in enumerate(recent))
        self.log_view.value = f"<ol start='{start}' style='margin:0'>{items}</ol>"

    def _show(self) -> None:
        from IPython import get_ipython

        if get_ipython() is None:  # plain Python (tests, scripts): nothing to show it to
            return
        from IPython.display import Image, display

        with self.map_output:
            self.map_output.clear_output(wait=True)
            display(Image(data=self.png, format="png"))

    def _status_html(self) -> str:
        game = self.game
        view = game.view()  # the open table: the status shows public facts only
        board = view.board
        doctor = view.doctor
        watchers = [s for s in view.seats if board.sees(view.position(s), doctor)]
        lines = []
        if game.is_over:
            lines.append(f"<b>{html.escape(ship_title(game))}</b>")
        else:
            lines.append(f"<b>Deciding now:</b> {seat_label(game.current_player)} "
                         f"({html.escape(self.agent_choice[game.current_player])})")
        lines.append(f"<b>Doctor Lucky:</b> {html.escape(_where(board, doctor))}; "
                     f"his room is seen by "
                     f"{', '.join(seat_label(s) for s in watchers) or 'nobody'}")
        attempt = view.attempt
        if attempt is not None:
            lines.append(f"<b>Rescue attempt</b> by {seat_label(attempt.rescuer)}, worth "
                         f"{attempt.value}: {attempt.needed} Failure point(s) still needed "
                         "to stop it")
        deck_rows = []
        sunk, piles = view.sunk, view.pile_sizes
        for d in view.decks:
            if d in sunk:
                deck_rows.append([f"deck {d}", "sunk", "-"])
            else:
                pile = str(piles[d]) + (" (draw here)" if d == view.draw_deck else "")
                deck_rows.append([f"deck {d}", "afloat", pile])
        seat_rows = []
        for s in view.seats:
            colour = self.drawing.mansion.pawns[seat_label(s)].get_markerfacecolor()
            swatch = f"<span style='color:{html.escape(str(colour))}'>&#9679;</span> "
            seat_rows.append([swatch + seat_label(s), html.escape(self.agent_choice[s]),
                              html.escape(_where(board, view.position(s))),
                              str(view.hand_size(s))])
        return ("<div style='font-size:90%'>" + "<br>".join(lines)
                + _table(["deck", "state", "pile"], deck_rows)
                + _table(["pawn", "bot", "room", "cards"], seat_rows) + "</div>")


def _where(board: Board, space: str) -> str:
    number = board.number(space) if space in board else None
    return space if number is None else f"{number}, {space}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table; cells are already escaped."""
    head = "".join(f"<th style='text-align:left;padding:1px 8px'>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td style='padding:1px 8px'>{c}</td>" for c in row)
                   + "</tr>" for row in rows)
    return f"<table style='margin-top:4px'><tr>{head}</tr>{body}</table>"
