"""A Dask run whose workers all vanish says so (issue 19, item 7): one line, exit 74, the
checkpoint kept, within ``--lost-workers-timeout``. Loopback only, bounded."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from cp_queens.cli.exit_codes import ExitCode
from cp_queens.parallel.checkpoint import Checkpoint
from tests.helpers import ENV
from tests.test_dask_failfast import _process, scheduler


@pytest.mark.slow
def test_a_cluster_whose_only_worker_is_killed_stops_with_one_line(tmp_path: Path) -> None:
    """Scheduler and one worker, ``count 18 --scheduler ... --checkpoint F``, then
    ``kill -9`` of the worker: it used to hang silently for ever."""
    checkpoint = tmp_path / "n18.jsonl"
    with scheduler() as (address, _), _process(
        "distributed.cli.dask_worker", str(address), "--nworkers", "1", "--nthreads", "1",
        "--no-dashboard",
    ) as worker:  # fmt: skip
        count = subprocess.Popen(
            [sys.executable, "-m", "cp_queens", "count", "18", "--scheduler", str(address),
             "--checkpoint", str(checkpoint), "--lost-workers-timeout", "3", "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not checkpoint.exists() or len(checkpoint.read_text().splitlines()) < 5:
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
    with Checkpoint.open(checkpoint, job, keys, Part) as kept:
        assert len(kept.done) == len(keys) >= 5  # every kept record reads back whole


class Part(NamedTuple):
    total: int
    unique: int
    nodes: int
