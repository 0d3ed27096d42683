"""A Dask scheduler that is wrong, silent, empty or lost, or every worker gone: one line
and a known exit code, fast.

The servers that are not Dask run in a thread of this process (a socket each);
the real schedulers and workers are subprocesses (``python -m distributed.cli...``),
never a second ``LocalCluster`` forked from this threaded test process.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from cp_queens.cli.exit_codes import ExitCode
from cp_queens.engines.fast.meet import MeetPart
from cp_queens.errors import CpQueensError
from cp_queens.parallel.checkpoint import Checkpoint
from cp_queens.parallel.dask import Address, parse_address, probe
from tests.certificates import certificates
from tests.helpers import ENV, run_cli, total

# -- addresses ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tcp://10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("10.0.0.5:8786", "tcp://10.0.0.5:8786"),
        ("TLS://node-1.example.org:9000", "tls://node-1.example.org:9000"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
    ],
)
def test_good_addresses_are_read(text: str, expected: str) -> None:
    assert str(parse_address(text)) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("not a url", "not a Dask scheduler address"),
        ("", "not a Dask scheduler address"),
        ("tcp://", "not a Dask scheduler address"),
        ("tcp://:8786", "not a Dask scheduler address"),
        ("tcp://host", "not a Dask scheduler address"),
        ("tcp://[::1", "not a Dask scheduler address"),
        ("tcp://[nonsense]:1", "not a Dask scheduler address"),
        ("http://127.0.0.1:8787", "is a web address"),
        ("https://dask.example.org/status", "is a web address"),
        ("inproc://x", "starts with tcp:// or tls://"),
        ("ucx://1.2.3.4:1", "starts with tcp:// or tls://"),
        ("tcp://host:notaport", "a number from 1 to 65535"),
        ("tcp://host:0", "a number from 1 to 65535"),
        ("tcp://host:70000", "a number from 1 to 65535"),
    ],
)
def test_bad_addresses_are_one_line_exit_2(capsys, text: str, says: str) -> None:
    with pytest.raises(CpQueensError, match=says):
        parse_address(text)
    code, out, err = run_cli(capsys, "count", "10", "--scheduler", text)
    assert code == ExitCode.BAD_INPUT
    assert out == ""
    assert err.count("\n") == 1 and says in err, err


# -- servers that are not Dask schedulers ---------------------------------------


@contextlib.contextmanager
def server(answer) -> Iterator[Address]:
    """A TCP server on a free local port; ``answer(connection)`` runs for each client."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(connection)
            if stop.is_set():  # the wake-up call of the stop below
                return
            with contextlib.suppress(OSError):
                answer(connection)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield Address("tcp", "127.0.0.1", listener.getsockname()[1])
    finally:
        stop.set()
        # Wake the accept at once rather than after its 0.1 s timeout (7 servers a run).
        with contextlib.suppress(OSError):
            socket.create_connection(listener.getsockname(), timeout=1).close()
        thread.join()
        listener.close()
        for connection in held:
            connection.close()


def _silent(connection: socket.socket) -> None:
    """Accept and say nothing (the connection stays open)."""


def _hang_up(connection: socket.socket) -> None:
    connection.close()


def _http(connection: socket.socket) -> None:
    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def _huge_length(connection: socket.socket) -> None:
    """What made Dask try to allocate 3 EiB: eight bytes read as a message length."""
    connection.sendall(b"\xff" * 64)


def _framed_garbage(connection: socket.socket) -> None:
    """A plausible length, then bytes that are not Dask's frames."""
    connection.sendall((40).to_bytes(8, "little") + b"x" * 40)


@pytest.mark.parametrize(
    ("answer", "says", "handshake"),
    [
        # Silent, it is waited out: a short wait. The others answer at once; their 0.5 s
        # is only a bound that a loaded machine's thread switch stays well within.
        (_silent, "sent no Dask greeting within 0.1 s", 0.1),
        (_hang_up, "closed the connection without a Dask greeting", 0.5),
        (_http, "does not speak Dask's protocol", 0.5),
        (_huge_length, "does not speak Dask's protocol", 0.5),
        (_framed_garbage, "does not speak Dask's protocol", 0.5),
    ],
)
def test_a_server_that_is_not_dask_is_named_in_bounded_time_and_memory(
    answer, says: str, handshake: float
) -> None:
    # Bounded time without timing it: the server never closes a connection of its own
    # accord (it holds every one until the test ends), so the probe came back on its
    # own: at the bound its message names, or at once on what it was sent.
    with server(answer) as address:
        tracemalloc.start()
        with pytest.raises(CpQueensError, match=says):
            probe(address, connect_timeout=1, handshake_timeout=handshake)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < 1 << 20  # nothing like the length the server claimed


