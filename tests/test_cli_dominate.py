"""``cp-queens dominate``: the board, the size and its proof on stdout, exit codes that say
whether the optimum was proven."""

from __future__ import annotations

import json
import signal

import pytest

from cp_queens.answer import VERSION
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
    assert main(["dominate", "5", "--symmetry", "halves", "--model", "cp"]) == 0
    captured = capsys.readouterr()
    assert "best 3, bound 3, gap 0%" in captured.err
    assert "branches=" in captured.err and "symmetry=halves" in captured.err
    assert "model=cp" in captured.err
    assert "#" not in captured.out


@pytest.mark.parametrize(
    ("argv", "chosen"),
    [([], "mip"), (["--independent"], "cp"), (["--model", "cp"], "cp")],
)
def test_the_default_model_is_the_one_that_proves_fastest_and_says_so(
    capsys, argv: list[str], chosen: str
) -> None:
    """``dominate 8`` took 9.1 CPU s with CP-SAT where SCIP takes about one (issue 47): by
    default plain domination goes to SCIP, the independent variant to CP-SAT, and the
    statistics line and the JSON name the model that ran."""
    assert main(["dominate", "6", *argv, "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert f"model={chosen} " in captured.err
    assert json.loads(captured.out)["model"] == chosen


def test_the_help_names_the_default_models_bound() -> None:
    """The CLI keeps its choices without importing the solver's module: they must agree."""
    from cp_queens.cli import dominate as cli
    from cp_queens.dominate import models

    assert (models.AUTO, *models.MODELS) == cli.MODELS
    assert f"up to N = {models.MIP_UP_TO}," in cli.HELP_MODEL


def test_unicode_board(capsys) -> None:
    assert main(["dominate", "4", "--format", "unicode", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.count("♛") == 2 and "a b c d" in out


def test_a_time_limit_without_proof_exits_4_with_the_best_set_and_bound(capsys) -> None:
    # n = 13 needs 7 queens; the classic bound says 6. In 0.05 s nothing proves 7, but
    # the run started from a constructed set: it is printed, checked, with its bound.
    code = main(["dominate", "13", "--time-limit", "0.05", "-q"])
    captured = capsys.readouterr()
    assert code == 4
    assert "time limit" in captured.err
    n, queens = board(captured.out)
    assert n == 13 and dominates(13, queens).ok
    assert f"{len(queens)} queens: the best dominating set found" in captured.out
    assert "not proven optimal; lower bound 6 (gap " in captured.out


def large_board_cut_short(capsys, seconds: str) -> None:
    """Issue 30's promise: a board far beyond any proof, cut short, still has its answer."""
    code = main(["dominate", "100", "--time-limit", seconds, "-q"])
    captured = capsys.readouterr()
    assert code == 4
    n, queens = board(captured.out)
    assert n == 100 and dominates(100, queens).ok
    gap = round(100 * (len(queens) - 50) / len(queens))
    assert f"{len(queens)} queens: the best dominating set found, not proven optimal; " in (
        captured.out
    )
    assert f"lower bound 50 (gap {gap}%)" in captured.out
    assert captured.err.strip() == (
        f"cp-queens: stopped by the time limit of {seconds} s: the best set found has "
        f"{len(queens)} queens, not proven the fewest (lower bound 50)"
    )


def test_a_large_board_cut_short_prints_a_set_its_size_bound_and_gap(capsys) -> None:
    large_board_cut_short(capsys, "0.03")  # only waits out its limit


@pytest.mark.slow
def test_dominate_100_with_five_seconds_exits_4_with_a_checked_set(capsys) -> None:
    large_board_cut_short(capsys, "5")


@pytest.mark.parametrize(("n", "size"), [(1, 1), (2, 1), (3, 1), (4, 2)])
def test_one_queen_is_singular(capsys, n: int, size: int) -> None:
    assert main(["dominate", str(n), "-q"]) == 0
    out = capsys.readouterr().out
    word = "queen" if size == 1 else "queens"
    assert f"\n{size} {word}: a smallest dominating set of the {n} x {n} board" in f"\n{out}"


@pytest.mark.parametrize("workers", ["0", "99999"])
def test_workers_are_checked_and_capped_like_every_command(capsys, workers: str) -> None:
    # Issue 28: --workers 99999 was an internal error. Now it is capped at the cores
    # with one warning line, as count's --workers is, and the run answers.
    assert main(["dominate", "6", "--workers", workers, "-q"]) == 0
    captured = capsys.readouterr()
    assert "3 queens: a smallest" in captured.out
    warnings = [line for line in captured.err.splitlines() if "warning" in line]
    assert len(warnings) == (workers == "99999")
    assert all("workers capped at" in line for line in warnings)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["dominate", "0"], "must be at least 1, got 0"),
        (["dominate", "x"], "expected a whole number"),
        (["dominate", "100000"], "of memory"),
        (["dominate", "5", "--model", "gurobi"], "invalid choice"),
        (["dominate", "5", "--symmetry", "all"], "invalid choice"),
        (["dominate", "5", "--time-limit", "-1"], "expected"),
        (["dominate", "5", "--workers", "-1"], "expected a number >= 0, got -1"),
        (["dominate", "5", "--workers", "many"], "expected a whole number"),
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


def json_answer(capsys, argv: list[str]) -> tuple[int, dict]:
    import json

    code = main(["dominate", *argv, "--format", "json", "-q"])
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1  # one document on one line
    return code, json.loads(out)


@pytest.mark.parametrize("model", ["cp", "mip"])
def test_json_of_a_proven_optimum_is_the_one_answer_document(capsys, model: str) -> None:
    code, document = json_answer(capsys, ["6", "--model", model])
    assert code == 0
    assert (document["schema"], document["version"], document["task"]) == (
        "cp-queens/answer",
        VERSION,
        "dominate",
    )
    assert document["n"] == 6 and document["complete"] is True and "partial" not in document
    assert (document["outcome"], document["reason"]) == ("answer", "complete")
    queens = [tuple(queen) for queen in document["value"]["queens"]]
    assert document["value"]["size"] == len(queens) == len(smallest_dominating_set(6))
    assert dominates(6, queens).ok
    assert document["bound"] == len(queens) and document["gap"] == 0
    assert document["stats"]["engine"] == f"dominate:{model}"


@pytest.mark.parametrize("independent", [False, True])
def test_json_of_a_run_cut_short_has_the_best_set_as_partial_with_bound_and_gap(
    capsys, independent: bool
) -> None:
    argv = ["40", "--time-limit", "0.03"] + (["--independent"] if independent else [])
    code, document = json_answer(capsys, argv)
    assert code == 4
    assert document["complete"] is False and "value" not in document
    assert (document["outcome"], document["reason"]) == ("incomplete", "time_limit")
    queens = [tuple(queen) for queen in document["partial"]["queens"]]
    assert document["partial"]["size"] == len(queens)
    assert dominates(40, queens, independent=independent).ok
    assert document["independent"] is independent
    assert document["bound"] == 20 < len(queens)
    assert document["gap"] == pytest.approx((len(queens) - 20) / len(queens))
    assert document["stats"]["status"] == "time_limit"


def test_json_goes_to_the_output_file(capsys, tmp_path) -> None:
    import json

    target = tmp_path / "answer.json"
    assert main(["dominate", "5", "--format", "json", "-q", "-o", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert json.loads(target.read_text())["value"]["size"] == 3


@pytest.mark.parametrize(
    "argv",
    [["5"], ["5", "--independent", "--model", "mip"], ["30", "--time-limit", "0.03"]],
)
def test_json_validates_against_the_shipped_schema(capsys, argv: list[str]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from cp_queens.answer import schema

    code, document = json_answer(capsys, argv)
    jsonschema.Draft202012Validator(schema()).validate(document)
    assert code == (4 if "--time-limit" in argv else 0)
    # and the schema holds dominate to its shape: a document without its bound fails it
    broken = {key: value for key, value in document.items() if key != "bound"}
    assert not jsonschema.Draft202012Validator(schema()).is_valid(broken)


@pytest.mark.slow  # 3 s: a search to interrupt
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("model", ["cp", "mip"])
def test_dominate_stops_on_ctrl_c_and_sigterm_with_130(sig: signal.Signals, model: str) -> None:
    """CP-SAT took Ctrl-C for a time limit (exit 4, "stopped by the time limit" with none
    set) and ignored SIGTERM (issue 38): now both are an interrupt, stdout left empty.
    SCIP (``mip``) printed "pressed CTRL-C" on stdout and exited 4; SIGTERM waited for
    its search: it now runs in a child process, killed at once."""
    import subprocess
    import sys
    import time

    n = "30" if model == "cp" else "16"  # each still searching after 3 s
    process = subprocess.Popen(
        [sys.executable, "-m", "cp_queens", "dominate", n, "--model", model, "-q"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3)  # into the search (the model of n = 30 builds in well under that)
    process.send_signal(sig)
    sent = time.monotonic()
    out, err = process.communicate(timeout=60)
    assert time.monotonic() - sent < 10  # at once (a second here; the margin is for load)
    assert process.returncode == 130, err
    assert out == ""
    assert err.strip().splitlines()[-1] == "cp-queens: interrupted"
