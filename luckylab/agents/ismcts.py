"""Information-set Monte Carlo tree search (ISMCTS): one tree, a fresh deal every iteration.

The bot plays the game forward in its head, many times, and keeps the move it tried most
often. It may not look at the cards hidden from it, so it works with its **information set**:
every state of the game its seat cannot tell apart from the real one (the same
``observation(seat)``). Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) keeps
**one tree** over that set and, on **every iteration**:

1. **Determinize**: deal every card hidden from the seat anew at random, consistent with what
   it has seen (``game.determinize(seat, rng)``, dealt by the engine: its own hand, the
   discards and every card it saw stay where it saw them). That is one possible world.
2. **Select**: walk down the tree. At each node only the children whose move is legal in this
   world are *available*; among them take the best
   ``mean + c * sqrt(log(available) / visits)`` for the seat that decides there, where
   *available* counts the iterations in which that move could have been played (a
   subset-armed bandit: a move that is rarely possible is not starved for being rare).
3. **Expand** one new move (progressive widening: a node with ``n`` visits may have
   ``1 + widening * sqrt(n)`` children, added in order: what the rollout bot would play, what
   the game's other readable bots would play, then the rest at random), so a small budget is
   not spread over dozens of pointless moves.
4. **Roll out**: finish the game with the rollout bot for every seat, through the engine's
   fast path (``play_out``).
5. **Back up** ``returns()``: each move is credited with what the seat that chose it got
   (in Panic Island! the team's score, shared by every seat).

At the root every move a readable bot would play (asked in a determinization, since a readable
bot may read more than the seat may know) is tried first. The move played is the one tried most
often, unless the rollout bot's own move did not do clearly worse (the *guard*: the other must
beat it by more than ``guard`` standard errors of the difference; a few hundred noisy rollouts
make the best of several means look better than it is). Without the guard, at small budgets,
the tree played far worse than its own rollout bot: in 2-player Kill against the patient bot,
at 100 iterations a decision, it won 7 of 60 seeded games where the patient bot in the same
seat won 29. Because every iteration draws a new
world, one tree learns what is good *on average over the worlds the seat thinks possible*,
not in one imagined deal. The moves of other seats are keyed by what they are; where a seat
cannot see another's move (a card passed face down in Doctor Who), the tree still splits on
it (the *single-observer* simplification). ``observers="multiple"`` avoids it: one tree per
seat, a hidden move one branch in the trees of those who did not make it (see
:meth:`ISMCTSAgent._iterate_observers`). ``beliefs`` deals the hidden cards as the other
players' passes suggest instead of uniformly (:mod:`luckylab.agents.beliefs`). And
``opponents="modelled"`` reads from their moves which readable bot each other player plays
like (:mod:`luckylab.agents.models`) and lets each simulated game draw the other seats' bots
from those beliefs, instead of rolling every seat out with one bot. ``others="bot"`` lets the
other seats' bots choose their moves inside the tree as well, so that only the searching seat's
own moves are searched: deep in a well-visited tree an imagined opponent then still plays as a
bot plays, not the move that did best for it on average over the worlds the searcher imagines
(in 2-player Kill more iterations then help instead of harm:
``benchmarks/results/search_variants_2026-12-05.md``, section 7).

The budget is ``iterations`` per decision (the default; a seed then replays a game exactly)
or ``cpu_ms`` milliseconds of CPU time per decision (then a faster machine searches more);
``max_cpu_ms`` keeps the iterations but stops early rather than let a decision use more CPU
time than that (a few positions, with long games ahead, cost many times the usual; the play
table's Hint answers within a second so). Both stop before an iteration that, as long as the
longest one so far, would overrun.

>>> import luckylab
>>> game = luckylab.new_game("kill", players=2, seed=3)
>>> bot = KillISMCTS(seed=1, iterations=40)
>>> action, counts = bot.explain(game)
>>> action in game.legal_actions(), sum(n for _, n, _ in counts)
(True, 40)

Everything goes through the game protocol (``luckylab.games.protocol``), so the same class
plays all five games; the rules and how to deal what a seat cannot see stay in the engines.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Iterator
from typing import Any, NamedTuple

from ..errors import BadBudget, LuckyLabError, OptionError
from ..games.shown import Unseen
from .base import Agent
from .beliefs import Beliefs
from .models import OpponentModel
from .readable import readable_class, readable_names

__all__ = ["AGENTS", "DEFAULT_ITERATIONS", "DoctorWhoISMCTS", "ISMCTSAgent", "IslandISMCTS",
           "Iteration", "KillISMCTS", "PanicISMCTS", "SaveISMCTS", "SearchTree"]


class _Edge:
    """A move out of a node: how often it was chosen, what it earned, how often it was
    available, and the nodes after it (one per seat that decides next)."""

    __slots__ = ("visits", "reward", "available", "after")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.after: dict[int, _Node] = {}


class _Node:
    """A point in the tree: the moves tried from here, in the order they were added."""

    __slots__ = ("edges", "visits", "ordered", "trees")

    def __init__(self) -> None:
        self.edges: dict[Any, _Edge] = {}
        self.visits = 0
        self.ordered: list[tuple[Any, _Edge]] = []  # the root's edges by place (see _step)
        self.trees: dict[int, _Node] | None = None  # at the root: each seat's tree (observers)


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS over the game protocol (see the module docstring).

    Subclassed per game (:data:`AGENTS`): a subclass names its game and its rollout bot.

    Parameters
    ----------
    seed
        Seeds the deals, the order new moves are tried in and the rollout bots.
    iterations
        Simulated games per decision (the default budget, reproducible).
    cpu_ms
        If given, search for up to this many milliseconds of CPU time per decision instead
        (at least one iteration; not reproducible across machines).
    max_cpu_ms
        If given, stop before ``iterations`` when one more iteration, as long as the longest
        so far, would take the decision past this many milliseconds of CPU time (at least one
        iteration); ``cut_short`` then says so. Reproducible only when the limit is not
        reached.
    rollout
        The readable bot that finishes every simulated game for every seat (but the searching
        seat's own, when ``own_rollout`` is given).
    own_rollout
        If given, the readable bot that plays the searching seat's own turns in the simulated
        games (and whose move the guard keeps, see :meth:`_verdict`); the other seats play
        like ``rollout``. By default the searching seat rolls out like the others.
    exploration
        The UCB constant ``c``.
    beliefs
        If given (0 to 1), deal the hidden cards as the other players' passes suggest
        (:mod:`luckylab.agents.beliefs`): a world in which a player who passed could have foiled
        is kept with this probability per such pass. None (the default): every deal the seat
        cannot rule out is as likely as any other.
    observers
        ``"single"`` (the default): one tree, every move keyed by what it is. ``"multiple"``:
        one tree per seat (multiple-observer ISMCTS, Cowling, Powley and Whitehouse 2012): each
        seat chooses in its own tree, where a move it cannot see (the game's
        ``HIDDEN_ACTIONS``: a card passed or played face down) is one branch however it was
        made, so a seat's later choices do not depend on what it could not have known. In a
        game that hides no move the two are the same search.
    rollout_epsilon
        In the simulated games, each decision of a rollout bot is the game's random bot's
        instead with this probability (an epsilon-greedy rollout; 0, the default: never). The
        engines' fused turns then cannot play the rollouts.
    opponents
        ``"fixed"`` (the default): ``rollout`` plays every other seat in the simulated games.
        ``"modelled"``: each other seat is played by a readable bot drawn, for every simulated
        game, from how likely each is to be the one playing that seat, read from the moves it
        played (:mod:`luckylab.agents.models`; the model read so far is :attr:`model`). The
        bot must then be asked at every decision of its seat in one game, in order.
    others
        How the other seats choose inside the tree. ``"search"`` (the default): as the searching
        seat does, each by its own results (UCB), so deep in a well-visited tree an imagined
        opponent plays the move that did best for it on average over the worlds. ``"bot"``:
        the bot that rolls its seat out (``rollout``'s, or the one ``opponents="modelled"``
        dealt this simulated game) plays its moves in the tree too; the tree then branches on
        what that bot did, and only the searching seat's choices are searched.
    widening
        A node with ``n`` visits may have ``1 + widening * sqrt(n)`` children.
    """

    name = "ismcts"
    game_name: str | None = None
    default_rollout = "random"
    default_own_rollout: str | None = None  # None: the searching seat rolls out like the rest
    default_iterations = 200
    default_beliefs: float | None = None  # None: uniform deals (see ``beliefs``)
    default_observers = "single"
    default_opponents = "fixed"  # the rollout bot plays every other seat (see ``opponents``)
    default_others = "search"  # the other seats choose in the tree too (see ``others``)
    trusted = True  # a legal move: listed, or a readable bot's move the game accepted
    reads_events = False

    def __init__(self, seed: int | random.Random | None = None, *,
                 iterations: int | None = None, cpu_ms: float | None = None,
                 max_cpu_ms: float | None = None,
                 rollout: str | None = None, own_rollout: str | None = None,
                 exploration: float = 0.7,
                 widening: float = 1.0, guard: float = 1.64,
                 beliefs: float | None = None, observers: str | None = None,
                 rollout_epsilon: float = 0.0, opponents: str | None = None,
                 others: str | None = None) -> None:
        super().__init__(seed)
        iterations = self.default_iterations if iterations is None else iterations
        if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
            raise BadBudget(f"iterations must be a whole number >= 1, not {iterations!r}")
        for what, ms in (("cpu_ms", cpu_ms), ("max_cpu_ms", max_cpu_ms)):
            if ms is not None and (isinstance(ms, bool) or not isinstance(
                    ms, (int, float)) or not 0 < ms < math.inf):
                raise BadBudget(f"{what} must be a positive number of milliseconds, not {ms!r}")
        for what, value in (("exploration", exploration), ("widening", widening),
                            ("guard", guard)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    0 <= value < math.inf):
                raise BadBudget(f"{what} must be a number >= 0, not {value!r}")
        beliefs = self.default_beliefs if beliefs is None else beliefs
        if beliefs is not None and (isinstance(beliefs, bool) or not isinstance(
                beliefs, (int, float)) or not 0 <= beliefs <= 1):
            raise BadBudget(f"beliefs must be a number from 0 to 1 (or None), not {beliefs!r}")
        if isinstance(rollout_epsilon, bool) or not isinstance(
                rollout_epsilon, (int, float)) or not 0 <= rollout_epsilon <= 1:
            raise BadBudget(f"rollout_epsilon must be a number from 0 to 1, not "
                            f"{rollout_epsilon!r}")
        observers = self.default_observers if observers is None else observers
        if observers not in ("single", "multiple"):
            raise BadBudget(f"observers must be 'single' or 'multiple', not {observers!r}")
        opponents = self.default_opponents if opponents is None else opponents
        if opponents not in ("fixed", "modelled"):
            raise BadBudget(f"opponents must be 'fixed' or 'modelled', not {opponents!r}")
        others = self.default_others if others is None else others
        if others not in ("search", "bot"):
            raise BadBudget(f"others must be 'search' or 'bot', not {others!r}")
        if self.name in (rollout, own_rollout):
            raise BadBudget("the rollout bot must be a readable bot, not ismcts itself")
        self._given = (rollout, own_rollout)
        try:
            self._use(*self._wanted(None))
        except OptionError as exc:
            raise BadBudget(str(exc)) from None
        self.iterations = iterations
        self.cpu_ms = cpu_ms
        self.max_cpu_ms = max_cpu_ms
        self.cut_short = False  # the last search stopped at max_cpu_ms, before its iterations
        self.exploration = float(exploration)
        self.widening = float(widening)
        self.guard = float(guard)
        self.beliefs = None if beliefs is None else float(beliefs)
        self.reads_events = self.beliefs is not None  # beliefs read the passes in the events
        self.observers = observers
        self.rollout_epsilon = float(rollout_epsilon)
        self.opponents = opponents
        self.others = others
        self.model: OpponentModel | None = None  # with opponents="modelled": what it has read
        self._types: dict[int, type[Agent]] | None = None  # this iteration's opponents' bots
        self.last_beliefs: Beliefs | None = None  # the last search's (what it read, dealt)
        self.searched = 0  # decisions that needed a search (for benchmarks)
        self.simulations = 0
        self.last_search: list[tuple[Any, int, float]] = []
        self.last_default: Any = None  # the rollout bot's move at the last search

    def __repr__(self) -> str:
        budget = f"cpu_ms={self.cpu_ms}" if self.cpu_ms else f"iterations={self.iterations}"
        if self.max_cpu_ms and not self.cpu_ms:
            budget += f", max_cpu_ms={self.max_cpu_ms}"
        own = f", own_rollout={self.own_rollout!r}" if self.own_rollout else ""
        if self.beliefs is not None:
            own += f", beliefs={self.beliefs:g}"
        if self.opponents != "fixed":
            own += f", opponents={self.opponents!r}"
        if self.others != "search":
            own += f", others={self.others!r}"
        return f"{type(self).__name__}({budget}, rollout={self.rollout!r}{own})"

    def _wanted(self, game: Any) -> tuple[str, str | None]:
        """The rollout bots for ``game`` (None: before any game): the ones given, else the
        class's choice (a ``rollout`` given alone rolls out every seat)."""
        rollout, own = self._given
        if rollout is None:
            rollout = self.default_rollout if game is None else self.rollout_for(game)
            if own is None:
                own = self.default_own_rollout if game is None else self.own_rollout_for(game)
        return rollout, (None if own == rollout else own)

    def _use(self, rollout: str, own: str | None = None) -> None:
        cls = self._rollout_class = readable_class(self.game_name, rollout)
        mine = self._own_class = cls if own is None else readable_class(self.game_name, own)
        rest = [readable_class(self.game_name, n)
                for n in readable_names(self.game_name) if n not in (rollout, own)]
        # The readable bots asked for moves, in order: for the searching seat its own rollout
        # bot first, for the other seats the rollout bot (``_proposed``'s ``mine``).
        self._proposers = {True: [mine, *([cls] if own else []), *rest],
                           False: [cls, *([mine] if own else []), *rest]}
        self.rollout, self.own_rollout = rollout, own

    def rollout_for(self, game: Any) -> str:
        """The readable bot that rolls out ``game`` when none was given (the class default;
        a game where another bot is better at some player counts says so here)."""
        return self.default_rollout

    def own_rollout_for(self, game: Any) -> str | None:
        """The readable bot that plays the searching seat's own turns in the simulated games
        of ``game`` when no rollout bot was given (None: the same as the others')."""
        return self.default_own_rollout

    # -- reading a search, one iteration at a time ------------------------------------------
    def tree(self, game: Any) -> SearchTree:
        """A new search tree for ``game``, to grow an iteration at a time and print (see
        :class:`SearchTree`): the same steps as :meth:`explain`, for reading, not playing."""
        legal = game.legal_actions()
        wanted = self._wanted(game)
        if wanted != (self.rollout, self.own_rollout):
            self._use(*wanted)
        self._read_opponents(game)
        return SearchTree(self, game, *self._root(game, legal))

    # -- choosing ------------------------------------------------------------------------
    def choose(self, game: Any) -> Any:
        return self.explain(game)[0]

    def explain(self, game: Any) -> tuple[Any, list[tuple[Any, int, float]]]:
        """The move ``choose`` plays, and for each move tried at the root: the move, how many
        simulated games began with it and what the deciding seat earned in them (wins, or
        the team's score in Panic Island!), most tried first. The list is empty when there
        was only one legal move (no search).

        >>> import luckylab
        >>> game = luckylab.new_game("panic", players=4, seed=2)
        >>> action, counts = PanicISMCTS(seed=5, iterations=30).explain(game)
        >>> action == counts[0][0], counts[0][1] >= counts[-1][1]
        (True, True)
        """
        clock = time.process_time
        start = clock()  # the budget counts the whole decision, the moves' list included
        legal = game.legal_actions()
        self.cut_short = False
        if len(legal) == 1:
            self.last_search = []
            return legal[0], []
        self.searched += 1
        wanted = self._wanted(game)
        if wanted != (self.rollout, self.own_rollout):
            self._use(*wanted)
        self._read_opponents(game)
        root, first, moves, place = self._root(game, legal)
        me = game.current_player
        # Stop before an iteration that, as long as the longest so far, would end past the
        # budget: one iteration can cost a tenth of a second where the game has long to run.
        timed = self.cpu_ms is not None
        ms = self.cpu_ms if timed else self.max_cpu_ms
        end = math.inf if ms is None else start + ms / 1000
        done, longest, now = 0, 0.0, clock()
        deal = self._dealer(game, me)
        while done == 0 or ((timed or done < self.iterations) and now + longest < end):
            self._iterate(deal(self.rng), me, root, moves, place)
            done += 1
            if ms is not None:  # (reading the CPU clock is a system call: only for a CPU budget)
                before, now = now, clock()
                longest = max(longest, now - before)
        self.cut_short = not timed and done < self.iterations
        self.simulations += done
        ranked = sorted(root.edges.items(), key=lambda item: (
            -item[1].visits, -item[1].reward / max(item[1].visits, 1)))
        self.last_search = [(a, e.visits, e.reward) for a, e in ranked if e.visits]
        return self._verdict(first, root.edges, ranked[0][0]), self.last_search

    def _read_opponents(self, game: Any) -> None:
        """With ``opponents="modelled"``: read the moves played since the last decision into
        :attr:`model` (:class:`~luckylab.agents.models.OpponentModel`; a new one for a new
        seat or rollout bot)."""
        if self.opponents != "modelled":
            return
        me = game.current_player
        model = self.model
        if model is None or model.seat != me or model.rollout != self.rollout:
            model = self.model = OpponentModel(self.game_name or game.game_name, me,
                                               rollout=self.rollout)
        model.observe(game, self.rng)

    def _dealer(self, game: Any, me: int) -> Any:
        """How this search deals its worlds: ``game.determinize(me, rng)``, or by
        :class:`~luckylab.agents.beliefs.Beliefs` when ``beliefs`` is set."""
        if self.beliefs is None:
            self.last_beliefs = None
            return lambda rng: game.determinize(me, rng)
        self.last_beliefs = Beliefs(game, me, self.beliefs)
        return self.last_beliefs.deal

    def _root(self, game: Any, legal: list[Any]) -> tuple[_Node, Any, list[Any], dict[Any, int]]:
        """A new tree for ``game`` (whose legal moves are ``legal``): its root, this seat's
        rollout bot's move (``first``, the one the guard keeps), the root's moves and their
        places. One determinization is dealt, to ask the readable bots for their moves."""
        me = game.current_player
        root = _Node()
        # The readable bots' moves are tried first. They are asked in a determinization, not
        # in the real game: a readable bot may read more than this seat may know. A move the
        # list leaves out (an Island foil naming particular cards among cards of equal Luck:
        # the list holds one payment per combination of Luck values) is kept if the game
        # accepts it: it is this seat's own move, legal in every world the seat thinks possible.
        # The root's moves are this seat's own: the same list in every world the seat thinks
        # possible (the conformance suite checks it for every game), so it is made once, not
        # in every world (with Strangers an Island turn may have 300,000 Moves). ``place``:
        # each move's place in that list.
        place = {a: i for i, a in enumerate(legal)}
        proposals = self._proposed(game.determinize(me, self.rng), place, game)
        for action in dict.fromkeys(proposals) or [legal[0]]:
            root.edges[action] = _Edge()
        first = self.last_default = next(iter(root.edges))  # this seat's rollout bot's choice
        unlisted = [a for a in root.edges if a not in place]
        place.update((a, len(legal) + k) for k, a in enumerate(unlisted))
        return root, first, legal + unlisted, place

    def _verdict(self, first: Any, edges: dict[Any, _Edge], best: Any) -> Any:
        """The move tried most often, unless the searching seat's rollout bot's own choice
        (``first``: ``own_rollout``'s when given, else ``rollout``'s) did not
        do clearly worse: the best of several noisy means looks better than it is, so another
        move must beat it by more than ``guard`` standard errors of the difference."""
        a, b = edges[best], edges[first]
        if best == first or not self.guard or not b.visits:
            return best
        mean_a, mean_b = a.reward / a.visits, b.reward / b.visits
        p = (a.reward + b.reward) / (a.visits + b.visits)
        se = math.sqrt(max(p * (1 - p), 0.01) * (1 / a.visits + 1 / b.visits))
        return best if mean_a - mean_b > self.guard * se else first

    def _proposed(self, world: Any, legal: Collection[Any], real: Any = None,
                  mine: bool = True) -> Iterator[Any]:
        """The moves the readable bots would play in ``world``, first the one that rolls out
        the seat deciding there (``mine``: the searching seat), one bot (and one draw of the
        seed) at a time. A bot may build a legal move that ``legal_actions()`` does not list:
        it is skipped, unless ``real`` (the real game, at the root) accepts it."""
        proposers = self._proposers[mine]
        if not mine and self._types:  # the seat's modelled bot first
            lead = self._types.get(world.current_player)
            if lead is not None and lead is not proposers[0]:
                proposers = [lead, *(c for c in proposers if c is not lead)]
        for cls in proposers:
            proposal = _bot(cls, self.rng).choose(world)
            if proposal in legal or (real is not None and _accepted(real, proposal)):
                yield proposal

    # -- one iteration -------------------------------------------------------------------
    def _iterate(self, world: Any, me: int, root: _Node, moves: list[Any],
                 place: dict[Any, int]) -> tuple[list[tuple[Any, int, bool]], Any]:
        """One simulated game in ``world``. ``moves``: the root's moves (the legal list, then
        readable bots' moves the game accepts that it leaves out); ``place``: their places.
        Returns the moves walked in the tree (move, seat, whether it was added now) and the
        game's ``returns()``."""
        if not (self._rollout_class.reads_events or self._own_class.reads_events):
            world.quieten(True)  # nobody reads a simulated game's sentences
        if self.opponents == "modelled" and self.model is not None:
            # each simulated game deals the other players' bots too, from the model's beliefs
            self._types = self.model.sample(self.rng, range(world.num_seats))
        if self.observers == "multiple":
            return self._iterate_observers(world, me, root, moves, place)
        path: list[tuple[_Edge, int]] = []
        walked: list[tuple[Any, int, bool]] = []
        node, seat = root, me
        while True:
            edge, action, new = self._choose(world, node, root, seat, me, moves, place)
            path.append((edge, seat))
            walked.append((action, seat, new))
            world.apply_trusted(action)
            if new or world.is_over:
                break
            seat = world.current_player
            after = edge.after.get(seat)
            if after is None:
                after = edge.after[seat] = _Node()
            node = after
        if not world.is_over:
            self._roll_out(world, me)
        returns = world.returns()
        for edge, seat in path:
            edge.visits += 1
            edge.reward += returns[seat]
        return walked, returns

    def _iterate_observers(self, world: Any, me: int, root: _Node, moves: list[Any],
                           place: dict[Any, int]) -> tuple[list[tuple[Any, int, bool]], Any]:
        """One simulated game of multiple-observer ISMCTS: the seat to move chooses in its own
        tree (by :meth:`_step`, as in the single tree); every other seat's tree follows the
        move as that seat saw it (an :class:`~luckylab.games.shown.Unseen` for a hidden move);
        the statistics are those of each move in its mover's tree."""
        hidden = frozenset(getattr(type(world), "HIDDEN_ACTIONS", ()))
        trees = root.trees
        if trees is None:
            trees = root.trees = {s: (root if s == me else _Node())
                                  for s in range(world.num_seats)}
        nodes = dict(trees)
        path: list[tuple[_Edge, int]] = []
        walked: list[tuple[Any, int, bool]] = []
        seat = me
        while True:
            edge, action, new = self._choose(world, nodes[seat], root, seat, me, moves, place)
            path.append((edge, seat))
            walked.append((action, seat, new))
            seen = Unseen(action.type_name, seat) if type(action) in hidden else action
            world.apply_trusted(action)
            if new or world.is_over:
                break
            mover, seat = seat, world.current_player
            for observer, at in nodes.items():
                if observer == mover:
                    followed = edge
                else:  # the move as this seat saw it: a branch its own choices never pick
                    followed = at.edges.get(seen)
                    if followed is None:
                        followed = at.edges[seen] = _Edge()
                after = followed.after.get(seat)
                if after is None:
                    after = followed.after[seat] = _Node()
                nodes[observer] = after
        if not world.is_over:
            self._roll_out(world, me)
        returns = world.returns()
        for edge, mover in path:
            edge.visits += 1
            edge.reward += returns[mover]
        return walked, returns

    def _roll_out(self, world: Any, me: int) -> None:
        """Finish ``world`` with the rollout bots: ``own_rollout``'s for ``me`` if given,
        ``rollout``'s for every other seat; with ``rollout_epsilon`` each of their decisions is
        the game's random bot's instead, with that probability."""
        bot = _bot(self._rollout_class, self.rng)
        choosers = [bot.choose] * world.num_seats
        if self._own_class is not self._rollout_class:
            choosers[me] = _bot(self._own_class, self.rng).choose
        if self._types:  # the bots the opponent model dealt this simulated game
            made = {self._rollout_class: bot}
            for seat, cls in self._types.items():
                if cls not in made:
                    made[cls] = _bot(cls, self.rng)
                choosers[seat] = made[cls].choose
        if self.rollout_epsilon:
            wild = _bot(readable_class(self.game_name, "random"), self.rng).choose
            choosers = [_mixed(choose, wild, self.rollout_epsilon, self.rng)
                        for choose in choosers]
        world.play_out(choosers)

    def _choose(self, world: Any, node: _Node, root: _Node, seat: int, me: int,
                moves: list[Any], place: dict[Any, int]) -> tuple[_Edge, Any, bool]:
        """The move ``seat`` makes at ``node`` in this world (by :meth:`_step`, or its bot's
        with ``others="bot"``), its edge and whether it was added to the tree now."""
        if node is root:
            return self._step(world, node, moves, place, True)
        if seat != me and self.others == "bot":
            return self._bot_step(world, node, seat)
        legal = world.legal_actions()
        return self._step(world, node, legal, {a: i for i, a in enumerate(legal)},
                          mine=seat == me)

    def _bot_step(self, world: Any, node: _Node, seat: int) -> tuple[_Edge, Any, bool]:
        """With ``others="bot"``: the move the bot rolling ``seat`` out plays at ``node``, on
        the edge it takes (made if new). It is not an expansion (the returned flag is False):
        the walk goes on to the searching seat's next choice, where the tree grows."""
        cls = (self._types or {}).get(seat, self._rollout_class)
        action = _bot(cls, self.rng).choose(world)
        node.visits += 1
        edge = node.edges.get(action)
        if edge is None:
            edge = node.edges[action] = _Edge()
        edge.available += 1
        return edge, action, False

    def _step(self, world: Any, node: _Node, legal: list[Any], place: dict[Any, int],
              root: bool = False, mine: bool = True) -> tuple[_Edge, Any, bool]:
        """Pick the move at ``node`` in this world: a new one while the node may still widen,
        else the best available by UCB. Returns the edge, the move and whether it is new.
        ``place``: each legal move's place in ``legal``; at the ``root`` every move of the
        tree is legal in every world; ``mine``: the searching seat decides there."""
        edges = node.edges
        node.visits += 1
        if root:  # the moves in the tree in order of place, without a walk through legal
            available = node.ordered  # sorted again only when a move was added
            if len(available) != len(edges):
                available = node.ordered = sorted(edges.items(), key=lambda item: place[item[0]])
        elif len(place) == len(legal):  # those of the tree's moves legal here, in legal order
            available = sorted([(a, e) for a, e in edges.items() if a in place],
                               key=lambda item: place[item[0]])
        else:  # a list that repeats a move
            available = [(a, edges[a]) for a in legal if a in edges]
        for _, edge in available:
            edge.available += 1
        for action, edge in available:
            if not edge.visits:  # a move proposed at the root, not tried yet
                return edge, action, True
        if not available or (len(available) < len(legal) and len(available) < 1 + self.widening
                             * math.sqrt(node.visits - 1)):
            action = self._next_untried(world, legal, edges, place, mine)
            edge = edges[action] = _Edge()
            edge.available = 1
            return edge, action, True
        c = self.exploration
        best, best_edge, best_score = None, None, -math.inf
        for action, edge in available:
            n = edge.visits
            score = edge.reward / n + c * math.sqrt(math.log(edge.available) / n)
            if score > best_score:
                best, best_edge, best_score = action, edge, score
        return best_edge, best, False  # type: ignore[return-value]

    def _next_untried(self, world: Any, legal: list[Any], edges: dict[Any, _Edge],
                      place: dict[Any, int], mine: bool = True) -> Any:
        """The first move not yet in the tree of: the deciding seat's rollout bot's choice,
        the other readable bots' choices, then a random legal move (``place``: each one's
        place in ``legal``)."""
        for proposal in self._proposed(world, place, mine=mine):
            if proposal not in edges:
                return proposal
        if len(place) != len(legal):  # a list that repeats a move
            untried = [a for a in legal if a not in edges]
            return untried[self.rng.randrange(len(untried))]
        # untried[k] of the list above, from the places taken (no walk through legal)
        taken = sorted([place[a] for a in edges if a in place])
        k = self.rng.randrange(len(legal) - len(taken))
        for i in taken:
            if i > k:
                break
            k += 1
        return legal[k]


