"""Local worker processes: how they start (``fork`` or a fork server), how they leave
Ctrl-C to the parent, die with it, and are stopped at once.

``cp_queens.parallel`` runs tasks on a pool from here when no executor is given; the
engines that run their own pools (``cpsat``'s orbits) take these too, so that every
worker process of the project starts and ends the same way.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import multiprocessing.context
    from concurrent.futures import Executor, ProcessPoolExecutor


#: Modules a forkserver imports once before it forks any worker; see ``start_method``.
_preloaded: list[str] = []


def start_method(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """``fork`` when it is safe, a clean fork server otherwise.

    ``fork`` lets workers inherit what this process has loaded (OR-Tools, the
    compiled kernels): ``spawn`` would load it again in every worker, about
    0.5 s each. But a fork copies only the calling thread. Had another thread
    held a lock at that instant (a Rich display writing to stderr, a CP-SAT
    search, Dask's event loop), the child waits on it forever; we saw a
    worker hang so, on the buffer lock of ``sys.stderr``. So with other threads
    alive we use ``forkserver``: a single-threaded server process that imports
    ``preload`` once and forks every worker from itself.
    """
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return fork_server(preload)


def fork_server(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """The ``forkserver`` context (``spawn`` where there is none), preloading ``preload``."""
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    # One server per process, started at its first use with the list as it is then.
    _preloaded.extend(name for name in preload if name not in _preloaded)
    context.set_forkserver_preload(list(_preloaded))
    return context


def local_pool(
    workers: int | None,
    *,
    context: multiprocessing.context.BaseContext | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (all cores for ``None``) that leave Ctrl-C to us.

    Ctrl-C reaches the whole process group; only the parent should react, by
    saving what finished and stopping the workers itself (``stop_now``).
    """
    from concurrent.futures import ProcessPoolExecutor

    from cp_queens.budget import resolve_workers  # the one rule for workers

    return ProcessPoolExecutor(
        max_workers=resolve_workers(workers),
        mp_context=context or start_method(),
        initializer=_start_worker,
        initargs=(initializer, initargs),
    )


def _start_worker(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent's own SIGTERM handler (Python code, run only between bytecodes) was
    # inherited: inside a compiled kernel it would wait for the chunk to end, minutes.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent()
    if initializer is not None:
        initializer(*initargs)


#: ``prctl`` option: the signal a process gets when its parent dies (Linux).
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """Ask the kernel to kill this process when its parent dies, even by ``kill -9``.

    Without it a killed ``cp-queens count`` left its workers counting on at full
    CPU, orphaned (and ``compare`` its runs). Linux only (``prctl``); elsewhere a
    no-op. ``parent``: the parent's pid as the parent saw it before forking, so that a
    parent already gone by the time this runs is noticed too.
    """
    parent = os.getppid() if parent is None else parent
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def stop_now(executor: Executor) -> None:
    """Cancel what has not started and end a local pool's worker processes at once.

    The processes (and the pool's manager thread) are collected *before* the
    shutdown call, which forgets them.
    """
    processes = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)  # drops `manager`: keep it
    for process in processes:
        process.terminate()
    if manager is not None:
        # Its workers gone, the pool's manager thread ends within milliseconds.
        # Left running, it races Python's exit hook, which then writes to the
        # wake-up pipe the thread is closing ("Bad file descriptor" at exit).
        manager.join(timeout=1)
