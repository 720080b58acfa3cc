"""Counterfactual regret minimisation (CFR): solving small games of hidden information.

A game with hidden information (poker, or a foiling round where nobody sees the others' hands)
cannot be solved by backward induction: a player does not know which node of the tree she is
at, only which *information set* (the nodes she cannot tell apart). CFR (Zinkevich et al. 2007)
plays the game against itself many times. At every information set it keeps, for each action,
the **regret**: how much better that action would have done than the mixed strategy played,
summed over the iterations and weighted by how likely the *others* (and chance) were to bring
play there. The next strategy plays each action in proportion to its positive regret (regret
matching). The **average** of the strategies played converges to an equilibrium in two-player
zero-sum games (its exploitability falls like ``1 / sqrt(T)`` or faster).

The module has three parts, each short enough to read in class:

1. **A small interface** (:class:`TreeGame`) that any finite game with chance and hidden
   information implements: the root, whose turn it is (or :data:`CHANCE`), the actions, the
   information set, the next history, and the payoffs at the end. Kuhn poker
   (:mod:`luckylab.analysis.kuhn`) and the hidden-hand foiling round
   (:mod:`luckylab.analysis.hidden_foil`) implement it. :func:`build_tree` expands a game once
   into :class:`Node` objects.
2. **The solver** (:class:`CFR`): vanilla CFR, or CFR+ (``plus=True``: regrets floored at 0
   and later iterations weighted more in the average, Tammelin 2014), with the average strategy.
3. **Exact evaluation**: :func:`profile_values` (each player's expected payoff),
   :func:`best_response` (the best a player can do against the others' strategies, by walking
   the whole tree, no sampling) and :func:`nash_conv` (how much all players together could
   gain by deviating alone; 0 exactly at a Nash equilibrium).

A *profile* maps each information set to a strategy ``{action: probability}``; an information
set missing from it is played uniformly. Payoffs and probabilities may be
:class:`fractions.Fraction`: the evaluation functions then compute exactly.

>>> from luckylab.analysis.kuhn import KuhnPoker
>>> solver = CFR(KuhnPoker())
>>> solver.run(2000)
>>> round(solver.values()[0], 3)          # the first player's value: -1/18 = -0.0556
-0.056
>>> solver.nash_conv() < 0.005
True
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from ..errors import OptionError

__all__ = [
    "CFR",
    "CHANCE",
    "Node",
    "Profile",
    "TreeGame",
    "best_response",
    "build_tree",
    "nash_conv",
    "profile_values",
    "purified",
]

CHANCE = -1
"""The 'player' of a chance node (a deal, a die)."""

Number = int | float | Fraction
Profile = Mapping[Hashable, Mapping[Any, Number]]
"""Information set -> {action: probability}."""


class TreeGame(Protocol):
    """A finite game with chance and hidden information, as CFR sees it.

    A *history* is any hashable value (usually a tuple of what happened so far). The players
    are numbered ``0 .. num_players - 1`` in code (a lesson prints them from 1).
    """

    num_players: int

    def root(self) -> Hashable:
        """The history before anything happened."""

    def is_terminal(self, history: Hashable) -> bool:
        """Whether the game is over."""

    def payoffs(self, history: Hashable) -> Sequence[Number]:
        """Each player's payoff at a terminal history."""

    def player(self, history: Hashable) -> int:
        """Whose turn it is: a player number, or :data:`CHANCE`."""

    def chance_outcomes(self, history: Hashable) -> Sequence[tuple[Any, Number]]:
        """At a chance node: every outcome with its probability (they sum to 1)."""

    def actions(self, history: Hashable) -> Sequence[Any]:
        """At a decision node: the legal actions (at least one)."""

    def infoset(self, history: Hashable) -> Hashable:
        """At a decision node: what the player to move knows (equal for nodes she cannot
        tell apart). It must differ between players."""

    def play(self, history: Hashable, action: Any) -> Hashable:
        """The history after ``action`` (or a chance outcome)."""


@dataclass(eq=False)
class Node:
    """One node of an expanded game tree.

    ``player`` is :data:`CHANCE`, a player number, or ``None`` at a terminal node (then
    ``payoffs`` is set). ``actions[i]`` leads to ``children[i]``; at a chance node
    ``probabilities[i]`` is its chance.
    """

    player: int | None
    history: Hashable
    infoset: Hashable = None
    actions: tuple[Any, ...] = ()
    children: list[Node] = field(default_factory=list)
    probabilities: tuple[Number, ...] = ()
    payoffs: tuple[Number, ...] = ()
    floats: tuple[float, ...] = ()   # the probabilities (chance) or payoffs as floats, for CFR