class Iteration(NamedTuple):
    """What one iteration of :meth:`SearchTree.iterate` did."""

    world: Any
    """The determinization dealt (as dealt, before the iteration played in it)."""
    path: list[tuple[Any, int, bool]]
    """The moves walked down the tree, each ``(move, seat, added)``; ``added`` for the one
    move expanded (the last)."""
    returns: Any
    """What each seat got in the finished game (``returns()``)."""


class SearchTree:
    """One ISMCTS tree, grown an iteration at a time, to read how the bot searches.

    Made by :meth:`ISMCTSAgent.tree`. :meth:`iterate` runs one iteration (determinize, select,
    expand, roll out, back up: the steps of :meth:`ISMCTSAgent.explain`, with the bot's
    generator) and says what it did; :meth:`lines` prints the tree: each move with its visits,
    its mover's total result ("wins") and its availability. It plays nothing and changes
    nothing in the game; growing a tree draws from the bot's generator, as a search does.

    >>> import luckylab
    >>> game = luckylab.new_game("kill", players=2, seed=3)
    >>> tree = KillISMCTS(seed=1).tree(game)
    >>> step = tree.iterate()
    >>> [added for _, _, added in step.path][-1], tree.iterations
    (True, 1)
    >>> tree.lines(depth=1)[0].endswith("to move: 1 iteration")
    True
    """

    def __init__(self, bot: ISMCTSAgent, game: Any, root: _Node, first: Any,
                 moves: list[Any], place: dict[Any, int]) -> None:
        self.bot, self.game, self.root = bot, game, root
        self.seat = game.current_player
        self.rule_move = first  # the rollout bot's move: the one the guard keeps
        self._moves, self._place = moves, place
        self._deal = bot._dealer(game, self.seat)
        self.iterations = 0

    def iterate(self) -> Iteration:
        """One iteration on a fresh determinization; what it did (:class:`Iteration`)."""
        world = self._deal(self.bot.rng)
        dealt = world.clone()
        path, returns = self.bot._iterate(world, self.seat, self.root, self._moves,
                                          self._place)
        self.iterations += 1
        return Iteration(dealt, path, returns)

    def choice(self) -> Any:
        """The move the bot would play after the iterations so far (with its guard)."""
        ranked = sorted(self.root.edges.items(), key=lambda item: (
            -item[1].visits, -item[1].reward / max(item[1].visits, 1)))
        return self.bot._verdict(self.rule_move, self.root.edges, ranked[0][0])

    def lines(self, describe: Any = str, depth: int = 2,
              seat_name: Any = lambda seat: f"Player {seat + 1}") -> list[str]:
        """The tree as text, to ``depth`` moves down: per node, whose move it is; per move,
        ``visits``, ``wins`` (its mover's total result) and ``available``. ``describe(game,
        move)`` names a move (default: ``str(move)``); ``seat_name(seat)`` names a seat."""
        name = (lambda game, move: str(move)) if describe is str else describe
        its = "iteration" if self.iterations == 1 else "iterations"
        out = [f"{seat_name(self.seat)} to move: {self.iterations} {its}"]

        def walk(node: _Node, indent: str, level: int) -> None:
            for move, edge in node.edges.items():
                if not edge.visits and not edge.available:
                    continue
                out.append(f"{indent}{name(self.game, move)}: visits {edge.visits}, wins "
                           f"{edge.reward:g}, available {edge.available}")
                if level < depth:
                    for seat, after in edge.after.items():
                        if after.edges:
                            out.append(f"{indent}  then {seat_name(seat)} to move:")
                            walk(after, indent + "    ", level + 1)

        walk(self.root, "  ", 1)
        return out


