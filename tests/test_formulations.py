"""The three extra formulations (pyconstraint, cpsat-board, mip) against the reference.

The lead's registry-wide tests cover every engine's default settings; these
check the options that only these engines have (solvers, column forms,
backends) and what each one must refuse.
"""

from __future__ import annotations

import pytest

from cp_queens import Problem, engines, verify
from cp_queens.errors import CpQueensError, TimeLimitError, UnsupportedTaskError
from cp_queens.problem import diagonals
from cp_queens.stats import COMPLETE, STOPPED, TIME_LIMIT
from tests.helpers import ask, total


def reference_set(problem: Problem) -> set[tuple[int, ...]]:
    return {p.cols for p in engines.get("reference").solutions(problem)}


def solution_set(engine: engines.Engine, problem: Problem) -> set[tuple[int, ...]]:
    found = [p.cols for p in engine.solutions(problem)]
    assert len(found) == len(set(found)), "duplicate solutions"
    return set(found)


COMPLETIONS = [Problem(8, {0: 0}), Problem(9, {2: 4, 5: 2}), Problem(6, {0: 0})]


# -- pyconstraint ---------------------------------------------------------------------------


@pytest.mark.parametrize("solver", ["backtracking", "recursive", "optimized"])
@pytest.mark.parametrize("columns", ["global", "pairwise"])
def test_pyconstraint_solution_sets_match_reference(solver: str, columns: str) -> None:
    engine = engines.get("pyconstraint", solver=solver, columns=columns)
    for n in range(1, 9):
        assert solution_set(engine, Problem(n)) == reference_set(Problem(n)), n


@pytest.mark.parametrize("solver", ["backtracking", "recursive"])
def test_pyconstraint_value_order_changes_no_solution(solver: str) -> None:
    engine = engines.get("pyconstraint", solver=solver, values="natural")
    for n in range(1, 9):
        assert solution_set(engine, Problem(n)) == reference_set(Problem(n)), n


# The default run's twin is the same call at n = 50 (the test after the next): n = 100
# takes four times its CPU.
@pytest.mark.slow
@pytest.mark.parametrize("n", [100, 200])
def test_pyconstraint_first_solution_on_a_large_board(n: int) -> None:
    placement = engines.get("pyconstraint").first(Problem(n)).value
    assert placement is not None and verify(placement).ok


# n = 10 takes four times n = 9's CPU: the default run counts n = 9 with its figures
@pytest.mark.parametrize("n", [9, pytest.param(10, marks=pytest.mark.slow)])
def test_pyconstraint_counts_match_oeis_with_their_figures(n: int) -> None:
    answer = engines.get("pyconstraint").count(Problem(n))
    assert answer.value == total(n) and answer.stats is not None
    assert answer.stats.branches and answer.stats.conflicts
    assert answer.stats.status == COMPLETE


@pytest.mark.parametrize("problem", COMPLETIONS, ids=str)
def test_pyconstraint_completion_matches_reference(problem: Problem) -> None:
    engine = engines.get("pyconstraint")
    assert solution_set(engine, problem) == reference_set(problem)


def test_pyconstraint_default_finds_a_first_solution_at_n50() -> None:
    # The library's own default (static order) finds nothing here in minutes.
    engine = engines.get("pyconstraint")
    placement = engine.first(Problem(50)).value
    assert placement is not None and verify(placement).ok


def test_pyconstraint_stream_stops_early() -> None:
    stream = engines.get("pyconstraint").solutions(Problem(10), limit=3)
    assert len(list(stream)) == 3
    assert stream.stats.status == STOPPED


def test_pyconstraint_time_limit_is_reported() -> None:
    # the optimized solver finds nothing at n = 60 in 3 s: 0.05 s is all the test waits
    answer = ask("pyconstraint", "first", Problem(60), solver="optimized", time_limit=0.05)
    with pytest.raises(TimeLimitError):
        answer.result()
    assert answer.stats.status == TIME_LIMIT


def test_min_conflicts_finds_one_solution_with_given_queens() -> None:
    engine = engines.get("pyconstraint", solver="min-conflicts", seed=3, steps=2000)
    placement = engine.first(Problem(30, {0: 5})).value
    assert placement is not None and verify(placement).ok and placement[0] == 5


def test_min_conflicts_giving_up_is_not_a_proof() -> None:
    engine = engines.get("pyconstraint", solver="min-conflicts", seed=1, steps=20)
    answer = engine.first(Problem(3))
    assert answer.outcome == "incomplete" and answer.value is None
    with pytest.raises(TimeLimitError, match="gave up"):
        answer.result()
    assert answer.stats is not None and answer.stats.status == TIME_LIMIT


@pytest.mark.parametrize("task", ["count", "solutions"])
def test_min_conflicts_refuses_to_enumerate_or_count(task: str) -> None:
    engine = engines.get("pyconstraint", solver="min-conflicts")
    with pytest.raises(UnsupportedTaskError, match=r"min-conflicts.*cannot"):
        getattr(engine, task)(Problem(6))


