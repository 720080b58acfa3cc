"""Step through a game of Doctor Who: The Card Game from one seat's chair.

:class:`SeatView` holds a game played by bots and shows *only* what the chosen seat may know:
``game.observation(seat)`` (its hand and reserve, its own face-down cards, every face-up card,
counts, TP, counters, the cards it passed and received) and the public log. Face-down cards of
other players are shown as ``?``. Buttons step one action or one whole turn; a drop-down picks
the seat whose eyes you borrow. It computes no rules: everything comes from the game.

>>> view = SeatView(players=3, seed=2, seat=0)
>>> view.step_button.click()
>>> len(view.game.history), view.seat_choice.value
(1, 0)
>>> view.shown <= view.allowed()
True
"""

from __future__ import annotations

import html

import ipywidgets as W

from ..agents import agent_class
from ..errors import OptionError
from ..games.doctorwho import DoctorWhoGame
from ..games.registry import new_game
from .base import LessonWidget

__all__ = ["SeatView"]


class SeatView(LessonWidget):
    """A game of bots seen from one seat.

    Parameters
    ----------
    players, seed
        The game (3 or 4 players).
    seat
        The seat whose view is shown (0 is "Player 1").
    agents
        One bot name per seat (default: all ``careful``).
    game
        A game to show instead of a new one.
    """

    def __init__(self, players: int = 3, seed: int | None = 0, seat: int = 0,
                 agents: list[str] | None = None, game: DoctorWhoGame | None = None) -> None:
        self.game = game if game is not None else new_game("doctorwho", players=players,
                                                           seed=seed)
        n = self.game.players
        names = agents or ["careful"] * n
        if len(names) != n:
            raise OptionError(f"agents names {len(names)} bots for {n} seats")
        self.bots = [agent_class("doctorwho", name)(seed=i) for i, name in enumerate(names)]
        self.shown: set[int] = set()
        self.seat_choice = W.Dropdown(options=[(f"Player {s + 1}", s) for s in range(n)],
                                      value=seat, description="seen by")
        self.step_button = W.Button(description="next action", icon="step-forward")
        self.turn_button = W.Button(description="next turn", icon="fast-forward")
        self.panel = W.HTML()
        self.news = W.HTML()
        self.step_button.on_click(lambda _: self.step())
        self.turn_button.on_click(lambda _: self.next_turn())
        self.seat_choice.observe(lambda _: self.redraw(), names="value")
        super().__init__([W.HBox([self.seat_choice, self.step_button, self.turn_button]),
                          self.panel, self.news])
        self.redraw()

    @property
    def seat(self) -> int:
        return int(self.seat_choice.value)

    def step(self) -> None:
        """Let the bot whose decision it is take one action."""
        if not self.game.is_over:
            player = self.game.current_player
            self.game.apply(self.bots[player].choose(self.game))
        self.redraw()

    def next_turn(self) -> None:
        """Play actions until the turn passes to another player (or the game ends)."""
        start = self.game.view().turn
        while not self.game.is_over and self.game.view().turn == start:
            self.game.apply(self.bots[self.game.current_player].choose(self.game))
        self.redraw()

    def allowed(self) -> set[int]:
        """Card ids the shown seat may see now (what the panel may contain)."""
        obs = self.game.observation(self.seat)
        ids = set(obs["hand"]) | set(obs["reserve"]) | set(obs["passed"]) | set(obs["received"])
        for loc in obs["locations"]:
            ids.add(loc["card"])
            ids |= {c for c in loc["defenders"] + loc["enemies"] if c is not None}
        for up in obs["reserve_up"]:
            ids |= set(up)
        return ids

    def _name(self, cid: int | None) -> str:
        if cid is None:
            return "?"
        self.shown.add(cid)
        return html.escape(str(self.game.view(self.seat).card(cid)))

    def redraw(self) -> None:
        """Draw the chosen seat's view from its observation alone."""
        obs = self.game.observation(self.seat)
        self.shown = set()
        me = self.seat
        rows = []
        for s in range(obs["players"]):
            locs = [loc for loc in obs["locations"] if loc["owner"] == s]
            cells = []
            for loc in locs:
                extra = []
                if loc["defenders"]:
                    extra.append("defended by " + ", ".join(map(self._name, loc["defenders"])))
                if loc["enemies"]:
                    extra.append(f"attacked by Player {loc['attacker'] + 1}: "
                                 + ", ".join(map(self._name, loc["enemies"])))
                if loc["tardis"]:
                    extra.append("TARDIS")
                cells.append(f"<b>{self._name(loc['card'])}</b>"
                             + (f" ({'; '.join(extra)})" if extra else ""))
            you = " (you)" if s == me else ""
            rows.append(f"<tr><td>Player {s + 1}{you}</td><td>{obs['tp'][s]} TP</td>"
                        f"<td>{obs['hands'][s]} in hand, {obs['reserves'][s]} in reserve</td>"
                        f"<td>{obs['daleks'][s]} Daleks, {obs['tardises'][s]} TARDIS</td>"
                        f"<td>{obs['scores'][s]} VP now</td><td>{'<br>'.join(cells)}</td></tr>")
        hand = ", ".join(map(self._name, obs["hand"])) or "nothing"
        reserve = ", ".join(map(self._name, obs["reserve"] + obs["reserve_up"][me])) or "empty"
        passed = ", ".join(map(self._name, obs["passed"])) or "nothing yet"
        received = ", ".join(map(self._name, obs["received"])) or "nothing yet"
        right = (me - 1) % obs["players"] + 1
        mover = obs["current_player"]
        status = "game over" if mover is None else f"Player {mover + 1} to act"
        if obs["endgame"]:
            status += " (End Game)"
        self.panel.value = (
            f"<p><b>Seen by Player {me + 1}</b>, turn {obs['turn']}: {status}; "
            f"{obs['deck']} cards in the deck.</p>"
            f"<p>Your hand: {hand}<br>Your reserve: {reserve}<br>"
            f"You last passed to Player {right}: {passed}<br>You last received: {received}</p>"
            "<table><tr><th>seat</th><th>TP</th><th>cards</th><th>counters</th><th>score</th>"
            f"<th>Locations</th></tr>{''.join(rows)}</table>")
        recent = [e.text for e in self.game.events[-8:]]
        self.news.value = "<br>".join(html.escape(t) for t in recent)
