"""Step through a seeded game of bots one decision at a time and watch the board
(:class:`TurnStepper`, lesson 3).
"""

from __future__ import annotations

import html
import random
from collections import deque
from collections.abc import Sequence
from typing import Any

import ipywidgets as W

from ..errors import OptionError
from ..simulation import player_seats
from .args import choice, whole
from .base import LessonWidget, html_table, show_figure, space_label
from .draw import (
    BoardDrawing,
    draw_board,
    new_figure,
)

__all__ = ["TurnStepper"]


def _agent_names(game: str) -> list[str]:
    """The agents a stepper offers: the readable bots, then the look-ahead bot ``"ismcts"``."""
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


class TurnStepper(LessonWidget):
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
        bot of :mod:`luckylab.agents.ismcts` (slower: a tenth of a second or more a decision).
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
        bot_seeds = [rng.getrandbits(32) for _ in range(game.num_seats)]
        self.agents = {}
        for k, seat in enumerate(player_seats(self.game_name, players, **self.options)):
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
            if self.game.view().phase == "foil" or self.game.is_over or any(
                    e.kind in ("attempt", "foiled", "game_over") for e in events):
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
                self.foil_answers.append([self.game.view().names[data["seat"]], event.text,
                                          str(data.get("needed", ""))])
            elif event.kind in ("foiled", "game_over") and not self._round_closed:
                self.foil_outcome = event.text
                self._round_closed = True
        if self.game.view().foil is not None and self._round_closed:
            # A round has begun and nobody has answered yet.
            self.foil_answers, self.foil_outcome = [], ""
            self._round_closed = False

    @property
    def foil_rows(self) -> list[list[str]]:
        """The current or last foiling round: one row per seat asked (who, what they did, Luck
        still needed), then the seats still to be asked."""
        rows = [row[:] for row in self.foil_answers]
        view = self.game.view()
        foil = view.foil
        if foil is not None:
            for seat in foil.order[len(foil.asked):]:
                now = seat == self.game.current_player
                rows.append([view.names[seat], "deciding now..." if now else "not asked yet",
                             ""])
        return rows

    # -- drawing ------------------------------------------------------------------------------
    def _redraw(self) -> None:
        game = self.game
        view = game.view()  # a teacher's stepper: the open table
        board = view.board
        if self.drawing is None or self.drawing.board is not board:
            self.map_ax.clear()
            self.drawing = draw_board(board, view, ax=self.map_ax, sight_legend=True)
        self.drawing.update(view, sight_of=view.names[view.active], title=self._title())
        show_figure(self.map_output, self.map_figure, self.drawing)
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
        foil = view.foil
        head = ""
        if foil is not None:
            head = (f"{html.escape(view.names[foil.attacker])}'s {foil.kind} attempt, value "
                    f"{foil.value}: {foil.needed} still needed<br>")
        outcome = f"<br><i>{html.escape(self.foil_outcome)}</i>" if self.foil_outcome else ""
        rows = self.foil_rows
        body = html_table(["seat", "when asked", "still needed"], rows) if rows else \
            "<i>no foiling round yet</i>"
        self.foil_view.value = head + body + outcome

    def _title(self) -> str:
        view = self.game.view()
        if self.game.is_over:
            if view.finished and view.winner is not None:
                return f"Game over after {view.turn} turns: {view.names[view.winner]} wins"
            return f"Game over after {view.turn} turns (unfinished)"
        phase = _PHASE_WORDS.get(view.phase, str(view.phase).replace("_", " "))
        return f"Turn {view.turn}: {view.names[view.active]}, {phase}"

    def _status_html(self) -> str:
        game = self.game
        view = game.view()
        scene = view.scene()
        strangers = set(scene.get("strangers", ()))
        extra = _COLUMNS.get(game.game_name, {})
        rows = []
        for seat, space in enumerate(view.positions):
            name = view.names[seat]
            rows.append([name, space_label(view.board, space),
                         "-" if name in strangers else str(view.hand_size(seat)),
                         *(extra[c](view, seat) if c in extra else "-" for c in _EXTRA)])
        who = "nobody (game over)" if game.current_player is None else \
            view.names[game.current_player]
        head = (f"<b>Deciding now:</b> {html.escape(who)} &nbsp; <b>Doctor Lucky:</b> "
                f"{html.escape(space_label(view.board, view.doctor))} &nbsp; <b>cat:</b> "
                f"{html.escape(space_label(view.board, scene.get('cat')))} &nbsp; "
                "<b>deck:</b> "
                f"{view.deck_size} cards &nbsp; <b>steps so far:</b> {len(game.history)}"
                f" &nbsp; <b>turn jumps:</b> {self.jumps[0]} (Lucky Train: {self.jumps[1]})")
        return head + html_table(["seat", "space", "cards", *_EXTRA], rows)


def _is_jump(event: Any) -> bool:
    """Did this event make the turn jump (Doctor Lucky walked onto someone, ``I-DOC-3``)?"""
    return event.kind == "doctor_moves" and "jump" in event.data


_EXTRA = ("Move", "Attack")
"""The status table's columns beyond seat, space and cards."""

_COLUMNS: dict[str, dict[str, Any]] = {
    "island": {"Move": lambda view, seat: view.move[seat],
               "Attack": lambda view, seat: view.attack[seat]},
}
"""A game's values for those columns, by game (a game not listed shows "-": Kill Doctor Lucky
has no Move or Attack numbers)."""


def _clone_agent(agent: Any) -> Any:
    import copy

    return copy.deepcopy(agent)
