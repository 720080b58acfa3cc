"""Interactive lessons (ipywidgets 8): sight, stepping through games, Luck, who pays.

Every widget here only *holds and redraws*. The rules live in the engine and the maths in
:mod:`luckylab.analysis.luck` / :mod:`luckylab.analysis.dilemma`; a widget asks them
(``sight_report``, ``game.legal_actions``, ``game.apply``, ``p_foil``, ...) and shows the
answers. That keeps the lessons honest: what a student sees is exactly what the tested engine
says.

Pictures are ordinary matplotlib figures rendered to PNG and shown inside an
``ipywidgets.Output`` (no ipympl, so nothing to install on Binder). Each widget draws its map
once and afterwards only moves artists (:meth:`luckylab.viz.draw.BoardDrawing.update`);
``benchmarks/bench_widgets.py`` times a step redraw.

The widgets are ``ipywidgets.VBox`` subclasses: put one at the end of a cell to show it. In
plain Python (tests, scripts) they work too: ``button.click()`` and ``.value = ...`` run the same
handlers, and the state (``game``, ``report``, ``p_exact``, ...) can be read directly.
"""

from __future__ import annotations

import html
import io
import itertools
import random
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as W
from IPython.display import Image, display

from ..boards import load_board
from ..boards.board import Board
from ..errors import OptionError
from .args import choice, number, release, whole
from .clicks import ClickMap, attach_clicks
from .draw import (
    DOCTOR,
    BoardDrawing,
    draw_board,
    draw_sight_matrix,
    new_figure,
    sight_matrix,
)

__all__ = ["DilemmaLab", "FoilLab", "SightExplorer", "TurnStepper"]

NO_CAT = "(no cat)"


def _board(board: Board | str | None) -> Board:
    if board is None:
        return load_board("isla-fortuna")
    if not isinstance(board, (str, Board)):
        raise OptionError(f"board must be a Board or a board name, not {board!r}")
    return load_board(board) if isinstance(board, str) else board


def _space_options(board: Board) -> list[tuple[str, str]]:
    """Dropdown options: "7 Observatory" -> "Observatory" (unnumbered spaces by name)."""
    options = []
    for s in board.spaces:
        number = board.number(s)
        options.append((s if number is None else f"{number} {s}", s))
    return options


