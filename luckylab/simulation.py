"""Play many seeded games with bots, serially or spread over any ``concurrent.futures``
executor, and get plain per-game results back, streamed as they finish.

Game ``i`` of a run with seed ``S`` always gets the same derived seed, whatever the executor or
the chunking, so a run is reproducible bit for bit:

>>> from luckylab import simulate
>>> a = simulate("island", players=4, games=3, seed=1)
>>> b = simulate("island", players=4, games=3, seed=1)
>>> [r.winner for r in a] == [r.winner for r in b]
True

:func:`iter_simulate` yields ``(index, result)`` pairs as chunks of games finish, with only a
bounded number of chunks in flight, so a million games run in constant memory;
:func:`simulate` collects them into a list in game order. ``start=`` resumes a run at a game
index with the same results, and a game that raises is named by its index and seed
(:class:`GameFailed`) while the games finished before it are kept.

Clusters: any ``concurrent.futures.Executor`` works (games go out in chunks of ``chunksize``).
With Dask, ``distributed.Client(...).get_executor()``. Ray has no ``Executor`` of its own;
wrap ``ray.remote`` in a few lines (see :func:`iter_simulate`).
"""

from __future__ import annotations

import os
import pickle
import random
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from dataclasses import replace
from typing import Any

from .errors import GameFailed, LuckyLabError, OptionError
from .games.base import GameResult, check_seed

__all__ = ["MAX_GAMES", "MAX_LISTED_GAMES", "GameFailed", "Summary", "game_seeds",
           "iter_simulate", "play_game", "player_seats", "seats_of_players", "simulate",
           "summarize"]

AgentSpec = str | type | None

MAX_GAMES = 10**7
"""The most games one :func:`iter_simulate` run plays (some hours at the fast games' pace)."""

MAX_LISTED_GAMES = 10**6
""":func:`simulate` keeps every result in memory: at most this many (stream more with
:func:`iter_simulate` and a :class:`Summary`)."""

DETAIL_KEYS = ("attempts", "table_luck_by_turn")
"""The heavy per-game entries of ``result.extra`` that ``detail=False`` leaves out."""


def game_seeds(seed: int, games: int) -> list[int]:
    """The per-game seeds of a run: independent of how the games are split up."""
    rng = random.Random(seed)
    return [rng.getrandbits(63) for _ in range(games)]


def _seed_stream(seed: int, start: int) -> Iterator[int]:
    """``game_seeds(seed, n)[start:]`` for any ``n``, one at a time (constant memory)."""
    rng = random.Random(seed)
    draw = rng.getrandbits
    for _ in range(start):
        draw(63)
    while True:
        yield draw(63)


def _check_run_seed(seed: Any) -> None:
    """A run's seed is a whole number >= 0: None is refused, since the games could not be
    replayed (pick one, e.g. ``random.randrange(2**32)``, and keep it)."""
    if seed is None:
        raise OptionError("seed must be a whole number >= 0 (None is refused: a run must be "
                          "replayable; pick one, e.g. seed=random.randrange(2**32))")
    check_seed(seed)


def _check_flags(**flags: Any) -> None:
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise OptionError(f"{name} must be True or False, not {value!r:.80}")


def _check_agents(agents: Any) -> None:
    """agents: None, a name, an Agent class, or a list/tuple of those (one per player or per
    seat)."""
    from .agents.base import Agent

    specs = agents if isinstance(agents, (list, tuple)) else [agents]
    for spec in specs:
        if spec is None or isinstance(spec, str) or (isinstance(spec, type)
                                                     and issubclass(spec, Agent)):
            continue
        raise OptionError(f"agents must be None, an agent name, an Agent class, or a list of "
                          f"those (one per player, or one per seat), not {spec!r:.80}")