def build_tree(game: TreeGame) -> Node:
    """Expand the whole game into :class:`Node` objects (small games only).

    >>> from luckylab.analysis.kuhn import KuhnPoker
    >>> root = build_tree(KuhnPoker())
    >>> root.player == CHANCE, len(root.children)   # 6 deals of 3 cards to 2 players
    (True, 6)
    """
    def expand(history: Hashable) -> Node:
        if game.is_terminal(history):
            payoffs = tuple(game.payoffs(history))
            return Node(None, history, payoffs=payoffs, floats=tuple(map(float, payoffs)))
        who = game.player(history)
        if who == CHANCE:
            outcomes = tuple(game.chance_outcomes(history))
            node = Node(CHANCE, history, actions=tuple(o for o, _ in outcomes),
                        probabilities=tuple(p for _, p in outcomes),
                        floats=tuple(float(p) for _, p in outcomes))
        else:
            actions = tuple(game.actions(history))
            if not actions:
                raise OptionError(f"history {history!r}: a decision node needs at least one "
                                  "action")
            node = Node(who, history, infoset=game.infoset(history), actions=actions)
        node.children = [expand(game.play(history, a)) for a in node.actions]
        return node

    return expand(game.root())


def _strategy(profile: Profile, node: Node) -> list[Number]:
    """The node's action probabilities under ``profile`` (uniform when it says nothing)."""
    mix = profile.get(node.infoset)
    if mix is None:
        return [Fraction(1, len(node.actions))] * len(node.actions)
    return [mix.get(a, 0) for a in node.actions]


def profile_values(root: Node, profile: Profile, players: int) -> tuple[Number, ...]:
    """Each player's expected payoff when everyone plays ``profile``, computed exactly.

    >>> from luckylab.analysis.kuhn import KuhnPoker
    >>> profile_values(build_tree(KuhnPoker()), {}, 2)   # both play uniformly at random
    (Fraction(1, 8), Fraction(-1, 8))
    """
    def value(node: Node) -> list[Number]:
        if node.player is None:
            return list(node.payoffs)
        weights = node.probabilities if node.player == CHANCE else _strategy(profile, node)
        total: list[Number] = [0] * players
        for weight, child in zip(weights, node.children, strict=True):
            if weight:
                for p, v in enumerate(value(child)):
                    total[p] += weight * v
        return total

    return tuple(value(root))


def best_response(root: Node, profile: Profile, player: int
                  ) -> tuple[Number, dict[Hashable, Any]]:
    """The best ``player`` can expect against the others' strategies in ``profile``, exactly,
    and a best pure strategy (information set -> action).

    Every node of an information set is weighted by the chance that the others and chance
    bring play there; the player's own information sets are settled deepest first, so a
    choice always knows how the player will go on (perfect recall).

    >>> from luckylab.analysis.kuhn import KuhnPoker
    >>> value, plan = best_response(build_tree(KuhnPoker()), {}, 0)
    >>> value, plan["J"]          # against a random opponent: bluff with the Jack
    (Fraction(1, 2), 'bet')
    """
    members: dict[Hashable, list[tuple[Node, Number]]] = defaultdict(list)
    depth: dict[Hashable, int] = {}

    def collect(node: Node, reach: Number, own: int) -> None:
        if node.player is None:
            return
        if node.player == player:
            members[node.infoset].append((node, reach))
            depth[node.infoset] = own
            for child in node.children:
                collect(child, reach, own + 1)
            return
        weights = node.probabilities if node.player == CHANCE else _strategy(profile, node)
        for weight, child in zip(weights, node.children, strict=True):
            if weight:
                collect(child, reach * weight, own)

    collect(root, Fraction(1), 0)
    choice: dict[Hashable, int] = {}
    memo: dict[int, Number] = {}

    def value(node: Node) -> Number:
        key = id(node)
        if key in memo:
            return memo[key]
        if node.player is None:
            result = node.payoffs[player]
        elif node.player == player:
            result = value(node.children[choice.get(node.infoset, 0)])
        else:
            weights = node.probabilities if node.player == CHANCE else _strategy(profile, node)
            result = sum((w * value(c) for w, c in zip(weights, node.children, strict=True)
                          if w), start=Fraction(0))
        memo[key] = result
        return result

    for infoset in sorted(members, key=lambda i: -depth[i]):
        nodes = members[infoset]
        scores = [sum((reach * value(node.children[i]) for node, reach in nodes),
                      start=Fraction(0)) for i in range(len(nodes[0][0].actions))]
        choice[infoset] = max(range(len(scores)), key=lambda i: (scores[i], -i))
    plan = {i: members[i][0][0].actions[a] for i, a in choice.items()}
    return value(root), plan


