"""Kuhn poker: the smallest interesting poker, and the classic check of a game solver.

Three cards, Jack < Queen < King. Each of two players antes 1 and is dealt one card face down.
The first player checks or bets 1; after a check the second checks (showdown for the antes) or
bets 1, and the first then folds or calls; after a bet the second folds or calls. At a showdown
the higher card takes the pot. Kuhn (1950) solved it by hand: the first player's value is
exactly ``-1/18``, whatever equilibrium (a one-parameter family, ``alpha`` in ``[0, 1/3]``) is
played.

:class:`KuhnPoker` implements :class:`luckylab.analysis.cfr.TreeGame`; a history is
``(cards, actions)`` with ``cards`` the dealt pair (first player's, second's) and ``actions`` a
string of ``"p"`` (check or fold) and ``"b"`` (bet or call). :func:`kuhn_equilibrium` writes
Kuhn's equilibrium down exactly.

>>> from fractions import Fraction
>>> from luckylab.analysis.cfr import build_tree, profile_values
>>> profile_values(build_tree(KuhnPoker()), kuhn_equilibrium(Fraction(1, 3)), 2)
(Fraction(-1, 18), Fraction(1, 18))
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from ..errors import OptionError
from .cfr import CHANCE

__all__ = ["CARDS", "KuhnPoker", "kuhn_equilibrium"]

CARDS = "JQK"
"""The three cards, weakest first."""

_TERMINAL = ("pp", "bp", "bb", "pbp", "pbb")


class KuhnPoker:
    """Kuhn poker as a :class:`luckylab.analysis.cfr.TreeGame` (players 0 and 1).

    Actions are named "check"/"bet" before any bet and "fold"/"call" after one; an
    information set is the player's card and the actions so far ("K", "Qcheck-bet").

    >>> game = KuhnPoker()
    >>> h = game.play(game.play(game.root(), ("K", "J")), "bet")
    >>> game.infoset(h), game.actions(h)
    ('Jbet', ('fold', 'call'))
    >>> game.payoffs(game.play(h, "call"))
    (2, -2)
    """

    num_players = 2

    def root(self) -> tuple[tuple[str, str] | None, str]:
        return (None, "")

    def is_terminal(self, history: tuple) -> bool:
        return history[1] in _TERMINAL

    def payoffs(self, history: tuple) -> tuple[int, int]:
        (first, second), moves = history
        if moves == "bp":
            return (1, -1)           # the second player folded to a bet
        if moves == "pbp":
            return (-1, 1)           # the first player folded
        stake = 2 if "bb" in moves else 1
        won = CARDS.index(first) > CARDS.index(second)
        return (stake, -stake) if won else (-stake, stake)

    def player(self, history: tuple) -> int:
        if history[0] is None:
            return CHANCE
        return len(history[1]) % 2

    def chance_outcomes(self, history: tuple) -> list[tuple[tuple[str, str], Fraction]]:
        deals = list(itertools.permutations(CARDS, 2))
        return [(deal, Fraction(1, len(deals))) for deal in deals]

    def actions(self, history: tuple) -> tuple[str, str]:
        return ("fold", "call") if history[1].endswith("b") else ("check", "bet")

    def infoset(self, history: tuple) -> str:
        cards, moves = history
        card = cards[self.player(history)]
        return card + "-".join(_name(moves[:i + 1]) for i in range(len(moves)))

    def play(self, history: tuple, action: object) -> tuple:
        cards, moves = history
        if cards is None:
            return (action, "")
        return (cards, moves + ("p" if action in ("check", "fold") else "b"))


def _name(moves: str) -> str:
    """The name of the last move of ``moves`` ("check", "bet", "fold" or "call")."""
    bet_before = "b" in moves[:-1]
    if moves[-1] == "p":
        return "fold" if bet_before else "check"
    return "call" if bet_before else "bet"


def kuhn_equilibrium(alpha: Fraction) -> dict[str, dict[str, Fraction]]:
    """Kuhn's equilibrium with parameter ``alpha`` (0 to 1/3): the first player bets a Jack
    with probability ``alpha`` (a bluff), a King with ``3 * alpha``, calls with a Queen with
    ``alpha + 1/3``; the second bets a Jack after a check 1/3 of the time, calls with a Queen
    1/3 of the time, always bets and calls with a King.

    >>> kuhn_equilibrium(Fraction(1, 3))["K"]
    {'check': Fraction(0, 1), 'bet': Fraction(1, 1)}
    """
    alpha = Fraction(alpha)
    if not 0 <= alpha <= Fraction(1, 3):
        raise OptionError(f"kuhn_equilibrium: alpha is between 0 and 1/3, not {alpha}")
    third = Fraction(1, 3)

    def mix(first: str, second: str, p_second: Fraction) -> dict[str, Fraction]:
        return {first: 1 - p_second, second: p_second}

    return {
        "J": mix("check", "bet", alpha),
        "Q": mix("check", "bet", Fraction(0)),
        "K": mix("check", "bet", 3 * alpha),
        "Jcheck-bet": mix("fold", "call", Fraction(0)),
        "Qcheck-bet": mix("fold", "call", alpha + third),
        "Kcheck-bet": mix("fold", "call", Fraction(1)),
        "Jcheck": mix("check", "bet", third),
        "Qcheck": mix("check", "bet", Fraction(0)),
        "Kcheck": mix("check", "bet", Fraction(1)),
        "Jbet": mix("fold", "call", Fraction(0)),
        "Qbet": mix("fold", "call", third),
        "Kbet": mix("fold", "call", Fraction(1)),
    }
