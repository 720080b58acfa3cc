"""Take a seat: play a whole game of Island, Kill or Save Doctor Lucky against the bots.

:class:`PlayTable` seats one or more people at the keyboard (hot seat) and bots in the other
seats. On a person's turn it offers exactly the legal actions of the engine, grouped the way a
player thinks (where to move, which card to play, attack or rescue, which cards to pay in a
foiling round); the bots' turns then play out with a short event log. The map is clickable
(``ipywidgets.Image`` + ``ipyevents``, see :mod:`luckylab.viz.clicks`): a click on a space
picks the choice that goes there, a second click on it carries it out.

The engines offer no grouped view of their actions, so the grouping is built here from
``game.legal_actions()``, a flat list. The exception is an Island foiling round or Hazard
penalty, where that list holds every subset of the hand (2 ** 18 for a hand of 18): there the
payments are built directly, one per multiset of Luck values. Choices that differ only by
which of two equal cards is paid are offered once, and a payment is offered only if no card of
it could be kept back while still paying enough (or if it pays less than is needed); an Island
Move spread over several pawns (Strangers, ``I-STR-6``) is built one pawn at a time.
Everything offered is a legal action of the engine.

Hidden information: the widget shows the hand of the person deciding, the others' hand sizes
and what has been played, never another seat's cards.

This module owns no rules: every answer comes from the engine, the bots
(:mod:`luckylab.agents`) and :func:`luckylab.probability.p_foil`.
"""

from __future__ import annotations

import copy
import html
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as W
from matplotlib.figure import Figure

from ..errors import LuckyLabError
from .blit import Painter
from .clicks import ClickMap, attach_clicks

__all__ = ["Choice", "PlayTable", "PlayTableError"]

GAMES = ("island", "kill", "save")
LOG_LINES = 14
LOOK_AHEAD_ITERATIONS = 32
"""The Hint's look-ahead budget: simulated games per decision (the look-ahead bot's own
default, so the Hint shows what a look-ahead opponent would do in your seat)."""

_BOT_WORDS = {"ismcts": "look-ahead bot (ISMCTS)"}
_NO_LOOK_AHEAD = {"save": " (the look-ahead bot 'ismcts' plays Island and Kill only)"}
_MIXED = "(mixed)"


class PlayTableError(LuckyLabError, ValueError):
    """A play table was asked for something it cannot do (a bad seat, an unknown bot, ...)."""


@dataclass(frozen=True)
class Choice:
    """One offered choice: the words shown, the engine action, the space it goes to (if any)."""

    label: str
    action: Any
    space: str | None = None


# -- names and words -----------------------------------------------------------------------------


def _space_words(board: Any, space: str) -> str:
    number = board.number(space) if space in board else None
    return space if number is None else f"{number}, {space}"


