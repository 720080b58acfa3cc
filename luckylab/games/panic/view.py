"""What a seat of Panic Island! sees: its observation, a world it cannot tell from the real one
(for search), and :class:`PanicView`, the typed view that bots, widgets and analyses read.

Panic Island! hides the same from everybody: a face-down card is hidden from every seat, and a
card turned face up is seen by all (a memory game: what was seen, and where, is public). The
game class (``rules.py``) inherits :class:`PanicViews`, which holds the protocol's
``observation(seat)``, ``determinize(seat, rng)``, ``clone()`` and ``view(seat)``.

>>> from luckylab import new_game
>>> game = new_game("panic", players=2, seed=3)
>>> view = game.view(0)
>>> view.volcano, view.phase, view.time_left, len(view.revealable())
('r3c3', 'turn', 120.0, 25)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from ...boards.board import Board
from ..copying import light_copy
from ..protocol import Observation, SeatView
from .data import PanicCard, band

__all__ = ["PanicView", "PanicViews"]


class PanicView(SeatView):
    """What seat ``seat`` of a Panic Island! game may know, read live (``game.view(seat)``),
    and the rules' answers about it; ``game.view()`` is the open table (every card shown).

    The table is public and the same for every seat (nobody holds a hand; the team is one):
    the grid, the volcano's place, which places are empty, face up or covered by a Landslide,
    the cards face up now and those of the last turn, the saved and found cards, the clock,
    Gouga and the score. A face-down card is hidden from every seat: ``card_at`` raises
    :class:`~luckylab.errors.HiddenInformation` for it (the events say what was turned up,
    and a player remembers it or not: that is the game). On the open table it shows the truth.

    >>> from luckylab import new_game
    >>> from luckylab.games.panic import Reveal
    >>> game = new_game("panic", players=2, seed=9)
    >>> _ = game.apply(Reveal("r1c1"))
    >>> view = game.view(game.current_player)
    >>> view.phase, view.revealed, view.card_at("r1c1").name
    ('second', ('r1c1',), 'red dodo')
    >>> view.card_at("r1c2")
    Traceback (most recent call last):
    luckylab.errors.HiddenInformation: the card on r1c2 is hidden from Seat 1; it lies face down
    >>> game.view().card_at("r1c2").name
    'red native'
    """

    __slots__ = ()

    # -- the course of the game --------------------------------------------------------
    @property
    def phase(self) -> str | None:
        """``"turn"``, ``"second"`` (the turn's second card), ``"gouga"``, ``"place"``, or
        None once the game is over."""
        return self._game.phase

    @property
    def turn(self) -> int:
        """Turns (and Gouga calls) finished so far."""
        return self._game.turn

    @property
    def end(self) -> str | None:
        """How the game ended: ``"volcano"``, ``"time"``, ``"tsunami"``, ``"complete"``,
        ``"stuck"``; None before the end."""
        return self._game.end

    @property
    def score(self) -> int:
        """Saved natives, dodos and eggs (``P-END-1``, 0..16)."""
        return self._game.score

    @property
    def won(self) -> bool:
        """Over, with the raft and paddle found and nothing lost (``P-END-1``)."""
        return self._game.won

    # -- the clock (P-TIME-1) ----------------------------------------------------------
    @property
    def time_left(self) -> float:
        """Seconds left of the budget (``clock="external"``: the budget, never spent)."""
        return self._game.time_left

    @property
    def budget(self) -> float:
        """The hourglass: the seconds the game starts with (``P-TIME-1``)."""
        return self._game.costs["budget"]

    @property
    def clock(self) -> str:
        """``"budget"`` (acts spend seconds) or ``"external"`` (a real hourglass)."""
        return self._game.clock

    # -- Gouga (P-GOUGA-1) and the variants --------------------------------------------
    @property
    def gouga(self) -> str:
        """``"asleep"``, ``"awake"`` or ``"gone"`` (``P-GOUGA-1``)."""
        return self._game.gouga

    @property
    def gouga_saves(self) -> int:
        """Cards Gouga has saved."""
        return self._game.gouga_saves

    @property
    def tired_gouga(self) -> bool:
        """Whether the variant "tired Gouga" is played (five saves after the wake at most)."""
        return self._game.tired_gouga

    @property
    def paddle_and_raft(self) -> bool:
        """Whether the variant "paddle and raft" is played (both found in one turn,
        ``P-SAVE-2``)."""
        return self._game.paddle_and_raft

    # -- the island --------------------------------------------------------------------
    @property
    def board(self) -> Board:
        """The grid (places ``r1c1`` .. ``r5c5``)."""
        return self._game.board

    @property
    def cards(self) -> tuple[PanicCard, ...]:
        """Every card of the game by id (which card an id is, everybody knows)."""
        return self._game.cards

    def card(self, card_id: int) -> PanicCard:
        """The card with id ``card_id``."""
        return self._game.cards[card_id]

    @property
    def volcano(self) -> str:
        """The volcano's place, known to all (``P-SETUP-2``)."""
        return self._game.volcano

    @property
    def face_up(self) -> frozenset[str]:
        """The places whose card lies face up now (this turn's, and continuous obstacles)."""
        return frozenset(self._game.face_up)

    @property
    def revealed(self) -> tuple[str, ...]:
        """This turn's face-up places, in the order they were turned."""
        return tuple(self._game.revealed)

    @property
    def first_up(self) -> PanicCard | None:
        """The card turned first this turn, face up while the second is chosen (None before
        the turn's first reveal, ``P-TURN-1``)."""
        game = self._game
        revealed = game.revealed
        return game.cards[game.island[revealed[0]]] if revealed else None

    @property
    def covered(self) -> Mapping[str, int]:
        """place -> the id of the Landslide burying the card there (``P-OBS-3``; read-only)."""
        return MappingProxyType(self._game.covered)

    @property
    def last_seen(self) -> tuple[tuple[str, int], ...]:
        """``(place, card id)`` of the cards of the last finished turn that lie face down where
        they were seen (everyone saw them; look quickly!)."""
        island = self._game.island
        return tuple((p, c) for p, c in self._game.last_seen if island.get(p) == c)

    @property
    def in_hand(self) -> tuple[tuple[str, int], ...]:
        """``(why, card id)`` of the cards waiting to be put back on an empty place."""
        return tuple(self._game.in_hand)

    @property
    def saved(self) -> tuple[int, ...]:
        """The saved cards' ids, in the order saved (``P-SAVE-1``)."""
        return tuple(self._game.saved)

    @property
    def found(self) -> tuple[int, ...]:
        """The raft's and the paddle's ids once found (``P-SAVE-2``)."""
        return tuple(self._game.found)

    @property
    def continuous(self) -> tuple[int, ...]:
        """The continuous obstacles in force (``P-OBS-3``)."""
        return tuple(self._game.continuous)

    @property
    def rainbow(self) -> bool:
        """Whether a Rainbow is in force (``P-OBS-3``: colours swap for saving)."""
        return self._game.rainbow

    def empty_places(self) -> list[str]:
        """Places whose card has left the island (a new list)."""
        return self._game.empty_places()

    def revealable(self) -> list[str]:
        """Places whose card may be turned now: face down, not covered, the volcano's
        included (a new list)."""
        return self._game.revealable()

    def unsaved_counts(self) -> dict[str, int]:
        """How many natives, dodos and eggs are not saved yet (a new dict)."""
        return self._game.unsaved_counts()

    def can_wake_gouga(self) -> bool:
        """Whether the team may still wake Gouga (``P-GOUGA-1``: once per game, at the start
        of a turn)."""
        return self._game.can_wake_gouga()

    def can_save(self, saver: PanicCard, saved: PanicCard) -> bool:
        """Whether ``saver`` saves ``saved`` now (``P-SAVE-1``; a Rainbow crosses colours)."""
        return self._game.can_save(saver, saved)

    def card_at(self, place: str) -> PanicCard | None:
        """The card on ``place`` (None for an empty place), when this view may see it: face
        up, the volcano (``P-SETUP-2``), or buried by a Landslide (it was face up when the
        Landslide fell on it). Any other face-down card is hidden from every seat; the open
        table shows it."""
        game = self._game
        island = game.island
        if place not in island:
            game.board.check(place)  # raises UnknownSpace, naming the places
        card = island[place]
        if (card is None or self.seat is None or place in game.face_up
                or place in game.covered or place == game.volcano):
            return None if card is None else game.cards[card]
        raise self._hidden(f"the card on {place}", "it lies face down")


class PanicViews:
    """What a seat sees of a Panic Island! game (a mixin of ``PanicGame``): the protocol's
    observation, determinize, clone and view."""

    hidden_information: ClassVar[bool] = False
    """What lies face down is hidden from every seat alike, and whatever is turned up is seen by
    all: no seat knows what another does not (the conformance check that dealing anew what one
    seat cannot see changes what another sees does not apply)."""

    board: Any
    cards: tuple[PanicCard, ...]
    island: dict[str, int | None]
    history: list[Any]
    players: int
    volcano: str
    rng: random.Random

    def view(self, seat: int | None = None) -> PanicView:
        """What ``seat`` may know (:class:`PanicView`); ``view()`` is the open table."""
        if seat is not None and not (type(seat) is int and 0 <= seat < self.players):
            seat = self._check_seat(seat)  # raises, or makes a whole number an int
        return PanicView.of(self, seat)

    def _shared_attributes(self) -> frozenset[str]:
        return frozenset({"board", "cards"})

    def clone(self) -> Any:
        """An independent copy, events and history included (cheap: the board and the cards
        are shared, the state is copied as deep as the rules change it)."""
        return light_copy(self, self._shared_attributes())

    def _public_places(self) -> set[str]:
        """Places whose card everyone knows now: the volcano's, and every place a card was
        turned up on or put down on (a card moves only where everyone sees it move: a Mirage
        swaps two face-up cards, a Totem pole or Landslide card is put down by the players)."""
        places = {self.volcano}
        for action in self.history:
            place = getattr(action, "place", None)
            if place is not None:
                places.add(place)
        return places

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know: everything face up, and every face-down card that was seen
        where it lies (a memory game: what was revealed, and where, is public), but never a
        face-down card nobody has seen. The same for every seat (only ``seat`` differs).

        ``data``: ``cards`` (place -> card id, for every card whose place is known: face up,
        seen, covered or the volcano), ``face_down`` (places with a face-down card, known or
        not), ``face_up``, ``empty`` and ``covered`` (place -> Landslide), the turn's
        ``revealed`` places, ``in_hand`` ([why, card] waiting for a Place), ``saved``,
        ``found``, ``continuous``, and the clock, turn, phase, Gouga and score.

        >>> from luckylab.games.panic import PanicGame, Reveal
        >>> game = PanicGame(players=2, seed=3)
        >>> _ = game.apply(Reveal("r1c1"))
        >>> obs = game.observation(1)
        >>> obs["cards"], len(obs["face_down"]), obs["phase"]
        ({'r1c1': 7, 'r3c3': 0}, 24, 'second')
        """
        seat = self._check_seat(seat)
        public = self._public_places()
        cards: dict[str, int] = {}
        face_down: list[str] = []
        empty: list[str] = []
        for place, card in self.island.items():
            if card is None:
                empty.append(place)
                continue
            if place not in self.face_up:
                face_down.append(place)
            if place in public:
                cards[place] = card
        data = {
            "players": self.players, "current_player": self.current_player,
            "turn": self.turn, "phase": self.phase, "time_left": self.time_left,
            "clock": self.clock, "volcano": self.volcano, "cards": cards,
            "face_down": face_down, "face_up": [p for p in self.island if p in self.face_up],
            "empty": empty, "covered": dict(self.covered), "revealed": list(self.revealed),
            "in_hand": [[why, card] for why, card in self.in_hand],
            "saved": list(self.saved), "found": list(self.found),
            "continuous": list(self.continuous), "seat_shift": self.seat_shift,
            "gouga": self.gouga, "gouga_saves": self.gouga_saves,
            "saves_after_wake": self.saves_after_wake, "score": self.score,
            "end": self.end, "won": self.won if self.end is not None else None,
        }
        return Observation(seat, data, self._observation_text(seat, cards))

    def _observation_text(self, seat: int, cards: Mapping[str, int]) -> str:
        if self.end is not None:
            head = (f"Over ({self.end}): score {self.score} ({band(self.score)}), "
                    f"{'won' if self.won else 'lost'}.")
        else:
            head = (f"Turn {self.turn + 1}: P{self.current_player + 1} to play; "
                    f"{self.time_left:g} s left; score {self.score}; Gouga {self.gouga}.")
        found = ", ".join(self.cards[c].name for c in self.found) or "nothing yet"
        lines = [f"You are P{seat + 1}. {head}", f"Found: {found}. In hand: "
                 + (", ".join(self.cards[c].name for _, c in self.in_hand) or "nothing") + "."]
        nodes = self.board.graph.nodes
        rows: dict[int, list[str]] = {}
        for place, card in self.island.items():
            if card is None:
                code = "--"
            elif place in cards:
                code = _short(self.cards[card])
            else:
                code = "??"
            if place in self.face_up or place in self.covered:
                code = f"[{code}]"
            rows.setdefault(nodes[place]["row"], []).append(f"{code:^4}")
        lines += [(f"r{r:<2} " + " ".join(row)).rstrip() for r, row in sorted(rows.items())]
        lines.append("?? never seen, -- empty, [..] face up; rN red native, yD yellow dodo, "
                     "rE red egg, VO volcano, RF raft, PD paddle, obstacles by their first "
                     "letters.")
        return "\n".join(lines)

    def determinize(self, seat: int, rng: Any) -> Any:
        """A game ``seat`` cannot tell from this one: the face-down cards nobody has seen are
        dealt anew among their places (uniformly, with ``rng``; what was seen stays where it
        was seen) and the game's own generator is reseeded from ``rng``. This game is left as
        it was.

        >>> from luckylab.games.panic import PanicGame
        >>> game = PanicGame(players=2, seed=3)
        >>> world = game.determinize(0, random.Random(1))
        >>> world.observation(0) == game.observation(0), world.island == game.island
        (True, False)
        """
        self._check_seat(seat)
        world = self.clone()
        public = self._public_places()
        hidden = [p for p, c in self.island.items() if c is not None and p not in public]
        cards = sorted(self.island[p] for p in hidden)  # type: ignore[type-var]  # sorted:
        rng.shuffle(cards)  # two games that look the same to seat deal the same world
        world.island.update(zip(hidden, cards, strict=True))
        world.rng = random.Random(rng.getrandbits(64))
        return world

    def locations(self) -> dict[int, str]:
        """Where each of the 25 cards is (the truth, for tests and teachers): a place,
        "covering <place>", "saved", "found" or "in hand" (waiting for a Place). Every card
        appears exactly once."""
        where: dict[int, str] = {}
        for place, card in self.island.items():
            if card is not None:
                where[card] = place
        for place, card in self.covered.items():
            where[card] = f"covering {place}"
        for card in self.saved:
            where[card] = "saved"
        for card in self.found:
            where[card] = "found"
        for _, card in self.in_hand:
            where[card] = "in hand"
        return where


def _short(card: PanicCard) -> str:
    """Two letters for a card in the observation's text."""
    if card.colour is not None:
        return card.colour[0] + card.kind[0].upper()
    if card.obstacle is not None:
        return card.obstacle.name[:2]
    return {"volcano": "VO", "raft": "RF", "paddle": "PD"}.get(card.kind, card.kind[:2])
