"""Where a parallel count runs: a Dask cluster, existing or started here.

``cp_queens.parallel`` takes any ``concurrent.futures.Executor``; this
module makes one from a command line's ``--scheduler tcp://HOST:8786`` (an
existing cluster) or ``--cluster local[:W]`` (a ``LocalCluster`` of W worker
processes, for trying it out). Dask is an optional extra, imported only here
and only when asked for::

    pip install '.[distributed]'      (in a clone: the package is not on an index yet)

Every worker needs ``cp_queens`` (with its compiled kernels) importable: install the package
in the workers' environment too. Dask re-runs the tasks of a worker that dies,
so a lost worker costs time, not correctness.

**Failing fast.** Before Dask's client is started, the address is checked
(``parse_address``) and the server is probed (``probe``): the TCP
connection and the scheduler's greeting each have a timeout, and a server that
speaks another protocol is named as such. Dask alone would wait for ever on a
server that accepts and says nothing, and read the first bytes of any other
server as a message length (it once tried to allocate 3 EiB). A scheduler with
no workers is waited for ``WORKERS_TIMEOUT`` seconds, then refused.

**Trust.** Tasks travel pickled and workers run what they are sent: plain
``tcp://`` is for a cluster and a network you trust. ``tls://`` addresses use
Dask's TLS settings (``distributed.comm.tls.*`` in the Dask configuration);
see ``docs/counting.md``.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import socket
import ssl
import struct
from collections.abc import Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from cp_queens.budget import Clock
from cp_queens.errors import ClusterLostError, CpQueensError

# The spellings of a place are checked in ``cp_queens.places`` (``Budget`` checks them
# without importing this module); they are re-exported here, where they were first.
from cp_queens.places import SCHEDULER_PORT as SCHEDULER_PORT
from cp_queens.places import SCHEMES as SCHEMES
from cp_queens.places import Address as Address
from cp_queens.places import parse_address as parse_address
from cp_queens.places import parse_cluster as parse_cluster

INSTALL_HINT = "install the 'distributed' extra (in a clone: pip install '.[distributed]')"

#: Seconds to open the TCP connection to a scheduler.
CONNECT_TIMEOUT = 10.0
#: Seconds for the scheduler's greeting once connected (and for a TLS handshake).
#: A Dask scheduler speaks first, at once; silence means it is something else.
HANDSHAKE_TIMEOUT = 10.0
#: Seconds to wait for a first worker to join a scheduler that has none.
WORKERS_TIMEOUT = 30.0
#: The largest greeting believed (a scheduler's is about 60 bytes). Dask reads
#: the first 8 bytes of a message as its length and allocates that much.
MAX_GREETING = 1 << 16


def probe(
    address: Address,
    *,
    connect_timeout: float = CONNECT_TIMEOUT,
    handshake_timeout: float = HANDSHAKE_TIMEOUT,
    tls: ssl.SSLContext | None = None,
) -> None:
    """Connect to ``address`` and read the greeting a Dask scheduler sends first.

    Raises ``CpQueensError`` with one line if nothing listens, nothing
    answers in time, or the answer is not a Dask greeting: a Dask frame header
    (a frame count and frame lengths adding up) around a MessagePack map.
    """
    where = f"the Dask scheduler at {address}"
    try:
        raw = socket.create_connection((address.host, address.port), timeout=connect_timeout)
    except TimeoutError:
        raise CpQueensError(
            f"cannot reach {where}: no connection within {connect_timeout:g} s"
        ) from None
    except OSError as error:
        raise CpQueensError(f"cannot reach {where}: {error.strerror or error}") from None
    with contextlib.closing(raw) as sock:
        greeting = Clock.start(handshake_timeout)
        if tls is not None:
            sock.settimeout(handshake_timeout)
            try:
                sock = tls.wrap_socket(
                    sock, server_hostname=address.host if tls.check_hostname else None
                )
            except TimeoutError:
                raise CpQueensError(
                    f"{where} did not complete a TLS handshake within {handshake_timeout:g} s"
                ) from None
            except (ssl.SSLError, OSError) as error:
                raise CpQueensError(f"TLS with {where} failed: {error}") from None
        not_dask = (
            f"the server at {address} does not speak Dask's protocol: is it a Dask scheduler "
            f"(port {SCHEDULER_PORT} by default; the dashboard's HTTP port is not)?"
        )
        header = _receive(sock, 8, greeting, where, handshake_timeout)
        (size,) = struct.unpack("<Q", header)
        if not 16 <= size <= MAX_GREETING:
            raise CpQueensError(not_dask)
        body = _receive(sock, size, greeting, where, handshake_timeout)
        if not _is_greeting(body):
            raise CpQueensError(not_dask)


def _receive(sock: socket.socket, size: int, clock: Clock, where: str, wait: float) -> bytes:
    data = bytearray()
    while len(data) < size:
        left = clock.remaining() or 0.0
        try:
            if left <= 0:
                raise TimeoutError
            sock.settimeout(left)
            chunk = sock.recv(size - len(data))
        except TimeoutError:
            hint = " (one that uses TLS needs a tls:// address)" if "tcp://" in where else ""
            raise CpQueensError(
                f"{where} accepted the connection but sent no Dask greeting within {wait:g} s: "
                f"is it a Dask scheduler{hint}?"
            ) from None
        except OSError as error:
            raise CpQueensError(
                f"{where} broke the connection: {error.strerror or error}"
            ) from None
        if not chunk:
            raise CpQueensError(
                f"{where} closed the connection without a Dask greeting: is it a Dask scheduler?"
            )
        data += chunk
    return bytes(data)


def _is_greeting(body: bytes) -> bool:
    """Dask's framing: a frame count, one length per frame, the frames; the first a map."""
    (frames,) = struct.unpack_from("<Q", body)
    if not 1 <= frames <= 16 or len(body) < 8 * (frames + 1):
        return False
    lengths = struct.unpack_from(f"<{frames}Q", body, 8)
    start = 8 * (frames + 1)
    if start + sum(lengths) != len(body):
        return False
    first = body[start : start + lengths[0]]
    try:
        msgpack = importlib.import_module("msgpack")  # untyped; a Dask dependency
    except ImportError:  # Dask needs it; without it the framing is evidence enough
        return True
    try:
        message = msgpack.unpackb(first, raw=False)
    except Exception:  # any way of not being MessagePack
        return False
    return isinstance(message, dict)


