"""Bad input is bounded and named (issue 38): a huge integer is one line, exit 2; an
input file is read under a cap that says so; ragged CSV rows are refused, naming the line.

Each case runs the command in this process (``run_cli``), so no test pays a start-up.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cp_queens.errors import ParseError
from cp_queens.json_depth import MAX_DIGITS, whole_numbers
from tests.helpers import run_cli

HUGE = "7" * 100_000


def one_error(err: str) -> str:
    (line,) = [line for line in err.splitlines() if not line.startswith("#")]
    assert line.startswith("cp-queens: error: ")
    return line


@pytest.mark.parametrize(
    ("command", "text"),
    [
        ("verify", f"[{HUGE}, 2, 0, 3]\n"),
        ("verify", f"[1, 3, 0, 2]\n[1, 3, 0, {HUGE}]\n"),
        ("verify", f"{HUGE},3,0,2\n"),
        ("complete", f'{{"n": {HUGE}, "queens": []}}'),
        ("complete", f'{{"n": 8, "queens": [[0, -{HUGE}]]}}'),
    ],
    ids=["jsonl", "jsonl-line-2", "csv", "partial-n", "partial-negative"],
)
def test_a_huge_integer_is_one_line_exit_2(capsys, tmp_path: Path, command: str, text: str):
    path = tmp_path / ("in.json" if command == "complete" else "in.txt")
    path.write_text(text)
    code, out, err = run_cli(capsys, command, str(path))
    assert code == 2, err
    assert out == ""
    line = one_error(err)
    assert str(path) in line
    assert "internal error" not in line and len(line) < 300


def test_the_number_guard_takes_what_a_board_needs() -> None:
    parse = whole_numbers("f")
    assert json.loads(f"[{'9' * MAX_DIGITS}, -3]", parse_int=parse) == [int("9" * MAX_DIGITS), -3]
    with pytest.raises(ParseError, match="f: a number of 101 digits"):
        json.loads(f"[-{'9' * (MAX_DIGITS + 1)}]", parse_int=parse)


# -- ragged csv ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("1,3,0,2\n0,2\n", 2),
        ("q0,q1,q2,q3\n1,3,0,2\n2,0,3,1\n1,3,0\n", 4),
        ("# a comment\n1,3,0,2\n\n2,0,3,1,4\n", 4),
    ],
    ids=["short", "after-header", "long-after-blank"],
)
def test_a_ragged_csv_row_is_refused_naming_its_line(
    capsys, tmp_path: Path, text: str, line: int
) -> None:
    path = tmp_path / "p.csv"
    path.write_text(text)
    code, _, err = run_cli(capsys, "verify", str(path))
    assert code == 2, err
    assert f"{path}:{line}:" in one_error(err) and "fields" in err


def test_a_ragged_row_past_the_first_block_is_refused(capsys, tmp_path: Path, monkeypatch) -> None:
    """Big files are parsed a block at a time (NumPy): each block has one width, and the
    blocks must agree with each other (blocks made small here, so the file is too)."""
    monkeypatch.setattr("cp_queens.formats.BLOCK_CHARS", 4096)
    rows = 4096 // len("1,3,0,2\n") + 10
    path = tmp_path / "p.csv"
    path.write_text("1,3,0,2\n" * rows + "2,4,1,3,0\n" * 10)
    code, _, err = run_cli(capsys, "verify", str(path))
    assert code == 2, err
    assert f"{path}:{rows + 1}: 5 fields" in one_error(err)


def test_jsonl_of_several_sizes_is_still_read(capsys, tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text("[1, 3, 0, 2]\n[0]\n")
    code, out, _ = run_cli(capsys, "verify", str(path))
    assert code == 0
    assert "2 placements" in out


# -- partial boards under a cap -----------------------------------------------------------


def test_a_partial_board_file_is_read_under_a_cap_that_says_so(
    capsys, tmp_path: Path, monkeypatch
) -> None:
    """A gigabyte of blank lines took ``complete`` to 2.4 GB (each kept for its number);
    the cap is made small here, so the file is too."""
    monkeypatch.setattr("cp_queens.partial.MAX_PARTIAL_CHARS", 10_000)
    path = tmp_path / "blank.txt"
    path.write_text("\n" * 20_000)
    code, out, err = run_cli(capsys, "complete", str(path))
    assert code == 2 and out == ""
    assert "more than 10,000 characters, the cap on a partial board" in one_error(err)


def test_blank_lines_before_a_board_keep_their_numbers(capsys, tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text('\n\n\n{"n": 8, "queens": [[0, 0]]\n')
    code, _, err = run_cli(capsys, "complete", str(path))
    assert code == 2
    assert f"{path}:5:" in one_error(err)
    path.write_text("\n\n..\n.Q\nQ\n")
    code, _, err = run_cli(capsys, "complete", str(path))
    assert code == 2
    assert f"{path}:5" in one_error(err)


def test_blocked_squares_past_the_cap_are_refused(capsys, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr("cp_queens.partial.MAX_BLOCKED", 10)
    path = tmp_path / "x.txt"
    path.write_text("xxxxxx\nxxxxxx\n......\n......\n......\n......\n")
    code, _, err = run_cli(capsys, "complete", str(path))
    assert code == 2
    assert f"{path}:2: more than 10 blocked squares" in one_error(err)