def test_nothing_listening_is_refused_at_once(capsys) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]  # free once closed: nothing listens there
    code, _, err = run_cli(capsys, "count", "10", "--scheduler", f"tcp://127.0.0.1:{port}")
    assert code == ExitCode.BAD_INPUT
    assert err.count("\n") == 1 and "cannot reach the Dask scheduler" in err, err
    # at once: the refusal itself, not a connect timeout waited out ("no connection within")
    assert "Connection refused" in err, err


def test_a_web_server_through_the_cli_is_one_line(capsys) -> None:
    pytest.importorskip("distributed")
    with server(_http) as address:
        code, out, err = run_cli(capsys, "count", "10", "--scheduler", str(address))
    assert code == ExitCode.BAD_INPUT and out == ""
    assert err.count("\n") == 1 and "does not speak Dask's protocol" in err, err


def test_tls_without_dask_tls_settings_says_which_settings(capsys) -> None:
    pytest.importorskip("distributed")
    with server(_silent) as address:
        code, _, err = run_cli(
            capsys, "count", "10", "--scheduler", f"tls://{address.host}:{address.port}"
        )
    assert code == ExitCode.BAD_INPUT
    assert err.count("\n") == 1 and "distributed.comm.tls.ca-file" in err, err


# -- real schedulers, in subprocesses ------------------------------------------


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        return taken.getsockname()[1]


