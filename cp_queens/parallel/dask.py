"""Where a parallel count runs: a Dask cluster, existing or started here.

:mod:`cp_queens.parallel` takes any ``concurrent.futures.Executor``; this
module makes one from a command line's ``--scheduler tcp://HOST:8786`` (an
existing cluster) or ``--cluster local[:W]`` (a ``LocalCluster`` of W worker
processes, for trying it out). Dask is an optional extra, imported only here
and only when asked for::

    pip install 'cp-queens[distributed]'

Every worker needs ``cp_queens`` (and Numba) importable: install the package
in the workers' environment too. Dask re-runs the tasks of a worker that dies,
so a lost worker costs time, not correctness.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from cp_queens.errors import CpQueensError

INSTALL_HINT = "pip install 'cp-queens[distributed]'"


@dataclass(frozen=True)
class Cluster:
    """An open connection to a Dask cluster, as an executor."""

    executor: Executor
    client: Any
    #: e.g. ``Dask cluster at tcp://10.0.0.5:8786 (4 workers)``.
    description: str


def parse_cluster(spec: str) -> int | None:
    """``local`` -> ``None`` (Dask picks the number of workers), ``local:W`` -> ``W``."""
    name, _, workers = spec.partition(":")
    if name != "local":
        raise CpQueensError(f"a local cluster is written 'local' or 'local:W', got {spec!r}")
    if not workers:
        return None
    if not workers.isdigit() or int(workers) < 1:
        raise CpQueensError(
            f"a local cluster 'local:W' needs a number of workers >= 1, got {workers!r}"
        )
    return int(workers)


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise CpQueensError(
            f"counting on a Dask cluster needs dask.distributed: {INSTALL_HINT}"
        ) from None
    return distributed


@contextlib.contextmanager
def _warm_workers() -> Iterator[None]:
    """Start a local cluster's worker processes from a warm fork server.

    Dask's default, ``spawn``, starts each worker as a fresh interpreter that
    imports Dask, NumPy and cp_queens again: about 1.5 s of CPU per worker, part
    of why ``--cluster local:2`` cost 2.4x the CPU of the local pool at n = 16.
    ``fork`` would be cheaper still but is unsafe here: the cluster's event loop
    runs in a thread of this process, and a worker forked while another thread
    held a lock (we saw one hang on the lock of ``sys.stderr``) never starts.
    A fork server is a single-threaded process that imports Dask and the
    counting kernels once and forks each worker from itself. The workers'
    sampling profiler (every 10 ms, for the dashboard we do not open) is off too.
    """
    import multiprocessing

    import dask

    settings: dict[str, Any] = {
        "distributed.worker.profile.enabled": False,
        # Housekeeping that runs all the time in every process (the scheduler, each
        # nanny and worker): event-loop tick checks every 20 ms, memory polls every
        # 100 ms, system monitors every 0.5 s. A count needs none of it often
        # (measured at n = 14 on a loaded machine, 23 s wall: 3.1 s of CPU with the
        # defaults, 1.8 s with these; the cost grows with the wall time of the run).
        "distributed.admin.tick.interval": "1s",
        "distributed.worker.memory.monitor-interval": "1s",
        "distributed.admin.system-monitor.interval": "5s",
        # Tasks wait on the scheduler until a worker is free (queuing): nothing to steal;
        # results are a few numbers: no memory to manage.
        "distributed.scheduler.work-stealing": False,
        "distributed.scheduler.active-memory-manager.start": False,
        "distributed.worker.use-file-locking": False,
    }
    if "forkserver" in multiprocessing.get_all_start_methods():
        from distributed.utils import get_mp_context

        from cp_queens import parallel

        settings["distributed.worker.multiprocessing-method"] = "forkserver"
        with dask.config.set(settings):
            get_mp_context()  # Dask names its own preload first; ours adds to it
        parallel.fork_server(["distributed", "cp_queens.engines.fast"])
    with dask.config.set(settings):
        yield


@contextlib.contextmanager
def dask_cluster(
    *, scheduler: str | None = None, cluster: str | None = None, timeout: float = 10.0
) -> Iterator[Cluster]:
    """Connect to ``scheduler`` (waiting up to ``timeout`` seconds), or start a local
    cluster described by ``cluster``."""
    if (scheduler is None) == (cluster is None):
        raise CpQueensError("give exactly one of scheduler and cluster")
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            try:
                client = distributed.Client(scheduler, timeout=f"{timeout}s")
            except (OSError, TimeoutError) as error:
                raise CpQueensError(
                    f"cannot reach the Dask scheduler at {scheduler}: {error}"
                ) from None
            where = f"Dask cluster at {scheduler}"
        else:
            workers = parse_cluster(cluster or "")
            with _warm_workers():
                local = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,  # the kernel holds a core; threads would only contend
                    processes=True,
                    dashboard_address=None,
                    memory_limit=0,  # no memory monitor polling in every worker and nanny
                    silence_logs=logging.ERROR,
                )
            stack.callback(local.close)
            client = distributed.Client(local)
            where = "local Dask cluster"
        stack.callback(client.close)
        count = len(client.scheduler_info().get("workers", {}))
        yield Cluster(client.get_executor(pure=False), client, f"{where} ({count} workers)")
