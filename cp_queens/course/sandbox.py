"""Run one submission's ``model(n)`` in a limited process of its own; take back what it returned.

What it protects the grader (and the other submissions) from: runaway CPU
(``RLIMIT_CPU``), memory (``RLIMIT_AS``), big files (``RLIMIT_FSIZE``), new
processes (a seccomp filter on Linux x86_64 lets the submission start threads
but not processes; elsewhere ``RLIMIT_NPROC``, which Linux does not apply to
root), an
endless wait (a wall-clock timeout), output in megabytes (a capped pipe:
the rest is counted, not kept), stray processes (the child leads its own
session; at the end its process group, and any process that carries this
run's token in its environment, is killed), and reading the expected
answers (the child is a fresh interpreter that never sees them: it sends
back what ``model(n)`` returned and the grader judges it). It is *not* a
container: the submission runs as the grader's user, can read what that user
can read, and can use the network. ``docs/course-grading.md`` says so too.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The environment variable that marks every process of one run, for the final sweep.
TOKEN_VARIABLE = "CP_QUEENS_GRADE_RUN"

#: Processes (threads count too) a submission may add to what its user already runs,
#: where ``RLIMIT_NPROC`` applies (not for root): room for a thread pool, none for a bomb.
SPARE_PROCESSES = 64

CHILD = Path(__file__).with_name("sandbox_child.py")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one submission may use; ``memory_mb`` and ``file_mb`` may be None (no limit)."""

    cpu_seconds: int = 5
    wall_seconds: float = 15.0
    memory_mb: int | None = 512
    file_mb: int | None = 16
    output_kb: int = 64  # printed output kept for the feedback; the rest is counted
    result_mb: int = 64  # what model(n) returned, all sizes together
    allow_processes: bool = False  # False: fork and subprocess fail (Linux x86_64, seccomp)