def _png(fig: Any) -> bytes:
    """Render a figure to PNG bytes (what the inline backend would do, minus the tight-bbox
    second pass, which doubles the cost of every redraw)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=fig.dpi)
    return buffer.getvalue()


def _show(output: W.Output, fig: Any, drawing: BoardDrawing | None = None) -> bytes:
    """Render and show a figure in ``output``; returns the PNG bytes.

    Outside IPython (tests, scripts) there is no front end to show it to, so the picture is
    only rendered: ``display`` would print ``<IPython.core.display.Image object>`` instead.
    """
    png = drawing.render_png() if drawing is not None else _png(fig)
    from IPython import get_ipython

    if get_ipython() is None:
        return png
    with output:
        output.clear_output(wait=True)
        display(Image(data=png, format="png"))
    return png


def _where(board: Board, space: str | None) -> str:
    if space is None:
        return "-"
    number = board.number(space)
    return space if number is None else f"{number}, {space}"


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th style='text-align:left;padding:2px 8px'>{html.escape(h)}</th>"
                   for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td style='padding:2px 8px'>{html.escape(str(c))}</td>" for c in row)
        + "</tr>" for row in rows)
    return f"<table style='border-collapse:collapse;font-size:90%'><tr>{head}</tr>{body}</table>"


# -- 1. SightExplorer ---------------------------------------------------------------------------
class SightExplorer(W.VBox):
    """Put pawns, Doctor Lucky and the cat anywhere and see who sees whom.

    Parameters
    ----------
    board
        A board or a board name (default: the island).
    pawns
        Pawn name -> space (default: three characters on three spaces).
    doctor, cat
        Doctor Lucky's and the cat's spaces (``cat=None``: no cat on the board).
    cat_blocks
        ``"both"`` (the default ruling, ``I-SIGHT-2``) or ``"outward"``.

    The answers come from :func:`luckylab.games.island.sight_report`; ``report`` holds the
    latest one, ``drawing`` the map, ``hiding_places`` the spaces where one more pawn would be
    unseen by everybody (so it could draw, ``I-DRAW-1``).

    Examples
    --------
    >>> lab = SightExplorer(pawns={"Janet": "Frog Pond", "Sara": "Sunset Beach"},
    ...                     doctor="Frog Pond", cat=None)
    >>> lab.report["Janet"].may_attack
    False
    >>> lab.cat_picker.value = "Frog Pond"
    >>> lab.report["Janet"].may_attack
    True
    """

    def __init__(
        self,
        board: Board | str | None = None,
        pawns: Mapping[str, str] | None = None,
        doctor: str | None = "Sunset Beach",
        cat: str | None = "Observatory",
        cat_blocks: str = "both",
    ) -> None:
        from ..games.island import sight_report

        if pawns is not None and (not isinstance(pawns, Mapping) or not pawns):
            raise OptionError(f"SightExplorer: pawns must map at least one name to a space, "
                              f"not {pawns!r}")
        choice("cat_blocks", cat_blocks, ("both", "outward"), "SightExplorer")
        self._sight_report = sight_report
        self.board = _board(board)
        board_ = self.board
        if pawns is None:
            pawns = {"Janet": "Castelo Feliz", "Sara": "Frog Pond", "Simaon": "Banana Jungle"}
        pawns = dict(pawns)
        for space in [*pawns.values(), doctor, cat]:
            if space is not None:
                board_.check(space)
        options = _space_options(board_)
        self.pawn_pickers = {
            name: W.Dropdown(options=options, value=space, description=name,
                             layout=W.Layout(width="260px"))
            for name, space in pawns.items()
        }
        self.doctor_picker = W.Dropdown(options=options, value=doctor, description=DOCTOR,
                                        style={"description_width": "initial"},
                                        layout=W.Layout(width="260px"))
        self.cat_picker = W.Dropdown(options=[(NO_CAT, None), *options], value=cat,
                                     description="the cat", layout=W.Layout(width="260px"))
        self.cat_blocks_picker = W.ToggleButtons(
            options=[("cat blocks both ways", "both"), ("cat blinds only her room", "outward")],
            value=cat_blocks, style={"button_width": "200px"})
        self.eyes_picker = W.Dropdown(options=[*pawns, DOCTOR], value=next(iter(pawns)),
                                      description="sight of", layout=W.Layout(width="260px"))
        self.hiding_box = W.Checkbox(value=False, description="ring the hiding places",
                                     indent=False)
        self.click_picker = W.Dropdown(options=[*((p, p) for p in pawns), (DOCTOR, DOCTOR),
                                                ("the cat", "cat")],
                                       value=next(iter(pawns)), description="a click moves",
                                       tooltip="click a space on the map to put this pawn there",
                                       style={"description_width": "initial"},
                                       layout=W.Layout(width="260px"))
        self.map_output = W.Output()
        self.map_image = W.Image(format="png", layout=W.Layout(width="960px"))
        self.matrix_output = W.Output()
        self.table = W.HTML()
        self.summary = W.HTML()

        self.map_figure = new_figure(10, 4.8, dpi=96)
        self.drawing: BoardDrawing = draw_board(board_, None, ax=self.map_figure.add_subplot(),
                                                sight_legend=True)
        self.clicks = ClickMap(board_, self.drawing.ax)
        self._click_listener = attach_clicks(self.map_image, self.click)
        self.matrix_figure = new_figure(3.6, 3.2)
        self.matrix_ax = self.matrix_figure.add_subplot()
        self.matrix_image = None
        self.report: dict[str, Any] = {}
        self.hiding_places: tuple[str, ...] = ()

        controls = W.VBox([*self.pawn_pickers.values(), self.doctor_picker, self.cat_picker,
                           self.eyes_picker, self.hiding_box, self.click_picker])
        super().__init__([
            W.HBox([controls, self.matrix_output]),
            self.cat_blocks_picker,
            self.map_image,
            self.summary,
            self.table,
        ])
        for widget in [*self.pawn_pickers.values(), self.doctor_picker, self.cat_picker,
                       self.cat_blocks_picker, self.eyes_picker, self.hiding_box]:
            widget.observe(self._changed, names="value")
        self.refresh()

    def close(self) -> None:
        """Close the widget, its controls and its figures (frees their memory)."""
        release(self)
        super().close()

    # -- state -------------------------------------------------------------------------------
    @property
    def pawns(self) -> dict[str, str]:
        """Pawn name -> space, as the dropdowns say."""
        return {name: picker.value for name, picker in self.pawn_pickers.items()}

    def place(self, pawn: str, space: str | None) -> None:
        """Move a pawn (a name, ``"Doctor Lucky"`` or ``"cat"``) to ``space``, as a student
        would with the dropdown."""
        picker = {DOCTOR: self.doctor_picker, "cat": self.cat_picker}.get(pawn) \
            or self.pawn_pickers[pawn]
        picker.value = space if space is None else self.board.check(space)

    def click(self, event: Mapping[str, Any]) -> str | None:
        """An ipyevents click on the map: put the pawn chosen in ``click_picker`` on the
        space under the pointer. Returns that space (None for a click beside the spaces)."""
        space = self.clicks.space_at(event)
        if space is not None:
            self.place(self.click_picker.value, space)
        return space

    def _changed(self, change: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Ask the engine again and redraw everything."""
        board = self.board
        pawns = self.pawns
        doctor = self.doctor_picker.value
        cat = self.cat_picker.value
        mode = self.cat_blocks_picker.value
        self.report = self._sight_report(board, pawns, doctor=doctor, cat=cat, cat_blocks=mode)
        if self.hiding_box.value:
            # "Where could one more pawn hide?" is the engine's own question: would a pawn
            # there be allowed to draw (I-DRAW-1)?
            probe = "you (a probe)"
            self.hiding_places = tuple(
                s for s in board.spaces
                if self._sight_report(board, {**pawns, probe: s}, doctor=doctor, cat=cat,
                                      cat_blocks=mode)[probe].may_draw)
        else:
            self.hiding_places = ()
        self.drawing.update({"pawns": pawns, "doctor": doctor, "cat": cat, "cat_blocks": mode},
                            sight_of=self.eyes_picker.value, highlight=self.hiding_places)
        self.map_image.value = self.drawing.render_png()

        everyone = [*pawns, DOCTOR]
        rows = {name: row.sees for name, row in self.report.items()}
        # Doctor Lucky's row: he sees whoever sees him (sight is symmetric, I-SIGHT-1);
        # read from the report so no sight rule is computed here.
        rows[DOCTOR] = {name for name, row in self.report.items() if DOCTOR in row.seen_by}
        if self.matrix_image is None:
            _, _, self.matrix_image = draw_sight_matrix(rows, ax=self.matrix_ax, order=everyone)
        else:  # same pawns, same axes: only the cells change
            self.matrix_image.set_data(sight_matrix(rows, everyone)[1])
        _show(self.matrix_output, self.matrix_figure)

        self.table.value = _table(
            ["pawn", "space", "sees", "seen by", "may draw?", "may attack?", "why"],
            [[name, _where(board, pawns[name]), ", ".join(sorted(row.sees)) or "nobody",
              ", ".join(sorted(row.seen_by)) or "nobody", "yes" if row.may_draw else "no",
              "yes" if row.may_attack else "no", row.reason]
             for name, row in self.report.items()])
        hiding = ""
        if self.hiding_box.value:
            hiding = (f" Ringed: the {len(self.hiding_places)} spaces where one more pawn would "
                      "be seen by nobody.")
        cat_text = "no cat" if cat is None else f"the cat in {_where(board, cat)}"
        self.summary.value = html.escape(
            f"Doctor Lucky in {_where(board, doctor)}, {cat_text}.{hiding}")


