"""Stored results verified before they are believed (issue 19, items 3 and 4).

A record that keeps a valid checksum but claims what its subproblem cannot hold is
dropped; residues catch a figure edited behind its checksum; ``--recheck`` recounts
resumed records; a bad byte costs one record; a torn header is written again; and
every failure to use the file is said in words.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from cp_queens import Problem, engines
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.errors import CpQueensError, CpQueensWarning
from cp_queens.parallel.checkpoint import MODULI
from tests.helpers import run_cli, total, unique

N = 9


def count(path: Path, **options: Any) -> tuple[int, dict]:
    engine, budget = engines.build("fast", workers=1, checkpoint=str(path), **options)
    answer = engine.count(Problem(N), budget=budget)
    assert answer.stats is not None
    return answer.value, answer.stats.extra


def forge(record: dict[str, Any], residues: bool = True) -> str:
    """The record as a line whose checksum (and, if asked, residues) fit its figures:
    what a careful forger, or a bit flip before the checksum was taken, would leave."""
    fields = {k: record[k] for k in ("key", "total", "unique", "nodes")}
    if residues:
        for m in MODULI:
            record[f"mod{m}"] = [fields[k] % m for k in ("total", "unique", "nodes")]
    record["crc"] = zlib.crc32(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode())
    return json.dumps(record) + "\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A finished checkpoint of n = 9, counted once for the module (each record is
    pushed to disk with fsync: a count per test would cost a third of a second)."""
    path = tmp_path_factory.mktemp("template") / "n9.jsonl"
    assert count(path)[0] == total(N)
    return path.read_bytes()


@pytest.fixture
def finished(tmp_path: Path, template: bytes) -> Path:
    path = tmp_path / "n9.jsonl"
    path.write_bytes(template)
    return path


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


@pytest.mark.parametrize("residues", [False, True], ids=["crc-only", "crc-and-residues"])
def test_a_record_claiming_10_to_the_30_is_dropped_and_the_total_exact(
    finished: Path, residues: bool
) -> None:
    """The issue's reproducer: total = unique = 10**30 with a recomputed CRC."""
    lines = lines_of(finished)
    record = json.loads(lines[1])
    record["total"] = record["unique"] = 10**30
    lines[1] = forge(record, residues)
    finished.write_text("".join(lines))
    with pytest.warns(CpQueensWarning, match="1 record") as caught:
        found, extra = count(finished)
    assert len(caught) == 1
    why = "free rows" if residues else "residues mod 13"
    assert why in str(caught[0].message)
    assert found == total(N) and extra["resumed"] == extra["subproblems"] - 1


def test_the_cli_drops_it_with_one_warning_line(finished: Path, capsys: Any) -> None:
    lines = lines_of(finished)
    record = json.loads(lines[1])
    record["total"] = record["unique"] = 10**30
    lines[1] = forge(record)
    finished.write_text("".join(lines))
    code, out, err = run_cli(capsys, "count", str(N), "--checkpoint", str(finished))
    assert code == ExitCode.OK and out == f"n={N}: {total(N)} solutions, {unique(N)} unique\n"
    assert len([line for line in err.splitlines() if "warning" in line]) == 1


def test_an_edit_behind_a_recomputed_checksum_is_caught_by_the_residues(finished: Path) -> None:
    lines = lines_of(finished)
    record = json.loads(lines[2])
    record["total"] += 8  # one orbit more: within every bound
    record["unique"] += 1
    lines[2] = forge(record, residues=False)
    finished.write_text("".join(lines))
    with pytest.warns(CpQueensWarning, match="residues mod 13 do not match"):
        assert count(finished)[0] == total(N)


def test_recheck_finds_a_record_that_passes_every_test_of_form(finished: Path) -> None:
    """A wrong figure that is plausible everywhere is caught only by counting again."""
    _one_orbit_more(finished)
    # Nothing of its form is wrong: only the known total of the board gives it away...
    with pytest.raises(CpQueensError, match=rf"counts {total(N) + 8} .* has {total(N)} .*OEIS"):
        count(finished)
    # ...and counting it again names the record.
    with pytest.raises(CpQueensError, match=r"recheck failed: subproblem .* is recorded with"):
        count(finished, recheck=1.0)


