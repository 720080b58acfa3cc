"""Opponent models: which readable bot each other player plays like, read from its moves.

A look-ahead bot imagines how the game goes on, and in its imagined games somebody must play
the other seats. By default one readable bot plays them all, whoever really sits there. But
the table shows how each player plays: a player who throws a Hazard at Doctor Lucky is no
cautious bot; one who pays to foil while others are still to be asked is no patient one.
This module keeps, for every other seat, how likely each readable bot is to be the one
playing it: Bayes' rule, one move at a time.

**The hypotheses.** Seat ``s`` plays like readable bot ``b``, for each of the game's readable
bots. The prior gives the searcher's rollout bot ``prior`` (a half by default: it was chosen
because it rolls out best when nothing is known) and shares the rest equally.

**The likelihood of a move.** When seat ``s`` played move ``a`` in position ``x``,

    P(a | b) = (1 - tremble) * P_b(a | x) + tremble * floor

``P_b(a | x)`` is 1 or 0 for a bot that never draws from its generator (it plays ``a`` there
or it does not), the bot's own :meth:`~luckylab.agents.base.Agent.probability` where it has
one (the random bots: one over the number of legal moves, or the Island's two-step draw), and
otherwise the share of a few draws of the bot's choice. The *tremble* (a player now and then
does something its bot would not; each such move gets the small chance ``floor``) keeps one
surprising move from ruling a bot out for good. After moves ``a1, a2, ...`` the posterior is
``prior(b) * P(a1 | b) * P(a2 | b) * ...``, normalised over the bots.

**Where the positions come from.** The searcher may not see the other hands, so it does not
know ``x`` exactly. At each of its own decisions it deals a few worlds it cannot tell from the
real one (``game.determinize``) and keeps them; at its next decision it replays in each world
the moves played since, its own and the others'. Before another seat's move it asks each
readable bot what it would play there. A world in which a move is illegal contradicts what
happened (in it, the player did not hold the card it then played face up) and is dropped;
once every world is dropped, or a move was hidden from this seat (a card passed face down),
the moves until its next decision tell nothing. Moves played before its first decision are
not read (it had no worlds yet). A move that every world contradicts (it played a card none
of them dealt the player) is read by its *shape* (:func:`shape_of`: a Hazard thrown at
Doctor Lucky, whichever Hazard), in the worlds as they were, and ends the replay until the
next decision.

**A bot is judged by the world that suits it best**: its likelihood for the moves since the
last decision is the largest, over the worlds, of the product of their chances in that world.
(The mean over the worlds would be the exact marginal if the worlds were dealt from all that
was seen before; dealt afresh at every decision, they forget that a player who held no Hazard
a turn ago probably holds none now, and the mean counts that one fact against the aggressive
bot turn after turn.) Measured on 84 games of readable bots (``tests/test_opponent_models.py``
reads a few), the likeliest bot was the seat's own in 184 of 207 seats with the mean, 188 with
the best world (16 worlds each), 196 with 64 worlds. With 16, 10 of the 207 were confidently
wrong (their own bot under 0.05), 7 of them the Island's aggressive bot read as cautious: while
it holds no Hazard the two play alike.

A worked example (the Island, 4 players). After Player 2 throws a Hazard at Doctor Lucky, a
cautious bot (which never throws one) has ``P = 0.9 * 0 + 0.1 * 0.01 = 0.001`` and an
aggressive bot (which throws whenever one can hit him) ``0.9 * 1 + 0.001 = 0.901``. From the
prior ``1/2, 1/4, 1/4`` (aggressive rolls out, cautious, random) the posterior of cautious is
``0.25 * 0.001 / (0.5 * 0.901 + 0.25 * 0.001 + 0.25 * P_random)``: under 0.001.

>>> import luckylab, random
>>> from luckylab.agents.island import CautiousAgent
>>> game = luckylab.new_game("island", players=4, seed=3)
>>> me = game.current_player          # Player 2 moves first here
>>> model = OpponentModel("island", seat=me, rollout="aggressive")
>>> bots = [CautiousAgent(seed=seat) for seat in range(4)]
>>> rng = random.Random(1)
>>> def play(moves):                  # Player 2 reads the table at each of its decisions
...     for _ in range(moves):
...         if game.current_player == me:
...             model.observe(game, rng)
...         _ = game.apply(bots[game.current_player].choose(game))
>>> def cautious():
...     return {f"Player {s + 1}": round(model.posterior(s)["cautious"], 3)
...             for s in sorted(model.moves_read)}
>>> play(40)
>>> cautious()          # Players 1 and 4 might still be aggressive bots holding no Hazard
{'Player 1': 0.333, 'Player 3': 0.998, 'Player 4': 0.333}
>>> play(40)
>>> cautious()
{'Player 1': 0.998, 'Player 3': 1.0, 'Player 4': 1.0}
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from ..errors import BadBudget, LuckyLabError
from ..games.shown import Unseen
from .base import Agent
from .readable import readable_class, readable_names

__all__ = ["CARD_FIELDS", "OpponentModel", "shape_of"]

CARD_FIELDS = frozenset({"card", "cards", "weapon", "aid", "take_from"})
"""The fields of the games' actions that name cards: a world dealt without seeing the other
hands cannot expect a player to play the very card it played, only a move of the same shape."""


def shape_of(action: Any) -> tuple[Any, ...]:
    """``action`` with the cards it names left out: its type, its other fields, and for each
    field naming cards only whether it names any.

    >>> from luckylab.games.island import Foil, PlayHazard
    >>> shape_of(PlayHazard(34, "doctor")) == shape_of(PlayHazard(12, "doctor"))
    True
    >>> shape_of(Foil(())) == shape_of(Foil((3,)))
    False
    """
    fields = getattr(action, "__dataclass_fields__", None)
    if fields is None:
        return (type(action), action)
    return (type(action), *((name, bool(getattr(action, name))) if name in CARD_FIELDS
                            else (name, getattr(action, name)) for name in fields))

_IDLE = random.Random(0)  # the generator of the bots that never draw from theirs


class OpponentModel:
    """For each other seat, how likely each readable bot of the game is to be the one playing
    it, from the moves it played (see the module's text).

    Parameters
    ----------
    game_name
        The game (its readable bots are the hypotheses).
    seat
        The seat that reads the others.
    rollout
        The readable bot given ``prior`` before any move is read (None: all equal).
    prior
        Its prior share (the others share the rest equally).
    worlds
        Worlds dealt at each decision to replay the moves in.
    tremble, floor
        The likelihood of a move its bot would not play: ``tremble * floor``.
    draws
        Draws of a bot's choice per world, for a bot that draws from its generator and has no
        ``probability``.
    """

    def __init__(self, game_name: str, seat: int, *, rollout: str | None = None,
                 prior: float = 0.5, worlds: int = 16, tremble: float = 0.1,
                 floor: float = 0.01, draws: int = 4) -> None:
        for what, value, low, high in (("prior", prior, 0, 1), ("tremble", tremble, 0, 1),
                                       ("floor", floor, 0, 1)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
                    low <= value <= high):
                raise BadBudget(f"{what} must be a number from {low} to {high}, not {value!r}")
        for what, value in (("worlds", worlds), ("draws", draws)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 64:
                raise BadBudget(f"{what} must be a whole number from 1 to 64, not {value!r}")
        if tremble == 0 and floor == 0:
            raise BadBudget("tremble and floor cannot both be 0: one move would rule a bot out")
        self.game_name, self.seat, self.rollout = game_name, seat, rollout
        self.names = readable_names(game_name)
        self.classes = {n: readable_class(game_name, n) for n in self.names}
        if rollout is not None and rollout not in self.classes:
            readable_class(game_name, rollout)  # raises, naming the readable bots
        others = len(self.names) - (rollout is not None)
        self.prior = {n: (prior if n == rollout else (1 - prior if rollout else 1) / others)
                      for n in self.names}
        self.worlds, self.tremble, self.floor, self.draws = worlds, float(tremble), float(
            floor), draws
        self.log_likelihood: dict[int, dict[str, float]] = {}
        self.moves_read: dict[int, int] = {}  # moves scored, per seat
        self._worlds: list[Any] = []
        self._past: list[Any] = []  # the history when the worlds were dealt

    # -- reading ---------------------------------------------------------------------------
    def observe(self, game: Any, rng: random.Random) -> None:
        """Read the moves played since the last call (a new game when the past is not the
        one seen then), then deal the worlds for the next call. Draws from ``rng``."""
        history = list(game.history)
        known = len(self._past)
        if known > len(history) or history[:known] != self._past:
            self.log_likelihood, self.moves_read, self._worlds = {}, {}, []  # another game
            known = len(history)
        self._replay(history[known:], game, rng)
        self._past = history
        self._worlds = []
        if not game.is_over:
            for _ in range(self.worlds):
                world = game.determinize(self.seat, rng)
                world.quieten(True)  # the bots asked here read views, not sentences
                self._worlds.append(world)

    def _replay(self, moves: list[Any], game: Any, rng: random.Random) -> None:
        """Replay ``moves`` in the worlds; add each other seat's log-likelihood under each
        bot: per world, the product of its moves' chances there; over the worlds that
        survive, the best."""
        hidden = frozenset(getattr(type(game), "HIDDEN_ACTIONS", ()))
        bots = {n: cls(seed=_IDLE if cls.__dict__.get("draws", True) is False
                       else rng.getrandbits(32)) for n, cls in self.classes.items()}
        # per world: the world, its products (seat -> bot -> log), its moves read per seat
        alive = [(world, {}, Counter()) for world in self._worlds]
        whole = True  # every move was followed (not cut short by a hidden or unforeseen move)
        for move in moves:
            kept, asked = [], []
            for world, logs, read in alive:
                actor = None if world.is_over else world.current_player
                if actor is None:
                    continue  # over in this world, not in the real game: dropped
                scored = actor != self.seat
                if scored and (isinstance(move, Unseen) or type(move) in hidden):
                    continue  # a move this seat did not see: this world cannot follow it
                # asked before the move is played (a bot reads, it does not change the world)
                chance = {n: self._chance(b, world, move) for n, b in bots.items()} if (
                    scored) else None
                if scored:
                    asked.append((world, logs, read, actor))
                try:
                    world.apply(move)
                except LuckyLabError:
                    continue  # this world contradicts what happened: dropped
                if chance is not None:
                    self._add(logs, actor, chance)
                    read[actor] += 1
                kept.append((world, logs, read))
            if not kept:
                whole = False
                if asked and not (isinstance(move, Unseen) or type(move) in hidden):
                    # Every world contradicts the move: it played a card none of them dealt
                    # the player. Read it by its shape (a Hazard thrown at Doctor Lucky, a foil
                    # paid) in the worlds as they were; the moves after it are not read.
                    for world, logs, read, actor in asked:
                        self._add(logs, actor, {n: self._chance(b, world, move, shape=True)
                                                for n, b in bots.items()})
                        read[actor] += 1
                    alive = [(world, logs, read) for world, logs, read, _ in asked]
                break
            alive = kept
        if whole and not game.is_over:  # a world must stand where the real game stands
            alive = [item for item in alive if not item[0].is_over
                     and item[0].current_player == game.current_player]
        if not alive:
            return
        for seat in sorted({s for _, _, read in alive for s in read}):
            self._score(seat, [logs.get(seat, {}) for _, logs, _ in alive],
                        max(read[seat] for _, _, read in alive))

    def _add(self, log: dict[int, dict[str, float]], seat: int,
             chance: dict[str, float]) -> None:
        """Multiply one move's chances (with the tremble) into one world's products."""
        mine = log.setdefault(seat, dict.fromkeys(self.names, 0.0))
        for name, p in chance.items():
            mine[name] += math.log((1 - self.tremble) * p + self.tremble * self.floor)

    def _score(self, seat: int, logs: list[dict[str, float]], moves: int) -> None:
        """Add the log-likelihood of ``moves`` moves of ``seat``: for each bot, the largest
        over the worlds of the product of the moves' chances in that world (``logs``)."""
        scores = self.log_likelihood.setdefault(seat, dict.fromkeys(self.names, 0.0))
        for name in self.names:
            scores[name] += max(log.get(name, 0.0) for log in logs)
        self.moves_read[seat] = self.moves_read.get(seat, 0) + moves

    def _chance(self, bot: Agent, world: Any, move: Any, shape: bool = False) -> float:
        """P_b(move | world): exact where the bot says, else by its choices (``shape``: a
        choice of the same shape as ``move`` counts, see :func:`shape`)."""
        if not shape:
            known = bot.probability(world, move)
            if known is not None:
                return known
        same = (lambda a: shape_of(a) == target) if shape else (lambda a: a == move)
        target = shape_of(move) if shape else None
        if type(bot).__dict__.get("draws", True) is False:
            return float(same(bot.choose(world)))
        return sum(same(bot.choose(world)) for _ in range(self.draws)) / self.draws

    # -- what it believes ------------------------------------------------------------------
    def posterior(self, seat: int) -> dict[str, float]:
        """P(seat plays like each readable bot | the moves read), by name."""
        scores = self.log_likelihood.get(seat, {})
        logs = {n: math.log(p) + scores.get(n, 0.0) if p > 0 else -math.inf
                for n, p in self.prior.items()}
        top = max(logs.values())
        weights = {n: math.exp(v - top) for n, v in logs.items()}
        total = sum(weights.values())
        return {n: w / total for n, w in weights.items()}

    def sample(self, rng: random.Random, seats: range) -> dict[int, type[Agent]]:
        """A readable bot class for each seat of ``seats`` but this one, drawn from its
        posterior (one draw of ``rng`` per seat)."""
        out = {}
        for seat in seats:
            if seat == self.seat:
                continue
            post = self.posterior(seat)
            u, name = rng.random(), self.names[-1]
            for name in self.names:
                u -= post[name]
                if u < 0:
                    break
            out[seat] = self.classes[name]
        return out

    def __repr__(self) -> str:
        read = ", ".join(f"Player {s + 1}: {max(self.posterior(s).items(), key=lambda i: i[1])[0]}"
                         f" ({self.moves_read[s]} moves)" for s in sorted(self.moves_read))
        return f"OpponentModel({self.game_name}, Player {self.seat + 1}; {read or 'no moves read'})"