def nash_conv(root: Node, profile: Profile, players: int) -> Number:
    """How much the players together gain by each switching alone to a best response.

    ``sum over players of (best-response value - value under the profile)``: 0 exactly at a
    Nash equilibrium, never negative. In a two-player zero-sum game half of it is the
    *exploitability*.

    >>> from luckylab.analysis.kuhn import KuhnPoker, kuhn_equilibrium
    >>> nash_conv(build_tree(KuhnPoker()), kuhn_equilibrium(Fraction(1, 3)), 2)
    Fraction(0, 1)
    """
    values = profile_values(root, profile, players)
    return sum((best_response(root, profile, p)[0] - values[p] for p in range(players)),
               start=Fraction(0))


def purified(profile: Profile, tolerance: float = 1e-3) -> dict[Hashable, dict[Any, Number]]:
    """``profile`` with every probability within ``tolerance`` of 0 or 1 made exactly 0 or 1
    (a :class:`~fractions.Fraction`), the others kept; each strategy still sums to 1.

    CFR's average strategy is only close to an equilibrium; when the equilibrium is pure,
    the purified profile can be checked exactly (:func:`nash_conv` gives 0).

    >>> purified({"I": {"pass": 0.9996, "foil": 0.0004}})
    {'I': {'pass': Fraction(1, 1), 'foil': Fraction(0, 1)}}
    >>> purified({"I": {"pass": 0.75, "foil": 0.25}})
    {'I': {'pass': 0.75, 'foil': 0.25}}
    """
    if not isinstance(tolerance, (int, float)) or not 0 <= tolerance < 0.5:
        raise OptionError(f"purified: tolerance is a number from 0 to 0.5, not {tolerance!r}")
    result: dict[Hashable, dict[Any, Number]] = {}
    for infoset, mix in profile.items():
        sure = [a for a, p in mix.items() if p >= 1 - tolerance]
        if sure:
            result[infoset] = {a: Fraction(int(a == sure[0])) for a in mix}
        else:
            result[infoset] = dict(mix)
    return result


@dataclass
class _Table:
    """What CFR keeps at one information set."""

    regrets: list[float]
    strategy_sum: list[float]


