"""The teacher's key (examples/solutions/) is checked with the toolkit, answer by answer.

Every claim the key makes is recomputed here by other means: ``check_model``
against the reference engine, counts from ``cp_queens.count``, filters over the
reference's solutions, the independent ``verify``.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

import cp_queens
from cp_queens import Problem, engines, verify
from cp_queens.completion import completions, cross_check, generate
from cp_queens.course import check_model
from tests.helpers import ENV, KEY, ROOT, check_width, load_key

load = load_key


@functools.cache
def reference(n: int) -> tuple[tuple[int, ...], ...]:
    """Every solution of n, by the reference engine; once per n (several keys ask)."""
    return tuple(tuple(p) for p in cp_queens.solutions(n, engine="reference"))


@functools.cache
def through(row: int, col: int) -> int:
    """Solutions of 8 through one square, counted by the reference engine with that queen
    given; asked once per test process (exercises 6, 16 and 19 all ask for some)."""
    return cp_queens.count(8, fixed={row: col}, engine="reference")


def superqueen(q: tuple[int, ...]) -> bool:
    n = len(q)
    return all(abs(q[r] - q[r + 1]) != 2 for r in range(n - 1)) and all(
        abs(q[r] - q[r + 2]) != 1 for r in range(n - 2)
    )


# -- lesson 01 ---------------------------------------------------------------


def test_key_1_model_is_correct_up_to_8() -> None:
    # the counts of exercise 1 come from this same model; enumerating n = 10 with it
    # (most of the cost) is the slow twin's
    key = load("lesson01")
    assert check_model(key.card_model, n_max=8).ok


@pytest.mark.slow
def test_key_1_counts_its_model_at_4_6_8_and_10() -> None:
    key = load("lesson01")
    assert key.exercise_1() == {n: cp_queens.count(n) for n in (4, 6, 8, 10)}


def test_key_2_missing_constraint_lets_only_backslash_diagonals_attack(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = load("lesson01")
    # exercise 2 filters the model's boards of 8 and the last line counts them all: one
    # enumeration of the 2,113 boards (0.13 s) serves both
    monkeypatch.setattr(key, "without_q_minus_r", functools.cache(key.without_q_minus_r))
    report = check_model(key.without_q_minus_r, n_max=6)
    assert not report.ok and "share a diagonal" in report.first_invalid.reason
    wrong = key.exercise_2()
    assert wrong and all(not verify(q).ok for q in wrong)
    for q in wrong:  # columns and "/" diagonals are still all different
        assert len(set(q)) == len({q[r] + r for r in range(8)}) == 8
    assert len(wrong) + 92 == len(key.without_q_minus_r(8))


def test_key_3_superqueens() -> None:
    key = load("lesson01")
    for n in range(2, 11):
        assert sorted(map(tuple, key.superqueens(n))) == [q for q in reference(n) if superqueen(q)]
    smallest = next(n for n in range(2, 11) if any(superqueen(q) for q in reference(n)))
    assert key.exercise_3() == smallest


# -- lesson 02 ---------------------------------------------------------------


def test_key_4_off_the_long_diagonals() -> None:
    key = load("lesson02")
    expected = sum(all(q[r] not in (r, 7 - r) for r in range(8)) for q in reference(8))
    assert key.exercise_4() == expected


def test_key_5_stop_at_column_2() -> None:
    key = load("lesson02")
    board, branches_until, branches_all = key.exercise_5()
    assert board is not None
    assert cp_queens.Placement(tuple(board)) in set(completions(Problem(8, {0: 2}), "reference"))
    assert 0 < branches_until < branches_all


def test_key_6_row_tallies_come_in_mirror_pairs() -> None:
    key = load("lesson02")
    tally = key.exercise_6(8, row=1)
    assert tally == [through(1, c) for c in range(8)]
    assert tally == tally[::-1]


# -- lesson 03 ---------------------------------------------------------------


def test_key_7_size_of_the_board_model() -> None:
    from cp_queens.engines.cpsat_board import build_model as board_model
    from cp_queens.engines.mip import build_model as mip_model

    key = load("lesson03")
    for n in (4, 8, 12):
        model, _ = board_model(Problem(n))
        assert key.exercise_7(n) == (len(model.proto.variables), len(model.proto.constraints))
        solver, _ = mip_model(Problem(n))
        assert key.exercise_7(n) == (solver.NumVariables(), solver.NumConstraints())


def test_key_8_pyconstraint_with_alldifferent_is_still_correct() -> None:
    key = load("lesson03")
    assert check_model(key.pyconstraint_with_alldifferent, n_max=6).ok


def test_key_9_counting_with_a_mip_and_no_goods() -> None:
    key = load("lesson03")
    assert check_model(key.mip_solutions, n_max=6).ok


@pytest.mark.slow
def test_key_9_counting_with_a_mip_up_to_8() -> None:
    key = load("lesson03")
    assert check_model(key.mip_solutions, n_min=7, n_max=8).ok


# -- lesson 04 ---------------------------------------------------------------


def test_key_10_orbit_sizes_add_up() -> None:
    key = load("lesson04")
    sizes = key.exercise_10(8)
    assert sum(size * classes for size, classes in sizes.items()) == cp_queens.count(8)
    assert sum(sizes.values()) == engines.get("cpsat").count_unique(Problem(8)).value.unique
    assert sizes[4] == 1  # the one class that is not of size 8


def test_key_11_mirror_break_for_odd_and_even_n() -> None:
    key = load("lesson04")
    for n in (8, 9):
        found = key.mirror_broken(n)
        assert len({tuple(q) for q in found}) == len(found)
        assert all(verify(q).ok and 2 * q[0] <= n - 1 for q in found)
        middle = sum(q[0] == n // 2 for q in reference(n)) if n % 2 else 0
        assert len(found) == (cp_queens.count(n) + middle) // 2
    total, broken, middle = key.exercise_11(9)
    assert broken == (total + middle) // 2 and total == cp_queens.count(9)


# -- lesson 05 ---------------------------------------------------------------


def test_key_12_every_board_quoted_is_a_solution() -> None:
    key = load("lesson05")
    answers = key.exercise_12(12, time_limit=5.0)
    assert set(answers) == set(key.STRATEGIES)
    for board, _seconds in answers.values():
        assert board is not None and verify(board).ok


def test_key_13_seeds_give_different_boards() -> None:
    key = load("lesson05")
    boards = key.exercise_13(60, seeds=range(1, 6))
    assert all(verify(b).ok for b in boards)
    assert len({tuple(b) for b in boards}) == 5


def test_key_14_middle_first_backtracker() -> None:
    key = load("lesson05")
    for n in range(1, 13):
        assert sorted(key.middle_first_order(n)) == list(range(n))
    assert check_model(key.all_middle_first, n_max=8).ok
    for n in (20, 25, 31):
        (board,), nodes = key.middle_first(n, limit=1)
        assert verify(board).ok and nodes >= n


# -- lesson 06 ---------------------------------------------------------------


def test_key_15_two_queens_no_completion() -> None:
    key = load("lesson06")
    problem = key.exercise_15()
    assert len(problem.fixed) == 2  # Problem() already refused attacking queens
    assert cross_check(problem, "reference", exists=False) is None
    assert cross_check(problem, "cpsat", exists=False) is None


# An eighth of the board: every square is the image of one of these under a symmetry of
# the square, which maps the completions of one given queen onto those of its image.
OCTANT = [(row, col) for row in range(4) for col in range(row, 4)]


def test_key_16_fewest_queens_forcing_a_unique_completion() -> None:
    key = load("lesson06")
    k, problem = key.exercise_16()
    assert len(problem.fixed) == k
    assert cp_queens.count(problem, engine="cpsat") == 1
    # no board with k - 1 given queens has exactly one completion (asked square by square,
    # of the backtracker: a fact about the board, which any engine's count states); the
    # squares of one octant stand for all 64 here, the slow twin asks every one
    assert k == 2
    assert len(OCTANT) == 10
    for row, col in OCTANT:
        assert through(row, col) != 1


@pytest.mark.slow
def test_key_16_no_single_queen_on_any_of_the_64_squares_forces_a_unique_completion() -> None:
    for row in range(8):
        for col in range(8):
            assert cp_queens.count(8, fixed={row: col}, engine="reference") != 1


def test_key_17_a_row_adds_up_to_all_solutions() -> None:
    key = load("lesson06")
    for row in (0, 3):
        assert sum(key.exercise_17(8, row)) == cp_queens.count(8)


def test_key_18_local_search_refuses_to_judge_completions() -> None:
    key = load("lesson06")
    assert "does not support pre-placed queens" in key.exercise_18()


@pytest.mark.parametrize(
    "n, blocks",
    [
        # n = 6 (one canonical solution to keep) takes the key's branch and bound through
        # the same code in a few ms; n = 8, the exercise's board, takes a second: slow run
        (6, None),
        pytest.param(8, 8, marks=pytest.mark.slow),
    ],
)
def test_key_19_blocked_squares_leave_one_solution(n: int, blocks: int | None) -> None:
    key = load("lesson06")
    k, problem = key.exercise_19(n)
    assert problem.n == n and not problem.fixed and len(problem.blocked) == k >= 1
    assert blocks is None or k == blocks
    for name in ("reference", "cpsat", "fast"):
        assert cp_queens.count(problem, engine=name) == 1, name


def test_key_19_one_blocked_square_is_never_enough() -> None:
    key = load("lesson06")
    # one x is never enough: recount the solutions through each square
    counts = [through(r, c) for r in range(8) for c in (0, 3)]
    assert max(counts) == key.most_solutions_through_one_square() == 18 < 92 - 1


@pytest.mark.slow
def test_key_19_no_seven_blocked_squares_leave_one_solution() -> None:
    # CP-SAT, not the key's branch and bound: for every solution kept alone, a cover of
    # the other 91 by at most k - 1 blocked squares is infeasible.
    from ortools.sat.python import cp_model

    from cp_queens.symmetry import is_canonical

    k, _ = load("lesson06").exercise_19()
    solutions = reference(8)
    # a symmetry of the board maps a blocked board to one: the canonical solutions suffice
    for keep in filter(lambda s: is_canonical(cp_queens.Placement(s)), solutions):
        model = cp_model.CpModel()
        x = {(r, c): model.new_bool_var(f"x{r}{c}") for r in range(8) for c in range(8)}
        for r in range(8):
            model.add(x[r, keep[r]] == 0)
        for other in solutions:
            if other != keep:
                model.add_bool_or([x[r, c] for r, c in enumerate(other)])
        model.add(sum(x.values()) <= k - 1)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        assert solver.solve(model) == cp_model.INFEASIBLE, keep


def test_key_20_the_residue_not_n_decides() -> None:
    (few, few_squares, few_found, _), (many, many_squares, many_found, _) = load(
        "lesson06"
    ).exercise_20(n=300, blanks=(3, 20))
    assert few_squares < many_squares
    for missing, found in ((few, few_found), (many, many_found)):
        assert cp_queens.count(generate(300, missing, seed=0), engine="cpsat") == found >= 1


# -- lesson 07 ---------------------------------------------------------------


def test_key_21_evens_then_odds_fails_for_n_mod_6_in_2_3() -> None:
    key = load("lesson07")
    failures = key.exercise_21(100)
    assert set(failures) == {n for n in range(4, 101) if n % 6 in (2, 3)}
    assert all("share a diagonal" in reason for reason in failures.values())
    for n in range(4, 101):
        assert sorted(key.evens_odds(n)) == list(range(n))


def test_key_22_minconflicts_moves_are_reported() -> None:
    key = load("lesson07")
    moves = key.exercise_22(sizes=(1_000,), seeds=range(1, 3))
    assert len(moves[1_000]) == 2 and all(m >= 0 for m in moves[1_000])


def test_key_23_where_the_time_goes() -> None:
    key = load("lesson07")
    seconds = key.exercise_23(20_000)
    assert set(seconds) == {"formula", "write jsonl", "read jsonl", "verify"}


# -- lesson 09 ---------------------------------------------------------------


def test_key_30_the_lp_bound_ignores_the_diagonals() -> None:
    key = load("lesson09")
    for n in (3, 5, 8):
        assert key.lp_bound(n) == pytest.approx(n)
        assert key.lp_bound(n, diagonals=False) == pytest.approx(n)


def test_key_31_mip_and_cp_reach_the_best_weighted_board() -> None:
    key = load("lesson09")
    for n in (6, 8):
        best = max(sum(r * q[r] for r in range(n)) for q in reference(n))
        board, value = key.best_weighted_mip(n)
        assert verify(board).ok and value == pytest.approx(best)
        assert sum(r * board[r] for r in range(n)) == best
        board, value = key.best_weighted_cp(n)
        assert verify(board).ok and value == best


def test_every_lesson_with_exercises_has_a_key() -> None:
    exercises = (ROOT / "examples" / "EXERCISES.md").read_text()
    lessons = {line.split()[2] for line in exercises.splitlines() if line.startswith("## Lesson")}
    keys = {path.stem.removeprefix("lesson") for path in KEY.glob("lesson*.py")}
    assert lessons <= keys, f"no key for lessons {sorted(lessons - keys)}"


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(KEY.glob("lesson*.py")), ids=lambda p: p.name)
def test_every_key_runs_as_a_script(path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=300, env=ENV
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    check_width(result.stdout)
