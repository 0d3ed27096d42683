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
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cp_queens.budget import resolve_workers  # the one rule for workers

if TYPE_CHECKING:
    import multiprocessing.context
    from concurrent.futures import Executor, ProcessPoolExecutor

    from cp_queens.budget import Clock


#: Modules a forkserver imports once before it forks any worker; see ``start_method``.
_preloaded: list[str] = []


def start_method(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """``fork`` when it is safe, a clean fork server otherwise.

    ``fork`` lets workers inherit what this process has loaded (OR-Tools, the
    compiled kernels): ``spawn`` would load it again in every worker, about
    0.5 s each. But a fork copies only the calling thread. Had another thread
    held a lock at that instant (a Rich display writing to stderr, a CP-SAT
    search, Dask's event loop, a BLAS library's pool), the child waits on it
    forever; we saw a worker hang so, on the buffer lock of ``sys.stderr``. So
    we fork only when the process has one thread *as the kernel counts them*
    (C libraries' threads too, the count Python 3.12 warns by); otherwise a
    single-threaded server process that imports ``preload`` once forks every
    worker from itself.

    A fork server's worker would start by running the calling script again (as
    ``__mp_main__``), which a script calling ``cp_queens`` at its top level,
    without ``if __name__ == "__main__":``, cannot survive. Our workers run the
    package's own functions and need nothing of the script, so they skip it:
    a lesson script needs no guard. Only work defined in the script itself
    (``"__main__"`` in ``preload``) needs it; a script without the guard is then
    refused in one line naming it (``MainGuardError``) before any worker starts.
    """
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods() and _threads() == 1:
        return multiprocessing.get_context("fork")
    if "__main__" in preload:
        context = fork_server([name for name in preload if name != "__main__"], script=True)
        check_main_guard(context)
        return context
    return fork_server(preload)


def fork_server(
    preload: Sequence[str] = (), *, script: bool = False
) -> multiprocessing.context.BaseContext:
    """The ``forkserver`` context (``spawn`` where there is none), preloading ``preload``.

    ``script``: whether the workers import the calling script (``__main__``) as
    multiprocessing's workers do; by default they do not (see ``start_method``).
    """
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    if script:
        context = multiprocessing.get_context("forkserver")
    else:
        from cp_queens.parallel.script_free import ScriptFreeContext

        context = ScriptFreeContext()
    # One server per process, started at its first use with the list as it is then.
    _preloaded.extend(name for name in preload if name not in _preloaded)
    context.set_forkserver_preload(list(_preloaded))
    return context


def _threads() -> int:
    """This process's threads as the kernel counts them (C libraries' threads too)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def check_main_guard(context: multiprocessing.context.BaseContext) -> None:
    """Refuse, in one line, to start workers that would run the calling script again.

    A fork server or ``spawn`` that imports the script (work defined in it needs
    that) runs it as ``__mp_main__`` in every worker; a script calling ``cp_queens``
    at its top level, outside ``if __name__ == "__main__":``, would start workers
    from every worker: Python then breaks the pool with a screen of tracebacks and
    leaked semaphores. Asked before any worker starts: where the call comes from
    (the script's own top-level line) is read off the stack, and whether that line is
    under the guard off the script's syntax tree.
    """
    if context.get_start_method() == "fork":
        return
    import sys
    import types

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:
        return  # python -c, a REPL, a notebook, python -m: nothing is imported again
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None and not (
        frame.f_globals is main.__dict__ and frame.f_code.co_name == "<module>"
    ):
        frame = frame.f_back
    if frame is None or _under_guard(path, frame.f_lineno):
        return
    from cp_queens.errors import MainGuardError

    raise MainGuardError(
        f"{os.path.basename(path)}, line {frame.f_lineno}: worker processes start by "
        "importing this script again, so a call to cp_queens at its top level must stand "
        'under `if __name__ == "__main__":` (docs/api.md, "Scripts and worker processes")'
    )


def _under_guard(path: str, line: int) -> bool:
    """Whether ``line`` of the script at ``path`` is inside ``if __name__ == "__main__":``."""
    import ast

    try:
        with open(path, "rb") as source:
            tree = ast.parse(source.read())
    except (OSError, SyntaxError, ValueError):
        return True  # cannot tell: let Python speak for itself
    for node in tree.body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            end = node.end_lineno or node.lineno
            if node.lineno <= line <= end:
                return True
    return False


def local_pool(
    workers: int | None,
    *,
    context: multiprocessing.context.BaseContext | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
    arrival: Any = None,
) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (all cores for ``None``) that leave Ctrl-C to us.

    Ctrl-C reaches the whole process group; only the parent should react, by
    saving what finished and stopping the workers itself (``stop_now``).
    ``arrival``: a barrier of the pool's context that every worker can meet once it
    has started (see ``started_pool``).
    """
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(
        max_workers=resolve_workers(workers),
        mp_context=context or start_method(),
        initializer=_start_worker,
        initargs=(os.getpid(), initializer, initargs, arrival),
    )


def started_pool(
    workers: int | None,
    clock: Clock | None,
    *,
    context: multiprocessing.context.BaseContext | None = None,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> tuple[ProcessPoolExecutor | None, float]:
    """A local pool whose every worker has started, and the seconds that took; ``None``
    for the pool when ``clock`` ran out first (its processes are then ended).

    Why wait for them: starting workers is start-up, not solving. A fork costs
    milliseconds, but with threads alive (OR-Tools has them) workers come from a fork
    server that imports the solver again: seconds, on a busy machine. Started lazily,
    that time fell inside the first tasks and was billed as their search, and a time
    limit shorter than it gave 0 solutions seconds after the limit. Started here, it is
    timed apart (``Stats.pool_start``) and bounded by the call's clock like the rest.
    Each worker meets a barrier once it is ready, so the pool must start all of them
    (a pool that does not fork starts a process only when no worker is idle).
    """
    count = resolve_workers(workers)
    context = context or start_method()
    begun = time.monotonic()
    start = _PoolStart(count, context, initializer, initargs, clock)
    if context.get_start_method() == "fork":
        start.run()  # forks take milliseconds, and a fork must come from the only thread
    else:
        # Asking a fork server for a process waits for it to be up (its imports done):
        # seconds that no timeout of multiprocessing bounds. A thread waits instead.
        start.start()
        start.join(None if clock is None else clock.remaining())
    return start.outcome(), time.monotonic() - begun


class _PoolStart(threading.Thread):
    """Starts a pool and waits for all its workers; whoever gives up first (this thread
    when a worker fails, the caller when its clock runs out) ends the pool."""

    def __init__(
        self,
        count: int,
        context: multiprocessing.context.BaseContext,
        initializer: Callable[..., None] | None,
        initargs: tuple[Any, ...],
        clock: Clock | None,
    ) -> None:
        super().__init__(name="cp-queens pool start", daemon=True)
        self.count = count
        self.context = context
        self.initializer = initializer
        self.initargs = initargs
        self.clock = clock
        self.lock = threading.Lock()
        self.pool: ProcessPoolExecutor | None = None
        self.ready = False
        self.abandoned = False
        self.error: BaseException | None = None

    def run(self) -> None:
        from concurrent.futures import wait

        try:
            left = None if self.clock is None else self.clock.remaining()
            arrival = self.context.Barrier(self.count)
            self.pool = local_pool(
                self.count,
                context=self.context,
                initializer=self.initializer,
                initargs=self.initargs,
                arrival=arrival,
            )
            arrived = [self.pool.submit(_arrive, left) for _ in range(self.count)]
            left = None if self.clock is None else self.clock.remaining()
            done, waiting = wait(arrived, timeout=left)
            for future in done:  # a barrier broken by the clock is no error; a lost worker is
                failed = future.exception()
                if failed is not None and not isinstance(failed, threading.BrokenBarrierError):
                    raise failed
            ready = not waiting and all(future.exception() is None for future in arrived)
        except BaseException as error:  # handed to the caller
            self.error, ready = error, False
        with self.lock:
            self.ready = ready and not self.abandoned
        if not self.ready and self.pool is not None:
            stop_now(self.pool)

    def outcome(self) -> ProcessPoolExecutor | None:
        """The started pool, or ``None`` (and the pool ended) when it is not ready now."""
        with self.lock:
            if not self.ready:
                self.abandoned = True
        if not self.ready:
            if self.is_alive():
                # Still asking the fork server for a worker: this thread ends the pool
                # once that returns. The process must not exit before it does: the
                # worker would then unpickle a barrier whose semaphore the exit has
                # already removed, and print a traceback on our stderr after the answer.
                import atexit

                atexit.register(self.join, _ABANDONED_START_WAIT)
            if self.pool is not None and not self.is_alive():
                stop_now(self.pool)
            if self.error is not None and not self.is_alive():
                raise self.error  # a worker that could not start, Ctrl-C while starting
            return None
        return self.pool


#: Seconds an exiting process waits at most for a pool start it gave up on (a fork server
#: busy importing the solver, on a loaded machine) to end that pool.
_ABANDONED_START_WAIT = 30.0


#: The barrier a worker of ``started_pool`` meets once it has started.
_arrival: Any = None


def _start_worker(
    parent: int,
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
    arrival: Any = None,
) -> None:
    global _arrival
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The parent's own SIGTERM handler (Python code, run only between bytecodes) was
    # inherited: inside a compiled kernel it would wait for the chunk to end, minutes.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)
    _arrival = arrival


def _arrive(timeout: float | None) -> None:
    """The first task of each worker of ``started_pool``: wait until all have started."""
    _arrival.wait(timeout)


#: ``prctl`` option: the signal a process gets when its parent dies (Linux).
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """Make sure this process dies when ``parent`` does, even by ``kill -9``.

    Without it a killed ``cp-queens count`` left its workers counting on at full
    CPU, orphaned (and ``compare`` its runs). ``parent``: the pid of the process
    that asked for this one, as it saw itself before the start (default: our
    parent). Forked directly, that is our parent and the kernel does it
    (``PR_SET_PDEATHSIG``; a parent already gone by the time this runs is noticed
    too). Started by a fork server, our parent is the server, which lives as long as
    any process it started (each holds its keep-alive pipe): a worker tied to it
    would outlive a killed ``cp-queens`` for ever, at full CPU. So we then watch
    ``parent`` itself through a pidfd. Linux only; elsewhere a no-op.
    """
    parent = os.getppid() if parent is None else parent
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # a fork server's child, or the parent died already
        _watch(parent)


def _watch(parent: int) -> None:
    """Kill this process when process ``parent`` ends (a daemon thread on its pidfd)."""
    import select

    try:
        handle = os.pidfd_open(parent)
    except ProcessLookupError:
        os._exit(1)  # gone before we started
    except (OSError, AttributeError):
        return  # no pidfds here (Linux before 5.3)

    def wait() -> None:
        select.select([handle], [], [])
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=wait, name="cp-queens parent watch", daemon=True).start()


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
    if manager is not None and manager.ident is not None:
        # (Not started: a pool whose first submit failed half-way, as one does at exit on
        # 3.12, which starts no thread then. Joining it would raise.)
        # Its workers gone, the pool's manager thread ends within milliseconds.
        # Left running, it races Python's exit hook, which then writes to the
        # wake-up pipe the thread is closing ("Bad file descriptor" at exit).
        manager.join(timeout=1)
