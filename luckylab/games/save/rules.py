"""Save Doctor Lucky, the rulebook: a sinking ship, rescues that need a witness.

This file holds the rules and nothing else: the setup, the questions the rules answer (may
this seat try a rescue? who sees it? where does Doctor Lucky go next?), the legal actions, what
each action does, the turn flow, the sinking ship and the end. The rule IDs (``S-SETUP-1`` ...)
refer to ``docs/rules/save.md``, our numbered restatement of the rules summary; comments cite
them where the code applies them. The other files of the package:

=============  ==================================================================================
``actions``    the actions (``Snoop``, ``Step``, ``PlayMove``, ``Rescue``, ``EndTurn``, ``Foil``)
``view``       what a seat sees: ``observation``, ``determinize``, ``view`` (:class:`SaveView`)
``ids``        action ids, and answers about the legal list found without listing it
``tables``     the ship as it sinks and the lookups made once per ship or per deck
``fast``       the fused turns: the default bot's games played faster, for this class only
=============  ==================================================================================

The first action of a turn decides its kind (``S-TURN-1``): ``Snoop`` makes it a snooping turn
(and ends it); anything else makes it an active turn.

>>> from luckylab import new_game
>>> game = new_game("save", players=4, seed=3)
>>> game.phase, game.afloat, game.draw_deck, game.current_player
('turn', ('A', 'B', 'C', 'D'), 'D', 1)
>>> events = game.apply(Snoop(game.positions[1]))     # stay put and draw one card
>>> for event in events[:2]:
...     print(event)
Player 2 snoops: stays in 16, Mail Room and draws a card from deck D's pile (16 left)
Doctor Lucky moves to 10, Officers' Mess

Rulings on points the rules leave open (each is tested in ``tests/test_save_rules.py``):

- ``S-SETUP-2``: the "chosen player" who is dealt to first (seeded, or the ``first_player``
  option) also takes the first turn. Only Move cards that name a room place pawns.
- ``S-SETUP-3``: when the cards left after dealing do not split evenly, the lower decks get the
  extra cards (D first).
- ``S-ACT-1``: a Move card may not be played to leave its pawn where it is (it would do
  nothing); a Move card naming a sunken room can still be used for its steps.
- ``S-FAIL-1``: Failure cards are played one at a time until the attempt is stopped, so a
  discard may not include cards beyond the one that stops it (its total less its largest card
  must still fall short). Partial discards are allowed (worked example 1, player 4).
- ``S-FAIL-2``: a player who discards some points but less than was needed, while holding
  enough, counts as having let it through.
- ``S-FAIL-3``: the engine sees every hand, so enforcing the rule (``last_must_foil=True``, the
  default) is what the optional "show your hand" rule achieves at a real table; with the option
  off the last player may pass and is then the loser (``S-FAIL-2``).
- ``S-DOC-4``: there is no first-round exception (unlike the island's ``I-DOC-3``/``I-DOC-4``):
  the source gives none.
- ``S-DOC-3``: when Doctor Lucky's deck sinks, floating up to the highest-numbered room of the
  deck above *is* his move for that turn (the source: "then, on the next turn, to the
  lowest-numbered room"); like his own move it can make the turn jump. His next own move takes
  him to the lowest-numbered room of that deck, and after that he follows the path, which on
  the smaller board no longer holds the sunken numbers.
- ``S-SINK-1``: decks sink bottom up, so the deck above a sinking deck is the new lowest deck
  afloat; rooms leave the board, the graph and the sight table (each game holds one
  precomputed :class:`~luckylab.boards.board.Board` per number of sunken decks).
- A game that reaches ``turn_cap`` turns stops as unfinished (a simulation guard, as
  ``I-END-2``): active turns draw no card, so bots that never snoop would never sink the ship.

**House rules.** A subclass of :class:`SaveGame` that changes a rule (overrides
``rescue_problem``, ``witnesses``, ``rescue_value``, ``foil_threshold``, a step ...) is played
by these rules everywhere: ``simulate``, ``play_game`` and the search bots. The fused turns
(:mod:`luckylab.games.save.fast`) play only this very class, unchanged; a subclass plays
through the readable rules, as fast as ``checked=True``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ...boards import load_board
from ...boards.board import Board
from ...cards import Card, load_deck
from ...errors import IllegalAction, OptionError, UnknownSpace
from ..base import (
    Event,
    GameBase,
    GameResult,
    check_seed,
    check_turn_cap,
    jump_target,
    seats_from_left,
)
from ..copying import shuffle
from ..foiling import FoilRound, FoilRules, asking_order
from ..fused import all_fused, fused_profiles, plays_as_written
from ..handlers import HandlerTable
from .actions import (
    DOCTOR,
    SELF,
    Action,
    EndTurn,
    Foil,
    PlayMove,
    Rescue,
    Snoop,
    Step,
)
from .ids import SaveIds
from .tables import deck_tables, foil_rules, ship_boards, ship_tables
from .view import SaveViews

__all__ = ["DECK_STEPS", "RescueAttempt", "SaveGame", "hand_size"]

Phase = Literal["turn", "active", "foil", "over"]

# S-ACT-2 readings: off, by the named room's deck (True is the old spelling), by the pile drawn from
DECK_STEPS = (False, True, "room", "pile")


def hand_size(players: int) -> int:
    """Starting hand size (``S-SETUP-3``): 8 cards with 2 or 3 players, 6 with 4 to 7."""
    return 8 if players <= 3 else 6


@dataclass
class RescueAttempt(FoilRound):
    """A failure round in progress (``S-FAIL-*``): a :class:`~luckylab.games.foiling.FoilRound`
    against a rescue made in ``room`` with the Aid card ``aid`` (or none)."""

    kind: str = "rescue"
    room: str = ""
    aid: int | None = None

    @property
    def rescuer(self) -> int:
        """The player trying the rescue (the round's ``attacker``)."""
        return self.attacker


class SaveGame(SaveViews, SaveIds, HandlerTable, GameBase):
    """One game of Save Doctor Lucky: the rules (what a seat sees: :mod:`~luckylab.games.save.view`;
    action ids: :mod:`~luckylab.games.save.ids`).

    Parameters
    ----------
    players
        3 to 7 players (``S-SETUP-1``); 2 with ``allow_two_players=True``.
    seed
        Seeds the chosen first player and both shuffles; nothing else is random.
    allow_two_players
        Allow a 2-player game (the rules give 2-3 players 8-card hands). Off by default.
    hand_size
        Cards dealt to each player; ``None`` means the rule (8 with 2-3 players, else 6).
    deck_steps
        The optional rule ``S-ACT-2``: "Move cards that came out of deck D count as Move 3, C as
        2, B as 1; A's may be ignored" (no steps). ``False`` (default): printed values.
        ``"pile"``: by the deck whose pile the card was drawn from (the source's words; cards
        dealt at the start keep their printed value). ``"room"`` (or ``True``, kept for old
        records): by the deck of the room the card names.
    loser_award
        ``S-FAIL-2`` is optional: with ``True`` (default) a rescue names as loser the last player
        who could have stopped it; with ``False`` nobody is named (the event still tells).
    last_must_foil
        ``S-FAIL-3``: the last player asked may not let an attempt through while holding enough
        Failure points to stop it. On by default.
    first_player
        The "chosen player" of ``S-SETUP-2`` (dealt to first, plays first); ``None`` = seeded.
    turn_cap
        Stop after this many turns as unfinished (a simulation guard).
    board, deck
        A board name, file path or :class:`Board` (a ship with ``deck`` on every space) and a
        deck name or file path; the reconstructed ship and its 90 cards by default.
    """

    game_name = "save"

    HANDLERS = {
        "turn": {
            Snoop: ("_check_snoop", "_do_snoop"),
            Step: ("_check_step", "_do_step"),
            PlayMove: ("_check_move_card", "_do_move_card"),
            Rescue: ("_check_rescue", "_do_rescue"),
            EndTurn: ("_check_end", "_do_end"),
        },
        "active": {
            Step: ("_check_step", "_do_step"),
            PlayMove: ("_check_move_card", "_do_move_card"),
            Rescue: ("_check_rescue", "_do_rescue"),
            EndTurn: ("_check_end", "_do_end"),
        },
        "foil": {Foil: ("_check_foil", "_do_foil")},
    }
    """Phase -> action -> the names of the methods that check it and carry it out (the shared
    dispatch: :mod:`luckylab.games.handlers`)."""

    def __init__(
        self,
        players: int = 4,
        seed: int | None = None,
        *,
        allow_two_players: bool = False,
        hand_size: int | None = None,
        deck_steps: bool | str = False,
        last_must_foil: bool = True,
        loser_award: bool = True,
        first_player: int | None = None,
        turn_cap: int = 2000,
        board: str | Board = "save-doctor-lucky",
        deck: str = "save",
    ) -> None:
        low = 2 if allow_two_players else 3
        if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= 7:
            hint = "" if allow_two_players else " (2 with allow_two_players=True)"
            raise OptionError(f"Save Doctor Lucky takes {low} to 7 players{hint}, not {players!r}")
        size = _hand_size_rule(players) if hand_size is None else hand_size
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            raise OptionError(f"hand_size must be a whole number >= 0, not {hand_size!r}")
        if first_player is not None and (not isinstance(first_player, int) or isinstance(
                first_player, bool) or first_player not in range(players)):
            raise OptionError(f"first_player must be a seat 0..{players - 1}, not {first_player!r}")
        check_turn_cap(turn_cap)  # bounded: a passive game must end
        check_seed(seed)
        if deck_steps not in DECK_STEPS or not isinstance(deck_steps, (bool, str)):
            raise OptionError(f"deck_steps must be one of {DECK_STEPS}, not {deck_steps!r} "
                              "(S-ACT-2)")
        for name, value in (("allow_two_players", allow_two_players),
                            ("last_must_foil", last_must_foil), ("loser_award", loser_award)):
            if not isinstance(value, bool):
                raise OptionError(f"{name} must be True or False, not {value!r}")
        full = board if isinstance(board, Board) else load_board(board)
        self.decks: tuple[str, ...]
        self.decks, self._boards = ship_boards(full)
        self.board: Board = full
        self._t = ship_tables(full)
        self.cards: tuple[Card, ...] = load_deck(deck)
        for c in self.cards:
            if c.kind == "move" and c.room is not None and c.room not in full:
                raise OptionError(f"Move card {c.id} ({c.name}) names {c.room!r}, which is not "
                                 f"a room of {full.name}")

        self.players = players
        self.seed = seed
        self.options: dict[str, Any] = {
            "allow_two_players": allow_two_players, "hand_size": hand_size,
            "deck_steps": deck_steps, "last_must_foil": last_must_foil,
            "first_player": first_player, "turn_cap": turn_cap,
        }
        if isinstance(board, str) and board != "save-doctor-lucky":
            self.options["board"] = board
        if deck != "save":
            self.options["deck"] = deck
        if not loser_award:
            self.options["loser_award"] = False
        self.deck_steps = "room" if deck_steps is True else deck_steps
        self.loser_award = loser_award
        self._drawn_from: dict[int, str] = {}  # S-ACT-2 "pile": card id -> deck of its pile
        self.last_must_foil = last_must_foil
        self.turn_cap = turn_cap
        self.seats: tuple[int, ...] = tuple(range(players))
        self.history: list[Action] = []
        self.events: list[Event] = []
        self._pending: list[Event] = []
        self._points, self._aids, self._moves = deck_tables(self.cards)
        # S-FAIL-*: the rules with S-FAIL-3 off and on (last_must_foil may change on a live game)
        self._foil_rules = (foil_rules(self.cards, False), foil_rules(self.cards, True))
        # S-ACT-2: the step value of a room's deck, top deck 0 (no steps), then 1, 2, 3.
        self._deck_step = {d: i for i, d in enumerate(self.decks)}

        rng = random.Random(seed)
        self.first_player = rng.randrange(players) if first_player is None else first_player
        self._setup_positions(rng)
        self._deal(rng, size)

        self.afloat: tuple[str, ...] = self.decks
        self.phase: Phase = "turn"
        self.turn_player: int = self.first_player
        self._decider: int | None = self.first_player
        self.step_used = False
        self.attempt: RescueAttempt | None = None
        self._doctor_to_lowest: str | None = None  # S-DOC-3, set when his deck sinks
        self.winner: int | None = None
        self.loser: int | None = None
        self.finished = False
        self.end_reason = ""
        self.turns = 0
        self.attempt_log: list[dict[str, Any]] = []
        self._begin_turn(self.first_player)
        self.events.extend(self._pending)
        self._pending = []

    # -- setup (S-SETUP-*) -------------------------------------------------------------------
    def _setup_positions(self, rng: random.Random) -> None:
        """``S-SETUP-2``: deal face up from the chosen player to the left; each player's first
        Move card places their pawn, the next Move card places Doctor Lucky."""
        ids = [c.id for c in self.cards]
        shuffle(ids, rng)  # rng.shuffle(ids), the same order
        placing = [(self.first_player + i) % self.players for i in range(self.players)]
        self.positions: list[str] = [""] * self.players
        doctor: str | None = None
        placed = 0
        dealt = 0
        for cid in ids:
            dealt += 1
            card = self.cards[cid]
            if card.kind != "move" or card.room is None:
                continue
            if placed < self.players:
                self.positions[placing[placed]] = card.room
                placed += 1
            else:
                doctor = card.room
                break
        if doctor is None:
            raise OptionError(f"the deck has too few Move cards naming rooms to place "
                             f"{self.players} players and Doctor Lucky (S-SETUP-2)")
        self.doctor: str = doctor
        self._say("setup", f"start positions dealt face up ({dealt} cards): "
                  + ", ".join(f"Player {s + 1} in {self.positions[s]}" for s in self.seats)
                  + f"; Doctor Lucky in {doctor}",
                  positions=list(self.positions), doctor=doctor, cards_dealt=dealt)

    def _deal(self, rng: random.Random, size: int) -> None:
        """``S-SETUP-3``: reshuffle all cards, deal hands, split the rest into one pile per
        deck (top of a pile = end of its list; extra cards to the lower decks)."""
        ids = [c.id for c in self.cards]
        shuffle(ids, rng)  # rng.shuffle(ids), the same order
        if size * self.players >= len(ids):
            raise OptionError(f"{self.players} hands of {size} leave no cards for the piles")
        self.hands: list[list[int]] = [[] for _ in self.seats]
        dealt_to = seats_from_left(self.seats, self.first_player - 1)  # the first player first
        for _ in range(size):
            for s in dealt_to:  # one card each, round the table
                self.hands[s].append(ids.pop())
        n = len(self.decks)
        base, extra = divmod(len(ids), n)
        self.piles: dict[str, list[int]] = {}
        for i, d in enumerate(reversed(self.decks)):  # the bottom deck first
            k = base + (1 if i < extra else 0)
            self.piles[d], ids = ids[:k], ids[k:]
        if any(not p for p in self.piles.values()):
            raise OptionError(f"too few cards left to give every deck a pile: {len(ids)}")
        self.discards: list[int] = []

    # -- the state, and the rules' questions about it -----------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat that decides now (the turn's player, or the one asked in a failure round);
        None when the game is over."""
        return None if self.phase == "over" else self._decider

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def ship(self) -> Board:
        """The whole ship as it was before anything sank (``board`` is the part afloat)."""
        return self._boards[0]

    @property
    def draw_deck(self) -> str:
        """The deck whose pile you draw from: the lowest deck still afloat (``S-SETUP-3``)."""
        return self.afloat[-1]

    @property
    def sunk(self) -> tuple[str, ...]:
        """The decks that have sunk, the first to sink first."""
        return tuple(reversed(self.decks[len(self.afloat):]))

    def exits(self, space: str) -> tuple[str, ...]:
        """The rooms one door away from ``space`` on the ship as it is now, sorted."""
        try:
            return self._t.exits[space]
        except KeyError:
            self._unknown_space(space)
            raise

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]

    def failure_points(self, seat: int) -> int:
        """Total Failure points in a seat's hand."""
        points = self._points
        return sum(points[c] for c in self.hands[seat])

    def aids_in_hand(self, seat: int) -> list[int]:
        """The Aid cards in a seat's hand, in hand order."""
        aids = self._aids
        return [c for c in self.hands[seat] if c in aids]

    def moves_in_hand(self, seat: int) -> list[int]:
        """The Move cards in a seat's hand, in hand order."""
        moves = self._moves
        return [c for c in self.hands[seat] if c in moves]

    def pawns_at(self, space: str) -> list[int]:
        """Seats whose pawns stand in ``space``."""
        positions = self.positions
        if space not in positions:  # the usual answer, found without a loop in Python
            return []
        return [s for s in self.seats if positions[s] == space]

    def witnesses(self, seat: int, space: str | None = None) -> list[int]:
        """The *other* players who see ``seat`` (standing in ``space``, default their room):
        same room or straight-line sight on the ship as it is now (``S-SAVE-1``)."""
        here = self.positions[seat] if space is None else space
        vis = self._t.vis
        if here not in vis:
            self.board.check(here)  # raises UnknownSpace, as board.sees would
        positions = self.positions
        return [s for s in self.seats if s != seat and here in vis[positions[s]]]

    def rescue_problem(self, seat: int) -> str | None:
        """Why ``seat`` may not attempt a rescue in their room now, or None if they may."""
        if self.phase not in ("turn", "active") or seat != self._decider:
            return "a rescue is tried only on your own turn"
        here = self.positions[seat]
        if here != self.doctor:
            return f"you are in {here}, Doctor Lucky is in {self.doctor}"
        if not self.witnesses(seat):
            return (f"nobody else sees you in {here}: a rescue needs a witness (S-SAVE-1)")
        return None

    def rescue_value(self, aid: int | None, space: str) -> int:
        """What an attempt is worth (``S-SAVE-2``): 1 with no Aid, else the Aid's value there."""
        return 1 if aid is None else self.cards[aid].weapon_value(space)

    def foil_threshold(self, value: int) -> int:
        """The Failure points that stop a rescue worth ``value`` (``S-FAIL-1``: the discards
        reach its value; a house rule "strictly more" returns ``value + 1``)."""
        return value

    def step_value(self, card_id: int) -> int:
        """A Move card's steps: printed, or by its room's deck with ``deck_steps`` (``S-ACT-2``)."""
        card = self.cards[card_id]
        if self.deck_steps == "pile":
            deck = self._drawn_from.get(card_id)
            return (card.steps or 0) if deck is None else self._deck_step[deck]
        if self.deck_steps and card.room is not None:
            return self._deck_step[self._boards[0].space(card.room).deck]
        return card.steps or 0

    def move_destinations(self, card_id: int, start: str) -> frozenset[str]:
        """Where Move card ``card_id`` can take a pawn standing in ``start`` (``S-ACT-1``): the
        room it names (if afloat), or any room within its steps; never ``start`` itself."""
        return self._destinations(card_id, start)[1]

    def _destinations_in_order(self, card_id: int, start: str) -> tuple[str, ...]:
        return self._destinations(card_id, start)[0]

    def _destinations(self, card_id: int, start: str) -> tuple[tuple[str, ...], frozenset[str]]:
        card = self.cards[card_id]
        table = self._t.destinations
        key = (self.deck_steps, card.room, card.steps if self.deck_steps != "pile"
               else self.step_value(card_id), start)
        dests = table.get(key)
        if dests is None:
            # The answer depends only on the board (as sunk so far), the card's room and steps
            # and the start room: cache it, sorted, so that legal_actions() lists actions in
            # the same order in every process.
            found = set(self.board.reachable(start, self.step_value(card_id)))
            if card.room is not None and card.room in self.board:
                found.add(card.room)
            found.discard(start)
            ordered = tuple(sorted(found))
            dests = table[key] = (ordered, frozenset(ordered))
        return dests

    def doctor_next(self) -> str:
        """Where Doctor Lucky's own move will take him if no deck sinks first (``S-DOC-*``)."""
        return self._doctor_target()

    # -- legal actions -----------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (empty when the game is over).

        In a failure round, Failure cards of equal points are interchangeable, so one discard is
        listed per combination of point values (using the lowest card ids).
        """
        seat = self._decider
        if self.phase == "over" or seat is None:
            return []
        if self.phase == "foil":
            return self._foil_actions(seat)
        here = self.positions[seat]
        self.exits(here)  # an unknown room raises here, as before
        t = self._t
        actions: list[Action] = []
        if self.phase == "turn":
            actions.extend(t.snoops[here])  # Snoop(here), then one per exit, sorted
        if not self.step_used:
            actions.extend(t.steps[here])
        actions.extend(self._move_card_actions(seat))
        if self.rescue_problem(seat) is None:
            actions.append(Rescue(None))
            actions.extend(Rescue(c) for c in self.hands[seat] if self.cards[c].kind == "aid")
        actions.append(EndTurn())
        return actions

    def _move_card_actions(self, seat: int) -> Iterator[PlayMove]:
        for group in self._move_card_groups(seat):
            yield from group

    def _move_card_groups(self, seat: int) -> list[tuple[PlayMove, ...]]:
        """The Move card plays of ``seat``, one tuple per card and target, in listing order."""
        plays = self._t.plays
        pile = self.deck_steps == "pile"
        pawns = ((SELF, self.positions[seat]), (DOCTOR, self.doctor))
        groups = []
        for c in self.moves_in_hand(seat):
            for target, start in pawns:
                key = (c, target, start, self.step_value(c) if pile else self.deck_steps)
                found = plays.get(key)
                if found is None:
                    found = plays[key] = tuple(PlayMove(c, target, to)
                                               for to in self._destinations_in_order(c, start))
                groups.append(found)
        return groups

    @property
    def _foiling(self) -> FoilRules:
        """The failure round's rules (``S-FAIL-*``), read each time: ``last_must_foil`` may be
        changed on a live game."""
        return self._foil_rules[self.last_must_foil]

    def foiling_rules(self) -> FoilRules:
        """The failure round's rules (``S-FAIL-*``), for a look-ahead bot reading passes."""
        return self._foiling

    def may_pass(self) -> bool:
        """In a failure round, whether the player asked may pass (``Foil()`` is legal): not
        when ``S-FAIL-3`` makes them stop the attempt.

        >>> from luckylab import new_game
        >>> new_game("save", players=4, seed=3).may_pass()  # no failure round: no pass
        False
        """
        if self.phase != "foil":
            return False
        return not self._foiling.must_stop(self.hands[self._decider], self.attempt)

    def _foil_actions(self, seat: int) -> list[Foil]:
        return list(self._foiling.payments(self.hands[seat], self.attempt))

    # -- applying actions: each action's check and effect (HANDLERS) --------------------------
    def _where(self, space: str) -> str:
        """A room as the events name it ("16, Mail Room"); a sunk room by its name only."""
        return self._t.where.get(space, space)

    # S-SNOOP-1 ------------------------------------------------------------------------------
    def _check_snoop(self, seat: int, action: Snoop) -> None:
        here = self.positions[seat]
        if action.to != here and action.to not in self.exits(here):
            self._unknown_space(action.to)
            raise IllegalAction(f"a snooping step goes one door from {here} (or stays), not to "
                                f"{action.to}", [Snoop(here), *(Snoop(n) for n in
                                                 self.exits(here))])

    def _do_snoop(self, seat: int, action: Snoop) -> None:
        moved = "stays in" if action.to == self.positions[seat] else "goes to"
        self.positions[seat] = action.to
        deck = self.draw_deck
        card = self.piles[deck].pop()
        self.hands[seat].append(card)
        if self.deck_steps == "pile":
            self._drawn_from[card] = deck
        if not self._quiet:
            self._say("snoop", f"Player {seat + 1} snoops: {moved} {self._where(action.to)} "
                               f"and draws a card from deck {deck}'s pile "
                               f"({len(self.piles[deck])} left)",
                      seat=seat, to=action.to, deck=deck, card=card)
        self._between_turns()

    # S-ACT-1 --------------------------------------------------------------------------------
    def _check_step(self, seat: int, action: Step) -> None:
        if self.step_used:
            raise IllegalAction("you already took your free step this turn (S-ACT-1)")
        here = self.positions[seat]
        if action.to not in self.exits(here):
            self._unknown_space(action.to)
            raise IllegalAction(f"a step goes through one door: {action.to} is not next to "
                                f"{here}", [Step(n) for n in self.exits(here)])

    def _do_step(self, seat: int, action: Step) -> None:
        self._go_active(seat)
        self.step_used = True
        self.positions[seat] = action.to
        if not self._quiet:
            self._say("step", f"Player {seat + 1} steps to {self._where(action.to)}", seat=seat,
                      to=action.to)

    def _check_move_card(self, seat: int, action: PlayMove) -> None:
        if action.card not in self.hands[seat]:
            raise IllegalAction(f"card {action.card} is not in your hand")
        card = self.cards[action.card]
        if card.kind != "move":
            raise IllegalAction(f"card {action.card} ({card.name}) is not a Move card")
        if action.target not in (SELF, DOCTOR):
            raise IllegalAction(f"a Move card moves yourself ({SELF!r}) or Doctor Lucky "
                                f"({DOCTOR!r}), not {action.target!r}")
        start = self.positions[seat] if action.target == SELF else self.doctor
        dests = self.move_destinations(action.card, start)
        if action.to not in dests:
            self._unknown_space(action.to)
            steps = self.step_value(action.card)
            named = (f"the room it names ({card.room}, sunk)" if card.room not in self.board
                     else f"{card.room}")
            raise IllegalAction(f"{card.name} takes a pawn in {start} to {named} or up to "
                                f"{steps} step(s), not to {action.to}")

    def _do_move_card(self, seat: int, action: PlayMove) -> None:
        self._go_active(seat)
        self.hands[seat].remove(action.card)
        self.discards.append(action.card)
        if action.target == SELF:
            self.positions[seat] = action.to
            who = f"Player {seat + 1}"
        else:
            # S-DOC-4: being moved by a card never changes the turn order.
            self.doctor = action.to
            # S-DOC-3: a card moving him after he floated up voids his pending move to the
            # lowest-numbered room of that deck; he goes on by S-DOC-1/S-DOC-2.
            self._doctor_to_lowest = None
            who = "Doctor Lucky"
        if not self._quiet:
            self._say("move_card", f"Player {seat + 1} plays {self.cards[action.card].name}: "
                                   f"{who} to {self._where(action.to)}", seat=seat,
                      card=action.card, target=action.target, to=action.to)

    def _check_end(self, seat: int, action: EndTurn) -> None:
        pass

    def _do_end(self, seat: int, action: EndTurn) -> None:
        self._go_active(seat)
        if not self._quiet:
            self._say("end_turn", f"Player {seat + 1} ends the turn", seat=seat)
        self._between_turns()

    def _go_active(self, seat: int) -> None:
        if self.phase == "turn":  # S-TURN-1: the first action decides the kind of turn
            self.phase = "active"
            self._say("active", f"Player {seat + 1} takes an active turn (no card drawn)",
                      seat=seat)

    # S-SAVE-1, S-SAVE-2 ---------------------------------------------------------------------
    def _check_rescue(self, seat: int, action: Rescue) -> None:
        problem = self.rescue_problem(seat)
        if problem is not None:
            raise IllegalAction(f"no rescue attempt: {problem}")
        if action.aid is not None:
            if action.aid not in self.hands[seat]:
                raise IllegalAction(f"card {action.aid} is not in your hand")
            if self.cards[action.aid].kind != "aid":
                raise IllegalAction(f"card {action.aid} ({self.cards[action.aid].name}) is not "
                                    "an Aid card")

    def _do_rescue(self, seat: int, action: Rescue) -> None:
        self._go_active(seat)
        room = self.positions[seat]
        value = self.rescue_value(action.aid, room)
        if action.aid is not None:
            self.hands[seat].remove(action.aid)
            self.discards.append(action.aid)
        if not self._quiet:
            aid = "no Aid" if action.aid is None else self.cards[action.aid].name
            witnesses = self.witnesses(seat)
            self._say("rescue", f"Player {seat + 1} tries to rescue Doctor Lucky in "
                                f"{self._where(room)} with {aid}: worth {value}, "
                                f"seen by {_players(witnesses)}",
                      seat=seat, room=room, aid=action.aid, value=value, witnesses=witnesses)
        order = asking_order(self.seats, seat)  # S-FAIL-1
        self.attempt = RescueAttempt(seat, value, order, room=room, aid=action.aid,
                                     stop=self.foil_threshold(value))
        self.phase = "foil"
        self._decider = order[0]

    # S-FAIL-* -------------------------------------------------------------------------------
    def _check_foil(self, seat: int, action: Foil) -> None:
        self._foiling.check(self.hands[seat], action.cards, self.attempt)

    def _do_foil(self, seat: int, action: Foil) -> None:
        attempt = self.attempt
        assert attempt is not None
        hand = self.hands[seat]
        total = self._foiling.pay(attempt, seat, action.cards, hand)  # S-FAIL-2: the loser
        for c in action.cards:
            hand.remove(c)
            self.discards.append(c)
        if attempt.foiled:
            if not self._quiet:
                self._say("foiled", f"Player {seat + 1} discards {total} Failure point(s): the "
                                    "rescue fails, play goes on", seat=seat,
                          cards=list(action.cards), points=total)
            self._log_attempt(attempt, foiled_by=seat)
            self.attempt = None
            self._between_turns()
            return
        if action.cards:
            if not self._quiet:
                self._say("foil", f"Player {seat + 1} discards {total} Failure point(s); "
                                  f"{attempt.needed} still needed", seat=seat,
                          cards=list(action.cards), points=total, needed=attempt.needed)
        elif not self._quiet:
            self._say("pass", f"Player {seat + 1} passes; {attempt.needed} still needed",
                      seat=seat, needed=attempt.needed)
        nxt = attempt.next_seat
        if nxt is not None:
            self._decider = nxt
            return
        self._log_attempt(attempt, foiled_by=None)
        self.winner = attempt.rescuer
        self.loser = attempt.loser if self.loser_award else None  # S-FAIL-2 is optional
        self.finished = True
        self.end_reason = "rescued"
        self.phase = "over"
        self._decider = None
        blame = ("" if attempt.loser is None
                 else f"; Player {attempt.loser + 1} could have stopped it")
        self._say("game_over", f"Player {attempt.rescuer + 1} rescues Doctor Lucky and wins{blame}",
                  winner=self.winner, loser=self.loser)

    def _log_attempt(self, attempt: RescueAttempt, foiled_by: int | None) -> None:
        self.attempt_log.append({
            "turn": self.turns, "rescuer": attempt.rescuer, "room": attempt.room,
            "value": attempt.value, "aid": attempt.aid, "foiled_by": foiled_by,
            "asked": [[s, list(cards)] for s, cards in attempt.asked],
        })

    def _unknown_space(self, space: str) -> None:
        try:
            self._boards[0].check(space)
        except UnknownSpace as exc:  # a typo: say so, with UnknownSpace's "did you mean"
            raise IllegalAction(str(exc)) from None
        if space not in self.board:
            raise IllegalAction(f"{space} has sunk (S-SINK-1)")

    # -- between turns: sinking, then Doctor Lucky ---------------------------------------------
    def _between_turns(self) -> None:
        last_active = self.turn_player
        self.turns += 1
        floated = False
        deck = self.draw_deck
        if not self.piles[deck]:  # S-SINK-1: its pile ran out this turn
            floated = self._sink(deck)
            if self.phase == "over":
                return
        if self.turns >= self.turn_cap:
            self.phase = "over"
            self._decider = None
            self.end_reason = "turn cap"
            self._say("turn_cap", f"stopped after {self.turns} turns (turn cap)")
            return
        if not floated:
            self._doctor_moves()
        # S-DOC-4: his move between turns sends the turn to a player in the room he entered.
        here = self.pawns_at(self.doctor)
        if here:
            nxt = jump_target(self.seats, last_active, here)
            assert nxt is not None
            if not self._quiet:
                self._say("turn_jumps", f"Doctor Lucky walks in on {_players(here)}: "
                                        f"Player {nxt + 1} goes next",
                          seat=nxt, occupants=here, last_active=last_active)
        else:
            nxt = (last_active + 1) % self.players
        self._begin_turn(nxt)

    def _sink(self, deck: str) -> bool:
        """Sink ``deck`` (``S-SINK-1``, ``S-SINK-2``); True if Doctor Lucky floated up."""
        k = len(self.decks) - len(self.afloat) + 1
        self.afloat = self.afloat[:-1]
        if not self.afloat:  # S-SINK-2: the top deck sank
            self.phase = "over"
            self._decider = None
            self.end_reason = "sunk"
            self.finished = True
            self._say("game_over", f"deck {deck} sinks: the ship is gone and nobody wins",
                      deck=deck)
            return False
        board = self._boards[k]
        up = self.afloat[-1]
        lowest = self._room_on(board, up, lowest=True)
        floated_seats = [s for s in self.seats if self.positions[s] not in board]
        for s in floated_seats:
            self.positions[s] = lowest
        self._say("sink", f"deck {deck} sinks; its rooms are gone"
                  + (f"; {_players(floated_seats)} float up to "
                     f"{self._where_on(board, lowest)}" if floated_seats else ""),
                  deck=deck, floated=floated_seats, to=lowest)
        self.board = board
        self._t = ship_tables(board)  # the lookups follow the board
        if self.doctor in board:
            return False
        # S-DOC-3: he floats to the highest-numbered room of the deck above; his next own move
        # goes to the lowest-numbered room of that deck.
        self.doctor = self._room_on(board, up, lowest=False)
        self._doctor_to_lowest = up
        self._say("doctor_floats", f"Doctor Lucky floats up to {self._where(self.doctor)}",
                  to=self.doctor)
        return True

    @staticmethod
    def _room_on(board: Board, deck: str, lowest: bool) -> str:
        numbered = [(board.number(s), s) for s in board.spaces
                    if board.space(s).deck == deck and board.number(s) is not None]
        return (min if lowest else max)(numbered)[1]

    @staticmethod
    def _where_on(board: Board, space: str) -> str:
        return f"{board.number(space)}, {space}" if board.number(space) is not None else space

    def _doctor_target(self) -> str:
        board = self.board
        here = self.doctor
        if self._doctor_to_lowest is not None:  # S-DOC-3, his first own move after floating
            target = self._room_on(board, self._doctor_to_lowest, lowest=True)
            if target != here:
                return target
        steps = self._t.doctor_step
        target = steps.get(here)
        if target is None:  # the same for every game on this board: work it out once
            if board.number(here) is not None:
                target = board.next_on_path(here)  # S-DOC-1; sunken numbers are off the path
            else:
                # S-DOC-2: the highest-numbered adjacent room (checked to exist at the start)
                target = max((n for n in board.neighbors(here) if board.number(n) is not None),
                             key=board.number)
            steps[here] = target
        return target

    def _doctor_moves(self) -> None:
        target = self._doctor_target()
        self._doctor_to_lowest = None
        self.doctor = target
        if not self._quiet:
            self._say("doctor_moves", f"Doctor Lucky moves to {self._where(target)}", to=target)

    def _begin_turn(self, seat: int) -> None:
        self.phase = "turn"
        self.turn_player = seat
        self._decider = seat
        self.step_used = False
        if not self._quiet:
            self._say("turn", f"Player {seat + 1}'s turn (in {self._where(self.positions[seat])}; "
                              f"Doctor Lucky in {self._where(self.doctor)})", seat=seat)

    # -- the end ---------------------------------------------------------------------------
    def result(self) -> GameResult:
        """The game's outcome as plain data (for :func:`luckylab.simulate`)."""
        return GameResult(
            game="save", players=self.players, seed=self.seed, finished=self.finished,
            winner=self.winner, loser=self.loser, turns=self.turns,
            attempts=len(self.attempt_log),
            cards_left=sum(len(p) for p in self.piles.values()),
            extra={"end": self.end_reason, "decks_sunk": len(self.decks) - len(self.afloat),
                   "attempts": list(self.attempt_log)},
        )

    def __repr__(self) -> str:
        state = self.phase if self.phase != "over" else f"over ({self.end_reason})"
        return (f"<SaveGame {self.players} players, seed {self.seed}, turn {self.turns}, "
                f"decks afloat {''.join(self.afloat)}, {state}>")

    def play_out(self, choosers: Sequence[Callable[[Any], Any]]) -> None:
        """Play to the end, ``choosers[seat](self)`` deciding for each seat. In a quiet game of
        exactly these rules (this class, unchanged: not a subclass) where every seat is the
        default bot, the fused turns of :mod:`luckylab.games.save.fast` play it (the same game,
        faster); anything else, a house rule's subclass included, plays through the rules
        above (the trusted loop, as fast as ``checked=True``)."""
        if self._quiet and plays_as_written(self, SaveGame) and all_fused(choosers,
                                                                          self.game_name):
            from .fast import PLAYS, play_out

            if fused_profiles(choosers, PLAYS) is not None:  # the default bot's play only
                play_out(self)
                return
        super().play_out(choosers)


def _hand_size_rule(players: int) -> int:
    """:func:`hand_size`, under a name ``SaveGame.__init__``'s ``hand_size`` option leaves free."""
    return hand_size(players)


def _players(seats: Sequence[int]) -> str:
    """Seats as students read them, counting from 1: "Player 2" or "Players 1, 3"."""
    numbers = ", ".join(str(s + 1) for s in seats)
    return f"Player {numbers}" if len(seats) == 1 else f"Players {numbers}"
