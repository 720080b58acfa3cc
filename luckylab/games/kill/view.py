"""What a seat of Kill Doctor Lucky sees: :class:`KillView` (``game.view(seat)``), the
observation, and the worlds a search deals from it, as :class:`KillViews`, a part of
:class:`~.rules.KillGame`.

In Kill Doctor Lucky everything is on the table but the cards: every pawn, Doctor Lucky, the
discards and the Failure cards played (``K-FAIL-1``: they leave the game face up) are public;
a seat sees its own hand and only the size of the others' and of the deck.

>>> from luckylab import new_game
>>> game = new_game("kill", players=3, seed=5)
>>> view = game.view(1)
>>> view.doctor, view.position(1), view.hand_size(0)
('Dining Hall', 'Drawing Room', 6)
>>> view.hand == game.view().hand_of(1)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...boards.board import Board
from ...cards import Card
from ...errors import HiddenInformation
from ..base import seats_from_left
from ..copying import deal_anew, light_copy
from ..foiling import FoilRound, FoilState
from ..protocol import Observation, SeatView, _new, _set_game, _set_seat, reads
from .tables import Reach, Tables

__all__ = ["KillView", "KillViews"]

_FRESH = frozenset({"rng"})  # what determinize() sets anew: not copied


class KillView(SeatView):
    """What one seat of Kill Doctor Lucky may know, read live from the game, with the rules'
    answers about it (``game.view(seat)``; ``game.view()``: the open table).

    Everything is public but the cards in the other hands and the deck's order: asking a
    seat's view for another hand raises :class:`~luckylab.errors.HiddenInformation`.

    >>> from luckylab import new_game
    >>> game = new_game("kill", players=3, seed=4)
    >>> view = game.view(game.current_player)
    >>> view.seat, view.phase, view.doctor, view.doctor_next
    (2, 'turn', 'Parlor', 'Billiard Room')
    >>> view.can_attack(2), len(view.hand) == view.hand_size(2)
    (False, True)
    >>> sorted(view.doors[view.position()])[:2]
    ['Dining Hall', 'Foyer']
    """

    __slots__ = ()

    # -- the table ---------------------------------------------------------------------------
    phase: str = reads("phase", """``"turn"`` (a turn starts), ``"doing"`` (a doing-something turn,
        ``K-ACT-1``), ``"foil"`` (a foiling round, ``K-FAIL-1``) or ``"over"``.""")
    turn: int = reads("turn", """The number of the turn under way (from 1).""")
    active: int = reads("active", """The seat whose turn it is (another seat may be deciding, in a
        foiling round).""")
    names: tuple[str, ...] = reads("names", """The players' names, by seat.""")

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in playing order (Kill's seats never change)."""
        return tuple(self._game.order)

    board: Board = reads("board", """The mansion (an immutable
        :class:`~luckylab.boards.board.Board`).""")
    cards: tuple[Card, ...] = reads("cards", """Every card of the deck, by id (what each card is,
        not where it is).""")

    def card(self, card_id: int) -> Card:
        """The card with id ``card_id``."""
        return self._game.cards[card_id]  # type: ignore[no-any-return]

    doctor: str = reads("doctor", """Doctor Lucky's space.""")

    @property
    def doctor_next(self) -> str:
        """Where Doctor Lucky goes when this turn ends (``K-DOC-1``), if no card moves him."""
        game = self._game
        return game._doctor_next[game.doctor]  # type: ignore[no-any-return]

    @property
    def positions(self) -> tuple[str, ...]:
        """Every seat's space, by seat."""
        position = self._game.position
        return tuple([position[s] for s in range(len(position))])

    def position(self, seat: int | None = None) -> str:
        """The space of ``seat``'s pawn (default: this view's seat)."""
        return self._game.position[self.seat if seat is None else seat]  # type: ignore[no-any-return]

    pawns_at: Callable[..., list[int]] = reads("pawns_at", """pawns_at(space): the seats whose pawns
        stand on ``space`` (a new list).""")

    def scene(self) -> dict[str, Any]:
        """The board as a picture shows it: ``pawns`` (name -> space, by seat) and
        ``doctor`` (:func:`luckylab.viz.draw.scene_of` reads it; Kill Doctor Lucky has no
        cat and no Strangers). All of it is public."""
        game = self._game
        return {"pawns": {game.names[s]: space for s, space in enumerate(self.positions)},
                "doctor": game.doctor}

    stepped: bool = reads("stepped", """Whether the free step of this doing-something turn is used
        (``K-ACT-1``).""")

    # -- the cards ---------------------------------------------------------------------------
    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards (ids), in the order they came into the hand."""
        if self.seat is None:
            raise HiddenInformation("the open table holds no hand of its own; "
                                    "view.hand_of(seat) shows any seat's")
        return tuple(self._game.hands[self.seat])

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s cards (ids), in the order they came into the hand: this seat's own, or
        any on the open table."""
        self._sees_hand(seat)
        return tuple(self._game.hands[seat])

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds (public)."""
        return len(self._game.hands[seat])

    @property
    def deck_size(self) -> int:
        """How many cards are left in the deck (their order is hidden)."""
        return len(self._game.deck)

    @property
    def discards(self) -> tuple[int, ...]:
        """The discards, face up (they become the next deck, ``K-FAIL-1``)."""
        return tuple(self._game.discards)

    @property
    def removed(self) -> tuple[int, ...]:
        """The Failure cards played: out of the game, face up (``K-FAIL-1``)."""
        return tuple(self._game.removed)

    def failure_cards(self, seat: int) -> tuple[int, ...]:
        """The Failure cards in ``seat``'s hand, sorted by id (its own, or any on the open
        table)."""
        self._sees_hand(seat)
        return self._game.failure_cards(seat)  # type: ignore[no-any-return]

    def failure_points(self, seat: int) -> int:
        """The Failure points in ``seat``'s hand (its own, or any on the open table)."""
        self._sees_hand(seat)
        return self._game.failure_points(seat)  # type: ignore[no-any-return]

    def moving_cards(self, seat: int) -> list[int]:
        """The Move and Room cards in ``seat``'s hand that the legal actions offer: one of
        each design (identical cards do the same; the lowest id), sorted by id."""
        self._sees_hand(seat)
        return self._game.moving_cards(seat)  # type: ignore[no-any-return]

    def unseen_cards(self) -> list[int]:
        """The cards this seat cannot see (the other hands and the deck), sorted by id; none
        on the open table."""
        if self.seat is None:
            return []
        return self._game.unseen_cards(self.seat)  # type: ignore[no-any-return]

    def card_places(self) -> dict[str, list[int]]:
        """Where every card is (``deck``, ``discards``, ``removed``, ``hand <seat>``): the open
        table only."""
        if self.seat is not None:
            raise self._hidden("The place of every card (the deck's order, the other hands)",
                               "view.hand, view.discards, view.removed and view.hand_size(seat) "
                               "say what it may know")
        return self._game.card_places()  # type: ignore[no-any-return]

    # -- the board's lookups (read-only, shared by every game on the board) -------------------
    @property
    def doors(self) -> Mapping[str, frozenset[str]]:
        """Space -> the spaces one door away (``K-BOARD-2``)."""
        return self._game._t.doors_view  # type: ignore[no-any-return]

    @property
    def exits(self) -> Mapping[str, tuple[str, ...]]:
        """Space -> the spaces one door away, sorted."""
        return self._game._t.exits_view  # type: ignore[no-any-return]

    @property
    def rooms(self) -> frozenset[str]:
        """The named rooms: where a snoop draws a card (``K-SNOOP-1``)."""
        return self._game._t.rooms  # type: ignore[no-any-return]

    @property
    def reach(self) -> tuple[Mapping[str, Reach] | None, ...]:
        """By card id, for a Move or Room card: start -> where it moves a pawn from there, as
        a set and sorted (``K-ACT-1``; :meth:`card_targets` asks for one); None for others."""
        return self._game._t.reach_view  # type: ignore[no-any-return]

    @property
    def kinds(self) -> tuple[str, ...]:
        """By card id: its kind (``"move"``, ``"room"``, ``"weapon"``, ``"failure"``)."""
        return self._game._t.kinds  # type: ignore[no-any-return]

    @property
    def luck(self) -> tuple[int, ...]:
        """By card id: its Failure points (0 for a card that is no Failure card)."""
        return self._game._t.luck  # type: ignore[no-any-return]

    # -- the rules' answers ------------------------------------------------------------------
    sight: Callable[..., frozenset[str]] = reads("sight", """sight(space): the spaces seen from
        ``space`` (``K-SIGHT-1``, ``K-SIGHT-2``).""")
    watchers: Callable[..., list[int]] = reads("watchers", """watchers(seat): the other players who
        see ``seat`` (``K-SIGHT-1``; the same space included).""")
    unseen_spaces: Callable[..., frozenset[str]] = reads("unseen_spaces", """unseen_spaces(seat):
        the spaces no player other than ``seat`` sees: where ``seat`` could attack.""")
    can_attack: Callable[..., bool] = reads("can_attack", """can_attack(seat): whether ``seat`` may
        attack now (``K-KILL-1``: with Doctor Lucky, seen by no other player).""")
    attack_value: Callable[..., int] = reads("attack_value", """attack_value(seat, weapon=None): the
        value of an attack by ``seat`` where it stands, bare-handed or with ``weapon``
        (``K-KILL-1``).""")
    card_targets: Callable[..., frozenset[str]] = reads("card_targets", """card_targets(card_id,
        pawn, seat=None): where playing ``card_id`` (a Move or Room card) could move ``pawn``
        (``"self"``: ``seat``, the seat deciding by default; ``"doctor"``: Doctor Lucky),
        ``K-ACT-1``.""")

    @property
    def needed(self) -> int:
        """The Failure points still needed to foil the attempt under way (0 if none)."""
        round_ = self._game.foil
        return 0 if round_ is None else round_.needed  # type: ignore[no-any-return]

    @property
    def foil(self) -> FoilState | None:
        """The foiling round under way (``K-FAIL-1``), as every seat sees it, or None."""
        round_: FoilRound | None = self._game.foil
        return None if round_ is None else round_.state()


    # -- the end -----------------------------------------------------------------------------
    winner: int | None = reads("winner", """The seat that killed Doctor Lucky, or None.""")
    finished: bool = reads("finished", """Whether the game ended with a murder (not stopped at its
        turn cap).""")

    @property
    def attempts(self) -> tuple[dict[str, Any], ...]:
        """Every murder attempt so far (copies): turn, attacker, value, weapon, space,
        foiled, points."""
        return tuple([dict(a) for a in self._game.attempt_log])


    # -- the foiling question (luckylab.analysis.luck.foil_question) ------------------------
    def known_cards(self) -> list[int]:
        """The cards this seat knows the place of: its hand, the discards and the Failure cards
        out of the game."""
        return [*self.hand, *self._game.discards, *self._game.removed]

    def foil_hands(self, attacker: int) -> list[int]:
        """How many cards each seat asked to foil an attempt by ``attacker`` holds, in asking
        order (``K-FAIL-1``: from the attacker's left)."""
        hands = self._game.hands
        return [len(hands[other]) for other in seats_from_left(self._game.order, attacker)[:-1]]

    def attempt_value(self, seat: int, card: int | None = None) -> int:
        """The value of an attempt ``seat`` would make now with ``card`` (a Weapon, or None):
        :meth:`attack_value`."""
        return self._game.attack_value(seat, card)  # type: ignore[no-any-return]


