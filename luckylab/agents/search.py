"""The baseline look-ahead bot: determinized voting (perfect-information Monte Carlo, "pimc").

The real information-set search is :mod:`luckylab.agents.ismcts`; this older bot is kept as the
baseline it is measured against (Island and Kill only). It is *not* ISMCTS: it deals a few
fixed worlds, searches a separate tree in each and lets them vote.

Every other bot is one readable rule. This one plays the game forward in its head, many times,
and keeps the action that won most often. Two things make that hard in Doctor Lucky:

- **Hidden cards.** The bot may not look at the other hands or the deck. So, before each
  search, it *deals the unseen cards at random*: its own hand, the discards and the cards under
  the characters stay where everyone saw them; every other card goes, shuffled, into the other
  hands (each keeping its size) and the deck. Such a made-up but possible world is a
  *determinization*. It searches several of them and lets them *vote*.
- **Chance and many players.** In each determinization it runs UCT (upper confidence bounds
  applied to trees): walk down a tree of actions, at every node picking the action with the
  best ``mean win + c * sqrt(log N / n)`` for the player who decides there; add one new node;
  finish the game with a readable bot for every seat (the *rollout*, at most ``depth``
  decisions); credit the winner.

The actions it considers at a node are those the readable bots would play there (plus every
legal action when there are only a few), so a small budget is not spread over dozens of
pointless cat moves. With one action to consider it answers at once, without searching. At the
end the rollout bot's own choice stands unless another action won clearly (by more than
``margin`` and by more than 1.64 standard errors) more often: the best of several noisy win
rates looks better than it is, and a few dozen simulations are noisy.

The simulated games run through the game protocol alone: each one is a ``clone()`` of a
determinization (``game.determinize(seat, rng)``, dealt by the engine) set quiet
(``quieten``: nobody reads their events' sentences), and the rollouts go through the engine's
``apply_trusted``, without re-checking the actions the readable bot built; the play is the same.

The budget is ``iterations`` per decision (the default, so a seed replays a game exactly) or
``time_ms`` milliseconds per decision (faster machines then search more).

>>> import luckylab
>>> from luckylab.agents.search import IslandPIMC
>>> from luckylab.agents.island import CautiousAgent
>>> game = luckylab.new_game("island", players=2, seed=4)
>>> bots = {0: IslandPIMC(seed=1, iterations=8), 2: CautiousAgent(seed=2)}
>>> while not game.is_over and game.turn < 6:
...     _ = game.apply(bots[game.current_player].choose(game))
>>> game.turn >= 6
True

This module owns the search; the rules, and how to deal what a seat cannot see, stay in
``luckylab.games``.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..errors import BadBudget, LuckyLabError
from .base import Agent
from .island import AGENTS as ISLAND_AGENTS
from .kill import AGENTS as KILL_AGENTS

_READABLE = {"island": ISLAND_AGENTS, "kill": KILL_AGENTS}
"""The readable bots the search rolls out with or takes proposals from, by game and name."""


def agent_class(game: str, name: str) -> type[Agent]:
    """The readable bot ``name`` of ``game`` (a LuckyLabError naming the bots otherwise)."""
    from ..errors import OptionError

    try:
        return _READABLE[game][name]  # type: ignore[no-any-return]
    except KeyError:
        bots = ", ".join(_READABLE.get(game, {}))
        raise OptionError(f"no readable bot {name!r} for {game}; bots: {bots}") from None

__all__ = ["AGENTS", "BadBudget", "PIMCAgent", "IslandPIMC", "KillPIMC", "determinize",
           "unseen_cards"]


# -- determinizing a game (the engines deal; these name it for the lessons) ------------------


def unseen_cards(game: Any, seat: int) -> list[int]:
    """The cards ``seat`` cannot see (the other hands and the deck), sorted by id: its
    view's ``game.view(seat).unseen_cards()``."""
    return game.view(seat).unseen_cards()  # type: ignore[no-any-return]


