"""Who should pay? The foiling round as a sequential volunteer's dilemma, solved exactly.

A murder attempt (or a Hazard on Doctor Lucky) is foiled when the other players, asked once
each in seat order from the attacker's left, discard Luck that reaches the attack value
(``I-FOIL-1``, ``I-FOIL-2``). Everyone but the attacker wants the attempt foiled; nobody wants
to be the one who pays, because cards are worth keeping. That is a *volunteer's dilemma*, played
in turn: a seat that can count on a later seat to cover can free-ride, and the last seat that can
still cover has nobody left to pass the bill to.

:func:`solve_foil_round` solves one round exactly by backward induction and returns the
subgame-perfect plan; :func:`seat_order_effect`, :func:`who_pays` and :func:`hand_size_effect`
show how the answer moves with seat order and hand sizes.
:func:`volunteers_dilemma_equilibrium` solves the classic *simultaneous* volunteer's dilemma
for contrast: nobody sees a hand and everyone decides at once.

The model (its assumptions, stated once)
----------------------------------------
1. **Open hands.** Everyone knows every hand (small tables, or a teacher laying the cards face
   up). It is a game of complete and perfect information, so backward induction applies.
2. **One round only.** The future value of a card is summed up by a cost per Luck point
   (``luck_cost``): discarding ``d`` Luck costs ``d * luck_cost``. Cards with Luck 0 cost
   nothing and help nothing.
3. **Payoffs to each seat** (the attacker is not a player of this game): foiled, ``0`` minus
   the seat's own cost; not foiled, ``attacker_wins`` (losing the game, ``-1`` by default)
   minus its cost, and the ``I-FOIL-3`` loser (the last seat that held enough to cover what was
   still needed and did not) loses ``loser_penalty`` more (``0`` by default: losing is losing).
4. **Actions are amounts.** A seat discards any sub-multiset of its hand; only the Luck total
   matters for payoffs, so an action is an amount the hand can make. The cards shown for an
   amount are the fewest cards that make it, ties broken by the smallest Luck values first.
   Overpaying is allowed (a hand of one 3 covering a need of 2 pays 3).
5. **The round stops when foiled** (``I-FOIL-2``): later seats are not asked and pay nothing.
6. **Strangers** (``I-STR-3``) have no choice: asked for Luck, a Stranger discards the top card of
   the deck. Give a Stranger's seat a one-card hand (that top card; empty when the deck is
   empty) and list it in ``strangers``. A Stranger is never the loser.
7. **Ties are broken deterministically:** a seat indifferent between amounts discards the
   smallest (passing first). So with ``luck_cost=0`` a seat that is not needed passes.
8. **"Passed" in ``I-FOIL-3``** means "did not cover": a seat that held enough and discarded
   less than what was still needed (a token discard included) counts as having passed.

The payoffs are exact :class:`fractions.Fraction` values (floats are read through their decimal
spelling, so ``0.01`` is ``1/100``), so no tie is an accident of rounding.

This module owns the game theory of one foiling round. Probabilities of hands come from
:mod:`luckylab.analysis.luck`; the full game is :mod:`luckylab.games.island`.

>>> plan = solve_foil_round(4, [[2], [0], [5]])  # worked example 6 of the Island rules
>>> plan.foiled, plan.payers, plan.path[-1].cards
(True, (2,), (5,))
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from ..errors import OptionError, VolunteersDilemmaError
from .luck import Seed, luck_values, remaining_cards

__all__ = [
    "FoilPlan",
    "Step",
    "VolunteersDilemma",
    "VolunteersDilemmaError",
    "discard_options",
    "hand_size_effect",
    "seat_order_effect",
    "solve_foil_round",
    "volunteers_dilemma_equilibrium",
    "who_pays",
]

Number = int | float | Fraction


def _fraction(x: Number, name: str) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, (int, float, Fraction)):
        raise OptionError(f"{name} must be a number, not {x!r}")
    if isinstance(x, float):
        if not math.isfinite(x):
            raise OptionError(f"{name} must be finite, not {x}")
        return Fraction(str(x))
    return Fraction(x)


@dataclass(frozen=True, slots=True)
class Step:
    """One seat's move on the equilibrium path: asked when ``need`` Luck was still missing,
    it held ``held`` Luck and discarded ``discard`` Luck, in cards of Luck ``cards``."""

    seat: int
    need: int
    held: int
    discard: int
    cards: tuple[int, ...]
    stranger: bool = False


@dataclass(frozen=True)
class FoilPlan:
    """The subgame-perfect solution of one foiling round (see the module's assumptions). The
    round itself, as the games play it, is :class:`luckylab.games.foiling.FoilRound`.

    Attributes
    ----------
    attack, hands, strangers
        The question: attack value, each seat's Luck values in asking order, Stranger seats.
    foiled
        Whether the attempt is foiled on the equilibrium path.
    path
        The :class:`Step` of every seat asked, in order (seats after the foil are not asked).
    payers
        Seats that discard Luck on the path; ``paid`` maps each to the amount.
    loser
        The ``I-FOIL-3`` loser when the attack succeeds (None when foiled or nobody could
        cover).
    payoffs
        Each seat's payoff on the path (exact fractions).
    strategy
        The full plan: ``strategy[seat][need]`` is what ``seat`` discards when asked with
        ``need`` still missing, for every need from 1 to the attack value (every node, not
        only the ones on the path).
    """

    attack: int
    hands: tuple[tuple[int, ...], ...]
    strangers: frozenset[int]
    foiled: bool
    path: tuple[Step, ...]
    payers: tuple[int, ...]
    paid: dict[int, int]
    loser: int | None
    payoffs: tuple[Fraction, ...]
    strategy: dict[int, dict[int, int]] = field(repr=False)
    luck_cost: Fraction = Fraction(1, 100)
    attacker_wins: Fraction = Fraction(-1)
    loser_penalty: Fraction = Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (fractions as strings, seats as ints)."""
        return {
            "attack": self.attack,
            "hands": [list(h) for h in self.hands],
            "strangers": sorted(self.strangers),
            "foiled": self.foiled,
            "path": [asdict(step) for step in self.path],
            "payers": list(self.payers),
            "paid": {str(k): v for k, v in self.paid.items()},
            "loser": self.loser,
            "payoffs": [str(p) for p in self.payoffs],
            "strategy": {str(s): {str(n): d for n, d in plan.items()}
                         for s, plan in self.strategy.items()},
            "luck_cost": str(self.luck_cost),
            "attacker_wins": str(self.attacker_wins),
            "loser_penalty": str(self.loser_penalty),
        }

    def __str__(self) -> str:
        """The round in words, seats numbered from 1 in asking order (``seat 1`` is asked
        first; the data attributes count from 0).

        >>> print(solve_foil_round(4, [[2], [0], [1, 4]]))
        Attack 4; hands (Luck) in asking order: seat 1: [2]; seat 2: [0]; seat 3: [1, 4]
          seat 1, 4 still needed, holding 2: passes
          seat 2, 4 still needed, holding 0: passes
          seat 3, 4 still needed, holding 5: discards [4] (Luck 4)
        Foiled.
        """
        lines = [f"Attack {self.attack}; hands (Luck) in asking order: "
                 + "; ".join(f"seat {i + 1}{' (Stranger)' if i in self.strangers else ''}: "
                             f"{list(h)}" for i, h in enumerate(self.hands))]
        for step in self.path:
            what = (f"discards {list(step.cards)} (Luck {step.discard})" if step.discard
                    else "passes")
            lines.append(f"  seat {step.seat + 1}, {step.need} still needed, holding "
                         f"{step.held}: {what}")
        if self.foiled:
            lines.append("Foiled.")
        else:
            who = ("nobody could" if self.loser is None
                   else f"the loser is seat {self.loser + 1}")
            lines.append(f"The attacker wins ({who}).")
        return "\n".join(lines)


@lru_cache(maxsize=4096)
def _options(hand: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    counts = sorted(Counter(hand).items())
    best: dict[int, tuple[int, ...]] = {}
    for picks in itertools.product(*(range(c + 1) for _, c in counts)):
        cards = tuple(v for (v, _), n in zip(counts, picks, strict=True) for _ in range(n))
        total = sum(cards)
        # fewest cards, then the smallest Luck values first (assumption 4)
        if total not in best or (len(cards), cards) < (len(best[total]), best[total]):
            best[total] = cards
    return tuple(sorted(best.items()))


def discard_options(hand: Iterable[Any]) -> dict[int, tuple[int, ...]]:
    """Every Luck amount a hand can discard -> the cards (Luck values) shown for it: the fewest
    cards that make the amount, smallest Luck first on ties.

    >>> discard_options([1, 1, 3])
    {0: (), 1: (1,), 2: (1, 1), 3: (3,), 4: (1, 3), 5: (1, 1, 3)}
    """
    return dict(_options(tuple(sorted(luck_values(hand)))))


@dataclass(frozen=True, slots=True)
class _Outcome:
    foiled: bool
    loser: int | None
    amount: int  # what the seat asked at this node discards


def solve_foil_round(attack: int, hands: Sequence[Iterable[Any]], *,
                     luck_cost: Number = Fraction(1, 100), attacker_wins: Number = -1,
                     loser_penalty: Number = 0, strangers: Iterable[int] = ()) -> FoilPlan:
    """Solve one foiling round by backward induction (the module docstring states the model).

    Parameters
    ----------
    attack
        The attack value to reach (``I-KILL-2``; a Hazard's value for ``I-HAZ-4``).
    hands
        Each asked seat's hand, in asking order from the attacker's left (``I-FOIL-1``): cards
        or Luck values. Seat numbers in the answer are positions in this list.
    luck_cost
        What discarding one point of Luck costs a seat (``>= 0``).
    attacker_wins
        Each seat's payoff when the attempt succeeds (below 0: losing the game).
    loser_penalty
        How much worse it is to be the ``I-FOIL-3`` loser than merely to lose (``>= 0``).
    strangers
        Seats that are Strangers (``I-STR-3``): forced to discard their one card.

    Returns
    -------
    FoilPlan
        The subgame-perfect path, who pays, whether the attempt is foiled, the loser, each
        seat's payoff, and the full strategy.

    Raises
    ------
    ValueError
        A negative attack or cost, a positive ``attacker_wins``, a negative loser penalty, a
        Stranger seat out of range or holding more than one card.

    Examples
    --------
    The last seat is forced; the seats before it free-ride:

    >>> solve_foil_round(4, [[4], [4], [4]]).payers
    (2,)

    Nobody can cover alone, so the first two seats pool their Luck:

    >>> plan = solve_foil_round(4, [[2], [2], [0]])
    >>> plan.paid, plan.foiled
    ({0: 2, 1: 2}, True)
    """
    if not isinstance(attack, int) or isinstance(attack, bool):
        raise OptionError(f"attack must be a whole number, not {attack!r}")
    if attack < 0:
        raise OptionError(f"attack cannot be negative, got {attack}")
    cost = _fraction(luck_cost, "luck_cost")
    lose = _fraction(attacker_wins, "attacker_wins")
    penalty = _fraction(loser_penalty, "loser_penalty")
    if cost < 0:
        raise OptionError(f"luck_cost cannot be negative (spending Luck is a cost), got {cost}")
    if lose > 0:
        raise OptionError(f"attacker_wins is a loss for the other seats: it must be <= 0, "
                         f"not {lose}")
    if penalty < 0:
        raise OptionError(f"loser_penalty cannot be negative, got {penalty}")
    table = tuple(tuple(sorted(luck_values(hand))) for hand in hands)
    n = len(table)
    forced = frozenset(strangers)
    for seat in forced:
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise OptionError(f"Stranger seat {seat!r} is not a seat (0..{n - 1})")
        if len(table[seat]) > 1:
            raise OptionError(f"a Stranger discards one card, the top of the deck (I-STR-3); "
                             f"seat {seat} holds {len(table[seat])}")
    held = [sum(hand) for hand in table]
    # Exact and fast: scale the payoffs to whole numbers for the search (same comparisons).
    scale = math.lcm(cost.denominator, lose.denominator, penalty.denominator)
    cost_i, lose_i, penalty_i = int(cost * scale), int(lose * scale), int(penalty * scale)

    def utility(seat: int, amount: int, foiled: bool, loser: int | None) -> int:
        value = -cost_i * amount
        if not foiled:
            value += lose_i - (penalty_i if loser == seat else 0)
        return value

    amounts = [[held[seat]] if seat in forced  # I-STR-3: no choice
               else [amount for amount, _ in _options(table[seat])]  # ascending: ties -> less
               for seat in range(n)]

    @cache
    def best(seat: int, need: int) -> _Outcome:
        """The equilibrium from the node where ``seat`` is asked with ``need`` still missing:
        whether the round ends foiled, its loser, and what ``seat`` discards."""
        if need <= 0:
            return _Outcome(True, None, 0)
        if seat == n:
            return _Outcome(False, None, 0)
        choice: tuple[int, _Outcome] | None = None
        for amount in amounts[seat]:
            rest = best(seat + 1, need - amount)
            loser = rest.loser
            if (not rest.foiled and loser is None and seat not in forced
                    and held[seat] >= need > amount):
                loser = seat  # I-FOIL-3: held enough, did not cover, nobody later did either
            value = utility(seat, amount, rest.foiled, loser)
            if choice is None or value > choice[0]:  # strict: ties keep the smaller amount
                choice = (value, _Outcome(rest.foiled, loser, amount))
        assert choice is not None
        return choice[1]

    result = best(0, attack)
    path, need, spent = [], attack, [0] * n
    for seat in range(n):
        if need <= 0:
            break  # I-FOIL-2: foiled, later seats are not asked
        amount = best(seat, need).amount
        cards = table[seat] if seat in forced else dict(_options(table[seat]))[amount]
        path.append(Step(seat, need, held[seat], amount, cards, seat in forced))
        spent[seat] = amount
        need -= amount
    paid = {seat: amount for seat, amount in enumerate(spent) if amount > 0}
    payoffs = tuple(Fraction(utility(seat, spent[seat], result.foiled, result.loser), scale)
                    for seat in range(n))
    strategy = {seat: {need: best(seat, need).amount for need in range(1, attack + 1)}
                for seat in range(n)}
    return FoilPlan(attack=attack, hands=table, strangers=forced, foiled=result.foiled,
                     path=tuple(path), payers=tuple(paid), paid=paid, loser=result.loser,
                     payoffs=payoffs, strategy=strategy, luck_cost=cost, attacker_wins=lose,
                     loser_penalty=penalty)


def seat_order_effect(attack: int, hands: Sequence[Iterable[Any]],
                      names: Sequence[str] | None = None, orders: str = "all",
                      **payoffs: Any) -> list[dict[str, Any]]:
    """Who pays, for every seating of the same hands: the answer depends on the order.

    ``orders="all"`` tries every permutation of the seats (keep the table small: 7 seats are
    5040 solves), ``"rotations"`` only the cyclic shifts (as if the attacker sat elsewhere).
    Each row names the players by ``names`` (default ``"P0"``, ``"P1"``, ... in the given
    order): ``order``, ``payers`` (in asking order), ``paid`` (name -> Luck), ``foiled``,
    ``loser``. Keyword arguments are :func:`solve_foil_round`'s payoffs.

    >>> for row in seat_order_effect(3, [[3], [3], [1, 2]], names="ABC", orders="rotations"):
    ...     print(row["order"], row["payers"])
    ['A', 'B', 'C'] ['C']
    ['B', 'C', 'A'] ['A']
    ['C', 'A', 'B'] ['B']
    """
    table = [list(luck_values(hand)) for hand in hands]
    labels = list(names) if names is not None else [f"P{i}" for i in range(len(table))]
    if len(labels) != len(table):
        raise OptionError(f"{len(labels)} names for {len(table)} hands")
    index = list(range(len(table)))
    if orders == "all":
        seatings = list(itertools.permutations(index))
    elif orders == "rotations":
        seatings = [tuple(index[i:] + index[:i]) for i in range(len(index))]
    else:
        raise OptionError(f"orders must be 'all' or 'rotations', not {orders!r}")
    rows = []
    for seating in seatings:
        plan = solve_foil_round(attack, [table[i] for i in seating], **payoffs)
        rows.append({
            "order": [labels[i] for i in seating],
            "payers": [labels[seating[s]] for s in plan.payers],
            "paid": {labels[seating[s]]: d for s, d in plan.paid.items()},
            "foiled": plan.foiled,
            "loser": None if plan.loser is None else labels[seating[plan.loser]],
        })
    return rows


def who_pays(attack: int, hand_sizes: Sequence[int], deck: Any = None,
             known: Iterable[Any] = (), deals: int = 2000, seed: Seed = 0,
             strangers: Iterable[int] = (), **payoffs: Any) -> dict[str, Any]:
    """Deal random open hands many times and solve each round: how often each seat pays.

    Hands of ``hand_sizes`` (asking order) are dealt from the unseen cards of ``deck`` (the
    Island's by default, minus ``known``); Stranger seats get one card, the top of the deck
    (``I-STR-3``). Each deal is solved with :func:`solve_foil_round`. The frequencies show the
    volunteer's dilemma at work: the bill lands on the *last* seat that can cover, so late
    seats pay far more often than early ones, even with equal hands.

    Returns plain data: ``deals``, ``seed``, ``p_foiled`` and ``p_table_can_cover`` (with
    standard errors), and per seat ``p_pays``, ``mean_paid``, ``p_loser``,
    ``p_could_cover_alone`` (the seat's hand alone reaches the attack) in a list ``seats``.

    Three equal hands of six cards against an attack of 8: the first seat almost never pays, the
    last seat nearly always does (topped up by the middle seat when it falls short):

    >>> report = who_pays(8, [6, 6, 6], deals=300, seed=1)
    >>> [round(s["p_pays"], 2) for s in report["seats"]]
    [0.0, 0.49, 1.0]
    """
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise OptionError(f"deals must be a whole number >= 1, not {deals!r}")
    from .luck import _check_hand_sizes

    sizes = _check_hand_sizes(hand_sizes)
    forced = frozenset(strangers)
    for seat in forced:
        if not isinstance(seat, int) or not 0 <= seat < len(sizes):
            raise OptionError(f"Stranger seat {seat!r} is not a seat (0..{len(sizes) - 1})")
    sizes = [1 if seat in forced else size for seat, size in enumerate(sizes)]
    lucks = luck_values(remaining_cards(deck, known))
    if sum(sizes) > len(lucks):
        raise OptionError(f"the hands {sizes} need {sum(sizes)} cards but only {len(lucks)} "
                         f"cards are unseen")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    n = len(sizes)
    pays, paid, loser, alone = [0] * n, [0] * n, [0] * n, [0] * n
    foiled = can_cover = 0
    for _ in range(deals):
        cards = rng.sample(lucks, sum(sizes))
        hands, start = [], 0
        for size in sizes:
            hands.append(cards[start:start + size])
            start += size
        plan = solve_foil_round(attack, hands, strangers=forced, **payoffs)
        foiled += plan.foiled
        can_cover += sum(cards) >= attack
        for seat, amount in plan.paid.items():
            pays[seat] += 1
            paid[seat] += amount
        if plan.loser is not None:
            loser[plan.loser] += 1
        for seat, hand in enumerate(hands):
            alone[seat] += sum(hand) >= attack

    def share(k: int) -> float:
        return k / deals

    def stderr(k: int) -> float:
        p = k / deals
        return math.sqrt(p * (1 - p) / deals)

    return {
        "attack": attack,
        "hand_sizes": sizes,
        "strangers": sorted(forced),
        "deals": deals,
        "seed": seed if isinstance(seed, int) else None,
        "p_foiled": share(foiled),
        "p_foiled_stderr": stderr(foiled),
        "p_table_can_cover": share(can_cover),
        "p_table_can_cover_stderr": stderr(can_cover),
        "seats": [{"seat": s, "hand_size": sizes[s], "stranger": s in forced,
                   "p_pays": share(pays[s]), "p_pays_stderr": stderr(pays[s]),
                   "mean_paid": paid[s] / deals, "p_loser": share(loser[s]),
                   "p_could_cover_alone": share(alone[s])} for s in range(n)],
    }


def hand_size_effect(attack: int, opponents: int = 3, sizes: Iterable[int] = (3, 4, 5, 6, 7),
                     deck: Any = None, deals: int = 500, seed: Seed = 0,
                     **payoffs: Any) -> list[dict[str, Any]]:
    """:func:`who_pays` for equal hands of each size in ``sizes``: one row per size with
    ``cards_each``, ``p_foiled``, ``p_table_can_cover`` and ``p_pays`` (one share per seat, in
    asking order). Every size is dealt from the same ``seed``, so the rows differ by the hand
    size alone. With small hands the seats must pool their Luck; with big hands the bill lands
    on the last seat.

    >>> for row in hand_size_effect(6, opponents=3, sizes=(2, 6), deals=200, seed=4):
    ...     print(row["cards_each"], [round(p, 2) for p in row["p_pays"]])
    2 [0.39, 0.69, 0.76]
    6 [0.0, 0.2, 1.0]
    """
    rows = []
    for size in sizes:
        rng = random.Random(seed) if not isinstance(seed, random.Random) else seed
        report = who_pays(attack, [size] * opponents, deck=deck, deals=deals, seed=rng,
                          **payoffs)
        rows.append({"cards_each": size, "p_foiled": report["p_foiled"],
                     "p_table_can_cover": report["p_table_can_cover"],
                     "p_pays": [s["p_pays"] for s in report["seats"]]})
    return rows


# -- the classic simultaneous volunteer's dilemma ----------------------------------------------


@dataclass(frozen=True, slots=True)
class VolunteersDilemma:
    """The symmetric mixed equilibrium of the simultaneous volunteer's dilemma.

    Probabilities are exact :class:`~fractions.Fraction` values when the root in the formula
    is rational (always for ``n = 2``), floats otherwise. ``payoff`` is each player's expected
    payoff in the equilibrium (``benefit - cost``, whatever ``n``).
    """

    n: int
    benefit: Fraction
    cost: Fraction
    p_volunteer: Fraction | float
    p_nobody: Fraction | float
    payoff: Fraction

    @property
    def p_pass(self) -> Fraction | float:
        """The chance that one player does not volunteer, ``1 - p_volunteer``."""
        return 1 - self.p_volunteer


def _exact_root(x: Fraction, k: int) -> Fraction | None:
    """The rational ``k``-th root of ``x >= 0`` if there is one, else None."""
    roots = []
    for part in (x.numerator, x.denominator):
        r = round(part ** (1 / k))
        r = next((c for c in (r - 1, r, r + 1) if c >= 0 and c ** k == part), None)
        if r is None:
            return None
        roots.append(r)
    return Fraction(roots[0], roots[1])


def volunteers_dilemma_equilibrium(n: int, benefit: Number = 1, cost: Number = Fraction(1, 2)
                                   ) -> VolunteersDilemma:
    r"""Solve the symmetric mixed equilibrium of the simultaneous volunteer's dilemma.

    ``n`` players decide at once, without seeing each other. If at least one volunteers,
    everyone gets ``benefit``; each volunteer also pays ``cost`` (``0 < cost < benefit``).
    Nobody volunteering gives everyone 0. In the symmetric mixed equilibrium each player is
    indifferent: volunteering pays ``benefit - cost`` for sure, passing pays ``benefit`` unless
    all ``n - 1`` others pass too, so with ``q`` the chance of passing

    .. math:: b - c = b\,(1 - q^{n-1}) \quad\Longrightarrow\quad q = (c / b)^{1/(n-1)},

    and nobody volunteers with probability :math:`q^n = (c/b)^{n/(n-1)}`, which *grows* with
    ``n`` towards ``c / b``: the bystander effect (Diekmann 1985).

    >>> game = volunteers_dilemma_equilibrium(2, benefit=1, cost=Fraction(1, 4))
    >>> game.p_volunteer, game.p_nobody, game.payoff
    (Fraction(3, 4), Fraction(1, 16), Fraction(3, 4))
    >>> [round(float(volunteers_dilemma_equilibrium(n, 1, 0.25).p_nobody), 3) for n in (2, 3, 5)]
    [0.062, 0.125, 0.177]
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise VolunteersDilemmaError(f"n is the number of players, a whole number >= 2, not {n!r}")
    try:
        b, c = _fraction(benefit, "benefit"), _fraction(cost, "cost")
    except (TypeError, ValueError) as exc:
        raise VolunteersDilemmaError(f"{exc} (benefit and cost are finite numbers)") from None
    if not 0 < c < b:
        raise VolunteersDilemmaError(
            f"a volunteer's dilemma needs 0 < cost < benefit, got cost {c} and benefit {b}")
    ratio = c / b
    q = _exact_root(ratio, n - 1)
    if q is not None:
        p_volunteer: Fraction | float = 1 - q
        p_nobody: Fraction | float = q ** n
    else:
        qf = float(ratio) ** (1 / (n - 1))
        p_volunteer, p_nobody = 1 - qf, qf ** n
    return VolunteersDilemma(n, b, c, p_volunteer, p_nobody, b - c)
