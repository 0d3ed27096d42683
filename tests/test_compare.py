"""``compare``: one process per run, time limits (clean and hard), memory, reports, CLI."""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from collections.abc import Iterator

import pytest

from cp_queens import engines
from cp_queens.cli import main
from cp_queens.compare import (
    ERROR,
    OK,
    SKIPPED,
    TIMEOUT,
    UNSUPPORTED,
    CompareError,
    Run,
    compare,
    mark_agreement,
    parse_engines,
    parse_range,
    run_one,
)
from cp_queens.compare.report import PlotUnavailableError, plot, write_csv, write_json
from cp_queens.engines.base import Call, Engine
from cp_queens.problem import Placement, Problem
from cp_queens.stats import Stats


class Sleepy(Engine):
    """Ignores its time limit, so only the parent's kill can stop it."""

    name = "sleepy"

    def _solutions(self, problem: Problem, call: object) -> Iterator[Placement]:
        time.sleep(60)
        yield from ()


class Broken(Engine):
    name = "broken"

    def _count(self, problem: Problem, call: object) -> int:
        raise RuntimeError("boom")


class Vanishing(Engine):
    name = "vanishing"

    def _count(self, problem: Problem, call: object) -> int:
        os._exit(3)


class Witness(Engine):
    """Counts like the reference, and says which solver libraries its process had loaded."""

    name = "witness"

    def _count(self, problem: Problem, call: Call) -> int:
        libraries = ("ortools", "constraint", "cpmpy")
        call.stats.extra["loaded"] = [name for name in libraries if name in sys.modules]
        return engines.get("reference").count(problem).value


@pytest.fixture
def test_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in (Sleepy, Broken, Vanishing, Witness):
        monkeypatch.setitem(engines._REGISTRY, cls.name, cls)


# -- parsing ----------------------------------------------------------------------------------


def test_parse_range_forms() -> None:
    assert parse_range("4..7") == [4, 5, 6, 7]
    assert parse_range("9") == [9]
    assert parse_range("8, 4..5,8") == [4, 5, 8]


@pytest.mark.parametrize(
    ("text", "says"),
    [("7..4", "empty range"), ("0..3", "start at 1"), ("a..b", "cannot read"), ("", "cannot")],
)
def test_parse_range_errors_name_the_problem(text: str, says: str) -> None:
    with pytest.raises(CompareError, match=says):
        parse_range(text)


def test_engine_options_are_read_and_checked_up_front() -> None:
    specs = parse_engines("reference, pyconstraint:solver=optimized:columns=pairwise,reference")
    assert [spec.label for spec in specs] == [
        "reference",
        "pyconstraint:solver=optimized:columns=pairwise",
    ]
    assert specs[1].name == "pyconstraint"
    assert specs[1].options == {"solver": "optimized", "columns": "pairwise"}
    typed = parse_engines("pyconstraint:steps=50:forwardcheck=false:seed=7")[0].options
    assert typed == {"steps": 50, "forwardcheck": False, "seed": 7}
    with pytest.raises(CompareError, match="engine 'mip' has no option 'depth'"):
        parse_engines("mip:depth=3")
    with pytest.raises(CompareError, match="time limit is set for the whole comparison"):
        parse_engines("mip:time_limit=3")  # compare sets the time limit itself
    with pytest.raises(CompareError, match=r"pyconstraint:solver=dfs: .*unknown solver 'dfs'"):
        parse_engines("pyconstraint:solver=dfs")
    with pytest.raises(CompareError, match="cannot read option 'plain'"):
        parse_engines("cpsat:plain")


def test_options_that_take_abilities_away_are_respected() -> None:
    runs = compare(["pyconstraint:solver=min-conflicts"], [8], "count", time_limit=10)
    assert runs[0].status == UNSUPPORTED and runs[0].engine == "pyconstraint:solver=min-conflicts"
    runs = compare(["pyconstraint:solver=min-conflicts:seed=1"], [8], "first", time_limit=10)
    assert runs[0].status == OK and runs[0].solutions == 1


