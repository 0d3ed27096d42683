"""Counting on a real Dask cluster (two worker processes), including a worker killed mid-run."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Iterator

import pytest

from cp_queens import Problem
from cp_queens.errors import CpQueensError
from cp_queens.parallel.dask import Cluster, dask_cluster, parse_cluster
from cp_queens.stats import Progress
from tests.helpers import ask, total, unique


@pytest.fixture(scope="module", autouse=True)
def _needs_distributed() -> None:
    """Each test skips without ``distributed``, as a module-level ``importorskip`` would;
    asked here, the 0.4 s import is paid only by the pytest workers that run these tests,
    not by every worker while it collects the suite."""
    pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster(_needs_distributed: None) -> Iterator[Cluster]:
    with dask_cluster(cluster="local:2", processes=True) as opened:
        yield opened


def test_a_local_cluster_of_threads_counts_on_them() -> None:
    with dask_cluster(cluster="local:2") as threads:
        assert set(threads.client.run(os.getpid).values()) == {os.getpid()}
        answer = ask("fast", "count_unique", Problem(12), executor=threads.executor)
        assert answer.value == (total(12), unique(12))
    answer = ask("fast", "count_unique", Problem(11), cluster="local:2")
    assert answer.value == (total(11), unique(11))
    assert answer.stats.extra["where"] == "local Dask cluster (2 workers)"


def test_a_local_cluster_gives_the_local_pool_counts(cluster: Cluster) -> None:
    assert "2 workers" in cluster.description
    on_dask = ask("fast", "count_unique", Problem(11), executor=cluster.executor).value
    on_pool = ask("fast", "count_unique", Problem(11), workers=2).value
    assert on_dask == on_pool == (total(11), unique(11))


def test_the_engine_connects_to_a_scheduler_itself(cluster: Cluster) -> None:
    address = cluster.client.scheduler.address
    answer = ask("fast", "count_unique", Problem(10), scheduler=address)
    assert answer.value == (total(10), unique(10))
    assert answer.stats.extra["where"].startswith(f"Dask cluster at {address}")


def test_a_worker_killed_mid_run_still_gives_the_exact_total(cluster: Cluster) -> None:
    pids = cluster.client.run(os.getpid)
    victim = max(pids.values())
    killed = []

    def kill_a_worker(info: Progress) -> None:
        if info.done and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    answer = ask(
        "fast", "count_unique", Problem(12), progress=kill_a_worker, executor=cluster.executor
    )
    assert killed
    assert answer.value == (total(12), unique(12))
    assert answer.stats.status == "complete"
    assert victim not in live_pids(cluster)  # it really died


def live_pids(cluster: Cluster) -> set[int]:
    """The workers' process ids, once the scheduler has let go of a dead one (a broadcast
    sent before it noticed reaches the dead worker's closed connection)."""
    from distributed.comm.core import CommClosedError

    for _ in range(20):
        try:
            return set(cluster.client.run(os.getpid).values())
        except (CommClosedError, OSError):
            time.sleep(0.5)
    return set(cluster.client.run(os.getpid).values())


def test_cluster_specs_are_checked() -> None:
    assert parse_cluster("local") is None
    assert parse_cluster("local:3") == 3
    for bad in ("remote", "local:0", "local:x"):
        with pytest.raises(CpQueensError, match="local cluster"):
            parse_cluster(bad)
    with pytest.raises(CpQueensError, match="exactly one"), dask_cluster():
        pass


def test_an_unreachable_scheduler_is_a_clear_error() -> None:
    address = "tcp://127.0.0.1:9"
    expected = f"cannot reach the Dask scheduler at {re.escape(address)}"
    with pytest.raises(CpQueensError, match=expected), dask_cluster(scheduler=address, timeout=1):
        pass
