"""``cp-queens complete``: answers, cross-checks, exit codes and one-line errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cp_queens import Problem, verify
from cp_queens.cli import main
from cp_queens.partial import format_partial

A8 = Problem(8, {0: 0})
#: Queens a knight's move apart in the corner of a 4x4 board: no completion.
DEAD_END = Problem(4, {0: 0, 2: 1})


def write(tmp_path: Path, problem: Problem, fmt: str = "board") -> str:
    path = tmp_path / f"board.{fmt}"
    path.write_text(format_partial(problem, fmt) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("fmt", ["board", "json"])
def test_one_completion_keeps_the_given_queens(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["complete", write(tmp_path, A8, fmt), "--format", "jsonl"]) == 0
    captured = capsys.readouterr()
    assert verify(json.loads(captured.out), A8).ok
    assert "n=8, 1 given queen" in captured.err


def test_count_and_all_cross_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, A8)
    assert main(["complete", path, "--count", "--cross-check", "reference"]) == 0
    captured = capsys.readouterr()
    count = int(captured.out.split()[0])
    assert "cross-check: reference agrees" in captured.err
    assert main(["complete", path, "--all", "--format", "jsonl", "-x", "pyconstraint"]) == 0
    captured = capsys.readouterr()
    found = [tuple(json.loads(line)) for line in captured.out.splitlines()]
    assert len(found) == len(set(found)) == count
    assert all(verify(cols, A8).ok for cols in found)
    assert "pyconstraint agrees" in captured.err


def test_all_as_boards_separates_them_by_blank_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["complete", write(tmp_path, A8), "--all", "--limit", "2", "-e", "reference"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n\n") == 1 and out.count("Q") == 16


@pytest.mark.parametrize(
    "extra", [[], ["--count"], ["--all"], ["-x", "reference"], ["--count", "-x", "cpsat-board"]]
)
def test_no_completion_is_an_answer_with_exit_code_1(
    tmp_path: Path, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["complete", write(tmp_path, DEAD_END), *extra]) == 1
    captured = capsys.readouterr()
    assert "no completion exists" in captured.out + captured.err
    assert "error" not in captured.err


def test_reads_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"n": 5, "queens": [[2, 2]]}'))
    assert main(["complete", "-", "--count", "-e", "reference"]) == 0
    assert capsys.readouterr().out == "2 completions\n"


def test_unicode_marks_given_queens(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["complete", write(tmp_path, A8), "--format", "unicode"]) == 0
    out = capsys.readouterr().out
    assert out.count("♕") == 1 and out.count("♛") == 7


@pytest.mark.parametrize(
    ("content", "extra", "message"),
    [
        ("Q...\n..y.\n....\n....\n", [], "board.txt:2:3: unexpected 'y'"),
        ("Q...\n.Q..\n....\n....\n", [], "a4 (row 0, col 0) and b3 (row 1, col 1) share"),
        ('{"n": 4, "queens": [[0, 0]', [], "board.txt:1:27: not valid JSON"),
        ("Q...\n....\n....\n....\n", ["-e", "construct"], "does not support pre-placed queens"),
        ("Q...\n....\n....\n....\n", ["--count", "--format", "svg"], "--format svg draws one"),
        ("Q...\n....\n....\n....\n", ["--limit", "3"], "--limit only applies to --all"),
    ],
)
def test_bad_input_is_one_error_line_with_exit_code_2(
    tmp_path: Path, content: str, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "board.txt"
    path.write_text(content, encoding="utf-8")
    assert main(["complete", str(path), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["complete", "/nonexistent/board.txt"]) == 2
    assert "cannot read /nonexistent/board.txt" in capsys.readouterr().err
