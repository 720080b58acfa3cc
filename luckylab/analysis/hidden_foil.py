"""The foiling round with hidden hands: a small exact game for CFR (lesson 12).

Lesson 5 (:mod:`luckylab.analysis.dilemma`) solves a foiling round with every hand face up: backward
induction says the last seat that can cover pays. At a real table the hands are face down, so
a seat that passes *hopes* a later seat can cover. :class:`HiddenFoil` is that round as a game
of hidden information, small enough to solve exactly with :mod:`luckylab.analysis.cfr`.

The model (every number is a parameter; the defaults are the lesson's)
-----------------------------------------------------------------------
1. **The deal.** ``deck`` is a small multiset of Luck values. Chance deals ``hand_size`` cards
   to each of ``foilers`` players (1 to 3), every deal equally likely; the rest of the deck is
   not used. Each foiler sees only her own hand.
2. **The asking** (``I-FOIL-1``). The attack has value ``attack``. The foilers are asked once
   each, in seat order from the attacker's left (Player 1 first). A foiler either **passes**
   or **foils**: she discards the *least* Luck of her hand that reaches the attack value
   (:meth:`HiddenFoil.payment`). A hand that cannot reach it can only pass. There is no
   pooling: a foiler covers alone or not at all (the least that works, as the rulebook's
   examples do; partial payments would make every amount an action).
3. **The end** (``I-FOIL-2``). The first foil ends the round (later foilers are not asked).
   If everyone passes, the attack gets through and the victim dies.
4. **Payoffs.** A foiler scores ``-1`` if the attack gets through (the attacker wins the
   game: ``I-END-1``), minus ``luck_cost`` for each Luck point she discarded (spent Luck is
   gone for good, ``I-SETUP-2``; one round stands for the game, as in lesson 5). The attacker
   scores ``+1`` if the attack gets through, otherwise ``luck_cost`` times the Luck the
   others discarded (their loss is the attacker's relative gain); the attacker makes no
   choice in this round. With one foiler the game is zero-sum.
5. **Players** in code: the foilers are ``0 .. foilers - 1`` (Player 1 is ``0``) and the
   attacker is ``foilers``. An information set is ``(seat, hand)``: being asked already says
   that everyone before passed.

The open-hand round in the same model (:meth:`HiddenFoil.open_hand`) is solved by backward
induction as in lesson 5 (a seat indifferent between paying and passing passes).

>>> game = HiddenFoil(attack=3, foilers=2, deck=(0, 1, 2, 3, 4), hand_size=1)
>>> len(game.deals()), game.payment((4,)), game.payment((2,))
(20, 4, None)
>>> game.open_hand(((4,), (3,)))          # Player 2 covers with 3; Player 1 free-rides
OpenRound(foiled_by=1, paid=3)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from ..errors import OptionError
from .cfr import CHANCE

__all__ = ["FOIL", "PASS", "HiddenFoil", "OpenRound", "RoundSummary"]

PASS = "pass"
FOIL = "foil"

Hand = tuple[int, ...]
Deal = tuple[Hand, ...]


@dataclass(frozen=True, slots=True)
class OpenRound:
    """The open-hand outcome of one deal: who foils (a seat from 0, or None) and what she pays."""

    foiled_by: int | None
    paid: int


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """What a way of playing gives on average over the deals.

    ``p_through``: the chance the attack gets through; ``p_foils[s]``: the chance seat ``s``
    foils; ``luck_spent[s]``: the Luck seat ``s`` discards on average; ``values[s]``: every
    player's expected payoff (the attacker last).
    """

    p_through: Fraction | float
    p_foils: tuple[Fraction | float, ...]
    luck_spent: tuple[Fraction | float, ...]
    values: tuple[Fraction | float, ...]


def _whole(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise OptionError(f"HiddenFoil: {name} is a whole number from {low} to {high}, "
                          f"not {value!r}")
    return value


class HiddenFoil:
    """The hidden-hand foiling round as a :class:`luckylab.analysis.cfr.TreeGame`.

    ``attack`` 1 to 20, ``foilers`` 1 to 3, ``deck`` 2 to 10 Luck values from 0 to 9,
    ``hand_size`` 1 to 3 (the deck must hold every hand), ``luck_cost`` from 0 to 1 (a
    :class:`~fractions.Fraction` or a number read through its decimal spelling).

    >>> game = HiddenFoil(attack=3, foilers=1, deck=(1, 3), hand_size=1)
    >>> root = game.root(); game.player(root) == CHANCE
    True
    >>> h = game.play(root, ((3,),)); game.infoset(h), game.actions(h)
    ((0, (3,)), ('pass', 'foil'))
    >>> game.payoffs(game.play(h, "foil"))      # Player 1 pays 3 Luck; the attacker gains it
    (Fraction(-3, 10), Fraction(3, 10))
    """

    def __init__(self, attack: int = 3, foilers: int = 2, deck: Sequence[int] = (0, 1, 2, 3, 4),
                 hand_size: int = 1, luck_cost: Fraction | float | int = Fraction(1, 10)) -> None:
        self.attack = _whole("attack", attack, 1, 20)
        self.foilers = _whole("foilers", foilers, 1, 3)
        self.hand_size = _whole("hand_size", hand_size, 1, 3)
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence) or not (
                2 <= len(deck) <= 10) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9 for v in deck):
            raise OptionError(f"HiddenFoil: deck is a list of 2 to 10 Luck values, each a whole "
                              f"number from 0 to 9, not {deck!r}")
        if len(deck) < self.foilers * self.hand_size:
            raise OptionError(f"HiddenFoil: {self.foilers} hands of {self.hand_size} need "
                              f"{self.foilers * self.hand_size} cards; the deck has {len(deck)}")
        self.deck = tuple(sorted(deck))
        if isinstance(luck_cost, bool) or not isinstance(luck_cost, (int, float, Fraction)):
            raise OptionError(f"HiddenFoil: luck_cost is a number from 0 to 1, not "
                              f"{luck_cost!r}")
        cost = Fraction(str(luck_cost)) if isinstance(luck_cost, float) else Fraction(luck_cost)
        if not 0 <= cost <= 1:
            raise OptionError(f"HiddenFoil: luck_cost is a number from 0 to 1, not {luck_cost!r}")
        self.luck_cost = cost
        self.num_players = self.foilers + 1
        self.attacker = self.foilers

    def __repr__(self) -> str:
        return (f"HiddenFoil(attack={self.attack}, foilers={self.foilers}, deck={self.deck}, "
                f"hand_size={self.hand_size}, luck_cost={self.luck_cost})")

    # -- the rules -------------------------------------------------------------------------

    def payment(self, hand: Sequence[int]) -> int | None:
        """The least Luck ``hand`` can discard that reaches the attack (None: it cannot).

        >>> HiddenFoil(attack=3, deck=(1, 2, 2, 4), hand_size=2).payment((2, 4))
        4
        """
        return _least_reaching(tuple(sorted(hand)), self.attack)

    def deals(self) -> list[tuple[Deal, Fraction]]:
        """Every deal (one sorted hand per foiler) with its exact probability."""
        return _deals(self.deck, self.foilers, self.hand_size)

    def outcome_payoffs(self, foiled_by: int | None, paid: int) -> tuple[Fraction, ...]:
        """Every player's payoff when seat ``foiled_by`` foils paying ``paid`` (None: nobody
        foils and the attack gets through)."""
        if foiled_by is None:
            return (Fraction(-1),) * self.foilers + (Fraction(1),)
        spent = self.luck_cost * paid
        foilers = tuple(-spent if s == foiled_by else Fraction(0) for s in range(self.foilers))
        return foilers + (spent,)

    # -- the TreeGame interface --------------------------------------------------------------

    def root(self) -> tuple:
        return ()

    def is_terminal(self, history: tuple) -> bool:
        if not history:
            return False
        moves = history[1:]
        return (bool(moves) and moves[-1] == FOIL) or len(moves) == self.foilers

    def payoffs(self, history: tuple) -> tuple[Fraction, ...]:
        hands, moves = history[0], history[1:]
        if moves and moves[-1] == FOIL:
            seat = len(moves) - 1
            return self.outcome_payoffs(seat, self.payment(hands[seat]) or 0)
        return self.outcome_payoffs(None, 0)

    def player(self, history: tuple) -> int:
        return CHANCE if not history else len(history) - 1

    def chance_outcomes(self, history: tuple) -> list[tuple[Deal, Fraction]]:
        return self.deals()

    def actions(self, history: tuple) -> tuple[str, ...]:
        hand = history[0][len(history) - 1]
        return (PASS, FOIL) if self.payment(hand) is not None else (PASS,)

    def infoset(self, history: tuple) -> tuple[int, Hand]:
        seat = len(history) - 1
        return (seat, history[0][seat])

    def play(self, history: tuple, action: Any) -> tuple:
        return (action,) if not history else (*history, action)

    # -- answers ---------------------------------------------------------------------------

    def open_hand(self, hands: Sequence[Sequence[int]]) -> OpenRound:
        """Backward induction with every hand face up (lesson 5's answer in this model).

        Each seat, from the last back, compares paying with passing given what the later
        seats will do; indifferent, it passes.

        >>> HiddenFoil(attack=3, foilers=3, deck=(0, 1, 2, 3, 4)).open_hand(((4,), (3,), (0,)))
        OpenRound(foiled_by=1, paid=3)
        """
        hands = tuple(tuple(sorted(h)) for h in hands)
        later = OpenRound(None, 0)   # what happens if every seat from here on passes
        for seat in reversed(range(self.foilers)):
            pay = self.payment(hands[seat])
            if pay is None:
                continue
            if_pass = self.outcome_payoffs(later.foiled_by, later.paid)[seat]
            if -self.luck_cost * pay > if_pass:
                later = OpenRound(seat, pay)
        return later

    def summary(self, profile: Mapping[Hashable, Mapping[str, Any]] | None = None
                ) -> RoundSummary:
        """The averages over the deals when the foilers play ``profile`` (information set ->
        {"pass": p, "foil": q}); ``None`` plays the open-hand answer with every hand face up.

        >>> game = HiddenFoil(attack=3, foilers=2, deck=(0, 1, 2, 3, 4))
        >>> game.summary().p_through            # open hands: through only if nobody can cover
        Fraction(3, 10)
        """
        through = Fraction(0)
        foils = [Fraction(0)] * self.foilers
        spent = [Fraction(0)] * self.foilers
        values = [Fraction(0)] * self.num_players
        for hands, chance in self.deals():
            for foiled_by, paid, p in self._paths(hands, profile):
                weight = chance * p
                if foiled_by is None:
                    through += weight
                else:
                    foils[foiled_by] += weight
                    spent[foiled_by] += weight * paid
                for s, v in enumerate(self.outcome_payoffs(foiled_by, paid)):
                    values[s] += weight * v
        return RoundSummary(through, tuple(foils), tuple(spent), tuple(values))

    def _paths(self, hands: Deal, profile: Mapping[Hashable, Mapping[str, Any]] | None
               ) -> list[tuple[int | None, int, Any]]:
        """(who foils, what she pays, probability) for one deal."""
        if profile is None:
            round_ = self.open_hand(hands)
            return [(round_.foiled_by, round_.paid, Fraction(1))]
        paths: list[tuple[int | None, int, Any]] = []
        reach: Any = Fraction(1)
        for seat, hand in enumerate(hands):
            pay = self.payment(hand)
            if pay is None:
                continue
            foil = profile.get((seat, hand), {}).get(FOIL, 0)
            if foil:
                paths.append((seat, pay, reach * foil))
            reach = reach * (1 - foil)
        paths.append((None, 0, reach))
        return paths

    def pass_rate(self, profile: Mapping[Hashable, Mapping[str, Any]], seat: int) -> Any:
        """How often ``seat`` passes when it is asked holding enough Luck to cover alone,
        under ``profile`` (averaged over the deals and the earlier seats' play).

        >>> game = HiddenFoil(attack=3, foilers=2, deck=(0, 1, 2, 3, 4))
        >>> always = {(0, (h,)): {"pass": 0, "foil": 1} for h in (3, 4)}
        >>> game.pass_rate(always, 0)
        Fraction(0, 1)
        """
        _whole("seat", seat, 0, self.foilers - 1)
        asked = passed = Fraction(0)
        for hands, chance in self.deals():
            reach: Any = chance
            for s in range(seat):
                if self.payment(hands[s]) is not None:
                    reach = reach * (1 - profile.get((s, hands[s]), {}).get(FOIL, 0))
            if self.payment(hands[seat]) is None or not reach:
                continue
            asked += reach
            passed += reach * (1 - profile.get((seat, hands[seat]), {}).get(FOIL, 0))
        return passed / asked if asked else Fraction(0)

    def decisions(self, seat: int) -> list[Hand]:
        """The hands with which ``seat`` has a real choice (it can cover), weakest first."""
        _whole("seat", seat, 0, self.foilers - 1)
        hands = {deal[seat] for deal, _ in self.deals()}
        return sorted((h for h in hands if self.payment(h) is not None),
                      key=lambda h: (sum(h), h))


@cache
def _least_reaching(hand: Hand, attack: int) -> int | None:
    sums = {sum(c) for k in range(1, len(hand) + 1) for c in itertools.combinations(hand, k)}
    enough = [s for s in sums if s >= attack]
    return min(enough) if enough else None


@cache
def _deals(deck: Hand, foilers: int, hand_size: int) -> list[tuple[Deal, Fraction]]:
    """Deal ``foilers`` hands of ``hand_size`` from ``deck``, every way equally likely."""
    counts: Counter[Deal] = Counter()

    def deal(left: tuple[int, ...], hands: tuple[Hand, ...]) -> None:
        if len(hands) == foilers:
            counts[hands] += 1
            return
        for chosen in itertools.combinations(range(len(left)), hand_size):
            hand = tuple(sorted(left[i] for i in chosen))
            rest = tuple(v for i, v in enumerate(left) if i not in chosen)
            deal(rest, (*hands, hand))

    deal(deck, ())
    total = sum(counts.values())
    return [(hands, Fraction(n, total)) for hands, n in sorted(counts.items())]
