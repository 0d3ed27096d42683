"""check_model and ``cp-queens check``: a student's model is judged on the whole solution set."""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Iterator

import numpy as np
import pytest
from rich.console import Console

import cp_queens
from cp_queens.course import CheckReport, check_model
from cp_queens.errors import CpQueensError
from cp_queens.problem import square_name
from tests.helpers import run_cli, total


def student_model(n: int, *, up_diagonals: bool = True) -> Iterator[list[int]]:
    """A student's backtracker over q[r]; ``up_diagonals=False`` forgets the q-r constraint."""
    q: list[int] = []

    def extend() -> Iterator[list[int]]:
        r = len(q)
        if r == n:
            yield list(q)
            return
        for c in range(n):
            if c in q or any(q[i] + i == c + r for i in range(r)):
                continue
            if up_diagonals and any(q[i] - i == c - r for i in range(r)):
                continue
            q.append(c)
            yield from extend()
            q.pop()

    return extend()


def correct(n: int) -> list[list[int]]:
    return list(student_model(n))


def without_q_minus_r(n: int) -> list[list[int]]:
    return list(student_model(n, up_diagonals=False))


def drops_the_fourth(n: int) -> list[list[int]]:
    found = list(student_model(n))
    return found[:3] + found[4:]


def repeats_the_first(n: int) -> list[list[int]]:
    found = list(student_model(n))
    return found + found[:1]


def test_a_correct_model_passes_with_exact_counts() -> None:
    report = check_model(correct, n_max=8)
    assert report.ok and bool(report)
    assert [row.expected for row in report.rows] == [total(n) for n in range(1, 9)]
    assert all(row.correct == row.returned == total(row.n) for row in report.rows)
    assert str(report).startswith("OK: correct finds every solution exactly once")
    assert report.first_missing is report.first_invalid is report.first_duplicate is None


def test_a_generator_model_passes_too() -> None:
    assert check_model(student_model, n_max=7).ok


def test_missing_q_minus_r_constraint_is_caught_with_an_attacking_pair() -> None:
    report = check_model(without_q_minus_r, n_max=8)
    assert not report.ok
    finding = report.first_invalid
    assert finding is not None
    # the pair named really shares a "\" diagonal: r - q[r] equal
    words = finding.reason.split()
    a, b = int(words[1]), int(words[3])
    cols = finding.cols
    n = len(cols)
    squares = f"{square_name(a, cols[a], n)} and {square_name(b, cols[b], n)}"
    assert finding.reason == f"rows {a} and {b} share a diagonal ({squares})"
    assert a - cols[a] == b - cols[b]
    assert finding.board is not None and finding.board.count("X") == 2
    # every true solution is still there: nothing missing, only extras
    assert all(row.missing == 0 and row.correct == total(row.n) for row in report.rows)
    n8 = report.rows[7]
    assert n8.invalid == n8.returned - 92 > 0
    assert "first invalid solution: n=2, placement 1 [0, 1]: rows 0 and 1" in str(report)


def test_a_dropped_solution_is_shown_as_a_board() -> None:
    report = check_model(drops_the_fourth, n_max=8)
    assert not report.ok
    dropped_at = [row.n for row in report.rows if row.missing]
    assert dropped_at == [n for n in range(1, 9) if total(n) > 3]
    finding = report.first_missing
    assert finding is not None and finding.n == 5
    fourth = tuple(list(student_model(5))[3])
    assert finding.cols == fourth
    assert finding.board == cp_queens.Placement(fourth).to_text()
    assert finding.board in str(report).replace("\n    ", "\n")
    assert all(row.invalid == row.duplicates == 0 for row in report.rows)


def test_duplicates_are_counted_and_the_first_is_named() -> None:
    report = check_model(repeats_the_first, n_max=6)
    assert not report.ok
    duplicated = {row.n: row.duplicates for row in report.rows}
    assert duplicated == {n: int(total(n) > 0) for n in range(1, 7)}
    assert str(report.first_duplicate) == "n=1, placement 2 [0]: repeats solution 1"
    assert all(row.missing == 0 for row in report.rows)


def test_a_model_that_raises_gets_a_clear_message_and_other_sizes_are_checked() -> None:
    def fragile(n: int) -> list[list[int]]:
        if n == 5:
            raise IndexError("list index out of range")
        return correct(n)

    report = check_model(fragile, n_max=6)
    assert [row.ok for row in report.rows] == [True] * 4 + [False, True]
    assert report.errors == ["fragile(5) raised IndexError: list index out of range"]
    assert "error: fragile(5) raised IndexError" in str(report)