_IDLE = random.Random(0)  # the generator of the bots that never draw from theirs


def _bot(cls: type[Agent], rng: random.Random) -> Agent:
    """A ``cls`` bot seeded by a draw from ``rng``; one that says it never draws from its
    generator (``draws = False`` in its own class) gets the shared idle one instead of a
    seeded one (the same play; ``rng`` draws the seed all the same)."""
    seed = rng.getrandbits(32)
    return cls(seed=_IDLE if cls.__dict__.get("draws", True) is False else seed)


def _mixed(choose: Any, wild: Any, epsilon: float, rng: random.Random) -> Any:
    """A chooser that asks ``wild`` with probability ``epsilon``, else ``choose``."""
    def mixed(game: Any) -> Any:
        return wild(game) if rng.random() < epsilon else choose(game)
    return mixed


def _accepted(game: Any, action: Any) -> bool:
    """Whether ``game``'s checked ``apply`` accepts ``action`` (tried on a copy)."""
    try:
        game.clone().apply(action)
    except LuckyLabError:
        return False
    return True


class IslandISMCTS(ISMCTSAgent):
    """ISMCTS for The Island of Doctor Lucky, rolling out with the cautious bot when Strangers
    play (2 or 3 players) and the aggressive bot without them: the better of the two there
    (``benchmarks/bench_search.py``: the best readable bot in Player 1's seat).

    As rollouts too: Player 1's wins in 4-player games at 64 iterations, 200 seeded games a row
    (``benchmarks/bench_search.py``'s deals and opponents), against random, aggressive and
    cautious bots and the mix: 0.843 (400 games), 0.300, 0.870 and 0.450 with aggressive
    rollouts; 0.805, 0.130, 0.895 and 0.395 with cautious ones, at 1.4 times the CPU.
    """

    game_name = "island"
    default_rollout = "cautious"

    def rollout_for(self, game: Any) -> str:
        return "cautious" if game.num_seats != game.players else "aggressive"


