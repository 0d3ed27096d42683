"""The process of one ``compare`` run, seen from ``compare``: how it is started, how its
report is read, how its memory is measured.

Apart from ``cp_queens.compare`` (which holds what a run *is*), and importing nothing of
it, so that the run's own process (``cp_queens.compare.child``) can use it too.
"""

from __future__ import annotations

import json
import os
import select
import sys
from collections.abc import Callable
from typing import Any

from cp_queens.budget import Clock

#: The run's process (``cp_queens.compare.child``): its first line takes the time, before
#: anything is imported.
LAUNCH = (
    "import time; started = time.monotonic()\n"
    "from cp_queens.compare.child import main\n"
    "main(started)\n"
)


def command(fd: int, spawned: float, job: dict[str, Any]) -> list[str]:
    return [sys.executable, "-c", LAUNCH, str(fd), repr(spawned), json.dumps(job)]


#: Seconds a run's process may take to start (Python, ``cp_queens``, the engine's
#: libraries) before it is killed; its time limit starts once it is ready.
STARTUP_ALLOWANCE = 60.0


def has_fileno(stream: Any) -> bool:
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):  # a test's captured stream
        return False
    return True


def read_run(
    fd: int, starting: Clock, running: Callable[[], Clock]
) -> tuple[list[dict[str, Any]], bool, Clock | None]:
    """The run's JSON lines, whether it had to be killed, and the clock of its task.

    Until the run says it is ready it has the ``starting`` clock (``STARTUP_ALLOWANCE``);
    from then on ``running()``, started at that moment: its time limit and the grace.
    """
    clock = starting
    ready: Clock | None = None
    data = b""
    lines: list[dict[str, Any]] = []
    while True:
        remaining = clock.remaining()
        assert remaining is not None  # a compare always has a time limit
        if remaining <= 0:
            return lines, True, ready
        readable, _, _ = select.select([fd], [], [], remaining)
        if not readable:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return lines, False, ready
        data += chunk
        while b"\n" in data:
            line, data = data.split(b"\n", 1)
            try:
                record = json.loads(line)
            except ValueError:
                continue
            lines.append(record)
            if "ready" in record and ready is None:
                ready = clock = running()


def megabytes(maxrss: int) -> float:
    """``ru_maxrss`` in MiB: Linux reports KiB, macOS bytes."""
    divisor = 1 << 20 if sys.platform == "darwin" else 1 << 10
    return round(maxrss / divisor, 1)


def peak_megabytes(pid: int | str = "self") -> float | None:
    """The peak resident memory of process ``pid`` since its ``exec``, in MiB
    (``VmHWM``), or ``None`` where ``/proc`` does not tell (macOS).

    Not ``ru_maxrss``: Linux carries that figure across ``exec`` from the memory of the
    process that started it, so a run started by a ``compare`` that had loaded
    OR-Tools reported OR-Tools' hundred MiB whatever it ran.
    """
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def describe(wait_status: int) -> str:
    if os.WIFSIGNALED(wait_status):
        return f"killed by signal {os.WTERMSIG(wait_status)}"
    return f"exit code {os.WEXITSTATUS(wait_status)}"
