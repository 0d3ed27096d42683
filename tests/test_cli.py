"""The ``cp-queens`` command: answers, pipes, and one-line errors with exit code 2."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from cp_queens import verify
from cp_queens.cli import main
from tests.helpers import run_cli, total

run = run_cli  # cp-queens in this process: exit code, stdout, stderr


def test_solve_prints_a_board_and_stats_on_stderr(capsys) -> None:
    code, out, err = run(capsys, "solve", "8")
    assert code == 0
    rows = out.split("\n")[:8]
    assert all(row.replace(" ", "").count("Q") == 1 for row in rows)
    assert "engine=cpsat" in err


def test_solve_jsonl_is_a_verified_array(capsys) -> None:
    code, out, _ = run(capsys, "solve", "12", "--format", "jsonl", "--engine", "reference")
    assert code == 0 and verify(json.loads(out))


def test_solve_without_solution_exits_1(capsys) -> None:
    code, out, _ = run(capsys, "solve", "3")
    assert code == 1 and "no solution exists for N=3" in out


@pytest.mark.parametrize("engine", ["reference", "cpsat"])
def test_count_prints_total_and_engine(capsys, engine: str) -> None:
    code, out, err = run(capsys, "count", "8", "--engine", engine)
    assert code == 0 and "92" in out
    assert f"engine={engine}" in err


def test_count_default_engine_answers(capsys) -> None:
    code, out, err = run(capsys, "count", "9")
    assert code == 0 and f"{total(9)} solutions" in out and "engine=" in err


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "boards"])
def test_enumerate_output_verifies(capsys, tmp_path: Path, fmt: str) -> None:
    target = tmp_path / f"eight.{fmt}"
    code, _, _ = run(capsys, "enumerate", "8", "--format", fmt, "--output", str(target))
    assert code == 0
    code, out, _ = run(capsys, "verify", str(target), "--expect", "92", "--distinct", "--n", "8")
    assert code == 0, out
    assert "OK: 92 placements checked (n=8)" in out


def test_enumerate_takes_the_fastest_exact_engine_and_says_which(capsys) -> None:
    from cp_queens import default_count_engine

    code, out, err = run(capsys, "enumerate", "9", "--format", "jsonl")
    assert code == 0 and len(out.splitlines()) == total(9)
    assert f"engine={default_count_engine()}" in err
    # an option of the CP-SAT model asks for the model
    code, out, err = run(capsys, "enumerate", "6", "--format", "jsonl", "--method", "plain")
    assert code == 0 and len(out.splitlines()) == total(6) and "engine=cpsat" in err


def test_enumerate_limit(capsys) -> None:
    code, out, _ = run(capsys, "enumerate", "10", "--format", "jsonl", "--limit", "7")
    assert code == 0 and len(out.splitlines()) == 7


def test_verify_reports_invalid_and_duplicates(capsys, tmp_path: Path) -> None:
    target = tmp_path / "mixed.jsonl"
    target.write_text("[1, 3, 0, 2]\n[0, 1, 2, 3]\n[1, 3, 0, 2]\n")
    code, out, _ = run(capsys, "verify", str(target), "--distinct")
    assert code == 1
    assert "placement 2 (n=4): rows 0 and 1 share a diagonal" in out
    assert "placement 3 (n=4): repeats placement 1" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "0"], "board size n must be at least 1, got 0"),
        (["solve", "-3"], "board size n must be at least 1"),
        (["count", "eight"], "argument N: expected a whole number, got 'eight'"),
        (["solve", "8", "--engine", "nope"], "unknown engine 'nope'"),
        (["enumerate", "8", "--limit", "-1"], "expected a number >= 0"),
        (["solve", "8", "--time-limit", "0"], "expected a finite number of seconds > 0, got '0'"),
        (["enumerate", "8", "--format", "xml"], "invalid choice: 'xml'"),
        (["verify", "/no/such/file"], "cannot read /no/such/file"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv: list[str], message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[0, 1\n", "bad.txt:1:6: not valid JSON"),
        ('[1, 3, 0, 2]\n{"n": 4}\n', "bad.txt:2: expected a JSON array"),
        (". Q\nQ ?\n", "bad.txt:2:3: unexpected '?'"),
        (". . .\nQ . .\n. . Q\n", "bad.txt:1: row 0 has 0 queens"),
    ],
)
def test_malformed_placement_file_is_exit_2(capsys, tmp_path: Path, content, message) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(content)
    code, _, err = run(capsys, "verify", str(bad))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def _cli(*argv: str, **kwargs) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cp_queens", *argv], capture_output=True, text=True, **kwargs
    )


def test_module_entry_point_and_pipe_into_verify() -> None:
    # the reference engine: the entry point and the pipe are the point, not the engine
    # (the default, CP-SAT, would add OR-Tools' import to the fresh process, 0.3 s)
    listing = _cli("enumerate", "8", "--engine", "reference", "--format", "jsonl")
    assert listing.returncode == 0
    checked = _cli("verify", input=listing.stdout)
    assert checked.returncode == 0 and "OK: 92 placements checked" in checked.stdout


def test_help_explains_commands(capsys: pytest.CaptureFixture[str]) -> None:
    # in this process: --help in a fresh one is tests/test_startup.py's (what it imports)
    with pytest.raises(SystemExit) as helped:
        main(["--help"])
    assert helped.value.code == 0
    out = capsys.readouterr().out
    for command in ("solve", "count", "enumerate", "verify"):
        assert command in out


def _written(target: Path) -> int:
    """Bytes written so far to ``target`` or to the temporary file it is written under."""
    sizes = [0]
    for path in [target, *target.parent.glob(f".{target.name}.*.part")]:
        # (a temporary file may be renamed into place between the listing and the stat)
        with contextlib.suppress(FileNotFoundError):
            sizes.append(path.stat().st_size)
    return max(sizes)


@pytest.mark.parametrize(
    "engine",
    [["reference"], pytest.param(["cpsat", "--method", "plain"], marks=pytest.mark.slow)],
    ids=["reference", "cpsat"],
)
def test_ctrl_c_keeps_written_lines_intact(tmp_path: Path, engine: list[str]) -> None:
    # n = 13: its first 64 KB block is written after 0.4 s of search, n = 14's after 0.7 s
    # (the search runs until then); both enumerations take many seconds to finish.
    target = tmp_path / "thirteen.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "cp_queens", "enumerate", "13", "--engine", *engine,
         "--format", "jsonl", "--output", str(target)],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # The run writes under a temporary name beside the target (renamed into place on
    # Ctrl-C, see cp_queens.output.whole_file): wait until that has some records in it.
    # Watching the target itself would wait out the whole deadline, a minute of CPU.
    # Any record will do, however long a busy machine takes to write the first block (at
    # load 33 a wait for 10,000 records ran out its minute and the test failed).
    deadline = time.monotonic() + 600
    while _written(target) < 1 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert not list(tmp_path.glob(f".{target.name}.*.part"))  # renamed, none left behind
    assert process.returncode == 130, err
    assert "Traceback" not in err
    lines = target.read_text().splitlines()
    assert 0 < len(lines) < total(13)
    # The count said is the count written (it said what the engine had found, a block more).
    said = re.search(r"interrupted: ([0-9,]+) solutions written in \S+, each whole", err)
    assert said is not None, err
    assert int(said[1].replace(",", "")) == len(lines)
    assert all(verify(json.loads(line)) for line in lines)


def test_broken_pipe_is_quiet() -> None:
    shell = subprocess.run(
        f"{sys.executable} -m cp_queens enumerate 10 --engine reference --format jsonl | head -1",
        shell=True, capture_output=True, text=True,
    )  # fmt: skip
    assert shell.stdout.count("\n") == 1
    assert "Traceback" not in shell.stderr


@pytest.mark.slow  # 3 s, 2 of them solver CPU by design; test_ctrl_c_keeps_written_lines_intact
def test_ctrl_c_stops_a_cpsat_count() -> None:  # interrupts CP-SAT in the default run
    """CP-SAT catches Ctrl-C itself; the engine must still report an interruption."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cp_queens", "count", "15", "--engine", "cpsat",
         "--method", "plain"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    # Past start-up (imports take under a second of CPU), well inside a search of many
    # minutes: the solver has then used CPU of its own. Waiting on the clock instead
    # would burn seconds of solver time on every run.
    child = psutil.Process(process.pid)
    deadline = time.monotonic() + 60
    while sum(child.cpu_times()[:2]) < 2.0 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert "interrupted" in err and "Traceback" not in err
    assert "solutions" not in out  # no partial count passed off as an answer