def _agent_specs(game: str, agents: Any, seats: int,
                 players_at: Sequence[int] | None = None) -> list[AgentSpec]:
    """One agent spec per seat. ``players_at``: the seats players sit in (when some seats are
    the Island's Strangers), so that a list with one agent per player is understood too."""
    _check_agents(agents)
    if agents is None or isinstance(agents, (str, type)):
        return [agents] * seats
    specs = list(agents)
    if len(specs) == seats:
        return specs
    if players_at is not None and len(specs) == len(players_at):
        per_seat: list[AgentSpec] = [None] * seats  # the Strangers: the game's default
        for seat, spec in zip(players_at, specs, strict=True):
            per_seat[seat] = spec
        return per_seat
    if players_at is not None and len(players_at) != seats:
        raise OptionError(
            f"agents lists {len(specs)} agents: give one per player ({len(players_at)}; the "
            f"Strangers play the default) or one per seat ({seats}: the players and their "
            "Strangers in seat order, None for the default)")
    raise OptionError(f"agents lists {len(specs)} agents: give one per player ({seats})")


def seats_of_players(state: Any) -> list[int]:
    """The seats players sit in, in seat order, in a game under way (the Island's Strangers
    left out): read through the protocol.

    >>> from luckylab import new_game
    >>> seats_of_players(new_game("island", players=2, seed=1))
    [0, 2]
    """
    if state.num_seats == state.players:
        return list(range(state.num_seats))
    strangers = set(state.observation(0).data.get("strangers", ()))
    return [s for s in range(state.num_seats) if s not in strangers]


def player_seats(game: str, players: int, **options: Any) -> list[int]:
    """The seats the players sit in, in order: Player ``k`` (as people count, from 1) plays
    seat ``player_seats(...)[k - 1]``; the other seats are the Island's Strangers.

    >>> player_seats("island", players=2)   # Strangers sit between the players
    [0, 2]
    >>> player_seats("island", players=4), player_seats("kill", players=3)
    ([0, 1, 2, 3], [0, 1, 2])
    """
    from .games.registry import new_game

    return seats_of_players(new_game(game, players=players, seed=0, **options))


def _bundled(cls: type) -> bool:
    """A bot shipped in ``luckylab.agents`` (a student's subclass elsewhere is not)."""
    return cls.__module__.startswith("luckylab.agents.")


def play_game(game: str | type, players: int, seed: int, agents: Any = None, *,
              checked: bool = False, detail: bool = True, **options: Any) -> GameResult:
    """Play one game to the end with bots and return its :class:`GameResult`.

    ``agents`` is None (every seat plays the game's default agent), one agent name or class
    for every seat, or a list with one per player (Player 1 first; the Island's Strangers get
    the game's default) or one per seat (Strangers included; None gives the default).

    When every seat is a bundled bot (a class in ``luckylab.agents``), the game runs quietly
    (``quieten``: the events' sentences are not written, since nobody reads them) and, for
    bots marked ``trusted``, through the engine's own loop without re-checking the actions
    they build (``play_out``). The games are the same either
    way (``tests/test_game_digests.py`` replays them with every check); ``checked=True`` forces
    the full path. ``detail=False`` leaves the heavy entries :data:`DETAIL_KEYS` out of
    ``result.extra``.

    >>> play_game("island", 4, seed=7) == play_game("island", 4, seed=7, checked=True)
    True
    """
    _check_run_seed(seed)
    _check_flags(checked=checked, detail=detail)
    state, bots = _setup(game, players, seed, agents, options)
    classes = {type(b) for b in bots}
    bundled = not checked and all(_bundled(c) for c in classes)
    quiet = bundled and not any(c.reads_events for c in classes)
    if quiet:  # nobody reads the events' sentences: the engine may skip writing them
        state.quieten()
    choosers = [b.choose for b in bots]
    if bundled and all(c.trusted for c in classes):
        state.play_out(choosers)  # the engine's own fast, trusted loop
    else:
        apply = state.apply
        while not state.is_over:
            apply(choosers[state.current_player](state))
    if quiet:
        state.quieten(False)
    result = state.result()
    if not detail and any(k in result.extra for k in DETAIL_KEYS):
        extra = {k: v for k, v in result.extra.items() if k not in DETAIL_KEYS}
        result = replace(result, extra=extra)  # not to_dict(): that deep-copies every entry
    return result


