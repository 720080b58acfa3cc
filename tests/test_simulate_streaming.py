"""Streaming simulation: any executor, chunks by size, bounded in-flight work, resume, failing
games named by index and seed, Ctrl-C, progress, and the fast paths giving the same games."""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import luckylab
from luckylab.agents.island import CautiousAgent
from luckylab.agents.kill import Opportunist
from luckylab.errors import LuckyLabError
from luckylab.games.island import Move
from luckylab.simulation import DETAIL_KEYS, GameFailed, Summary, game_seeds, summarize


class CountingExecutor(Executor):
    """Threads behind a plain ``submit``: no ``_max_workers``, and it counts what it gets."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(2)
        self.submitted: list[Future] = []
        self.pending = self.most_pending = 0
        self._lock = threading.Lock()

    def submit(self, fn, /, *args, **kwargs):
        with self._lock:
            self.pending += 1
            self.most_pending = max(self.most_pending, self.pending)
        future = self._pool.submit(fn, *args, **kwargs)
        future.add_done_callback(self._done)
        self.submitted.append(future)
        return future

    def _done(self, future: Future) -> None:
        with self._lock:
            self.pending -= 1

    def shutdown(self, wait: bool = True, **kwargs) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)


class FailsOnSeed(CautiousAgent):
    """Plays like the cautious agent, but breaks in one chosen game."""

    bad_seed = game_seeds(11, 8)[5]

    def choose(self, game):
        if game.seed == self.bad_seed:
            raise RuntimeError("this bot is broken")
        return super().choose(game)


class InterruptedOnSeed(CautiousAgent):
    """Plays like the cautious agent; "Ctrl-C" arrives during one chosen game."""

    bad_seed = game_seeds(11, 8)[3]

    def choose(self, game):
        if game.seed == self.bad_seed:
            raise KeyboardInterrupt
        return super().choose(game)


def test_iter_simulate_yields_every_game_once_with_the_serial_results():
    serial = luckylab.simulate("island", players=4, games=9, seed=4)
    pairs = list(luckylab.iter_simulate("island", players=4, games=9, seed=4))
    assert [i for i, _ in pairs] == list(range(9))
    assert [r for _, r in pairs] == serial


def test_an_executor_without_max_workers_gets_chunks_by_size_and_bounded_work():
    serial = luckylab.simulate("kill", players=4, games=23, seed=3)
    pool = CountingExecutor()
    try:
        pairs = list(luckylab.iter_simulate("kill", players=4, games=23, seed=3, executor=pool,
                                            chunksize=4, max_in_flight=2))
    finally:
        pool.shutdown()
    assert len(pool.submitted) == 6  # 23 games in chunks of 4
    assert pool.most_pending <= 2
    assert sorted(i for i, _ in pairs) == list(range(23))
    assert [r for _, r in sorted(pairs, key=lambda p: p[0])] == serial
    with CountingExecutor() as pool:
        assert luckylab.simulate("kill", players=4, games=23, seed=3, executor=pool,
                                 chunksize=5) == serial


def test_start_resumes_a_run_with_identical_results():
    full = luckylab.simulate("save", players=4, games=12, seed=9)
    assert luckylab.simulate("save", players=4, games=12, seed=9, start=7) == full[7:]
    with CountingExecutor() as pool:
        assert luckylab.simulate("save", players=4, games=12, seed=9, start=5, executor=pool,
                                 chunksize=3) == full[5:]
    with pytest.raises(ValueError, match="start must be a game index from 0 to 12"):
        luckylab.simulate("save", players=4, games=12, seed=9, start=13)
    with pytest.raises(ValueError, match="no agent 'genius'"):  # at the call, not at next()
        luckylab.iter_simulate("save", players=4, games=12, agents="genius")


def test_a_failing_game_names_its_index_and_seed_and_keeps_what_finished():
    with pytest.raises(GameFailed, match=f"game 5 \\(seed {FailsOnSeed.bad_seed}\\) failed: "
                                         "RuntimeError: this bot is broken") as info:
        luckylab.simulate("island", players=4, games=8, seed=11, agents=FailsOnSeed)
    assert info.value.index == 5 and info.value.seed == FailsOnSeed.bad_seed
    assert isinstance(info.value, LuckyLabError)
    good = luckylab.simulate("island", players=4, games=5, seed=11, agents=FailsOnSeed)
    assert info.value.results == list(enumerate(good))
    # iter_simulate hands over every finished game before it raises
    seen = []
    with pytest.raises(GameFailed):
        for pair in luckylab.iter_simulate("island", players=4, games=8, seed=11,
                                           agents=FailsOnSeed):
            seen.append(pair)
    assert seen == list(enumerate(good))
    # spread over an executor: the chunk's earlier games and the other chunks are kept
    with CountingExecutor() as pool, pytest.raises(GameFailed) as info:
        luckylab.simulate("island", players=4, games=8, seed=11, agents=FailsOnSeed,
                          executor=pool, chunksize=3)
    assert info.value.index == 5
    assert dict(info.value.results)[4] == good[4]
    assert {i for i, _ in info.value.results} >= {0, 1, 2, 3, 4}


def test_ctrl_c_keeps_the_finished_games_and_cancels_pending_chunks():
    with pytest.raises(KeyboardInterrupt) as info:
        luckylab.simulate("island", players=4, games=8, seed=11, agents=InterruptedOnSeed)
    good = luckylab.simulate("island", players=4, games=3, seed=11)
    assert info.value.results == list(enumerate(good))
    pool = CountingExecutor()
    try:
        stream = luckylab.iter_simulate("island", players=4, games=40, seed=1, executor=pool,
                                        chunksize=2, max_in_flight=6)
        next(stream)
        stream.close()  # what a KeyboardInterrupt in the consumer's loop does
        assert len(pool.submitted) <= 7  # nothing more was sent after the first result
        for future in pool.submitted:
            future.exception() if not future.cancelled() else None
        assert all(f.done() for f in pool.submitted)
    finally:
        pool.shutdown()


def _local_agent_class():
    class Local(CautiousAgent):
        pass
    return Local


def test_an_agent_a_spawned_pool_cannot_load_is_refused_before_any_work():
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        with pytest.raises(LuckyLabError, match="Move the class into a module"):
            luckylab.iter_simulate("island", games=2, agents=_local_agent_class(),
                                   executor=pool)
        in_main = type("NotebookAgent", (CautiousAgent,), {"__module__": "__main__"})
        with pytest.raises(LuckyLabError, match=r"defined in a notebook or script \(__main__\)"):
            luckylab.simulate("island", games=2, agents=[in_main] * 4, executor=pool)
    # threads need no pickling
    with ThreadPoolExecutor(2) as pool:
        assert len(luckylab.simulate("island", games=2, agents=_local_agent_class(),
                                     executor=pool)) == 2


def test_detail_false_drops_only_the_heavy_entries():
    full = luckylab.simulate("island", players=4, games=3, seed=2)
    light = luckylab.simulate("island", players=4, games=3, seed=2, detail=False)
    for a, b in zip(full, light, strict=True):
        assert set(DETAIL_KEYS) <= set(a.extra) and not set(DETAIL_KEYS) & set(b.extra)
        assert a.winner == b.winner and a.turns == b.turns and a.attempts == b.attempts


def test_progress_without_tqdm_prints_a_plain_line(monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "tqdm.auto", None)  # "not installed"
    luckylab.simulate("panic", players=2, games=4, seed=1, progress=True)
    assert "panic x2: 4/4 games" in capsys.readouterr().err


def test_summary_on_the_fly_equals_summarize():
    results = luckylab.simulate("panic", players=3, games=10, seed=5)
    totals = Summary()
    for _, r in luckylab.iter_simulate("panic", players=3, games=10, seed=5, detail=False):
        totals.add(r)
    assert totals.as_dict() == summarize(results)


@pytest.mark.parametrize("game, players, agents", [
    ("island", 4, None), ("island", 2, "random"), ("island", 3, "aggressive"),
    ("kill", 4, None), ("kill", 4, "random"), ("save", 4, None), ("save", 4, "random"),
    ("panic", 4, None), ("panic", 2, "random"),
])
def test_trusted_quiet_games_equal_fully_checked_ones(game, players, agents):
    fast = luckylab.simulate(game, players=players, games=6, seed=21, agents=agents)
    checked = luckylab.simulate(game, players=players, games=6, seed=21, agents=agents,
                                checked=True)
    assert fast == checked


def test_a_students_subclass_is_checked_and_heard():
    class Sneaky(Opportunist):  # not a bundled bot: its actions go through apply()
        def choose(self, game):
            assert game.events, "a student's bot can read the events"
            return super().choose(game)

    assert (luckylab.simulate("kill", players=4, games=2, seed=1, agents=Sneaky)
            == luckylab.simulate("kill", players=4, games=2, seed=1))


def test_moves_over_strangers_are_counted_and_built_one_at_a_time():
    game = luckylab.new_game("island", players=3, seed=3)  # three Strangers: four pawns
    me = game.current_player
    game.move[me] = 4
    moves = [a for a in game.legal_actions() if isinstance(a, Move)]
    assert len(moves) > 10_000 and game.count_moves() == len(moves)
    for k in (0, 1, 77, len(moves) // 2, len(moves) - 1):
        assert game.nth_move(k) == moves[k]
    with pytest.raises(IndexError, match=f"there are {len(moves)} Moves"):
        game.nth_move(len(moves))
    game.move[me] = 10  # about 325,000 Moves: counted and built without listing them
    n = game.count_moves()
    assert n > 300_000
    last = game.nth_move(n - 1)
    assert isinstance(last, Move) and last.moves


def test_dask_local_cluster_executor_gives_the_serial_results():
    distributed = pytest.importorskip("distributed")
    serial = luckylab.simulate("island", players=4, games=12, seed=6)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        executor = client.get_executor()
        assert not hasattr(executor, "_max_workers")
        assert luckylab.simulate("island", players=4, games=12, seed=6, executor=executor,
                                 chunksize=5) == serial


def test_ray_adapter_from_the_docs_gives_the_serial_results():
    ray = pytest.importorskip("ray")

    class RayExecutor(Executor):
        def submit(self, fn, *args, **kwargs):
            return ray.remote(fn).remote(*args, **kwargs).future()

    ray.init(num_cpus=2, include_dashboard=False)
    try:
        serial = luckylab.simulate("island", players=4, games=6, seed=6)
        assert luckylab.simulate("island", players=4, games=6, seed=6, executor=RayExecutor(),
                                 chunksize=2) == serial
    finally:
        ray.shutdown()