@dataclass(frozen=True)
class Cluster:
    """An open connection to a Dask cluster, as an executor."""

    executor: Executor
    client: Any
    #: e.g. ``Dask cluster at tcp://10.0.0.5:8786 (4 workers)``.
    description: str

    def workers(self) -> int:
        """Workers the scheduler knows now (the client refreshes this every few seconds,
        without a call of its own); 0 when the scheduler cannot say."""
        try:
            return len(self.client.scheduler_info().get("workers", {}))
        except Exception:  # a client closing or a scheduler gone: no workers to count on
            return 0


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise CpQueensError(
            f"counting on a Dask cluster needs dask.distributed: {INSTALL_HINT}"
        ) from None
    return distributed


@contextlib.contextmanager
def _warm_workers(processes: bool = True) -> Iterator[None]:
    """Settings for a local cluster; its worker processes (if any) from a warm fork server.

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
    if processes and "forkserver" in multiprocessing.get_all_start_methods():
        from distributed.utils import get_mp_context

        from cp_queens.parallel.local import fork_server

        settings["distributed.worker.multiprocessing-method"] = "forkserver"
        with dask.config.set(settings):
            get_mp_context()  # Dask names its own preload first; ours adds to it
        fork_server(["distributed", "cp_queens.engines.fast"])
    with dask.config.set(settings):
        yield


#: Loggers that print tracebacks when a scheduler goes away; the run reports it in one line.
_NOISY = ("distributed", "tornado.application")


@contextlib.contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's own error logs off while we hold the connection, then as they were.

    A lost scheduler makes the client log a traceback per pending request and
    more while it tries to reconnect in the background; ``cp_queens.parallel.run``
    says it in one line instead (``ClusterLostError``).
    After such a loss they stay off: the client's reconnection attempts end later.
    """
    # Dask's configuration gives some of its loggers levels of their own
    # (``distributed.client``): each one is set, not only the parent.
    loggers = [logging.getLogger(name) for name in _NOISY] + [
        logger
        for name, logger in logging.root.manager.loggerDict.items()
        if name.startswith("distributed.") and isinstance(logger, logging.Logger)
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    lost = False
    try:
        yield
    except ClusterLostError:
        lost = True
        raise
    finally:
        if not lost:
            for logger, level in zip(loggers, levels, strict=True):
                logger.setLevel(level)


def _tls_context(distributed: Any, address: Address) -> ssl.SSLContext | None:
    """The client's TLS context from Dask's configuration; ``tls://`` without one is refused."""
    if address.scheme != "tls":
        return None
    context = distributed.Security().get_connection_args("client").get("ssl_context")
    if context is None:
        raise CpQueensError(
            f"{address} is a TLS address, but Dask's TLS settings are missing: set "
            "distributed.comm.tls.ca-file, distributed.comm.tls.client.cert and "
            "distributed.comm.tls.client.key in the Dask configuration (or the "
            "DASK_DISTRIBUTED__COMM__TLS__... environment variables)"
        )
    return context


def _connect(
    distributed: Any, text: str, timeout: float, workers_timeout: float, clock: Clock | None
) -> tuple[Any, Address]:
    """A client of the scheduler at ``text``, which has at least one worker."""
    address = parse_address(text)
    probe(
        address,
        connect_timeout=timeout,
        handshake_timeout=timeout,
        tls=_tls_context(distributed, address),
    )
    try:
        client = distributed.Client(str(address), timeout=f"{2 * timeout}s")
    except Exception as error:  # anything Dask raises here is about that server
        detail = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise CpQueensError(
            f"cannot connect to the Dask scheduler at {address}: {detail}"
        ) from None
    try:
        if not client.scheduler_info().get("workers"):
            wait = workers_timeout
            if clock is not None:
                wait = max(0.1, clock.within(workers_timeout).remaining() or 0.0)
            try:
                client.wait_for_workers(1, timeout=wait)
            except TimeoutError:
                raise CpQueensError(
                    f"the Dask scheduler at {address} has no workers (none joined within "
                    f"{wait:.1f} s): start some with 'dask worker {address}'"
                ) from None
    except BaseException:
        client.close()
        raise
    return client, address


@contextlib.contextmanager
def dask_cluster(
    *,
    scheduler: str | None = None,
    cluster: str | None = None,
    timeout: float = CONNECT_TIMEOUT,
    workers_timeout: float = WORKERS_TIMEOUT,
    clock: Clock | None = None,
    processes: bool = False,
) -> Iterator[Cluster]:
    """Connect to ``scheduler``, or start a local cluster described by ``cluster``.

    ``timeout`` bounds the connection and the scheduler's greeting (each);
    ``workers_timeout`` the wait for a first worker, also cut when ``clock`` (the
    call's ``Clock``: its time limit) runs out.

    A local cluster's workers are threads of this process unless ``processes``:
    the counting kernels release the GIL (the native library through ``ctypes``,
    the JIT kernels are ``nogil``), so threads count on every core. Worker
    processes cost what a count on one machine does not need: a fork server that
    imports Dask again, a nanny, a scheduler connection and event loop per
    worker, about 4 s of CPU at n = 16 (6.7 s against 2.4 s for the local pool,
    measured with every descendant process reaped). ``processes=True`` starts them
    anyway (tests kill one to see its tasks rerun).
    """
    if (scheduler is None) == (cluster is None):
        raise CpQueensError("give exactly one of scheduler and cluster")
    if scheduler is not None:
        parse_address(scheduler)  # a bad address is refused even without Dask installed
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        stack.enter_context(_quiet_dask())
        if scheduler is not None:
            client, address = _connect(distributed, scheduler, timeout, workers_timeout, clock)
            where = f"Dask cluster at {address}"
        else:
            workers = parse_cluster(cluster or "")
            if workers is None and not processes:
                from cp_queens.budget import available_cores

                workers = available_cores()
            with _warm_workers(processes):
                local = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,  # the kernel holds a core; threads would only contend
                    processes=processes,
                    # Not None: the scheduler still serves HTTP then, on port 8787, and
                    # a second count (or test) at once got "Port 8787 is already in use"
                    # warnings; ":0" takes a free port, which nobody opens anyway.
                    dashboard_address=":0",
                    memory_limit=0,  # no memory monitor polling in every worker and nanny
                    silence_logs=logging.ERROR,
                )
            stack.callback(local.close)
            client = distributed.Client(local)
            where = "local Dask cluster"
        stack.callback(client.close)
        count = len(client.scheduler_info().get("workers", {}))
        yield Cluster(client.get_executor(pure=False), client, f"{where} ({count} workers)")