# -- 2. TurnStepper -----------------------------------------------------------------------------
def _agent_names(game: str) -> list[str]:
    """The agents a stepper offers: the readable bots, then the look-ahead bot ``"ismcts"``
    where the game has one."""
    from ..agents import agent_names
    from ..errors import UnknownGame

    try:
        return agent_names(game, look_ahead=True)
    except UnknownGame:
        return ["random"]


def _agent_label(name: str) -> str:
    return "ismcts (look-ahead)" if name == "ismcts" else name


def _make_agent(game: str, name: str, seed: int) -> Any:
    from ..agents import RandomAgent, agent_class
    from ..errors import UnknownGame

    try:
        cls = agent_class(game, name)
    except UnknownGame:
        if name != "random":
            raise
        cls = RandomAgent
    return cls(seed)


_PHASE_WORDS = {
    "phase1": "Phase 1",
    "phase2": "Phase 2",
    "foil": "foiling round",
    "penalty": "choosing a Hazard penalty",
}
"""Engine phase names in the words the lessons use."""


class TurnStepper(W.VBox):
    """Step through a seeded game, one decision at a time, and watch the board.

    Parameters
    ----------
    players
        Number of players (2..8; with 2-3 the Strangers join, ``I-STR-1``).
    seed
        The game's seed (the agents are seeded from it too): the same seed replays the same game.
    agents
        An agent name for everybody, or one name per player (in seat order of the players):
        a readable bot of :func:`luckylab.agents.agent_names` or ``"ismcts"``, the look-ahead
        bot of :mod:`luckylab.agents.search` (slower: tens of milliseconds a decision).
    game, options
        The game, ``"island"`` or ``"kill"`` (Save has :class:`~luckylab.viz.ship.ShipStepper`,
        Panic Island :class:`~luckylab.viz.panic_widget.PanicWidget`), and its rule options,
        passed to :func:`luckylab.new_game`.
    history
        How many steps **Back** can undo (snapshots are kept for the last ones only).

    Buttons: **Step** (one decision), **Back**, **To next attempt** (play until a foiling
    round starts, or the game ends), **To next jump** (play until Doctor Lucky's step makes the
    turn jump, ``I-DOC-3``, a Lucky Train ride included), **Reset** (a fresh game with the seed
    in the box).
    ``game`` is the live game, ``log_lines`` the events in plain words, ``foil_rows`` the
    current (or last) foiling round seat by seat.
    """

    MAX_PLAY = 5000
    """Most decisions **To next attempt** plays before giving up (the turn cap ends games)."""

    def __init__(
        self,
        players: int = 4,
        seed: int = 1,
        agents: str | Sequence[str] | None = None,
        game: str = "island",
        history: int = 400,
        **options: Any,
    ) -> None:
        choice("game", game, ("island", "kill"), "TurnStepper (Save: ShipStepper; Panic: "
               "PanicWidget)")
        whole("players", players, 2, 8, "TurnStepper")
        whole("seed", seed, 0, None, "TurnStepper")
        whole("history", history, 0, 100_000, "TurnStepper")
        self.game_name = game
        self.options = dict(options)
        self.history_limit = history
        names = _agent_names(game)
        self.seed_box = W.IntText(value=seed, description="seed", layout=W.Layout(width="160px"))
        self.players_picker = W.Dropdown(options=list(range(2, 9)), value=players,
                                         description="players", layout=W.Layout(width="160px"))
        chosen = self._agent_list(agents, players, names)
        labelled = [(_agent_label(n), n) for n in names]
        self.agent_pickers = [
            W.Dropdown(options=labelled, value=chosen[k] if k < len(chosen) else names[0],
                       description=f"player {k + 1}", layout=W.Layout(width="200px"))
            for k in range(8)
        ]
        self.step_button = W.Button(description="Step", icon="step-forward",
                                    tooltip="apply one decision")
        self.back_button = W.Button(description="Back", icon="step-backward",
                                    tooltip="undo the last step")
        self.attempt_button = W.Button(description="To next attempt", icon="fast-forward",
                                       tooltip="play until a foiling round starts",
                                       layout=W.Layout(width="160px"))
        self.jump_button = W.Button(description="To next jump", icon="fast-forward",
                                    tooltip="play until the turn jumps (or the game ends)",
                                    layout=W.Layout(width="160px"))
        self.reset_button = W.Button(description="Reset", icon="refresh",
                                     tooltip="a fresh game with this seed and these players")
        self.status = W.HTML()
        self.log_view = W.HTML(layout=W.Layout(max_height="220px", overflow="auto"))
        self.log_view.add_class("luckylab-event-log")  # the browser test reads the log here
        self.foil_view = W.HTML()
        self.map_output = W.Output()
        self.map_figure = new_figure(10, 4.8, dpi=96)
        self.map_ax = self.map_figure.add_subplot()
        self.drawing: BoardDrawing | None = None
        self.log_lines: list[str] = []
        self.foil_answers: list[list[str]] = []
        self._round_closed = True
        self.foil_outcome = ""
        self.last_events: list[Any] = []

        self.step_button.on_click(lambda _: self.step())
        self.back_button.on_click(lambda _: self.back())
        self.attempt_button.on_click(lambda _: self.play_to_attempt())
        self.jump_button.on_click(lambda _: self.play_to_jump())
        self.reset_button.on_click(lambda _: self.reset())
        self.players_picker.observe(lambda _: self._show_agent_pickers(), names="value")
        self.agent_box = W.HBox([])
        super().__init__([
            W.HBox([self.seed_box, self.players_picker, self.reset_button]),
            self.agent_box,
            W.HBox([self.back_button, self.step_button, self.attempt_button,
                    self.jump_button]),
            self.status,
            self.map_output,
            W.HBox([W.VBox([W.HTML("<b>what happened</b>"), self.log_view],
                           layout=W.Layout(width="60%")),
                    W.VBox([W.HTML("<b>foiling round, seat by seat</b>"), self.foil_view],
                           layout=W.Layout(width="40%"))]),
        ])
        self._show_agent_pickers()
        self.reset()

    def close(self) -> None:
        """Close the widget, its controls and its figures (frees their memory)."""
        release(self)
        super().close()

    @staticmethod
    def _agent_list(agents: str | Sequence[str] | None, players: int,
                    names: list[str]) -> list[str]:
        if agents is None:
            return [names[0]] * players
        if isinstance(agents, str):
            agents = [agents] * players
        agents = list(agents)
        if len(agents) != players:
            raise OptionError(f"agents names one agent per player: {players} needed, "
                             f"{len(agents)} given")
        for name in agents:
            if name not in names:
                raise OptionError(f"no agent {name!r} here; agents: {', '.join(names)}")
        return agents

    def _show_agent_pickers(self) -> None:
        self.agent_box.children = tuple(self.agent_pickers[: self.players_picker.value])

    # -- driving the game --------------------------------------------------------------------
    def reset(self) -> None:
        """A fresh game from the seed box, player count and agent pickers."""
        from ..games.registry import new_game

        seed = int(self.seed_box.value)
        players = int(self.players_picker.value)
        game = new_game(self.game_name, players=players, seed=seed, **self.options)
        self.game = game
        # Seed the bots exactly as luckylab.simulation.play_game does (one seed per seat, drawn
        # in seat order, Strangers included), so the game on screen is the game a simulation
        # with this seed plays.
        rng = random.Random(seed ^ 0x5EED)
        seats = _seats(game)
        bot_seeds = [rng.getrandbits(32) for _ in seats]
        player_seats = [s for s in seats if not _is_stranger(game, s)]
        self.agents = {}
        for k, seat in enumerate(player_seats):
            self.agents[seat] = _make_agent(self.game_name, self.agent_pickers[k].value,
                                            bot_seeds[seat])
        # Snapshots for Back: the oldest fall off the end once there are ``history`` of them.
        self._past: deque[tuple[Any, dict[int, Any], list[list[str]], str, bool]] = deque(
            maxlen=self.history_limit)
        self.log_lines = [e.text for e in game.events]
        self.foil_answers, self.foil_outcome, self._round_closed = [], "", True
        self.last_events = []
        self._redraw()

    def _decide(self) -> list[Any]:
        game = self.game
        seat = game.current_player
        agent = self.agents.get(seat)
        if agent is None:  # a seat with no bot of its own (should the engine ask a Stranger)
            agent = self.agents.setdefault(seat, _make_agent(self.game_name, "random", seat))
        action = agent.choose(game)
        events = game.apply(action)
        self.log_lines.extend(e.text for e in events)
        self._note_foil(events)
        return events

    def _snapshot(self) -> None:
        self._past.append((self.game.clone(), {s: _clone_agent(a) for s, a in
                                               self.agents.items()},
                           [row[:] for row in self.foil_answers], self.foil_outcome,
                           self._round_closed))

    def step(self) -> list[Any]:
        """Apply one decision of the current player's bot; returns its events."""
        if self.game.is_over:
            self._redraw()
            return []
        self._snapshot()
        self.last_events = self._decide()
        self._redraw()
        return self.last_events

    def back(self) -> bool:
        """Undo the last step (False when there is nothing to undo)."""
        if not self._past:
            return False
        (self.game, self.agents, self.foil_answers, self.foil_outcome,
         self._round_closed) = self._past.pop()
        self.log_lines = [e.text for e in self.game.events]
        self.last_events = []
        self._redraw()
        return True

    def play_to_attempt(self) -> list[Any]:
        """Play until a foiling round starts (a murder attempt or a Hazard on Doctor Lucky) or
        the game ends; returns the events of the last step."""
        events: list[Any] = []
        for _ in range(self.MAX_PLAY):
            if self.game.is_over:
                break
            self._snapshot()
            events = self._decide()
            if self.game.phase == "foil" or self.game.is_over or any(
                    e.kind in ("attempt", "foiled", "win") for e in events):
                break
        self.last_events = events
        self._redraw()
        return events

    def play_to_jump(self) -> list[Any]:
        """Play until Doctor Lucky's step makes the turn jump (``I-DOC-3``; a Lucky Train ride
        when it jumps back to the player who just played) or the game ends; returns the events
        of the last step."""
        events: list[Any] = []
        for _ in range(self.MAX_PLAY):
            if self.game.is_over:
                break
            self._snapshot()
            events = self._decide()
            if self.game.is_over or any(_is_jump(e) for e in events):
                break
        self.last_events = events
        self._redraw()
        return events

    @property
    def jumps(self) -> tuple[int, int]:
        """(turn jumps so far, Lucky Train rides among them), read from the event log."""
        jumps = [e for e in self.game.events if _is_jump(e)]
        rides = sum(e.data["jump"] == e.data.get("last_active") for e in jumps)
        return len(jumps), rides

    def _note_foil(self, events: Sequence[Any]) -> None:
        """Keep the current (or last) foiling round seat by seat, from the engine's events."""
        for event in events:
            if event.kind == "foil":
                if self._round_closed:
                    self.foil_answers, self.foil_outcome = [], ""
                    self._round_closed = False
                data = event.data
                self.foil_answers.append([self.game.names[data["seat"]], event.text,
                                          str(data.get("needed", ""))])
            elif event.kind in ("foiled", "win") and not self._round_closed:
                self.foil_outcome = event.text
                self._round_closed = True
        if getattr(self.game, "foil", None) is not None and self._round_closed:
            # A round has begun and nobody has answered yet.
            self.foil_answers, self.foil_outcome = [], ""
            self._round_closed = False

    @property
    def foil_rows(self) -> list[list[str]]:
        """The current or last foiling round: one row per seat asked (who, what they did, Luck
        still needed), then the seats still to be asked."""
        rows = [row[:] for row in self.foil_answers]
        foil = getattr(self.game, "foil", None)
        if foil is not None:
            game = self.game
            for seat in list(foil.order)[len(foil.asked):]:
                now = seat == game.current_player
                rows.append([game.names[seat], "deciding now..." if now else "not asked yet",
                             ""])
        return rows

    # -- drawing ------------------------------------------------------------------------------
    def _redraw(self) -> None:
        game = self.game
        board = game.board
        if self.drawing is None or self.drawing.board is not board:
            self.map_ax.clear()
            self.drawing = draw_board(board, game, ax=self.map_ax, sight_legend=True)
        deciding = game.current_player
        active = getattr(game, "active", deciding)
        sight = game.names[active] if active is not None and active in game.position else None
        self.drawing.update(game, sight_of=sight, title=self._title())
        _show(self.map_output, self.map_figure, self.drawing)
        self.status.value = self._status_html()
        self.step_button.disabled = self.attempt_button.disabled = game.is_over
        self.jump_button.disabled = game.is_over
        self.back_button.disabled = not self._past
        recent = self.log_lines[-14:]
        start = len(self.log_lines) - len(recent) + 1
        fresh = len(self.log_lines) - len(self.last_events)  # this step's lines are in bold
        items = "".join(
            f"<li>{'<b>' if start + k > fresh else ''}{html.escape(t)}"
            f"{'</b>' if start + k > fresh else ''}</li>" for k, t in enumerate(recent))
        self.log_view.value = f"<ol start='{start}' style='margin:0'>{items}</ol>"
        foil = getattr(game, "foil", None)
        head = ""
        if foil is not None:
            kind = getattr(foil, "kind", "murder")  # Kill Doctor Lucky has murders only
            head = (f"{html.escape(game.names[foil.attacker])}'s {kind} attempt, value "
                    f"{foil.value}: {foil.needed} still needed<br>")
        outcome = f"<br><i>{html.escape(self.foil_outcome)}</i>" if self.foil_outcome else ""
        rows = self.foil_rows
        body = _table(["seat", "when asked", "still needed"], rows) if rows else \
            "<i>no foiling round yet</i>"
        self.foil_view.value = head + body + outcome

    def _title(self) -> str:
        game = self.game
        if game.is_over:
            if getattr(game, "finished", game.winner is not None) and game.winner is not None:
                return f"Game over after {game.turn} turns: {game.names[game.winner]} wins"
            return f"Game over after {game.turn} turns (unfinished)"
        active = getattr(game, "active", game.current_player)
        phase = _PHASE_WORDS.get(game.phase, str(game.phase).replace("_", " "))
        return f"Turn {game.turn}: {game.names[active]}, {phase}"

    def _status_html(self) -> str:
        game = self.game
        rows = []
        for seat in _seats(game):
            hand = "-" if _is_stranger(game, seat) else str(len(game.hands.get(seat, ())))
            rows.append([game.names[seat], _where(game.board, game.position.get(seat)),
                         hand, game.move.get(seat, "-") if hasattr(game, "move") else "-",
                         game.attack.get(seat, "-") if hasattr(game, "attack") else "-"])
        who = "nobody (game over)" if game.current_player is None else \
            game.names[game.current_player]
        head = (f"<b>Deciding now:</b> {html.escape(who)} &nbsp; <b>Doctor Lucky:</b> "
                f"{html.escape(_where(game.board, game.doctor))} &nbsp; <b>cat:</b> "
                f"{html.escape(_where(game.board, getattr(game, 'cat', None)))} &nbsp; "
                "<b>deck:</b> "
                f"{len(game.deck)} cards &nbsp; <b>steps so far:</b> {len(game.history)}"
                f" &nbsp; <b>turn jumps:</b> {self.jumps[0]} (Lucky Train: {self.jumps[1]})")
        return head + _table(["seat", "space", "cards", "Move", "Attack"], rows)


