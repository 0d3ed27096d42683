"""``cp-queens count`` with the fast engine: workers, checkpoints, Ctrl-C and resume."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import run_cli, total, unique

run = run_cli


@pytest.mark.parametrize("workers", ["0", "1", "2"])
def test_count_reports_total_and_unique_on_local_workers(capsys, workers: str) -> None:
    code, out, err = run(capsys, "count", "10", "--workers", workers)
    assert (code, out) == (0, "n=10: 724 solutions, 92 unique\n")
    assert "engine=fast" in err and "subproblems=" in err


def test_checkpoint_file_is_reused_by_the_same_command(capsys, tmp_path: Path) -> None:
    target = tmp_path / "n11.jsonl"
    assert run(capsys, "count", "11", "--checkpoint", str(target))[0] == 0
    code, out, err = run(capsys, "count", "11", "--checkpoint", str(target))
    assert (code, out) == (0, f"n=11: {total(11)} solutions, {unique(11)} unique\n")
    assert "resumed=" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count", "8", "-e", "reference", "--workers", "2"], "has no option --workers"),
        (["count", "8", "--cluster", "remote"], "a local cluster is written 'local' or 'local:W'"),
        (["count", "8", "--scheduler", "tcp://a:1", "--cluster", "local"], "not both"),
        (["count", "8", "--workers", "2", "--cluster", "local"], "size the cluster instead"),
    ],
)
def test_option_mistakes_are_one_line_errors(capsys, argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_checkpoint_of_another_board_is_refused(capsys, tmp_path: Path) -> None:
    target = tmp_path / "n8.jsonl"
    assert run(capsys, "count", "8", "--checkpoint", str(target))[0] == 0
    code, _, err = run(capsys, "count", "9", "--checkpoint", str(target))
    assert code == 2 and "was written for n=8" in err


#: A count long enough to interrupt (n = 16: at n = 15 a fast machine could finish between
#: two looks at the file) costs a second or more of counting: in the slow run;
#: tests/test_parallel.py interrupts and resumes a count in the default run.
@pytest.mark.slow
def test_ctrl_c_saves_the_work_and_the_same_command_resumes(tmp_path: Path) -> None:
    target = tmp_path / "n19.jsonl"  # n = 16 is one piece of 0.4 s now: over before a look
    command = [sys.executable, "-m", "cp_queens", "count", "19", "--workers", "1"]
    command += ["--checkpoint", str(target)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if target.exists() and target.read_text().count("\n") >= 3:
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "run the same command again to resume" in err and "Traceback" not in err
    saved = len(target.read_text().splitlines()) - 1
    assert saved > 0

    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == f"n=19: {total(19)} solutions, {unique(19)} unique\n"
    assert f"resumed={saved}" in resumed.stderr
    keys = [json.loads(line)["key"] for line in target.read_text().splitlines()[1:]]
    assert len(keys) == len(set(keys))


def test_missing_dask_is_a_clear_error(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    code, _, err = run(capsys, "count", "8", "--cluster", "local:2")
    assert code == 2
    assert "pip install '.[distributed]'" in err