class PlayTable(W.VBox):
    """Play a seeded game against the bots on a clickable map.

    Parameters
    ----------
    game
        ``"island"``, ``"kill"`` or ``"save"``.
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
        :mod:`luckylab.agents.search` (Island and Kill only; it thinks for about a tenth of a
        second a decision). Every bot is seeded from ``seed`` and its seat.
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
    """

    def __init__(self, game: str = "island", players: int = 4, you: int | Sequence[int] = 1,
                 seed: int = 0, bots: str | Sequence[str] | None = None,
                 **options: Any) -> None:
        from ..games.registry import new_game

        if game not in GAMES:
            raise PlayTableError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PlayTableError(f"seed must be a whole number, not {seed!r}")
        try:
            self.game = new_game(game, players=players, seed=seed, **options)
        except (ValueError, TypeError) as exc:
            raise PlayTableError(str(exc)) from None
        self.game_name = game
        self.seed = seed
        self.live = [s for s in self._all_seats() if not self._stranger(s)]
        wanted = [you] if isinstance(you, int) else list(you)
        if not wanted or any(not isinstance(p, int) or isinstance(p, bool)
                             or not 1 <= p <= len(self.live) for p in wanted):
            raise PlayTableError(f"you must be a player number 1..{len(self.live)} or a list "
                                 f"of them, not {you!r}")
        self.humans = frozenset(self.live[p - 1] for p in wanted)
        self.bot_names: dict[int, str] = {}
        self.bots = self._make_bots(bots)
        self.viewer = min(self.humans)
        self.lines: list[str] = []
        self.choices: dict[str, list[Choice]] = {}
        self.focused: str | None = None
        self.picked: str | None = None
        self.plan: list[tuple[int, str]] = []
        self.message = ""
        self._history: list[tuple[Any, tuple[dict[int, Any], dict[int, str]], int, int]] = []
        self._rebuilding = False
        self.last_redraw = 0.0

        self._build_controls()
        self._build_map()
        super().__init__([
            self.title_html,
            W.HBox([W.VBox([self.image, self.alt_html]),
                    W.VBox([self.hand_html, self.group_picker, self.pawn_picker,
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
        self._run_bots()
        self._refresh()

    # -- seats -----------------------------------------------------------------------------
    def _all_seats(self) -> list[int]:
        return list(getattr(self.game, "seats", None) or range(self.game.players))

    def _stranger(self, seat: int) -> bool:
        return bool(getattr(self.game, "is_stranger", lambda s: False)(seat))

    def player_number(self, seat: int) -> int:
        """The number students read (Player 1 ...) of an engine seat."""
        return self.live.index(seat) + 1

    def who(self, seat: int) -> str:
        """``"Player 2"`` (and the character's name on the island)."""
        you = seat in self.humans and len(self.humans) == 1
        if seat not in self.live:  # an Island Stranger: its name says so
            return self.game.names[seat]
        name = f"Player {self.player_number(seat)}"
        if self.game_name == "island":
            return f"{name} ({self.game.names[seat]}{', you' if you else ''})"
        return name + (" (you)" if you else "")

    def bot_choices(self) -> list[tuple[str, str]]:
        """The opponents this game offers, as (words shown, bot name): the readable bots,
        then the look-ahead bot where the game has one."""
        from ..agents import agent_names

        return [(_BOT_WORDS.get(n, f"{n} bot"), n)
                for n in agent_names(self.game_name, look_ahead=True)]

    def _make_bots(self, bots: str | Sequence[str] | None) -> dict[int, Any]:
        """Seat a new bot in every bot seat (``bots`` as in the constructor), each seeded from
        the table's seed and its seat; sets ``bot_names``. Nothing changes on a bad name."""
        from ..agents import agent_class, agent_names

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
                                     f"{', '.join(allowed)}" + _NO_LOOK_AHEAD.get(
                                         self.game_name, ""))
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
        game = self.game
        self._painter = Painter()
        if self.game_name == "island":
            from .draw import draw_board, new_figure

            self.figure = new_figure(9.5, 4.8, dpi=80)
            ax = self.figure.add_subplot()
            self.drawing = draw_board(game.board, game, ax=ax, title="")
            # Two overlays of our own: the spaces the chosen group can go to (dashed) and the
            # space in focus (a thick ring).
            self._targets = ax.scatter([], [], s=1500, facecolors="none", edgecolors="#0072B2",
                                       linewidths=2.2, linestyles="--", zorder=4.6)
            self._focus = ax.scatter([], [], s=2000, facecolors="none", edgecolors="black",
                                     linewidths=3.0, zorder=4.7)
            self.key_html.value = (
                "<small>Map: <b>dashed blue circles</b> are where the chosen move can go; "
                "<b>coloured rings</b> are the spaces that see you (or would see you on the "
                "space in the black circle); lines join you to the pawns that see you.</small>")
            board = game.board
        else:
            from .mansion import draw_mansion

            board = game.ship if self.game_name == "save" else game.board
            if self.game_name == "save":
                from .ship import draw_ship, ship_figsize

                self.figure = Figure(figsize=ship_figsize(board, 9.5, False), dpi=80,
                                     layout="constrained")
                self.drawing = draw_ship(game, self.figure.add_subplot(), legend=False,
                                         title="")
                self._mansion = self.drawing.mansion
            else:
                from .mansion import _figsize

                self.figure = Figure(figsize=_figsize(board.geometry.bounds, 9.5, False),
                                     dpi=80, layout="constrained")
                self.drawing = draw_mansion(board, self.figure.add_subplot(), legend=False,
                                            title="", width=9.5)
                self._mansion = self.drawing
            self.key_html.value = (
                "<small>Map: <b>blue</b> rooms are where the chosen move can go and another "
                "player would see you, <b>purple hatched</b> ones where nobody else would; "
                "<b>grey</b> rooms see you (or would see you in the <b>orange</b> room, the "
                "one in focus).</small>")
        self.clicks = ClickMap(board, self.figure.axes[0])
        self.image = W.Image(format="png", layout=W.Layout(width="760px",
                                                           border="1px solid #cccccc"))
        self.image.add_class("luckylab-play-map")
        self.alt_html = W.HTML()
        self.alt_html.add_class("luckylab-map-alt")
        self._listener = attach_clicks(self.image, self.click, self.hover)

    # -- the grouped choices -------------------------------------------------------------------
    def _group_of(self, action: Any) -> str:
        name = type(action).__name__
        return {
            "Move": "Move", "MoveCat": "Move the cat", "PlayHazard": "Hazard", "Pass": "Pass",
            "Draw": "Draw", "Attack": "Attack", "Foil": "Pay", "GiveCard": "Give a card",
            "DiscardLuck": "Discard Luck", "Snoop": "Snoop", "Step": "Step",
            "PlayCard": "Play a card", "PlayMove": "Play a card", "Rescue": "Rescue",
            "EndTurn": "End turn",
        }.get(name, name)

    _ORDER = ("Move", "Snoop", "Step", "Play a card", "Move the cat", "Hazard", "Draw",
              "Attack", "Rescue", "Pay", "Give a card", "Discard Luck", "Pass", "End turn")

    def _card_words(self, card_id: int) -> str:
        card = self.game.card(card_id)
        game = self.game_name
        if card.kind == "failure":
            return f"{card.name} ({card.luck} {'Luck' if game == 'island' else 'Failure'})"
        if game == "island":
            return f"{card.name} ({card.kind}, Luck {card.luck})"
        return card.name

    def _legal_choices(self) -> dict[str, list[Choice]]:
        game = self.game
        seat = game.current_player
        groups: dict[str, list[Choice]] = {}
        if seat is None:
            return groups
        board = game.board

        def where(space: str) -> str:
            return _space_words(board, space)

        if self.game_name == "island" and game.phase in ("foil", "penalty"):
            # The engine lists every subset of the hand (2 ** 18 for a hand of 18): build one
            # payment per multiset of Luck values instead, as the engine would accept it.
            legal = self._island_payments(seat)
        else:
            legal = game.legal_actions()
        pay_seen: set[tuple[str, tuple[int, ...]]] = set()
        for action in legal:
            group = self._group_of(action)
            name = type(action).__name__
            if name == "Move":
                continue  # built per pawn below (I-STR-6: one Move may be spread over pawns)
            if name in ("Foil", "DiscardLuck"):
                choice = self._payment(action, pay_seen)
                if choice is None:
                    continue
            elif name == "MoveCat":
                choice = Choice(f"the cat to {where(action.space)}", action, action.space)
            elif name == "PlayHazard":
                target = "Doctor Lucky" if action.target == "doctor" else self.who(action.target)
                card = game.card(action.card)
                choice = Choice(f"{card.name} (value {card.value}) at {target}", action)
            elif name == "Pass":
                choice = Choice("stay put" if game.phase == "phase1" else "do nothing", action)
            elif name == "Draw":
                choice = Choice("draw a card (nobody sees you)", action)
            elif name == "Attack":
                value = game.attack_value(seat, action.weapon)
                how = "bare-handed" if action.weapon is None else \
                    f"with {game.card(action.weapon).name}"
                choice = Choice(f"attack {how}: value {value}", action)
            elif name == "GiveCard":
                choice = Choice(f"give {self._card_words(action.card)}", action)
                if any(c.label == choice.label for c in groups.get(group, [])):
                    continue  # two equal cards: one choice
            elif name in ("Snoop", "Step"):
                here = game.position[seat] if self.game_name == "kill" else game.positions[seat]
                if name == "Snoop":
                    label = (f"stay in {where(action.to)} and draw" if action.to == here else
                             f"snoop into {where(action.to)} and draw")
                else:
                    label = f"step into {where(action.to)}"
                choice = Choice(label, action, action.to)
            elif name == "PlayCard":
                pawn = "yourself" if action.pawn == "self" else "Doctor Lucky"
                choice = Choice(f"{self._card_words(action.card)}: {pawn} to "
                                f"{where(action.to)}", action, action.to)
            elif name == "PlayMove":
                pawn = "yourself" if action.target == "self" else "Doctor Lucky"
                choice = Choice(f"{self._card_words(action.card)}: {pawn} to "
                                f"{where(action.to)}", action, action.to)
            elif name == "Rescue":
                value = game.rescue_value(action.aid, game.positions[seat])
                how = "with no Aid" if action.aid is None else \
                    f"with {game.card(action.aid).name}"
                choice = Choice(f"rescue {how}: worth {value}", action)
            elif name == "EndTurn":
                choice = Choice("end your turn", action)
            else:  # pragma: no cover - a new action type: still offered, in plain words
                choice = Choice(str(action), action)
            groups.setdefault(group, []).append(choice)
        if self.game_name == "island" and game.phase == "phase1":
            moves = self._move_choices(seat)
            if moves:
                groups["Move"] = moves
        for group in groups.values():
            if group and type(group[0].action).__name__ in ("Foil", "DiscardLuck"):
                group.sort(key=lambda c: self._paid(c.action))
        return {g: groups[g] for g in self._ORDER if g in groups} | \
            {g: c for g, c in groups.items() if g not in self._ORDER}

    def _island_payments(self, seat: int) -> list[Any]:
        """Island foiling round or Hazard penalty: the payments worth offering (one per
        multiset of Luck values, lowest card ids first) and, in a penalty, each card to give."""
        from itertools import product

        from ..games.island import DiscardLuck, Foil, GiveCard

        game = self.game
        hand = list(game.hands[seat])
        by_luck: dict[int, list[int]] = {}
        for c in sorted(hand):
            if game.card(c).luck > 0:
                by_luck.setdefault(game.card(c).luck, []).append(c)
        values = sorted(by_luck)
        combos = []
        for counts in product(*(range(len(by_luck[v]) + 1) for v in values)):
            cards = [c for v, k in zip(values, counts, strict=True) for c in by_luck[v][:k]]
            combos.append(tuple(sorted(cards, key=hand.index)))
        if game.phase == "foil":
            return [Foil(combo) for combo in combos]
        value = game.penalty_value
        actions: list[Any] = [GiveCard(c) for c in hand]
        actions.extend(DiscardLuck(combo) for combo in combos
                       if combo and self._luck_of(combo) >= value)
        return actions

    def _luck_of(self, cards: Sequence[int]) -> int:
        return sum(self.game.card(c).luck for c in cards)

    def _paid(self, action: Any) -> int:
        return sum(self.game.card(c).luck for c in action.cards)

    def _needed(self) -> int:
        game = self.game
        if self.game_name == "island":
            return game.foil.needed if game.phase == "foil" else game.penalty_value
        if self.game_name == "kill":
            return game.foil.needed
        return game.attempt.needed

    def _payment(self, action: Any, seen: set[tuple[str, tuple[int, ...]]]) -> Choice | None:
        """One payment per multiset of values, and only if no card of it could be kept back
        while still paying what is needed (paying less than needed is offered too)."""
        lucks = sorted(self.game.card(c).luck for c in action.cards)
        key = (type(action).__name__, tuple(lucks))
        if key in seen:
            return None
        if lucks and (lucks[0] == 0 or sum(lucks) - lucks[0] >= self._needed()):
            return None
        seen.add(key)
        unit = "Luck" if self.game_name == "island" else "Failure"
        if not action.cards:
            return Choice("pay nothing", action)
        cards = ", ".join(self._card_words(c) for c in action.cards)
        verb = "discard" if type(action).__name__ == "DiscardLuck" else "pay"
        return Choice(f"{verb} {sum(lucks)} {unit}: {cards}", action)

    def _move_pawns(self, seat: int) -> list[int]:
        game = self.game
        pawns = [seat, *(s for s in game.strangers if s not in game.eliminated)]
        planned = {p for p, _ in self.plan}
        return [p for p in pawns if p not in planned]

    def _budget_left(self, seat: int) -> int:
        game = self.game
        used = sum(game.board.distance(game.position[p], to) for p, to in self.plan)
        return game.move[seat] - used

    def _move_choices(self, seat: int) -> list[Choice]:
        from ..games.island import Move

        game = self.game
        pawns = self._move_pawns(seat)
        left = self._budget_left(seat)
        if not pawns or left <= 0:
            return []
        pawn = self.pawn_picker.value if self.pawn_picker.value in pawns else pawns[0]
        order = [seat, *game.strangers]
        choices = []
        for dest, steps in game.board.by_distance(game.position[pawn]):
            if steps > left:
                break
            if steps:
                moves = tuple(sorted([*self.plan, (pawn, dest)], key=lambda m: order.index(m[0])))
                word = "step" if steps == 1 else "steps"
                choices.append(Choice(f"to {_space_words(game.board, dest)} ({steps} {word})",
                                      Move(moves), dest))
        return choices

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
                    len(self.lines), self.game.current_player)
        start = len(self.lines)
        try:
            events = self.game.apply(choice.action)
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
        if choice is None or type(choice.action).__name__ != "Move":
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
        self.game, (self.bots, self.bot_names), n_log, self.viewer = self._history.pop()
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
            self._log_events(game.apply(self.bots[seat].choose(game)))
            guard += 1
            if guard > 100_000:  # pragma: no cover - the engines' turn caps end games first
                raise LuckyLabError("the bots did not hand the turn back")
        if not game.is_over:
            self.viewer = game.current_player

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
        """What a click on ``space`` does (see :meth:`click`)."""
        current = self.chosen
        if current is not None and current.space == space and self.picked == space:
            self.do_it()
            return
        self.focused = self.picked = space
        groups = [self.group_picker.value, *self.choices]
        for group in groups:
            for k, choice in enumerate(self.choices.get(group or "", [])):
                if choice.space == space:
                    self._rebuilding = True
                    self.group_picker.value = group
                    self._fill_actions()
                    self._rebuilding = False
                    self.action_picker.value = k
                    self.message = (f"Picked: {choice.label}. Click {space} again or press "
                                    "Do it.")
                    self._redraw()
                    self._status()
                    return
        self.message = f"{space}: nothing you can do there now."
        self._redraw()
        self._status()

    def hover(self, event: Mapping[str, Any]) -> None:
        """Pointer moves: put the space under the pointer in focus (redraws only on change)."""
        space = self.clicks.space_at(event)
        if space is not None and space != self.focused:
            self.focused = space
            self._redraw()

    # -- hints, records --------------------------------------------------------------------------
    def hint(self) -> str:
        """What each bundled bot would do now in your seat, what the look-ahead bot would do
        and how its imagined games went (Island and Kill), and P(foil) of an attack from here
        (exact, from :func:`luckylab.probability.p_foil`). Returns the hint as text.

        Every answer uses only what your seat may know: the look-ahead bot deals the cards
        you cannot see at random (see :func:`luckylab.agents.search.determinize`).
        """
        from ..agents import agent_class, agent_names

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
            lines.append(f"the {name} bot would: {labels.get(repr(action), self._plain(action))}")
        lines.extend(self._look_ahead(labels))
        lines.extend(self._odds(seat))
        text = "\n".join(lines)
        self.hint_html.value = "<br>".join(  # indented lines stay indented
            "&nbsp;" * (len(line) - len(line.lstrip(" "))) * 2 + html.escape(line.lstrip(" "))
            for line in lines)
        return text

    def _look_ahead(self, labels: Mapping[str, str]) -> list[str]:
        """The Hint's look-ahead lines: the choice of the look-ahead bot in your seat (with
        :data:`LOOK_AHEAD_ITERATIONS` imagined games) and how many of the imagined games that
        began with each choice it won. Nothing for a game without a look-ahead bot."""
        from ..agents import agent_class, agent_names

        if "ismcts" not in agent_names(self.game_name, look_ahead=True):
            return []
        bot = agent_class(self.game_name, "ismcts")(self.seed,
                                                    iterations=LOOK_AHEAD_ITERATIONS)
        action, counts = bot.explain(self.game.clone())

        def words(a: Any) -> str:
            return labels.get(repr(a), self._plain(a))

        head = f"the look-ahead bot would: {words(action)}"
        if not counts:
            return [head + " (the only choice worth imagining: it did not look ahead)"]
        deals = bot.determinizations
        lines = [head, f"  it imagined {sum(n for _, n, _ in counts)} games ({deals} random "
                       f"deals of the cards you cannot see, everybody then playing like the "
                       f"{bot.rollout} bot) and you won:"]
        for a, n, won in sorted(counts, key=lambda c: -c[1]):
            if n:
                share = f"{won:g}" if won == int(won) else f"{won:.1f}"
                lines.append(f"  - {share} of the {n} after: {words(a)}")
        best = max(counts, key=lambda c: c[2] / c[1] if c[1] else 0.0)[0]
        if best != action:
            lines.append(f"  (it keeps the {bot.rollout} bot's choice unless another one won "
                         "clearly more often)")
        return lines

    def _plain(self, action: Any) -> str:
        if type(action).__name__ == "Move":
            return "move " + ", ".join(f"{self.who(p)} to {_space_words(self.game.board, s)}"
                                       for p, s in action.moves)
        if type(action).__name__ in ("Foil", "DiscardLuck"):
            return f"pay {self._paid(action)}: " + ", ".join(self._card_words(c)
                                                             for c in action.cards)
        return str(action)

    def foil_question(self, seat: int, weapon: int | None = None) -> dict[str, Any]:
        """The P(foil) question of an attack (a rescue in Save) by ``seat`` where it stands:
        keyword arguments for :func:`luckylab.probability.p_foil`, from what ``seat`` knows."""
        from ..analysis.luck import foil_question
        from ..games.base import seats_from_left

        game = self.game
        if self.game_name == "island":
            return foil_question(game, seat, weapon)
        places = game.card_places()
        known = [*places[f"hand {seat}"], *places["discards"], *places.get("removed", [])]
        order = list(game.order) if self.game_name == "kill" else list(game.seats)
        sizes = [len(places[f"hand {s}"]) for s in seats_from_left(order, seat)[:-1]]
        if self.game_name == "kill":
            value = game.attack_value(seat, weapon)
        else:
            value = game.rescue_value(weapon, game.positions[seat])
        return {"attack": value, "hand_sizes": sizes, "deck": game.cards, "known": known}

    def _odds(self, seat: int) -> list[str]:
        from ..analysis.luck import p_foil

        game = self.game
        kind = "aid" if self.game_name == "save" else "weapon"
        cards = [None, *sorted(c for c in game.hands[seat] if game.card(c).kind == kind)]
        verb = "a rescue" if self.game_name == "save" else "an attack"
        lines = []
        values_seen: set[int] = set()
        for card in cards:
            q = self.foil_question(seat, card)
            if q["attack"] in values_seen:
                continue
            values_seen.add(q["attack"])
            p = p_foil(**q, exact=True)
            how = "bare-handed" if card is None else f"with {game.card(card).name}"
            if self.game_name == "save" and card is None:
                how = "with no Aid"
            lines.append(f"{verb} {how} from here (value {q['attack']}): P(the others can "
                         f"foil it) = {float(p):.4f}"
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
        from ..games.base import replay

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
        self._history = []
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
        options = [(c.label, k) for k, c in enumerate(self.choices.get(
            self.group_picker.value or "", []))]
        was = self._rebuilding
        self._rebuilding = True
        self.action_picker.options = options
        self.action_picker.value = 0 if options else None
        self._rebuilding = was
        is_move = self.group_picker.value == "Move" and self.game_name == "island"
        self.pawn_picker.layout.display = "" if is_move and len(self.pawn_picker.options) > 1 \
            else "none"
        self.plan_button.layout.display = "" if is_move and self.game.strangers else "none"

    def _refresh(self, keep_group: bool = True) -> None:
        """Rebuild the choices and every view from the engine (a new decision starts on its
        first group)."""
        game = self.game
        self._rebuilding = True
        seat = game.current_player
        if self.game_name == "island" and seat is not None and game.phase == "phase1":
            pawns = self._move_pawns(seat)
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
        return [c.space for c in self.choices.get(self.group_picker.value or "", [])
                if c.space is not None]

    def _where_is(self, seat: int) -> str:
        game = self.game
        return game.positions[seat] if self.game_name == "save" else game.position[seat]

    def _redraw(self) -> None:
        start = time.perf_counter()
        game = self.game
        targets = self._targets_now()
        you = self.viewer
        if self.game_name == "island":
            self._redraw_island(targets, you)
        else:
            self._redraw_rooms(targets, you)
        self.image.value = self.png
        self.last_redraw = time.perf_counter() - start
        state = "over" if game.is_over else f"{self.who(game.current_player)} to decide"
        focus = "" if self.focused is None else f"; {self.focused} in focus"
        # One sentence that says what the picture shows, under it (an Image view cannot carry
        # a tooltip or alt text in ipywidgets 8: its tooltip breaks the view).
        self.alt_text = (f"Map of the {self._game_words()}: {state}; click a space to move "
                         f"there or pick a card's target{focus}.")
        self.alt_html.value = f"<small><i>{html.escape(self.alt_text)}</i></small>"

    def _game_words(self) -> str:
        return {"island": "island", "kill": "mansion", "save": "ship"}[self.game_name]

    def _redraw_island(self, targets: list[str], you: int) -> None:
        import numpy as np

        game = self.game
        board = game.board
        label = game.names[you]
        if self.focused is None or self.focused == game.position[you]:
            self.drawing.update(game, sight_of=label, title=self._map_title())
        else:
            seen = board.visible_from(self.focused, game.cat, game.cat_blocks)
            self.drawing.update(game, highlight=seen, title=self._map_title())
        pos = [board.space(s).pos for s in targets]
        self._targets.set_offsets(np.array(pos).reshape(-1, 2))
        focus = [] if self.focused is None else [board.space(self.focused).pos]
        self._focus.set_offsets(np.array(focus).reshape(-1, 2))
        drawing = self.drawing
        moving = [a for a in drawing._moving_artists() if a is not None]
        key = (*(f"{p}={drawing.scene.color(p)}" for p in drawing.scene.pawns),
               f"cat={drawing.scene.cat is not None}")
        self.png = self._painter.png(self.figure, [*moving, self._targets, self._focus],
                                     key=key)

    def _redraw_rooms(self, targets: list[str], you: int) -> None:
        game = self.game
        if self.game_name == "save":
            self.drawing.update(game, title=self._map_title())
            # The table marks rooms by who sees *you*; Doctor Lucky's sight bands (the
            # ShipStepper's view) would hide those marks and cost a repaint of every name.
            self._mansion.show_sight(None)
            board = game.board  # the rooms afloat
        else:
            board = game.board
            self.drawing.place({f"Player {self.player_number(s)}": game.position[s]
                                for s in game.order}, game.doctor)
            self.drawing.title.set_text(self._map_title())
        here = self.focused if self.focused is not None else self._where_is(you)
        watched = set(board.seen_by(here)) if here in board else set()
        # Where the others' pawns see (K-SIGHT-1, S-SAVE-1): the room itself and every room
        # in straight-line sight of it, on the board as it is now (afloat, in Save).
        seen_by_others: set[str] = set()
        for seat in self.live:
            if seat != you and self._where_is(seat) in board:
                seen_by_others |= board.visible_from(self._where_is(seat))
        marks = {s: "watched" for s in watched}
        for s in targets:
            marks[s] = "adjacent" if s in seen_by_others else "adjacent_unseen"
        if self.focused is not None:
            marks[self.focused] = "chosen"
        m = self._mansion
        m.mark(marks)
        tags = self._tag_pawns(m, game.current_player)
        # Like the ship's fast frame: paint what moves, and again only the names that a mark
        # or a sight band covers (MansionDrawing.png repaints every name, four times slower).
        covered = set(m.marked)
        for band in m.shown_bands:
            covered |= band.spaces
        also = [m.labels[s] for s in covered if m.labels[s].get_visible()]
        also += [m.numbers[s] for s in covered if s in m.numbers]
        if self.game_name == "save":
            moving = self.drawing._moving_artists()
        else:
            moving = [*m.marks.values(), m.bands, *m.pawns.values(), m.doctor, m.title]
        self.png = self._painter.png(self.figure, [*moving, *tags], also=also)

    def _tag_pawns(self, m: Any, deciding: int | None) -> list[Any]:
        """Write each player's number on their pawn (the rooms' pawns are plain discs); the
        pawn of the player deciding now is drawn larger."""
        from .draw import _ink_on

        tags = getattr(self, "_pawn_tags", None)
        if tags is None:
            tags = self._pawn_tags = {}
        for label, marker in m.pawns.items():
            number = int(label.split()[-1]) + (1 if label.startswith("seat") else 0)
            tag = tags.get(label)
            if tag is None:
                tag = tags[label] = m.ax.text(0, 0, str(number), ha="center", va="center",
                                              fontsize=7, fontweight="bold", zorder=9,
                                              color=_ink_on(marker.get_markerfacecolor()))
            if self.game_name == "kill":
                marker.set_markersize(17 if deciding is not None
                                      and number == self.player_number(deciding) else 13)
            xs, ys = marker.get_data()
            tag.set_visible(len(xs) > 0)
            if len(xs):
                tag.set_position((xs[0], ys[0]))
        return list(tags.values())

    def _phase_words(self) -> str:
        phase = getattr(self.game, "phase", "")
        return {"phase1": "Phase 1 (move)", "phase2": "Phase 2 (draw or attack)",
                "foil": "a foiling round", "penalty": "a Hazard penalty",
                "turn": "the start of a turn", "active": "an active turn",
                "doing": "a doing-something turn"}.get(phase, phase)

    def _map_title(self) -> str:
        game = self.game
        if game.is_over:
            return "The game is over"
        return f"{self.who(game.current_player)} to decide: {self._phase_words()}"

    def _status(self) -> None:
        game = self.game
        you = self.viewer
        if game.is_over:
            winner = game.winner
            if winner is None:
                end = "The game ended with no winner"
                if getattr(game, "end_reason", "") == "sunk":
                    end = "The ship sank: nobody wins"
            else:
                end = f"{self.who(winner)} wins"
            self.title_html.value = f"<h3>{html.escape(end)}.</h3>"
        else:
            seat = game.current_player
            self.title_html.value = (f"<h3>{html.escape(self.who(seat))}: "
                                     f"{html.escape(self._phase_words())}</h3>")
        hand = sorted(game.hands[you])
        cards = "".join(f"<li>{html.escape(self._card_words(c))}</li>" for c in hand)
        self.hand_html.value = (f"<b>Hand of {html.escape(self.who(you))}</b> "
                                f"({len(hand)} cards)<ul style='margin:2px'>{cards}</ul>")
        self.message_html.value = html.escape(self.message)
        self.table_html.value = self._table_html()
        lines = self.lines[-LOG_LINES:]
        self.log_html.value = ("<div style='font-size:90%'><b>What happened</b><br>"
                               + "<br>".join(html.escape(line) for line in lines) + "</div>")

    def _table_html(self) -> str:
        game = self.game
        board = game.board if self.game_name != "save" else game.ship
        rows = []
        for seat in self.live:
            row = [self.who(seat), _space_words(board, self._where_is(seat)),
                   str(len(game.hands[seat]))]
            if self.game_name == "island":
                row.append(f"Move {game.move[seat]}, Attack {game.attack[seat]}")
            rows.append(row)
        header = ["player", "where", "cards in hand"] + (["strength"] if self.game_name ==
                                                         "island" else [])
        places = game.card_places()
        discards = places.get("discards", [])
        top = self._card_words(discards[-1]) if discards else "none"
        doctor = _space_words(board, game.doctor)
        extra = f"Doctor Lucky in {doctor}. Discards: {len(discards)} (top: {top})."
        if self.game_name == "island":
            extra += f" Deck: {len(game.deck)} cards; the cat in {_space_words(board, game.cat)}."
        elif self.game_name == "kill":
            extra += f" Deck: {len(game.deck)} cards."
        else:
            extra += f" Decks afloat: {''.join(game.afloat)}."
        head = "".join(f"<th style='text-align:left;padding:1px 8px'>{h}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td style='padding:1px 8px'>{html.escape(c)}</td>"
                                        for c in r) + "</tr>" for r in rows)
        return (f"<table style='font-size:90%'><tr>{head}</tr>{body}</table>"
                f"<small>{html.escape(extra)}</small>")

