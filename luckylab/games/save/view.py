"""What a seat of Save Doctor Lucky sees: its observation, the worlds it cannot tell apart, and
:class:`SaveView`, the typed view that bots, widgets and analyses read.

:class:`SaveViews` is a mixin of :class:`~luckylab.games.save.rules.SaveGame` holding the
protocol's plumbing about information: ``observation`` (plain data and a text),
``determinize`` (the hidden cards dealt anew, for search), ``unseen_cards``, ``clone``,
``card_places`` (the open table), ``result`` (the outcome as plain data) and ``view``.

What is public in Save: the ship as it stands (decks afloat, rooms, sight), every pawn and
Doctor Lucky, how many cards each hand and each pile holds, the discards, the rescue attempt in
progress and the attempts so far. Hidden: the cards in another player's hand and the order of
the piles.

>>> from luckylab import new_game
>>> game = new_game("save", players=4, seed=3)
>>> view = game.view(1)
>>> view.afloat, view.draw_deck, view.pile_sizes
(('A', 'B', 'C', 'D'), 'D', {'D': 17, 'C': 17, 'B': 16, 'A': 16})
>>> view.position(1), view.rescue_problem(1)
('Mail Room', 'you are in Mail Room, Doctor Lucky is in Chart Room')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from ...boards.board import Board
from ...cards import Card
from ..base import seats_from_left
from ..copying import deal_anew, light_copy
from ..protocol import Observation, SeatView, _new, _set_game, _set_seat, reads
from .actions import Foil

__all__ = ["AttemptSeen", "SaveView", "SaveViews"]


@dataclass(frozen=True, slots=True)
class AttemptSeen:
    """A rescue attempt in its failure round, as every seat sees it (``S-FAIL-*``): a frozen
    copy, made when :attr:`SaveView.attempt` is read."""

    rescuer: int
    """The player trying the rescue."""
    room: str
    """Where the attempt is made (Doctor Lucky's room)."""
    value: int
    """What it is worth (``S-SAVE-2``): Failure points needed to stop it."""
    aid: int | None
    """The Aid card used, or None."""
    order: tuple[int, ...]
    """The players asked, in order, starting at the rescuer's left (``S-FAIL-1``)."""
    asked: tuple[tuple[int, tuple[int, ...]], ...]
    """``(player, Failure cards discarded)`` for every player asked so far."""
    paid: int
    """Failure points discarded so far."""
    stop: int
    """The Failure points that stop it: its value by the book (``S-FAIL-1``), or what the
    game's ``foil_threshold`` says."""

    @property
    def needed(self) -> int:
        """Failure points still needed to stop it (0 once it is stopped)."""
        return max(self.stop - self.paid, 0)

    @property
    def asked_later(self) -> tuple[int, ...]:
        """The players who will be asked after the one asked now."""
        return self.order[len(self.asked) + 1:]




class SaveView(SeatView):
    """What one seat of Save Doctor Lucky may know, read live from the game, with the rules'
    answers about it (``game.view(seat)``; ``game.view()`` is the open table).

    Public: the ship as it stands, every pawn and Doctor Lucky, hand and pile sizes, the
    discards, the attempt in progress. A seat sees its own hand (:attr:`hand`); another hand
    raises :class:`~luckylab.errors.HiddenInformation` (:meth:`hand_size` says how many cards
    it holds), and so do the questions about the hand of the player deciding
    (:meth:`may_pass`, :meth:`cheapest_foil`) when asked by
    another seat. The rules' questions (``exits``, ``witnesses``, ``rescue_problem`` ...) are
    the game's own methods, so a house rule written in a subclass of ``SaveGame`` is what the
    view answers.

    >>> from luckylab import new_game
    >>> game = new_game("save", players=4, seed=3)
    >>> view = game.view(0)
    >>> view.doctor, view.doctor_next, view.exits(view.doctor)
    ('Chart Room', "Officers' Mess", ('Bridge', 'Galley', "Officers' Mess", "Ship's Surgery"))
    >>> len(view.hand) == view.hand_size(0) == 6, view.witnesses(0)  # Player 2 sees Player 1
    (True, [1])
    >>> view.hand_of(2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    luckylab.errors.HiddenInformation: Seat 3's hand is hidden from Seat 1; view.hand_size(2) ...
    """

    __slots__ = ()

    # -- the table -------------------------------------------------------------------------
    phase: str = reads("phase", """``"turn"`` (a turn's first action), ``"active"`` (an active
        turn under way), ``"foil"`` (a failure round) or ``"over"`` (``S-TURN-1``).""")
    turns: int = reads("turns", "Turns played so far.")
    turn_player: int = reads("turn_player", "The player whose turn it is (in a failure round, "
                                             "the rescuer).")
    seats: tuple[int, ...] = reads("seats", "Every player's seat, from 0.")
    board: Board = reads("board", "The ship as it is now: the rooms still afloat, sight "
                                   "derived again (``S-SINK-1``).")
    ship: Board = reads("ship", "The whole ship, as it was before anything sank.")
    decks: tuple[str, ...] = reads("decks", "The ship's decks, top first (``S-BOARD-1``).")
    afloat: tuple[str, ...] = reads("afloat", "The decks still afloat, top first "
                                               "(``S-SINK-1``).")
    sunk: tuple[str, ...] = reads("sunk", "The decks that have sunk, the first to sink first "
                                           "(``S-SINK-1``).")
    draw_deck: str = reads("draw_deck", "The deck whose pile you draw from: the lowest deck "
                                         "still afloat (``S-SETUP-3``).")
    cards: tuple[Card, ...] = reads("cards", "The deck's cards, by id.")
    doctor: str = reads("doctor", "Doctor Lucky's room.")
    step_used: bool = reads("step_used", "Whether the player on an active turn has taken the "
                                          "free step (``S-ACT-1``).")
    winner: int | None = reads("winner", "The player who rescued Doctor Lucky, once the game "
                                          "is over; else None.")
    loser: int | None = reads("loser", "The last player who could have stopped the winning "
                                        "rescue (``S-FAIL-2``), or None.")
    end_reason: str = reads("end_reason", """How the game ended: ``"rescued"``, ``"sunk"``
        (``S-SINK-2``), ``"turn cap"``; ``""`` while it goes on.""")

    @property
    def turn(self) -> int:
        """The number of the turn now (the first turn is 1)."""
        return self._game.turns + 1

    @property
    def pile_sizes(self) -> dict[str, int]:
        """How many cards each deck's pile holds, bottom deck first (a new dict); the order of
        a pile is hidden (``S-SETUP-3``)."""
        return {d: len(p) for d, p in self._game.piles.items()}

    @property
    def discards(self) -> tuple[int, ...]:
        """The discarded cards, oldest first."""
        return tuple(self._game.discards)

    def card(self, card_id: int) -> Card:
        """Card ``card_id``."""
        return self._game.cards[card_id]

    @property
    def positions(self) -> tuple[str, ...]:
        """Every player's room, by seat (a new tuple)."""
        return tuple(self._game.positions)

    def position(self, seat: int) -> str:
        """The room of ``seat``'s pawn."""
        return self._game.positions[seat]

    @property
    def attempt(self) -> AttemptSeen | None:
        """The rescue attempt in its failure round (a frozen copy), or None."""
        a = self._game.attempt
        if a is None:
            return None
        return AttemptSeen(a.rescuer, a.room, a.value, a.aid, tuple(a.order),
                           tuple((s, tuple(c)) for s, c in a.asked), a.paid, a.stop)

    # -- the rules' answers: the game's own methods ----------------------------------------
    exits: Callable[[str], tuple[str, ...]] = reads("exits", """exits(space): the rooms one
        door away from ``space`` on the ship as it is now, sorted (``S-BOARD-2``).""")
    pawns_at: Callable[[str], list[int]] = reads("pawns_at", """pawns_at(space): the seats
        whose pawns stand in ``space`` (a new list).""")
    witnesses: Callable[..., list[int]] = reads("witnesses", """witnesses(seat, space=None):
        the *other* players who would see ``seat`` standing in ``space`` (default: its room)
        (``S-SAVE-1``, ``S-SIGHT-1``); a new list.""")
    rescue_problem: Callable[[int], str | None] = reads("rescue_problem", """rescue_problem(
        seat): why ``seat`` may not try a rescue now, or None if it may (``S-SAVE-1``).""")
    rescue_value: Callable[[int | None, str], int] = reads("rescue_value", """rescue_value(aid,
        space): what an attempt in ``space`` with Aid card ``aid`` (or None) is worth
        (``S-SAVE-2``).""")
    step_value: Callable[[int], int] = reads("step_value", """step_value(card_id): a Move
        card's steps (``S-ACT-1``, ``S-ACT-2``).""")
    move_destinations: Callable[[int, str], frozenset[str]] = reads(
        "move_destinations", """move_destinations(card_id, start): where Move card ``card_id``
        can take a pawn standing in ``start`` (``S-ACT-1``).""")
    @property
    def doctor_next(self) -> str:
        """Where Doctor Lucky's own move takes him if no deck sinks first (``S-DOC-*``)."""
        return self._game.doctor_next()

    def can_rescue(self, seat: int) -> bool:
        """Whether ``seat`` may try a rescue now (``S-SAVE-1``)."""
        return self._game.rescue_problem(seat) is None

    # -- hands -----------------------------------------------------------------------------
    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards, in the order they came (raises on the open table: use
        :meth:`hand_of`)."""
        if self.seat is None:
            raise self._hidden("the open table has no hand of its own",
                               "view.hand_of(seat) shows any seat's hand")
        return tuple(self._game.hands[self.seat])

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s cards (this seat's own, or any on the open table)."""
        self._sees_hand(seat)
        return tuple(self._game.hands[seat])

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds (public)."""
        return len(self._game.hands[seat])

    def unseen_cards(self) -> list[int]:
        """The cards this seat cannot see (the other hands and the piles), sorted by id; none
        on the open table."""
        if self.seat is None:
            return []
        return self._game.unseen_cards(self.seat)  # type: ignore[no-any-return]

    def _own(self, seat: int | None) -> int:
        """``seat`` (default: this seat) if this view may see its hand, else raise."""
        if seat is None:
            if self.seat is None:
                raise self._hidden("the open table has no hand of its own", "name a seat")
            return self.seat
        self._sees_hand(seat)
        return seat

    def aids_in_hand(self, seat: int | None = None) -> list[int]:
        """The Aid cards in a hand (this seat's by default), in hand order (``S-SAVE-2``)."""
        if seat is None or seat != self.seat:
            seat = self._own(seat)
        return self._game.aids_in_hand(seat)

    def moves_in_hand(self, seat: int | None = None) -> list[int]:
        """The Move cards in a hand (this seat's by default), in hand order (``S-ACT-1``)."""
        if seat is None or seat != self.seat:
            seat = self._own(seat)
        return self._game.moves_in_hand(seat)

    def failure_points(self, seat: int | None = None) -> int:
        """The Failure points in a hand (this seat's by default) (``S-FAIL-1``)."""
        return self._game.failure_points(self._own(seat))

    # -- the player deciding ---------------------------------------------------------------
    def _not_deciding(self, what: str) -> Exception:
        return self._hidden(f"{what} depends on the hand of the player deciding",
                            "ask it in that seat's view")

    def may_pass(self) -> bool:
        """In a failure round, whether the player asked may pass: not when ``S-FAIL-3`` makes
        them stop the attempt (only the seat deciding, or the open table, may ask)."""
        game = self._game
        if self.seat is not None and self.seat != game._decider:
            raise self._not_deciding("may_pass()")
        return game.may_pass()

    def cheapest_foil(self) -> Foil | None:
        """In a failure round, the legal discard that stops the attempt with the fewest
        points, then fewest cards, or None (``S-FAIL-1``; only the seat deciding, or the open
        table, may ask)."""
        game = self._game
        if self.seat is not None and self.seat != game._decider:
            raise self._not_deciding("cheapest_foil()")
        return game.cheapest_foil()

    # -- the foiling question (luckylab.analysis.luck.foil_question) ------------------------
    def known_cards(self) -> list[int]:
        """The cards this seat knows the place of: its hand and the discards."""
        return [*self.hand, *self._game.discards]

    def foil_hands(self, attacker: int) -> list[int]:
        """How many cards each seat asked to stop a rescue by ``attacker`` holds, in asking
        order (``S-FAIL-1``: from the rescuer's left)."""
        hands = self._game.hands
        seats = list(range(self._game.players))
        return [len(hands[other]) for other in seats_from_left(seats, attacker)[:-1]]

    def attempt_value(self, seat: int, card: int | None = None) -> int:
        """The value of a rescue ``seat`` would try now with Aid card ``card`` (or None),
        where it stands (``S-SAVE-2``)."""
        game = self._game
        return game.rescue_value(card, game.positions[seat])


class SaveViews:
    """What a seat sees, and the copies a search plays on (a mixin of ``SaveGame``)."""

    __slots__ = ()

    HIDDEN_EVENT_DATA: ClassVar[Mapping[str, frozenset[str]]] = MappingProxyType(
        {"snoop": frozenset({"card"})})
    """The card a snooper draws goes into its hand unseen (S-SNOOP-1)."""

    def view(self, seat: int | None = None) -> SaveView:
        """What ``seat`` may know, with the rules' answers (:class:`SaveView`); ``view()`` is
        the open table, every card shown. A view is live (it reads the game as it is now) and
        read-only; making one costs little (bots ask for one at every decision)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.players):
            seat = self._check_seat(seat)
        view = _new(SaveView)  # SaveView.of(self, seat), inlined: a bot asks at each decision
        _set_game(view, self)
        _set_seat(view, seat)
        return view  # a bot makes one per decision

    def unseen_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` cannot see (the other hands and the piles), sorted by id.

        >>> from luckylab import new_game
        >>> game = new_game("save", players=4, seed=3)
        >>> len(game.unseen_cards(0)) == len(game.cards) - len(game.hands[0])
        True
        """
        seat = self._check_seat(seat)
        seen = set(self.hands[seat])
        seen.update(self.discards)
        return sorted(c.id for c in self.cards if c.id not in seen)

    def card_places(self) -> dict[str, list[int]]:
        """Where every card is: one pile per deck, each hand, the discards (the open table)."""
        places = {f"pile {d}": list(p) for d, p in self.piles.items()}
        places["discards"] = list(self.discards)
        for s in self.seats:
            places[f"hand {s}"] = list(self.hands[s])
        return places

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now: the ship as it stands, its own hand, how many cards the
        others hold and each pile holds, the discards, the rescue attempt and the attempts so
        far (with ``deck_steps="pile"``, also which pile each held card came from).

        >>> from luckylab import new_game
        >>> game = new_game("save", players=4, seed=3)
        >>> obs = game.observation(0)
        >>> obs["hand"] == sorted(game.hands[0]), obs["hand_sizes"]
        (True, [6, 6, 6, 6])
        >>> print(obs.text.splitlines()[0])
        Turn 1: Player 2's turn; you are Player 1.
        """
        seat = self._check_seat(seat)
        attempt = self.attempt
        rescue = None if attempt is None else {
            "rescuer": attempt.rescuer, "room": attempt.room, "value": attempt.value,
            "aid": attempt.aid, "order": list(attempt.order), "needed": attempt.needed,
            "asked": [[s, list(cards)] for s, cards in attempt.asked]}
        drawn = self._drawn_from
        data = {
            "turn": self.turns + 1, "phase": self.phase, "turn_player": self.turn_player,
            "current_player": self.current_player, "step_used": self.step_used,
            "doctor": self.doctor, "doctor_to_lowest": self._doctor_to_lowest,
            "positions": list(self.positions), "afloat": list(self.afloat),
            "hand": sorted(self.hands[seat]),
            "hand_sizes": [len(self.hands[s]) for s in self.seats],
            "piles": {d: len(p) for d, p in self.piles.items()},
            "discards": list(self.discards), "rescue": rescue,
            "attempts": [dict(a) for a in self.attempt_log],
            "finished": self.finished, "winner": self.winner, "loser": self.loser,
            "end": self.end_reason,
        }
        if drawn:  # S-ACT-2 "pile": where a card came from is seen as it is drawn
            data["drawn_from"] = {str(c): drawn[c] for c in sorted(self.hands[seat])
                                  if c in drawn}
            data["drawn_by_hand"] = [sorted(drawn[c] for c in self.hands[s] if c in drawn)
                                     for s in self.seats]
        if self.phase == "over":
            head = f"The game is over ({self.end_reason})"
        else:
            head = f"Turn {self.turns + 1}: Player {self.turn_player + 1}'s turn"
            if self._decider != self.turn_player:
                head += f", Player {self._decider + 1} to answer"
        where = self._where
        lines = [f"{head}; you are Player {seat + 1}.",
                 f"Decks afloat: {''.join(self.afloat)}. Doctor Lucky is in "
                 f"{where(self.doctor)}. " + ", ".join(
                     f"Player {s + 1} in {where(self.positions[s])}" for s in self.seats) + ".",
                 "Your hand: " + (", ".join(self.cards[c].name for c in data["hand"])
                                  or "no cards") + ".",
                 "Cards held: " + ", ".join(f"Player {s + 1} {len(self.hands[s])}"
                                           for s in self.seats)
                 + "; piles " + ", ".join(f"{d} {len(p)}" for d, p in self.piles.items())
                 + f"; {len(self.discards)} discarded."]
        if attempt is not None:
            lines.append(f"Player {attempt.rescuer + 1} tries a rescue worth {attempt.value}: "
                         f"{attempt.needed} Failure point(s) still needed to stop it.")
        return Observation(seat, data, "\n".join(lines))

    def determinize(self, seat: int, rng: random.Random) -> Any:
        """A game ``seat`` cannot tell from this one: its hand and the discards stay; every
        other card (:meth:`unseen_cards`) is shuffled with ``rng`` and dealt anew, the other
        hands (in seat order) keeping their sizes, then the piles (bottom deck first) theirs.
        With ``deck_steps="pile"`` a card dealt into a hand takes over the pile its place came
        from. (Nothing else in Save is random after the deal.) The new game's history and
        events start empty; the original is untouched.

        >>> import random
        >>> from luckylab import new_game
        >>> game = new_game("save", players=3, seed=1)
        >>> world = game.determinize(0, random.Random(5))
        >>> world.hands[0] == game.hands[0], len(world.hands[1]) == len(game.hands[1])
        (True, True)
        >>> sorted(world.hands[1] + world.hands[2] + [c for p in world.piles.values()
        ...                                           for c in p]) == game.unseen_cards(0)
        True
        """
        pool = self.unseen_cards(seat)
        world = light_copy(self, self._shared_attributes(), logs=False)
        dealt, rest = deal_anew(pool, [(s, len(self.hands[s])) for s in self.seats if s != seat],
                                rng)
        for other, hand in dealt.items():
            world.hands[other] = hand
        start = 0
        for deck, pile in self.piles.items():
            world.piles[deck] = rest[start:start + len(pile)]
            start += len(pile)
        drawn = self._drawn_from
        if drawn:
            hidden = set(pool)
            world._drawn_from = {c: d for c, d in drawn.items() if c not in hidden}
            for other in self.seats:
                if other != seat:
                    for old, new in zip(self.hands[other], world.hands[other], strict=True):
                        if old in drawn:
                            world._drawn_from[new] = drawn[old]
        return world

    def clone(self) -> Any:
        """An independent copy, events and history included (cheap: the ship's tables are
        shared, the state is copied as deep as the rules change it)."""
        return light_copy(self, self._shared_attributes())

    def _shared_attributes(self) -> frozenset[str]:
        return frozenset({"board", "cards", "_boards", "_points", "_aids", "_moves",
                          "_deck_step", "decks",
                          "_t"})

    def _start_board(self) -> Board:
        return self._boards[0]  # the whole ship, before any deck sank