def test_parse_engines_rejects_unknown_names() -> None:
    assert [spec.label for spec in parse_engines("reference, cpsat,reference")] == [
        "reference",
        "cpsat",
    ]
    with pytest.raises(CompareError, match=r"unknown engine 'nope'.*known engines: .*reference"):
        parse_engines("reference,nope")


# -- running ----------------------------------------------------------------------------------


def test_compare_counts_agree_and_record_figures() -> None:
    runs = compare(["reference", "pyconstraint", "mip"], [4, 5, 6], "count", time_limit=20)
    by = {(run.engine, run.n): run for run in runs}
    assert [by["reference", n].solutions for n in (4, 5, 6)] == [2, 10, 4]
    for name in ("reference", "pyconstraint"):
        for n in (4, 5, 6):
            run = by[name, n]
            assert run.status == OK and run.agrees is True
            assert run.wall_time is not None and run.wall_time >= 0
            assert run.peak_rss_mb and run.peak_rss_mb >= (run.baseline_rss_mb or 0) > 0
            assert run.branches and run.branches > 0
    assert by["mip", 5].status == UNSUPPORTED and "cannot count" in by["mip", 5].message


def test_a_run_starts_with_nothing_loaded_and_its_start_up_is_apart(test_engines: None) -> None:
    """Whatever ran before or beside it, a run starts in a fresh process: the witness sees
    no OR-Tools though this process and the run before it loaded it. The start-up is
    timed in its parts, apart from the solve; CP-SAT's model, presolve and search lie
    inside the solve."""
    import ortools  # noqa: F401  (loaded here: a forked run would inherit it)

    board, witness = compare(["cpsat-board", "witness"], [5], "count", time_limit=20)
    assert board.status == witness.status == OK and witness.agrees is True
    assert witness.extra["loaded"] == []
    for run in (board, witness):
        assert set(run.startup) == {"python", "cp_queens", "engine"}
        assert run.startup_time == pytest.approx(sum(run.startup.values()), abs=1e-5)
    assert witness.model_time is None  # no model: nothing said about one
    assert board.model_time is not None and board.wall_time is not None
    assert 0 < board.model_time < board.wall_time
    phases = board.extra["presolve_time"] + board.extra["search_time"]
    assert 0 < phases < board.wall_time - board.model_time


def test_first_task_runs_the_mip() -> None:
    runs = compare(["mip", "reference"], [3, 6], "first", time_limit=20)
    assert [(r.engine, r.n, r.status, r.solutions) for r in runs] == [
        ("mip", 3, OK, 0),
        ("mip", 6, OK, 1),
        ("reference", 3, OK, 0),
        ("reference", 6, OK, 1),
    ]
    assert all(r.agrees for r in runs)


def test_engine_that_stops_itself_is_a_timeout_and_larger_sizes_are_skipped() -> None:
    # The limit counts from the run's ready signal, after its start-up: 0.1 s of search
    # finds n = 16's first solutions and branches under any load.
    runs = compare(["reference"], [16, 17], "enumerate", time_limit=0.1)
    assert runs[0].status == TIMEOUT and runs[0].lower_bound is not None
    assert runs[0].solutions is None  # a partial figure is no answer
    assert runs[0].branches  # its search figures survive the time limit
    assert runs[1].status == SKIPPED and "n=16" in runs[1].message


def test_engine_that_ignores_its_time_limit_is_killed(test_engines: None) -> None:
    started = time.perf_counter()
    # Both counted from the run's ready signal (its start-up has its own allowance), and
    # the engine never stops: small ones only shorten the wait for the kill.
    run = run_one("sleepy", 5, "first", time_limit=0.05, grace=0.1)
    assert time.perf_counter() - started < 30
    assert run.status == TIMEOUT and "killed" in run.message
    assert run.peak_rss_mb is not None and run.peak_rss_mb > 0


