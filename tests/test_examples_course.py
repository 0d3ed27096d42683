"""Lessons 02, 06 and 07 must teach true things: check what they print."""

from __future__ import annotations

from collections.abc import Callable


def run(example_run: Callable, name: str) -> str:
    result = example_run(name)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_callback_lesson_counts_92_and_stops_at_a_symmetric_board(example_run) -> None:
    out = run(example_run, "02_enumerate_with_callback.py")
    assert "92 solutions; by column of the queen in row 0:" in out
    assert "always tie: True" in out
    symmetric = eval(out.split("half-turn symmetry: ")[1].splitlines()[0])
    assert all(symmetric[7 - r] == 7 - symmetric[r] for r in range(8))


def test_completion_lesson_engines_agree(example_run) -> None:
    out = run(example_run, "06_completion.py")
    counts = {
        line.split(":")[0].strip(): line.split()[1]
        for line in out.splitlines()
        if " completions, " in line
    }
    assert counts["cpsat"] == counts["reference"]
    assert "reference agrees: True" in out


def test_large_n_lesson_only_prints_valid_boards(example_run) -> None:
    out = run(example_run, "07_large_n.py")
    for engine in ("cpsat", "construct", "minconflicts"):
        lines = [line for line in out.splitlines() if line.strip().startswith(engine)]
        assert lines and all(line.endswith("valid=True") for line in lines), engine
