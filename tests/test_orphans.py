"""Nothing outlives its parent (issue 19, item 7): ``compare``'s runs die with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(child) for child in task.read_text().split()]
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its new parent to reap it counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux")
def test_compare_runs_die_when_compare_is_killed_by_sigkill() -> None:
    """``cp-queens compare --n 15 --engines reference --task count --time-limit 60``, then
    ``kill -9`` of the parent: no run process is left a few seconds later."""
    parent = subprocess.Popen(
        [sys.executable, "-m", "cp_queens", "compare", "--n", "15", "--engines", "reference",
         "--task", "count", "--time-limit", "60"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    runs: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while not runs and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.1)
            runs = children(parent.pid)
        assert runs, "compare started no run process"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in runs) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [pid for pid in runs if alive(pid)]
        assert not left, f"run processes {left} outlived compare"
    finally:
        for pid in runs:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
