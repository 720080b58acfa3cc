"""Play many seeded games with bots, serially or spread over any ``concurrent.futures``
executor, and get plain per-game results back.

Game ``i`` of a run with seed ``S`` always gets the same derived seed, whatever the executor or
the chunking, so a run is reproducible bit for bit:

>>> from luckylab import simulate
>>> a = simulate("island", players=4, games=3, seed=1)
>>> b = simulate("island", players=4, games=3, seed=1)
>>> [r.winner for r in a] == [r.winner for r in b]
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

from .errors import OptionError
from .games.base import GameResult, check_seed

__all__ = ["game_seeds", "play_game", "simulate", "summarize"]

AgentSpec = str | type | None


def game_seeds(seed: int, games: int) -> list[int]:
    """The per-game seeds of a run: independent of how the games are split up."""
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(games)]


def _agent_specs(game: str, agents: Any, seats: int) -> list[AgentSpec]:
    if agents is None or isinstance(agents, (str, type)):
        return [agents] * seats
    specs = list(agents)
    if len(specs) != seats:
        raise OptionError(f"agents lists {len(specs)} agents for {seats} seats that decide")
    return specs


def play_game(game: str, players: int, seed: int, agents: Any = None,
              **options: Any) -> GameResult:
    """Play one game to the end with bots and return its :class:`GameResult`.

    ``agents`` is None (every seat plays the game's default agent), one agent name or class
    for every seat, or a list with one per seat (Strangers need none; give None there).
    """
    from . import new_game
    from .agents import agent_class

    state = new_game(game, players=players, seed=seed, **options)
    seats = len(getattr(state, "seats", range(players)))
    specs = _agent_specs(game, agents, seats)
    rng = random.Random(seed ^ 0x5EED)
    bots = []
    for spec in specs:
        cls = spec if isinstance(spec, type) else agent_class(game, spec)
        bots.append(cls(seed=rng.getrandbits(32)))
    apply = state.apply
    while not state.is_over:
        apply(bots[state.current_player].choose(state))
    return state.result()


def _play_chunk(args: tuple[str, int, list[int], Any, dict[str, Any]]) -> list[GameResult]:
    game, players, seeds, agents, options = args
    return [play_game(game, players, s, agents, **options) for s in seeds]


def simulate(game: str = "island", players: int = 4, games: int = 100, seed: int = 0,
             agents: Any = None, executor: Executor | None = None, chunks: int | None = None,
             **options: Any) -> list[GameResult]:
    """Play ``games`` seeded games and return one :class:`GameResult` per game, in order.

    Parameters
    ----------
    game, players, options
        As for :func:`luckylab.new_game`.
    games, seed
        How many games, and the run's seed (game ``i`` gets ``game_seeds(seed, games)[i]``).
    agents
        None (the game's default agent everywhere), an agent name or class for every seat,
        or one per seat. Classes must be importable (picklable) to use a process pool.
    executor
        Any ``concurrent.futures.Executor`` (a ``ProcessPoolExecutor``, or a Dask or Ray
        cluster's executor); games are sent in ``chunks`` batches (default: 4 per worker).
    """
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise OptionError(f"games must be a whole number >= 0, not {games!r}")
    check_seed(seed)
    seeds = game_seeds(seed, games)
    if executor is None:
        return [play_game(game, players, s, agents, **options) for s in seeds]
    workers = getattr(executor, "_max_workers", None) or 2
    n_chunks = max(1, min(games, chunks or workers * 4))
    size = -(-games // n_chunks) if games else 1
    batches = [seeds[i:i + size] for i in range(0, games, size)]
    jobs = [(game, players, batch, agents, options) for batch in batches]
    results: list[GameResult] = []
    for part in executor.map(_play_chunk, jobs):
        results.extend(part)
    return results


def summarize(results: Sequence[GameResult], seconds: float | None = None) -> dict[str, Any]:
    """Totals for a run: games, finished, wins by seat, mean turns, (games per second)."""
    finished = [r for r in results if r.finished]
    wins: dict[str, int] = {}
    for r in finished:
        if r.winner is not None:  # cooperative games have no winning seat
            wins[str(r.winner)] = wins.get(str(r.winner), 0) + 1
    summary: dict[str, Any] = {
        "games": len(results),
        "finished": len(finished),
        "wins_by_seat": dict(sorted(wins.items(), key=lambda kv: int(kv[0]))),
        "stranger_wins": sum(r.winner_is_stranger for r in finished),
        "losers": sum(r.loser is not None for r in finished),
        "mean_turns": round(sum(r.turns for r in results) / len(results), 2) if results else 0,
        "mean_attempts": round(sum(r.attempts for r in results) / len(results), 2)
        if results else 0,
    }
    if results and all("won" in r.extra for r in results):  # a cooperative game (Panic)
        summary["won"] = sum(bool(r.extra["won"]) for r in results)
        scores = [r.extra.get("score", 0) for r in results]
        summary["mean_score"] = round(sum(scores) / len(scores), 2)
    if seconds is not None:
        summary["seconds"] = round(seconds, 3)
        summary["games_per_second"] = round(len(results) / seconds, 1) if seconds > 0 else None
    return summary