def test_pyconstraint_unknown_option_is_a_clear_error() -> None:
    with pytest.raises(CpQueensError, match="unknown solver 'dfs'"):
        engines.get("pyconstraint", solver="dfs")
    with pytest.raises(CpQueensError, match=r"unknown values 'random' \(choose from centre"):
        engines.get("pyconstraint", values="random")


# -- cpsat-board -------------------------------------------------------------------------------


def test_diagonals_cover_every_pair_of_squares_on_a_diagonal() -> None:
    n = 6
    lines = list(diagonals(n))
    assert len(lines) == 2 * (2 * n - 3)
    attacked = {frozenset((a, b)) for line in lines for a in line for b in line if a != b}
    expected = {
        frozenset(((r1, c1), (r2, c2)))
        for r1 in range(n)
        for c1 in range(n)
        for r2 in range(n)
        for c2 in range(n)
        if (r1, c1) != (r2, c2) and abs(r1 - r2) == abs(c1 - c2)
    }
    assert attacked == expected


def test_cpsat_board_solution_sets_match_reference() -> None:
    """Up to 8 by default (n = 9's 352 solutions cost more than 1..8 together; the default
    run counts n = 9 below): the slow twin lists n = 9 too."""
    engine = engines.get("cpsat-board")
    for n in range(1, 9):
        assert solution_set(engine, Problem(n)) == reference_set(Problem(n)), n


@pytest.mark.slow
def test_cpsat_board_solution_set_at_9_matches_reference() -> None:
    assert solution_set(engines.get("cpsat-board"), Problem(9)) == reference_set(Problem(9))


@pytest.mark.parametrize("problem", COMPLETIONS, ids=str)
def test_cpsat_board_completion_matches_reference(problem: Problem) -> None:
    engine = engines.get("cpsat-board")
    assert solution_set(engine, problem) == reference_set(problem)
    assert engine.count(problem).value == len(reference_set(problem))


def test_cpsat_board_first_n40() -> None:
    placement = engines.get("cpsat-board").first(Problem(40)).value
    assert placement is not None and verify(placement).ok


# n = 10 takes twice n = 9's CPU (which the solution sets above list already)
@pytest.mark.parametrize("n", [9, pytest.param(10, marks=pytest.mark.slow)])
def test_cpsat_board_count_matches_oeis_with_its_branches(n: int) -> None:
    answer = engines.get("cpsat-board").count(Problem(n))
    assert answer.value == total(n) and answer.stats and answer.stats.branches is not None


# -- mip -----------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["SCIP", "CBC"])
def test_mip_first_is_a_solution_exactly_when_one_exists(backend: str) -> None:
    engine = engines.get("mip", backend=backend)
    for n in range(1, 13):
        answer = engine.first(Problem(n))
        placement = answer.value
        if total(n) == 0:
            assert placement is None and answer.stats and answer.stats.status == COMPLETE
        else:
            assert placement is not None and verify(placement).ok, n


@pytest.mark.parametrize("problem", COMPLETIONS, ids=str)
def test_mip_completion_keeps_the_given_queens(problem: Problem) -> None:
    placement = engines.get("mip").first(problem).value
    expected = reference_set(problem)
    if expected:
        assert placement is not None and placement.cols in expected
    else:
        assert placement is None


def test_mip_infeasible_completion_is_none() -> None:
    problem = Problem(4, {0: 0})  # no 4-queens solution has a corner queen
    assert not reference_set(problem)
    answer = engines.get("mip").first(problem)
    assert answer.value is None and answer.outcome == "negative"
    assert answer.stats is not None and answer.stats.extra["solver_status"] == "INFEASIBLE"


@pytest.mark.parametrize("task", ["count", "solutions"])
def test_mip_refuses_to_enumerate_or_count(task: str) -> None:
    assert not engines.engine_class("mip").can_count
    with pytest.raises(UnsupportedTaskError, match="cannot enumerate or count"):
        getattr(engines.get("mip"), task)(Problem(6))


def test_mip_time_limit_is_reported_not_taken_for_infeasibility() -> None:
    # 3 600 binaries: SCIP takes 1.1 s of CPU to solve n = 60, a hundred times the limit
    # (n = 120 built 14 400 binaries for the same refusal, at four times the CPU)
    answer = ask("mip", "first", Problem(60), time_limit=0.01)
    with pytest.raises(TimeLimitError):
        answer.result()
    assert answer.stats.status == TIME_LIMIT
    assert answer.stats.extra["solver_status"] == "NOT_SOLVED"


def test_mip_unknown_backend_is_a_clear_error() -> None:
    with pytest.raises(CpQueensError, match="unknown backend 'GUROBI'"):
        engines.get("mip", backend="GUROBI")