@pytest.mark.parametrize(
    ("returned", "message"),
    [
        (None, "returned None: it must return (or yield) the solutions"),
        (42, "returned 42 (an int), not a collection of solutions"),
        ("[[0]]", "returned '[[0]]' (a str), not a collection of solutions"),
        ({0: 0}, "returned {0: 0} (a dict of 1), not a collection of solutions"),
        (
            [1, 3, 0, 2],
            "returned one placement [1, 3, 0, 2] (a list of 4), not a collection of solutions",
        ),
    ],
)
def test_junk_output_is_named(returned: object, message: str) -> None:
    report = check_model(lambda n: returned, n_max=4, name="junk")
    assert not report.ok
    assert all(row.error is not None for row in report.rows)
    assert message in report.errors[0]
    assert "(and 3 more board sizes failed)" in str(report)


def test_junk_solutions_are_invalid_not_crashes() -> None:
    report = check_model(lambda n: ["abc", [0, 1.5], [9] * n, 7, *correct(n)], n_max=4)
    reasons = [row.first_invalid.reason for row in report.rows]
    assert reasons[0] == "'abc' is not a list of columns"
    assert all(row.invalid == 4 and row.correct == total(row.n) for row in report.rows)


def test_every_solution_shape_is_accepted() -> None:
    def shapes(n: int) -> list[object]:
        out: list[object] = []
        for i, cols in enumerate(correct(n)):
            board = np.zeros((n, n), dtype=int)
            board[np.arange(n), cols] = 1
            out.append(
                [
                    cols,
                    tuple(cols),
                    cp_queens.Placement(tuple(cols)),
                    np.array(cols),
                    board,
                    board.tolist(),
                    dict(enumerate(cols)),
                ][i % 7]
            )
        return out

    assert check_model(shapes, n_max=8).ok


def test_a_board_with_two_queens_in_a_row_is_invalid() -> None:
    report = check_model(lambda n: [[[1] * n for _ in range(n)]], n_max=2, n_min=2)
    assert report.first_invalid.reason == "0/1 board row 0 has 2 queens, not 1"


def test_bad_arguments_are_one_clear_error() -> None:
    with pytest.raises(CpQueensError, match="n_max must be a whole number >= 1"):
        check_model(correct, n_max=0)
    with pytest.raises(CpQueensError, match="expected a function"):
        check_model([[0]])  # type: ignore[arg-type]


def test_the_report_draws_itself_in_rich_and_html() -> None:
    report = check_model(drops_the_fourth, n_max=5)
    assert isinstance(report, CheckReport)
    console = Console(file=io.StringIO(), width=100)
    console.print(report)
    shown = console.file.getvalue()
    assert "1 missing" in shown and "first missing solution: n=5" in shown
    html = report._repr_html_()
    assert html.count("<tr") == 6 and "first missing solution" in html
    assert html.count("<svg") == 1  # the missing board, drawn


# -- the command line -------------------------------------------------------


run = run_cli


def write(tmp_path, rows: list[object]) -> str:
    path = tmp_path / "mine.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def test_cli_check_accepts_the_complete_set(capsys, tmp_path) -> None:
    code, out, _ = run(capsys, "check", "--n", "8", write(tmp_path, correct(8)))
    assert code == 0
    assert "holds all 92 solutions of n=8, each exactly once" in out


def test_cli_check_shows_the_first_difference(capsys, tmp_path) -> None:
    rows = [*correct(6)[1:], [0, 1, 2, 3, 4, 5], correct(6)[1]]
    code, out, _ = run(capsys, "check", write(tmp_path, rows))
    assert code == 1
    assert "WRONG:" in out and "1 missing, 1 invalid, 1 duplicate" in out
    assert f"first missing solution: n=6 {correct(6)[0]}" in out
    assert "first invalid placement: n=6, placement 4 [0, 1, 2, 3, 4, 5]: rows 0 and 1" in out
    assert "first duplicate: n=6, placement 5" in out


def test_cli_check_reads_stdin(capsys, monkeypatch) -> None:
    lines = "".join(json.dumps(row) + "\n" for row in correct(6))
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    code, out, _ = run(capsys, "check", "--n", "6", "-")
    assert code == 0 and "all 4 solutions of n=6" in out


@pytest.mark.parametrize(
    ("content", "argv", "message"),
    [
        ('{"a": 1}\n', ["--n", "8"], "unexpected '{'"),
        ("[1, 2\n", [], "not valid JSON"),
        ("", [], "no placements to check; give the board size with --n"),
        ("[1, 3, 0, 2]\n", ["--n", "20"], "N = 20 is too large"),
    ],
)
def test_cli_check_bad_input_is_one_line_exit_2(capsys, tmp_path, content, argv, message) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    code, out, err = run(capsys, "check", *argv, str(path))
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


