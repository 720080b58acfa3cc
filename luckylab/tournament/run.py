"""Running a tournament: the referee's game loop, and :func:`run`.

The referee plays each game of the schedule (:mod:`.schedule`) on its own copy of the game.
Reference bots (the bundled ones) decide in the referee's process; each student bot decides
in its worker process (:mod:`.sandbox`) on its seat's world, never the real game: its own hand,
the board and the past as its seat saw it, with every hidden card dealt anew
(:mod:`luckylab.games.shown`, sent by :mod:`.worlds`), and answers with one action as plain
data, checked by the referee's ``apply``. A bot that fails loses the game:
it is placed last and the game's default bundled bot finishes the game in its seat.

Blocks of games go to ``executor`` (any ``concurrent.futures``-style executor: a
``ProcessPoolExecutor``, Dask's ``client.get_executor()``), or to ``workers`` processes; each
of those processes keeps its own worker per student bot. Finished games are appended to the
results file as they come, so an interrupted tournament continues where it stopped.

Where no process can be started (Pyodide in a browser tab), or with ``sandbox=False``, the bot
files are imported and played in the referee's process like the reference bots: each decision
still gets the seat's world, and a bot that raises or chooses an illegal action still loses
the game, but no time, memory or output limit holds. Well-behaved bots give the same games,
and so the same table, either way.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import itertools
import json
import multiprocessing
import random
import sys
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from pathlib import Path
from typing import Any

from ..errors import BotFileError, LuckyLabError, TournamentError
from ..games.registry import GAMES
from ..games.shown import SeatPasts, seat_world
from .bots import Entrant, load_bots, reference_entrants
from .ratings import check_available
from .results import ResultsFile, TournamentResult, header_for
from .sandbox import (
    BotWorker,
    Limits,
    _raised,
    imported_bot,
    processes_available,
    use_sandbox,
    without_main,
)
from .schedule import Deal, bot_seed, schedule
from .worlds import WorldSender

__all__ = ["play_deal", "run"]

MAX_GAMES = 10**6
_IN_BROWSER = ("The bots run here, inside this Python, because a browser cannot start a "
               "separate process for each bot: nothing limits their time or memory. That is "
               "fine for your own bots on your own computer; the class tournament runs every "
               "bot in its own process, with limits.")
_NETWORK_OPEN = ("The bot workers are not cut off the network on this machine ({why}): a bot "
                 "could use it (the other guards still hold: no sockets from Python, no "
                 "processes, no writing outside its folder). For a class whose code you have "
                 "not read, run the tournament in a container with no network "
                 "(docs/tournament.md, section 5).")
_IN_PROCESS = ("The bots run here, inside this Python (sandbox=False): nothing limits their "
               "time or memory, and a bot file can do anything this Python can. Do this only "
               "with bots you wrote or have read.")
_DAEMON = ("this executor's worker process is a daemon, and a daemon cannot start the student "
           "bots' worker processes: with Dask, set distributed.worker.daemon to False where the "
           "workers start (dask.config.set({'distributed.worker.daemon': False}) before a "
           "LocalCluster, DASK_DISTRIBUTED__WORKER__DAEMON=False for dask worker); see "
           "docs/tournament.md")
OUTPUT_KEPT = 2000
"""Characters of a bot's printing kept with each game's record."""

_WORKERS: dict[tuple[int, str, str, str, tuple[Any, ...]], BotWorker] = {}


def _worker_for(entrant: Entrant, limits: Limits) -> BotWorker:
    """This thread's worker for ``entrant``: an executor that runs jobs in threads (a Dask
    worker's, a ``ThreadPoolExecutor``) plays two games at once in one process, and a worker
    answers one game at a time."""
    key = (threading.get_ident(), str(entrant.path), entrant.sha256, entrant.game,
           tuple(limits.to_data().values()))
    worker = _WORKERS.get(key)
    if worker is None:
        worker = _WORKERS[key] = BotWorker(entrant.path, entrant.class_name,  # type: ignore[arg-type]
                                           entrant.game, limits)
    return worker


@atexit.register
def close_workers() -> None:
    """Stop every bot worker process this process started."""
    while _WORKERS:
        _WORKERS.popitem()[1].close()


_SENDERS: dict[str, WorldSender] = {}


def _sender_for(game: str, players: int, options: dict[str, Any]) -> WorldSender:
    key = json.dumps([game, players, options, threading.get_ident()], sort_keys=True)
    sender = _SENDERS.get(key)  # one per thread: it remembers what each seat was sent
    if sender is None:
        if len(_SENDERS) >= 8:
            _SENDERS.clear()
        sender = _SENDERS[key] = WorldSender(game, players, options)
    return sender


def play_deal(deal: Deal, entrants: dict[str, Entrant], game: str, players: int,
              options: dict[str, Any], limits: Limits, sandbox: bool = True) -> dict[str, Any]:
    """Play game ``deal`` and return its record (see :mod:`luckylab.tournament.results`).

    ``sandbox=False`` plays the bot files in this process (no limits; see the module's text).
    """
    from ..agents import agent_class
    from ..games.registry import new_game
    from ..simulation import seats_of_players

    state = new_game(game, players=players, seed=deal.seed, **options)
    player_seats = seats_of_players(state)  # the Island's Strangers left out
    position = {seat: k for k, seat in enumerate(player_seats)}
    default = agent_class(game)
    local: dict[int, Any] = {}
    remote: dict[int, BotWorker] = {}
    worlds: dict[int, random.Random] = {}  # deals each student bot's worlds (games/shown.py)
    failures: dict[int, dict[str, Any]] = {}
    output: dict[str, str] = {}
    guests: set[int] = set()  # seats of bot files played in this process (sandbox=False)

    def fail(seat: int, kind: str, reason: str) -> None:
        k = position[seat]
        failures[seat] = {"position": k, "bot": deal.seats[k], "kind": kind, "reason": reason}
        remote.pop(seat, None)
        guests.discard(seat)
        local[seat] = default(seed=bot_seed(deal.seed, f"stand-in {seat}"))

    for seat in range(state.num_seats):
        if seat not in position:  # a Stranger
            local[seat] = default(seed=bot_seed(deal.seed, f"stranger {seat}"))
            continue
        name = deal.seats[position[seat]]
        entrant = entrants[name]
        seed = bot_seed(deal.seed, name)
        if entrant.reference:
            local[seat] = entrant.agent_class()(seed=seed)
            continue
        worlds[seat] = random.Random(bot_seed(deal.seed, f"worlds of {name}"))
        if not sandbox:
            try:
                with _captured(output, name):
                    cls = imported_bot(entrant.path, entrant.class_name,  # type: ignore[arg-type]
                                       game, entrant.sha256)
                    local[seat] = cls(seed=seed)
            except BotFileError as exc:
                fail(seat, "import", str(exc))
            except Exception as exc:  # a bot's constructor may raise anything
                fail(seat, "raised", f"making the bot raised {type(exc).__name__}: {exc}")
            else:
                guests.add(seat)
            continue
        worker = _worker_for(entrant, limits)
        problem = worker.start_game(game, players, options, seed)
        if problem is not None:
            fail(seat, *problem)
        else:
            remote[seat] = worker
    if not remote and not any(type(b).reads_events for b in local.values()) and not (
            default.reads_events):
        state.quieten()  # (a student bot in a worker may read the events)
    past = SeatPasts(state) if worlds else None
    sender = _sender_for(game, players, options) if remote else None
    if sender is not None:
        sender.new_game()
    while not state.is_over:
        seat = state.current_player
        if seat in remote:
            answer = remote[seat].decide(sender.world(state, seat, worlds[seat], past))
            name = deal.seats[position[seat]]
            said = answer.get("out") or ""
            if said and len(output.get(name, "")) < OUTPUT_KEPT:
                output[name] = (output.get(name, "") + said)[:OUTPUT_KEPT]
            if "fail" in answer:
                fail(seat, str(answer["fail"]), str(answer["why"]))
            else:
                try:
                    action = state.action_from_data(answer["action"])
                    state.apply(action)
                except Exception as exc:  # any refusal of the engine: the bot's action was bad
                    fail(seat, "illegal", f"chose an action the rules do not allow: "
                                          f"{str(exc)[:200]}")
                else:
                    past.catch_up(seat)
                    continue
        if seat in guests:
            name = deal.seats[position[seat]]
            try:
                with _captured(output, name):
                    chosen = local[seat].choose(seat_world(state, seat, worlds[seat], past))
            except Exception as exc:  # whatever the bot raises loses it the game
                fail(seat, "raised", _raised(exc))
            else:
                try:
                    data = chosen.to_data()
                    state.apply(state.action_from_data(data))
                except Exception as exc:  # not an action, or one the rules do not allow
                    fail(seat, "illegal", f"chose an action the rules do not allow: "
                                          f"{str(exc)[:200]}")
                else:
                    past.catch_up(seat)
                    continue
        bot = local[seat]
        action = bot.choose(state)
        if type(bot).trusted and type(bot).__module__.startswith("luckylab.agents."):
            state.apply_trusted(action)
        else:
            state.apply(action)
        if past is not None:
            past.catch_up(seat)
    returns = state.returns()
    mine = [float(returns[s]) for s in player_seats]
    failed = {failures[s]["position"] for s in failures}
    alive = [mine[k] for k in range(players) if k not in failed]
    places = [len(alive) + 1 if k in failed else 1 + sum(v > mine[k] for v in alive)
              for k in range(players)]
    result = state.result()
    winner = position.get(result.winner) if result.winner is not None else None
    return {"index": deal.index, "block": deal.block, "rotation": deal.rotation,
            "seed": deal.seed, "seats": list(deal.seats), "returns": mine, "places": places,
            "winner": winner, "failures": sorted(failures.values(), key=lambda f: f["position"]),
            "turns": result.turns, "finished": result.finished, "output": output}


@contextlib.contextmanager
def _captured(output: dict[str, str], name: str) -> Any:
    """Keep what a bot played in this process prints (its start, as a worker's is kept)."""
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            yield
    finally:
        said = buffer.getvalue()
        if said and len(output.get(name, "")) < OUTPUT_KEPT:
            output[name] = (output.get(name, "") + said)[:OUTPUT_KEPT]


Job = tuple[list[Deal], dict[str, Entrant], str, int, dict[str, Any], Limits, bool]


def _play_job(job: Job) -> list[dict[str, Any]]:
    """Play a few blocks (in an executor's worker process, or here)."""
    deals, entrants, game, players, options, limits, sandbox = job
    if (sandbox and multiprocessing.current_process().daemon
            and any(not e.reference for e in entrants.values())):
        raise TournamentError(_DAEMON)
    return [play_deal(d, entrants, game, players, options, limits, sandbox) for d in deals]


def _check_run(game: Any, players: Any, games: Any, seed: Any, workers: Any,
               reference: Any, limits: Any, progress: Any) -> None:
    from ..games.base import check_seed

    if game not in GAMES:
        raise TournamentError(f"game must be one of {', '.join(GAMES)}, not {game!r:.60}")
    for name, value, low, high in (("players", players, 2, 8), ("games", games, 1, MAX_GAMES),
                                   ("workers", workers, 1, 256)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise TournamentError(f"{name} must be a whole number from {low} to {high}, "
                                  f"not {value!r:.40}")
    if seed is None:
        raise TournamentError("seed must be a whole number >= 0 (a tournament must be "
                              "replayable: pick one and keep it)")
    check_seed(seed)
    for name, value in (("reference", reference), ("progress", progress)):
        if not isinstance(value, bool):
            raise TournamentError(f"{name} must be True or False, not {value!r:.40}")
    if not isinstance(limits, Limits):
        raise TournamentError(f"limits must be a luckylab.tournament.Limits, not {limits!r:.60}")


def run(bots: str | Path | Sequence[Entrant], *, game: str, players: int, games: int,
        seed: int, results: str | Path | None = None, workers: int = 1,
        executor: Executor | None = None, reference: bool = True, limits: Limits | None = None,
        progress: bool = True, options: dict[str, Any] | None = None,
        sandbox: bool | None = None) -> TournamentResult:
    """Play a tournament of ``bots`` (a folder of bot files, or a list of
    :class:`~luckylab.tournament.bots.Entrant`) at ``game`` with ``players`` seats a game.

    ``games`` is rounded up to whole blocks of ``players`` games (one deal in every seat
    rotation). ``reference=True`` adds the game's bundled bots. ``results`` names a JSON-lines
    file the games are appended to: a rerun with the same arguments continues it (more
    ``games`` extend it), and gives the same table as an uninterrupted run. ``workers`` > 1
    plays blocks in that many processes; or pass any ``executor``. ``limits`` bounds each
    student bot (:class:`~luckylab.tournament.sandbox.Limits`), each in its own worker process;
    ``sandbox=False`` (the default where no process can be started: in a browser) plays them
    in this process instead, without limits, and says so once.

    >>> from luckylab.tournament import run
    >>> result = run([], game="kill", players=3, games=6, seed=1, progress=False)
    >>> [row["bot"] for row in result.leaderboard()][:1], result.games
    (['opportunist (reference)'], 6)
    """
    options = dict(options or {})
    limits = Limits() if limits is None else limits
    _check_run(game, players, games, seed, workers, reference, limits, progress)
    sandbox = use_sandbox(sandbox)
    if (workers > 1 or executor is not None) and not processes_available():
        raise TournamentError("this Python cannot start processes (it runs in a browser): "
                              "use workers=1 and no executor")
    check_available()  # before any game is played: the ratings need openskill
    from ..games.registry import new_game

    try:
        new_game(game, players=players, seed=0, **options)
    except LuckyLabError as exc:
        raise TournamentError(f"{game} with {players} players: {exc}") from None
    problems = []
    if isinstance(bots, (str, Path)):
        entrants, problems = load_bots(bots, game=game, limits=limits, sandbox=sandbox)
    elif isinstance(bots, (list, tuple)) and all(isinstance(e, Entrant) for e in bots):
        entrants = list(bots)
        wrong = [e.name for e in entrants if e.game != game]
        if wrong:
            raise TournamentError(f"not bots for {game}: {', '.join(wrong)}")
    else:
        raise TournamentError("bots is a folder of bot files or a list of Entrant "
                              f"(from load_bots), not {bots!r:.60}")
    if not sandbox and entrants:
        print(_IN_PROCESS if processes_available() else _IN_BROWSER, file=sys.stderr)
    network = None
    if sandbox and entrants:
        from .guard import probe_network
        from .sandbox import _context

        network = probe_network(_context(), without_main)  # the workers' word, or a check
        if network != "cut":
            print(_NETWORK_OPEN.format(why=network.removeprefix("open: ")), file=sys.stderr)
    if reference:
        entrants = entrants + reference_entrants(game)
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise TournamentError("two entrants have the same name: " + ", ".join(
            sorted({n for n in names if names.count(n) > 1})))
    deals = schedule(names, players, games, seed)
    by_name = {e.name: e for e in entrants}
    ordered = [by_name[n] for n in sorted(names)]
    header = header_for(game, players, seed, options, ordered, limits.to_data())
    store = ResultsFile(results, header) if results is not None else None
    done = dict(store.done) if store is not None else {}
    todo = [d for d in deals if d.index not in done]
    blocks: dict[int, list[Deal]] = {}
    for d in todo:
        blocks.setdefault(d.block, []).append(d)
    per_job = max(1, 8 // players)
    block_lists = list(blocks.values())
    jobs: list[Job] = []
    for i in range(0, len(block_lists), per_job):
        chunk = [d for b in block_lists[i:i + per_job] for d in b]
        lineup = {n for d in chunk for n in d.seats}
        jobs.append((chunk, {n: by_name[n] for n in lineup}, game, players, options, limits,
                     sandbox))
    bar = None
    if progress:
        from ..simulation import _Progress

        if len(deals) != games:
            print(f"{games} games rounded up to {len(deals)}: whole blocks of {players} "
                  "(one deal in every seat rotation)", file=sys.stderr)
        bar = _Progress(len(todo), f"{game} tournament")
    own_pool = None
    if executor is None and workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        from .sandbox import _context

        executor = own_pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context())
    try:
        results_of = _results(jobs, executor, 2 * max(workers, 2))
        if own_pool is not None:  # its processes start at the first jobs
            with without_main():
                first = next(results_of, None)
            results_of = itertools.chain([] if first is None else [first], results_of)
        for records in results_of:
            for record in records:
                done[record["index"]] = record
                if store is not None:
                    store.append(record)
            if bar is not None:
                bar.update(len(records))
    finally:
        if bar is not None:
            bar.close()
        if store is not None:
            store.close()
        if own_pool is not None:
            own_pool.shutdown(cancel_futures=True)
        close_workers()  # no idle bot processes left behind (a notebook lives long)
    records = [done[d.index] for d in deals]
    return TournamentResult(game, players, seed, entrants, records, problems,
                            Path(results) if results is not None else None, network)


def _results(jobs: list[Job], executor: Executor | None, in_flight: int
             ) -> Iterator[list[dict[str, Any]]]:
    if executor is None:
        for job in jobs:
            yield _play_job(job)
        return
    waiting = iter(jobs)
    running: set[Future[Any]] = set()
    for job in waiting:
        running.add(executor.submit(_play_job, job))
        if len(running) >= in_flight:
            break
    while running:
        finished, running = wait(running, return_when=FIRST_COMPLETED)
        for future in finished:
            yield future.result()
            following = next(waiting, None)
            if following is not None:
                running.add(executor.submit(_play_job, following))
