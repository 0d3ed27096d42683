"""``cp-queens solve``: default engine by size, Unicode and SVG output, huge boards as jsonl."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cp_queens import verify
from cp_queens.cli import main


def test_default_engine_is_named_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "8", "--format", "jsonl"]) == 0
    captured = capsys.readouterr()
    assert "# engine: cpsat (default for N=8)" in captured.err
    assert verify(json.loads(captured.out)).ok


def test_large_boards_default_to_the_formula(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "5000", "--format", "jsonl"]) == 0
    captured = capsys.readouterr()
    assert "# engine: construct (default for N=5000)" in captured.err
    cols = json.loads(captured.out)
    assert len(cols) == 5000 and verify(cols).ok


def test_unicode_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "8", "-e", "construct", "--format", "unicode"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 9 and sum(line.count("♛") for line in lines) == 8


def test_svg_to_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "board.svg"
    assert main(["solve", "8", "--format", "svg", "--output", str(target)]) == 0
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert sum(t.text == "♛" for t in root.iter("{http://www.w3.org/2000/svg}text")) == 8


def test_minconflicts_with_seed_is_repeatable(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for _ in range(2):
        assert main(["solve", "30", "-e", "minconflicts", "--seed", "11", "--format", "jsonl"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and verify(json.loads(outputs[0])).ok


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "5000"], "too large to draw as --format boards"),
        (["solve", "2000", "--format", "unicode"], "use --format jsonl or svg"),
        (
            ["solve", "8", "-e", "construct", "--seed", "1"],
            "engine 'construct' has no option --seed",
        ),
    ],
)
def test_clear_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_no_solution_is_an_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "3", "-e", "construct"]) == 1
    assert capsys.readouterr().out == "no solution exists for N=3\n"
