"""``cp-queens dominate``: the board, the size and its proof on stdout, exit codes that say
whether the optimum was proven."""

from __future__ import annotations

import pytest

from cp_queens.cli import main
from cp_queens.dominate import dominates, smallest_dominating_set


def board(out: str) -> tuple[int, list[tuple[int, int]]]:
    rows = [line.split() for line in out.splitlines() if set(line) <= {".", "Q", " "} and line]
    return len(rows), [(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v == "Q"]


@pytest.mark.parametrize("model", ["cp", "mip"])
@pytest.mark.parametrize("independent", [False, True])
def test_prints_a_proven_smallest_set(capsys, model: str, independent: bool) -> None:
    argv = ["dominate", "6", "--model", model, "-q"] + (["--independent"] if independent else [])
    assert main(argv) == 0
    out = capsys.readouterr().out
    n, queens = board(out)
    assert n == 6 and dominates(6, queens, independent=independent).ok
    assert len(queens) == len(smallest_dominating_set(6, independent=independent))
    assert f"{len(queens)} queens: a smallest" in out and "(proven optimal" in out


def test_progress_and_statistics_go_to_stderr(capsys) -> None:
    assert main(["dominate", "5", "--symmetry", "halves"]) == 0
    captured = capsys.readouterr()
    assert "best 3, bound 3, gap 0%" in captured.err
    assert "branches=" in captured.err and "symmetry=halves" in captured.err
    assert "#" not in captured.out


def test_unicode_board(capsys) -> None:
    assert main(["dominate", "4", "--format", "unicode", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.count("♛") == 2 and "a b c d" in out


def test_a_time_limit_without_proof_exits_4_with_the_best_set_and_bound(capsys) -> None:
    # n = 13 needs 7 queens; the classic bound says 6. In 0.05 s nothing proves 7.
    code = main(["dominate", "13", "--time-limit", "0.05", "-q"])
    captured = capsys.readouterr()
    assert code == 4
    assert "time limit" in captured.err
    if "queens:" in captured.out:  # a set was found in time: shown, checked, with its bound
        _, queens = board(captured.out)
        assert dominates(13, queens).ok
        assert "not proven optimal; lower bound 6" in captured.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["dominate", "0"], "must be at least 1, got 0"),
        (["dominate", "x"], "expected a whole number"),
        (["dominate", "101"], "too large"),
        (["dominate", "5", "--model", "gurobi"], "invalid choice"),
        (["dominate", "5", "--symmetry", "all"], "invalid choice"),
        (["dominate", "5", "--time-limit", "-1"], "expected"),
        (["dominate", "5", "--workers", "0"], "at least 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv: list[str], message: str) -> None:
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own errors
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