# -- big files: compare_file ------------------------------------------------------


@functools.cache
def solved(n: int) -> tuple[tuple[int, ...], ...]:
    """``correct(n)``, enumerated once per test process for the 60 mutated files (a third of
    their CPU was the student model enumerating again)."""
    return tuple(tuple(q) for q in correct(n))


def mutated(seed: int) -> tuple[int, list[list[int]]]:
    """A board size and a file of its solutions with some dropped, repeated, wrong or
    of the wrong size, shuffled."""
    import random

    rng = random.Random(seed)
    n = rng.randint(1, 8)
    solutions = [list(q) for q in solved(n)]
    items = rng.sample(solutions, rng.randint(0, len(solutions)))
    for _ in range(rng.randint(0, 4)):
        kind = rng.random()
        if kind < 0.3 and solutions:
            extra = rng.choice(solutions)
        elif kind < 0.6:
            extra = [rng.randrange(n) for _ in range(n)]
        elif kind < 0.8:
            extra = [rng.randrange(3) for _ in range(rng.randint(1, 9))]
        else:
            extra = [n + 3] * n
        items.insert(rng.randint(0, len(items)), extra)
    return n, items


def as_read(items: list[list[int]], seed: int) -> list[object]:
    """The items as read_blocks gives them: runs of equal length as arrays, others as lists."""
    import random

    rng = random.Random(seed)
    out: list[object] = []
    i = 0
    while i < len(items):
        chunk = items[i : i + rng.randint(1, 5)]
        if len({len(c) for c in chunk}) == 1 and rng.random() < 0.7:
            out.append(np.array(chunk, dtype=np.int64))
        else:
            out.extend(chunk)
        i += len(chunk)
    return out


FIELDS = ("expected", "returned", "correct", "invalid", "duplicates", "missing")
FINDINGS = ("first_missing", "first_invalid", "first_duplicate")


@pytest.mark.parametrize("seed", range(60))
def test_compare_file_finds_what_compare_solutions_finds(seed: int) -> None:
    from cp_queens.grading.tasks.solutions.judge import compare_solutions
    from cp_queens.grading.tasks.solutions.judge_file import compare_file

    n, items = mutated(seed)
    slow = compare_solutions(n, items)
    fast = compare_file(n, as_read(items, seed))
    assert [getattr(fast, f) for f in FIELDS] == [getattr(slow, f) for f in FIELDS]
    assert [getattr(fast, f) for f in FINDINGS] == [getattr(slow, f) for f in FINDINGS]


def test_compare_file_without_compiled_kernels_takes_the_reference(monkeypatch) -> None:
    from cp_queens.engines.fast import loader
    from cp_queens.grading.tasks.solutions.judge import compare_solutions
    from cp_queens.grading.tasks.solutions.judge_file import compare_file

    monkeypatch.setattr(loader, "COMPILED", None)
    n, items = 7, [*correct(7)[3:], correct(7)[5], [0] * 7]
    fast = compare_file(n, as_read(items, 1))
    slow = compare_solutions(n, items)
    assert [getattr(fast, f) for f in FIELDS + FINDINGS] == [
        getattr(slow, f) for f in FIELDS + FINDINGS
    ]


def test_cli_check_reports_a_wrong_first_line_and_the_solution_it_hides(capsys, tmp_path) -> None:
    truth = correct(10)  # enumerated once (0.1 s), the first kept to be named
    rows = [list(range(10)), *truth[1:]]
    code, out, _ = run(capsys, "check", "--n", "10", write(tmp_path, rows))
    assert code == 1
    assert f"724 placements, 723 of {total(10)} solutions found; 1 missing, 1 invalid" in out
    assert f"first missing solution: n=10 {truth[0]}: missing (1 of 724" in out
    assert "first invalid placement: n=10, placement 1 [0, 1, 2" in out and "rows 0 and 1" in out


def test_cli_check_names_a_placement_of_the_wrong_size(capsys, tmp_path) -> None:
    rows = [*correct(6), [1, 3, 0, 2]]
    code, out, _ = run(capsys, "check", write(tmp_path, rows))
    assert code == 1
    assert "first invalid placement: n=6, placement 5 [1, 3, 0, 2]: placement has 4 rows" in out


def test_the_command_and_the_library_agree_on_the_largest_board() -> None:
    from cp_queens.cli.check import CHECK_UP_TO
    from cp_queens.grading.tasks.solutions.judge_file import FILE_UP_TO

    assert CHECK_UP_TO == FILE_UP_TO
