"""Chaos (issue 19, item 8): a checkpointed count killed at random moments and resumed,
again and again; the final total is exact.

Each round starts ``cp-queens count 17 --checkpoint F`` (one process or a pool of two,
alternately) and sends SIGKILL to its whole process group after a random delay: mid
split, mid subproblem, mid record. The next round resumes from whatever the file holds.
No round may find the file unusable, and the last one, left to finish, must print the
published count. A round that finishes on its own (on a fast, idle machine the kills may
not keep up) must print the published count too; the file is then removed and a new
series of kills begins, so every run makes at least ``KILLS`` kills whatever the speed.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cp_queens.cli.exit_codes import ExitCode
from tests.helpers import ENV, total, unique

N = 17
#: Rounds killed by SIGKILL (at least); the issue asks for 20 or more.
KILLS = 24


@pytest.mark.slow
def test_a_count_killed_at_random_and_resumed_many_times_is_exact(tmp_path: Path) -> None:
    seed = random.randrange(1 << 30)
    chance = random.Random(seed)
    checkpoint = tmp_path / "chaos.jsonl"
    argv = [sys.executable, "-m", "cp_queens", "count", str(N), "--checkpoint", str(checkpoint)]
    killed = finished = 0
    records: list[int] = []
    round_ = 0
    while killed < KILLS:
        round_ += 1
        workers = ["--workers", "1" if round_ % 2 else "2"]
        run = subprocess.Popen(
            [*argv, *workers, "--quiet"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
            start_new_session=True,
        )
        try:
            out, err = run.communicate(timeout=chance.uniform(0.2, 1.2))
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            out, err = run.communicate()
            killed += 1
        else:
            finished += 1
            assert run.returncode == ExitCode.OK, f"seed {seed}, round {round_}: {err}"
            assert out.startswith(f"n={N}: {total(N)} solutions"), f"seed {seed}: {out}"
        assert "error" not in err and "dropped" not in err, f"seed {seed}, round {round_}: {err}"
        if checkpoint.exists():
            records.append(len(checkpoint.read_bytes().split(b"\n")) - 2)
        if run.returncode == ExitCode.OK:
            checkpoint.unlink()  # this series is done: the next kills start a new one
    final = subprocess.run(
        [*argv, "--workers", "2", "--recheck", "0.02"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )
    assert final.returncode == ExitCode.OK, f"seed {seed}: {final.stderr}"
    assert final.stdout == f"n={N}: {total(N)} solutions, {unique(N)} unique\n", f"seed {seed}"
    print(f"chaos: {killed} rounds killed, {finished} finished on their own, seed {seed}")
    assert killed >= 20, f"only {killed} rounds were killed mid-run (seed {seed})"
    assert max(records, default=0) > 0  # the kills did leave work behind to resume
