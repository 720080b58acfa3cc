"""The tournament beyond one process pool (issue 39): executors that run jobs in threads, and a
real ``dask.distributed`` cluster (a ``LocalCluster`` of worker processes) through
``client.get_executor()``, with the same games and table as ``workers=2``.

The Dask tournament runs in a child Python of its own process group, with a timeout: a cluster
that does not start or stop cannot hang the suite, and whatever the cluster started (its worker
processes, and the bot workers and fork server those start) is checked to be gone afterwards.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from luckylab.agents.kill import Opportunist, Patient
from luckylab.errors import TournamentError
from luckylab.tournament import run, save_bot

ROOT = Path(__file__).resolve().parents[1]
GAMES = dict(game="kill", players=3, games=24, seed=5, progress=False)
DASK_TIMEOUT_S = 180


@pytest.fixture(scope="module")
def bots(tmp_path_factory) -> Path:
    """Two student bot files (played sandboxed, each in its worker process); the reference
    bots join them."""
    folder = tmp_path_factory.mktemp("bots")
    save_bot(Opportunist, "copycat", game="kill", folder=folder)
    save_bot(Patient, "waiter", game="kill", folder=folder)
    return folder


@pytest.fixture(scope="module")
def on_two_workers(bots):
    result = run(bots, workers=2, **GAMES)
    assert result.failures == [] and not result.problems and result.games == 24
    return result


def as_json(value):
    return json.loads(json.dumps(value))


def test_an_executor_of_threads_gives_the_same_games(bots, on_two_workers):
    """Two jobs at once in one process (a Dask worker's threads do this) each get their own bot
    workers: a worker shared by two games would mix their moves up."""
    with ThreadPoolExecutor(2) as pool:
        result = run(bots, executor=pool, **GAMES)
    assert result.records == on_two_workers.records
    assert result.leaderboard() == on_two_workers.leaderboard()


class InADaemon(Executor):
    """Runs each job here, as a daemon process would (Dask's workers are daemons by default)."""

    def submit(self, fn, *args, **kwargs):
        future: Future = Future()
        config = multiprocessing.current_process()._config
        saved = config.get("daemon", False)
        config["daemon"] = True
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        finally:
            config["daemon"] = saved
        return future


def test_a_daemon_worker_process_says_what_to_set(bots):
    with pytest.raises(TournamentError, match=r"distributed\.worker\.daemon to False"):
        run(bots, executor=InADaemon(), **GAMES)
    assert run(bots, executor=InADaemon(), sandbox=False, **GAMES).games == 24


CHILD = """
import json, os, sys, warnings
warnings.simplefilter("always")
import dask, distributed, psutil
from luckylab.tournament import run

folder, games = sys.argv[1], json.loads(sys.argv[2])
dask.config.set({"distributed.worker.daemon": False})  # its workers start the bot workers
with warnings.catch_warnings(record=True) as caught:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \\
            distributed.Client(cluster) as client:
        pids = list(client.run(os.getpid).values())  # the worker processes
        result = run(folder, executor=client.get_executor(), **games)
left = [p for p in pids if psutil.pid_exists(p)]
print(json.dumps({"records": result.records, "leaderboard": result.leaderboard(),
                  "failures": [list(f) for f in result.failures], "problems": result.problems,
                  "workers": pids, "left": left,
                  "warnings": [f"{w.category.__name__}: {w.message}" for w in caught]}))
"""


@pytest.mark.slow
def test_a_dask_local_cluster_gives_the_table_of_two_workers(bots, on_two_workers):
    pytest.importorskip("distributed")
    started = time.monotonic()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(bots), json.dumps(GAMES)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = child.communicate(timeout=DASK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        out, err = child.communicate()
        pytest.fail(f"the Dask tournament did not finish in {DASK_TIMEOUT_S} s:\n{err[-3000:]}")
    finally:  # nothing the cluster started outlives the test
        left = _running_in(child.pid)
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    assert child.returncode == 0, err[-3000:]
    assert left == [], "processes of the Dask tournament were left running"
    there = json.loads(out.splitlines()[-1])
    assert len(there["workers"]) == 2 and os.getpid() not in there["workers"]
    assert there["left"] == [], "the cluster's worker processes outlived it"
    assert there["warnings"] == []
    assert there["failures"] == [] and there["problems"] == []
    assert there["records"] == as_json(on_two_workers.records)
    assert there["leaderboard"] == as_json(on_two_workers.leaderboard())
    print(f"Dask LocalCluster tournament: {time.monotonic() - started:.1f} s")


def _running_in(group: int) -> list[int]:
    """The processes of process group ``group`` still running after up to 5 s (a bot worker
    notices within 3 s that its referee is gone); zombies do not count (the system reaps them
    in its own time)."""
    import psutil  # (a dependency of distributed)

    left: list[int] = []
    for _ in range(50):
        left = []
        for process in psutil.process_iter(["status"]):
            with contextlib.suppress(OSError):
                if (os.getpgid(process.pid) == group
                        and process.info["status"] != psutil.STATUS_ZOMBIE):
                    left.append(process.pid)
        if not left:
            break
        time.sleep(0.1)
    return left