def test_recheck_of_a_sound_file_passes(finished: Path, capsys: Any) -> None:
    found, extra = count(finished, recheck=0.5)
    resumed = len(lines_of(finished)) - 1
    checked = -(-resumed // 2)  # half of them, rounded up
    assert found == total(N) and extra["rechecked"] == f"{checked} of {resumed} resumed: ok"
    code, out, _ = run_cli(capsys, "count", str(N), "--checkpoint", str(finished), "--recheck", "1")
    assert code == ExitCode.OK and f"{total(N)} solutions" in out


def _one_orbit_more(finished: Path) -> None:
    """The first record that counts anything, one orbit more (8 solutions, 1 unique) and
    forged to fit: nothing of its form is wrong."""
    lines = lines_of(finished)
    number = next(i for i, line in enumerate(lines) if i and json.loads(line)["total"] > 0)
    record = json.loads(lines[number])
    record["total"] += 8
    record["unique"] += 1
    lines[number] = forge(record)
    finished.write_text("".join(lines))


def test_the_cli_fails_loudly_on_a_recheck_mismatch(finished: Path, capsys: Any) -> None:
    _one_orbit_more(finished)
    code, out, err = run_cli(
        capsys, "count", str(N), "--checkpoint", str(finished), "--recheck", "1"
    )
    assert code != ExitCode.OK and out == ""
    assert err.count("\n") == 1 and "recheck failed" in err


@pytest.mark.parametrize("bad", ["2", "-0.1", "x", "nan"])
def test_recheck_takes_a_fraction(bad: str, capsys: Any) -> None:
    code, _, err = run_cli(capsys, "count", "8", "--checkpoint", "x.jsonl", "--recheck", bad)
    assert code == ExitCode.BAD_INPUT and "fraction from 0 to 1" in err


def test_recheck_needs_a_checkpoint(capsys: Any) -> None:
    code, _, err = run_cli(capsys, "count", "8", "--recheck", "0.5")
    assert code == ExitCode.BAD_INPUT and "recheck needs a checkpoint" in err


def test_a_bad_byte_costs_one_record_not_the_file(finished: Path) -> None:
    data = bytearray(finished.read_bytes())
    second = data.index(b"\n") + 1
    third = data.index(b"\n", second) + 1
    data[third + 10] |= 0x80  # a high bit flipped inside the second record
    finished.write_bytes(bytes(data))
    with pytest.warns(CpQueensWarning, match="line 3 \\(not a record\\)"):
        found, extra = count(finished)
    assert found == total(N) and extra["resumed"] == extra["subproblems"] - 1


@pytest.mark.parametrize("cut", [12, 80])
def test_a_torn_header_is_written_again(finished: Path, cut: int) -> None:
    header = lines_of(finished)[0]
    finished.write_text(header[:cut])  # a crash while the file was being created
    found, extra = count(finished)
    assert found == total(N) and "resumed" not in extra
    assert lines_of(finished)[0] == header
    assert count(finished)[1]["resumed"] == extra["subproblems"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_in_words(tmp_path: Path, capsys: Any) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code, _, err = run_cli(capsys, "count", "12", "--checkpoint", str(fifo))
    assert code == ExitCode.BAD_INPUT
    assert err == f"cp-queens: error: checkpoint {fifo} must be a regular file, it is a FIFO\n"


def test_a_directory_is_refused_in_words(tmp_path: Path, capsys: Any) -> None:
    code, _, err = run_cli(capsys, "count", "12", "--checkpoint", str(tmp_path))
    assert code == ExitCode.BAD_INPUT and "it is a directory" in err and "None" not in err


def test_a_full_disk_while_recording_is_exit_74_in_words(tmp_path: Path) -> None:
    """``ulimit -f`` stands in for a full disk: the write fails with EFBIG, the run stops
    with one line, and what the file holds is whole records (the next run resumes)."""
    path = tmp_path / "full.jsonl"
    script = (
        "import resource, sys; from cp_queens.cli import main; "
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024)); "
        f"sys.exit(main(['count', '11', '--workers', '1', '--checkpoint', {str(path)!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == ExitCode.IO_ERROR, done.stderr
    assert done.stderr.count("\n") == 1 and "cannot write checkpoint" in done.stderr
    assert "None" not in done.stderr
    assert path.read_bytes().endswith(b"\n")
    engine, budget = engines.build("fast", workers=1, checkpoint=str(path))
    answer = engine.count(Problem(11), budget=budget)
    assert answer.value == total(11) and answer.stats and answer.stats.extra["resumed"] > 0
