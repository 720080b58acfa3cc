"""Take a seat: play a whole game of any of the five games against the bots.

:class:`PlayTable` seats one or more people at the keyboard (hot seat) and bots in the other
seats: Island, Kill or Save Doctor Lucky, Panic Island! (the players are one team against the
hourglass) and Doctor Who: The Card Game. On a person's turn it offers exactly the legal
actions of the engine, as the engine groups them (``choices()``: where to move, which card to
play, attack or rescue, which cards to pay in a foiling round, which card to turn, which
Location to defend), in words (:mod:`luckylab.viz.play.choices`); the bots' turns then play
out with a short event log. The picture is clickable (``ipywidgets.Image`` + ``ipyevents``, see
:mod:`luckylab.viz.clicks`): a click on a space, a card of the grid, a card of your hand or a
Location picks the choice that goes there, a second click on it carries it out.

Hidden information: the widget shows only what the person deciding may know (the game's
``observation(seat)``): their own hand (and Doctor Who's reserve, passed and received cards),
the others' hand sizes and what has been played, never another seat's cards.

This module owns no rules: every answer comes from the engine, the bots
(:mod:`luckylab.agents`) and :func:`luckylab.analysis.luck.p_foil`; what differs between the
games is wording and pictures, as data (:mod:`luckylab.viz.play.words`).
"""

from __future__ import annotations

import copy
import html
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass
from typing import Any

import ipywidgets as W

from ...errors import LuckyLabError, PlayTableError
from ..base import release
from ..clicks import ClickMap, attach_clicks
from .choices import Choice, Namer, grid_words, movable_pawns, offered, space_words
from .grid import GridMap
from .map import TableMap
from .state import full_board, hand, hand_size, live_seats, phase, seen, where
from .tableau import Tableau
from .words import PHASE_WORDS, WORDS

__all__ = ["GAMES", "LOG_LINES", "Choice", "PlayTable", "PlayTableError"]

GAMES = tuple(WORDS)
LOG_LINES = 14

HINT_CPU_MS = 900
"""The most CPU time (milliseconds) the Hint's look-ahead bot thinks: with the readable bots'
answers, the Hint comes within about a second even where a game has long to run."""

_BOT_WORDS = {"ismcts": "look-ahead bot (ISMCTS)", "perfect": "perfect-memory bot",
              "none": "no-memory bot"}
_MIXED = "(mixed)"


def _alike(action: Any, other: Choice | None) -> int:
    """How alike two actions are: 1 for the same kind, plus 1 per field they share."""
    if other is None or type(action) is not type(other.action):
        return 0
    if not is_dataclass(action):
        return 1
    return 1 + sum(getattr(action, f.name) == getattr(other.action, f.name)
                   for f in fields(action))