def determinize(game: Any, seat: int, rng: random.Random) -> Any:
    """A copy of ``game`` with every card ``seat`` cannot see dealt again at random: the
    engine's ``game.determinize(seat, rng)`` (the game protocol).

    Each other hand keeps its size and the deck its length; the copy's own random generator
    is reseeded from ``rng``. Nothing of the true hidden state survives: two games that look
    the same from ``seat`` give the same determinization for the same ``rng``.

    >>> import random, luckylab
    >>> game = luckylab.new_game("kill", players=3, seed=1)
    >>> world = determinize(game, 0, random.Random(5))
    >>> world.hands[0] == game.hands[0], len(world.hands[1]) == len(game.hands[1])
    (True, True)
    >>> sorted(world.deck + world.hands[1] + world.hands[2]) == unseen_cards(game, 0)
    True
    """
    return game.determinize(seat, rng)


# -- the search ------------------------------------------------------------------------------


class _Node:
    """One decision point in one determinization's tree."""

    __slots__ = ("seat", "actions", "children", "visits", "wins", "tried")

    def __init__(self, seat: int, actions: list[Any]) -> None:
        self.seat = seat
        self.actions = actions
        self.children: list[_Node | None] = [None] * len(actions)
        self.visits = [0] * len(actions)
        self.wins = [0.0] * len(actions)
        self.tried = 0  # actions[:tried] have been expanded