def _setup(game: str, players: int, seed: int, agents: Any,
           options: dict[str, Any]) -> tuple[Any, list[Any]]:
    """A new game and its seated bots (raises on a bad game, option or agent)."""
    from .agents import agent_class
    from .games.registry import new_game

    state = new_game(game, players=players, seed=seed, **options)
    name = state.game_name  # a house rule's class plays with the bots of the game it changes
    players_at = (seats_of_players(state) if isinstance(agents, (list, tuple))
                  and state.num_seats != state.players else None)
    specs = _agent_specs(name, agents, state.num_seats, players_at)
    rng = random.Random(seed ^ 0x5EED)
    bots = []
    named: dict[Any, type] = {}  # agent name -> class, looked up once per game
    for spec in specs:
        if isinstance(spec, type):
            cls = spec
        else:
            cls = named.get(spec)
            if cls is None:
                cls = named[spec] = agent_class(name, spec)
        bot_seed = rng.getrandbits(32)  # drawn for every seat, so the next seat's is the same
        # A bot that never draws from its generator (draws = False in its own class) gets the
        # shared idle one: the same play, without seeding a generator per bot and game.
        bots.append(cls(seed=_IDLE if cls.__dict__.get("draws", True) is False else bot_seed))
    return state, bots


_IDLE = random.Random(0)
"""The generator of the bots that never draw from theirs (shared; nothing draws from it)."""


Job = tuple[str, int, int, list[int], Any, dict[str, Any], bool, bool]


def _play_chunk(job: Job) -> tuple[list[GameResult], tuple[int, int, str] | None]:
    """Play one chunk; on a failing game return the games before it and (index, seed, why)."""
    game, players, first, seeds, agents, options, detail, checked = job
    done: list[GameResult] = []
    for i, s in enumerate(seeds):
        try:
            done.append(play_game(game, players, s, agents, checked=checked, detail=detail,
                                  **options))
        except Exception as exc:  # reported with its game's index and seed
            return done, (first + i, s, f"{type(exc).__name__}: {exc}")
    return done, None


def _check_picklable(executor: Executor, agents: Any, options: dict[str, Any],
                     game: Any = None) -> None:
    """Refuse, before any work is sent, agents (or a game class) a process pool could not
    rebuild."""
    if isinstance(executor, ThreadPoolExecutor):
        return
    specs = [*(agents if isinstance(agents, (list, tuple)) else [agents]), game]
    context = getattr(executor, "_mp_context", None)  # ProcessPoolExecutor's start method
    forked = context is not None and context.get_start_method() == "fork"
    from concurrent.futures import ProcessPoolExecutor

    for spec in specs:
        if not isinstance(spec, type):
            continue
        where = f"{spec.__module__}.{spec.__qualname__}"
        problem = None
        if isinstance(executor, ProcessPoolExecutor) and not forked and (
                spec.__module__ == "__main__" or "<locals>" in spec.__qualname__):
            problem = "it is defined in a notebook or script (__main__), so a spawned worker " \
                      "cannot import it"
        else:
            try:
                pickle.dumps(spec)
            except Exception as exc:
                try:
                    import cloudpickle  # what Dask uses: it pickles classes by value

                    cloudpickle.dumps(spec)
                except Exception:
                    problem = f"it cannot be pickled ({exc})"
        if problem:
            what = "game" if spec is game else "agent"
            raise LuckyLabError(
                f"{what} class {where} cannot be sent to the executor's workers: {problem}. "
                "Move the class into a module (a .py file next to the notebook) and import it "
                "from there, or use a fork pool: ProcessPoolExecutor(mp_context="
                "multiprocessing.get_context('fork')) (Linux), or run without an executor.")
    try:
        pickle.dumps(options)
    except Exception as exc:
        raise LuckyLabError(f"game options cannot be sent to the workers: {exc}") from None


