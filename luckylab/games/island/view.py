"""What a seat of The Island of Doctor Lucky sees: its observation, a world it cannot tell
from the real one (for search), and :class:`IslandView`, the typed view that bots, widgets and
analyses read.

The game class (``rules.py``) inherits :class:`IslandViews`, which holds the protocol's
``observation(seat)``, ``determinize(seat, rng)``, ``clone()`` and ``view(seat)``.

>>> from luckylab import new_game
>>> game = new_game("island", players=4, seed=1)
>>> view = game.view(0)
>>> view.position(0), view.doctor, view.cat
('Castelo Feliz', 'Sunset Beach', 'Observatory')
>>> sorted(view.hand) == game.observation(0)["hand"]
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from ...boards.board import Board, CatBlocks
from ...cards import Card
from ..base import seats_from_left
from ..copying import deal_anew, light_copy
from ..foiling import FoilState
from ..protocol import Observation, SeatView, _new, _set_game, _set_seat, reads
from .actions import GiveCard, Move, Phase

__all__ = ["CHANGING", "SHARED", "IslandView", "IslandViews", "SightRow", "sight_report"]


# -- who sees whom, without a game (lesson 2) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class SightRow:
    """What one pawn sees and may do, from :func:`sight_report`."""

    sees: frozenset[str]
    seen_by: frozenset[str]
    may_draw: bool
    may_attack: bool
    reason: str


def sight_report(
    board: Board,
    pawns: Mapping[str, str],
    doctor: str | None = None,
    cat: str | None = None,
    cat_blocks: CatBlocks = "both",
    deck_empty: bool = False,
) -> dict[str, SightRow]:
    """Who sees whom, and who may draw or attack, for pawns placed anywhere (no game needed).

    ``pawns`` maps pawn names to spaces; Doctor Lucky stands on ``doctor`` (if given). The
    Phase 2 rules applied are ``I-DRAW-1`` (nobody, Doctor Lucky included, sees you) and
    ``I-KILL-1`` (on his space, no other pawn there, no other pawn sees you).

    >>> from luckylab import load_board
    >>> board = load_board("isla-fortuna")
    >>> report = sight_report(board, {"Janet": "Frog Pond", "Sara": "Sunset Beach"},
    ...                       doctor="Frog Pond")
    >>> report["Janet"].may_attack, report["Janet"].reason
    (False, 'seen by Sara')
    >>> report = sight_report(board, {"Janet": "Frog Pond", "Sara": "Sunset Beach"},
    ...                       doctor="Frog Pond", cat="Frog Pond")
    >>> report["Janet"].may_attack
    True
    """
    for space in [*pawns.values(), doctor, cat]:
        if space is not None:
            board.check(space)
    placed: dict[str, str] = dict(pawns)
    everyone = dict(placed)
    if doctor is not None:
        everyone["Doctor Lucky"] = doctor
    rows = {}
    for name, space in placed.items():
        sees = frozenset(
            other for other, where in everyone.items()
            if other != name and board.sees(space, where, cat, cat_blocks)
        )
        seen_by = frozenset(
            other for other, where in everyone.items()
            if other != name and board.sees(where, space, cat, cat_blocks)
        )
        watchers = sorted(seen_by)
        others_here = sorted(o for o, w in placed.items() if o != name and w == space)
        player_watchers = [w for w in watchers if w != "Doctor Lucky"]
        may_draw = not seen_by and not deck_empty
        may_attack = doctor == space and not others_here and not player_watchers
        if may_attack:
            reason = "alone with Doctor Lucky and unseen: may attack"
        elif doctor != space:
            reason = "seen by " + ", ".join(watchers) if watchers else "unseen: may draw"
        elif others_here:
            reason = "not alone with Doctor Lucky: " + ", ".join(others_here) + " here too"
        else:
            reason = "seen by " + ", ".join(player_watchers)
        rows[name] = SightRow(sees, seen_by, may_draw, may_attack, reason)
    return rows


class IslandView(SeatView):
    """What seat ``seat`` of an Island game may know, read live (``game.view(seat)``), and the
    rules' answers about it; ``game.view()`` is the open table (every hand shown).

    The table is public: the board, the pawns, Doctor Lucky and the cat, every Move and
    Attack, the cards under the characters, the discards, how many cards each player holds and
    the deck's size, a foiling round or a Hazard penalty under way. A seat sees its own hand;
    another player's hand raises :class:`~luckylab.errors.HiddenInformation`.

    >>> from luckylab import new_game
    >>> game = new_game("island", players=4, seed=3)
    >>> me = game.current_player
    >>> view = game.view(me)
    >>> view.phase, view.position(me), sorted(view.watchers(me)), view.can_draw(me)
    ('phase1', 'Castelo Feliz', [0, 2, 3], False)
    >>> view.hand_size(me) == len(view.hand), view.hand_size(0)
    (True, 6)
    >>> view.hand_of(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    luckylab.errors.HiddenInformation: Seat 1's hand is hidden from Seat 2; view.hand_size(0) ...
    """

    __slots__ = ()

    # -- the course of the game --------------------------------------------------------
    phase: Phase = reads("phase", """``"phase1"``, ``"phase2"``, ``"foil"``, ``"penalty"`` or
        ``"over"``.""")
    turn: int = reads("turn", """Turns begun so far (Strangers' turns count).""")
    turn_cap: int = reads("turn_cap", """The turn at which an unfinished game stops
        (``I-END-2``).""")
    active: int = reads("active", """The seat whose turn it is (a foiling round or a penalty may ask
        another).""")
    winner: int | None = reads("winner", """The seat that killed Doctor Lucky (None before the end,
        or unfinished).""")
    finished: bool = reads("finished", """Whether the game ended with Doctor Lucky's death (not
        stopped at its turn cap).""")

    @property
    def attempts(self) -> tuple[dict[str, Any], ...]:
        """Every attempt so far (copies): turn, attacker, kind, value, foiled, Luck spent
        (the Luck the others held is left out: it was hidden)."""
        return tuple([{k: v for k, v in a.items() if k != "table_luck"}
                      for a in self._game.attempt_log])

    loser: int | None = reads("loser", """The seat that could have saved him and did not
        (``I-FOIL-3``).""")

    # -- seats -------------------------------------------------------------------------
    names: tuple[str, ...] = reads("names", """Each seat's character (a Stranger's name starts
        "Stranger ").""")
    seats: tuple[int, ...] = reads("seats", """Every seat: the players and their Strangers
        (``I-STR-1``).""")
    strangers: tuple[int, ...] = reads("strangers", """The Strangers' seats (empty with 4 or more
        players).""")

    def is_stranger(self, seat: int) -> bool:
        """Whether ``seat`` is a Stranger (automated: it never decides, ``I-STR-8``)."""
        return self._game._is_stranger[seat]

    @property
    def order(self) -> tuple[int, ...]:
        """The live seats in playing order, clockwise (``I-SETUP-3``)."""
        return tuple(self._game.order)

    @property
    def eliminated(self) -> frozenset[int]:
        """Seats out of the game (You're Out, ``I-HAZ-3``)."""
        return frozenset(self._game.eliminated)

    youre_out: bool = reads("youre_out", """Whether the optional rule You're Out is played
        (``I-HAZ-3``).""")

    # -- the board ---------------------------------------------------------------------
    board: Board = reads("board", """The board (a graph with sight tables).""")
    cat_blocks: CatBlocks = reads("cat_blocks", """How the cat blocks sight: ``"both"``
        (``I-SIGHT-2``) or ``"outward"``.""")

    @property
    def positions(self) -> tuple[str, ...]:
        """Every seat's space, by seat (Strangers included)."""
        position = self._game.position
        return tuple([position[s] for s in self._game.seats])

    def position(self, seat: int | None = None) -> str:
        """The space of ``seat``'s pawn (default: this view's seat)."""
        return self._game.position[self.seat if seat is None else seat]

    doctor: str = reads("doctor", """Doctor Lucky's space.""")

    @property
    def doctor_next(self) -> str:
        """Where Doctor Lucky steps when this turn ends (``I-DOC-1``)."""
        return self._game.board.next_on_path(self._game.doctor)

    cat: str = reads("cat", """The cat's space.""")

    @property
    def move(self) -> Mapping[int, int]:
        """Each seat's Move (``I-MOVE-1``; +1 per Hazard thrown, ``I-HAZ-5``; read-only)."""
        return MappingProxyType(self._game.move)

    @property
    def attack(self) -> Mapping[int, int]:
        """Each seat's Attack (``I-KILL-2``; +1 per foiled attempt, ``I-KILL-3``; read-only)."""
        return MappingProxyType(self._game.attack)

    pawns_at: Callable[..., list[int]] = reads("pawns_at", """pawns_at(space): the live seats whose
        pawns stand on ``space``.""")

    def scene(self) -> dict[str, Any]:
        """The board as a picture shows it: ``pawns`` (name -> space, by seat order),
        ``doctor``, ``cat``, ``strangers`` (their names) and ``cat_blocks``
        (:func:`luckylab.viz.draw.scene_of` reads it). All of it is public."""
        game = self._game
        names, position = game.names, game.position
        return {"pawns": {names[s]: position[s] for s in game.seats}, "doctor": game.doctor,
                "cat": game.cat, "strangers": [names[s] for s in game.strangers],
                "cat_blocks": game.cat_blocks}

    # -- cards -------------------------------------------------------------------------
    cards: tuple[Card, ...] = reads("cards", """The 72 cards, by id (public: what each card is).""")

    def card(self, card_id: int) -> Card:
        """The card with id ``card_id``."""
        return self._game.cards[card_id]

    @property
    def hand(self) -> tuple[int, ...]:
        """This seat's cards, in the order it got them (a Stranger holds none)."""
        if self.seat is None:
            raise self._hidden("'the hand' of the open table", "ask view.hand_of(seat)")
        return tuple(self._game.hands.get(self.seat, ()))

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s cards: this seat's own, or any seat's on the open table."""
        self._sees_hand(seat)
        return tuple(self._game.hands.get(seat, ()))

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds (public; 0 for a Stranger)."""
        return len(self._game.hands.get(seat, ()))

    def hand_luck(self, seat: int) -> int:
        """The Luck in ``seat``'s hand: this seat's own, or any seat's on the open table."""
        self._sees_hand(seat)
        return self._game.hand_luck(seat)

    def under(self, seat: int) -> tuple[int, ...]:
        """The cards under ``seat``'s character (face up: Weapons and Hazards used)."""
        return tuple(self._game.under[seat])

    @property
    def discards(self) -> tuple[int, ...]:
        """The discard pile, oldest first (face up)."""
        return tuple(self._game.discards)

    def unseen_cards(self) -> list[int]:
        """The cards this seat cannot see (the other hands and the deck), sorted by id; none
        on the open table."""
        return [] if self.seat is None else self._game.unseen_cards(self.seat)

    def card_places(self) -> dict[str, list[int]]:
        """Where every card is (``deck``, ``discards``, ``hand <seat>``, ``under <seat>``):
        the open table only."""
        if self.seat is not None:
            raise self._hidden("The place of every card (the deck's order, the other hands)",
                               "view.hand, view.discards, view.under(seat) and "
                               "view.hand_size(seat) say what it may know")
        return self._game.card_places()

    @property
    def deck_size(self) -> int:
        """Cards left in the deck (never reshuffled, ``I-SETUP-2``)."""
        return len(self._game.deck)

    mean_luck: float = reads("mean_luck", """The average Luck of a card in the whole deck (what an
        unseen card is worth).""")

    @property
    def foil(self) -> FoilState | None:
        """The foiling round under way (``I-FOIL-*``), as every seat sees it; else None."""
        round_ = self._game.foil
        return None if round_ is None else round_.state()

    penalty_value: int | None = reads("penalty_value", """The value of the Hazard whose penalty is
        being chosen (``I-HAZ-2``), else None.""")

    # -- the rules' answers --------------------------------------------------------------
    watchers: Callable[..., frozenset[int | str]] = reads("watchers", """watchers(seat): the pawns
        that see ``seat``: other live seats, and ``"doctor"`` (``I-SIGHT-*``).""")
    is_watched: Callable[..., bool] = reads("is_watched", """is_watched(seat, space=None,
        doctor=True): would ``seat``'s pawn on ``space`` (default: where it stands) be seen by
        another live pawn, or (``doctor=True``) by Doctor Lucky (``I-SIGHT-4``)? Nothing
        moves.""")
    can_draw: Callable[..., bool] = reads("can_draw", """can_draw(seat): ``I-DRAW-1``: nobody,
        Doctor Lucky included, sees ``seat``, and the deck is not empty.""")
    can_attack: Callable[..., bool] = reads("can_attack", """can_attack(seat): ``I-KILL-1``: on
        Doctor Lucky's space, no other pawn there, no other pawn sees ``seat``.""")
    attack_value: Callable[..., int] = reads("attack_value", """attack_value(seat, weapon=None):
        ``I-KILL-2``: ``seat``'s Attack plus at most one Weapon, worth its special value on
        ``seat``'s space.""")
    hazard_targets: Callable[..., list[int | str]] = reads("hazard_targets", """hazard_targets(
        card_id, thrower): whom Hazard ``card_id`` may hit now (``I-HAZ-1``): a pawn alone on
        a space of its kind (``"doctor"`` for Doctor Lucky).""")
    has_moves: Callable[..., bool] = reads("has_moves", """has_moves(seat): whether ``seat`` may
        make any Move now (``I-MOVE-1``).""")
    count_moves: Callable[..., int] = reads("count_moves", """count_moves(seat): how many different
        Moves ``seat`` may make now (with Strangers, thousands).""")
    nth_move: Callable[..., Move] = reads("nth_move", """nth_move(k, seat): the ``k``-th Move
        (from 0) ``seat`` may make, in the order ``legal_actions()`` lists them, built
        alone.""")

    # -- the foiling question (luckylab.analysis.luck.foil_question) ------------------------
    def known_cards(self) -> list[int]:
        """The cards this seat knows the place of: its hand, the discards and the cards under
        every character (face up)."""
        game = self._game
        known = [*self.hand, *game.discards]
        for seat in game.seats:
            known.extend(game.under[seat])
        return known

    def foil_hands(self, attacker: int) -> list[int]:
        """How many cards each seat asked to foil an attempt by ``attacker`` could pay from,
        in asking order (``I-FOIL-1``): a player's hand size; a Stranger turns up one card
        while the deck lasts (``I-STR-3``)."""
        game = self._game
        deck_left, sizes = len(game.deck), []
        for other in seats_from_left(game.order, attacker)[:-1]:
            if game._is_stranger[other]:
                sizes.append(1 if deck_left > 0 else 0)
                deck_left -= sizes[-1]
            else:
                sizes.append(len(game.hands[other]))
        return sizes

    attempt_value: Callable[..., int] = reads("attack_value", """attempt_value(seat, card=None):
        the value of an attempt ``seat`` would make now with ``card`` (a Weapon, or None), as
        :attr:`attack_value` says.""")


class IslandViews:
    """What a seat sees, as a part of :class:`~luckylab.games.island.IslandGame` (which
    inherits it): the protocol's ``observation``, ``determinize``, ``clone`` and ``view``."""

    hands: dict[int, list[int]]

    HIDDEN_ACTIONS: ClassVar[frozenset[type]] = frozenset({GiveCard})
    """The card a victim gives the thrower passes face down (I-HAZ rulings): only the two of
    them know it."""
    HIDDEN_EVENT_DATA: ClassVar[Mapping[str, frozenset[str]]] = MappingProxyType(
        {"penalty": frozenset({"card"})})

    def _shared_attributes(self) -> frozenset[str]:
        # Immutable or read-only tables: shared by clones instead of copied.
        return SHARED

    def view(self, seat: int | None = None) -> IslandView:
        """What ``seat`` may know, read live (:class:`IslandView`); ``view()`` is the open
        table."""
        if seat is not None and not (type(seat) is int and 0 <= seat < len(self.seats)):  # type: ignore[attr-defined]
            seat = self._check_seat(seat)  # type: ignore[attr-defined]  # raises: no such seat
        view = _new(IslandView)  # IslandView.of(self, seat), inlined: a bot asks at each decision
        _set_game(view, self)
        _set_seat(view, seat)
        return view

    def card_places(self) -> dict[str, list[int]]:
        """Where every card is: ``deck``, ``discards``, ``hand <seat>``, ``under <seat>``."""
        places = {"deck": list(self.deck), "discards": list(self.discards)}
        for s, hand in self.hands.items():
            places[f"hand {s}"] = list(hand)
        for s, cards in self.under.items():
            places[f"under {s}"] = list(cards)
        return places

    def unseen_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` cannot see (the other hands and the deck), sorted by id: nothing
        of where they really are shows. The cards under the characters and the discards are
        face up.

        >>> from luckylab import new_game
        >>> game = new_game("island", players=4, seed=1)
        >>> len(game.unseen_cards(0)) == len(game.cards) - len(game.hands[0])
        True
        """
        seat = self._check_seat(seat)
        unseen = self.deck.copy()  # every card is in one place (see the module docstring)
        for other, hand in self.hands.items():
            if other != seat:
                unseen += hand
        unseen.sort()
        return unseen

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now: the pawns, the cat, every Move and Attack, the cards
        under the characters, the discards, its own hand, how many cards the others hold, the
        foiling round or the Hazard penalty, and the attempts so far. (Luck held by others is
        not in it: the attempt log's ``table_luck`` is left out.)

        >>> from luckylab import new_game
        >>> game = new_game("island", players=4, seed=1)
        >>> obs = game.observation(0)
        >>> obs["hand"] == sorted(game.hands[0]), obs["hand_sizes"]
        (True, [6, 6, 6, 6])
        >>> print(obs.text.splitlines()[0])
        Turn 1: Janet Principle's turn (phase1); you are Seat 1, Janet Principle.
        """
        seat = self._check_seat(seat)
        round_ = self.foil
        foil = None if round_ is None else {
            "attacker": round_.attacker, "value": round_.value, "kind": round_.kind,
            "weapon": round_.weapon, "order": list(round_.order), "needed": round_.needed,
            "asked": [[s, list(cards)] for s, cards in round_.asked]}
        penalty = None if self._penalty is None else dict(
            zip(("victim", "thrower", "value"), self._penalty, strict=True))
        hands = self.hands
        data = {
            "turn": self.turn, "phase": self.phase, "active": self.active,
            "current_player": self.current_player, "strangers": list(self.strangers),
            "order": list(self.order), "eliminated": sorted(self.eliminated),
            "positions": [self.position[s] for s in self.seats], "doctor": self.doctor,
            "cat": self.cat, "jumps_on": self._jumps_on,
            "move": [self.move[s] for s in self.seats],
            "attack": [self.attack[s] for s in self.seats],
            "under": [list(self.under[s]) for s in self.seats],
            "hand": sorted(hands.get(seat, ())),
            "hand_sizes": [len(hands[s]) if s in hands else None for s in self.seats],
            "deck_size": len(self.deck), "discards": list(self.discards),
            "foil": foil, "penalty": penalty,
            "attempts": [{k: v for k, v in a.items() if k != "table_luck"}
                         for a in self.attempt_log],
            "finished": self.finished, "winner": self.winner, "loser": self.loser,
        }
        names = self.names
        if self.phase == "over":
            head = (f"The game is over: {names[self.winner]} won" if self.finished else
                    f"The game stopped unfinished after {self.turn} turns")
        else:
            head = f"Turn {self.turn}: {names[self.active]}'s turn ({self.phase})"
            if self._decider != self.active:
                head += f", {names[self._decider]} to answer"
        where = self._where
        lines = [f"{head}; you are Seat {seat + 1}, {names[seat]}.",
                 f"Doctor Lucky is on {where(self.doctor)}, the cat on {where(self.cat)}. "
                 + ", ".join(f"{names[s]} on {where(self.position[s])}" for s in self.order)
                 + ".",
                 "Your hand: " + (", ".join(str(self.cards[c]) for c in data["hand"])
                                  or "no cards") + ".",
                 "Cards held: " + ", ".join(f"{names[s]} {len(hands[s])}" for s in self.order
                                           if s in hands)
                 + f"; {len(self.deck)} in the deck, {len(self.discards)} discarded."]
        if round_ is not None:
            lines.append(f"{names[round_.attacker]}'s {round_.kind} attempt is worth "
                         f"{round_.value}: {max(round_.needed, 0)} Luck still needed.")
        if penalty is not None:
            lines.append(f"{names[penalty['victim']]} pays for a Hazard worth "
                         f"{penalty['value']}: a card to {names[penalty['thrower']]}, or Luck.")
        return Observation(seat, data, "\n".join(lines))

    def determinize(self, seat: int, rng: random.Random) -> Any:
        """A game ``seat`` cannot tell from this one: its hand, the discards and the cards
        under the characters stay; every other card (:meth:`unseen_cards`) is shuffled with
        ``rng`` and dealt anew, each other hand keeping its size and the deck its length; the
        game's own generator is reseeded from ``rng``. (A card ``seat`` saw change hands, a
        penalty's or a Stranger's, is dealt anew too: the seat's memory is not kept.) The new
        game's history and events start empty; the original is untouched.

        >>> from luckylab import new_game
        >>> game = new_game("island", players=2, seed=4)
        >>> world = game.determinize(0, random.Random(5))
        >>> world.hands[0] == game.hands[0], len(world.hands[2]) == len(game.hands[2])
        (True, True)
        >>> sorted(world.deck + world.hands[2]) == game.unseen_cards(0)
        True
        """
        pool = self.unseen_cards(seat)
        world = self._made_up_copy()
        dealt, world.deck = deal_anew(pool, [(s, len(self.hands[s])) for s in sorted(world.hands)
                                             if s != seat], rng)
        for other, hand in dealt.items():
            world.hands[other] = hand
        world.rng = random.Random(rng.getrandbits(64))
        world._held = sum(map(world.hand_luck, world.hands))
        return world

    def _made_up_copy(self) -> Any:
        """The copy :meth:`determinize` deals into: ``light_copy(self, SHARED, logs=False)``
        without the generator, and without a look at the type of every attribute: what play
        changes in place is named (:data:`CHANGING`, the hands, the cards under the characters
        and a foiling round), the rest is immutable or the board's read-only tables."""
        world = object.__new__(type(self))
        state = world.__dict__
        state.update(self.__dict__)  # shared, then the changing parts replaced by copies
        for name in CHANGING:
            state[name] = state[name].copy()
        state["hands"] = {s: hand.copy() for s, hand in self.hands.items()}
        state["under"] = {s: cards.copy() for s, cards in self.under.items()}
        if self.foil is not None:
            state["foil"] = light_copy(self.foil, frozenset())
        state["history"], state["events"] = [], []  # a made-up world has no past to replay
        del state["rng"]  # determinize seeds a new one
        return world

    def clone(self) -> Any:
        """An independent copy, events and history included (cheap: the board's tables are
        shared, the state is copied as deep as the rules change it)."""
        return light_copy(self, SHARED)


CHANGING = ("order", "_left", "eliminated", "deck", "discards", "move", "attack", "position",
             "options", "attempt_log", "table_luck_by_turn", "_had_turn", "_pending")
"""The state that play changes in place, each a list, dict or set of immutable values (the
attempts are dicts that are never changed): what :meth:`IslandViews._made_up_copy` copies
besides the hands, the cards under the characters and a foiling round (a test checks that it
copies what ``light_copy`` would)."""



SHARED = frozenset({"board", "cards", "names", "_sight", "_labels", "_buildings", "_luck",
                     "_next_on_path", "_upstream", "_kinds", "_cat_moves", "_lone_moves", "seats",
                     "strangers", "_is_stranger"})
