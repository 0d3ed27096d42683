"""``compare`` tells only what its numbers support: each cell repeated (median and
spread), each engine's method named, a pool's start billed apart from the solve, and the
finished runs kept when Ctrl-C stops it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cp_queens import Problem
from cp_queens.budget import Budget, Clock
from cp_queens.compare import ERROR, OK, TIMEOUT, Run, as_answer, compare, median_run
from cp_queens.compare.report import table
from cp_queens.compare.style import ENGINES, style
from cp_queens.engines.cpsat import CpSatEngine
from cp_queens.parallel.local import started_pool


def test_a_cell_repeated_shows_the_median_and_the_spread() -> None:
    (run,) = compare(["reference"], [5], "count", time_limit=20, repeat=2)
    assert run.status == OK and run.solutions == 10
    assert run.repeats == 2 and len(run.wall_times) == 2
    assert run.wall_time_min <= run.wall_time <= run.wall_time_max
    record = as_answer([run], {}).to_json()["value"][0]
    assert record["repeats"] == 2 and record["wall_time_min"] <= record["wall_time_max"]


def test_repeats_that_disagree_or_stop_make_the_cell_say_so() -> None:
    fine = Run("x", 8, "count", OK, wall_time=0.1, stats=_found(92))
    other = Run("x", 8, "count", OK, wall_time=0.2, stats=_found(91))
    late = Run("x", 8, "count", TIMEOUT, wall_time=1.0, stats=_found(50))
    assert median_run([fine, other]).status == ERROR
    assert median_run([fine, late]).status == TIMEOUT


def _found(solutions: int):  # type: ignore[no-untyped-def]
    from cp_queens.stats import Stats

    return Stats(solutions=solutions)


def test_the_table_names_the_method_and_the_pool_start_apart() -> None:
    runs = [
        Run("cpsat", 9, "count", OK, wall_time=0.2, method="plain", stats=_found(352)),
        Run("cpsat", 10, "count", OK, wall_time=0.3, method="fast", pool_start=1.5),
    ]
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(table(runs))
    text = console.export_text()
    assert "cpsat (plain)" in text and "cpsat (fast)" in text and "pool s" in text


def test_each_engine_has_its_own_colour_and_marker_in_every_plot() -> None:
    assert len({look.colour for look in ENGINES.values()}) == len(ENGINES)
    assert style("cpsat") == ENGINES["cpsat"]  # not its place in any list
    levels = [style(f"propagate:consistency={c}") for c in ("none", "forward", "arc", "alldiff")]
    assert len({look.colour for look in levels}) == len({look.marker for look in levels}) == 4
    others = {look.colour for name, look in ENGINES.items() if name != "propagate"}
    assert not others & {look.colour for look in levels}  # no level wears another engine's
    solvers = [
        style(f"cpmpy:solver={s}") for s in ("choco", "exact", "pumpkin", "pysat", "ortools")
    ]
    assert len({look.colour for look in solvers}) == len({look.marker for look in solvers}) == 5
    methods = [style("cpsat:method=plain"), style("cpsat:method=fast"), ENGINES["cpsat"]]
    assert len({look.colour for look in methods}) == 3 and not others & {methods[0].colour}
    # a note in brackets (lesson 08: the task) keeps the line's look
    assert style("propagate:consistency=arc (first)") == style("propagate:consistency=arc")


def test_cpsat_names_its_method_and_bills_its_pool_apart() -> None:
    engine = CpSatEngine()
    small = engine.count(Problem(9))
    assert small.stats.extra["method"] == "plain" and small.stats.pool_start is None
    large = engine.count(Problem(10), budget=Budget.of(workers=2))
    assert large.value == 724 and large.stats.extra["method"] == "fast"
    assert large.stats.pool_start is not None
    assert 0 < large.stats.pool_start <= large.stats.wall_time


def test_a_time_limit_covers_the_pool_start() -> None:
    """A limit too short for the workers to start: the call stops, incomplete, and says
    how long the start took (not 0 solutions seconds after the limit)."""
    answer = CpSatEngine().count(Problem(12), budget=Budget.of(time_limit=0.001, workers=2))
    assert not answer.complete and answer.stats.extra["method"] == "fast"
    assert answer.stats.pool_start is not None


def test_a_pool_whose_clock_ran_out_is_ended() -> None:
    pool, seconds = started_pool(2, Clock.start(0.0))
    assert pool is None and seconds >= 0
    pool, seconds = started_pool(2, Clock.start(60.0))
    assert pool is not None
    try:
        assert len(pool._processes) == 2  # every worker started before any task
    finally:
        pool.shutdown()


@pytest.mark.slow
def test_compare_json_names_each_method_and_keeps_the_pool_start_out_of_the_solve() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cp_queens", "compare", "--n", "9,10", "--engines",
         "reference,cpsat", "--repeat", "2", "--format", "json"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["value"]
    cpsat = {row["n"]: row for row in rows if row["engine"] == "cpsat"}
    assert cpsat[9]["method"] == "plain" and cpsat[10]["method"] == "fast"
    assert cpsat[10]["pool_start"] > 0
    for row in rows:
        assert row["repeats"] == 2
        assert row["wall_time_min"] <= row["wall_time"] <= row["wall_time_max"]


def _children(pid: int) -> set[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return {int(child) for child in listing.read().split()}
    except OSError:
        return set()


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_runs(tmp_path: Path) -> None:
    """A real SIGINT to the process group, once three runs have started (two finished):
    their table is printed, the files are written with ``complete: false``, exit 130."""
    out = tmp_path / "report"
    process = subprocess.Popen(
        [sys.executable, "-m", "cp_queens", "compare", "--n", "4..40", "--engines",
         "reference", "--repeat", "1", "--time-limit", "60", "--no-skip", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    seen: set[int] = set()
    deadline = time.monotonic() + 300
    while len(seen) < 3 and process.poll() is None and time.monotonic() < deadline:
        seen |= _children(process.pid)
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted after" in stderr
    document = json.loads((out / "results.json").read_text())
    assert document["complete"] is False and document["reason"] == "stopped"
    finished = document["partial"]
    assert len(finished) >= 2 and [row["n"] for row in finished[:2]] == [4, 5]
    assert (out / "results.csv").read_text().count("\n") == len(finished) + 1
    assert "interrupted" in stdout and " 4 " in stdout
