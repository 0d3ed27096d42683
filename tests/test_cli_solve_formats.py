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


def _written(path: Path) -> str:
    """What ``path`` holds, named by its first characters."""
    text = path.read_text(encoding="utf-8")
    if text.startswith("<svg"):
        return "svg"
    if text.startswith('{"schema"'):
        return "json"
    if text.startswith("q0,"):
        return "csv"
    if text.startswith("["):
        return "jsonl"
    return "boards" if set(text.splitlines()[0]) <= set(".Q ") else "text"


BOARD = '{"n": 6, "queens": [[0, 1]]}'


@pytest.mark.parametrize(
    ("argv", "name", "expected"),
    [
        (["solve", "8", "-e", "reference"], "b.svg", "svg"),
        (["solve", "8", "-e", "reference"], "b.jsonl", "jsonl"),
        (["solve", "8", "-e", "reference"], "b.CSV", "csv"),
        (["solve", "8", "-e", "reference"], "b.json", "json"),
        (["solve", "8", "-e", "reference"], "b.txt", "boards"),
        (["solve", "8", "-e", "reference"], "b.out", "boards"),  # no format's: the default
        (["solve", "8", "-e", "reference", "--format", "boards"], "b.svg", "boards"),  # given
        (["enumerate", "6", "-e", "reference"], "e.csv", "csv"),
        (["enumerate", "6", "-e", "reference"], "e.jsonl", "jsonl"),
        (["complete", "-", "-e", "reference"], "c.svg", "svg"),
        (["dominate", "5"], "d.json", "json"),
        (["dominate", "5"], "d.txt", "boards"),
    ],
)
def test_o_file_takes_the_format_its_suffix_names_for_every_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], name: str, expected: str
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(BOARD))
    target = tmp_path / name
    assert main([*argv, "-o", str(target), "-q"]) == 0
    assert _written(target) == expected


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["enumerate", "6", "-e", "reference"], "e.svg"),  # a picture holds one board
        (["dominate", "5"], "d.jsonl"),  # a set of squares is no placement
    ],
)
def test_a_suffix_the_command_cannot_write_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], name: str
) -> None:
    target = tmp_path / name
    assert main([*argv, "-o", str(target), "-q"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "give --format" in err and name in err
    assert not target.exists()
