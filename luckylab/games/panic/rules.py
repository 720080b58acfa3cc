"""Panic Island!, the rulebook: the cooperative memory game as a seeded state machine (rules
``P-*``).

Twenty-five cards lie face down on a 5x5 grid; the volcano's place is known (``P-SETUP-2``). The
players take turns revealing two cards (``P-TURN-1``): natives save dodos and dodos save eggs of
the same colour (``P-SAVE-1``), the raft and the paddle must be found (``P-SAVE-2``), obstacles
cost time or change the island (``P-OBS-*``), and once per game the players may wake Gouga
(``P-GOUGA-1``). The two-minute hourglass is a budget of seconds that every act spends
(``P-TIME-1``, a modelling choice; the costs live in ``luckylab/data/panic_island.toml``).

Every decision is an action (``actions.py``): :class:`Reveal` a card, :class:`WakeGouga`, a
:class:`GougaCall` (name a kind and reveal one card), and :class:`Place` a card on an empty
place (for the Totem pole and the Landslide). :class:`TimeUp` is not a player's decision: it is
how a real hourglass (``clock="external"``, used by the widget) tells the game that the sand has
run out; a game on that clock that nobody ends ends by itself after ``budget x 2`` turns
(:data:`EXTERNAL_TURNS_PER_SECOND`).

:class:`PanicGame` applies each action through its table :attr:`PanicGame.HANDLERS` (the shared
dispatch, :mod:`luckylab.games.handlers`): a check method that says why an action is refused,
and a do method that carries it out. A subclass that overrides a do method, or a rule below
(``can_wake_gouga``, ``can_save`` ...), is obeyed everywhere, ``luckylab.simulate`` included
(Panic has no fused fast path); a check method is asked by ``apply`` only.

The game keeps the protocol of :mod:`luckylab.games.protocol`: it is cooperative, so
``returns()`` gives every seat the team's won score (``score / 16``, 0.0 for a loss). What a
seat sees (``observation``, ``determinize``, :class:`~luckylab.games.panic.view.PanicView`) is
in ``view.py``; the action ids in ``ids.py``; the data file's cards and costs in ``data.py``.

>>> from luckylab import new_game
>>> game = new_game("panic", players=3, seed=9)
>>> game.board.start["volcano"], len(game.board)
('r3c3', 25)
>>> for event in game.apply(Reveal("r1c1")) + game.apply(Reveal("r1c2")):
...     print(event)
P1 reveals the red dodo on r1c1.
P1 reveals the red native on r1c2.
The red dodo is saved by the red native!
>>> game.score, game.turn, game.current_player, game.time_left
(1, 1, 1, 114.0)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ...errors import IllegalAction, OptionError
from ..base import Event, GameBase, GameResult, check_seed, foreign_action
from ..handlers import Handler, HandlerTable
from .actions import GOUGA_KINDS, GougaCall, Place, Reveal, TimeUp, WakeGouga
from .data import (
    SCORING_KINDS,
    TIME_KEYS,
    PanicCard,
    PanicRules,
    band,
    load_rules,
    rules_and_board,
    seconds_ok,
)
from .ids import PanicIds
from .tables import GOUGA_CALL, PLACE, REVEAL, WAKE_GOUGA, card_set, handlers_by_kind
from .view import PanicViews

__all__ = ["CLOCKS", "EXTERNAL_TURNS_PER_SECOND", "MAX_ACTS", "SAVER", "TIRED_GOUGA_SAVES",
           "PanicGame"]

SAVER = {"native": "dodo", "dodo": "egg"}
"""``P-SAVE-1``: a native saves a dodo, a dodo saves an egg (natives never save eggs)."""
CLOCKS = ("budget", "external")
TIRED_GOUGA_SAVES = 5  # P-GOUGA-1 variant "tired Gouga": at most five saves
MAX_ACTS = 100_000  # a budget may hold at most this many reveals (so every game ends)
EXTERNAL_TURNS_PER_SECOND = 2
"""``clock="external"``: the bound that ends a game no real hourglass ends. Acts cost nothing
on that clock (the real sand keeps time, and :class:`TimeUp` says when it has run out), so a
game played by bots, with nobody to apply TimeUp, would never end. No hand turns a card and
resolves it in under half a second, so after ``budget x 2`` turns (and Gouga calls), 240 for
the two-minute hourglass, the real sand has surely run out: the game ends as TimeUp ends it
(end "time"), whoever plays. Never more than :data:`MAX_ACTS` turns."""


class PanicGame(PanicViews, PanicIds, HandlerTable, GameBase):
    """One game of Panic Island! (cooperative: everybody wins or loses together).

    Parameters
    ----------
    players
        How many players take turns (1..8; the rulebook text we have names no limit).
    seed
        Seeds the shuffle (and any random choice of obstacles).
    obstacles
        Three obstacle names (two cards of each, ``P-SETUP-3``; default the first trio Beehive,
        Mirage, Tornado), six different names (variant "obstacle sextet"), or ``"random-trio"`` /
        ``"random-sextet"`` for a seeded choice among the basic obstacles. Advanced obstacles
        (Landslide, Fire, Tsunami) may be named.
    volcano
        The volcano's place (variant "moving volcano"); default the centre, ``"r3c3"``.
    tired_gouga
        Variant "tired Gouga": at most five saves after waking him.
    paddle_and_raft
        Variant "paddle and raft": both must be revealed in the same turn to be found.
    time
        Overrides of the time costs in seconds (keys ``budget``, ``reveal``, ``save``,
        ``wake_gouga``, ``gouga_call``, ``place``; ``P-TIME-1``), or of an obstacle's seconds by
        its name, e.g. ``time={"budget": 90, "Tornado": 8}``.
    clock
        ``"budget"`` (default): acts spend the budget and the game ends when it is spent.
        ``"external"``: acts cost nothing and a real clock ends the game with :class:`TimeUp`;
        if none does (bots), the game ends as TimeUp would after ``budget x 2`` turns, 240 for
        two minutes (:data:`EXTERNAL_TURNS_PER_SECOND`: no hand turns cards faster).
    rules_file
        Path of another Panic Island data file (default the built-in one).

    Attributes (the rules read and change them; bots, widgets and analyses read
    ``game.view(seat)``, :class:`~luckylab.games.panic.view.PanicView`)
    ------------------------------------------------------------------------------
    island
        place -> card id, or None for an empty place (its card has left the island).
    face_up
        Places whose card lies face up: continuous obstacles, and the first card of a turn.
    covered
        place -> id of the Landslide covering the card there.
    saved, found
        Card ids saved (in order) and the raft/paddle found.
    time_left, turn, gouga ("asleep", "awake", "gone"), gouga_saves, end ("volcano", "time",
    "tsunami", "complete", "stuck") and ``events`` (every event so far, for agents and widgets;
    the last one is "game_over").

    A house rule is a subclass that overrides a rule's method (``can_wake_gouga``,
    ``can_save``, ``rainbow``, ``_reveal_cost``, a do handler ...): ``apply``,
    ``apply_trusted`` and ``play_out`` (so ``luckylab.simulate``) all play it, since the
    handlers are looked up on each class, the bots ask the rules' questions through
    ``game.view(seat)``, and Panic has no fused fast path (``tests/test_house_rules_panic.py``).
    A check handler binds ``apply``; the trusted path of the bundled bots checks nothing.
    """

    game_name = "panic"

    HANDLERS = {
        "turn": {
            Reveal: ("_check_reveal", "_do_reveal"),
            WakeGouga: ("_check_wake_gouga", "_do_wake_gouga"),
            TimeUp: ("_check_time_up", "_do_time_up"),
        },
        "second": {
            Reveal: ("_check_reveal", "_do_reveal"),
            TimeUp: ("_check_time_up", "_do_time_up"),
        },
        "gouga": {
            GougaCall: ("_check_gouga_call", "_do_gouga_call"),
            TimeUp: ("_check_time_up", "_do_time_up"),
        },
        "place": {
            Place: ("_check_place", "_do_place"),
            TimeUp: ("_check_time_up", "_do_time_up"),
        },
    }
    """Phase -> action -> the names of the methods that check it and carry it out (the shared
    dispatch: :mod:`luckylab.games.handlers`). :class:`TimeUp` is taken in every phase: the
    real hourglass runs out whenever it does (its check refuses it on the budget clock)."""

    def __init__(self, players: int = 4, seed: int | None = None, *,
                 obstacles: str | Iterable[str] | None = None, volcano: str | None = None,
                 tired_gouga: bool = False, paddle_and_raft: bool = False,
                 time: Mapping[str, float] | None = None, clock: str = "budget",
                 rules_file: str | None = None) -> None:
        from ...boards import load_board, read_data_text

        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 8:
            raise OptionError(f"Panic Island takes 1 to 8 players here, not {players!r}")
        check_seed(seed)
        if not isinstance(clock, str) or clock not in CLOCKS:
            raise OptionError(f"clock must be one of {CLOCKS}, not {clock!r}")
        for name, flag in (("tired_gouga", tired_gouga), ("paddle_and_raft", paddle_and_raft)):
            if not isinstance(flag, bool):
                raise OptionError(f"{name} must be True or False, not {flag!r}")
        if time is not None and not isinstance(time, Mapping):
            raise OptionError(f"time must be a table of seconds by name, not {time!r}")
        if rules_file is not None and not isinstance(rules_file, (str, Path)):
            raise OptionError(f"rules_file must be a file path, not {rules_file!r}")
        if rules_file is None:
            rules, board = load_rules(), load_board("panic-island")
        else:  # cached by content, so an edited file is read afresh
            text = read_data_text(rules_file)
            rules, board = rules_and_board(text, Path(rules_file).name)
            self.rules_sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
        self.rng = random.Random(seed)
        names = self._choose_obstacles(rules, obstacles)
        volcano_place = board.start["volcano"] if volcano is None else board.check(volcano)
        costs = dict(rules.time)
        seconds = {n: o.seconds for n, o in rules.obstacles.items()}
        for key, value in dict(time or {}).items():
            if not seconds_ok(value):
                raise OptionError(f"time[{key!r}] must be a finite number of seconds >= 0, "
                                  f"not {value!r}")
            if key in costs:
                costs[key] = float(value)
            elif key in seconds:
                seconds[key] = float(value)
            else:
                raise OptionError(f"unknown time cost {key!r}; known: {', '.join(TIME_KEYS)} "
                                 f"or an obstacle name")
        if costs["budget"] <= 0:
            raise OptionError("the time budget must be more than 0 seconds")
        if costs["reveal"] <= 0 or costs["gouga_call"] <= 0:
            # otherwise the sand never runs and a game played by bots never ends
            raise OptionError("a reveal and a Gouga call must cost more than 0 seconds "
                             "(use clock='external' for a real hourglass)")
        if costs["budget"] > MAX_ACTS * min(costs["reveal"], costs["gouga_call"]):
            # a turn must really spend time: at most MAX_ACTS reveals fit in the budget
            raise OptionError(f"the budget of {costs['budget']} s allows more than {MAX_ACTS} "
                              f"reveals at {min(costs['reveal'], costs['gouga_call'])} s; "
                              "use fewer seconds of budget or more per reveal")
        # the turn that ends a game on the real hourglass if TimeUp has not (P-TIME-1, see
        # EXTERNAL_TURNS_PER_SECOND); the budget clock ends every game by itself
        self.turn_limit = (min(math.ceil(costs["budget"] * EXTERNAL_TURNS_PER_SECOND), MAX_ACTS)
                           if clock == "external" else math.inf)
        if clock == "external":  # the real hourglass keeps time, so acts cost nothing here
            costs = {k: (v if k == "budget" else 0.0) for k, v in costs.items()}
            seconds = {n: 0.0 for n in seconds}

        self.board = board
        self.players = players
        self.seed = seed
        self.options = {"obstacles": (list(rules.first_trio) if obstacles is None else
                                      obstacles if isinstance(obstacles, str) else list(obstacles)),
                        "volcano": volcano_place, "tired_gouga": bool(tired_gouga),
                        "paddle_and_raft": bool(paddle_and_raft), "time": dict(time or {}),
                        "clock": clock}
        if rules_file is not None:
            self.options["rules_file"] = str(rules_file)
        self.obstacle_names = names
        self.volcano = volcano_place
        self.tired_gouga = bool(tired_gouga)
        self.paddle_and_raft = bool(paddle_and_raft)
        self.clock = clock
        self.costs = costs
        self.obstacle_seconds = seconds

        self.cards: tuple[PanicCard, ...] = card_set(rules, names)
        cards = self.cards
        if len(cards) != len(board):
            raise OptionError(f"{len(cards)} cards do not fill the {len(board)} places")
        self.scoring_cards = sum(1 for c in cards if c.scores)  # 16 with the published counts
        # P-SETUP-2: the volcano on its known place, the other 24 shuffled into the rest.
        volcano_card = self.volcano_card = next(c.id for c in cards if c.kind == "volcano")
        others = [c.id for c in cards if c.id != volcano_card]
        self.rng.shuffle(others)
        places = [p for p in board.spaces if p != volcano_place]
        self.island: dict[str, int | None] = dict(zip(places, others, strict=True))
        self.island[volcano_place] = volcano_card
        self.island = {p: self.island[p] for p in board.spaces}  # board order, for display

        self.face_up: set[str] = set()
        self.covered: dict[str, int] = {}
        self.saved: list[int] = []
        self.found: list[int] = []
        self.in_hand: list[tuple[str, int]] = []   # cards waiting for a Place (why, card id)
        self.revealed: list[str] = []              # this turn's face-up places, in order
        self.continuous: list[int] = []            # continuous obstacles now in force
        self.tsunami_at: dict[int, float] = {}     # tsunami id -> time_left when revealed
        self.last_seen: list[tuple[str, int]] = [] # the cards of the last finished turn
        self.time_left = costs["budget"]
        self.turn = 0
        self._current = 0        # the seat whose turn it is (turns go round the seats)
        self.seat_shift = 0      # Earthquakes so far: player p sits at seat (p + shift) % n
        self.gouga = "asleep"
        self.gouga_saves = 0
        self.saves_after_wake = 0  # every save since Gouga woke (P-GOUGA-1 "tired Gouga")
        self.gouga_calls = 0
        self.end: str | None = None
        self.history: list[Any] = []
        self.events: list[Event] = []

    def _choose_obstacles(self, rules: PanicRules, obstacles: str | Iterable[str] | None
                          ) -> tuple[str, ...]:
        """P-SETUP-3: three kinds twice each, or (variant "obstacle sextet") six different."""
        if obstacles is None:
            chosen = list(rules.first_trio)
        elif isinstance(obstacles, str):
            sizes = {"random-trio": 3, "random-sextet": 6}
            if obstacles not in sizes:
                raise OptionError(f"obstacles must be 3 or 6 names, 'random-trio' or "
                                 f"'random-sextet', not {obstacles!r}")
            chosen = self.rng.sample(sorted(rules.basic_obstacles), sizes[obstacles])
        elif isinstance(obstacles, (list, tuple)):
            chosen = list(obstacles)
        else:
            raise OptionError(f"obstacles must be a list of 3 or 6 names, 'random-trio' or "
                              f"'random-sextet', not {obstacles!r}")
        unknown = [n for n in chosen if not isinstance(n, str) or n not in rules.obstacles]
        if unknown:
            raise OptionError(f"unknown obstacle {unknown[0]!r}; obstacles: "
                             f"{', '.join(rules.obstacles)}")
        if len(set(chosen)) != len(chosen) or len(chosen) not in (3, 6):
            raise OptionError(f"name three different obstacles (a trio, two cards each) or six "
                             f"(a sextet), not {chosen}")
        return tuple(chosen * 2 if len(chosen) == 3 else chosen)

    # -- the rules' questions ----------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is (None once the game is over). Seats take turns clockwise."""
        if self.end is not None:
            return None
        # P-OBS-2 Earthquake: everyone moves one seat to the left (the next seat in play order),
        # so the turn, which goes round the seats, reaches a different player. The face's
        # "player" is a person; bots kept per player keep their own memory when they move.
        return (self._current - self.seat_shift) % self.players

    @property
    def is_over(self) -> bool:
        return self.end is not None

    @property
    def score(self) -> int:
        """Saved natives, dodos and eggs (``P-END-1``, 0..16)."""
        return len(self.saved)

    @property
    def won(self) -> bool:
        """Over, with raft and paddle found and nothing lost (``P-END-1``, ``P-VOLC-1``)."""
        return (self.end in ("time", "complete", "stuck") and len(self.found) == 2)

    @property
    def winner(self) -> int | None:
        """Cooperative game: no seat wins alone (see :attr:`won`)."""
        return None

    @property
    def loser(self) -> int | None:
        return None

    @property
    def phase(self) -> str | None:
        """What is being decided: "turn", "second" (the second card), "gouga", "place" or None."""
        if self.end is not None:
            return None
        if self.in_hand:
            return "place"
        if self.gouga == "awake":
            return "gouga"
        return "second" if self.revealed else "turn"

    def card_at(self, place: str) -> PanicCard | None:
        """The card lying on ``place`` (the truth, face down or not; None if empty)."""
        card = self.island[self.board.check(place)]
        return None if card is None else self.cards[card]

    def revealable(self) -> list[str]:
        """Places whose card may be turned now: face down, not covered (volcano included)."""
        face_up, covered = self.face_up, self.covered
        if covered:
            return [p for p, c in self.island.items()
                    if c is not None and p not in face_up and p not in covered]
        return [p for p, c in self.island.items() if c is not None and p not in face_up]

    def _safe_card_left(self) -> bool:
        """Whether a face-down card other than the volcano may still be turned (``P-TURN-1``):
        ``revealable()`` holds a place whose card is not the volcano, without building it."""
        volcano, face_up, covered = self.volcano_card, self.face_up, self.covered
        for p, c in self.island.items():
            if c is not None and c != volcano and p not in face_up and p not in covered:
                return True
        return False

    def empty_places(self) -> list[str]:
        """Places whose card has left the island (where a Totem or Landslide card may go)."""
        return [p for p, c in self.island.items() if c is None]

    def unsaved_counts(self) -> dict[str, int]:
        """How many natives, dodos and eggs are not saved yet (public knowledge)."""
        counts = dict.fromkeys(SCORING_KINDS, 0)
        gone = set(self.saved)
        for card in self.cards:
            if card.scores and card.id not in gone:
                counts[card.kind] += 1
        return counts

    @property
    def rainbow(self) -> bool:
        """Whether a Rainbow is in force (``P-OBS-3``: colours swap for saving)."""
        return bool(self.continuous) and any(self.cards[c].obstacle.effect == "rainbow"
                                             for c in self.continuous)

    def can_wake_gouga(self) -> bool:
        """Whether the team may still wake Gouga (``P-GOUGA-1``: once per game; at the start
        of a turn, which the phase says). Asked by ``legal_actions``, the check and the bots."""
        return self.gouga == "asleep"

    def can_save(self, saver: PanicCard, saved: PanicCard, rainbow: bool | None = None) -> bool:
        """Whether ``saver`` saves ``saved`` (``P-SAVE-1``; with a Rainbow, ``P-OBS-3``)."""
        if SAVER.get(saver.kind) != saved.kind:
            return False
        crossed = self.rainbow if rainbow is None else rainbow
        return (saver.colour != saved.colour) if crossed else (saver.colour == saved.colour)

    def legal_actions(self) -> list[Any]:
        """What the player to act may do now (:class:`TimeUp` is the hourglass's, never
        listed: see :meth:`apply`)."""
        phase = self.phase
        if phase is None:
            return []
        if phase == "place":
            made = PLACE
            return [made[p] for p in self.empty_places()]
        places = self.revealable()
        if phase == "gouga":
            made = GOUGA_CALL
            return [made[k, p] for k in GOUGA_KINDS for p in places]
        made = REVEAL
        actions: list[Any] = [made[p] for p in places]
        if phase == "turn" and self.can_wake_gouga():
            actions.append(WAKE_GOUGA)
        return actions

    # -- applying actions (the shared dispatch: luckylab.games.handlers) -----------------
    def apply(self, action: Any) -> list[Event]:
        """Check ``action`` against the rules, carry it out and return the events it caused
        (:meth:`HandlerTable.apply <luckylab.games.handlers.HandlerTable.apply>`: the check
        and do methods of :attr:`HANDLERS`). Two things are Panic's own: a refusal once the
        game is over names how it ended, and an action of a subclass of one of the actions
        plays as that action.

        Besides ``legal_actions()``, a game on ``clock="external"`` accepts :class:`TimeUp` at
        any moment: the real hourglass is not a seat, so no seat is offered it.
        """
        phase = self.phase
        if phase is None:
            raise IllegalAction(f"the game is over ({self.end})")
        handler = self._handlers[phase].get(type(action)) or self._handler_for(action, phase)
        action.check_fields()  # field types (a number for a place is refused)
        seat = (self._current - self.seat_shift) % self.players  # _decider, written in
        handler[0](self, seat, action)  # raises before any change
        return self._carry_out(handler[1], seat, action)

    def _refusal(self, action: Any, phase: Any) -> IllegalAction:
        """The error for an action this phase does not take: another game's, a field of the
        wrong type, or Panic's words for it (:meth:`_not_now`); while a card waits to be put
        back, the legal Places are listed."""
        if not any(isinstance(action, kind) for table in self._handlers.values() for kind in table):
            return IllegalAction(foreign_action(action, self.game_name))
        action.check_fields()  # a wrong type is named before the phase
        allowed = ", ".join(kind.__name__ for kind in self._handlers[phase])
        placing = phase == "place" and isinstance(action, (Reveal, GougaCall))
        return IllegalAction(self._not_now(action, phase, allowed),
                             self.legal_actions() if placing else None)

    def _not_now(self, action: Any, phase: Any, allowed: str) -> str:
        """Why an action of Panic Island! is not taken in this phase (``P-TURN-1``,
        ``P-GOUGA-1``, ``P-OBS-2``)."""
        if isinstance(action, WakeGouga):
            if self.gouga != "asleep":
                return "Gouga cannot be woken a second time (P-GOUGA-1)"
            return "wake Gouga at the start of a turn, not in the middle of one"
        if isinstance(action, Place):
            return "there is no card to place now"
        if phase == "place":
            return f"first place the {self.cards[self.in_hand[0][1]].name} on an empty place"
        if isinstance(action, GougaCall):
            return "Gouga is not awake" if self.gouga == "asleep" else "Gouga is gone for this game"
        if isinstance(action, Reveal):
            return "Gouga is awake: name a kind and reveal one card (GougaCall)"
        return super()._not_now(action, phase, allowed)  # an action a house rule added

    # -- the checks (they raise IllegalAction and change nothing) ------------------------------
    def _check_reveal(self, player: int, action: Reveal) -> None:
        place = action.place
        island = self.island
        if (island.get(place) is None or place in self.covered  # the common legal case is
                or place in self.face_up):                      # decided in this one look
            self._check_face_down(place)

    def _check_gouga_call(self, player: int, action: GougaCall) -> None:
        if action.kind not in GOUGA_KINDS:  # P-GOUGA-1: native, dodo or egg
            raise IllegalAction(f"name one of {', '.join(GOUGA_KINDS)}, not {action.kind!r}")
        self._check_face_down(action.place)

    def _check_face_down(self, place: str) -> None:
        """``place`` holds a card that may be turned: face down, not covered (``P-TURN-1``)."""
        if place not in self.island:
            self.board.check(place)
        if self.island[place] is None:
            raise IllegalAction(f"{place} is empty: its card has left the island")
        if place in self.covered:
            raise IllegalAction(f"the card on {place} is covered by the Landslide (P-OBS-3)")
        if place in self.face_up:
            raise IllegalAction(f"the {self.cards[self.island[place]].name} on {place} is "
                                f"already face up")

    def _check_wake_gouga(self, player: int, action: WakeGouga) -> None:
        if not self.can_wake_gouga():
            raise IllegalAction("Gouga cannot be woken a second time (P-GOUGA-1)"
                                if self.gouga != "asleep" else "Gouga cannot be woken now")

    def _check_place(self, player: int, action: Place) -> None:
        place = action.place
        if place not in self.island:
            self.board.check(place)
        if self.island[place] is not None:  # P-OBS-2, P-OBS-3: onto an empty place
            why = self.in_hand[0][0]
            raise IllegalAction(f"{place} is not empty: the {why} card goes on an empty place",
                                self.legal_actions())

    def _check_time_up(self, player: int, action: TimeUp) -> None:
        if self.clock != "external":
            raise IllegalAction("TimeUp is for a real hourglass (clock='external'); "
                                "here the budget of seconds keeps time")

    # -- what each action does (events go to self._pending: HandlerTable._carry_out) ---------
    def _reveal_cost(self) -> float:
        # P-OBS-3: each continuous obstacle in force slows every reveal (once per name).
        if not self.continuous:
            return self.costs["reveal"]
        names = {self.cards[c].obstacle.name for c in self.continuous}
        return self.costs["reveal"] + sum(self.obstacle_seconds[n] for n in names)

    def _do_reveal(self, player: int, action: Reveal) -> None:
        events = self._pending
        place = action.place
        card = self.cards[self.island[place]]
        self.time_left -= self._reveal_cost()
        self.revealed.append(place)
        self.face_up.add(place)
        events.append(Event("reveal", f"P{player + 1} reveals the {card.name} on {place}.",
                            {"place": place, "card": card.id, "player": player}))
        if card.kind == "volcano":  # P-VOLC-1: at once, even as the first card of a turn
            self._turn_back(events)
            self._finish("volcano", events, "The volcano erupts! Everybody loses.")
            return
        if len(self.revealed) == 1:
            if self.time_left <= 0:  # the sand ran out before the second card could be turned
                self._turn_back(events)
                self._finish("time", events, "The sand ran out in the middle of the turn.")
                return
            if self._safe_card_left():
                return
            # P-TURN-1 ruling: nobody is forced onto the volcano; the last safe card is
            # revealed alone and resolved on its own.
        if not self._resolve(self.revealed, events, gouga_call=None):
            self._end_step(events)

    def _do_wake_gouga(self, player: int, action: WakeGouga) -> None:
        events = self._pending
        self.time_left -= self.costs["wake_gouga"]
        self.gouga = "awake"
        events.append(Event("gouga_wakes", "Everyone shouts \"Gouga!\"", {"player": player}))
        self._check_end(events)

    def _do_gouga_call(self, player: int, action: GougaCall) -> None:
        events = self._pending
        place = action.place
        card = self.cards[self.island[place]]
        self.time_left -= self.costs["gouga_call"] + self._reveal_cost() - self.costs["reveal"]
        self.gouga_calls += 1
        self.revealed.append(place)
        self.face_up.add(place)
        events.append(Event("gouga_call", f"P{player + 1} says \"{action.kind}!\" and "
                            f"reveals the {card.name} on {place}.",
                            {"place": place, "card": card.id, "named": action.kind,
                             "player": player}))
        if not self._resolve([place], events, gouga_call=action.kind):
            self._end_step(events)

    def _do_place(self, player: int, action: Place) -> None:
        events = self._pending
        place = action.place
        why, card = self.in_hand.pop(0)
        self.island[place] = card
        self.time_left -= self.costs["place"]
        events.append(Event("place", f"The {self.cards[card].name} goes face down on {place} "
                            f"({why}).", {"place": place, "card": card, "why": why}))
        if not self.in_hand:
            self._end_step(events)

    def _do_time_up(self, player: int, action: TimeUp) -> None:
        self._finish("time", self._pending, "The sand has run out.")

    # -- resolving a turn or a Gouga call -----------------------------------------------------
    def _resolve(self, places: list[str], events: list[Event], gouga_call: str | None) -> bool:
        """Resolve the face-up cards of this turn. Returns True if a Place decision waits."""
        cards = [self.cards[self.island[p]] for p in places]
        # P-VOLC-1: the volcano loses at once.
        if any(c.kind == "volcano" for c in cards):
            self._turn_back(events)
            self._finish("volcano", events, "The volcano erupts! Everybody loses.")
            return False
        extra = 0.0
        rainbow_before = self.rainbow
        saved_now: list[int] = []

        if gouga_call is not None:
            card = cards[0]
            if card.kind == gouga_call:  # P-GOUGA-1: a match is saved
                self._save(card.id, events, by="Gouga")
                saved_now.append(card.id)
                self.gouga_saves += 1
                if self.tired_gouga and self.saves_after_wake >= TIRED_GOUGA_SAVES:
                    self.gouga = "gone"
                    events.append(Event("gouga_sleeps", "Gouga is tired: five saves are enough.",
                                        {}))
            else:  # a miss (or an obstacle) ends Gouga for good
                self.gouga = "gone"
                events.append(Event("gouga_gone", f"Not a {gouga_call}: Gouga is gone for good.",
                                    {"named": gouga_call, "card": card.id}))

        # P-OBS-1: both cards are up before any obstacle acts. The immediate ones act in reveal
        # order: with the effects we model (Mirage's swap, the Totem's return, time costs) every
        # order the players might choose leaves the same island.
        ids = [c.id for c in cards]
        for c in cards:
            if c.obstacle is not None and c.obstacle.timing == "immediate":
                extra += self._immediate(c, [o for o in ids if o != c.id], events)

        if gouga_call is None and len(cards) == 2 and not self._tired():
            a, b = cards
            for saver, savee in ((a, b), (b, a)):
                if self.can_save(saver, savee, rainbow_before):  # P-SAVE-1
                    self._save(savee.id, events, by=saver.name)
                    saved_now.append(savee.id)
                    break
        # P-SAVE-2: the raft and paddle leave the island when revealed; in the "paddle and raft"
        # variant only when both are revealed in one turn.
        finds = [c for c in cards if c.kind in ("raft", "paddle")]
        if finds and (not self.paddle_and_raft or len(finds) == 2):
            for c in finds:
                place = self._where(c.id)
                self.island[place] = None
                self.face_up.discard(place)
                self.found.append(c.id)
                extra += self.costs["save"]
                events.append(Event("found", f"The {c.name} is found!", {"card": c.id,
                                                                         "place": place}))
        elif finds:
            events.append(Event("not_found", f"The {finds[0].name} alone does not count in the "
                                "paddle-and-raft variant: it is turned back.",
                                {"card": finds[0].id}))
        # Continuous obstacles last: a Landslide buries the other card only if it is still there
        # (a found raft has left). A continuous obstacle and a save never share a turn.
        for c in cards:
            if c.obstacle is not None and c.obstacle.timing == "continuous":
                self._continuous(c, [o for o in ids if o != c.id], events)
        if saved_now:
            extra += self.costs["save"] * len(saved_now)
            self._end_continuous(events)
        self.time_left -= extra
        self._turn_back(events)
        return bool(self.in_hand)

    def _immediate(self, card: PanicCard, others: list[int], events: list[Event]) -> float:
        """P-OBS-2: an immediate obstacle acts (and is turned back with the turn)."""
        effect = card.obstacle.effect
        if effect == "mirage" and others and self._where(others[0]) is not None:
            a, b = self._where(card.id), self._where(others[0])
            self.island[a], self.island[b] = self.island[b], self.island[a]
            # the face-up marks stay on the places: both cards are still up until the turn ends
            events.append(Event("mirage", f"Mirage: the Mirage ({a}) and the "
                                f"{self.cards[others[0]].name} ({b}) swap places.",
                                {"a": a, "b": b}))
        elif effect == "totem" and self.saved:
            # "The most recently saved card": a native, dodo or egg. The raft and the paddle are
            # "placed next to the island", not saved, so the Totem pole never takes them back.
            back = self.saved.pop()
            self.in_hand.append(("Totem pole", back))
            events.append(Event("totem", f"Totem pole: the {self.cards[back].name} goes back onto "
                                "the island.", {"card": back}))
        elif effect == "earthquake":
            # P-OBS-2: everyone moves one seat to the left, keeping their order; the turn
            # moves with the revealer, so it still passes to the player at their left.
            self.seat_shift += 1
            self._current = (self._current + 1) % self.players
            events.append(Event("earthquake", "Earthquake! Everyone moves one seat to the left.",
                                {"card": card.id}))
        else:
            events.append(Event("obstacle", f"{card.name}!", {"card": card.id,
                                                             "effect": effect}))
        return self.obstacle_seconds[card.obstacle.name]

    def _continuous(self, card: PanicCard, others: list[int], events: list[Event]) -> None:
        """P-OBS-3: a continuous obstacle stays face up until the next save."""
        place = self._where(card.id)
        self.continuous.append(card.id)
        other = others[0] if others else None
        other_place = self._where(other) if other is not None else None
        other_is_landslide = (other is not None and self.cards[other].obstacle is not None
                              and self.cards[other].obstacle.effect == "landslide")
        if card.obstacle.effect == "landslide" and other_place is not None \
                and not other_is_landslide:
            # It lies on the other card, which is blocked until the next save; its own
            # place is left empty.
            self.island[place] = None
            self.face_up.discard(place)
            self.covered[other_place] = card.id
            events.append(Event("landslide", f"Landslide: the {self.cards[other].name} on "
                                f"{other_place} is buried.", {"card": card.id, "place": other_place,
                                                              "from": place}))
            return
        self.face_up.add(place)
        if card.obstacle.effect == "tsunami":
            self.tsunami_at[card.id] = self.time_left
        events.append(Event("continuous", f"{card.name} stays face up until a card is saved.",
                            {"card": card.id, "place": place}))

    def _tired(self) -> bool:
        """P-GOUGA-1 "tired Gouga": five saves after the wake (anyone's) and no sixth."""
        return self.tired_gouga and self.saves_after_wake >= TIRED_GOUGA_SAVES

    def _save(self, card: int, events: list[Event], by: str) -> None:
        if self.gouga != "asleep":
            self.saves_after_wake += 1
        place = self._where(card)
        self.island[place] = None
        self.face_up.discard(place)
        self.saved.append(card)
        events.append(Event("save", f"The {self.cards[card].name} is saved by the {by}!",
                            {"card": card, "place": place, "by": by}))

    def _end_continuous(self, events: list[Event]) -> None:
        """P-OBS-3: any save turns every continuous obstacle back; Landslides move on."""
        if not self.continuous:
            return
        for card in self.continuous:
            place = self._where(card)
            if place is not None:
                self.face_up.discard(place)
        for place, landslide in list(self.covered.items()):
            del self.covered[place]
            self.in_hand.append(("Landslide", landslide))
        names = ", ".join(self.cards[c].name for c in self.continuous)
        events.append(Event("continuous_end", f"A card was saved: {names} turned back.",
                            {"cards": list(self.continuous)}))
        self.continuous.clear()
        self.tsunami_at.clear()

    def _turn_back(self, events: list[Event]) -> None:
        """P-TURN-1: unsaved cards of this turn go face down in place (continuous ones stay up)."""
        seen = []
        for place in self.revealed:
            card = self.island[place]
            if card is not None and card not in self.continuous:
                self.face_up.discard(place)
            if card is not None:
                seen.append((place, card))
        self.last_seen = seen
        self.revealed = []

    def _end_step(self, events: list[Event]) -> None:
        """A turn or a Gouga call is complete: pass the turn, then see whether the game ends."""
        self.turn += 1
        self._current = (self._current + 1) % self.players
        self._check_end(events)

    def _check_end(self, events: list[Event]) -> None:
        if self.end is not None:
            return
        for card, at in self.tsunami_at.items():
            if at - self.time_left >= self.cards[card].obstacle.breath:
                self._finish("tsunami", events, "Someone breathed during the Tsunami! "
                             "Everybody loses.")
                return
        if self.time_left <= 0:  # P-END-1
            self._finish("time", events, "The sand has run out.")
        elif len(self.saved) == self.scoring_cards and len(self.found) == 2:
            self._finish("complete", events, "Everything is saved and found!")
        elif not self._safe_card_left():
            self._finish("stuck", events, "No card but the volcano can be turned: the team "
                         "waits for the sand to run out.")
        elif self.turn >= self.turn_limit:  # clock="external" only (EXTERNAL_TURNS_PER_SECOND)
            self._finish("time", events, f"{self.turn} turns: the real sand has surely run out.")

    def _finish(self, end: str, events: list[Event], text: str) -> None:
        self.end = end
        if end in ("time", "stuck"):
            self.time_left = max(self.time_left, 0.0) if end == "time" else 0.0
        events.append(Event("game_over", f"{text} Score {self.score} ({band(self.score)}); "
                            f"{'won' if self.won else 'lost'}.",
                            {"end": end, "score": self.score, "won": self.won}))


    # -- the end and the result ------------------------------------------------------------
    def returns(self) -> tuple[float, ...]:
        """The team's score, the same for every seat (cooperative): the saved natives, dodos and
        eggs as a fraction of all of them (``score / 16`` on the published island: 1.0 is
        "Divine!") when the team escaped with the raft and paddle (:attr:`won`), 0.0 for a lost
        game (the volcano, a Tsunami, no raft or paddle) and before the end.

        >>> game = PanicGame(players=2, seed=3)
        >>> game.returns()
        (0.0, 0.0)
        """
        if self.end is None or not self.won:
            return (0.0,) * self.players
        value = self.score / self.scoring_cards if self.scoring_cards else 1.0
        return (value,) * self.players

    def result(self) -> GameResult:
        """Plain data: score, win, how the game ended, time left, Gouga's work."""
        island_cards = sum(1 for c in self.island.values() if c is not None)
        return GameResult(
            game=self.game_name, players=self.players, seed=self.seed,
            finished=self.end is not None, winner=None, loser=None, turns=self.turn,
            attempts=self.gouga_calls, cards_left=island_cards,
            extra={"score": self.score, "won": self.won, "band": band(self.score),
                   "end": self.end, "time_left": self.time_left,
                   "raft": self._found_kind("raft"), "paddle": self._found_kind("paddle"),
                   "gouga": self.gouga, "gouga_saves": self.gouga_saves},
        )

    # -- helpers ------------------------------------------------------------------------------
    def _where(self, card: int) -> str | None:
        for place, c in self.island.items():
            if c == card:
                return place
        return None

    def _found_kind(self, kind: str) -> bool:
        return any(self.cards[c].kind == kind for c in self.found)

    def __repr__(self) -> str:
        state = self.end or self.phase
        return (f"<PanicGame seed={self.seed} turn {self.turn}, {self.time_left:.1f} s left, "
                f"score {self.score}, {len(self.found)}/2 found, {state}>")

    # -- plumbing: the trusted path and the play-out (the protocol's, kept fast) -----------
    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)  # HandlerTable resolves HANDLERS on the subclass
        cls._by_kind = handlers_by_kind(cls._handlers)

    @property
    def _decider(self) -> int:
        """The player deciding now (``current_player`` while the game goes on): the seat the
        handlers are given, whom the events name."""
        return (self._current - self.seat_shift) % self.players

    def apply_trusted(self, action: Any) -> list[Event]:
        """``apply`` without the legality check: the engine's own fast path (the protocol).
        Only for an action from ``legal_actions()`` of this very state (or one a bundled bot
        built for it)."""
        # the pair by the action's class alone (the same in every phase that takes it), and
        # the deciding player (_decider, written in): no phase to work out on this path
        handler = self._by_kind.get(type(action)) or self._handler_for(action, self.phase)
        return self._carry_out(handler[1], (self._current - self.seat_shift) % self.players,
                               action)

    def _handler_for(self, action: Any, phase: str | None) -> tuple[Handler, Handler]:
        """The check and do methods of an action whose class is not listed itself: a subclass
        of one of the actions plays as that action; anything else is refused."""
        if phase is None:
            raise IllegalAction(f"the game is over ({self.end})")
        for kind, handler in self._handlers[phase].items():
            if isinstance(action, kind):
                return handler
        raise self._refusal(action, phase)

    def _carry_out(self, do: Handler, seat: Any, action: Any) -> list[Event]:
        """Run ``do``, record the action and return the events it caused. The rules write
        them as they go (into ``self._pending``); a quiet game (:meth:`quieten`) keeps none
        and returns none."""
        self._pending = events = []
        do(self, seat, action)
        self.history.append(action)
        self._pending = []
        if self._quiet:
            return []
        self.events.extend(events)
        return events

    def play_out(self, choosers: Sequence[Callable[[Any], Any]]) -> None:
        """Play to the end through the trusted path, ``choosers[seat](self)`` deciding for
        each seat (a game on ``clock="external"`` ends at its bound,
        :data:`EXTERNAL_TURNS_PER_SECOND`, if nobody applies :class:`TimeUp`)."""
        apply = self.apply_trusted
        while self.end is None:
            apply(choosers[(self._current - self.seat_shift) % self.players](self))


PanicGame._by_kind = handlers_by_kind(PanicGame._handlers)  # each subclass's: __init_subclass__