class KillViews:
    """What a seat sees of :class:`~.rules.KillGame`: its view, its observation, and the
    worlds a search deals from them (the protocol's plumbing)."""

    players: int
    seed: int | None
    board: Board
    cards: tuple[Card, ...]
    names: tuple[str, ...]
    order: list[int]
    hands: dict[int, list[int]]
    position: dict[int, str]
    deck: list[int]
    discards: list[int]
    removed: list[int]
    foil: FoilRound | None
    phase: str
    turn: int
    active: int
    stepped: bool
    reshuffles: int
    finished: bool
    winner: int | None
    attempt_log: list[dict[str, Any]]
    _t: Tables

    doctor: str
    current_player: int | None
    if TYPE_CHECKING:  # the game's (GameBase, rules.py)
        def _check_seat(self, seat: Any) -> int: ...
        def _where(self, space: str) -> str: ...

    def view(self, seat: int | None = None) -> KillView:
        """What ``seat`` may know, read live (:class:`KillView`); ``view()``: the open table,
        every card shown (for teachers, replays and analyses with the true hands)."""
        if not (seat is None or (type(seat) is int and 0 <= seat < self.players)):
            seat = self._check_seat(seat)  # the error for anything but a seat
        view = _new(KillView)  # KillView.of(self, seat), inlined: a bot asks at each decision
        _set_game(view, self)
        _set_seat(view, seat)
        return view  # a bot makes one per decision

    def _shared_attributes(self) -> frozenset[str]:
        """What a copy shares with the original (read-only: the board, the cards, the tables,
        the caches)."""
        return frozenset({"board", "cards", "_t", "_vis", "_kinds", "_luck", "_all_spaces",
                          "_doctor_next", "_left", "_others_at", "names",
                          "setup_events"})

    def card_places(self) -> dict[str, list[int]]:
        """Where every card is: ``deck``, ``discards``, ``removed``, ``hand <seat>``."""
        places = {"deck": list(self.deck), "discards": list(self.discards),
                  "removed": list(self.removed)}
        for s, hand in self.hands.items():
            places[f"hand {s}"] = list(hand)
        return places

    def unseen_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` cannot see (the other hands and the deck), sorted by id: nothing
        of where they really are shows.

        >>> from luckylab import new_game
        >>> game = new_game("kill", players=3, seed=5)
        >>> len(game.unseen_cards(0)) == len(game.deck) + len(game.hands[1]) + len(game.hands[2])
        True
        """
        seat = self._check_seat(seat)
        seen = set(self.hands[seat])
        seen.update(self.discards)
        seen.update(self.removed)  # K-FAIL-1: played Failure cards leave the game, face up
        return [c for c in range(len(self.cards)) if c not in seen]  # ids are places

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now: the board, its own hand, how many cards the others hold,
        the discards and the Failure cards played, the foiling round and the attempts so far.

        >>> from luckylab import new_game
        >>> game = new_game("kill", players=3, seed=5)
        >>> obs = game.observation(1)
        >>> obs["hand"] == sorted(game.hands[1]), obs["hand_sizes"]
        (True, [6, 6, 6])
        >>> print(obs.text.splitlines()[0])
        Turn 1: Player 1's turn; you are Player 2.
        """
        seat = self._check_seat(seat)
        round_ = self.foil
        foil = None if round_ is None else {
            "attacker": round_.attacker, "value": round_.value, "weapon": round_.weapon,
            "order": list(round_.order), "needed": round_.needed,
            "asked": [[s, list(cards)] for s, cards in round_.asked]}
        data = {
            "turn": self.turn, "phase": self.phase, "active": self.active,
            "current_player": self.current_player, "stepped": self.stepped,
            "doctor": self.doctor, "positions": [self.position[s] for s in self.order],
            "hand": sorted(self.hands[seat]),
            "hand_sizes": [len(self.hands[s]) for s in self.order],
            "deck_size": len(self.deck), "discards": list(self.discards),
            "removed": list(self.removed), "reshuffles": self.reshuffles, "foil": foil,
            "attempts": [dict(a) for a in self.attempt_log],
            "finished": self.finished, "winner": self.winner,
        }
        names = self.names
        if self.phase == "over":
            head = (f"The game is over: {names[self.winner]} won" if self.finished else  # type: ignore[index]
                    f"The game stopped unfinished after {self.turn} turns")
        else:
            head = f"Turn {self.turn}: {names[self.active]}'s turn"
            if self.current_player != self.active:
                head += f", {names[self.current_player]} to answer"  # type: ignore[index]
        lines = [f"{head}; you are {names[seat]}.",
                 f"Doctor Lucky is in {self._where(self.doctor)}. " + ", ".join(
                     f"{names[s]} in {self._where(self.position[s])}" for s in self.order) + ".",
                 "Your hand: " + (", ".join(self.cards[c].name for c in data["hand"]) or
                                  "no cards") + ".",
                 "Cards held: " + ", ".join(f"{names[s]} {len(self.hands[s])}"
                                           for s in self.order)
                 + f"; {len(self.deck)} in the deck, {len(self.discards)} discarded."]
        if round_ is not None:
            lines.append(f"{names[round_.attacker]} attacks with value {round_.value}: "
                         f"{round_.needed} Failure point(s) still needed to foil it.")
        return Observation(seat, data, "\n".join(lines))

    def determinize(self, seat: int, rng: random.Random) -> Any:
        """A game ``seat`` cannot tell from this one: its hand, the discards and the Failure
        cards played stay; every other card (:meth:`unseen_cards`) is shuffled with ``rng``
        and dealt anew, each other hand keeping its size and the deck its length; the game's
        own generator (reshuffles) is reseeded from ``rng``. For a search: the new game's
        history and events start empty (it has no past to replay). The original is untouched.

        >>> from luckylab import new_game
        >>> game = new_game("kill", players=3, seed=1)
        >>> world = game.determinize(0, random.Random(5))
        >>> world.hands[0] == game.hands[0], len(world.hands[1]) == len(game.hands[1])
        (True, True)
        >>> sorted(world.deck + world.hands[1] + world.hands[2]) == game.unseen_cards(0)
        True
        """
        pool = self.unseen_cards(seat)
        world = light_copy(self, self._shared_attributes(), logs=False, fresh=_FRESH)
        dealt, world.deck = deal_anew(pool, [(s, len(self.hands[s])) for s in sorted(world.hands)
                                             if s != seat], rng)
        for other, hand in dealt.items():
            world.hands[other] = hand
        world.rng = random.Random(rng.getrandbits(64))
        return world

    def clone(self) -> Any:
        """An independent copy, events and history included (cheap: the board's tables are
        shared, the state is copied as deep as the rules change it)."""
        return light_copy(self, self._shared_attributes())

    def __repr__(self) -> str:
        state = self.phase if self.phase != "over" else (
            f"over, winner {self.winner}" if self.finished else "over, unfinished")
        return f"<KillGame {self.players} players, seed {self.seed}, turn {self.turn}, {state}>"