@dataclass(slots=True)
class Outcome:
    """What happened to one run: the messages the child sent and how it ended."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    returncode: int | None = None
    stopped: str | None = None  # "wall" when the grader killed it for time, "result" for size
    output: str = ""  # the first output_kb of stdout and stderr, merged
    output_bytes: int = 0
    garbled: int = 0  # lines on the result channel that were not JSON objects
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def signal(self) -> int | None:
        """The signal that ended the child, if one did."""
        code = self.returncode
        return -code if code is not None and code < 0 else None


def run(source: str, sizes: list[int], limits: Limits) -> Outcome:
    """Run ``model(n)`` of the Python ``source`` for each size, in a fresh limited process."""
    scratch = Path(tempfile.mkdtemp(prefix="cp-queens-grade-"))
    token = uuid.uuid4().hex
    try:
        (scratch / "submission.py").write_text(source, encoding="utf-8")
        return _run_in(scratch, token, sizes, limits)
    finally:
        sweep(token)
        shutil.rmtree(scratch, ignore_errors=True)


def _run_in(scratch: Path, token: str, sizes: list[int], limits: Limits) -> Outcome:
    read_end, write_end = os.pipe()
    settings = {
        "fd": write_end,
        "source": str(scratch / "submission.py"),
        "sizes": sizes,
        "cpu_seconds": limits.cpu_seconds,
        "memory_bytes": None if limits.memory_mb is None else limits.memory_mb << 20,
        "file_bytes": None if limits.file_mb is None else limits.file_mb << 20,
        "processes": _process_limit(),
        "result_bytes": limits.result_mb << 20,
        "allow_processes": limits.allow_processes,
    }
    environment = {
        key: value for key, value in os.environ.items() if not key.startswith("CP_QUEENS")
    }
    environment.update(
        {
            TOKEN_VARIABLE: token,
            "HOME": str(scratch),
            "TMPDIR": str(scratch),
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MPLBACKEND": "Agg",
        }
    )
    outcome = Outcome()
    started = time.monotonic()
    try:
        child = subprocess.Popen(
            [sys.executable, "-I", str(CHILD), json.dumps(settings)],
            cwd=scratch,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(write_end,),
            start_new_session=True,
        )
    finally:
        os.close(write_end)
    try:
        _collect(child, read_end, outcome, limits, started)
    finally:
        os.close(read_end)
        _kill_group(child.pid)
        if child.stdout is not None:
            child.stdout.close()
        outcome.returncode, outcome.cpu_seconds = _reap(child)
    outcome.seconds = time.monotonic() - started
    return outcome


def _reap(child: subprocess.Popen[bytes]) -> tuple[int, float]:
    """Wait for the child: its exit code (minus the signal that ended it) and CPU seconds."""
    if child.returncode is not None:  # already reaped by poll(): its CPU time is lost
        return child.returncode, 0.0
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, usage.ru_utime + usage.ru_stime


def _collect(
    child: subprocess.Popen[bytes], results: int, outcome: Outcome, limits: Limits, started: float
) -> None:
    """Read both pipes until the child closes them, is done, or runs out of time or room."""
    assert child.stdout is not None
    output = child.stdout.fileno()
    open_fds = {results, output}
    kept = bytearray()
    keep = limits.output_kb << 10
    pending = bytearray()
    room = (limits.result_mb << 20) + (1 << 20)  # the items plus the messages around them
    received = 0
    deadline = started + limits.wall_seconds
    exited = False
    try:
        while open_fds:
            left = deadline - time.monotonic()
            if left <= 0:
                if not exited:
                    outcome.stopped = "wall"
                return
            if not exited and _exited(child):
                # Exited, the child has written all it will: read what is there, then stop,
                # even if a process it left behind still holds the pipes open.
                exited = True
                deadline = min(deadline, time.monotonic() + 0.5)
            ready, _, _ = select.select(list(open_fds), [], [], 0 if exited else min(left, 0.5))
            if exited and not ready:
                return
            for fd in ready:
                try:
                    data = os.read(fd, 1 << 16)
                except OSError:
                    data = b""
                if not data:
                    open_fds.discard(fd)
                    continue
                if fd == output:
                    outcome.output_bytes += len(data)
                    if len(kept) < keep:
                        kept += data[: keep - len(kept)]
                    continue
                received += len(data)
                if received > room:
                    outcome.stopped = "result"
                    return
                pending += data
                *lines, rest = pending.split(b"\n")
                pending = bytearray(rest)
                for line in lines:
                    _take(line, outcome)
    finally:
        outcome.output = kept.decode("utf-8", errors="replace")


def _exited(child: subprocess.Popen[bytes]) -> bool:
    """Has the child ended? Asked without reaping it, so that its CPU time can still be read."""
    try:
        return os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _take(line: bytes | bytearray, outcome: Outcome) -> None:
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        outcome.garbled += 1
        return
    if isinstance(message, dict) and isinstance(message.get("event"), str):
        outcome.messages.append(message)
    else:
        outcome.garbled += 1


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def sweep(token: str, rounds: int = 20) -> int:
    """Kill every process whose environment carries ``token``; how many were found.

    The child leads its own process group, but a process may leave it (``setsid``);
    its environment goes with it. Repeated, because a process may fork while we kill.
    """
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    found = 0
    for _ in range(rounds):
        pids = [pid for pid in _processes() if needle in _environ(pid)]
        if not pids:
            break
        found += len(pids)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)
    return found


def survivors(token: str) -> list[int]:
    """Processes still carrying ``token`` (for tests: there should be none)."""
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    return [pid for pid in _processes() if needle in _environ(pid)]


def _processes() -> list[int]:
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    me = os.getpid()
    return [int(name) for name in names if name.isdigit() and int(name) != me]


def _environ(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/environ", "rb") as source:
            return source.read()
    except OSError:
        return b""


def _process_limit() -> int | None:
    """``RLIMIT_NPROC`` for the child: what the user runs now plus a few (None for root,
    whom Linux does not limit). The limit counts every process and thread of the user."""
    if os.geteuid() == 0:
        return None
    uid = os.geteuid()
    tasks = 0
    for pid in _processes():
        try:
            if os.stat(f"/proc/{pid}").st_uid == uid:
                tasks += len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            continue
    return tasks + SPARE_PROCESSES