class KillISMCTS(ISMCTSAgent):
    """ISMCTS for Kill Doctor Lucky, rolling out with the patient bot.

    No rollout measured clearly better. Player 1's wins in 4-player games at 64 iterations,
    200 seeded games a row (``benchmarks/bench_search.py``'s deals and opponents), against
    random, opportunist and patient bots and the mix: 0.835, 0.465, 0.325 and 0.220 with
    patient rollouts; 0.970, 0.350, 0.185 and 0.255 with opportunist rollouts; 0.985, 0.345,
    0.250 and 0.265 with the opportunist playing only the searching seat
    (``own_rollout="opportunist"``: its move is then the one the guard keeps). The patient
    bot is ahead against the two readable oppositions, the others against random play.
    """

    game_name = "kill"
    default_rollout = "patient"


class SaveISMCTS(ISMCTSAgent):
    """ISMCTS for Save Doctor Lucky, rolling out with the train-rider bot.

    Greedy rollouts, though the greedy bot is the best readable bot in Player 1's seat, made
    no better searcher at 1.5 to 2 times the CPU (the rider's turns are fused, the greedy
    bot's are not). Player 1's wins in 4-player games at 64 iterations, 100 seeded games a row
    (``benchmarks/bench_search.py``'s deals and opponents), against rider, greedy, cautious and
    random bots and the mix: 0.25, 0.28, 0.21, 0.26 and 0.37 with rider rollouts; 0.18, 0.26,
    0.27, 0.29 and 0.37 with greedy ones; with the greedy bot playing only the searching seat
    (``own_rollout="greedy"``), 0.31 against greedy bots and 0.32 against the mix.
    """

    game_name = "save"
    default_rollout = "rider"
    default_iterations = 150