def _is_jump(event: Any) -> bool:
    """Did this event make the turn jump (Doctor Lucky walked onto someone, ``I-DOC-3``)?"""
    return event.kind == "doctor_moves" and "jump" in event.data


def _seats(game: Any) -> list[int]:
    """Every seat at the table in clockwise order (the Island lists Strangers too; a game
    without Strangers, like Kill Doctor Lucky, has one seat per player)."""
    return list(getattr(game, "seats", None) or range(game.players))


def _is_stranger(game: Any, seat: int) -> bool:
    is_stranger = getattr(game, "is_stranger", None)
    return bool(is_stranger(seat)) if is_stranger is not None else False


def _clone_agent(agent: Any) -> Any:
    import copy

    return copy.deepcopy(agent)


# -- 3. FoilLab ---------------------------------------------------------------------------------
class FoilLab(W.VBox):
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

    def close(self) -> None:
        """Close the widget, its controls and its figures (frees their memory)."""
        release(self)
        super().close()

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
        _show(self.output, self.figure)


# -- 4. DilemmaLab ------------------------------------------------------------------------------
class DilemmaLab(W.VBox):
    """The volunteer's dilemma of one foiling round: who should pay, and who ends up paying.

    Type each opponent's cards as Luck values ("2, 1, 0"), pick the asking order (from the
    attacker's left, ``I-FOIL-1``) and the attack value; the lab asks
    :func:`luckylab.analysis.dilemma.solve_foil_round` for the subgame-perfect plan (open hands, one
    round, each Luck point spent costs ``luck_cost``; see :mod:`luckylab.analysis.dilemma` for the
    model) and shows who pays, whether the attempt is foiled, and the ``I-FOIL-3`` loser.

    ``plan`` is the latest :class:`luckylab.analysis.dilemma.FoilRound`, ``order`` the seating as
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

    def close(self) -> None:
        """Close the widget, its controls and its figures (frees their memory)."""
        release(self)
        super().close()

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
        self.path_view.value = "<b>the plan, seat by seat</b>" + _table(
            ["asked", "still needed", "holds", "does"],
            [[order[st.seat], st.need, st.held,
              f"discards {list(st.cards)}" if st.discard else "passes"] for st in plan.path]
            + [[order[k], "-", sum(hands[order[k]]), "not asked"]
               for k in range(len(plan.path), len(order))])
        needs = list(range(1, attack + 1))
        self.strategy_view.value = (
            "<b>the full plan</b>: Luck each would discard if asked with this much still "
            "needed" + _table(["", *map(str, needs)],
                              [[order[s], *(plan.strategy[s].get(n, 0) for n in needs)]
                               for s in range(len(order))]))
        if self.all_orders_box.value:
            self.seatings = theory.seat_order_effect(attack, [hands[n] for n in self.names],
                                                     names=self.names, luck_cost=cost)
            self.seatings_view.value = "<b>every seating</b>" + _table(
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
        _show(self.output, self.figure)