class PlayTable(W.VBox):
    """Play a seeded game against the bots on a clickable map.

    Parameters
    ----------
    game
        ``"island"``, ``"kill"``, ``"save"``, ``"panic"`` (Panic Island!) or ``"doctorwho"``.
    players
        How many live players (the game's own range).
    you
        The seat(s) played at the keyboard, numbered from 1: ``1``, or ``[1, 3]`` for a hot
        seat of two.
    seed
        Seeds the game and the bots: the same seed and the same choices give the same game.
    bots
        ``None`` (each game's default bot), one bot name for every bot seat, or a list with
        one name per bot seat in seat order: a readable bot of
        :func:`luckylab.agents.agent_names`, or ``"ismcts"``, the look-ahead bot of
        :mod:`luckylab.agents.ismcts` (it thinks for up to about a second a decision). Every
        bot is seeded from ``seed`` and its seat.
    **options
        Rule options of the game (``strangers=True``, ``deck_steps=True``, ...).

    The controls are attributes (``group_picker``, ``pawn_picker``, ``action_picker``,
    ``go_button``, ``plan_button``, ``undo_button``, ``hint_button``, ``bots_picker``,
    ``save_button``, ``load_button``, ``record_text``, ``image``); ``choices`` holds what is
    offered now, ``lines`` the event log, ``game`` the engine, ``bot_names`` the bot of each
    bot seat. :meth:`click` takes an ipyevents event dict. ``bots_picker`` changes the
    opponents from their next decision on (see :meth:`set_bots`).

    Examples
    --------
    >>> table = PlayTable("kill", players=3, you=1, seed=4)
    >>> table.group_picker.options[0]
    'Snoop'
    >>> before = len(table.game.history)       # the bots before you have played already
    >>> table.go_button.click()                # snoop: stay and draw a card
    >>> len(table.game.history) > before + 1   # ... and the bots after you too
    True
    >>> table.undo_button.click()
    >>> len(table.game.history) == before
    True

    Panic Island! and Doctor Who have the same controls; their picture is the island's grid of
    cards (with the team's hourglass) and the Doctor Who table (your hand as cards):

    >>> team = PlayTable("panic", players=2, you=[1, 2], seed=3)
    >>> team.group_picker.options
    ('Turn a card', 'Gouga!')
    >>> team.click({"dataX": 0, "dataY": 0}) is None   # a click off the cards picks nothing
    True
    """

    def __init__(self, game: str = "island", players: int = 4, you: int | Sequence[int] = 1,
                 seed: int = 0, bots: str | Sequence[str] | None = None,
                 **options: Any) -> None:
        from ...games.registry import new_game

        if game not in GAMES:
            raise PlayTableError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PlayTableError(f"seed must be a whole number, not {seed!r}")
        try:
            self.game = new_game(game, players=players, seed=seed, **options)
        except (ValueError, TypeError) as exc:
            raise PlayTableError(str(exc)) from None
        self.game_name = game
        self.words = WORDS[game]
        self.seed = seed
        self.live = live_seats(self.game)
        wanted = [you] if isinstance(you, int) else list(you)
        if not wanted or any(not isinstance(p, int) or isinstance(p, bool)
                             or not 1 <= p <= len(self.live) for p in wanted):
            raise PlayTableError(f"you must be a player number 1..{len(self.live)} or a list "
                                 f"of them, not {you!r}")
        self.humans = frozenset(self.live[p - 1] for p in wanted)
        self.namer = Namer(self.game, self.words, self.humans)
        self.bot_names: dict[int, str] = {}
        self.bots = self._make_bots(bots)
        self.viewer = min(self.humans)
        self.lines: list[str] = []
        self.choices: dict[str, list[Choice]] = {}
        self.focused: str | None = None
        self.picked: str | None = None
        self.plan: list[tuple[int, str]] = []
        self._spread = False  # a Move may be spread over several pawns now
        self._asked: tuple[Any, int, list[Any]] = (None, 0, [])  # game, moves, its choices()
        self.message = ""
        self._history: list[tuple[Any, tuple[dict[int, Any], dict[int, str]], int, int,
                                  int]] = []
        self.turned: list[tuple[int, str]] = []  # Panic Island!: (turn, place) of each reveal
        self._rebuilding = False
        self.last_redraw = 0.0

        self._build_controls()
        self._build_map()
        super().__init__([
            self.title_html,
            W.HBox([W.VBox([self.image, self.alt_html]),
                    W.VBox([self.clock_bar, self.hand_html, self.group_picker, self.pawn_picker,
                            self.action_picker, W.HBox([self.go_button, self.plan_button]),
                            W.HBox([self.undo_button, self.hint_button]),
                            self.message_html, self.hint_html, self.bots_picker],
                           layout=W.Layout(width="380px"))]),
            self.key_html,
            self.table_html,
            self.log_html,
            W.HBox([self.save_button, self.load_button]),
            self.record_text,
        ])
        self.add_class("luckylab-play-table")
        self._log_events(self.game.events)
        try:
            self._run_bots()
            self._refresh()
        except BaseException:  # a table that cannot start leaves no widget behind
            self.close()
            raise

    # -- seats -----------------------------------------------------------------------------
    def player_number(self, seat: int) -> int:
        """The number students read (Player 1 ...) of an engine seat."""
        return self.live.index(seat) + 1

    def who(self, seat: int) -> str:
        """``"Player 2"`` (and the character's name on the island)."""
        return self.namer.who(seat)

    def bot_choices(self) -> list[tuple[str, str]]:
        """The opponents this game offers, as (words shown, bot name): the readable bots,
        then the look-ahead bot where the game has one."""
        from ...agents import agent_names

        return [(_BOT_WORDS.get(n, f"{n} bot"), n)
                for n in agent_names(self.game_name, look_ahead=True)]

    def _make_bots(self, bots: str | Sequence[str] | None) -> dict[int, Any]:
        """Seat a new bot in every bot seat (``bots`` as in the constructor), each seeded from
        the table's seed and its seat; sets ``bot_names``. Nothing changes on a bad name."""
        from ...agents import agent_class, agent_names

        seats = [s for s in self.live if s not in self.humans]
        names: list[str | None]
        if bots is None or isinstance(bots, str):
            names = [bots] * len(seats)
        else:
            names = list(bots)
            if len(names) != len(seats):
                raise PlayTableError(f"bots lists {len(names)} names for {len(seats)} bot "
                                     f"seat(s)")
        allowed = agent_names(self.game_name, look_ahead=True)
        chosen = [allowed[0] if name is None else name for name in names]
        for name in chosen:
            if name not in allowed:
                raise PlayTableError(f"no bot {name!r} for {self.game_name}; bots: "
                                     f"{', '.join(allowed)}")
        made = {seat: agent_class(self.game_name, name)(self.seed * 1000 + seat)
                for seat, name in zip(seats, chosen, strict=True)}
        self.bot_names = dict(zip(seats, chosen, strict=True))
        return made

    def set_bots(self, bots: str | Sequence[str] | None) -> None:
        """Change the opponents (the ``bots_picker``): from their next decision on, every bot
        seat is played by ``bots`` (as in the constructor), freshly seeded from the table's
        seed and its seat. Undo takes the table back to just before your last decision,
        the bots of then included.

        >>> table = PlayTable("kill", players=3, you=1, seed=4)
        >>> table.set_bots("ismcts")
        >>> sorted(table.bot_names.values()), table.bots_picker.value
        (['ismcts', 'ismcts'], 'ismcts')
        """
        self.bots = self._make_bots(bots)
        self._show_bots()
        names = set(self.bot_names.values())
        words = {n: w for w, n in self.bot_choices()}
        who = (words[names.pop()] if len(names) == 1 else
               ", ".join(f"{self.who(s)}: {words[n]}" for s, n in self.bot_names.items()))
        self.message = f"Opponents from their next decision on: {who}."
        self._status()

    def _show_bots(self) -> None:
        """Point the bots picker at the bots seated now (an option for a mix of bots)."""
        options = self.bot_choices()
        names = set(self.bot_names.values())
        value = names.pop() if len(names) == 1 else _MIXED
        if value == _MIXED:
            words = {n: w for w, n in options}
            mix = ", ".join(words[n] for n in self.bot_names.values())
            options = [*options, (f"as now: {mix}", _MIXED)]
        was = self._rebuilding
        self._rebuilding = True
        self.bots_picker.options = options
        self.bots_picker.value = value
        self._rebuilding = was

    # -- controls ----------------------------------------------------------------------------
    def _build_controls(self) -> None:
        self.title_html = W.HTML()
        self.hand_html = W.HTML()
        self.group_picker = W.ToggleButtons(options=[], style={"button_width": "110px"})
        self.pawn_picker = W.Dropdown(options=[], description="pawn",
                                      layout=W.Layout(width="360px", display="none"))
        self.action_picker = W.Dropdown(options=[], description="choice",
                                        layout=W.Layout(width="360px"))
        self.go_button = W.Button(description="Do it", button_style="primary",
                                  tooltip="carry out the choice")
        self.plan_button = W.Button(description="Move it, then another pawn",
                                    layout=W.Layout(width="220px", display="none"))
        self.undo_button = W.Button(description="Undo", tooltip="take back your last decision")
        self.hint_button = W.Button(description="Hint", tooltip="what would the bots do? "
                                    "what are the odds?")
        self.message_html = W.HTML()
        self.hint_html = W.HTML()
        self.bots_picker = W.Dropdown(options=[], description="opponents",
                                      tooltip="the bots in the other seats, from their next "
                                      "decision on", layout=W.Layout(width="360px"))
        self.clock_bar = W.FloatProgress(min=0.0, max=1.0, value=1.0, description="hourglass",
                                         bar_style="info", layout=W.Layout(
                                             display="" if self.words.team else "none"))
        self.key_html = W.HTML()
        self.table_html = W.HTML()
        self.log_html = W.HTML()
        self.log_html.add_class("luckylab-event-log")
        self.table_html.add_class("luckylab-play-players")
        self.message_html.add_class("luckylab-play-message")
        self.hint_html.add_class("luckylab-play-hint")
        self.save_button = W.Button(description="Save record",
                                    tooltip="put the game's replay record in the box below")
        self.load_button = W.Button(description="Load record",
                                    tooltip="replay the record in the box below")
        self.record_text = W.Textarea(placeholder="a saved game record (JSON)",
                                      layout=W.Layout(width="760px", height="60px"))
        self.group_picker.observe(self._group_changed, names="value")
        self.pawn_picker.observe(self._pawn_changed, names="value")
        self.action_picker.observe(self._action_changed, names="value")
        self._show_bots()
        self.bots_picker.observe(self._bots_changed, names="value")
        self.go_button.on_click(lambda _b: self.do_it())
        self.plan_button.on_click(lambda _b: self.add_to_plan())
        self.undo_button.on_click(lambda _b: self.undo())
        self.hint_button.on_click(lambda _b: self.hint())
        self.save_button.on_click(lambda _b: self.save())
        self.load_button.on_click(lambda _b: self.load(self.record_text.value))

    def _build_map(self) -> None:
        picture = self.words.picture
        self.map: Any
        if picture == "grid":
            self.map = GridMap(self.game)
        elif picture == "tableau":
            self.map = Tableau(self.game)
        else:
            self.map = TableMap(self.game, picture)
        self.figure = self.map.figure
        self.drawing = self.map.drawing
        self.key_html.value = self.map.key
        self.clicks = getattr(self.map, "clicks", None) or ClickMap(self.map.board,
                                                                    self.figure.axes[0])
        self.image = W.Image(format="png", layout=W.Layout(width="760px",
                                                           border="1px solid #cccccc"))
        self.image.add_class("luckylab-play-map")
        self.alt_html = W.HTML()
        self.alt_html.add_class("luckylab-map-alt")
        # The board maps repaint only what moves and follow the pointer; the card pictures are
        # repainted whole, so they answer clicks only.
        self._listener = attach_clicks(self.image, self.click,
                                       self.hover if picture in ("paths", "rooms", "ship")
                                       else None)

    # -- the grouped choices -------------------------------------------------------------------
    def _card_words(self, card_id: int) -> str:
        return self.namer.card(card_id)

    def _engine_choices(self) -> list[Any]:
        """The engine's grouped legal actions now (asked once per state of the game)."""
        game = self.game
        asked_of, moves_then, groups = self._asked
        if asked_of is not game or moves_then != len(game.history):
            groups = game.choices() if game.current_player in self.humans else []
            self._asked = (game, len(game.history), groups)
        return groups

    def _move_group(self) -> tuple[Any, ...]:
        """The engine's legal Moves spread over pawns (empty unless the game offers them)."""
        for group in self._engine_choices():
            if group.actions and hasattr(group.actions[0], "moves"):
                return group.actions
        return ()

    def _legal_choices(self) -> dict[str, list[Choice]]:
        self.namer.game = self.game
        return offered(self.game, self.words, self.namer, self.plan, self.pawn_picker.value,
                       self._engine_choices())

    # -- acting ------------------------------------------------------------------------------
    @property
    def chosen(self) -> Choice | None:
        """The choice the pickers point at now (None when nothing is offered)."""
        options = self.choices.get(self.group_picker.value or "", [])
        index = self.action_picker.value
        return options[index] if isinstance(index, int) and index < len(options) else None

    def do_it(self) -> list[str]:
        """Carry out the chosen action (the "Do it" button), then let the bots play.

        Returns the new log lines.
        """
        choice = self.chosen
        if choice is None or self.game.current_player not in self.humans:
            self.message = "Nothing to do now."
            self._refresh()
            return []
        snapshot = (self.game.clone(), copy.deepcopy((self.bots, self.bot_names)),
                    len(self.lines), self.game.current_player, len(self.turned))
        start = len(self.lines)
        try:
            events = self._apply(choice.action)
        except LuckyLabError as exc:  # the engine says why (a lesson too); nothing changed
            self.message = f"Not allowed: {exc}"
            self._refresh()
            return []
        self._history.append(snapshot)
        self.viewer = snapshot[3]
        self.plan = []
        self.focused = self.picked = None
        self.message = ""
        self._log_events(events)
        self._run_bots()
        self._refresh(keep_group=False)
        return self.lines[start:]

    def add_to_plan(self) -> None:
        """Island with Strangers: keep this pawn's move and move another pawn with the rest."""
        choice = self.chosen
        if choice is None or not hasattr(choice.action, "moves"):
            return
        pawn = self.pawn_picker.value
        self.plan = [m for m in choice.action.moves]
        if pawn not in {p for p, _ in self.plan}:  # pragma: no cover - defensive
            return
        self.focused = self.picked = None
        self._refresh()

    def undo(self) -> bool:
        """Take back your last decision (and the bots' replies to it)."""
        if self.plan:
            self.plan = []
            self._refresh()
            return True
        if not self._history:
            self.message = "Nothing to undo."
            self._refresh()
            return False
        self.game, (self.bots, self.bot_names), n_log, self.viewer, n_turned = \
            self._history.pop()
        del self.turned[n_turned:]
        self.namer.game = self.game
        self._show_bots()
        del self.lines[n_log:]
        self.focused = self.picked = None
        self.message = "Undone."
        self._refresh()
        return True

    def _run_bots(self) -> None:
        game = self.game
        guard = 0
        while not game.is_over and game.current_player not in self.humans:
            seat = game.current_player
            self._log_events(self._apply(self.bots[seat].choose(game)))
            guard += 1
            if guard > 100_000:  # pragma: no cover - the engines' turn caps end games first
                raise LuckyLabError("the bots did not hand the turn back")
        if not game.is_over:
            self.viewer = game.current_player

    def _apply(self, action: Any) -> list[Any]:
        """Hand ``action`` to the engine (which checks it); on Panic Island! remember where a
        card was turned, and in which turn (the table shows last turn's cards briefly)."""
        game = self.game
        turn = seen(game, game.current_player).get("turn") if self.words.team else None
        events = game.apply(action)
        place = getattr(action, "place", None)
        if turn is not None and place is not None and type(action).type_name != "place":
            self.turned.append((int(turn), str(place)))
        return list(events)

    def _log_events(self, events: Sequence[Any]) -> None:
        for event in events:
            self.lines.append(event.text)

    # -- clicks --------------------------------------------------------------------------------
    def click(self, event: Mapping[str, Any]) -> str | None:
        """Handle an ipyevents click on the map: pick the choice that goes to that space
        (switching group if needed); a second click on the picked space carries it out.
        Returns the space clicked (None off the board)."""
        space = self.clicks.space_at(event)
        if space is None:
            return None
        self.select_space(space)
        return space

    def select_space(self, space: str) -> None:
        """What a click on ``space`` does (see :meth:`click`): a space of a map, a place of
        Panic Island!'s grid, or a Doctor Who card (``"card:<id>"``) or Location
        (``"loc:<id>"``). Among the choices it may pick, those that also touch what was
        picked before come first (a card, then the Location to play it on), then those of
        the group shown, then the one most like the choice shown (the same kind named for
        Gouga)."""
        current = self.chosen
        if current is not None and current.touches(space) and self.picked == space:
            self.do_it()
            return
        before = self.picked
        self.focused = self.picked = space
        best: tuple[tuple[int, int, int, int], str, int, Choice] | None = None
        for order, group in enumerate(dict.fromkeys([self.group_picker.value, *self.choices])):
            for k, choice in enumerate(self.choices.get(group or "", [])):
                if not choice.touches(space):
                    continue
                both = before is not None and before != space and choice.touches(before)
                rank = (0 if both else 1, order, -_alike(choice.action, current), k)
                if best is None or rank < best[0]:
                    best = (rank, group, k, choice)
        where = self._key_words(space)
        if best is not None:
            _, group, k, choice = best
            self._rebuilding = True
            self.group_picker.value = group
            self._fill_actions()
            self._rebuilding = False
            self.action_picker.value = k
            self.message = f"Picked: {choice.label}. Click {where} again or press Do it."
        else:
            self.message = f"{where}: nothing you can do there now."
        self._redraw()
        self._status()

    def _key_words(self, key: str) -> str:
        """A clicked thing in words: a space, a place of the grid, a card or a Location."""
        kind, _, cid = key.partition(":")
        if kind in ("card", "loc") and cid.isdigit():
            return self.namer.card(int(cid))
        if self.words.picture == "grid":
            return grid_words(key)
        return key

    def hover(self, event: Mapping[str, Any]) -> None:
        """Pointer moves: put the space under the pointer in focus (redraws only on change)."""
        space = self.clicks.space_at(event)
        if space is not None and space != self.focused:
            self.focused = space
            self._redraw()

    # -- hints, records --------------------------------------------------------------------------
    def hint(self) -> str:
        """What each bundled bot would do now in your seat, what the look-ahead bot would do
        and how its imagined games went, and P(foil) of an attack from here (exact, from
        :func:`luckylab.analysis.luck.p_foil`). Returns the hint as text.

        Every answer uses only what your seat may know: the look-ahead bot deals the cards
        you cannot see at random (the engine's ``determinize``). It thinks for at most
        :data:`HINT_CPU_MS` milliseconds of CPU time.
        """
        from ...agents import agent_class, agent_names

        game = self.game
        seat = game.current_player
        if seat is None or seat not in self.humans:
            self.hint_html.value = "<i>No decision of yours to hint at.</i>"
            return ""
        lines = []
        labels = {repr(c.action): c.label for cs in self.choices.values() for c in cs}
        for name in agent_names(self.game_name):
            bot = agent_class(self.game_name, name)(self.seed)
            action = bot.choose(game.clone())
            lines.append(f"the {_BOT_WORDS.get(name, f'{name} bot')} would: "
                         f"{labels.get(repr(action), self._plain(action))}")
        lines.extend(self._look_ahead(labels))
        if self.words.odds_card_kind:  # the foiling games
            lines.extend(self._odds(seat))
        text = "\n".join(lines)
        self.hint_html.value = "<br>".join(  # indented lines stay indented
            "&nbsp;" * (len(line) - len(line.lstrip(" "))) * 2 + html.escape(line.lstrip(" "))
            for line in lines)
        return text

    def _look_ahead(self, labels: Mapping[str, str]) -> list[str]:
        """The Hint's look-ahead lines: the choice of the look-ahead bot in your seat (at its
        own budget, the same as a look-ahead opponent's, but stopping early after
        :data:`HINT_CPU_MS` of CPU time) and, for each move it tried, how many of its
        imagined games began with it and how you did in them."""
        from ...agents import agent_class

        bot = agent_class(self.game_name, "ismcts")(self.seed, max_cpu_ms=HINT_CPU_MS)
        action, counts = bot.explain(self.game.clone())

        def words(a: Any) -> str:
            return labels.get(repr(a), self._plain(a))

        head = f"the look-ahead bot would: {words(action)}"
        if not counts:
            return [head + " (your only choice: it did not look ahead)"]
        score = ("your team's score (a share of the best score) was"
                 if self.words.team else "you won")
        short = (f" (it stops after about {HINT_CPU_MS / 1000:g} s of thinking, before its "
                 f"usual {bot.iterations})" if bot.cut_short else "")
        lines = [head, f"  it imagined {sum(n for _, n, _ in counts)} games{short} (each with "
                       f"a fresh random deal of what you cannot see, everybody playing on like "
                       f"the {bot.rollout} bot) and {score}:"]
        for a, n, got in counts:
            if self.words.team:
                lines.append(f"  - {got / n:.2f} on average in the {n} after: {words(a)}")
            else:
                share = f"{got:g}" if got == int(got) else f"{got:.1f}"
                lines.append(f"  - {share} of the {n} after: {words(a)}")
        if action != counts[0][0]:
            lines.append(f"  (it keeps the {bot.rollout} bot's choice unless another one did "
                         "clearly better)")
        return lines

    def _plain(self, action: Any) -> str:
        return self.namer.plain(action)

    def foil_question(self, seat: int, weapon: int | None = None) -> dict[str, Any]:
        """The P(foil) question of an attack (a rescue in Save) by ``seat`` where it stands:
        keyword arguments for :func:`luckylab.analysis.luck.p_foil`, from what ``seat`` knows."""
        from ...analysis.luck import foil_question

        return foil_question(self.game, seat, weapon)

    def _odds(self, seat: int) -> list[str]:
        from ...analysis.luck import p_foil

        view = self.game.view(seat)
        words = self.words
        cards = [None, *sorted(c for c in hand(seen(self.game, seat))
                               if view.card(c).kind == words.odds_card_kind)]
        lines = []
        values_seen: set[int] = set()
        for card in cards:
            q = self.foil_question(seat, card)
            if q["attack"] in values_seen:
                continue
            values_seen.add(q["attack"])
            p = p_foil(**q, exact=True)
            how = words.odds_no_card if card is None else f"with {view.card(card).name}"
            lines.append(f"{words.odds_attempt} {how} from here (value {q['attack']}): P(the "
                         f"others can foil it) = {float(p):.4f}"
                         + (f" (exactly {p})" if p.denominator < 10**6 else ""))
        return lines

    def record(self) -> dict[str, Any]:
        """The game's replay record (:meth:`~luckylab.games.base.GameBase.record`) and the
        table's seats, as JSON-ready data."""
        data = self.game.record()
        data["table"] = {"you": sorted(self.player_number(s) for s in self.humans),
                         "seed": self.seed,
                         "bots": [self.bot_names[s] for s in sorted(self.bot_names)]}
        return data

    def save(self, path: str | None = None) -> str:
        """Put the record in the text box (and write it to ``path`` if given); returns JSON."""
        text = json.dumps(self.record())
        self.record_text.value = text
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        self.message = f"Saved: {len(self.game.history)} actions."
        self._status()
        return text

    def load(self, record: str | Mapping[str, Any]) -> None:
        """Replay a saved record (JSON text, a path to it, or the dict) into this table.

        The record must be of this table's game; the bots take over from where it ends.
        Raises :class:`PlayTableError` if it is not a record of this game.
        """
        from ...games.record import replay

        if isinstance(record, str):
            text = record.strip()
            if not text.startswith("{"):
                with open(text, encoding="utf-8") as f:
                    text = f.read()
            try:
                record = json.loads(text)
            except json.JSONDecodeError as exc:
                raise PlayTableError(f"not a saved game record: {exc}") from None
        if not isinstance(record, Mapping) or record.get("game") != self.game_name:
            raise PlayTableError(f"not a saved {self.game_name} record")
        try:
            game = replay({k: v for k, v in record.items() if k != "table"})
        except (LuckyLabError, KeyError, TypeError, ValueError) as exc:
            raise PlayTableError(f"this record does not replay: {exc}") from None
        if game.players != self.game.players:
            raise PlayTableError(f"the record has {game.players} players, this table "
                                 f"{self.game.players}")
        self.game = game
        self.namer.game = game
        self._history = []
        self.turned = []
        self.plan = []
        self.focused = self.picked = None
        self.lines = []
        self._log_events(game.events[-LOG_LINES:])
        self.message = f"Loaded: {len(game.history)} actions replayed."
        self._run_bots()
        self._refresh()

    # -- redrawing -----------------------------------------------------------------------------
    def _group_changed(self, _change: Any) -> None:
        if self._rebuilding:
            return
        self._fill_actions()
        self._redraw()

    def _pawn_changed(self, _change: Any) -> None:
        if self._rebuilding:
            return
        self.choices = self._legal_choices()
        self._fill_actions()
        self._redraw()

    def _bots_changed(self, change: Any) -> None:
        if self._rebuilding or change["new"] == _MIXED:
            return
        self.set_bots(change["new"])

    def _action_changed(self, _change: Any) -> None:
        if self._rebuilding:
            return
        choice = self.chosen
        if choice is not None and choice.space is not None:
            self.focused = choice.space
            self._redraw()

    def _fill_actions(self) -> None:
        offered_now = self.choices.get(self.group_picker.value or "", [])
        options = [(c.label, k) for k, c in enumerate(offered_now)]
        was = self._rebuilding
        self._rebuilding = True
        self.action_picker.options = options
        self.action_picker.value = 0 if options else None
        self._rebuilding = was
        is_move = bool(offered_now) and hasattr(offered_now[0].action, "moves")
        self.pawn_picker.layout.display = "" if is_move and len(self.pawn_picker.options) > 1 \
            else "none"
        self.plan_button.layout.display = "" if is_move and self._spread else "none"

    def _refresh(self, keep_group: bool = True) -> None:
        """Rebuild the choices and every view from the engine (a new decision starts on its
        first group)."""
        game = self.game
        self.namer.game = game
        self._rebuilding = True
        seat = game.current_player
        moves = self._move_group() if seat in self.humans else ()
        self._spread = bool(moves) and len(movable_pawns(moves, seat, ())) > 1
        if moves:  # a Move that may be spread over pawns: one pawn at a time
            pawns = movable_pawns(moves, seat, self.plan)
            self.pawn_picker.options = [(self.who(p), p) for p in pawns]
            if pawns and self.pawn_picker.value not in pawns:
                self.pawn_picker.value = pawns[0]
        self.choices = self._legal_choices() if seat in self.humans else {}
        groups = list(self.choices)
        old = self.group_picker.value if keep_group else None
        self.group_picker.options = groups
        self.group_picker.value = old if old in groups else (groups[0] if groups else None)
        self._rebuilding = False
        self._fill_actions()
        for button in (self.go_button, self.hint_button):
            button.disabled = not groups
        self.undo_button.disabled = not (self._history or self.plan)
        self._status()
        self._redraw()

    def _targets_now(self) -> list[str]:
        cards = self.words.picture == "tableau"  # a Doctor Who choice touches cards too
        return [k for c in self.choices.get(self.group_picker.value or "", [])
                for k in ([c.space, *c.also] if cards else [c.space]) if k is not None]

    def _redraw(self) -> None:
        start = time.perf_counter()
        game = self.game
        obs = seen(game, self.viewer)
        if self.words.team:
            self.map.recent = self._recent(obs)
        chosen = self.chosen
        if isinstance(self.map, TableMap):
            self.png = self.map.png(game, obs, self._targets_now(), self.viewer, self.focused,
                                    self._map_title(), self.namer)
        else:
            keys = () if chosen is None else tuple(k for k in (chosen.space, *chosen.also) if k)
            self.png = self.map.png(game, obs, self._targets_now(), self.viewer, self.focused,
                                    self._map_title(), self.namer, chosen=keys)
        self.image.value = self.png
        self.last_redraw = time.perf_counter() - start
        now = "over" if game.is_over else f"{self.who(game.current_player)} to decide"
        focus = "" if self.focused is None else f"; {self._key_words(self.focused)} in focus"
        # One sentence that says what the picture shows, under it (an Image view cannot carry
        # a tooltip or alt text in ipywidgets 8: its tooltip breaks the view).
        what = "Map" if isinstance(self.map, TableMap) else "Picture"
        self.alt_text = f"{what} of the {self.words.place}: {now}; {self.words.clicks}{focus}."
        self.alt_html.value = f"<small><i>{html.escape(self.alt_text)}</i></small>"

    def _recent(self, obs: Mapping[str, Any]) -> set[str]:
        """Panic Island!: the places turned over in the last turn (shown while face down)."""
        turn = int(obs["turn"])
        return {place for t, place in self.turned if t == turn - 1}

    def _phase_words(self) -> str:
        now = phase(seen(self.game, self.viewer))
        return self.words.phases.get(now, PHASE_WORDS.get(now, now))

    def _map_title(self) -> str:
        game = self.game
        if game.is_over:
            return "The game is over"
        return f"{self.who(game.current_player)} to decide: {self._phase_words()}"

    def _status(self) -> None:
        game = self.game
        you = self.viewer
        if game.is_over:
            self.title_html.value = f"<h3>{html.escape(self._end_words())}.</h3>"
        else:
            seat = game.current_player
            self.title_html.value = (f"<h3>{html.escape(self.who(seat))}: "
                                     f"{html.escape(self._phase_words())}</h3>")
        obs = seen(game, you)
        if self.words.team:
            self._show_clock(obs)
            self.hand_html.value = self._panic_hand_html(obs)
            self.table_html.value = self._panic_html(obs)
        else:
            held = sorted(hand(obs))
            cards = "".join(f"<li>{html.escape(self._card_words(c))}</li>" for c in held)
            self.hand_html.value = (f"<b>Hand of {html.escape(self.who(you))}</b> "
                                    f"({len(held)} cards)<ul style='margin:2px'>{cards}</ul>")
            if self.words.picture == "tableau":
                self.hand_html.value += self._doctorwho_hand_html(obs)
                self.table_html.value = self._doctorwho_html(obs)
            else:
                self.table_html.value = self._table_html(obs)
        self.message_html.value = html.escape(self.message)
        lines = self.lines[-LOG_LINES:]
        self.log_html.value = ("<div style='font-size:90%'><b>What happened</b><br>"
                               + "<br>".join(html.escape(line) for line in lines) + "</div>")

    def _end_words(self) -> str:
        """How the game ended, in words (the engine's result: a winner, a shared win, the
        team's score)."""
        game = self.game
        extra = game.result().extra
        if self.words.team:
            score = f"score {extra['score']} ({extra['band']})"
            if extra["won"]:
                return f"The team escaped with the raft and the paddle: {score}"
            return f"The team is lost ({extra['end']}): {score}"
        if self.words.picture == "tableau":
            winners = [self.who(s) for s in extra["winners"]]
            scores = ", ".join(f"{self.who(s)} {v} VP" for s, v in enumerate(extra["scores"]))
            if len(winners) == 1:
                return f"{winners[0]} wins ({scores})"
            if winners:
                return f"{' and '.join(winners)} share the win ({scores})"
            return f"The game ended with no winner ({scores})"
        winner = game.result().winner
        if winner is None:
            if extra.get("end") == "sunk":  # Save: the ship sank
                return "The ship sank: nobody wins"
            return "The game ended with no winner"
        return f"{self.who(winner)} wins"

    def _show_clock(self, obs: Mapping[str, Any]) -> None:
        """Panic Island!: the hourglass bar, the time left of the team's budget."""
        budget = self.map.budget
        left = max(float(obs["time_left"]), 0.0)
        self.clock_bar.value = left / budget if budget else 0.0
        self.clock_bar.bar_style = "danger" if left < 0.2 * budget else "info"
        self.clock_bar.description = f"{left:.0f} s left"

    def _panic_hand_html(self, obs: Mapping[str, Any]) -> str:
        view = self.game.view(self.viewer)
        team = ", ".join(self.who(s) for s in self.live)
        lines = [f"<b>The team</b>: {html.escape(team)} (everybody wins or loses together)"]
        if obs["in_hand"]:
            cards = ", ".join(view.card(c).name for _, c in obs["in_hand"])
            lines.append(f"Card to put back face down: {html.escape(cards)}")
        return "<br>".join(lines)

    def _panic_html(self, obs: Mapping[str, Any]) -> str:
        view = self.game.view(self.viewer)
        found = {view.card(c).kind for c in obs["found"]}
        saved = ", ".join(view.card(c).name for c in obs["saved"]) or "nobody yet"
        rows = [f"Hourglass: {max(float(obs['time_left']), 0.0):.0f} of "
                f"{self.map.budget:.0f} seconds left; turn {obs['turn'] + 1}; Gouga "
                f"{obs['gouga']}.",
                f"Raft {'found' if 'raft' in found else 'not found yet'}, paddle "
                f"{'found' if 'paddle' in found else 'not found yet'}.",
                f"Saved ({obs['score']}): {saved}."]
        if obs["continuous"]:
            rows.append("Obstacles in force: "
                        + ", ".join(view.card(c).name for c in obs["continuous"]) + ".")
        return "<small>" + "<br>".join(html.escape(r) for r in rows) + "</small>"

    def _doctorwho_hand_html(self, obs: Mapping[str, Any]) -> str:
        """Doctor Who: the reserve, and the cards last passed and received (one's own)."""
        you = self.viewer
        name = self._card_words
        reserve = [name(c) for c in obs["reserve"]] + [f"{name(c)} (face up)"
                                                      for c in obs["reserve_up"][you]]
        right = (you - 1) % int(obs["players"])
        rows = [f"Reserve: {', '.join(reserve) or 'empty'}",
                f"Passed to {self.who(right)}: "
                f"{', '.join(name(c) for c in obs['passed']) or 'nothing yet'}",
                f"Received: {', '.join(name(c) for c in obs['received']) or 'nothing yet'}"]
        return "<small>" + "<br>".join(html.escape(r) for r in rows) + "</small>"

    def _doctorwho_html(self, obs: Mapping[str, Any]) -> str:
        """Doctor Who: a row per player, as the seat deciding may see the table."""
        rows = []
        for seat in range(int(obs["players"])):
            locs = []
            for loc in obs["locations"]:
                if loc["owner"] != seat:
                    continue
                bits = []
                for word, cards in (("Defenders", loc["defenders"]), ("Enemies", loc["enemies"])):
                    if cards:
                        shown = [self._card_words(c) for c in cards if c is not None]
                        down = sum(c is None for c in cards)
                        by = f" of {self.who(loc['attacker'])}" if word == "Enemies" else ""
                        bits.append(f"{word}{by}: " + ", ".join(
                            shown + ([f"{down} face down"] if down else [])))
                if loc["tardis"]:
                    bits.append("TARDIS")
                locs.append(self._card_words(loc["card"])
                            + (f" ({'; '.join(bits)})" if bits else ""))
            rows.append([self.who(seat), f"{obs['tp'][seat]} TP", f"{obs['scores'][seat]} VP",
                         f"{obs['hands'][seat]} in hand, {obs['reserves'][seat]} in reserve",
                         f"{obs['daleks'][seat]} Daleks, {obs['tardises'][seat]} TARDIS",
                         "; ".join(locs) or "none"])
        header = ["player", "Time Points", "score now", "cards", "counters", "Locations"]
        head = "".join(f"<th style='text-align:left;padding:1px 8px'>{h}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td style='padding:1px 8px'>{html.escape(c)}</td>"
                                        for c in r) + "</tr>" for r in rows)
        extra = (f"Deck: {obs['deck']} cards; discards: {len(obs['discard'])}"
                 + ("; the End Game." if obs["endgame"] else "."))
        return (f"<table style='font-size:90%'><tr>{head}</tr>{body}</table>"
                f"<small>{html.escape(extra)}</small>")

    def _table_html(self, obs: Mapping[str, Any]) -> str:
        game = self.game
        words = self.words
        board = full_board(game, words.picture)
        rows = []
        for seat in self.live:
            row = [self.who(seat), space_words(board, where(obs, seat)),
                   str(hand_size(obs, seat))]
            if words.strength_column:
                row.append(f"Move {obs['move'][seat]}, Attack {obs['attack'][seat]}")
            rows.append(row)
        header = ["player", "where", "cards in hand"] + (["strength"] if words.strength_column
                                                         else [])
        discards = obs["discards"]
        top = self._card_words(discards[-1]) if discards else "none"
        doctor = space_words(board, obs["doctor"])
        extra = f"Doctor Lucky in {doctor}. Discards: {len(discards)} (top: {top})."
        notes = {"deck": lambda: f"Deck: {obs['deck_size']} cards",
                 "cat": lambda: f"the cat in {space_words(board, obs['cat'])}",
                 "afloat": lambda: f"Decks afloat: {''.join(obs['afloat'])}"}
        if words.table_notes:
            extra += " " + "; ".join(notes[note]() for note in words.table_notes) + "."
        head = "".join(f"<th style='text-align:left;padding:1px 8px'>{h}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td style='padding:1px 8px'>{html.escape(c)}</td>"
                                        for c in r) + "</tr>" for r in rows)
        return (f"<table style='font-size:90%'><tr>{head}</tr>{body}</table>"
                f"<small>{html.escape(extra)}</small>")

    # -- closing -------------------------------------------------------------------------------
    def close(self) -> None:
        """Close the table, every control and picture widget it owns, and clear its figure
        (frees their memory; a closed table cannot be shown again)."""
        release(self)
        super().close()