def test_errors_and_crashes_in_the_child_are_reported(test_engines: None) -> None:
    broken = run_one("broken", 5, "count", time_limit=10)
    assert broken.status == ERROR and "RuntimeError: boom" in broken.message
    vanished = run_one("vanishing", 5, "count", time_limit=10)
    assert vanished.status == ERROR and "exit code 3" in vanished.message


def test_disagreement_is_marked() -> None:
    runs = [
        Run("a", 8, "count", OK, stats=Stats(solutions=92)),
        Run("b", 8, "count", OK, stats=Stats(solutions=91)),
    ]
    mark_agreement(runs)
    assert [run.agrees for run in runs] == [False, False]


# -- reports ----------------------------------------------------------------------------------


SAMPLE = [
    Run(
        "reference",
        4,
        "count",
        OK,
        wall_time=0.001,
        peak_rss_mb=50,
        stats=Stats(solutions=2, branches=16),
    ),
    Run("reference", 5, "count", TIMEOUT, wall_time=1.0, stats=Stats(solutions=7)),
    Run("reference", 6, "count", SKIPPED, message="timed out at n=5"),
    Run("mip", 4, "count", UNSUPPORTED, message="cannot count"),
]


def test_csv_and_json_keep_every_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    write_csv(SAMPLE, tmp_path / "r.csv")
    with (tmp_path / "r.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [(row["engine"], row["n"], row["status"]) for row in rows] == [
        ("reference", "4", OK),
        ("reference", "5", TIMEOUT),
        ("reference", "6", SKIPPED),
        ("mip", "4", UNSUPPORTED),
    ]
    assert rows[0]["solutions"] == "2" and rows[1]["solutions"] == ""
    # the timed-out run's partial count has its own column, never the answer's
    assert [row["lower_bound"] for row in rows] == ["", "7", "", ""]
    write_json(SAMPLE, tmp_path / "r.json", {"task": "count"})
    document = json.loads((tmp_path / "r.json").read_text())
    assert document["settings"] == {"task": "count"} and len(document["value"]) == 4


def test_plot_marks_timeouts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    plot(SAMPLE, tmp_path / "p.png", time_limit=1.0)
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


def test_plot_without_matplotlib_says_how_to_get_it(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(PlotUnavailableError, match=r"pip install '\.\[plot\]'"):
        plot(SAMPLE, tmp_path / "p.png", time_limit=1.0)


# -- command line --------------------------------------------------------------------------


def test_cli_compare_writes_csv_json_and_plot(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out = tmp_path / "R"
    engines_flag = ["--engines", "reference,pyconstraint:solver=recursive"]
    code = main(
        [
            "compare",
            "--n",
            "4..6",
            *engines_flag,
            "--time-limit",
            "20",
            "--repeat",
            "1",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "reference" in printed and "pyconstraint:solver=recursive" in printed
    assert {p.name for p in out.iterdir()} == {"results.csv", "results.json", "results.png"}
    runs = json.loads((out / "results.json").read_text())["value"]
    assert [(r["engine"], r["n"], r["solutions"]) for r in runs] == [
        ("reference", 4, 2),
        ("reference", 5, 10),
        ("reference", 6, 4),
        ("pyconstraint:solver=recursive", 4, 2),
        ("pyconstraint:solver=recursive", 5, 10),
        ("pyconstraint:solver=recursive", 6, 4),
    ]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--n", "9..4"], "empty range"),
        (["--n", "x"], "cannot read"),
        (["--n", "4..5", "--engines", "reference,bogus"], "unknown engine 'bogus'"),
        (["--n", "4..5", "--task", "solve"], "unknown task 'solve'"),
        (["--n", "4..5", "--engines", "mip:depth=3"], "has no option 'depth'"),
    ],
)
def test_cli_compare_bad_input_is_one_line_exit_2(argv: list[str], says: str, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["compare", *argv]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
