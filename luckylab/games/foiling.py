"""The foiling round ("can anyone save him?"), one implementation for Island, Kill and Save.

An attempt (a murder, a Hazard thrown at Doctor Lucky, a rescue) has a value. The other seats
are asked once each, starting at the attacker's left (:func:`asking_order`); each may pay cards
that count, worth their value. The attempt is stopped (*foiled*) as soon as the paid total
reaches its value, and later seats are not asked. If nobody stops it, the attacker wins; the
*loser* is then the last seat asked that held enough to cover what was still needed and did not
(a seat that pays some but too little, while holding enough, counts as having passed).

What differs between the games is a small :class:`FoilRules` object, built once per game:

=========================  ====================================================================
which cards count          ``values``: by card id, a card's value, ``None`` if it cannot be paid
                           (Island: every card, its Luck, ``I-FOIL-1``; Kill and Save: Failure
                           cards, their points, ``K-FAIL-1``, ``S-FAIL-1``)
which copies are listed    ``rank``: among cards of equal value, which are offered first
when a payment is refused  ``stop_at_card``: no card past the one that reaches the value (Save's
                           ruling on ``S-FAIL-1``); ``last_must_stop``: the last seat asked may not
                           let it through while holding enough (``S-FAIL-3``)
who loses                  ``names_loser`` (``I-FOIL-3``, ``S-FAIL-2``; Kill names nobody)
=========================  ====================================================================

Who is asked and in which order is :func:`asking_order` (a game with automatic payers, the
Island's Strangers, lets them pay with :meth:`FoilRound.record` as their turn comes). What a
foiled or a successful attempt does next (Attack grows, the turn ends, the game is won) is each
game's own rule and stays in its engine, which reads :attr:`FoilRound.foiled` and
:attr:`FoilRound.loser` when :attr:`FoilRound.next_seat` is ``None``.

**One payment per combination of values.** Cards of equal value pay the same, so
:meth:`FoilRules.payments` lists one payment per distinct multiset of positive values the hand
can pay (passing first), never every subset of the hand: a hand of ``n`` cards with ``k``
distinct values gives at most ``(n / k + 1) ** k`` payments, not ``2 ** n``. The order is fixed:
counts of the lowest value vary slowest (``itertools.product`` over the values, ascending). A
payment is made of the first cards of each value by ``rank`` (lowest card id by default), and
its ``cards`` are sorted by id. Cards worth 0 are never listed: they pay nothing.

**Listed and allowed.** ``apply`` accepts any payment the rules allow (:meth:`FoilRules.problem`
says which are not), not only the listed one: another copy of a card of the same value, and
(Island) a card worth 0 Luck, are accepted as before.

>>> from collections import namedtuple
>>> Pay = namedtuple("Pay", "cards")                         # a game's Foil action
>>> rules = FoilRules(values=(1, 1, 2, None), action=Pay)     # card 3 cannot be paid
>>> round_ = FoilRound(attacker=0, value=2, order=asking_order([0, 1, 2], 0))
>>> round_.order, round_.next_seat
([1, 2], 1)
>>> [p.cards for p in rules.payments([0, 1, 2, 3], round_)]
[(), (2,), (0,), (0, 2), (0, 1), (0, 1, 2)]
>>> rules.pay(round_, 1, (), hand=[0, 1, 2, 3])              # seat 1 passes, holding 4
0
>>> rules.pay(round_, 2, (), hand=[])
0
>>> round_.next_seat is None, round_.foiled, round_.loser
(True, False, 1)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalAction

__all__ = ["FoilRound", "FoilRules", "FoilState", "asking_order"]

_CACHE_SIZE = 4096  # listings remembered per rules object (long runs stay small)
_SHAPES = 100_000  # listings by values and copies: few and small, so many are remembered


def asking_order(seats: Sequence[int], attacker: int) -> list[int]:
    """Who is asked (``I-FOIL-1``, ``K-FAIL-1``, ``S-FAIL-1``): every other seat of ``seats``
    (the live seats in playing order), once, starting at the attacker's left.

    >>> asking_order([0, 1, 2, 3], 2)
    [3, 0, 1]
    """
    i = list(seats).index(attacker)
    return [*seats[i + 1:], *seats[:i]]


@dataclass
class FoilRound:
    """A foiling round in progress: the attempt, who is asked, what has been paid so far.

    ``attacker`` made an attempt of ``value`` (``kind``: ``"murder"``, ``"hazard"`` or
    ``"rescue"``; ``weapon`` the card used, if any); ``order`` are the seats asked, in order;
    ``asked`` holds ``(seat, cards paid)`` for every seat asked so far; ``paid`` is the total
    value paid; ``loser`` the last seat that could have stopped it and did not (so far).
    ``stop`` is what stops it: the attempt's value by the book (``I-FOIL-2``, ``K-FAIL-1``,
    ``S-FAIL-1``: the paid total *reaches* the value); a house rule may ask for more (a game
    sets it from its own ``foil_threshold``). Games that need more about an attempt subclass
    it (Save's ``RescueAttempt``).

    >>> FoilRound(attacker=0, value=3, order=[1]).needed
    3
    >>> FoilRound(attacker=0, value=3, order=[1], stop=4).needed   # "strictly more Luck"
    4
    """

    attacker: int
    value: int
    order: list[int]
    kind: str = "murder"
    weapon: int | None = None
    paid: int = 0
    asked: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    loser: int | None = None
    stop: int = -1  # -1: the value (set in __post_init__)

    def __post_init__(self) -> None:
        if self.stop == -1:
            self.stop = self.value

    @property
    def needed(self) -> int:
        """The value still missing to stop the attempt (0 once it is stopped)."""
        return max(self.stop - self.paid, 0)

    @property
    def total(self) -> int:
        """The value paid so far (Kill's name for :attr:`paid`)."""
        return self.paid

    @property
    def foiled(self) -> bool:
        """Whether the paid total has reached what stops the attempt (``I-FOIL-2``)."""
        return self.paid >= self.stop

    @property
    def next_seat(self) -> int | None:
        """The seat asked now; ``None`` when the round is over (stopped, or everyone asked)."""
        if self.paid >= self.stop or len(self.asked) >= len(self.order):
            return None
        return self.order[len(self.asked)]

    @property
    def is_last_asked(self) -> bool:
        """Whether the seat asked now is the last one in the order."""
        return len(self.asked) == len(self.order) - 1

    def state(self) -> FoilState:
        """What every seat sees of the round now (a read-only copy; the loser so far is left
        out: it tells who held enough)."""
        return FoilState(self.attacker, self.value, self.kind, self.weapon, tuple(self.order),
                         tuple(self.asked), self.paid, self.stop)

    def record(self, seat: int, cards: Iterable[int], points: int, held: int = 0) -> None:
        """``seat`` pays ``cards`` worth ``points`` while holding ``held`` in all. The last seat
        that held enough to cover what was still needed and paid less is the loser so far
        (``I-FOIL-3``, ``S-FAIL-2``); an automatic payer (``held=0``) never is."""
        if points < self.stop - self.paid <= held:
            self.loser = seat
        self.paid += points
        self.asked.append((seat, tuple(cards)))


@dataclass(frozen=True)
class FoilState:
    """A foiling round as every seat sees it (:meth:`FoilRound.state`): the attempt, who is
    asked in which order, what each paid so far. Read by bots and widgets through a game's
    view; changing it changes nothing in the game.

    >>> FoilRound(attacker=0, value=3, order=[1, 2], paid=1, asked=[(1, (7,))]).state().later
    ()
    >>> FoilRound(attacker=0, value=3, order=[1, 2, 3]).state().later
    (2, 3)
    """

    attacker: int
    value: int
    kind: str
    weapon: int | None
    order: tuple[int, ...]
    asked: tuple[tuple[int, tuple[int, ...]], ...]
    paid: int
    stop: int

    @property
    def needed(self) -> int:
        """The value still missing to stop the attempt (0 once it is stopped)."""
        return max(self.stop - self.paid, 0)

    @property
    def asking(self) -> int | None:
        """The seat asked now; ``None`` when the round is over."""
        if self.paid >= self.stop or len(self.asked) >= len(self.order):
            return None
        return self.order[len(self.asked)]

    @property
    def later(self) -> tuple[int, ...]:
        """The seats still to be asked after the one asked now."""
        return self.order[len(self.asked) + 1:]

    @property
    def is_last_asked(self) -> bool:
        """Whether the seat asked now is the last one in the order."""
        return len(self.asked) == len(self.order) - 1


class FoilRules:
    """One game's foiling rules: which cards count and their value, which payments are
    refused, who loses, and how payments are listed (see the module's docstring).

    Parameters
    ----------
    values
        By card id: the value of a card that may be paid, ``None`` for a card that may not.
    action
        The game's ``Foil`` action class, built as ``action(cards)``.
    rank
        By card id: the order in which cards of equal value are offered (lowest first);
        ``None``: lowest card id first.
    stop_at_card
        A payment may not hold a card past the one that stops the attempt: its total less its
        largest card must fall short of what is needed.
    last_must_stop
        The last seat asked may not let the attempt through while holding enough.
    names_loser
        Whether :meth:`pay` records the loser.
    names, counts, unit
        For messages: by card id, a card's name; what a card that counts is ("a Failure card;
        only Failure cards ..."); what a value is called ("Luck", "Failure point(s)").

    A rules object never changes once built and only remembers listings, so every game and
    every clone shares it (``copy.deepcopy`` returns it unchanged).
    """

    def __init__(self, values: Sequence[int | None], action: Callable[[tuple[int, ...]], Any], *,
                 rank: Sequence[int] | None = None, stop_at_card: bool = False,
                 last_must_stop: bool = False, names_loser: bool = True,
                 names: Sequence[str] | None = None, counts: str = "",
                 unit: str = "point(s)") -> None:
        self.values = tuple(values)
        self.action = action
        self.rank = None if rank is None else tuple(rank)
        self.stop_at_card = stop_at_card
        self.last_must_stop = last_must_stop
        self.names_loser = names_loser
        self.names = None if names is None else tuple(names)
        self.counts = counts
        self.unit = unit
        # (cards, need, must stop) -> the listed payments
        self._listed: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        # ((value, copies) per value, need, must stop) -> the counts of each value, in order
        self._counts: dict[tuple[Any, ...], tuple[tuple[int, ...], ...]] = {}
        # (shape, needed) -> place of the cheapest stopping payment in the listing, or None
        self._cheapest: dict[tuple[Any, ...], int | None] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> FoilRules:
        return self  # read-only: shared by clones

    def __repr__(self) -> str:
        flags = [name for name in ("stop_at_card", "last_must_stop", "names_loser")
                 if getattr(self, name)]
        return f"<FoilRules {len(self.values)} cards{''.join(', ' + f for f in flags)}>"

    # -- what a hand holds -------------------------------------------------------------------
    def worth(self, cards: Iterable[int]) -> int:
        """The value of ``cards`` (all of which count)."""
        values = self.values
        return sum([values[c] for c in cards])

    def held(self, hand: Iterable[int]) -> int:
        """The value of every card in ``hand`` that counts."""
        values = self.values
        return sum([v for v in map(values.__getitem__, hand) if v])

    def must_stop(self, hand: Iterable[int], round_: FoilRound) -> bool:
        """Whether the seat asked now, holding ``hand``, must stop the attempt (``S-FAIL-3``):
        with ``last_must_stop``, the last seat asked holding enough."""
        return (self.last_must_stop and round_.is_last_asked
                and self.held(hand) >= round_.needed)

    # -- the listing -------------------------------------------------------------------------
    def _key(self, hand: Iterable[int], round_: FoilRound) -> tuple[Any, ...]:
        """A hand's listing key: its positive-valued cards in offering order, the need the
        listing depends on (0 when it does not), and whether it must stop the attempt."""
        values = self.values
        cards = [c for c in hand if values[c]]
        if self.rank is None:
            cards.sort()
        else:
            cards.sort(key=self.rank.__getitem__)
        needed = round_.needed
        stop = (self.last_must_stop and round_.is_last_asked
                and sum([values[c] for c in cards]) >= needed)
        return (tuple(cards), needed if self.stop_at_card or stop else 0, stop)

    def payments(self, hand: Iterable[int], round_: FoilRound) -> tuple[Any, ...]:
        """The payments listed for the seat asked now, holding ``hand``: one per combination of
        values the rules allow (passing first, unless it must stop the attempt).

        >>> from collections import namedtuple
        >>> Pay = namedtuple("Pay", "cards")
        >>> rules = FoilRules(values=(1, 1, 1, 3), action=Pay, stop_at_card=True)
        >>> round_ = FoilRound(attacker=0, value=2, order=[1])
        >>> [p.cards for p in rules.payments([3, 2, 1, 0], round_)]
        [(), (3,), (0,), (0, 3), (0, 1)]
        """
        key = self._key(hand, round_)
        found = self._listed.get(key)
        if found is None:
            found = self._list(*key)
            if len(self._listed) >= _CACHE_SIZE:
                self._listed.clear()
            self._listed[key] = found
        return found

    def _list(self, cards: tuple[int, ...], need: int, stop: bool) -> tuple[Any, ...]:
        piles, shape = self._piles(cards, need, stop)
        return tuple([self._build(piles, vector) for vector in self._vectors(shape)])

    def _piles(self, cards: tuple[int, ...], need: int, stop: bool
               ) -> tuple[list[list[int]], tuple[Any, ...]]:
        """``cards`` (in offering order) by value, ascending, and the listing's shape: the
        ``(value, copies)`` of each value, the need, whether it must stop the attempt."""
        values = self.values
        groups: dict[int, list[int]] = {}
        for c in cards:
            groups.setdefault(values[c], []).append(c)
        ordered = sorted(groups)
        return ([groups[v] for v in ordered],
                (tuple([(v, len(groups[v])) for v in ordered]), need, stop))

    def _vectors(self, shape: tuple[Any, ...]) -> tuple[tuple[int, ...], ...]:
        """How many cards of each value each listed payment holds, in listing order."""
        counts = self._counts.get(shape)
        if counts is None:
            counts = tuple(self._count_vectors(*shape))
            if len(self._counts) >= _SHAPES:
                self._counts.clear()
            self._counts[shape] = counts
        return counts

    def _build(self, piles: list[list[int]], vector: tuple[int, ...]) -> Any:
        """The payment of ``vector[i]`` cards of the ``i``-th value: the first of each pile,
        sorted by id."""
        chosen: list[int] = []
        for pile, k in zip(piles, vector, strict=True):
            if k:
                chosen += pile[:k]
        chosen.sort()
        return self.action(tuple(chosen))

    def _count_vectors(self, shape: tuple[tuple[int, int], ...], need: int,
                       stop: bool) -> Iterable[tuple[int, ...]]:
        """How many cards of each value (ascending) a listed payment holds."""
        if self.stop_at_card:  # fewer than need / v + 1 cards worth v can be useful
            most = [min(n, (need - 1) // v + 1) for v, n in shape]
        else:
            most = [n for _, n in shape]
        for vector in itertools.product(*(range(k + 1) for k in most)):
            if self.stop_at_card or stop:
                total = biggest = 0
                for (v, _), k in zip(shape, vector, strict=True):
                    if k:
                        total += v * k
                        biggest = v
                if self.stop_at_card and total and total - biggest >= need:
                    continue  # a card past the one that stops it
                if stop and total < need:
                    continue  # the last seat asked must stop it
            yield vector

    def cheapest(self, hand: Iterable[int], round_: FoilRound) -> Any | None:
        """The listed payment that stops the attempt with the lowest value, then the fewest
        cards (the first such in :meth:`payments`), or None when ``hand`` cannot stop it.

        >>> from collections import namedtuple
        >>> Pay = namedtuple("Pay", "cards")
        >>> rules = FoilRules(values=(1, 1, 3), action=Pay)
        >>> rules.cheapest([0, 1, 2], FoilRound(attacker=0, value=2, order=[1])).cards
        (0, 1)
        """
        needed = round_.needed
        if self.held(hand) < needed:
            return None
        piles, shape = self._piles(*self._key(hand, round_))
        at = self._cheapest.get((shape, needed), -1)
        if at == -1:  # first time for these values and need: weigh every listed payment
            at = best = None
            for i, vector in enumerate(self._vectors(shape)):
                cost = (sum([v * k for (v, _), k in zip(shape[0], vector, strict=True)]),
                        sum(vector))
                if cost[0] >= needed and (best is None or cost < best):
                    at, best = i, cost
            if len(self._cheapest) >= _SHAPES:
                self._cheapest.clear()
            self._cheapest[(shape, needed)] = at
        return None if at is None else self._build(piles, self._vectors(shape)[at])

    # -- checking and paying -----------------------------------------------------------------
    def problem(self, hand: Sequence[int], cards: Sequence[int], round_: FoilRound,
                who: str = "your") -> str | None:
        """Why the seat asked now (``who``, as in "Player 2's"), holding ``hand``, may not pay
        ``cards``; None if it may."""
        if len(set(cards)) != len(cards):
            return "a card is listed twice"
        values = self.values
        for c in cards:
            if c not in hand:
                return f"card {c} is not in {who} hand"
            if values[c] is None:
                name = f" ({self.names[c]})" if self.names is not None else ""
                return f"card {c}{name} is not {self.counts or 'a card that counts'}"
        needed = round_.needed
        if self.stop_at_card and cards:
            points = [values[c] for c in cards]
            if sum(points) - max(points) >= needed:
                return (f"only {needed} {self.unit} were needed: the attempt is stopped before "
                        "your last card, so play fewer cards (S-FAIL-1)")
        if self.last_must_stop and round_.is_last_asked and self.worth(cards) < needed:
            held = self.held(hand)
            if held >= needed:
                return (f"you are the last player asked and hold {held} {self.unit}: you must "
                        f"stop an attempt needing {needed} (S-FAIL-3)")
        return None

    def check(self, hand: Sequence[int], cards: Sequence[int], round_: FoilRound,
              who: str = "your") -> None:
        """Raise :class:`~luckylab.errors.IllegalAction` (with the listed payments, when there
        are at most 8) if the seat asked may not pay ``cards``."""
        problem = self.problem(hand, cards, round_, who)
        if problem is not None:
            listed = self.payments(hand, round_)
            raise IllegalAction(problem, list(listed) if len(listed) <= 8 else None)

    def pay(self, round_: FoilRound, seat: int, cards: Sequence[int], hand: Iterable[int]) -> int:
        """Record that ``seat`` (holding ``hand`` before paying) pays ``cards``, checked
        already; returns their value. Moving the cards is the game's business."""
        values = self.values
        points = sum([values[c] for c in cards])
        # FoilRound.record, inline (a hot path); held only when it can matter
        if self.names_loser and points < round_.stop - round_.paid <= self.held(hand):
            round_.loser = seat  # I-FOIL-3, S-FAIL-2
        round_.paid += points
        round_.asked.append((seat, tuple(cards)))
        return points
