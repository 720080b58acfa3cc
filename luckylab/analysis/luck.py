"""How much Luck is out there? Exact luck distributions, P(foil) and their Monte Carlo twins.

The question of every murder attempt (``I-FOIL-1``, ``I-FOIL-2``): the other players, going
around the table, may discard any cards, and each card's Luck counts; the attempt is foiled when
the discarded Luck reaches the attack value. So the attacker wants to know how likely it is that
the table *holds* at least that much Luck.

The cards the attacker cannot see (the deck and the other hands) are all alike to them, so the
other players' hands together are a random set of ``sum(hand_sizes)`` cards drawn *without
replacement* from the unseen cards: the table's Luck is not a sum of independent hands. Its
distribution is multivariate hypergeometric over the deck's Luck multiset. We compute it
exactly with a generating function: each distinct Luck value ``v`` held by ``c`` cards
contributes the factor ``(1 + y x^v)^c``; the coefficient of ``y^k x^s`` counts the ``k``-card
hands with total Luck ``s``. The count table is computed once per Luck multiset (cached), so a
query is a lookup and a sum.

Cards you have seen (your own hand, the discard pile) are not among the unseen cards: pass them
as ``known=`` (card objects or card ids) and they are removed before counting.

A Stranger (``I-STR-3``) asked for Luck discards the top card of the deck, which is one more
unseen card: count it as a hand of one card.

Every exact function has a Monte Carlo twin (``monte_carlo_*``) that deals real shuffled decks
with a seed and reports a standard error, and :func:`foil_report` puts the two side by side.
In a live Island, Kill or Save game, :func:`foil_question` states the question from a seat's
point of view: ``p_foil(**foil_question(game))``.

This module owns counting and sampling. It does not play games (``luckylab.games``) and does
not decide who pays (``luckylab.analysis.dilemma``).

>>> from luckylab.analysis.luck import luck_distribution, p_foil
>>> luck_distribution([0, 1, 1, 2], 2, exact=True)
{1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
>>> round(p_foil(14, [5, 5]), 4)
0.3942
>>> float(p_foil(14, [5, 5], exact=True)) == p_foil(14, [5, 5])
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..cards.decks import MAX_CARDS  # a deck given here holds at most what a deck file makes
from ..errors import OptionError
from ..games.base import check_seed

__all__ = [
    "Estimate",
    "LuckTable",
    "compare",
    "foil_report",
    "foil_question",
    "format_comparison",
    "luck_distribution",
    "luck_histogram",
    "luck_table",
    "luck_values",
    "monte_carlo_luck_distribution",
    "monte_carlo_p_foil",
    "monte_carlo_players_needed",
    "p_at_least",
    "p_foil",
    "players_needed",
    "remaining_cards",
]

Seed = int | random.Random | None
"""A seed: an int (reproducible), a ``random.Random`` (its state advances), or None (fresh)."""

Probability = float | Fraction

MAX_SAMPLES = 10**8
"""The most Monte Carlo samples one call deals (the command line's ``--samples`` shares it):
about a minute at 72 cards. Run several seeded calls and pool them for more."""

MAX_CARD_LUCK = 1_000
"""The largest Luck one card may carry (the Island's cards carry 0 to 4)."""

MAX_TABLE_WORK = 10**9
"""The exact count table's cost bound, ``cards**2 * (total Luck + 1) * bytes per count``:
about 1 s and a few MB at the bound, which a deck of some 250 Island-like cards reaches
(the Island's 72 cards cost 5 * 10**6). Above it the exact functions refuse; the
``monte_carlo_*`` twins take decks up to :data:`MAX_CARDS`."""

ENGINES = ("numpy", "python")
"""Monte Carlo engines: ``"numpy"`` (fast, shuffles whole decks in blocks) and ``"python"``
(plain ``random.sample``, reads like the math, slower)."""


# -- cards in, Luck out -------------------------------------------------------------------------

def _luck_of(card: Any) -> int:
    luck = card if isinstance(card, int) and not isinstance(card, bool) else getattr(
        card, "luck", None)
    if not isinstance(luck, int) or isinstance(luck, bool):
        raise OptionError(f"{card!r} is neither a card with a .luck nor a Luck value (int)")
    if luck < 0:
        raise OptionError(f"Luck is never negative, got {luck} from {card!r}")
    if luck > MAX_CARD_LUCK:
        raise OptionError(f"a card's Luck is a whole number from 0 to {MAX_CARD_LUCK}, "
                          f"got {luck} from {card!r:.80}")
    return luck


def _listed(items: Any, name: str, what: str) -> list[Any]:
    """``items`` as a list, or OptionError saying what ``name`` may be (before any work)."""
    if isinstance(items, (str, bytes, dict)) or not isinstance(items, Iterable):
        raise OptionError(f"{name} must be a list of {what}, not {items!r:.80}")
    out = []
    for item in items:
        out.append(item)
        if len(out) > MAX_CARDS:
            raise OptionError(f"{name} may hold at most {MAX_CARDS} cards")
    return out


def _check_flag(value: Any, name: str) -> None:
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be True or False, not {value!r:.80}")


def _check_engine(engine: Any) -> None:
    if engine not in ENGINES or not isinstance(engine, str):
        raise OptionError(f"unknown engine {engine!r:.80}; engines: {', '.join(ENGINES)}")


def _check_seed(seed: Any) -> None:
    if not isinstance(seed, random.Random):
        check_seed(seed)


def luck_values(cards: Iterable[Any]) -> list[int]:
    """The Luck of each card, in order. Cards are anything with ``.luck``, or plain ints.

    >>> luck_values([0, 2, 1])
    [0, 2, 1]
    """
    return [_luck_of(card) for card in cards]


def luck_histogram(cards: Iterable[Any]) -> dict[int, int]:
    """How many cards carry each Luck value (the deck's Luck multiset), by Luck ascending.

    >>> from luckylab import load_deck
    >>> luck_histogram(load_deck("island"))
    {0: 16, 1: 32, 2: 16, 3: 4, 4: 4}
    """
    return dict(sorted(Counter(luck_values(cards)).items()))


def _resolve_deck(deck: Any) -> Sequence[Any]:
    if deck is None:
        deck = "island"
    if isinstance(deck, str):
        from ..cards import load_deck

        return load_deck(deck)
    if isinstance(deck, dict):
        raise OptionError("deck must be a list of cards or Luck values (for a Luck histogram "
                        "pass [luck for luck, n in hist.items() for _ in range(n)])")
    return _listed(deck, "deck", "cards or Luck values, or a game name")


def remaining_cards(deck: Any, known: Iterable[Any] = ()) -> list[Any]:
    """The cards of ``deck`` not in ``known``: the unseen cards, from which the others' hands are.

    ``deck`` is a list of cards (or a game name, ``None`` meaning ``"island"``). ``known`` holds
    cards you have seen. For a deck of cards with ids, a known item is a card or a card id; for a
    deck of plain Luck values, each known int removes one card of that Luck.

    Raises ``ValueError`` when a known card is not in the deck (or is named twice).

    >>> from luckylab import load_deck
    >>> deck = load_deck("island")
    >>> len(remaining_cards(deck, known=[0, 1, deck[2]]))
    69
    >>> remaining_cards([0, 1, 1, 2], known=[1])
    [0, 1, 2]
    """
    cards = list(_resolve_deck(deck))
    known = _listed(known, "known", "cards or card ids")
    if not known:
        return cards
    by_id = {getattr(card, "id", None): i for i, card in enumerate(cards)}
    has_ids = None not in by_id and len(by_id) == len(cards)
    removed: set[int] = set()
    for item in known:
        if has_ids:
            ident = item if isinstance(item, int) and not isinstance(item, bool) else getattr(
                item, "id", None)
            index = by_id.get(ident)
            if index is None:
                raise OptionError(f"known card {item!r} is not in the deck of {len(cards)} "
                                 f"cards (give a card or its id)")
            if index in removed:
                raise OptionError(f"known card {item!r} is listed twice")
            removed.add(index)
        else:
            for i, card in enumerate(cards):
                if i not in removed and (card == item or (
                        isinstance(card, int) and _luck_of(item) == card)):
                    removed.add(i)
                    break
            else:
                raise OptionError(f"known card {item!r} is not among the deck's remaining cards")
    return [card for i, card in enumerate(cards) if i not in removed]


# -- the exact count table ----------------------------------------------------------------------

@dataclass(frozen=True, eq=False)  # one table per multiset (cached): identity is equality
class LuckTable:
    """Exact counts of hands by size and total Luck for one Luck multiset.

    ``count(k, s)`` is the number of ``k``-card hands (sets of cards, drawn without
    replacement) whose Luck adds up to ``s``; ``hands(k)`` is ``comb(size, k)``. Built by
    :func:`luck_table`, which caches one table per Luck multiset.
    """

    histogram: tuple[tuple[int, int], ...]
    size: int
    max_luck: int
    _polys: tuple[int, ...]
    _bytes: int

    def counts(self, k: int) -> tuple[int, ...]:
        """``counts(k)[s]``: how many ``k``-card hands have total Luck ``s``, for ``s`` from 0 to
        the largest total ``k`` cards can reach."""
        _check_hand(k, self.size)
        return _decode(self, k)

    def count(self, k: int, s: int) -> int:
        row = self.counts(k)
        return row[s] if 0 <= s < len(row) else 0

    def hands(self, k: int) -> int:
        return math.comb(self.size, k)

    def at_least(self, k: int, s: int) -> int:
        """How many ``k``-card hands have total Luck ``>= s``."""
        _check_hand(k, self.size)
        tails = _tails(self, k)
        if s <= 0:
            return tails[0]
        return tails[s] if s < len(tails) else 0


def _check_hand(k: int, size: int) -> None:
    if not isinstance(k, int) or isinstance(k, bool):
        raise OptionError(f"a hand size is a whole number, not {k!r}")
    if k < 0:
        raise OptionError(f"a hand size cannot be negative, got {k}")
    if k > size:
        raise OptionError(f"cannot draw {k} cards from {size} (unseen) cards")


def luck_table(cards: Iterable[Any]) -> LuckTable:
    """The exact count table of a card list (cached by its Luck multiset).

    >>> table = luck_table([0, 1, 1, 2])
    >>> table.counts(2), table.hands(2)
    ((0, 2, 2, 2), 6)
    """
    histogram = tuple(luck_histogram(cards).items())
    size = sum(c for _, c in histogram)
    total = sum(v * c for v, c in histogram)
    work = size * size * (total + 1) * _count_bytes(size)
    if work > MAX_TABLE_WORK:
        raise OptionError(f"an exact table for {size} cards with {total} Luck in all is too big "
                          f"(cost {work:.1e} > {MAX_TABLE_WORK:.0e}, see luckylab.analysis.luck."
                          f"MAX_TABLE_WORK); use the monte_carlo_* functions for this deck")
    return _table_for(histogram)


def _count_bytes(size: int) -> int:
    """Bytes per count in the table: no count exceeds ``comb(size, size // 2)``."""
    return (math.comb(size, size // 2).bit_length() + 8) // 8


@lru_cache(maxsize=512)
def _table_for(histogram: tuple[tuple[int, int], ...]) -> LuckTable:
    size = sum(c for _, c in histogram)
    max_luck = sum(v * c for v, c in histogram)
    # Kronecker substitution: the polynomial in x for each hand size k is one big int with a
    # digit of `width` bytes per power of x. No count exceeds comb(size, size // 2), so digits
    # never carry into each other, and multiplying by x^v is a shift.
    width = _count_bytes(size)
    bits = 8 * width
    polys = [1]
    for luck, copies in histogram:
        grown = [0] * (len(polys) + copies)
        shift = luck * bits
        for k, poly in enumerate(polys):
            if not poly:
                continue
            for j in range(copies + 1):
                grown[k + j] += math.comb(copies, j) * (poly << (shift * j))
        polys = grown
    return LuckTable(histogram, size, max_luck, tuple(polys), width)


@lru_cache(maxsize=4096)
def _decode(table: LuckTable, k: int) -> tuple[int, ...]:
    width = table._bytes
    raw = table._polys[k].to_bytes((table.max_luck + 1) * width, "little").rstrip(b"\0")
    return tuple(int.from_bytes(raw[i:i + width], "little")
                 for i in range(0, len(raw), width))


@lru_cache(maxsize=4096)
def _tails(table: LuckTable, k: int) -> tuple[int, ...]:
    row = _decode(table, k)
    tails = [0] * (len(row) + 1)
    for s in range(len(row) - 1, -1, -1):
        tails[s] = tails[s + 1] + row[s]
    return tuple(tails)


def _ratio(count: int, total: int, exact: bool) -> Probability:
    return Fraction(count, total) if exact else count / total


# -- exact answers --------------------------------------------------------------------------------

def luck_distribution(cards: Any, k: int, exact: bool = False,
                      known: Iterable[Any] = ()) -> dict[int, Probability]:
    """The exact distribution of the total Luck in a random ``k``-card hand from ``cards``.

    Parameters
    ----------
    cards
        A card list (anything with ``.luck``, or plain Luck ints), or a game name.
    k
        Hand size: cards drawn without replacement.
    exact
        ``True`` for :class:`fractions.Fraction` probabilities, ``False`` for floats.
    known
        Cards already seen, removed from ``cards`` first (see :func:`remaining_cards`).

    Returns
    -------
    dict
        Total Luck -> probability, for every total that can happen, ascending.

    Raises
    ------
    ValueError
        ``k`` negative or larger than the number of (remaining) cards.

    Examples
    --------
    A hand-countable deck: Luck 0, 1, 1, 2; two cards make one of six pairs.

    >>> luck_distribution([0, 1, 1, 2], 2, exact=True)
    {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    >>> from luckylab import load_deck
    >>> dist = luck_distribution(load_deck("island"), 6)
    >>> round(sum(dist.values()), 12), max(dist, key=dist.get)
    (1.0, 7)
    """
    _check_flag(exact, "exact")
    _check_value(k, "k")
    table = luck_table(remaining_cards(cards, known))
    row = table.counts(k)
    hands = table.hands(k)
    return {s: _ratio(n, hands, exact) for s, n in enumerate(row) if n}


def p_at_least(cards: Any, k: int, value: int, exact: bool = False,
               known: Iterable[Any] = ()) -> Probability:
    """P(a random ``k``-card hand from ``cards`` holds total Luck ``>= value``).

    >>> p_at_least([0, 1, 1, 2], 2, 3, exact=True)
    Fraction(1, 3)
    """
    _check_value(value, "value")
    _check_value(k, "k")
    _check_flag(exact, "exact")
    table = luck_table(remaining_cards(cards, known))
    return _ratio(table.at_least(k, value), table.hands(k), exact)


def _check_value(value: int, name: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise OptionError(f"{name} must be a whole number, not {value!r}")
    if value < 0:
        raise OptionError(f"{name} cannot be negative, got {value}")


def _check_hand_sizes(hand_sizes: Any) -> list[int]:
    if isinstance(hand_sizes, int) and not isinstance(hand_sizes, bool):
        hand_sizes = [hand_sizes]
    sizes = _listed(hand_sizes, "hand_sizes", "whole numbers (one per opponent)")
    if not sizes:
        raise OptionError("hand_sizes must list at least one opponent's hand size")
    for size in sizes:
        if not isinstance(size, int) or isinstance(size, bool):
            raise OptionError(f"hand sizes are whole numbers, not {size!r}")
        if size < 0:
            raise OptionError(f"hand sizes cannot be negative, got {sizes}")
        if size > MAX_CARDS:
            raise OptionError(f"hand sizes are at most {MAX_CARDS} cards, got {size}")
    return sizes


def _unseen_table(deck: Any, known: Iterable[Any], sizes: list[int]) -> LuckTable:
    table = luck_table(remaining_cards(deck, known))
    if sum(sizes) > table.size:
        raise OptionError(f"the hands {sizes} need {sum(sizes)} cards but only {table.size} "
                         f"cards are unseen")
    return table


def p_foil(attack: int, hand_sizes: Sequence[int], deck: Any = None, known: Iterable[Any] = (),
           exact: bool = False) -> Probability:
    """P(the attacker's opponents together hold at least ``attack`` Luck): the chance that the
    table *can* foil the attempt (``I-FOIL-1``, ``I-FOIL-2``).

    The opponents' hands are ``sum(hand_sizes)`` cards drawn without replacement from the
    unseen cards, so this is one hypergeometric tail, not a convolution of independent hands.
    Whether they *will* pay is a question of game theory: see :mod:`luckylab.analysis.dilemma`.

    Parameters
    ----------
    attack
        The attack value (``I-KILL-2``), or a Hazard's value against Doctor Lucky (``I-HAZ-4``).
    hand_sizes
        Each opponent's number of cards, in seat order from the attacker's left. A Stranger
        (``I-STR-3``) discards the deck's top card: count it as a hand of 1. A player with no
        cards is a hand of 0.
    deck
        The card list the hands come from; ``None`` is the Island's 72 cards, a string names a
        game's deck.
    known
        Cards the attacker has seen (their own hand, the discards): card objects or card ids.
    exact
        ``True`` for a :class:`fractions.Fraction`, ``False`` (the default) for a float.

    Raises
    ------
    ValueError
        Negative attack, negative hand sizes, no opponents, or more cards in hands than unseen.

    Examples
    --------
    Three opponents with six cards each against an attack of 20, then two opponents with five
    cards each against 14, before and after the attacker has seen cards 0..9 (Luck 9 between
    them, less than their share, so the unseen cards are a little richer):

    >>> round(p_foil(20, [6, 6, 6]), 4)
    0.8148
    >>> round(p_foil(14, [5, 5]), 4), round(p_foil(14, [5, 5], known=range(10)), 4)
    (0.3942, 0.4717)
    """
    _check_value(attack, "attack")
    _check_flag(exact, "exact")
    sizes = _check_hand_sizes(hand_sizes)
    table = _unseen_table(deck, known, sizes)
    total = sum(sizes)
    return _ratio(table.at_least(total, attack), table.hands(total), exact)


def players_needed(attack: int, hand_sizes: Sequence[int], deck: Any = None,
                   known: Iterable[Any] = (), exact: bool = False
                   ) -> dict[int | None, Probability]:
    """How many opponents, in seat order, it takes to hold ``attack`` Luck between them.

    Key ``m`` is the probability that the first ``m`` opponents (from the attacker's left,
    ``I-FOIL-1``) together hold at least ``attack`` Luck but the first ``m - 1`` do not; key
    ``None`` is the probability that the whole table cannot foil (``1 - p_foil``). Key ``0``
    appears only for ``attack == 0``. Each prefix of seats is itself a random set of unseen
    cards, so ``P(m or fewer) = P(the first h_1 + ... + h_m cards hold >= attack)``.

    >>> dist = players_needed(4, [1, 1, 1], deck=[0, 1, 2, 3, 4], exact=True)
    >>> dist
    {1: Fraction(1, 5), 2: Fraction(2, 5), 3: Fraction(3, 10), None: Fraction(1, 10)}
    """
    _check_value(attack, "attack")
    _check_flag(exact, "exact")
    sizes = _check_hand_sizes(hand_sizes)
    table = _unseen_table(deck, known, sizes)
    out: dict[int | None, Probability] = {}
    if attack == 0:
        out[0] = _ratio(1, 1, exact)
        return out
    drawn = 0
    p_before = Fraction(0)
    for m, size in enumerate(sizes, start=1):
        drawn += size
        p_now = Fraction(table.at_least(drawn, attack), table.hands(drawn))
        out[m] = p_now - p_before
        p_before = p_now
    out[None] = 1 - p_before
    if not exact:
        return {key: float(p) for key, p in out.items()}
    return out



def foil_question(game: Any, seat: int | None = None, weapon: int | None = None,
                  attack: int | None = None) -> dict[str, Any]:
    """The P(foil) question of a live Island, Kill or Save game, from ``seat``'s point of view.

    ``seat`` (default: the player whose decision it is) considers attacking with ``weapon``
    (a card id, or None; in Save, rescuing with that Aid): the attack value (``I-KILL-2``,
    ``K-KILL-1``; the rescue value in Save, unless ``attack`` is given), the hand sizes of the
    seats that would be asked, in order from its left (``I-FOIL-1``; an Island Stranger is
    one card while the deck lasts, ``I-STR-3``), and the cards it has seen: its own hand, the
    discards, the cards removed from the game and the cards under the characters. Returns
    keyword arguments for :func:`p_foil` and :func:`monte_carlo_p_foil`:

    >>> from luckylab import new_game
    >>> game = new_game("island", players=3, seed=7)
    >>> question = foil_question(game)
    >>> question["attack"], question["hand_sizes"]
    (1, [1, 7, 1, 7, 1])
    >>> p_foil(**question)
    1.0
    >>> foil_question(new_game("save", players=3, seed=2), seat=0)["hand_sizes"]
    [8, 8]
    """
    name = getattr(game, "game_name", None)
    if name not in ("island", "kill", "save"):
        raise OptionError(f"foil_question reads a live Island, Kill or Save game "
                          f"(new_game('island', ...)), not {name!r:.80}")
    seat = game.current_player if seat is None else seat
    if seat is None:
        raise OptionError("the game is over: nobody is deciding, so name a seat")
    from ..simulation import seats_of_players

    if seat not in seats_of_players(game):
        raise OptionError(f"seat {seat} holds no hand (a Stranger, or not a seat)")
    view = game.view(seat)  # only what that seat may know
    if attack is None:
        attack = view.attempt_value(seat, weapon)
    return {"attack": attack, "hand_sizes": view.foil_hands(seat), "deck": view.cards,
            "known": view.known_cards()}


# -- Monte Carlo twins ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Estimate:
    """A simulated probability: ``hits`` out of ``samples``, with its standard error.

    ``stderr`` is the usual ``sqrt(p (1 - p) / n)`` at the estimate ``p = hits / samples``.
    """

    value: float
    stderr: float
    hits: int
    samples: int

    @classmethod
    def from_counts(cls, hits: int, samples: int) -> Estimate:
        p = hits / samples
        return cls(p, math.sqrt(p * (1 - p) / samples), int(hits), int(samples))

    def z(self, exact: float) -> float:
        """How many standard errors the estimate is from ``exact``, using the standard error
        of ``exact`` itself (so an estimate of 0 hits still gets a fair score)."""
        p = float(exact)
        spread = math.sqrt(p * (1 - p) / self.samples)
        if spread == 0:
            return 0.0 if self.value == p else math.inf
        return (self.value - p) / spread

    def agrees(self, exact: float, sigmas: float = 4.0) -> bool:
        """True when the estimate lies within ``sigmas`` standard errors of ``exact``."""
        return abs(self.z(exact)) <= sigmas

    def __str__(self) -> str:
        return f"{self.value:.4f} ± {self.stderr:.4f} ({self.samples} samples)"


def _check_samples(samples: int) -> None:
    if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= MAX_SAMPLES:
        raise OptionError(f"samples must be a whole number from 1 to {MAX_SAMPLES:,}, "
                          f"not {samples!r:.80}")


def _python_rng(seed: Seed) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def _numpy_rng(seed: Seed) -> Any:
    import numpy as np

    if isinstance(seed, random.Random):
        seed = seed.getrandbits(128)
    return np.random.default_rng(seed)


_BLOCK = 8192  # decks dealt at once by the numpy engine: ~4.7 MB at 72 cards
_BLOCK_CELLS = _BLOCK * 128  # larger decks deal fewer at once: a block stays under ~8 MB


def _prefix_sum_blocks(lucks: list[int], cuts: list[int], samples: int, seed: Seed,
                       engine: str) -> Iterable[Any]:
    """Deal ``samples`` shuffled copies of the unseen cards; for each, the Luck of the first
    ``cut`` cards for every cut. Yields blocks: numpy arrays (rows x cuts) or lists of lists."""
    if engine == "numpy":
        import numpy as np

        gen = _numpy_rng(seed)
        size, last = len(lucks), max(cuts)
        row = np.asarray(lucks, dtype=np.int64)
        # Deal the fewer of `last` and `size - last` cards and, for one cut, count the Luck of
        # the cards left behind: the same table, dealt from the other end.
        flip = len(cuts) == 1 and last > size - last
        deal = size - last if flip else last
        done = 0
        while done < samples:
            n = min(_BLOCK, max(1, _BLOCK_CELLS // size), samples - done)
            decks = np.tile(row, n)  # n fresh decks, end to end
            base = np.arange(n) * size
            held = np.zeros(n, dtype=np.int64)
            out = np.zeros((n, len(cuts)), dtype=np.int64)
            for j in range(deal):
                # Partial Fisher-Yates, every deck at once: the j-th card dealt is a uniform pick
                # among the size - j cards still in the deck; the j-th slot's card takes its place.
                pick = base + gen.integers(j, size, size=n)
                held += decks[pick]
                decks[pick] = decks[base + j]
                for c, cut in enumerate(cuts):
                    if cut == j + 1:
                        out[:, c] = held
            if flip:
                out[:, 0] = int(row.sum()) - held
            yield out
            done += n
    elif engine == "python":
        rng = _python_rng(seed)
        last = max(cuts)
        deal = rng.sample
        if len(cuts) == 1:
            yield [[sum(deal(lucks, last))] for _ in range(samples)]
            return
        block = []
        for _ in range(samples):
            hand = deal(lucks, last)
            block.append([sum(hand[:cut]) for cut in cuts])
        yield block
    else:
        raise OptionError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")


def monte_carlo_p_foil(attack: int, hand_sizes: Sequence[int], deck: Any = None,
                       known: Iterable[Any] = (), samples: int = 100_000, seed: Seed = 0,
                       engine: str = "numpy") -> Estimate:
    """The Monte Carlo twin of :func:`p_foil`: shuffle the unseen cards, deal the hands, count
    how often the table holds at least ``attack`` Luck.

    ``seed`` is an int (the same int gives the same estimate), a ``random.Random`` (its state
    advances) or None. ``engine="python"`` uses ``random.sample`` and no numpy.

    >>> est = monte_carlo_p_foil(12, [5, 5], samples=20_000, seed=1)
    >>> est.agrees(p_foil(12, [5, 5]))
    True
    """
    lucks, sizes = _sampling_question(attack, hand_sizes, deck, known, samples, seed, engine)
    hits = 0
    for block in _prefix_sum_blocks(lucks, [sum(sizes)], samples, seed, engine):
        if engine == "numpy":
            hits += int((block[:, 0] >= attack).sum())
        else:
            hits += sum(1 for (total,) in block if total >= attack)
    return Estimate.from_counts(hits, samples)


def _sampling_question(attack: Any, hand_sizes: Any, deck: Any, known: Any, samples: Any,
                       seed: Any, engine: Any) -> tuple[list[int], list[int]]:
    """The Monte Carlo twins' arguments checked before any work: the unseen cards' Luck values
    and the hand sizes (OptionError naming the bad argument otherwise)."""
    _check_value(attack, "attack")
    sizes = _check_hand_sizes(hand_sizes)
    _check_samples(samples)
    _check_seed(seed)
    _check_engine(engine)
    lucks = luck_values(remaining_cards(deck, known))
    if sum(sizes) > len(lucks):
        raise OptionError(f"the hands {sizes} need {sum(sizes)} cards but only {len(lucks)} "
                         f"cards are unseen")
    return lucks, sizes


def monte_carlo_players_needed(attack: int, hand_sizes: Sequence[int], deck: Any = None,
                               known: Iterable[Any] = (), samples: int = 100_000,
                               seed: Seed = 0, engine: str = "numpy"
                               ) -> dict[int | None, Estimate]:
    """The Monte Carlo twin of :func:`players_needed` (same keys, values are Estimates).

    >>> sim = monte_carlo_players_needed(4, [1, 1, 1], deck=[0, 1, 2, 3, 4], samples=4000)
    >>> exact = players_needed(4, [1, 1, 1], deck=[0, 1, 2, 3, 4])
    >>> all(sim[m].agrees(exact[m]) for m in exact)
    True
    """
    lucks, sizes = _sampling_question(attack, hand_sizes, deck, known, samples, seed, engine)
    if attack == 0:
        return {0: Estimate.from_counts(samples, samples)}
    cuts = [sum(sizes[:m]) for m in range(1, len(sizes) + 1)]
    tally: Counter[int | None] = Counter()
    for block in _prefix_sum_blocks(lucks, cuts, samples, seed, engine):
        if engine == "numpy":
            import numpy as np

            reached = block >= attack
            first = np.argmax(reached, axis=1) + 1
            first[~reached.any(axis=1)] = 0
            for m, n in enumerate(np.bincount(first, minlength=len(cuts) + 1)):
                tally[m or None] += int(n)
        else:
            for row in block:
                tally[next((m for m, s in enumerate(row, 1) if s >= attack), None)] += 1
    keys: list[int | None] = [*range(1, len(sizes) + 1), None]
    return {key: Estimate.from_counts(tally[key], samples) for key in keys}


def monte_carlo_luck_distribution(cards: Any, k: int, samples: int = 100_000,
                                  seed: Seed = 0, known: Iterable[Any] = (),
                                  engine: str = "numpy") -> dict[int, Estimate]:
    """The Monte Carlo twin of :func:`luck_distribution`: deal ``k`` cards ``samples`` times.

    Keys are the totals that were seen, ascending.

    >>> sim = monte_carlo_luck_distribution([0, 1, 1, 2], 2, samples=3000, seed=2)
    >>> sorted(sim), all(sim[s].agrees(1 / 3) for s in sim)
    ([1, 2, 3], True)
    """
    _check_samples(samples)
    _check_seed(seed)
    _check_engine(engine)
    lucks = luck_values(remaining_cards(cards, known))
    _check_hand(k, len(lucks))
    tally: Counter[int] = Counter()
    for block in _prefix_sum_blocks(lucks, [k], samples, seed, engine):
        if engine == "numpy":
            import numpy as np

            for s, n in enumerate(np.bincount(block[:, 0])):
                if n:
                    tally[s] += int(n)
        else:
            tally.update(total for (total,) in block)
    return {s: Estimate.from_counts(tally[s], samples) for s in sorted(tally)}


# -- exact and simulated, side by side -----------------------------------------------------------

def compare(exact: dict[Any, Probability], simulated: dict[Any, Estimate],
            sigmas: float = 4.0) -> list[dict[str, Any]]:
    """Rows of exact vs simulated for every outcome in either mapping, in the exact's order.

    Each row: ``outcome``, ``exact`` (float), ``monte_carlo``, ``stderr``, ``z`` (standard
    errors apart, see :meth:`Estimate.z`) and ``agrees`` (``|z| <= sigmas``).

    >>> rows = compare({1: 0.5, 2: 0.5}, {1: Estimate.from_counts(49, 100)})
    >>> [(r["outcome"], r["monte_carlo"], r["agrees"]) for r in rows]
    [(1, 0.49, True), (2, 0.0, False)]
    """
    rows = []
    keys = list(exact) + [key for key in simulated if key not in exact]
    samples = next(iter(simulated.values())).samples if simulated else 0
    for key in keys:
        p = float(exact.get(key, 0))
        est = simulated.get(key) or Estimate.from_counts(0, samples or 1)
        z = est.z(p)
        rows.append({"outcome": key, "exact": p, "monte_carlo": est.value,
                     "stderr": est.stderr, "z": z, "agrees": abs(z) <= sigmas})
    return rows


def format_comparison(rows: list[dict[str, Any]], title: str = "outcome") -> str:
    """A plain-text table of :func:`compare` rows (what the command line prints).

    >>> print(format_comparison(compare({3: 0.25}, {3: Estimate.from_counts(26, 100)})))
    outcome     exact  simulated  stderr      z
          3  0.250000   0.260000  0.0439  +0.23
    """
    lines = [f"{title:>7}  {'exact':>8}  {'simulated':>9}  {'stderr':>6}  {'z':>5}"]
    for row in rows:
        outcome = "never" if row["outcome"] is None else row["outcome"]
        z = row["z"]
        zs = "  inf" if z is None or not math.isfinite(z) else f"{z:+5.2f}"
        lines.append(f"{outcome!s:>7}  {row['exact']:.6f}   {row['monte_carlo']:.6f}  "
                     f"{row['stderr']:.4f}  {zs}")
    return "\n".join(lines)


def foil_report(attack: int, hand_sizes: Sequence[int], deck: Any = None,
                known: Iterable[Any] = (), samples: int = 100_000, seed: Seed = 0,
                engine: str = "numpy") -> dict[str, Any]:
    """P(foil) exact and simulated side by side, plus how many players it takes, as plain
    JSON-ready data (what ``python -m luckylab foil --json`` prints).

    >>> report = foil_report(6, [6, 6, 6], samples=10_000, seed=0)
    >>> report["p_foil_exact"] > 0.99, report["agrees"], report["samples"]
    (True, True, 10000)
    """
    sizes = _check_hand_sizes(hand_sizes)
    unseen = remaining_cards(deck, known)
    exact = p_foil(attack, sizes, deck=unseen, exact=True)
    est = monte_carlo_p_foil(attack, sizes, deck=unseen, samples=samples, seed=seed,
                             engine=engine)
    needed_exact = players_needed(attack, sizes, deck=unseen)
    needed_sim = monte_carlo_players_needed(attack, sizes, deck=unseen, samples=samples,
                                            seed=seed, engine=engine)
    return {
        "attack": attack,
        "hand_sizes": sizes,
        "unseen_cards": len(unseen),
        "known_cards": len(list(_resolve_deck(deck))) - len(unseen),
        "p_foil_exact": float(exact),
        "p_foil_exact_fraction": f"{exact.numerator}/{exact.denominator}",
        "p_foil_monte_carlo": est.value,
        "stderr": est.stderr,
        "z": _finite_or_none(est.z(exact)),
        "agrees": est.agrees(exact),
        "samples": samples,
        "seed": seed if isinstance(seed, int) else None,
        "engine": engine,
        "players_needed": [{**row, "z": _finite_or_none(row["z"])}
                           for row in compare(needed_exact, needed_sim)],
    }


def _finite_or_none(x: float) -> float | None:
    # JSON has no infinity: an impossible outcome that was simulated anyway is "z": null.
    return x if math.isfinite(x) else None
