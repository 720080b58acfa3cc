"""The Island of Doctor Lucky, played by the book, as a state machine: the rulebook.

This file holds the rules and nothing else: setting up, who sees whom, what each player may do,
what each action does, Doctor Lucky's walk and the end. What a seat sees is in ``view.py``,
action ids in ``ids.py``, tables worked out once per board in ``tables.py``, and the fast
simulation of the default bots in ``fast.py``. To play a house rule, subclass
:class:`IslandGame` and override the method that states it (``can_attack``, ``sight``,
``foil_threshold`` ...): the game, ``luckylab.simulate`` and the bots then play your rule.
(A check method, ``_check_attack``, only explains a refusal to ``apply``: the legal actions
and the bots ask the rule methods.)

What happened is told in plain words (``self._say(kind, sentence, **data)``, the game's
events). A simulation that nobody reads runs quietly: ``if not self._quiet:`` skips writing the
sentences, which would cost a third of each step.

Rule IDs (``I-SETUP-1`` ...) refer to ``docs/rules/island.md``, our numbered restatement of the
rulebook; the comments cite them where the code applies them. Every decision a player makes is
an action: the Phase 1 choice, the Phase 2 choice, each player's foil discard, and a Hazard
victim's penalty. Strangers (2-3 players, ``I-STR-*``) are automated and take their turns
inside :meth:`IslandGame.apply`.

>>> game = IslandGame(players=4, seed=1)
>>> game.phase, game.names[game.current_player]
('phase1', 'Janet Principle')
>>> events = game.apply(Pass())
>>> game.phase
'phase2'

Interpretations of points the rulebook leaves open (each can be checked in the tests):

- ``I-FOIL-3``: a player who discards *some* Luck but less than was still needed, while holding
  enough to cover it, counts as having passed.
- ``I-DOC-2``: a Stranger standing in a Building makes it non-empty (Strangers are "automated
  players", ``I-STR-8``), and Strangers never draw.
- ``I-KILL-3``: with no Weapon, the marker under the attacker is the card discarded last in the
  foiling round ("it doesn't matter which discard you choose").
- A Weapon goes under the attacker's character as soon as it is played (it would end there
  after a foiled attempt anyway); so after a successful one it is there too, and all 72 cards
  are always in exactly one place.
- ``I-SETUP-3``: the random first player is one of the live players, never a Stranger.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...boards import load_board
from ...boards.board import Board, CatBlocks
from ...cards import Card, load_characters, load_deck
from ...errors import IllegalAction, OptionError
from ..base import (
    Event,
    GameBase,
    GameResult,
    check_seed,
    check_turn_cap,
    jump_target,
    seats_from_left,
)
from ..foiling import FoilRound, FoilRules, asking_order
from ..fused import all_fused, fused_profiles, plays_as_written
from ..handlers import HandlerTable
from .actions import (
    DOCTOR,
    Action,
    Attack,
    DiscardLuck,
    Draw,
    Foil,
    GiveCard,
    Move,
    MoveCat,
    Pass,
    Phase,
    PlayHazard,
)
from .ids import IslandIds
from .tables import board_tables, deck_luck
from .view import IslandViews

__all__ = ["IslandAttempt", "IslandGame", "foil_rules", "hand_size"]


@dataclass
class IslandAttempt(FoilRound):
    """A foiling round in progress (``I-FOIL-*``): a :class:`~luckylab.games.foiling.FoilRound`
    against a murder attempt (``kind="murder"``, with ``weapon`` or bare-handed) or a Hazard
    thrown at Doctor Lucky (``kind="hazard"``, the card ``hazard``); ``table_luck`` is the Luck
    the others held when it began."""

    hazard: int | None = None
    table_luck: int = 0


def hand_size(players: int) -> int:
    """Starting hand size (``I-SETUP-1``, ``I-STR-2``): 7 for 2-3 players, 6 for 4-6, 5 for 7-8."""
    if players <= 3:
        return 7
    return 6 if players <= 6 else 5


class IslandGame(IslandViews, IslandIds, HandlerTable, GameBase):
    """One game of The Island of Doctor Lucky.

    Parameters
    ----------
    players
        2 to 8 live players (``I-SETUP-1``).
    seed
        Seeds the shuffle, the first player and the Strangers' start spaces.
    youre_out
        The optional rule "You're Out" (``I-HAZ-3``): a player with no cards who is hit by a
        Hazard is eliminated. Off by default.
    cat_blocks
        ``"both"`` (default, ``I-SIGHT-2``) or ``"outward"`` (the cat only blinds her own space).
    strangers
        Add Strangers (``I-STR-1``); ``None`` means "with 2 or 3 players", the rulebook's advice.
    turn_cap
        Stop a game after this many turns as unfinished (``I-END-2``).
    board
        A board name or :class:`Board` (a teacher's own map); the Isla Fortuna reconstruction
        by default.
    """

    game_name = "island"

    HANDLERS = {
        "phase1": {
            Move: ("_check_move", "_do_move"),
            MoveCat: ("_check_cat", "_do_cat"),
            PlayHazard: ("_check_hazard", "_do_hazard"),
            Pass: ("_check_pass", "_do_pass1"),
        },
        "phase2": {
            Draw: ("_check_draw", "_do_draw"),
            Attack: ("_check_attack", "_do_attack"),
            Pass: ("_check_pass", "_do_pass2"),
        },
        "foil": {Foil: ("_check_foil", "_do_foil")},
        "penalty": {
            GiveCard: ("_check_give", "_do_give"),
            DiscardLuck: ("_check_discard", "_do_discard"),
        },
    }
    """Phase -> action -> the names of the methods that check it and carry it out (the shared
    dispatch: :mod:`luckylab.games.handlers`)."""

    def __init__(
        self,
        players: int = 4,
        seed: int | None = None,
        *,
        youre_out: bool = False,
        cat_blocks: CatBlocks = "both",
        strangers: bool | None = None,
        turn_cap: int = 2000,
        board: str | Board = "isla-fortuna",
    ) -> None:
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 8:
            raise OptionError(f"The Island of Doctor Lucky takes 2 to 8 players, not {players!r}")
        if cat_blocks not in ("both", "outward"):
            raise OptionError(f"cat_blocks must be 'both' or 'outward', not {cat_blocks!r}")
        check_turn_cap(turn_cap)  # bounded: a passive game must end
        if not isinstance(youre_out, bool) or not isinstance(strangers, (bool, type(None))):
            raise OptionError(f"youre_out and strangers are True or False (strangers also None), "
                              f"not {youre_out!r}, {strangers!r}")
        check_seed(seed)
        if strangers is None:
            strangers = players <= 3
        if strangers and players > 3:
            raise OptionError("Strangers are for 2 or 3 players (I-STR-1)")
        self.board = board if isinstance(board, Board) else load_board(board)
        for role in ("players", "doctor", "cat"):
            if role not in self.board.start:
                raise OptionError(f"board {self.board.name} names no start space for {role!r}")
        self.cards: tuple[Card, ...] = load_deck("island")
        self.players = players
        self.seed = seed
        self.options = {"youre_out": youre_out, "cat_blocks": cat_blocks,
                        "strangers": strangers, "turn_cap": turn_cap}
        if not isinstance(board, Board) and board != "isla-fortuna":
            self.options["board"] = board
        self.youre_out = youre_out
        self.cat_blocks: CatBlocks = cat_blocks
        self.turn_cap = turn_cap
        self.history: list[Action] = []
        self.events: list[Event] = []

        rng = random.Random(seed)
        self.rng = rng
        # I-STR-1: one Stranger per live player, seated between them (P S P S ...).
        n_seats = players * 2 if strangers else players
        self.seats: tuple[int, ...] = tuple(range(n_seats))
        self.strangers: tuple[int, ...] = tuple(range(1, n_seats, 2)) if strangers else ()
        self._is_stranger = [s in self.strangers for s in self.seats]
        characters = load_characters("island")
        self.names: tuple[str, ...] = tuple(
            ("Stranger " if self._is_stranger[s] else "") + characters[s % len(characters)]
            for s in self.seats
        )
        self.order: list[int] = list(self.seats)  # live seats, clockwise (I-SETUP-3)
        self._left = _left_of(self.order)
        self.eliminated: set[int] = set()

        # I-SETUP-2: shuffle the 72 cards; the top of the deck is the end of the list.
        self.deck: list[int] = [c.id for c in self.cards]
        rng.shuffle(self.deck)
        self.discards: list[int] = []
        self.hands: dict[int, list[int]] = {s: [] for s in self.seats if not self._is_stranger[s]}
        self.under: dict[int, list[int]] = {s: [] for s in self.seats}
        size = hand_size(players)
        for _ in range(size):
            for s in self.hands:
                self.hands[s].append(self.deck.pop())

        # I-SETUP-4 and I-BOARD-7: Move 1, Attack 1; players on Castelo Feliz, Doctor Lucky on
        # Sunset Beach, the cat in the Observatory; Strangers on empty airplane Plains.
        self.move = {s: 1 for s in self.seats}
        self.attack = {s: 1 for s in self.seats}
        start = self.board.start
        self.position: dict[int, str] = {s: start["players"] for s in self.seats}
        if self.strangers:
            spots = list(start.get("strangers", ()))
            if len(spots) < len(self.strangers):
                raise OptionError(f"board {self.board.name} has too few Stranger start spaces")
            picked = rng.sample(spots, len(self.strangers))
            for s, spot in zip(self.strangers, picked, strict=True):
                self.position[s] = spot
        self.doctor: str = start["doctor"]
        self.cat: str = start["cat"]
        self._sight = self.board._sight[cat_blocks]
        tables = board_tables(self.board)
        self._labels, self._buildings = tables.labels, tables.buildings
        self._next_on_path, self._upstream, self._kinds = (tables.next_on_path, tables.upstream,
                                                           tables.kinds)
        self._cat_moves, self._lone_moves = tables.cats, tables.lone_moves

        self.phase: Phase = "phase1"
        self.foil: FoilRound | None = None
        self._penalty: tuple[int, int, int] | None = None  # (victim, thrower, value)
        self.winner: int | None = None
        self.loser: int | None = None
        self.finished = False
        self.turn = 0
        self.attempt_log: list[dict[str, Any]] = []
        self.table_luck_by_turn: list[int] = []
        self.hazards_played = 0
        self._had_turn: set[int] = set()
        self._jumps_on = False  # I-DOC-4
        self._luck, mean_luck = deck_luck()  # per card id; shared by every game, read only
        self.mean_luck = mean_luck
        """The average Luck of a card in the whole deck (what an unseen card is worth)."""
        # Luck held in all hands, kept up to date as cards move (cheaper than re-adding it
        # every turn for table_luck_by_turn).
        self._held = sum(self._luck[c] for hand in self.hands.values() for c in hand)
        self.active = rng.choice([s for s in self.seats if not self._is_stranger[s]])
        self._decider: int | None = self.active
        self._pending: list[Event] = []
        self._begin_turn(self.active)
        self.events.extend(self._pending)
        self._pending = []

    # -- reading the state ---------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat that decides now (a live player), or None when the game is over."""
        return None if self.phase == "over" else self._decider

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def is_stranger(self, seat: int) -> bool:
        return self._is_stranger[seat]

    def card(self, card_id: int) -> Card:
        return self.cards[card_id]

    def hand_luck(self, seat: int) -> int:
        """Total Luck in a seat's hand (0 for a Stranger)."""
        hand = self.hands.get(seat)
        return sum(map(self._luck.__getitem__, hand)) if hand else 0

    def pawns_at(self, space: str) -> list[int]:
        """Live seats whose pawns stand on ``space``."""
        return [s for s in self.order if self.position[s] == space]

    # Sight ------------------------------------------------------------------------------
    def sight(self) -> Mapping[str, frozenset[str]]:
        """Who sees what now: each space -> the spaces a pawn there sees, with the cat where
        she is. ``I-SIGHT-1``: the same space, and along the board's lines of sight;
        ``I-SIGHT-2``: the cat blocks sight across the border of her space (with
        ``cat_blocks="outward"`` only out of it). The board works the lines out once
        (``Board.visible_from``); every other sight rule of the game reads this table."""
        return self._sight[self.cat]

    def watchers(self, seat: int) -> frozenset[int | str]:
        """The pawns that see ``seat``: other live seats, and ``"doctor"`` (``I-SIGHT-*``)."""
        here, position, sight = self.position[seat], self.position, self.sight()
        seen: set[int | str] = {s for s in self.order if s != seat and here in sight[position[s]]}
        if here in sight[self.doctor]:
            seen.add(DOCTOR)
        return frozenset(seen)

    def is_watched(self, seat: int, space: str | None = None, doctor: bool = True) -> bool:
        """Would a pawn of ``seat`` on ``space`` (default: where it stands) be seen by another
        live pawn, or (with ``doctor=True``) by Doctor Lucky (``I-SIGHT-4``)? Nothing moves;
        bots use this to look before they leap."""
        position, sight = self.position, self.sight()
        if space is None:
            space = position[seat]
        if doctor and space in sight[self.doctor]:
            return True
        for s in self.order:  # noqa: SIM110 - a loop, not a generator, on the hot path
            if s != seat and space in sight[position[s]]:
                return True
        return False

    def can_draw(self, seat: int) -> bool:
        """``I-DRAW-1``: nobody, Doctor Lucky included, sees you, and the deck is not empty."""
        if self._is_stranger[seat] or not self.deck or seat in self.eliminated:
            return False
        return not self.is_watched(seat)

    def can_attack(self, seat: int) -> bool:
        """``I-KILL-1``: on Doctor Lucky's space, no other pawn there, no other pawn sees you."""
        position, sight = self.position, self.sight()
        here = position[seat]
        if here != self.doctor or seat in self.eliminated:
            return False
        for s in self.order:  # nobody else here, nobody else looking in
            if s != seat and (position[s] == here or here in sight[position[s]]):
                return False
        return True

    def hazard_targets(self, card_id: int, thrower: int) -> list[int | str]:
        """Who Hazard ``card_id`` may hit now (``I-HAZ-1``): alone on a space of its kind."""
        kind = self.cards[card_id].space_kind
        kinds, position, doctor = self._kinds, self.position, self.doctor
        spots = [position[s] for s in self.order]  # every pawn's space, Doctor Lucky's last
        spots.append(doctor)
        targets: list[int | str] = [
            s for s in self.order
            if s != thrower and kinds[position[s]] == kind and spots.count(position[s]) == 1
        ]
        if kinds[doctor] == kind and spots.count(doctor) == 1:
            targets.append(DOCTOR)
        return targets

    def table_luck(self, exclude: int | None = None) -> int:
        """Total Luck in all live hands, optionally leaving one seat out."""
        luck = self._luck.__getitem__
        eliminated = self.eliminated
        return sum([sum(map(luck, hand)) for s, hand in self.hands.items()
                    if s != exclude and s not in eliminated])

    @property
    def penalty_value(self) -> int | None:
        """The value of the Hazard whose penalty is being chosen (None outside a penalty)."""
        return None if self._penalty is None else self._penalty[2]

    @property
    def num_seats(self) -> int:
        """Seats in the game: the players and their Strangers (who never decide: they play
        inside :meth:`apply`, but a Stranger can win)."""
        return len(self.seats)

    def __repr__(self) -> str:
        state = self.phase if self.phase != "over" else (
            f"over, winner {self.winner}" if self.finished else "over, unfinished")
        return (f"<IslandGame {self.players} players, seed {self.seed}, turn {self.turn}, "
                f"{state}>")

    # -- legal actions -------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (empty when the game is over).

        In a foiling round, one payment per combination of Luck values in the hand
        (:func:`foil_rules`); in a Hazard penalty, one discard per combination of Luck values
        too (cards without Luck pay nothing and are not listed), chosen the same way.
        :meth:`apply` accepts any other payment or discard the rules allow as well.
        """
        phase = self.phase
        seat = self._decider
        if phase == "over" or seat is None:
            return []
        if phase == "phase1":
            actions: list[Action] = [Pass()]
            actions.extend(self.move_actions(seat))  # I-MOVE-1, I-STR-6 (listed by ids.py)
            actions.extend(self._cat_moves[self.cat])  # I-MOVE-2: to every other space
            for c in self.hands[seat]:
                if self.cards[c].kind == "hazard":
                    actions.extend(PlayHazard(c, t) for t in self.hazard_targets(c, seat))
            return actions
        if phase == "phase2":
            actions = [Pass()]
            if self.can_draw(seat):
                actions.append(Draw())
            if self.can_attack(seat):
                actions.append(Attack(None))
                actions.extend(Attack(c) for c in self.hands[seat]
                               if self.cards[c].kind == "weapon")
            return actions
        hand = self.hands[seat]
        if phase == "foil":
            return list(foil_rules().payments(hand, self.foil))
        assert self._penalty is not None
        value = self._penalty[2]
        actions = [GiveCard(c) for c in hand]
        actions.extend(DiscardLuck(combo) for combo, luck in _payments(hand, self._luck,
                                                                  foil_rules().rank)
                       if luck >= value)
        return actions

    # -- applying actions ----------------------------------------------------------------
    def _not_now(self, action: Action, phase: Any, allowed: str) -> str:
        return (f"{type(action).__name__} is not an action for {phase}; "
                f"now {self.names[self._decider]} chooses one of: {allowed}")

    def _where(self, space: str) -> str:
        return self._labels[space]

    # Phase 1 ------------------------------------------------------------------------------
    def _check_move(self, seat: int, action: Move) -> None:
        if not action.moves:
            raise IllegalAction("a Move must move at least one pawn; use Pass() to stay")
        seen: set[int] = set()
        cost = 0
        for pawn, dest in action.moves:
            if pawn != seat and (pawn not in self.strangers or pawn in self.eliminated):
                raise IllegalAction(f"you may move only your own pawn and Strangers (I-STR-6), "
                                    f"not seat {pawn}")
            if pawn in seen:
                raise IllegalAction(f"seat {pawn} is listed twice in one Move")
            seen.add(pawn)
            self.board.check(dest)
            here = self.position[pawn]
            if dest == here:
                raise IllegalAction(f"{self.names[pawn]} is already on {dest}")
            cost += self.board.distance(here, dest)
        if cost > self.move[seat]:
            raise IllegalAction(f"that Move takes {cost} steps but {self.names[seat]} has Move "
                                f"{self.move[seat]} (I-MOVE-1)")

    def _do_move(self, seat: int, action: Move) -> None:
        for pawn, dest in action.moves:
            self.position[pawn] = dest
            if not self._quiet:
                self._say("move", f"{self.names[pawn]} moves to {self._where(dest)}.",
                          seat=pawn, space=dest, by=seat)
        self.phase = "phase2"

    def _check_cat(self, seat: int, action: MoveCat) -> None:
        self.board.check(action.space)
        if action.space == self.cat:
            raise IllegalAction(f"the cat is already in {action.space}")

    def _do_cat(self, seat: int, action: MoveCat) -> None:
        self.cat = action.space
        if not self._quiet:
            self._say("cat", f"{self.names[seat]} moves Ragu the cat to "
                      f"{self._where(action.space)}.", seat=seat, space=action.space)
        self.phase = "phase2"

    def _check_pass(self, seat: int, action: Pass) -> None:
        return None

    def _do_pass1(self, seat: int, action: Pass) -> None:
        if not self._quiet:
            self._say("pass", f"{self.names[seat]} stays put.", seat=seat, phase="phase1")
        self.phase = "phase2"

    def _check_hazard(self, seat: int, action: PlayHazard) -> None:
        if action.card not in self.hands[seat]:
            raise IllegalAction(f"card {action.card} is not in {self.names[seat]}'s hand")
        card = self.cards[action.card]
        if card.kind != "hazard":
            raise IllegalAction(f"{card.name} is a {card.kind} card, not a Hazard")
        targets = self.hazard_targets(action.card, seat)
        if action.target not in targets:
            who = ("Doctor Lucky" if action.target == DOCTOR
                   else self.names[action.target] if action.target in self.seats
                   else repr(action.target))
            names = [("Doctor Lucky" if t == DOCTOR else self.names[t]) for t in targets]
            raise IllegalAction(
                f"{card.name} can hit only a pawn alone on a {card.space_kind} space (I-HAZ-1); "
                f"{who} is not a legal target", names or ["nobody"])

    def _do_hazard(self, seat: int, action: PlayHazard) -> None:
        card = self.cards[action.card]
        self.hands[seat].remove(action.card)
        self._held -= self._luck[action.card]
        # I-HAZ-5: whatever the outcome, +1 Move and the Hazard goes under the character.
        self.under[seat].append(action.card)
        self.move[seat] += 1
        self.hazards_played += 1
        target = action.target
        name = "Doctor Lucky" if target == DOCTOR else self.names[target]
        if not self._quiet:
            self._say("hazard", f"{self.names[seat]} throws {card.name} (value {card.value}) at "
                      f"{name}; {self.names[seat]}'s Move is now {self.move[seat]}.",
                      seat=seat, card=action.card, target=target, value=card.value)
        self.phase = "phase2"
        if target == DOCTOR:  # I-HAZ-4: foiled like an attempt, with the Hazard's value alone
            self._start_foil(seat, card.value, "hazard", hazard=action.card)
        elif self._is_stranger[target]:
            self._hazard_on_stranger(seat, target, card.value)
        else:
            self._hazard_on_player(seat, target, card.value)

    def _hazard_on_stranger(self, thrower: int, stranger: int, value: int) -> None:
        # I-STR-7: the Stranger reveals the top card; enough Luck -> discarded, else the
        # thrower takes it.
        if not self.deck:
            if not self._quiet:
                self._say("stranger_hazard", f"{self.names[stranger]} has no card to reveal: "
                          "the deck is empty.", seat=stranger)
            return
        top = self.deck.pop()
        card = self.cards[top]
        if card.luck >= value:
            self.discards.append(top)
            if not self._quiet:
                self._say("stranger_hazard", f"{self.names[stranger]} reveals {card} and shrugs "
                          "the Hazard off.", seat=stranger, card=top, stopped=True)
        else:
            self.hands[thrower].append(top)
            self._held += card.luck
            if not self._quiet:
                self._say("stranger_hazard", f"{self.names[stranger]} reveals {card}: not enough "
                          f"Luck, so {self.names[thrower]} takes it.", seat=stranger, card=top,
                          stopped=False)

    def _hazard_on_player(self, thrower: int, victim: int, value: int) -> None:
        if self.hands[victim]:  # I-HAZ-2: the victim chooses the penalty
            self._penalty = (victim, thrower, value)
            self.phase = "penalty"
            self._decider = victim
            return
        if self.youre_out:  # I-HAZ-3
            self._eliminate(victim)
        else:
            if not self._quiet:
                self._say("penalty", f"{self.names[victim]} has no cards: no penalty.", seat=victim)

    def _eliminate(self, seat: int) -> None:
        self.eliminated.add(seat)
        self.order.remove(seat)
        self._left = _left_of(self.order)
        if not self._quiet:
            self._say("eliminated", f"{self.names[seat]} has no cards and is out of the game "
                      "(You're Out!).", seat=seat)

    # Penalty ------------------------------------------------------------------------------
    def _check_give(self, seat: int, action: GiveCard) -> None:
        if action.card not in self.hands[seat]:
            raise IllegalAction(f"card {action.card} is not in {self.names[seat]}'s hand")

    def _do_give(self, seat: int, action: GiveCard) -> None:
        victim, thrower, _ = self._penalty
        self.hands[victim].remove(action.card)
        self.hands[thrower].append(action.card)
        if not self._quiet:
            self._say("penalty", f"{self.names[victim]} passes a card to {self.names[thrower]}.",
                      seat=victim, to=thrower, card=action.card)
        self._end_penalty()

    def _check_discard(self, seat: int, action: DiscardLuck) -> None:
        self._check_own_cards(seat, action.cards)
        value = self._penalty[2]
        luck = sum(self._luck[c] for c in action.cards)
        if luck < value:
            raise IllegalAction(f"those cards have {luck} Luck; the Hazard needs at least {value} "
                                f"(I-HAZ-2), or give one card instead")

    def _do_discard(self, seat: int, action: DiscardLuck) -> None:
        victim, thrower, _ = self._penalty
        for c in action.cards:
            self.hands[victim].remove(c)
            self._held -= self._luck[c]
            self.discards.append(c)
        luck = sum(self._luck[c] for c in action.cards)
        if not self._quiet:
            self._say("penalty", f"{self.names[victim]} discards {len(action.cards)} card(s) with "
                      f"{luck} Luck.", seat=victim, cards=list(action.cards), luck=luck)
        self._end_penalty()

    def _end_penalty(self) -> None:
        self._penalty = None
        self.phase = "phase2"
        self._decider = self.active

    def _check_own_cards(self, seat: int, cards: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        if len(set(cards)) != len(cards):
            raise IllegalAction("a card is listed twice")
        missing = [c for c in cards if c not in hand]
        if missing:
            raise IllegalAction(f"card(s) {missing} not in {self.names[seat]}'s hand; "
                                f"the hand is {sorted(hand)}")

    # Phase 2 ------------------------------------------------------------------------------
    def _check_draw(self, seat: int, action: Draw) -> None:
        if self.can_draw(seat):
            return
        if not self.deck:
            raise IllegalAction("the deck is empty and is never reshuffled (I-SETUP-2)")
        watchers = self.watchers(seat)
        names = sorted("Doctor Lucky" if w == DOCTOR else self.names[w] for w in watchers)
        raise IllegalAction(f"cannot draw: {self.names[seat]} on {self.position[seat]} is seen "
                            f"by {', '.join(names) or 'nobody, yet this game says no'} (I-DRAW-1)")

    def _do_draw(self, seat: int, action: Draw) -> None:
        self.hands[seat].append(self.deck.pop())
        self._held += self._luck[self.hands[seat][-1]]
        if not self._quiet:
            self._say("draw", f"{self.names[seat]} draws a card ({len(self.hands[seat])} in hand).",
                      seat=seat)
        self._end_turn()

    def _do_pass2(self, seat: int, action: Pass) -> None:
        if not self._quiet:
            self._say("pass", f"{self.names[seat]} does nothing in Phase 2.", seat=seat,
                      phase="phase2")
        self._end_turn()

    def _check_attack(self, seat: int, action: Attack) -> None:
        if not self.can_attack(seat):
            here = self.position[seat]
            if here != self.doctor:
                raise IllegalAction(f"cannot attack: Doctor Lucky is on {self.doctor}, "
                                    f"{self.names[seat]} on {here} (I-KILL-1)")
            others = [self.names[s] for s in self.order if s != seat and self.position[s] == here]
            if others:
                raise IllegalAction(f"cannot attack: not alone with Doctor Lucky, "
                                    f"{', '.join(others)} also here (I-KILL-1)")
            watchers = [self.names[w] for w in self.watchers(seat) if w != DOCTOR]
            raise IllegalAction(f"cannot attack: seen by "
                                f"{', '.join(sorted(watchers)) or 'nobody, yet this game says no'} "
                                f"(I-KILL-1)")
        if action.weapon is not None:
            if action.weapon not in self.hands[seat]:
                raise IllegalAction(f"card {action.weapon} is not in {self.names[seat]}'s hand")
            card = self.cards[action.weapon]
            if card.kind != "weapon":
                raise IllegalAction(f"{card.name} is a {card.kind} card, not a Weapon")

    def attack_value(self, seat: int, weapon: int | None = None) -> int:
        """``I-KILL-2``: Attack plus at most one Weapon (its special value on its space)."""
        value = self.attack[seat]
        if weapon is not None:
            value += self.cards[weapon].weapon_value(self.position[seat])
        return value

    def _do_attack(self, seat: int, action: Attack) -> None:
        value = self.attack_value(seat, action.weapon)
        if action.weapon is not None:
            # I-KILL-3: the Weapon ends under the character either way, so it goes there now.
            self.hands[seat].remove(action.weapon)
            self._held -= self._luck[action.weapon]
            self.under[seat].append(action.weapon)
            how = f"with the {self.cards[action.weapon].name}"
        else:
            how = "bare-handed"
        if not self._quiet:
            self._say("attempt", f"{self.names[seat]} attacks Doctor Lucky {how} in "
                      f"{self._where(self.doctor)}: attack value {value}.", seat=seat, value=value,
                      weapon=action.weapon)
        self._start_foil(seat, value, "murder", weapon=action.weapon)

    # Foiling (the round itself is luckylab.games.foiling) ---------------------------------
    def foil_threshold(self, value: int) -> int:
        """The Luck that stops an attempt worth ``value`` (``I-FOIL-2``): the discards must
        reach the value. (A house rule "a foil needs strictly more Luck" returns
        ``value + 1``.)"""
        return value

    def _start_foil(self, attacker: int, value: int, kind: str, weapon: int | None = None,
                    hazard: int | None = None) -> None:
        order = asking_order(self.order, attacker)  # I-FOIL-1: once around
        # The Luck of the others: table_luck(exclude=attacker), from the running total _held
        # (eliminated players hold no cards, Strangers none at all).
        others_luck = self._held - self.hand_luck(attacker)
        self.foil = IslandAttempt(attacker=attacker, value=value, kind=kind, order=order,
                                  weapon=weapon, hazard=hazard, table_luck=others_luck,
                                  stop=self.foil_threshold(value))
        self.phase = "foil"
        self._continue_foil()

    def _continue_foil(self) -> None:
        """Ask the next seats in turn; Strangers answer at once (``I-STR-3``)."""
        round_ = self.foil
        while (seat := round_.next_seat) is not None:  # I-FOIL-2: not once it is foiled
            if not self._is_stranger[seat]:
                self._decider = seat
                return
            if self.deck:
                top = self.deck.pop()
                self.discards.append(top)
                round_.record(seat, (top,), self._luck[top])  # never the loser
                if not self._quiet:
                    self._say("foil", f"{self.names[seat]} turns up {self.cards[top]}.", seat=seat,
                              cards=[top], luck=self._luck[top], needed=round_.needed)
            else:
                round_.record(seat, (), 0)
                if not self._quiet:
                    self._say("foil", f"{self.names[seat]} has nothing to give: the deck is empty.",
                              seat=seat, cards=[], luck=0, needed=round_.needed)
        self._finish_foil()

    def foiling_rules(self) -> FoilRules:
        """The foiling rules (:func:`foil_rules`), for a look-ahead bot reading passes."""
        return foil_rules()

    def _check_foil(self, seat: int, action: Foil) -> None:
        foil_rules().check(self.hands[seat], action.cards, self.foil, f"{self.names[seat]}'s")

    def _do_foil(self, seat: int, action: Foil) -> None:
        round_ = self.foil
        hand = self.hands[seat]
        # I-FOIL-3: the last player who could have covered what was needed and didn't loses.
        luck = foil_rules().pay(round_, seat, action.cards, hand)
        if action.cards:
            for c in action.cards:
                hand.remove(c)
                self.discards.append(c)
            self._held -= luck
        if action.cards:
            if not self._quiet:
                self._say("foil", f"{self.names[seat]} discards {len(action.cards)} card(s) for "
                          f"{luck} Luck.", seat=seat, cards=list(action.cards), luck=luck,
                          needed=round_.needed)
        else:
            if not self._quiet:
                self._say("foil", f"{self.names[seat]} passes.", seat=seat, cards=[], luck=0,
                          needed=round_.needed)
        self._continue_foil()

    def _finish_foil(self) -> None:
        round_ = self.foil
        self.foil = None
        foiled = round_.foiled  # I-FOIL-2
        attacker = round_.attacker
        self.attempt_log.append({
            "turn": self.turn, "attacker": attacker, "kind": round_.kind, "value": round_.value,
            "foiled": foiled, "luck_spent": round_.paid,
            "table_luck": round_.table_luck,
        })
        if not foiled:  # I-END-1
            self.winner = attacker
            self.loser = round_.loser
            self.finished = True
            how = "Hazard" if round_.kind == "hazard" else "attack"
            text = f"Not enough Luck: Doctor Lucky dies. {self.names[attacker]} wins by {how}!"
            if self.loser is not None and not self._quiet:
                text += f" {self.names[self.loser]} could have saved him and is the loser."
            if not self._quiet:
                self._say("game_over", text, seat=attacker, loser=self.loser, how=round_.kind)
            self.phase = "over"
            self._decider = None
            return
        if not self._quiet:
            self._say("foiled", f"Doctor Lucky escapes: {round_.paid} Luck "
                      f"against {round_.value}.", attacker=attacker, value=round_.value)
        if round_.kind == "murder":  # I-KILL-3
            if round_.weapon is None:  # the Weapon is the marker; without one, a discard
                self.under[attacker].append(self.discards.pop())
            self.attack[attacker] += 1
            if not self._quiet:
                self._say("stronger", f"{self.names[attacker]}'s Attack grows to "
                          f"{self.attack[attacker]}.", seat=attacker, attack=self.attack[attacker])
            self._end_turn()
        else:  # a Hazard is thrown in Phase 1: the thrower's turn goes on to Phase 2
            self.phase = "phase2"
            self._decider = attacker
            if self._is_stranger[attacker]:  # pragma: no cover - Strangers throw no Hazards
                self._end_turn()

    # Between turns ------------------------------------------------------------------------
    def _end_turn(self) -> None:
        nxt = self._between_turns()
        if nxt is not None:
            self._begin_turn(nxt)

    def _between_turns(self) -> int | None:
        """Doctor Lucky's step after a turn; returns whose turn is next (None: game over)."""
        active = self.active
        self._had_turn.add(active)
        if not self._jumps_on and self._had_turn.issuperset(self.order):
            self._jumps_on = True  # I-DOC-4: on from the end of the last seat's first turn
        # I-DOC-1: Doctor Lucky takes one step along his path.
        here = self._next_on_path.get(self.doctor) or self.board.next_on_path(self.doctor)
        self.doctor = here
        position = self.position
        occupants = [s for s in self.order if position[s] == here]
        nxt = None
        text = "" if self._quiet else f"Doctor Lucky moves to {self._where(here)}"
        if not occupants and here in self._buildings:
            if not self._quiet:
                self._say("doctor_moves", text + ".", space=here, occupants=occupants,
                          last_active=active, first_round=not self._jumps_on)
            self._building_draws(active)  # I-DOC-2
        elif occupants and self._jumps_on:
            nxt = jump_target(self.order, active, occupants)  # I-DOC-3
            if not self._quiet:
                self._say("doctor_moves", text + f"; the turn jumps to {self.names[nxt]}.",
                          space=here, jump=nxt, occupants=occupants, last_active=active)
        else:
            if not self._quiet:
                self._say("doctor_moves", text + ".", space=here, occupants=occupants,
                          last_active=active, first_round=not self._jumps_on)
        if self.turn >= self.turn_cap:  # I-END-2
            if not self._quiet:
                self._say("turn_cap", f"The game stops unfinished after {self.turn} turns.",
                          turns=self.turn)
            self.phase = "over"
            self._decider = None
            return None
        return nxt if nxt is not None else self._left[active]

    def _building_draws(self, last_active: int) -> None:
        for s in seats_from_left(self.order, last_active):
            if not self.deck:
                break
            if not self._is_stranger[s] and len(self.hands[s]) < 3:
                self.hands[s].append(self.deck.pop())
                self._held += self._luck[self.hands[s][-1]]
                if not self._quiet:
                    self._say("building_draw", f"{self.names[s]} holds fewer than 3 cards and "
                              "draws one.", seat=s)

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn; Strangers play theirs at once (``I-STR-4``, ``I-STR-5``)."""
        while True:
            self.turn += 1
            self.active = seat
            self.table_luck_by_turn.append(self._held)
            if not self._is_stranger[seat]:
                self.phase = "phase1"
                self._decider = seat
                if not self._quiet:
                    self._say("turn", f"Turn {self.turn}: {self.names[seat]}'s turn.", seat=seat,
                              turn=self.turn)
                return
            if not self._quiet:
                self._say("turn", f"Turn {self.turn}: {self.names[seat]} (a Stranger) takes a "
                          "turn.", seat=seat, turn=self.turn)
            if not self.can_attack(seat):
                here = self.position[seat]
                upstream = self._upstream[here] if self.board.number(here) else None
                if upstream is not None:
                    self.position[seat] = upstream
                    if not self._quiet:
                        self._say("move", f"{self.names[seat]} walks upstream to "
                                  f"{self._where(upstream)}.", seat=seat, space=upstream, by=seat)
            if self.can_attack(seat):
                value = self.attack[seat]
                if not self._quiet:
                    self._say("attempt", f"{self.names[seat]} attacks Doctor Lucky bare-handed in "
                              f"{self._where(self.doctor)}: attack value {value}.", seat=seat,
                              value=value, weapon=None)
                self._start_foil(seat, value, "murder")
                return  # the foil round (or the game's end) carries on from here
            nxt = self._between_turns()
            if nxt is None:
                return
            seat = nxt

    def play_out(self, choosers: Sequence[Callable[[Any], Any]]) -> None:
        """Play to the end, ``choosers[seat](self)`` deciding for each seat.

        In a quiet game of exactly these rules (this class, no method replaced) where every
        seat is the default bot or a variant the fused turns play (:mod:`luckylab.games.fused`),
        the fused turns of ``fast.py`` play it: the same game, faster. A subclass that changes
        a rule plays through the rules above, as ``checked=True`` does."""
        if self._quiet and plays_as_written(self, IslandGame) and all_fused(choosers,
                                                                             self.game_name):
            from .fast import PLAYS, play_out

            profiles = fused_profiles(choosers, PLAYS)
            if profiles is not None:
                play_out(self, choosers, profiles)
                return
        super().play_out(choosers)

    # -- results -------------------------------------------------------------------------
    def result(self) -> GameResult:
        """The game's outcome as plain data (for :func:`luckylab.simulate`)."""
        return GameResult(
            game="island", players=self.players, seed=self.seed, finished=self.finished,
            winner=self.winner, loser=self.loser, turns=self.turn,
            attempts=sum(1 for a in self.attempt_log if a["kind"] == "murder"),
            hazards=self.hazards_played, cards_left=len(self.deck),
            winner_is_stranger=self.winner is not None and self._is_stranger[self.winner],
            extra={"attempts": list(self.attempt_log),
                   "table_luck_by_turn": list(self.table_luck_by_turn)},
        )


def _left_of(order: list[int]) -> dict[int, int]:
    """Each live seat's left-hand neighbour (play passes to the left, I-SETUP-3)."""
    return {seat: order[(i + 1) % len(order)] for i, seat in enumerate(order)}


@functools.cache
def foil_rules() -> FoilRules:
    """The Island's foiling rules (``I-FOIL-*``), one object shared by every game.

    Every card counts, worth its Luck, whatever its type (``I-FOIL-1``); a player may discard
    any cards, more than needed too; the loser is named (``I-FOIL-3``).

    Which cards a listed payment uses matters here, unlike in Kill and Save where only Failure
    cards count and cards of equal value are interchangeable: an Island card of a given Luck
    may be a Failure card (Luck is its only use), a Weapon (it adds to an attack, ``I-KILL-2``)
    or a Hazard (it can be thrown, ``I-HAZ-*``). So among cards of equal Luck a listed payment
    takes the Failure cards first, then the others; within each, Kill's and Save's rule: the
    lowest card ids first. A player who would rather give up a particular Weapon or Hazard
    still may: ``apply`` accepts any cards of the hand, as it always has (cards worth 0 Luck
    too, which a listed payment never holds).

    >>> from luckylab import new_game
    >>> rules = foil_rules()
    >>> game = new_game("island", players=4, seed=1)
    >>> [game.cards[c].kind for c in (0, 48)], rules.values[0] == rules.values[48] == 1
    (['weapon', 'failure'], True)
    >>> round_ = IslandAttempt(attacker=0, value=1, order=[1])
    >>> [p.cards for p in rules.payments([0, 48], round_)]
    [(), (48,), (0, 48)]
    """
    cards = load_deck("island")
    return FoilRules([c.luck for c in cards], Foil,
                     rank=[c.id + (0 if c.kind == "failure" else len(cards)) for c in cards],
                     names=[c.name for c in cards], unit="Luck")


def _payments(cards: list[int], luck: list[int], rank: Sequence[int] | None = None
              ) -> list[tuple[tuple[int, ...], int]]:
    """One discard per combination of Luck values of ``cards`` (cards without Luck left out),
    with its Luck: the first cards of each value by ``rank`` (the foiling rules' order:
    Failure cards first, then lowest ids; lowest ids when ``rank`` is None), sorted by id; the
    counts of the lowest value vary slowest, passing (``()``) first.

    >>> _payments([5, 2, 9], [0, 0, 1, 0, 0, 1, 0, 0, 0, 2])
    [((), 0), ((9,), 2), ((2,), 1), ((2, 9), 3), ((2, 5), 2), ((2, 5, 9), 4)]
    """
    by_value: dict[int, list[int]] = {}
    for c in sorted(cards) if rank is None else sorted(cards, key=rank.__getitem__):
        if luck[c]:
            by_value.setdefault(luck[c], []).append(c)
    values = sorted(by_value)
    out = []
    for counts in itertools.product(*(range(len(by_value[v]) + 1) for v in values)):
        chosen = [c for v, k in zip(values, counts, strict=True) for c in by_value[v][:k]]
        chosen.sort()
        out.append((tuple(chosen), sum(v * k for v, k in zip(values, counts, strict=True))))
    return out