class PanicISMCTS(ISMCTSAgent):
    """ISMCTS for Panic Island! (cooperative: every seat earns the team's score), rolling out
    with the perfect-memory bot."""

    game_name = "panic"
    default_rollout = "perfect"


class DoctorWhoISMCTS(ISMCTSAgent):
    """ISMCTS for Doctor Who: The Card Game, rolling out with the bluffer bot (the best readable
    bot in Player 1's seat).

    Its rollouts are fused turns (``games.doctorwho.fast`` plays the bluffer bot as it does the
    greedy one, at about the same CPU), and they make a much stronger searcher than greedy
    rollouts. Player 1's wins at 24 iterations, 40 seeded games a row
    (``benchmarks/bench_search.py``'s deals and opponents), against copies of the greedy,
    careful and bluffer bots and the mix: with 3 players 0.762, 0.675, 0.388 and 0.637 (0.550,
    0.400, 0.400 and 0.500 with greedy rollouts); with 4 players 0.438, 0.362, 0.163 and 0.588
    (0.300, 0.212, 0.125 and 0.275). A decision took 37-52 ms of CPU on average (459-656
    simulations per CPU second; 106-146 ms before the bluffer's turns were fused), at most
    0.9 s on this shared machine. Against the 4-player mix, greedy rollouts at 64 iterations
    (as much CPU as bluffer ones at 24 then) won 0.400 and careful ones at 24 won 0.325.
    """

    game_name = "doctorwho"
    default_rollout = "bluffer"
    default_iterations = 24  # a rollout costs about 20 times a Kill one


AGENTS: dict[str, type[ISMCTSAgent]] = {
    "island": IslandISMCTS, "kill": KillISMCTS, "save": SaveISMCTS, "panic": PanicISMCTS,
    "doctorwho": DoctorWhoISMCTS}
"""Game name -> its ISMCTS bot (agent ``"ismcts"`` of that game)."""

DEFAULT_ITERATIONS = {game: cls.default_iterations for game, cls in AGENTS.items()}
"""Simulated games per decision when no budget is given, by game: what keeps a decision under
about a second of CPU time here (``benchmarks/bench_search.py`` reports the cost)."""
