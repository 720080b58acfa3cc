"""Kill Doctor Lucky (1996 rules, 1997 board, 2002 cards), played by the book: the rulebook.

Rule IDs (``K-SETUP-1`` ...) refer to ``docs/rules/kill.md``; the comments cite them where the
code applies them. The board is the real 1997 mansion (:mod:`luckylab.boards.geometry` derives
its doors and straight-line sight), the deck the real 96 cards. The actions are in
:mod:`.actions`; what a seat sees is :mod:`.view`, the action ids :mod:`.ids`, the tables
derived from these rules :mod:`.tables`, the fast turns :mod:`.fast`.

>>> from luckylab import new_game
>>> game = new_game("kill", players=4, seed=3)
>>> game.names[game.current_player], game.position[game.current_player], game.doctor
('Player 4', 'Drawing Room', 'Trophy Room')
>>> events = game.apply(Snoop("Parlor"))    # a snooping turn into a named room draws a card
>>> [e.kind for e in events]
['snoop', 'draw', 'doctor_moves', 'turn']

Interpretations of points ``kill.md`` leaves open (each is pinned by a test):

- Player count: the rules file states none; luckylab allows 2 to 8 (the sample turn has 5).
- ``K-SETUP-1``: the face-up deal starts with seat 0 and goes left; the reshuffle puts all 96
  cards back; the 6-card deal then starts with seat 0 too.
- ``K-ACT-1``: a Move-N card moves its pawn to any space within N steps (not back where it
  stood); a Room card must move its pawn (it is illegal if the pawn is already in the room);
  the attack ends the turn, whether foiled or not. Ending a turn having done nothing is a
  doing-something turn with no draw (:class:`EndTurn`).
- ``K-FAIL-1``: every other player is asked in turn, even one without Failure cards (their only
  action is to pass); nobody is asked once the total reaches the value. The Weapon used and
  the Move and Room cards played go to the discards; when a draw finds the deck empty, the
  discards are shuffled (seeded) into a new deck; with no discards either, no card is drawn.
- ``K-DOC-2`` applies to Doctor Lucky's move between turns only, not to a card moving him, and
  (unlike the Island's first round) from the very first turn.
- There is no loser: ``kill.md`` names none, so :attr:`KillGame.loser` is always ``None``.
- A turn cap (``turn_cap``, 2000 by default) stops a simulated game as unfinished.

**House rules.** A subclass of :class:`KillGame` that changes a rule (``can_attack``,
``foil_threshold``, ``sight``, a do handler ...) is obeyed everywhere, the bundled bots included, on
every path: ``play_out`` hands a game to the fused turns of :mod:`.fast` only when it plays
exactly these rules (:func:`luckylab.games.fused.plays_as_written`); a subclass plays through
these rules, as fast as ``simulate(..., checked=True)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal

from ...boards import load_board
from ...boards.board import Board
from ...cards import Card, load_deck
from ...errors import IllegalAction, OptionError
from ..base import Event, GameBase, GameResult, check_seed, check_turn_cap
from ..foiling import FoilRound, FoilRules
from ..fused import all_fused, fused_profiles, plays_as_written
from ..handlers import HandlerTable
from .actions import Action, Attack, EndTurn, Foil, Pawn, PlayCard, Snoop, Step
from .ids import KillIds, Part
from .tables import (
    CACHE_SIZE,
    END_TURN,
    attacks,
    board_tables,
    card_plays,
    missing_rooms,
    others_at,
    seats_left,
)
from .view import KillViews

__all__ = ["HAND_SIZE", "MAX_PLAYERS", "MIN_PLAYERS", "KillGame", "attack_value", "card_reach",
           "doctor_next", "foil_rules"]

HAND_SIZE = 6  # K-SETUP-1
MIN_PLAYERS, MAX_PLAYERS = 2, 8

Phase = Literal["turn", "doing", "foil", "over"]


# -- rules without a game --------------------------------------------------------------------


def attack_value(weapon: Card | None, space: str) -> int:
    """``K-KILL-1``: 1 bare-handed, else the Weapon's value (its special value in its special
    room). The Weapon replaces the 1; nothing is added.

    >>> from luckylab import load_deck
    >>> cue = next(c for c in load_deck("kill") if c.name == "Billiard Cue")
    >>> attack_value(cue, "Nursery"), attack_value(cue, "Billiard Room")
    (2, 5)
    >>> attack_value(None, "Nursery")
    1
    """
    return 1 if weapon is None else weapon.weapon_value(space)


def doctor_next(board: Board, space: str) -> str:
    """Where Doctor Lucky goes after a turn (``K-DOC-1``).

    From a numbered room, the next number (19 -> 0); from anywhere else the highest-numbered
    adjoining room (the board's ``fallback`` node attribute if the data file gives one; the
    tests check that it agrees with the doors).

    >>> from luckylab import load_board
    >>> mansion = load_board("kill-doctor-lucky")
    >>> doctor_next(mansion, "Piazza"), doctor_next(mansion, "Wine Cellar")
    ('Drawing Room', 'Kitchen')
    """
    if board.number(space) is not None:
        return board.next_on_path(space)
    fallback = board.graph.nodes[space].get("fallback")
    if fallback is not None:
        return fallback  # type: ignore[no-any-return]
    numbered = [(board.number(n), n) for n in board.graph[space] if board.number(n) is not None]
    if not numbered:
        raise OptionError(f"{space!r} has no numbered neighbour: Doctor Lucky cannot leave it")
    return max(numbered)[1]  # type: ignore[no-any-return]


def card_reach(board: Board, card: Card, where: str) -> frozenset[str]:
    """Where a Move or Room card moves a pawn standing on ``where`` (``K-ACT-1``): a Room card
    to its room, if the pawn is not there already; Move-N up to N steps, not back to ``where``.

    >>> from luckylab import load_board, load_deck
    >>> mansion = load_board("kill-doctor-lucky")
    >>> kitchen = next(c for c in load_deck("kill") if c.room == "Kitchen")
    >>> card_reach(mansion, kitchen, "Parlor"), card_reach(mansion, kitchen, "Kitchen")
    (frozenset({'Kitchen'}), frozenset())
    """
    if card.kind == "room":
        return frozenset() if card.room == where else frozenset([card.room])
    return board.reachable(where, card.steps) - {where}


@lru_cache(maxsize=1)
def foil_rules() -> FoilRules:
    """Kill's foiling rules (``K-FAIL-1``), one object shared by every game: Failure cards
    count, worth their points; a player may play any of them, more than needed too; nobody is
    named loser (``kill.md`` names none). Cards of equal points are interchangeable (a Failure
    card has no other use), so a listed payment takes the lowest ids of each value;
    ``apply`` accepts any copy, as it always has.

    >>> rules = foil_rules()
    >>> rules.values[0] is None, rules.values[95]   # card 0 is no Failure card; 95 is a 3
    (True, 3)
    """
    cards = load_deck("kill")
    return FoilRules([c.luck if c.kind == "failure" else None for c in cards], Foil,
                     names_loser=False, names=[c.name for c in cards], unit="Failure point(s)",
                     counts="a Failure card; only Failure cards foil an attempt (K-FAIL-1)")


# -- the game --------------------------------------------------------------------------------


class KillGame(KillViews, KillIds, HandlerTable, GameBase):
    """One game of Kill Doctor Lucky: the rules (what a seat sees: :mod:`.view`; the action
    ids: :mod:`.ids`).

    Parameters
    ----------
    players
        2 to 8 players (the rules file gives no range; see the module docstring).
    seed
        Seeds the face-up deal, the shuffles and every reshuffle.
    turn_cap
        Stop a game after this many turns as unfinished (a simulation guard).
    board
        A board name or :class:`~luckylab.boards.board.Board`; the 1997 mansion by default. It
        needs a ``players`` start space and numbered rooms for Doctor Lucky's path.

    A subclass may change any rule (the module docstring says how it is obeyed).
    """

    game_name = "kill"

    HANDLERS = {
        "turn": {
            Snoop: ("_check_snoop", "_do_snoop"),
            Step: ("_check_step", "_do_step"),
            PlayCard: ("_check_play", "_do_play"),
            Attack: ("_check_attack", "_do_attack"),
            EndTurn: ("_no_check", "_do_end_turn"),
        },
        "doing": {
            Step: ("_check_step", "_do_step"),
            PlayCard: ("_check_play", "_do_play"),
            Attack: ("_check_attack", "_do_attack"),
            EndTurn: ("_no_check", "_do_end_turn"),
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
        turn_cap: int = 2000,
        board: str | Board = "kill-doctor-lucky",
    ) -> None:
        if not isinstance(players, int) or isinstance(players, bool) or not (
            MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise OptionError(f"Kill Doctor Lucky takes {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {players!r}")
        check_turn_cap(turn_cap)  # bounded: a passive game must end
        check_seed(seed)
        self.board = board if isinstance(board, Board) else load_board(board)
        if "players" not in self.board.start:
            raise OptionError(f"board {self.board.name} names no start space for 'players'")
        self.cards: tuple[Card, ...] = load_deck("kill")
        missing = missing_rooms(self.board)
        if missing:
            raise OptionError(f"board {self.board.name} lacks rooms named by Room cards: {missing}")
        try:  # K-DOC-1 must be defined everywhere before a game starts
            self._t = board_tables(self.board, doctor_next, card_reach, foil_rules(),
                                   type(self).sight)
        except ValueError as exc:
            raise OptionError(f"board {self.board.name}: {exc}") from None
        self.players = players
        self.seed = seed
        self.options: dict[str, Any] = {"turn_cap": turn_cap}
        if not isinstance(board, Board) and board != "kill-doctor-lucky":
            self.options["board"] = board
        self.turn_cap = turn_cap
        self.names: tuple[str, ...] = tuple(f"Player {s + 1}" for s in range(players))
        self.order: list[int] = list(range(players))
        self.history: list[Action] = []
        self.events: list[Event] = []
        self._pending: list[Event] = []
        # the board's tables, read on every turn (shared by every game on the board)
        self._doctor_next = self._t.doctor_next
        self._vis = self._t.vis
        self._kinds = self._t.kinds  # by card id
        self._luck = self._t.luck
        self._all_spaces = self._t.all_spaces
        self._left = seats_left(players)  # by seat: seats_from_left(self.order, seat)
        self._others_at = others_at(players)

        self.rng = random.Random(seed)
        self.deck: list[int] = []  # the top of the deck is the end of the list
        self.discards: list[int] = []
        self.removed: list[int] = []  # played Failure cards leave the game (K-FAIL-1)
        self.hands: dict[int, list[int]] = {s: [] for s in self.order}
        self.position: dict[int, str] = {s: self.board.start["players"] for s in self.order}
        self.phase: Phase = "turn"
        self.foil: FoilRound | None = None
        self.stepped = False  # the free step of this doing-something turn is used
        self.winner: int | None = None
        self.loser: int | None = None  # kill.md names no loser
        self.finished = False
        self.turn = 0
        self.reshuffles = 0
        self.attempt_log: list[dict[str, Any]] = []

        first, self.doctor = self._setup()
        self.active = first
        self._decider: int | None = first
        self._begin_turn(first)
        self.events.extend(self._pending)
        self.setup_events: list[Event] = [e for e in self._pending if e.kind == "setup"]
        self._pending = []

    def _setup(self) -> tuple[int, str]:
        """``K-SETUP-1``: everyone in the Drawing Room; deal face up until a Room card decides the
        first player and Doctor Lucky's start; reshuffle all; deal 6 each."""
        rng = self.rng
        deck = [c.id for c in self.cards]
        rng.shuffle(deck)
        i = 0
        while True:
            card = self.cards[deck.pop()]
            seat = i % self.players
            i += 1
            if card.kind == "room":
                if not self._quiet:
                    self._say("setup", f"{self.names[seat]} turns up the {card.room} Room card: "
                              f"{self.names[seat]} goes first and Doctor Lucky starts in "
                              f"{self._where(card.room)}.", seat=seat, card=card.id, room=card.room)
                break
            if not self._quiet:
                self._say("setup", f"{self.names[seat]} turns up {card.name}.", seat=seat,
                          card=card.id)
        self.deck = list(range(len(self.cards)))  # card ids are their places in the deck list
        rng.shuffle(self.deck)
        # HAND_SIZE rounds of one card each off the top (the end of the list), seat 0 first
        dealt = self.deck[-HAND_SIZE * self.players:][::-1]  # in the order they are dealt
        del self.deck[-HAND_SIZE * self.players:]
        for s in self.order:
            self.hands[s] = dealt[s::self.players]
        return seat, card.room  # type: ignore[return-value]

    # -- the rules' questions --------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat that decides now, or None when the game is over."""
        return None if self.phase == "over" else self._decider

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def card(self, card_id: int) -> Card:
        """The card with id ``card_id`` (ids are places in :attr:`cards`)."""
        return self.cards[card_id]

    def pawns_at(self, space: str) -> list[int]:
        """Seats whose pawns stand on ``space``."""
        return [s for s in self.order if self.position[s] == space]

    def sight(self, space: str) -> frozenset[str]:
        """The spaces seen from ``space`` (``K-SIGHT-1``: straight horizontal or vertical lines
        through open cells, from any point of the space; ``K-SIGHT-2``: the Gallery railing is
        seen through). The board derives them from its geometry."""
        return self._vis[space]  # type: ignore[no-any-return]

    def watchers(self, seat: int) -> list[int]:
        """The other players who see ``seat`` (``K-SIGHT-1``; same space included)."""
        here = self.position[seat]
        sight = self.sight
        return [s for s in self.order if s != seat and here in sight(self.position[s])]

    def unseen_spaces(self, seat: int) -> frozenset[str]:
        """Spaces that no player other than ``seat`` sees: where ``seat`` could attack."""
        position = self.position
        others = frozenset(self._others_at[seat](position))  # where the others stand
        cache = self._t.unseen
        unseen = cache.get(others)
        if unseen is None:  # the answer depends only on where the others stand
            seen: set[str] = set()
            for space in others:
                seen |= self.sight(space)
            if len(cache) >= CACHE_SIZE:  # many players, long runs: stay small
                cache.clear()
            unseen = cache[others] = self._all_spaces - seen
        return unseen

    def can_attack(self, seat: int) -> bool:
        """``K-KILL-1``: with Doctor Lucky, alone, seen by no other player."""
        here = self.position[seat]  # not watched = not seen by the others' (cached) sight
        return here == self.doctor and here in self.unseen_spaces(seat)

    def attack_value(self, seat: int, weapon: int | None = None) -> int:
        """The value of an attack by ``seat`` where it stands (``K-KILL-1``)."""
        return attack_value(None if weapon is None else self.cards[weapon], self.position[seat])

    def foil_threshold(self, value: int) -> int:
        """The Failure points that foil an attempt of ``value`` (``K-FAIL-1``: the attempt is
        foiled when the total reaches its value; a house rule "strictly more" returns
        ``value + 1``)."""
        return value

    def failure_points(self, seat: int) -> int:
        """The Failure points in a seat's hand."""
        kinds, luck = self._kinds, self._luck
        return sum(luck[c] for c in self.hands[seat] if kinds[c] == "failure")

    def failure_cards(self, seat: int) -> tuple[int, ...]:
        """The Failure cards in ``seat``'s hand, sorted by id.

        >>> game = KillGame(players=2, seed=4)
        >>> sum(game.cards[c].luck for c in game.failure_cards(0)) == game.failure_points(0)
        True
        """
        failures = self._t.failures
        return tuple(sorted([c for c in self.hands[seat] if c in failures]))

    # A hand in the order legal_actions() lists it, each part sorted by id.
    def moving_cards(self, seat: int) -> list[int]:
        """The Move and Room cards in ``seat``'s hand that :meth:`legal_actions` offers to play:
        one per design (identical cards do the same; the lowest id), sorted by id.

        >>> game = KillGame(players=2, seed=4)
        >>> all(game.cards[c].kind in ("move", "room") for c in game.moving_cards(0))
        True
        """
        moving = self._t.moving
        cards = [c for c in self.hands[seat] if c in moving]
        cards.sort()
        if len(cards) < 2:
            return cards
        designs = self._t.designs
        menu = [cards[0]]
        listed = [designs[cards[0]]]  # a short list: a hand holds few Move and Room cards
        for c in cards[1:]:
            if designs[c] not in listed:
                listed.append(designs[c])
                menu.append(c)
        return menu

    def _weapons(self, seat: int) -> tuple[int, ...]:
        """The Weapons in ``seat``'s hand."""
        weapons = self._t.weapons
        return tuple(sorted([c for c in self.hands[seat] if c in weapons]))

    def card_targets(self, card_id: int, pawn: Pawn, seat: int | None = None) -> frozenset[str]:
        """Where playing ``card_id`` (a Move or Room card) could move ``pawn`` ("self": the
        player ``seat``, the current player by default; "doctor": Doctor Lucky)."""
        seat = self._decider if seat is None else seat
        where = self.position[seat] if pawn == "self" else self.doctor  # type: ignore[index]
        card = self.cards[card_id]
        if card.kind not in ("move", "room"):
            return frozenset()
        return self._card_targets(card, where)

    def _card_targets(self, card: Card, where: str) -> frozenset[str]:
        """:func:`card_reach`, from the board's tables (it depends only on the board, the
        card's design and ``where``)."""
        return self._t.reach[card.id][where][0]  # type: ignore[index]

    # -- legal actions -------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take now (empty when the game is over).

        Identical cards (the eight Move-1 cards, Failure cards of one value) are listed once,
        by their lowest id in the hand; :meth:`apply` accepts any copy.
        """
        actions: list[Action] = []
        for _, part, play in self._layout()[1]:
            actions.extend(part if play is None else card_plays(self._t, *play))
        return actions

    def _layout(self) -> tuple[int, list[Part]]:
        """How many legal actions there are, and :meth:`legal_actions` as consecutive parts
        ``(size, actions, None)``, or ``(size, (), (card, pawn, start))`` for a card's plays,
        built only when asked for: the snoops, the steps, each card's plays, the attacks, the
        end of the turn; or the foils (:mod:`.ids` counts and picks from it)."""
        seat = self._decider
        if self.phase == "over" or seat is None:
            return 0, []
        if self.phase == "foil":  # K-FAIL-1: pass, or one payment per combination of values
            foils = self._t.foiling.payments(self.hands[seat], self.foil)  # type: ignore[arg-type]
            return len(foils), [(len(foils), foils, None)]
        here, doctor = self.position[seat], self.doctor
        tables = self._t
        layout: list[Part] = []
        count = 1  # EndTurn
        if self.phase == "turn":  # K-SNOOP-1: only as the first action of a turn
            snoops = tables.snoops[here]  # Snoop(here), then a Snoop per door, sorted
            layout.append((len(snoops), snoops, None))
            count += len(snoops)
        if not self.stepped:  # K-ACT-1: one free step
            steps = tables.steps[here]
            layout.append((len(steps), steps, None))
            count += len(steps)
        reach = tables.reach
        for c in self.moving_cards(seat):  # one per design
            mine, his = len(reach[c][here][1]), len(reach[c][doctor][1])  # type: ignore[index]
            layout.append((mine, (), (c, "self", here)))
            layout.append((his, (), (c, "doctor", doctor)))
            count += mine + his
        if self.can_attack(seat):  # K-KILL-1
            found = attacks(tables, self._weapons(seat))
            layout.append((len(found), found, None))
            count += len(found)
        layout.append((1, END_TURN, None))
        return count, layout

    # -- applying actions ----------------------------------------------------------------
    def _not_now(self, action: Action, phase: Any, allowed: str) -> str:
        return (f"{type(action).__name__} is not an action now; "
                f"{self.names[self._decider]} chooses one of: {allowed}")

    def _where(self, space: str) -> str:
        return self._t.where[space]

    def _check_space(self, space: object) -> str:
        if not isinstance(space, str) or space not in self.board:
            raise IllegalAction(f"{space!r} is not a space of {self.board.name}")
        return space

    # Snooping (K-SNOOP-1) -----------------------------------------------------------------
    def _check_snoop(self, seat: int, action: Snoop) -> None:
        here = self.position[seat]
        to = self._check_space(action.to)
        if to != here and to not in self._t.doors[here]:
            raise IllegalAction(f"a snooping turn moves at most one step (K-SNOOP-1): no door "
                                f"joins {here} and {to}",
                                [Snoop(here), *(Snoop(n) for n in sorted(self.board.graph[here]))])

    def _do_snoop(self, seat: int, action: Snoop) -> None:
        here = self.position[seat]
        self.position[seat] = action.to
        if not self._quiet:
            moved = "stays in" if action.to == here else "snoops into"
            self._say("snoop", f"{self.names[seat]} {moved} {self._where(action.to)}.", seat=seat,
                      space=action.to)
        if action.to in self._t.rooms:
            self._draw(seat)
        self._end_turn()

    def _draw(self, seat: int) -> None:
        if not self.deck and self.discards:  # K-FAIL-1: the other discards make a new deck
            self.deck = self.discards
            self.discards = []
            self.rng.shuffle(self.deck)
            self.reshuffles += 1
            if not self._quiet:
                self._say("reshuffle", f"The deck has run out: {len(self.deck)} discards are "
                          "shuffled into a new deck.", cards=len(self.deck))
        if not self.deck:
            if not self._quiet:
                self._say("no_draw", f"{self.names[seat]} would draw, but there are no cards left.",
                          seat=seat)
            return
        self.hands[seat].append(self.deck.pop())
        if not self._quiet:
            self._say("draw", f"{self.names[seat]} draws a card ({len(self.hands[seat])} in hand).",
                      seat=seat)

    # Doing something (K-ACT-1) ------------------------------------------------------------
    def _check_step(self, seat: int, action: Step) -> None:
        if self.stepped:
            raise IllegalAction("the free step is already used this turn (K-ACT-1)")
        here = self.position[seat]
        to = self._check_space(action.to)
        if to not in self._t.doors[here]:
            raise IllegalAction(f"a step goes through one door (K-BOARD-2): no door joins "
                                f"{here} and {to}",
                                [Step(n) for n in sorted(self.board.graph[here])])

    def _do_step(self, seat: int, action: Step) -> None:
        self.phase = "doing"
        self.stepped = True
        self.position[seat] = action.to
        if not self._quiet:
            self._say("step", f"{self.names[seat]} steps into {self._where(action.to)}.", seat=seat,
                      space=action.to)

    def _check_play(self, seat: int, action: PlayCard) -> None:
        if action.card not in self.hands[seat]:
            raise IllegalAction(f"card {action.card} is not in {self.names[seat]}'s hand")
        card = self.cards[action.card]
        if card.kind not in ("move", "room"):
            raise IllegalAction(f"{card.name} is a {card.kind} card; only Move and Room cards "
                                "move pawns (K-ACT-1)")
        if action.pawn not in ("self", "doctor"):
            raise IllegalAction(f"a card moves yourself or Doctor Lucky: pawn must be 'self' or "
                                f"'doctor', not {action.pawn!r}")
        to = self._check_space(action.to)
        where = self.position[seat] if action.pawn == "self" else self.doctor
        targets = self._card_targets(card, where)
        if to not in targets:
            what = (f"the {card.room} card moves a pawn to the {card.room} only"
                    if card.kind == "room" else
                    f"{card.name} moves a pawn up to {card.steps} step(s) from {where}")
            raise IllegalAction(f"{what}, not to {to} (K-ACT-1)",
                                [PlayCard(action.card, action.pawn, t) for t in sorted(targets)])

    def _do_play(self, seat: int, action: PlayCard) -> None:
        self.phase = "doing"
        card = self.cards[action.card]
        self.hands[seat].remove(action.card)
        self.discards.append(action.card)
        if action.pawn == "self":
            self.position[seat] = action.to
            who = self.names[seat]
        else:
            self.doctor = action.to
            who = "Doctor Lucky"
        if not self._quiet:
            self._say("play", f"{self.names[seat]} plays {card.name} and moves {who} to "
                      f"{self._where(action.to)}.", seat=seat, card=action.card, pawn=action.pawn,
                      space=action.to)

    def _check_attack(self, seat: int, action: Attack) -> None:
        if not self.can_attack(seat):  # K-KILL-1
            raise IllegalAction(self._no_attack(seat))
        if action.weapon is not None:
            if action.weapon not in self.hands[seat]:
                raise IllegalAction(f"card {action.weapon} is not in {self.names[seat]}'s hand")
            card = self.cards[action.weapon]
            if card.kind != "weapon":
                raise IllegalAction(f"{card.name} is a {card.kind} card, not a Weapon")

    def _no_attack(self, seat: int) -> str:
        """Why ``seat`` may not attack now (``K-KILL-1``)."""
        here = self.position[seat]
        if here != self.doctor:
            return (f"cannot attack: Doctor Lucky is in {self.doctor}, {self.names[seat]} in "
                    f"{here} (K-KILL-1)")
        watchers = self.watchers(seat)
        if watchers:
            who = ", ".join(f"{self.names[w]} in {self.position[w]}" for w in watchers)
            return f"cannot attack: seen by {who} (K-KILL-1)"
        return f"cannot attack: {self.names[seat]} may not attack now (K-KILL-1)"

    def _do_attack(self, seat: int, action: Attack) -> None:
        value = self.attack_value(seat, action.weapon)
        if action.weapon is not None:
            self.hands[seat].remove(action.weapon)
            self.discards.append(action.weapon)
            how = f"with the {self.cards[action.weapon].name}"
        else:
            how = "bare-handed"
        if not self._quiet:
            self._say("attempt", f"{self.names[seat]} attacks Doctor Lucky {how} in "
                      f"{self._where(self.doctor)}: value {value}.", seat=seat, value=value,
                      weapon=action.weapon)
        # K-FAIL-1: from the attacker's left, once around the table, until the total reaches
        # what foils it.
        self.foil = FoilRound(attacker=seat, value=value, stop=self.foil_threshold(value),
                              weapon=action.weapon,
                              order=list(self._left[seat][:-1]))
        self.phase = "foil"
        self._continue_foil()

    def _do_end_turn(self, seat: int, action: EndTurn) -> None:
        if not self._quiet:
            self._say("end_turn", f"{self.names[seat]} ends the turn.", seat=seat)
        self._end_turn()

    # Foiling (K-FAIL-1; the round itself is luckylab.games.foiling) ------------------------
    def foiling_rules(self) -> FoilRules:
        """The foiling rules (:func:`foil_rules`), for a look-ahead bot reading passes."""
        return foil_rules()

    def _check_foil(self, seat: int, action: Foil) -> None:
        self._t.foiling.check(self.hands[seat], action.cards, self.foil, f"{self.names[seat]}'s")

    def _do_foil(self, seat: int, action: Foil) -> None:
        round_ = self.foil
        hand = self.hands[seat]
        points = self._t.foiling.pay(round_, seat, action.cards, hand)
        for c in action.cards:
            hand.remove(c)
            self.removed.append(c)  # K-FAIL-1: played Failure cards leave the game
        if action.cards:
            if not self._quiet:
                self._say("foil", f"{self.names[seat]} plays {points} Failure point(s).", seat=seat,
                          cards=list(action.cards), points=points, needed=round_.needed)
        else:
            if not self._quiet:
                self._say("foil", f"{self.names[seat]} passes.", seat=seat, cards=[], points=0,
                          needed=round_.needed)
        self._continue_foil()

    def _continue_foil(self) -> None:
        seat = self.foil.next_seat
        if seat is not None:
            self._decider = seat
            return
        self._finish_foil()

    def _finish_foil(self) -> None:
        round_ = self.foil
        self.foil = None
        foiled = round_.foiled
        attacker = round_.attacker
        self.attempt_log.append({
            "turn": self.turn, "attacker": attacker, "value": round_.value,
            "weapon": round_.weapon, "space": self.doctor, "foiled": foiled,
            "points": round_.paid,
        })
        if not foiled:
            self.winner = attacker
            self.finished = True
            self.phase = "over"
            self._decider = None
            if not self._quiet:
                self._say("game_over", f"Not enough Failure: Doctor Lucky dies. "
                          f"{self.names[attacker]} wins!", seat=attacker)
            return
        if not self._quiet:
            self._say("foiled", f"Doctor Lucky escapes: {round_.paid} Failure point(s) against "
                      f"{round_.value}.", attacker=attacker, value=round_.value,
                      points=round_.paid)
        self._decider = attacker
        self._end_turn()  # K-ACT-1: no moving after the attempt

    # Between turns (K-DOC-1, K-DOC-2) -----------------------------------------------------
    def _end_turn(self) -> None:
        active = self.active
        self.doctor = here = self._doctor_next[self.doctor]  # K-DOC-1
        nxt = self._jump_target(active, here) if here in self.position.values() else None
        if not self._quiet:
            text = f"Doctor Lucky moves to {self._where(here)}"
            if nxt is not None:
                self._say("doctor_moves", text + f"; the turn jumps to {self.names[nxt]}.",
                          space=here, jump=nxt)
            else:
                self._say("doctor_moves", text + ".", space=here)
        if nxt is None:
            nxt = self._left[active][0]  # seats_from_left(self.order, active)[0]
        if self.turn >= self.turn_cap:
            if not self._quiet:
                self._say("turn_cap", f"The game stops unfinished after {self.turn} turns.",
                          turns=self.turn)
            self.phase = "over"
            self._decider = None
            return
        self._begin_turn(nxt)

    def _jump_target(self, active: int, here: str) -> int | None:
        """``K-DOC-2``: the player Doctor Lucky walks in on, closest to the left of ``active``
        (``jump_target(self.order, active, self.pawns_at(here))``, without the lists)."""
        position = self.position
        for seat in self._left[active]:
            if position[seat] == here:
                return seat
        return None  # pragma: no cover - someone stands there

    def _begin_turn(self, seat: int) -> None:
        self.turn += 1
        self.active = seat
        self.phase = "turn"
        self.stepped = False
        self._decider = seat
        if not self._quiet:
            self._say("turn", f"Turn {self.turn}: {self.names[seat]}'s turn.", seat=seat,
                      turn=self.turn)

    def play_out(self, choosers: Sequence[Callable[[Any], Any]]) -> None:
        """Play to the end, ``choosers[seat](self)`` deciding for each seat. In a quiet game
        of exactly these rules (:func:`~luckylab.games.fused.plays_as_written`: this class,
        no method replaced) where every seat is the default bot or a variant the fused turns
        play (:mod:`luckylab.games.fused`), the trusted loop finishes the turn under way and
        the fused turns of :mod:`.fast` play the rest (the same game, faster); else the
        trusted loop plays it all, through these rules (a subclass's too), as fast as
        ``checked=True``."""
        if (self._quiet and plays_as_written(self, KillGame)
                and all_fused(choosers, self.game_name)):
            from .fast import PLAYS, play_out

            profiles = fused_profiles(choosers, PLAYS)
            if profiles is not None:
                apply = self.apply_trusted
                while self.phase != "turn" and self.phase != "over":
                    apply(choosers[self._decider](self))
                if self.phase == "turn":
                    play_out(self, profiles)
                return
        super().play_out(choosers)

    # -- results -------------------------------------------------------------------------
    def result(self) -> GameResult:
        """The game's outcome as plain data (for :func:`luckylab.simulate`)."""
        return GameResult(
            game="kill", players=self.players, seed=self.seed, finished=self.finished,
            winner=self.winner, loser=None, turns=self.turn, attempts=len(self.attempt_log),
            cards_left=len(self.deck),
            extra={"attempts": list(self.attempt_log), "reshuffles": self.reshuffles,
                   "failure_cards_out": len(self.removed)},
        )



