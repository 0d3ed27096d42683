"""Checkpoints that cannot lie or rot (issue 13): torn, tampered, foreign and shared files.

Each case is detected, and the count resumed from the file is exact.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from cp_queens import Problem, engines
from cp_queens.cli import main
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.errors import CpQueensError, CpQueensWarning
from cp_queens.parallel.checkpoint import (
    Checkpoint,
    CheckpointBusyError,
    CheckpointMismatchError,
)
from tests.helpers import total

N = 9


def count(path: Path) -> tuple[int, dict]:
    engine, budget = engines.build("fast", workers=1, checkpoint=str(path))
    answer = engine.count(Problem(N), budget=budget)
    assert answer.stats is not None
    return answer.value, answer.stats.extra


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    path = tmp_path / "n9.jsonl"
    assert count(path)[0] == total(N)
    return path


def test_a_torn_tail_is_cut_before_appending_so_the_next_resume_reads(finished: Path) -> None:
    lines = finished.read_text().splitlines(keepends=True)
    finished.write_text("".join(lines[:-1]) + lines[-1][:12])  # the disk filled up mid-line
    found, extra = count(finished)
    assert found == total(N) and extra["resumed"] == extra["subproblems"] - 1
    text = finished.read_text()
    assert text.endswith("\n") and all(json.loads(line) for line in text.splitlines())
    found, extra = count(finished)  # the second resume used to fail: "line N: not JSON"
    assert found == total(N) and extra["resumed"] == extra["subproblems"]


def test_a_tampered_record_fails_its_checksum_and_is_recomputed(finished: Path) -> None:
    lines = finished.read_text().splitlines(keepends=True)
    record = json.loads(lines[1])
    record["total"] = 10**9
    lines[1] = json.dumps(record) + "\n"
    finished.write_text("".join(lines))
    with pytest.warns(CpQueensWarning, match="checksum"):
        found, extra = count(finished)
    assert found == total(N) and extra["resumed"] == extra["subproblems"] - 1


def test_an_impossible_record_is_recomputed_even_with_a_good_checksum(finished: Path) -> None:
    lines = finished.read_text().splitlines(keepends=True)
    record = json.loads(lines[1])
    record.pop("crc")
    record["total"] = 8 * record["unique"] + 1  # more than 8 per orbit cannot be
    fields = {k: record[k] for k in ("key", "total", "unique", "nodes")}
    for m in (13, 15):  # residues that fit: only the bound can tell
        record[f"mod{m}"] = [fields[k] % m for k in ("total", "unique", "nodes")]
    record["crc"] = zlib.crc32(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode())
    lines[1] = json.dumps(record) + "\n"
    finished.write_text("".join(lines))
    with pytest.warns(CpQueensWarning, match="impossible figures: total and unique disagree"):
        assert count(finished)[0] == total(N)


@pytest.mark.parametrize(
    "bad",
    ['{"key": ["a"], "total": 1}', "[" * 10_000, "{oops", '{"key": "x", "total": 1}'],
    ids=["list-key", "deep", "not-json", "foreign-key"],
)
def test_a_malformed_record_is_one_warning(finished: Path, bad: str) -> None:
    lines = finished.read_text().splitlines(keepends=True)
    lines.insert(2, bad + "\n")
    finished.write_text("".join(lines))
    with pytest.warns(CpQueensWarning, match="line 3"):
        assert count(finished)[0] == total(N)


@pytest.mark.parametrize(
    "text",
    ["my notes\n", "my notes without newline", "\n" + "{}\n", '{"checkpoint": "other"}\n'],
    ids=["notes", "no-newline", "blank-first", "foreign-header"],
)
def test_a_file_that_is_not_ours_is_refused_and_left_alone(tmp_path: Path, text: str) -> None:
    path = tmp_path / "notes.txt"
    path.write_text(text)
    with pytest.raises(CheckpointMismatchError):
        count(path)
    assert path.read_text() == text  # never appended to, never cut


def test_two_runs_on_one_file_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "shared.jsonl"
    job = {"n": 1}
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from cp_queens.parallel.checkpoint import Checkpoint\n"
            f"cp = Checkpoint.open({str(path)!r}, {{'n': 1}}, {{'a'}}, tuple)\n"
            "print('holding', flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "holding"
        with pytest.raises(CheckpointBusyError, match="in use by another run"):
            Checkpoint.open(path, job, {"a"}, tuple)
    finally:
        holder.communicate("", timeout=30)
    with Checkpoint.open(path, job, {"a"}, tuple):  # free again once the first run ended
        pass


def test_a_device_is_no_checkpoint(capsys) -> None:
    with pytest.raises(CpQueensError, match="regular file"):
        count(Path("/dev/null"))
    assert main(["count", "9", "--checkpoint", "/dev/null"]) == ExitCode.BAD_INPUT
    assert "regular file" in capsys.readouterr().err
