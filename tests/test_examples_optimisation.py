"""Lesson 11 must teach true things: its tables are checked against the brute force."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from cp_queens.dominate import classic_lower_bound, smallest_dominating_set

# The lesson takes 3.5 s of CPU (solvers at every size): the slow run checks it.
pytestmark = pytest.mark.slow


def lesson(example_run: Callable) -> str:
    result = example_run("11_optimisation.py")
    assert result.returncode == 0, result.stderr
    return result.stdout


def table(out: str, header: str) -> list[list[str]]:
    """The rows of numbers under ``header``, cells split on ``|``."""
    lines = out.split(header, 1)[1].splitlines()[1:]
    rows = []
    for line in lines:
        if not re.match(r"\s*\d+ \|", line):
            break
        rows.append([cell.strip() for cell in line.split("|")])
    return rows


def test_the_questions_end_at_the_first_yes_which_is_the_optimum(example_run) -> None:
    out = lesson(example_run)
    answers = re.findall(r"k = (\d+): (yes|no)", out)
    assert [a for _, a in answers] == ["no"] * (len(answers) - 1) + ["yes"]
    assert int(answers[-1][0]) == len(smallest_dominating_set(6))


def test_the_trail_closes_the_gap_with_the_bound_below_the_best(example_run) -> None:
    out = lesson(example_run)
    trail = re.findall(r"^\s+[\d.]+\s+(\d+|-)\s+(\d+)", out.split("minimise")[1], re.M)
    steps = [(None if best == "-" else int(best), int(bound)) for best, bound in trail]
    assert steps[-1] == (4, 4) == (len(smallest_dominating_set(7)),) * 2
    assert all(best is None or bound <= best for best, bound in steps)
    assert "the independent checker says it dominates: True" in out


def test_the_bounds_table_is_right(example_run) -> None:
    rows = table(lesson(example_run), "n | classic | LP relaxation | optimum | independent")
    assert [int(row[0]) for row in rows] == list(range(1, 8))
    for n, classic, lp, best, independent in rows:
        size = int(n)
        assert int(classic) == classic_lower_bound(size) <= int(best)
        assert float(lp) <= int(best) + 1e-9
        assert int(best) == len(smallest_dominating_set(size))
        assert int(independent) == len(smallest_dominating_set(size, independent=True))


def test_cp_and_mip_agree_with_brute_force(example_run) -> None:
    out = lesson(example_run)
    rows = table(out, "| queens")
    assert rows
    for row in rows:
        assert int(row[-1]) == len(smallest_dominating_set(int(row[0])))


def test_symmetry_breaking_keeps_the_optimum(example_run) -> None:
    out = lesson(example_run).split("symmetry breaking, n = 7")[1]
    runs = re.findall(r"(cp|mip)\s+(none|halves|lex):.*-> (\d+) queens, optimal (\w+)", out)
    assert len(runs) == 6
    assert {(queens, optimal) for *_, queens, optimal in runs} == {("4", "True")}
