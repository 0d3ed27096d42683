"""A run without a room (``isolation = "none"``): the child's environment, its process
limit, and the sweep that finds what it left behind.

With no PID namespace, a process the submission starts may outlive the run; each
carries the run's token in its environment (``TOKEN_VARIABLE``), which is how the
sweep finds it, unless it clears its environment (``docs/course-grading.md`` says
what this mode does not contain).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

#: The environment variable that marks every process of an unisolated run, for its sweep.
TOKEN_VARIABLE = "CP_QUEENS_GRADE_RUN"

#: Processes a submission may run at once when the rubric allows processes (threads are
#: not counted: a solver's thread pool is not a fork bomb). Where ``RLIMIT_NPROC``
#: applies (not for root), it is what the user runs now plus this many.
SPARE_PROCESSES = 64


def environment(token: str, scratch: Path) -> dict[str, str]:
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
    return environment


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


def process_limit() -> int | None:
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