class CFR:
    """Counterfactual regret minimisation over a whole (small) game tree.

    ``plus=False`` is vanilla CFR (Zinkevich et al. 2007): regrets are summed, the average
    strategy weights every iteration alike. ``plus=True`` is CFR+ (Tammelin 2014): a negative
    regret sum is reset to 0 after each iteration, and iteration ``t`` counts ``t`` times in
    the average, which usually converges much faster. Both update the players in turn (one
    walk of the tree per player per iteration, each seeing the others' latest strategies).

    ``run(iterations)`` solves; ``average_strategy()`` is the answer; ``history`` records
    ``(iterations, NashConv, seconds)`` whenever ``run`` was asked to measure
    (``every=k``). There is no randomness: the same game always gives the same numbers.

    >>> from luckylab.analysis.kuhn import KuhnPoker
    >>> solver = CFR(KuhnPoker(), plus=True)
    >>> solver.run(300, every=100)
    >>> [t for t, _, _ in solver.history]
    [100, 200, 300]
    >>> solver.history[-1][1] < 0.01
    True
    """

    def __init__(self, game: TreeGame, *, plus: bool = False) -> None:
        if not isinstance(plus, bool):
            raise OptionError(f"CFR: plus is True (CFR+) or False (vanilla CFR), not {plus!r}")
        self.game = game
        self.players = game.num_players
        self.plus = plus
        self.root = build_tree(game)
        self.tables: dict[Hashable, _Table] = {}
        self._actions: dict[Hashable, tuple[Any, ...]] = {}
        self._owners: dict[Hashable, int] = {}
        self._register(self.root)
        self._deciders = sorted(set(self._owners.values()))   # players with a choice
        self.iterations = 0
        self.seconds = 0.0
        self.history: list[tuple[int, float, float]] = []

    def _register(self, node: Node) -> None:
        if node.player is not None and node.player != CHANCE:
            self._owners[node.infoset] = node.player
            known = self._actions.setdefault(node.infoset, node.actions)
            if known != node.actions:
                raise OptionError(f"information set {node.infoset!r} has different actions "
                                  f"at different nodes: {known} and {node.actions}")
            self.tables.setdefault(node.infoset, _Table([0.0] * len(node.actions),
                                                         [0.0] * len(node.actions)))
        for child in node.children:
            self._register(child)

    @staticmethod
    def regret_matching(regrets: Sequence[float]) -> list[float]:
        """Play each action in proportion to its positive regret (uniformly when none is).

        >>> CFR.regret_matching([3.0, -1.0, 1.0])
        [0.75, 0.0, 0.25]
        >>> CFR.regret_matching([-2.0, 0.0])
        [0.5, 0.5]
        """
        positive = [max(r, 0.0) for r in regrets]
        total = sum(positive)
        if total <= 0:
            return [1.0 / len(regrets)] * len(regrets)
        return [r / total for r in positive]

    def run(self, iterations: int, *, every: int = 0) -> None:
        """Run more iterations; with ``every=k``, measure NashConv every ``k`` of them."""
        if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
            raise OptionError(f"CFR.run: iterations is a whole number >= 1, not {iterations!r}")
        if not isinstance(every, int) or isinstance(every, bool) or every < 0:
            raise OptionError(f"CFR.run: every is a whole number >= 0 (0: do not measure), "
                              f"not {every!r}")
        for _ in range(iterations):
            started = time.perf_counter()
            self._iterate()
            self.seconds += time.perf_counter() - started
            if every and self.iterations % every == 0:
                self.history.append((self.iterations, float(self.nash_conv()), self.seconds))

    def _iterate(self) -> None:
        self.iterations += 1
        weight = float(self.iterations) if self.plus else 1.0
        for player in self._deciders:   # alternating updates: one walk per player
            current = {i: self.regret_matching(t.regrets) for i, t in self.tables.items()}
            self._walk(self.root, player, 1.0, 1.0, current, weight)
            if self.plus:
                for table in self.tables.values():
                    table.regrets = [max(r, 0.0) for r in table.regrets]

    def _walk(self, node: Node, player: int, own: float, others: float,
              current: dict[Hashable, list[float]], weight: float) -> float:
        """The node's value to ``player`` under the current strategies; updates the regrets
        and the strategy sums of ``player``'s information sets below the node.

        ``own`` is the chance that ``player``'s own choices lead here, ``others`` the chance
        that everyone else's (and chance's) do.
        """
        if node.player is None:
            return node.floats[player]
        if node.player == CHANCE:
            return sum(p * self._walk(child, player, own, others * p, current, weight)
                       for p, child in zip(node.floats, node.children, strict=True))
        sigma = current[node.infoset]
        if node.player != player:
            return sum(p * self._walk(child, player, own, others * p, current, weight)
                       for p, child in zip(sigma, node.children, strict=True) if p > 0)
        action_values = [self._walk(child, player, own * p, others, current, weight)
                         for p, child in zip(sigma, node.children, strict=True)]
        value = sum(p * v for p, v in zip(sigma, action_values, strict=True))
        table = self.tables[node.infoset]
        for a, v in enumerate(action_values):
            table.regrets[a] += others * (v - value)
            table.strategy_sum[a] += weight * own * sigma[a]
        return value

    def average_strategy(self) -> dict[Hashable, dict[Any, float]]:
        """The average of the strategies played: the approximate equilibrium."""
        profile = {}
        for infoset, table in self.tables.items():
            actions = self._actions[infoset]
            total = sum(table.strategy_sum)
            if total > 0:
                profile[infoset] = {a: s / total for a, s in
                                    zip(actions, table.strategy_sum, strict=True)}
            else:
                profile[infoset] = {a: 1.0 / len(actions) for a in actions}
        return profile

    def values(self) -> tuple[float, ...]:
        """Each player's expected payoff under the average strategy."""
        return tuple(float(v) for v in
                     profile_values(self.root, self.average_strategy(), self.players))

    def nash_conv(self) -> float:
        """NashConv of the average strategy (0 at an equilibrium), exact up to float rounding."""
        return float(nash_conv(self.root, self.average_strategy(), self.players))