class PIMCAgent(Agent):
    """Determinized UCT with voting (see the module docstring). Subclassed per game.

    Parameters
    ----------
    seed
        Seeds the determinizations, the rollouts and the proposals of the random bot.
    iterations
        Simulated games per decision, spread over the determinizations (the default budget).
    time_ms
        If given, search for this many milliseconds per decision instead (not reproducible).
    determinizations
        How many made-up deals vote.
    rollout
        The readable bot that finishes each simulated game for every seat.
    depth
        At most this many decisions per rollout; an unfinished rollout counts as a draw.
    exploration
        The UCT constant ``c``.
    margin
        Play another action than the rollout bot's own choice only if its mean win rate over
        the search is higher by more than this, and significantly so (see ``choose``).
    """

    name = "pimc"
    game_name = "game"
    default_rollout = "random"
    proposers: tuple[str, ...] = ()
    few = 8  # consider every legal action when there are at most this many

    def __init__(self, seed: int | random.Random | None = None, *, iterations: int = 32,
                 time_ms: float | None = None, determinizations: int = 4,
                 rollout: str | None = None, depth: int = 200,
                 exploration: float = 0.7, margin: float = 0.1) -> None:
        super().__init__(seed)
        if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
            raise BadBudget(f"iterations must be a whole number >= 1, not {iterations!r}")
        if time_ms is not None and not (isinstance(time_ms, (int, float)) and time_ms > 0):
            raise BadBudget(f"time_ms must be a positive number of milliseconds, not {time_ms!r}")
        if not isinstance(determinizations, int) or determinizations < 1:
            raise BadBudget(f"determinizations must be a whole number >= 1, not "
                            f"{determinizations!r}")
        if not isinstance(depth, int) or depth < 1:
            raise BadBudget(f"depth must be a whole number >= 1, not {depth!r}")
        self._fixed_rollout = rollout is not None
        rollout = self.default_rollout if rollout is None else rollout
        if rollout == self.name:
            raise BadBudget("the rollout bot must be a readable bot, not pimc itself")
        try:
            self._rollout_class = agent_class(self.game_name, rollout)
        except (ValueError, LuckyLabError) as exc:
            raise BadBudget(str(exc)) from None
        self.iterations = iterations
        self.time_ms = time_ms
        self.determinizations = determinizations
        self.rollout = rollout
        self.depth = depth
        self.exploration = exploration
        self._proposers = [agent_class(self.game_name, n)(seed=self.rng) for n in self.proposers]
        self._default = self._rollout_class(seed=self.rng)
        self.margin = margin
        self.searched = 0  # decisions that needed a search (for benchmarks)
        self.simulations = 0

    def __repr__(self) -> str:
        budget = f"time_ms={self.time_ms}" if self.time_ms else f"iterations={self.iterations}"
        return f"{type(self).__name__}({budget}, rollout={self.rollout!r})"

    # -- what to consider --------------------------------------------------------------
    def rollout_for(self, game: Any) -> str:
        """The readable bot that rolls out ``game`` when none was given (the class default)."""
        return self.default_rollout

    def _fit(self, game: Any) -> None:
        wanted = self.rollout_for(game)
        if not self._fixed_rollout and wanted != self.rollout:  # once per game, seeded
            self.rollout = wanted
            self._rollout_class = agent_class(self.game_name, wanted)
            self._default = self._rollout_class(seed=self.rng)

    def candidates(self, game: Any) -> list[Any]:
        """The actions worth searching for ``game.current_player``, without repeats, in a
        fixed order: the rollout bot's own choice first, then all legal ones when there are
        few, else the other readable bots' proposals."""
        self._fit(game)
        first = self._default.choose(game)
        legal = self._small_legal(game)
        if legal is not None and len(legal) <= self.few:
            return list(dict.fromkeys([first, *legal]))
        return list(dict.fromkeys([first, *(p.choose(game) for p in self._proposers)]))

    def _small_legal(self, game: Any) -> list[Any] | None:
        return game.legal_actions()

    # -- choosing ----------------------------------------------------------------------
    last_search: list[tuple[Any, int, float]] = []
    """After a search: (action, simulated games that began with it, games won) per action."""

    def explain(self, game: Any) -> tuple[Any, list[tuple[Any, int, float]]]:
        """``choose(game)``, and for each action it considered: the action, how many of the
        simulated games began with it and how many of those the deciding seat won (a draw
        counts as a share). The list is empty when one action was the only one worth
        considering (no search). Choosing is unchanged: the same action as ``choose``.

        >>> import luckylab
        >>> game = luckylab.new_game("kill", players=2, seed=3)
        >>> action, counts = KillPIMC(seed=1, iterations=12).explain(game)
        >>> action == KillPIMC(seed=1, iterations=12).choose(game)
        True
        >>> sum(games for _, games, _ in counts) in (0, 12)
        True
        """
        self.last_search = []
        action = self.choose(game)
        return action, self.last_search

    def choose(self, game: Any) -> Any:
        actions = self.candidates(game)
        if len(actions) == 1:
            return actions[0]
        self.searched += 1
        me = game.current_player
        worlds = [game.determinize(me, self.rng) for _ in range(self.determinizations)]
        roots = [_Node(me, actions) for _ in worlds]
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        i = 0
        while True:
            if deadline is None:
                if i >= self.iterations:
                    break
            elif i >= len(worlds) and time.perf_counter() >= deadline:
                break
            k = i % len(worlds)
            self._iterate(worlds[k], roots[k])
            i += 1
        self.simulations += i
        # Vote: visits and wins summed over the determinizations. The rollout bot's choice
        # (actions[0]) stands unless an action tried at least half as often as the most
        # tried one wins more often by more than ``margin`` and by more than 1.64 standard
        # errors (one-sided 95 %): with a few dozen simulations per decision the means are
        # noisy, and the best of several noisy means is biased upwards (winner's curse).
        votes = [sum(r.visits[j] for r in roots) for j in range(len(actions))]
        wins = [sum(r.wins[j] for r in roots) for j in range(len(actions))]
        mean = [wins[j] / votes[j] if votes[j] else 0.0 for j in range(len(actions))]
        enough = max(votes) / 2
        best = max((j for j in range(len(actions)) if votes[j] >= enough),
                   key=lambda j: (mean[j], votes[j], -j))
        if best != 0 and votes[0]:
            p = (wins[best] + wins[0]) / (votes[best] + votes[0])
            se = math.sqrt(max(p * (1 - p), 0.01) * (1 / votes[best] + 1 / votes[0]))
            if mean[best] - mean[0] <= max(self.margin, 1.64 * se):
                best = 0
        self.last_search = list(zip(actions, votes, wins, strict=True))
        return actions[best]

    def _iterate(self, world: Any, root: _Node) -> None:
        game = world.clone()
        game.quieten(True)  # nobody reads this copy's events: skip their sentences
        path: list[tuple[_Node, int]] = []
        node = root
        while True:
            if node.tried < len(node.actions):  # expand the next untried action
                j = node.tried
                node.tried += 1
                path.append((node, j))
                game.apply(node.actions[j])
                if not game.is_over:
                    node.children[j] = _Node(game.current_player, self.candidates(game))
                break
            j = self._select(node)
            path.append((node, j))
            game.apply(node.actions[j])
            child = node.children[j]
            if game.is_over or child is None:
                break
            if child.seat != game.current_player:  # chance led elsewhere: a fresh node
                child = _Node(game.current_player, self.candidates(game))
                node.children[j] = child
            node = child
        reward = self._rollout(game)
        for node, j in path:
            node.visits[j] += 1
            node.wins[j] += reward.get(node.seat, 0.0)

    def _select(self, node: _Node) -> int:
        total = math.log(sum(node.visits))
        c = self.exploration
        best, best_score = 0, -1.0
        for j, n in enumerate(node.visits):
            score = node.wins[j] / n + c * math.sqrt(total / n)
            if score > best_score:
                best, best_score = j, score
        return best

    def _rollout(self, game: Any) -> dict[int, float]:
        bot = self._rollout_class(seed=self.rng.getrandbits(32))
        choose = bot.choose
        # Actions the readable bot built for this very state: the engine's trusted path,
        # without re-checking them (the same play).
        apply = game.apply_trusted if bot.trusted and not bot.reads_events else game.apply
        for _ in range(self.depth):
            if game.is_over:
                break
            apply(choose(game))
        if game.is_over:
            returns = game.returns()
            if any(returns):
                return {s: r for s, r in enumerate(returns) if r}
        live = list(game.view().order)  # unfinished: a draw among the live players
        return {s: 1.0 / len(live) for s in live}


