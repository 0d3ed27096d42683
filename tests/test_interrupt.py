"""Ctrl-C, SIGTERM and kill -9 stop a parallel count at once and leave no worker behind.

The signal goes to the whole process group, as a terminal's Ctrl-C does
(``start_new_session`` makes the command a group leader, like ``set -m``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.group_cpu import GroupCpu
from tests.helpers import total


def _group_left(group: int) -> list[str]:
    """Processes of ``group`` that still run (zombies are dead: they use nothing)."""
    listing = subprocess.run(
        ["ps", "-eo", "pgid=,stat=,pid="], capture_output=True, text=True, check=True
    ).stdout
    return [
        line
        for line in listing.splitlines()
        if line.split()[0] == str(group) and not line.split()[1].startswith("Z")
    ]


def _count(n: int, checkpoint: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cp_queens", "count", str(n), "--checkpoint", str(checkpoint)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _records(checkpoint: Path) -> int:
    return checkpoint.read_text().count("\n") - 1 if checkpoint.exists() else 0


@pytest.mark.slow
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGKILL"])
def test_a_signal_stops_every_worker_at_once(tmp_path: Path, how: str) -> None:
    # n = 20: minutes of counting in pieces of seconds (n = 18 now ends in a few seconds,
    # before a signal could find it at work).
    checkpoint = tmp_path / "n20.jsonl"
    process = _count(20, checkpoint)
    deadline = time.monotonic() + 120
    while _records(checkpoint) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    after = GroupCpu(process.pid)
    if how == "SIGKILL":
        os.kill(process.pid, signal.SIGKILL)  # only the parent: its workers must follow
    else:
        os.killpg(process.pid, getattr(signal, how))
    _, err = process.communicate(timeout=60)
    # At once: the workers drop their pieces (seconds of CPU each at n = 20) and the
    # count spends well under a CPU second on its way out, however loaded the machine.
    spent = after.spent()
    assert spent < 1, f"{spent:.2f} CPU-s spent after {how}"
    assert _group_left(process.pid) == []
    if how != "SIGKILL":
        assert process.returncode == 130 and "Traceback" not in err
        assert "saved in" in err


@pytest.mark.slow
def test_resume_after_ctrl_c_is_exact(tmp_path: Path) -> None:
    checkpoint = tmp_path / "n19.jsonl"  # tens of seconds in pieces of seconds
    process = _count(19, checkpoint)
    deadline = time.monotonic() + 120
    while _records(checkpoint) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGINT)
    process.communicate(timeout=60)
    assert process.returncode == 130
    saved = _records(checkpoint)
    resumed = subprocess.run(
        [sys.executable, "-m", "cp_queens", "count", "19", "--checkpoint", str(checkpoint)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"n=19: {total(19)} solutions" in resumed.stdout
    assert f"resumed={saved}" in resumed.stderr
