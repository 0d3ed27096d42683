"""Lesson 09 (CP versus MIP) must teach true things: check what it prints."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys

import pytest

import cp_queens
from tests.helpers import ENV, ROOT

LESSON = ROOT / "examples" / "09_cp_vs_mip.py"


def run(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(LESSON), *args], capture_output=True, text=True, timeout=600, env=ENV
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def most_non_attacking_queens(n: int) -> int:
    """The integer optimum the lesson's MIP reports: n when the n-queens problem has a
    solution (the reference says), else by brute force over sets of squares (tiny n)."""
    if cp_queens.first(n, engine="reference") is not None:
        return n
    assert n <= 4, "brute force is for tiny boards only"
    squares = [(r, c) for r in range(n) for c in range(n)]

    def attack(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])

    for k in range(n, 0, -1):
        if any(
            all(not attack(a, b) for a, b in itertools.combinations(chosen, 2))
            for chosen in itertools.combinations(squares, k)
        ):
            return k
    return 0


def search_rows(out: str) -> dict[int, list[str]]:
    rows = {}
    for line in out.splitlines():
        match = re.match(r"\s*(\d+) \|(.*)\|(.*)\|", line)
        if match:
            rows[int(match.group(1))] = line.split("|")
    return rows


def check_lesson_output(out: str, sizes: list[int]) -> None:
    relaxation = dict(
        (int(n), (float(lp), int(best)))
        for n, lp, best in re.findall(r"n = (\d+):\s+([\d.]+)\s+(\d+)$", out, re.MULTILINE)
    )
    assert set(relaxation) == {2, 3, 4, 8}
    for n, (lp, best) in relaxation.items():
        assert lp == pytest.approx(n)  # x = 1/n everywhere is feasible: the bound is n
        assert best == most_non_attacking_queens(n)
    assert relaxation[3][0] > relaxation[3][1]  # the gap branching must close
    # the fractional point drawn for n = 8 has row sums of 1 and is really fractional
    grid = out.split("squares fractional\n")[1].splitlines()[:8]
    values = [[0.0 if cell == "." else float(cell) for cell in line.split()] for line in grid]
    assert all(sum(line) == pytest.approx(1.0, abs=0.15) for line in values)
    assert any(0 < value < 1 for line in values for value in line)
    rows = search_rows(out)
    assert sorted(rows) == sizes
    for cells in rows.values():
        mip_nodes = int(cells[1].split()[0].replace(",", ""))
        cp_branches = int(cells[2].split()[0].replace(",", ""))
        assert mip_nodes >= 0 and cp_branches > 0


def test_lesson_runs_small_and_its_numbers_are_true(example_run) -> None:
    result = example_run(LESSON.name)  # the run tests/test_examples.py checks too
    assert result.returncode == 0, result.stderr
    check_lesson_output(result.stdout, [8, 16])


@pytest.mark.slow
def test_lesson_full_range_8_to_64() -> None:
    check_lesson_output(run("--full"), [8, 12, 16, 24, 32, 48, 64])