class IslandPIMC(PIMCAgent):
    """Determinized voting for The Island of Doctor Lucky.

    Unless told otherwise, rollouts (and the choice that stands when the search finds nothing
    clearly better) are by the cautious bot in games with Strangers (2 or 3 players) and by
    the aggressive bot without (4 or more): in trial runs (16-48 games a setting, see
    ``benchmarks/bench_search.py``) each won more often than the other there, and the
    aggressive rollouts are about three times cheaper.

    A Phase 2 choice (pass, draw, attack) considers every legal action; Phase 1, foiling
    and penalties consider what the cautious, aggressive and random bots propose (Phase 1 has
    dozens of moves, foiling one payment per combination of Luck values, a penalty
    2 ** hand size subsets).
    """

    game_name = "island"
    default_rollout = "cautious"
    proposers = ("cautious", "aggressive", "random")

    def rollout_for(self, game: Any) -> str:
        return "cautious" if game.view(game.current_player).strangers else "aggressive"

    def _small_legal(self, game: Any) -> list[Any] | None:
        return (game.legal_actions() if game.view(game.current_player).phase == "phase2"
                else None)


class KillPIMC(PIMCAgent):
    """Determinized voting for Kill Doctor Lucky; rollouts (and the choice that stands when the
    search finds nothing clearly better) by the patient bot.

    With opportunist rollouts it won 42 of 100 two-player games against the opportunist and 1
    of 30 four-player games against patient bots; with patient rollouts 59 of 100 and 11 of 40
    (the same seeded deals, 32 iterations; see ``benchmarks/bench_search.py``).

    Considers every legal action when there are at most 8 (foiling, short turns), else what
    the opportunist, patient and random bots propose.
    """

    game_name = "kill"
    default_rollout = "patient"
    proposers = ("opportunist", "patient", "random")


AGENTS: dict[str, type[PIMCAgent]] = {"island": IslandPIMC, "kill": KillPIMC}
"""Game name -> its determinized-voting bot (agent ``"pimc"`` of that game)."""