class _Progress:
    """tqdm.auto when installed, otherwise one plain line on stderr rewritten in place."""

    def __init__(self, total: int, desc: str) -> None:
        self.total, self.desc, self.done, self._shown = total, desc, 0, 0.0
        try:
            from tqdm.auto import tqdm
        except ImportError:
            self._bar = None
        else:
            self._bar = tqdm(total=total, desc=desc, unit="game")

    def update(self, n: int) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        elif time.monotonic() - self._shown > 0.5 or self.done >= self.total:
            self._shown = time.monotonic()
            print(f"\r{self.desc}: {self.done}/{self.total} games", end="", file=sys.stderr,
                  flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        else:
            print(file=sys.stderr)


def iter_simulate(game: str | type = "island", players: int = 4, games: int = 100, seed: int = 0,
                  agents: Any = None, executor: Executor | None = None, *,
                  chunksize: int | None = None, max_in_flight: int | None = None,
                  start: int = 0, detail: bool = True, progress: bool = False,
                  checked: bool = False, **options: Any) -> Iterator[tuple[int, GameResult]]:
    """Play games ``start .. games - 1`` of a seeded run, yielding ``(index, result)`` as they
    finish (in game order when serial; chunk by chunk, in completion order, on an executor).

    Parameters
    ----------
    game, players, options
        As for :func:`luckylab.new_game`: a game's name, or a game class (your subclass of an
        engine that plays a house rule; it plays with the bots of the game it changes, and
        through its own rules: the engines' fast paths run only for the engines themselves).
    games, seed
        How many games the whole run has, and its seed: game ``i`` gets
        ``game_seeds(seed, games)[i]``, however the run is split or resumed.
    agents
        None (the game's default agent everywhere), an agent name or class for every seat, or
        a list: one per player (Player 1 first; the Island's Strangers then get the game's
        default) or one per seat (Strangers included, None for the default; see
        :func:`player_seats`). The names are those of :func:`luckylab.agents.agent_names`,
        ``"ismcts"`` (the look-ahead bot, slow) and, for Island and Kill, ``"pimc"`` (the older
        look-ahead baseline). A process pool needs
        classes it can import (not ones defined in a notebook, unless the pool forks); this is
        checked before any work is sent.
    executor
        Any ``concurrent.futures.Executor``: a ``ProcessPoolExecutor``, a Dask
        ``Client.get_executor()``, or your own (Ray: see the example). None plays here.
    chunksize
        Games per task sent to the executor (default: a quarter of the games per local CPU,
        at most 250). On a cluster, pick it so every worker gets several chunks.
    max_in_flight
        Chunks submitted but not yet collected (default: 2 per local CPU, at least 4); memory
        and abandoned work on Ctrl-C stay bounded by it.
    start
        Resume at this game index (the results are those a full run gives from there on).
    detail
        Keep the heavy per-game entries of ``result.extra`` (:data:`DETAIL_KEYS`: the attempt
        list and the Luck table by turn); ``False`` drops them to save memory.
    progress
        Show a progress bar (``tqdm.auto`` when installed, otherwise a line on stderr).
    checked
        Re-check every action, even those the bundled bots build (the slow, safe path).

    Raises
    ------
    GameFailed
        A game raised: names its index and seed, after every finished game was yielded.
    KeyboardInterrupt
        Chunks not yet started are cancelled at once (at most ``max_in_flight`` chunks were
        sent; those already running finish in the workers and are dropped); finished games
        were yielded already. In Jupyter only the kernel gets the interrupt, which is enough:
        the cancelling happens here.

    Examples
    --------
    >>> from luckylab.simulation import iter_simulate, Summary
    >>> summary = Summary()
    >>> for index, result in iter_simulate("island", players=4, games=5, seed=1, detail=False):
    ...     summary.add(result)
    >>> summary.as_dict()["games"]
    5

    Ray has no ``concurrent.futures`` executor; this adapter (tested only where Ray is
    installed) gives one::

        import ray
        from concurrent.futures import Executor

        class RayExecutor(Executor):
            def submit(self, fn, *args, **kwargs):
                return ray.remote(fn).remote(*args, **kwargs).future()

        results = luckylab.simulate("island", games=10_000, executor=RayExecutor(),
                                    chunksize=500)
    """
    if not isinstance(games, int) or isinstance(games, bool) or not 0 <= games <= MAX_GAMES:
        raise OptionError(f"games must be a whole number from 0 to {MAX_GAMES:,}, "
                          f"not {games!r:.80}")
    _check_run_seed(seed)
    _check_flags(detail=detail, progress=progress, checked=checked)
    _check_agents(agents)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise OptionError(f"executor must be None or a concurrent.futures.Executor (anything "
                          f"with .submit), not {executor!r:.80}")
    if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start <= games:
        raise OptionError(f"start must be a game index from 0 to {games}, not {start!r}")
    if chunksize is not None and (not isinstance(chunksize, int) or isinstance(chunksize, bool)
                                  or chunksize < 1):
        raise OptionError(f"chunksize must be a whole number >= 1, not {chunksize!r}")
    if max_in_flight is not None and (not isinstance(max_in_flight, int)
                                      or isinstance(max_in_flight, bool) or max_in_flight < 1):
        raise OptionError(f"max_in_flight must be a whole number >= 1, not {max_in_flight!r}")
    todo = games - start
    if todo:  # a bad game name, option or agent fails here, before any game is played
        _setup(game, players, seed, agents, options)
    if executor is not None:
        _check_picklable(executor, agents, options, game)
    # Checked when iter_simulate is called; the games start at the first next().
    return _stream(game, players, seed, agents, executor, chunksize, max_in_flight, start,
                   todo, detail, progress, checked, options)


def _stream(game: str, players: int, seed: int, agents: Any, executor: Executor | None,
            chunksize: int | None, max_in_flight: int | None, start: int, todo: int,
            detail: bool, progress: bool, checked: bool,
            options: dict[str, Any]) -> Iterator[tuple[int, GameResult]]:
    seeds = _seed_stream(seed, start)
    title = game if isinstance(game, str) else game.__name__  # a game class
    bar = _Progress(todo, f"{title} x{players}") if progress else None
    try:
        if executor is None:
            yield from _serial(game, players, start, todo, seeds, agents, options, detail,
                               checked, bar)
        else:
            cpus = os.cpu_count() or 2
            size = chunksize or max(1, min(250, -(-todo // (4 * cpus))))
            yield from _spread(executor, game, players, start, todo, seeds, agents, options,
                               detail, checked, size, max_in_flight or max(4, 2 * cpus), bar)
    finally:
        if bar is not None:
            bar.close()


def _serial(game: str, players: int, start: int, todo: int, seeds: Iterator[int], agents: Any,
            options: dict[str, Any], detail: bool, checked: bool,
            bar: _Progress | None) -> Iterator[tuple[int, GameResult]]:
    for index in range(start, start + todo):
        s = next(seeds)
        try:
            result = play_game(game, players, s, agents, checked=checked, detail=detail,
                               **options)
        except Exception as exc:
            raise GameFailed(index, s, f"{type(exc).__name__}: {exc}") from exc
        if bar is not None:
            bar.update(1)
        yield index, result


def _spread(executor: Executor, game: str, players: int, start: int, todo: int,
            seeds: Iterator[int], agents: Any, options: dict[str, Any], detail: bool,
            checked: bool, size: int, in_flight: int,
            bar: _Progress | None) -> Iterator[tuple[int, GameResult]]:
    jobs: Iterator[Job] = (
        (game, players, first, [next(seeds) for _ in range(min(size, start + todo - first))],
         agents, options, detail, checked)
        for first in range(start, start + todo, size))
    pending: dict[Future, int] = {}
    failure: tuple[int, int, str] | None = None
    try:
        for job in _take(jobs, in_flight):
            pending[executor.submit(_play_chunk, job)] = job[2]
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=pending.__getitem__):
                first = pending.pop(future)
                if future.cancelled():
                    continue
                part, failed = future.result()
                if bar is not None:
                    bar.update(len(part))
                yield from enumerate(part, first)
                if failed is not None and (failure is None or failed[0] < failure[0]):
                    failure = failed
            if failure is not None:  # stop sending work; keep what is already running
                for future in pending:
                    future.cancel()
                continue
            for job in _take(jobs, in_flight - len(pending)):
                pending[executor.submit(_play_chunk, job)] = job[2]
    finally:
        for future in pending:  # Ctrl-C or a closed generator: drop what has not started
            future.cancel()
    if failure is not None:
        raise GameFailed(*failure)


def _take(items: Iterator[Any], n: int) -> Iterable[Any]:
    for _ in range(max(n, 0)):
        item = next(items, None)
        if item is None:
            return
        yield item


def simulate(game: str | type = "island", players: int = 4, games: int = 100, seed: int = 0,
             agents: Any = None, executor: Executor | None = None, *,
             chunksize: int | None = None, start: int = 0, detail: bool = True,
             progress: bool = False, checked: bool = False,
             **options: Any) -> list[GameResult]:
    """Play games ``start .. games - 1`` of a seeded run; one :class:`GameResult` per game, in
    order. Built on :func:`iter_simulate` (same parameters); holds every result in memory, so
    for very many games stream with :func:`iter_simulate` and a :class:`Summary` instead.

    ``detail=True`` (the default, which the lessons rely on) keeps the attempt list and the
    Luck table by turn in ``result.extra``.

    If a game raises, :class:`GameFailed` names its index and seed and carries the games that
    finished as ``exc.results`` (``(index, result)`` pairs in order); on Ctrl-C the
    ``KeyboardInterrupt`` carries them the same way.

    >>> len(simulate("kill", players=4, games=4, seed=2, start=2))
    2

    One agent per player; in a 2-player Island the Strangers (seats 1 and 3) play the default:

    >>> duel = simulate("island", players=2, games=2, seed=3, agents=["cautious", "aggressive"])
    >>> duel == simulate("island", players=2, games=2, seed=3,
    ...                  agents=["cautious", None, "aggressive", None])
    True
    """
    if isinstance(games, int) and not isinstance(games, bool) and games > MAX_LISTED_GAMES:
        raise OptionError(f"simulate keeps every result in memory: at most "
                          f"{MAX_LISTED_GAMES:,} games; for {games:,} stream them with "
                          f"iter_simulate and a Summary")
    found: dict[int, GameResult] = {}
    try:
        for index, result in iter_simulate(game, players, games, seed, agents, executor,
                                           chunksize=chunksize, start=start, detail=detail,
                                           progress=progress, checked=checked, **options):
            found[index] = result
    except (GameFailed, KeyboardInterrupt) as exc:
        exc.results = sorted(found.items())  # type: ignore[union-attr]
        raise
    return [found[i] for i in sorted(found)]


class Summary:
    """Totals of a run computed on the fly: :meth:`add` one result at a time, constant memory.

    >>> s = Summary()
    >>> s.add(GameResult("island", 4, 1, True, 2, None, turns=30, attempts=3))
    >>> s.as_dict()["wins_by_seat"], s.as_dict()["mean_turns"]
    ({'2': 1}, 30.0)
    """

    def __init__(self) -> None:
        self.games = self.finished = self.stranger_wins = self.losers = 0
        self.turns = self.attempts = 0
        self.wins: dict[str, int] = {}
        self.cooperative = True  # every result so far says whether the table "won" (Panic)
        self.won = 0
        self.score = 0

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.turns += r.turns
        self.attempts += r.attempts
        if r.finished:
            self.finished += 1
            if r.winner is not None:  # cooperative games have no winning seat
                self.wins[str(r.winner)] = self.wins.get(str(r.winner), 0) + 1
            self.stranger_wins += r.winner_is_stranger
            self.losers += r.loser is not None
        if "won" in r.extra:
            self.won += bool(r.extra["won"])
            self.score += r.extra.get("score", 0)
        else:
            self.cooperative = False

    def as_dict(self, seconds: float | None = None) -> dict[str, Any]:
        n = self.games
        summary: dict[str, Any] = {
            "games": n,
            "finished": self.finished,
            "wins_by_seat": dict(sorted(self.wins.items(), key=lambda kv: int(kv[0]))),
            "stranger_wins": self.stranger_wins,
            "losers": self.losers,
            "mean_turns": round(self.turns / n, 2) if n else 0,
            "mean_attempts": round(self.attempts / n, 2) if n else 0,
        }
        if n and self.cooperative:  # a cooperative game (Panic)
            summary["won"] = self.won
            summary["mean_score"] = round(self.score / n, 2)
        if seconds is not None:
            summary["seconds"] = round(seconds, 3)
            summary["games_per_second"] = round(n / seconds, 1) if seconds > 0 else None
        return summary


def summarize(results: Sequence[GameResult], seconds: float | None = None) -> dict[str, Any]:
    """Totals for a run: games, finished, wins by seat, mean turns, (games per second)."""
    summary = Summary()
    for r in results:
        summary.add(r)
    return summary.as_dict(seconds)
