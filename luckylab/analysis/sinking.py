"""Save Doctor Lucky by the numbers: the sinking clock, the odds of being seen, and how often
the ship sinks before anyone saves him.

Exact (read off the board and the deal, no sampling):

* :func:`pile_sizes` and :func:`sinking_clock`: the four draw piles, and how many *snooping*
  turns sink each deck (``S-SETUP-3``, ``S-SINK-1``). Active turns draw no card, so they do not
  move the clock.
* :func:`p_watched` and :func:`witness_odds`: if the other pawns stood in random rooms, how
  likely is it that somebody sees Doctor Lucky's room? Save Doctor Lucky needs that witness
  (``S-SAVE-1``); Kill Doctor Lucky needs the opposite (nobody sees you, ``K-KILL-1``). The
  answer changes as the decks sink and the ship gets smaller.

Simulated (seeded games played by :mod:`luckylab.agents.save` bots through
:func:`luckylab.simulate`):

* :func:`outcome_rates`: rescued or sunk, with Wilson 95% intervals; on which deck the rescues
  happen.
* :func:`rescue_curve`: P(rescued by turn *t*) and P(sunk by turn *t*).
* :func:`patience_sweep`: the ``cautious`` bot waits until ``patience`` decks have sunk before
  it tries weak attempts: how long can a table wait?

Two helpers the lesson's widget shares: :func:`seat_bots` (bots seeded exactly as
:func:`luckylab.simulation.play_game` seeds them) and :func:`sinking_snapshots` (one seeded
game, copied at the start, after each sinking and at the end). Nothing here draws.

>>> sinking_clock(players=4)           # snooping turns until each deck has sunk
{'D': 17, 'C': 34, 'B': 50, 'A': 66}
>>> round(float(p_watched(load_board("save-doctor-lucky"), others=3)), 3)   # 4 players
0.397
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from ..agents import agent_class
from ..agents.base import Agent
from ..agents.save import CautiousAgent
from ..boards import load_board
from ..boards.board import Board
from ..errors import OptionError
from ..games.base import GameResult
from ..games.save import SaveGame, sinking_boards
from ..simulation import simulate
from .stats import wilson_ci

__all__ = [
    "WitnessOdds",
    "outcome_rates",
    "p_watched",
    "patience_agent",
    "patience_sweep",
    "pile_sizes",
    "rescue_curve",
    "seat_bots",
    "sinking_clock",
    "simulate_mixes",
    "sinking_snapshots",
    "witness_odds",
]


# -- the sinking clock (exact) ------------------------------------------------------------------
def pile_sizes(players: int, **options: Any) -> dict[str, int]:
    """The draw piles after the deal, bottom deck first (``S-SETUP-3``): the cards left after
    the hands, split as evenly as possible, the lower decks taking the extra cards.

    The sizes do not depend on the shuffle, so they are read off a fresh game (``options`` as
    for :class:`~luckylab.games.save.SaveGame`: ``hand_size``, ``allow_two_players``...).

    >>> pile_sizes(players=3)       # 90 cards - 3 hands of 8 = 66
    {'D': 17, 'C': 17, 'B': 16, 'A': 16}
    >>> pile_sizes(players=7)       # 90 - 7 x 6 = 48
    {'D': 12, 'C': 12, 'B': 12, 'A': 12}
    """
    view = SaveGame(players=players, seed=0, **options).view()
    sizes = view.pile_sizes
    return {deck: sizes[deck] for deck in reversed(view.decks)}


def sinking_clock(players: int, **options: Any) -> dict[str, int]:
    """How many snooping turns (one card each, ``S-SNOOP-1``) it takes until each deck has
    sunk: a deck sinks at the end of the turn that draws its pile's last card (``S-SINK-1``),
    and the next card comes from the deck above. The last number is the ship's whole life.

    >>> sinking_clock(players=7)
    {'D': 12, 'C': 24, 'B': 36, 'A': 48}
    """
    clock: dict[str, int] = {}
    total = 0
    for deck, size in pile_sizes(players, **options).items():
        total += size
        clock[deck] = total
    return clock


# -- who can see you (exact) --------------------------------------------------------------------
def p_watched(board: Board, others: int) -> Fraction:
    """The chance that at least one of ``others`` pawns sees Doctor Lucky's room, if he and
    each pawn stand in a room chosen uniformly at random (independently; pawns may share).

    A pawn sees a room from the room itself or along a straight line (``S-SIGHT-1``). For a
    room seen from ``m`` of the board's ``N`` rooms, nobody sees it with chance
    ``(1 - m/N) ** others``; the answer averages over his room. One minus it is the chance that
    *nobody* sees him: what a murder needs in Kill Doctor Lucky.

    >>> from luckylab import load_board
    >>> p_watched(load_board("save-doctor-lucky"), others=0)
    Fraction(0, 1)
    >>> p_watched(load_board("save-doctor-lucky"), others=1)   # mean rooms seen / rooms
    Fraction(31, 196)
    """
    if not isinstance(others, int) or others < 0:
        raise OptionError(f"others must be a whole number >= 0, not {others!r}")
    rooms = board.spaces
    n = len(rooms)
    unseen = sum((1 - Fraction(len(board.seen_by(r)), n)) ** others for r in rooms)
    return 1 - unseen / n


@dataclass(frozen=True, slots=True)
class WitnessOdds:
    """Sight on the ship with some decks sunk (see :func:`witness_odds`)."""

    afloat: str
    """The decks still afloat, top first, e.g. ``"ABC"``."""
    rooms: int
    mean_seen_from: Fraction
    """How many rooms see a room, on average (the room itself included)."""
    p_watched: Fraction
    """Chance that someone sees his room: a rescue there is allowed (``S-SAVE-1``)."""

    @property
    def p_unseen(self) -> Fraction:
        """Chance that nobody sees his room: what a murder would need in Kill Doctor Lucky."""
        return 1 - self.p_watched


def witness_odds(others: int, ship: Board | str = "save-doctor-lucky") -> list[WitnessOdds]:
    """:func:`p_watched` on the ship as it sinks: one row per number of sunken decks (none
    first), for ``others`` pawns besides yours (``players - 1``).

    >>> [(row.afloat, row.rooms) for row in witness_odds(others=3)]
    [('ABCD', 28), ('ABC', 21), ('AB', 14), ('A', 6)]
    """
    board = load_board(ship) if isinstance(ship, str) else ship
    rows = []
    for smaller in sinking_boards(board):
        decks = sorted({smaller.space(s).deck for s in smaller.spaces})
        seen_from = Fraction(sum(len(smaller.seen_by(r)) for r in smaller.spaces),
                             len(smaller))
        rows.append(WitnessOdds("".join(decks), len(smaller), seen_from,
                                p_watched(smaller, others)))
    return rows


# -- playing seeded games -----------------------------------------------------------------------
AgentSpec = str | type | None


def _agent_list(agents: AgentSpec | Sequence[AgentSpec], players: int) -> list[AgentSpec]:
    if agents is None or isinstance(agents, (str, type)):
        return [agents] * players
    specs = list(agents)
    if len(specs) != players:
        raise OptionError(f"agents names {len(specs)} agents for {players} players")
    return specs


def seat_bots(game: SaveGame, seed: int, agents: AgentSpec | Sequence[AgentSpec] = None,
              ) -> dict[int, Agent]:
    """One bot per seat, seeded exactly as :func:`luckylab.simulation.play_game` seeds them, so
    a game stepped by hand with these bots is the game ``play_game(..., seed)`` plays.

    ``agents``: None (the default bot), one agent name or class for every seat, or one per seat.
    """
    specs = _agent_list(agents, game.players)
    rng = random.Random(seed ^ 0x5EED)
    bots = {}
    for seat, spec in zip(range(game.num_seats), specs, strict=True):
        cls = spec if isinstance(spec, type) else agent_class("save", spec)
        bots[seat] = cls(seed=rng.getrandbits(32))
    return bots


def sinking_snapshots(players: int = 4, seed: int = 0,
                      agents: AgentSpec | Sequence[AgentSpec] = None,
                      **options: Any) -> list[SaveGame]:
    """Play one seeded game with bots; return copies of it at the start, just after each deck
    sinks, and at the end (which may be a sinking: then the last copy is that one).

    >>> shots = sinking_snapshots(players=4, seed=0, agents="greedy")
    >>> ["".join(shot.afloat) for shot in shots]
    ['ABCD', 'ABC', 'AB', 'A', 'A']
    >>> shots[-1].result().extra["end"], shots[-1].turns
    ('rescued', 80)
    """
    game = SaveGame(players=players, seed=seed, **options)
    bots = seat_bots(game, seed, agents)
    shots = [game.clone()]
    while not game.is_over:
        events = game.apply(bots[game.current_player].choose(game))
        if any(e.kind == "sink" for e in events):
            shots.append(game.clone())
    if shots[-1].history != game.history:
        shots.append(game.clone())
    return shots


@cache
def patience_agent(patience: int) -> type[CautiousAgent]:
    """A ``cautious`` bot that tries every chance once ``patience`` decks have sunk (0: from
    the start, like ``greedy``; 4: never, only strong attempts)."""
    if not isinstance(patience, int) or patience < 0:
        raise OptionError(f"patience must be a whole number >= 0, not {patience!r}")
    return type(f"CautiousAgent{patience}", (CautiousAgent,),
                {"patience": patience, "__doc__": f"CautiousAgent with patience {patience}."})


# -- summarising results ------------------------------------------------------------------------
def outcome_rates(results: Sequence[GameResult]) -> dict[str, Any]:
    """How a batch of games ended: counts and rates of ``rescued`` and ``sunk`` (Wilson 95%
    intervals), the median number of turns, how many decks had sunk at each rescue, and
    ``ends``, each game's end in order (for paired comparisons of tables on the same deals).

    >>> from luckylab import simulate
    >>> rates = outcome_rates(simulate("save", players=4, games=10, seed=1, agents="greedy"))
    >>> rates["games"], rates["rescued"] + rates["sunk"] + rates["unfinished"]
    (10, 10)
    """
    ends = Counter(r.extra["end"] for r in results)
    n = len(results)
    turns = sorted(r.turns for r in results)
    rescued = ends["rescued"]
    sunk = ends["sunk"]
    return {
        "games": n,
        "rescued": rescued,
        "sunk": sunk,
        "unfinished": n - rescued - sunk,
        "p_rescued": wilson_ci(rescued, n),
        "p_sunk": wilson_ci(sunk, n),
        "median_turns": turns[n // 2] if turns else 0,
        "decks_sunk_at_rescue": dict(sorted(Counter(
            r.extra["decks_sunk"] for r in results if r.extra["end"] == "rescued").items())),
        "ends": [r.extra["end"] for r in results],
    }


def rescue_curve(results: Sequence[GameResult], turns: Iterable[int],
                 ) -> list[tuple[int, float, float]]:
    """``(t, P(rescued by turn t), P(sunk by turn t))`` for each ``t`` in ``turns``: the
    fraction of games that had ended that way after at most ``t`` turns.

    >>> from luckylab import simulate
    >>> games = simulate("save", players=4, games=20, seed=1, agents="greedy")
    >>> rescue_curve(games, [0, 1000])
    [(0, 0.0, 0.0), (1000, 1.0, 0.0)]
    """
    n = len(results)
    if n == 0:
        raise OptionError("no games to summarise")
    rescued = sorted(r.turns for r in results if r.extra["end"] == "rescued")
    sunk = sorted(r.turns for r in results if r.extra["end"] == "sunk")

    def by(ends: list[int], t: int) -> float:
        return sum(1 for e in ends if e <= t) / n

    return [(t, by(rescued, t), by(sunk, t)) for t in turns]


def patience_sweep(patiences: Iterable[int], players: int = 4, games: int = 100,
                   seed: int = 0, **options: Any) -> list[dict[str, Any]]:
    """For each patience: every seat plays :func:`patience_agent` of it; one row of
    :func:`outcome_rates` per patience (with its ``patience``). Every row plays the same
    ``games`` seeded deals (common random numbers), so differences come from the waiting.

    >>> rows = patience_sweep([0, 3], players=4, games=5, seed=1)
    >>> [(r["patience"], r["games"]) for r in rows]
    [(0, 5), (3, 5)]
    """
    rows = []
    for k in patiences:
        results = simulate("save", players=players, games=games, seed=seed,
                            agents=patience_agent(k), **options)
        rows.append({"patience": k, **outcome_rates(results)})
    return rows


def simulate_mixes(mixes: Mapping[str, AgentSpec | Sequence[AgentSpec]], players: int = 4,
                   games: int = 100, seed: int = 0, **options: Any,
                   ) -> dict[str, list[GameResult]]:
    """Play the same ``games`` seeded deals once per table of bots: label -> agents (as for
    :func:`luckylab.simulate`). Returns label -> the results.

    >>> runs = simulate_mixes({"greedy": "greedy", "rider": "rider"}, games=3, seed=1)
    >>> [len(v) for v in runs.values()]
    [3, 3]
    """
    return {label: simulate("save", players=players, games=games, seed=seed, agents=agents,
                            **options)
            for label, agents in mixes.items()}