@contextlib.contextmanager
def _process(*argv: str) -> Iterator[subprocess.Popen[bytes]]:
    process = subprocess.Popen(
        [sys.executable, "-m", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=ENV,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@contextlib.contextmanager
def scheduler() -> Iterator[tuple[Address, subprocess.Popen[bytes]]]:
    """A ``dask scheduler`` subprocess, once it greets like one."""
    pytest.importorskip("distributed")
    address = Address("tcp", "127.0.0.1", _free_port())
    with _process(
        "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(address.port),
        "--no-dashboard",
    ) as process:  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            try:
                probe(address, connect_timeout=1, handshake_timeout=5)
                break
            except CpQueensError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.3)
        yield address, process


def _cli(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cp_queens", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )


@pytest.mark.slow
def test_a_scheduler_without_workers_is_one_line_within_the_time_limit() -> None:
    with scheduler() as (address, _):
        done = _cli("count", "10", "--scheduler", str(address), "--time-limit", "3")
    assert done.returncode == ExitCode.BAD_INPUT, done.stderr
    assert done.stderr.count("\n") == 1 and "has no workers" in done.stderr, done.stderr
    assert f"dask worker {address}" in done.stderr
    # the wait for a worker was bounded by the time limit (what is left of its 3 s)
    waited = re.search(r"none joined within ([\d.]+) s", done.stderr)
    assert waited and float(waited[1]) <= 3, done.stderr


@pytest.mark.slow
def test_a_scheduler_killed_mid_run_is_one_line_and_the_checkpoint_resumes(tmp_path: Path) -> None:
    checkpoint = tmp_path / "n19.jsonl"  # n = 16 is over in a second now
    with scheduler() as (address, process), _process(
        "distributed.cli.dask_worker", str(address), "--nworkers", "1", "--nthreads", "1",
        "--no-dashboard",
    ):  # fmt: skip
        count = subprocess.Popen(
            [sys.executable, "-m", "cp_queens", "count", "19", "--scheduler", str(address),
             "--checkpoint", str(checkpoint), "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        )  # fmt: skip
        deadline = time.monotonic() + 90
        while not checkpoint.exists() or len(checkpoint.read_text().splitlines()) < 4:
            assert count.poll() is None, count.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGKILL)
        out, err = count.communicate(timeout=60)
    assert count.returncode == ExitCode.IO_ERROR, err
    assert out == ""
    assert err.count("\n") == 1 and "lost the Dask cluster" in err, err
    assert "CancelledError" not in err and str(checkpoint) in err
    # told at once by the cancelled tasks, not after waiting out the workers' return
    assert "every worker of the" not in err, err
    saved = len(checkpoint.read_text().splitlines()) - 1
    assert saved >= 3
    done = _cli("count", "19", "--checkpoint", str(checkpoint), "--workers", "2")
    assert done.returncode == ExitCode.OK, done.stderr
    assert done.stdout.startswith(f"n=19: {total(19)} solutions")
    assert f"resumed={saved}" in done.stderr


@pytest.mark.slow
def test_a_tls_cluster_counts_with_dasks_tls_settings(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    files = certificates(tmp_path)
    tls = ["--tls-ca-file", files["ca.pem"], "--tls-cert", files["node.pem"],
           "--tls-key", files["node.key"]]  # fmt: skip
    port = _free_port()
    address = f"tls://127.0.0.1:{port}"
    settings = {
        "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": files["ca.pem"],
        "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": files["node.pem"],
        "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": files["node.key"],
    }
    with (
        _process("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                 "--protocol", "tls", "--no-dashboard", *tls),
        _process("distributed.cli.dask_worker", address, "--nworkers", "1", "--nthreads", "1",
                 "--no-dashboard", *tls),
    ):  # fmt: skip
        env = {**ENV, **settings}
        started = time.monotonic()
        while True:  # the worker joins a few seconds after the scheduler starts
            done = subprocess.run(
                [sys.executable, "-m", "cp_queens", "count", "11", "--scheduler", address],
                capture_output=True, text=True, timeout=120, env=env,
            )  # fmt: skip
            if done.returncode == 0 or time.monotonic() - started > 60:
                break
            time.sleep(1)
        plain = subprocess.run(
            [sys.executable, "-m", "cp_queens", "count", "11", "--scheduler", f"tcp://127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=120, env=ENV,
        )  # fmt: skip
    assert done.returncode == ExitCode.OK, done.stderr
    assert done.stdout.startswith(f"n=11: {total(11)} solutions")
    assert f"Dask cluster at {address}" in done.stderr
    assert plain.returncode == ExitCode.BAD_INPUT
    assert plain.stderr.count("\n") == 1 and "needs a tls:// address" in plain.stderr, plain.stderr


# -- every worker lost (issue 19) ----------------------------------------------------


@pytest.mark.slow
def test_a_cluster_whose_only_worker_is_killed_stops_with_one_line(tmp_path: Path) -> None:
    """Scheduler and one worker, ``count 20 --scheduler ... --checkpoint F``, then
    ``kill -9`` of the worker: it used to hang silently for ever."""
    checkpoint = tmp_path / "n20.jsonl"  # n = 18 is over in seconds now
    with scheduler() as (address, _), _process(
        "distributed.cli.dask_worker", str(address), "--nworkers", "1", "--nthreads", "1",
        "--no-dashboard",
    ) as worker:  # fmt: skip
        count = subprocess.Popen(
            [sys.executable, "-m", "cp_queens", "count", "20", "--scheduler", str(address),
             "--checkpoint", str(checkpoint), "--lost-workers-timeout", "3", "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not checkpoint.exists() or len(checkpoint.read_text().splitlines()) < 6:
                assert count.poll() is None, count.communicate()
                assert time.monotonic() < deadline, "no subproblem finished in two minutes"
                time.sleep(0.1)
            os.killpg(worker.pid, signal.SIGKILL)  # the worker and its nanny: none comes back
            out, err = count.communicate(timeout=120)
        finally:
            if count.poll() is None:
                count.kill()
                count.wait()
    assert count.returncode == ExitCode.IO_ERROR, err
    assert out == ""
    assert err.count("\n") == 1, err
    assert "every worker of the Dask cluster" in err and "within 3 s" in err
    assert str(checkpoint) in err and "run it again to resume" in err
    text = checkpoint.read_text()
    assert text.endswith("\n") and len(text.splitlines()) >= 6  # header and 5 records kept
    job = json.loads(text.splitlines()[0])["job"]
    keys = {json.loads(line)["key"] for line in text.splitlines()[1:]}
    # n=20 meets in the middle: its pieces' records are MeetParts, not the DFS's Parts.
    record = MeetPart if job.get("method") == "mitm" else Part
    with Checkpoint.open(checkpoint, job, keys, record) as kept:
        assert len(kept.done) == len(keys) >= 5  # every kept record reads back whole


class Part(NamedTuple):
    total: int
    unique: int
    nodes: int
