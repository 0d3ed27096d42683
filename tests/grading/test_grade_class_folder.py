"""``cp-queens grade``: each submission runs apart and limited; only its own points suffer.

The fast tests check the feedback patterns in-process and grade a tiny class
(a right model, one that ends the process, one that leaves a process behind
outside its process group, one that looks for the grader's modules). The
slow test grades the sample class of ``examples/assignment`` as a teacher
would, from the command line.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import psutil
import pytest

from cp_queens.course import check_model
from cp_queens.grading import sandbox
from cp_queens.grading.grade import grade
from cp_queens.grading.intake.discover import find_submissions, notebook_code
from cp_queens.grading.marking.marks import COLUMNS, feedback, write_feedback, write_marks
from cp_queens.grading.results import GradeError
from cp_queens.grading.rubric import RubricError, load
from cp_queens.grading.sandbox import TOKEN_VARIABLE
from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.grading.sandbox import watch as sandbox_watch
from tests.helpers import ROOT, refusal
from tests.hostile import RIGHT

ASSIGNMENT = ROOT / "examples" / "assignment"


def backtrack(n: int) -> list[list[int]]:
    namespace: dict = {}
    exec(RIGHT, namespace)
    return namespace["model"](n)


# Submissions inherit the grader's environment (all but CP_QUEENS_* variables): this marks
# the ones this test process started. Without it a grading run of another xdist worker, or
# of another test session on the machine, still running its submissions looks like ours
# left behind.
OWNER_VARIABLE = "GRADE_TEST_OWNER"


@pytest.fixture(autouse=True)
def _mark_our_submissions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OWNER_VARIABLE, str(os.getpid()))


#: Why a sandbox cannot be made on this machine (None: it can).
NO_SANDBOX = sandbox_room.unavailable()


@pytest.fixture(autouse=True)
def _without_bubblewrap_grade_unisolated(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where bubblewrap cannot run (an unprivileged container), these tests of the judging
    grade with ``isolation = "none"``; tests/grading/test_room_attacks.py needs the sandbox."""
    if NO_SANDBOX is None:
        return
    real_run = sandbox.run
    monkeypatch.setattr(sandbox, "check_isolation", lambda isolation: None)
    monkeypatch.setattr(
        sandbox,
        "run",
        lambda source, sizes, limits, beside=None: real_run(
            source, sizes, dataclasses.replace(limits, isolation="none"), beside
        ),
    )


#: The PID namespaces of this test's grading runs, each with when its run ended.
RUNS: dict[str, float] = {}


@pytest.fixture(autouse=True)
def _record_the_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    RUNS.clear()
    real_run = sandbox.run

    def run(
        source: str, sizes: list[int], limits: sandbox.Limits, beside: Any = None, **more: Any
    ) -> sandbox.Outcome:
        outcome = real_run(source, sizes, limits, beside, **more)
        RUNS.update(dict.fromkeys(outcome.namespaces, outcome.ended))
        return outcome

    monkeypatch.setattr(sandbox, "run", run)


def graders_processes() -> list[int]:
    """Processes started by a grading run of this test process and still alive (there
    should be none): in the PID namespaces of its sandboxes (started before their run
    ended: a dead namespace's number is given to a new one), or, unisolated, carrying
    the run's token and this test process's mark in their environment."""
    left = [
        pid
        for space, ended in RUNS.items()
        for pid in sandbox_watch.members({space}, started_before=ended)
    ]
    for process in psutil.process_iter():
        try:
            environment = process.environ()
            if TOKEN_VARIABLE in environment and environment.get(OWNER_VARIABLE) == str(
                os.getpid()
            ):
                left.append(process.pid)
        except (psutil.Error, OSError):
            continue
    return left


# -- the feedback patterns (check_model, in this process) -----------------------------------


def test_one_board_returned_for_every_solution_is_named() -> None:
    def dict_keys(n: int) -> list[list[int]]:
        return [list(dict.fromkeys(range(n))) for _ in backtrack(n)]

    report = check_model(dict_keys, n_max=8)
    assert report.rows[7].verdict() == "92 missing, 92 invalid"
    hints = [line for line in report.details() if line.startswith("hint")]
    assert hints[0].startswith("hint (n=4): all 2 returned boards are the same board [0, 1, 2, 3]")
    assert "dict" in hints[0]
    assert len(hints) == 1  # said once, not once per size


def test_the_missing_mirror_half_is_named() -> None:
    def half(n: int) -> list[list[int]]:
        return [q for q in backtrack(n) if q[0] < n / 2]

    report = check_model(half, n_max=8)
    assert report.rows[7].missing == 46
    assert any("mirror image" in hint for row in report.rows for hint in row.hints)
    # A model missing solutions at random gets no such hint.
    # (At n = 4, one of the two mirror-image solutions dropped is the same pattern.)
    report = check_model(lambda n: backtrack(n)[1:], n_min=5, n_max=8, name="drops_one")
    assert not any("mirror" in hint for row in report.rows for hint in row.hints)


def test_one_based_columns_and_swapped_pairs_are_named() -> None:
    report = check_model(lambda n: [[c + 1 for c in q] for q in backtrack(n)], n_max=6)
    assert any("count from 1" in hint for hint in report.rows[5].hints)
    swapped = check_model(
        lambda n: [[(c, r) for r, c in enumerate(q)] for q in backtrack(n)], n_max=6
    )
    assert any("rows and columns are swapped" in hint for hint in swapped.rows[5].hints)
    pairs = check_model(lambda n: [list(enumerate(q)) for q in backtrack(n)], n_max=6, name="pairs")
    assert any("(row, column) pairs" in hint for hint in pairs.rows[5].hints)
    assert not any("swapped" in hint for hint in pairs.rows[5].hints)


def test_every_solution_twice_is_named() -> None:
    report = check_model(lambda n: backtrack(n) * 2, n_max=6, name="twice")
    assert "every solution you found is returned 2 times" in report.rows[5].hints


# -- the rubric and the submissions ---------------------------------------------------------


def test_the_default_rubric_and_an_override(tmp_path: Path) -> None:
    default = load()
    assert default.points_for(1) == 1 and default.points_for(9) == 2
    assert default.limits.cpu_seconds == 5 and default.limits.memory_mb == 512
    mine = tmp_path / "rubric.toml"
    mine.write_text('[points]\n"9" = 10\n[limits]\ncpu_seconds = 20\n', encoding="utf-8")
    rubric = load(mine)
    assert rubric.points_for(9) == 10 and rubric.points_for(8) == 2
    assert rubric.limits.cpu_seconds == 20 and rubric.limits.memory_mb == 512


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[limits]\ncpu_second = 3\n", "limits.cpu_second: unknown"),
        ("[penalties]\ninvalid = 2\n", "penalties.invalid: must be 0..1"),
        ("[points]\nnine = 1\n", "points.nine"),
        ("[grades]\n", "unknown table [grades]"),
        ("[limits\n", "not valid TOML"),
    ],
)
def test_a_wrong_rubric_is_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    assert message in refusal(tmp_path / "rubric.toml", text, load, RubricError)


def test_a_notebook_is_read_as_its_code_cells(tmp_path: Path) -> None:
    notebook = {
        "cells": [
            {"cell_type": "markdown", "source": "def model(n): return None"},
            {"cell_type": "code", "source": ["%timeit 1\n", "x = 1"]},
            {"cell_type": "code", "source": "def model(n):\n    return []"},
        ],
        "nbformat": 4,
    }
    path = tmp_path / "kim.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    code = notebook_code(path)
    assert code == "# %timeit 1\nx = 1\n\ndef model(n):\n    return []\n"
    (tmp_path / "bad.ipynb").write_text("{}", encoding="utf-8")
    with pytest.raises(GradeError, match=r"bad.ipynb: not a Jupyter notebook"):
        notebook_code(tmp_path / "bad.ipynb")
    # In a folder, a notebook that is not one is that student's row, not the class's end.
    refused = {s.student: s.refused for s in find_submissions(tmp_path)}
    assert refused["kim"] is None
    assert "bad.ipynb: not a Jupyter notebook" in (refused["bad"] or "")


# -- a tiny class, graded for real ----------------------------------------------------------

TINY = {
    "right.py": RIGHT,
    "quits.py": "import os\ndef model(n):\n    if n == 5:\n        os._exit(3)\n    return []\n",
    "lingers.py": RIGHT
    + "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(300)\n",
    "spies.py": RIGHT.replace(
        "    found = []",
        "    import sys\n"
        "    assert not [m for m in sys.modules if m.startswith('cp_queens')], 'grader seen'\n"
        "    found = []",
    ),
    "nothing.py": "x = 1\n",
    "bombs.py": "import os\ndef model(n):\n    while True:\n        os.fork()\n",
}


def test_a_tiny_class_costs_each_only_its_own_points(tmp_path: Path) -> None:
    folder = tmp_path / "subs"
    folder.mkdir()
    for name, source in TINY.items():
        (folder / name).write_text(source, encoding="utf-8")
    results = {r.student: r for r in grade(folder, [1, 4, 5])}
    assert {name: r.statuses() for name, r in results.items()} == {
        "bombs": ["error", "error", "error"],
        "lingers": ["not run", "not run", "not run"],  # its fork fails: no new processes
        "nothing": ["not run", "not run", "not run"],
        "quits": ["1 missing", "2 missing", "exit"],
        "right": ["ok", "ok", "ok"],
        "spies": ["ok", "ok", "ok"],  # no cp_queens module in the student's process
    }
    assert results["right"].points == results["right"].max_points == 5
    assert results["quits"].points == 0
    assert "exit code 3" in (results["quits"].sizes[2].problem or "")
    assert "defines no function model(n)" in feedback(results["nothing"])
    assert "submissions may not start processes" in feedback(results["bombs"])
    assert graders_processes() == []
    write_marks(list(results.values()), tmp_path / "marks.csv", load())
    with (tmp_path / "marks.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == [*COLUMNS, "n=1", "n=4", "n=5"]
    right = next(row for row in rows if row[0] == "right")
    assert right[:4] == ["right", "5", "5", "5"] and right[-3:] == ["ok", "ok", "ok"]
    assert len(write_feedback(list(results.values()), tmp_path / "fb")) == 6


def test_a_process_left_behind_outside_the_group_is_killed(tmp_path: Path) -> None:
    # With processes allowed, the final sweep finds the one that left the process group.
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "lingers.py").write_text(TINY["lingers.py"], encoding="utf-8")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text("[limits]\nallow_processes = true\n", encoding="utf-8")
    [result] = grade(folder, [4], rubric=rubric)
    assert result.statuses() == ["ok"]
    assert graders_processes() == []


# -- the sample class of examples/assignment ------------------------------------------------

#: The marks a teacher gives the sample class (default rubric, n = 1..8, 13 points).
SAMPLE_MARKS = {
    "ada": "13",  # right
    "ben": "8.35",  # the mirror half missing: about half of each size with solutions
    "cleo": "3",  # one board (a dict's keys) returned again and again: n = 1..3 only
    "dan": "7.5",  # every solution twice: half of each size
    "eve": "2",  # 1-based columns: right only where there is nothing to return
    "finn": "7",  # endless loop from n = 6: what it did before counts
    "gus": "0",  # memory hog
    "hana": "9",  # IndexError from n = 7 on
    "ivo": "11",  # sys.exit for n = 2 and 3
    "jo": "11",  # garbage, a stray process; its forged result for n = 8 costs that size
    "kim": "2",  # notebook, (column, row) pairs
    "kai": "0",  # a fork bomb: its first fork fails
    "lou": "1.36",  # no diagonal checked: every permutation, 92 right of 40,320 at n = 8
    "max": "2.82",  # one diagonal forgotten: 92 right of 2,113 at n = 8
}


@pytest.mark.slow
def test_the_sample_class_gets_the_marks_a_teacher_would_give(tmp_path: Path) -> None:
    out = tmp_path / "grades"
    result = subprocess.run(
        [
            *(sys.executable, "-m", "cp_queens", "grade", str(ASSIGNMENT / "submissions")),
            *("--n", "1..8", "--out", str(out)),
            *(("--isolation", "none") if NO_SANDBOX else ()),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader((out / "marks.csv").open(encoding="utf-8")))
    assert {row[0]: row[1] for row in rows[1:]} == SAMPLE_MARKS
    assert {row[0]: row[2] for row in rows[1:]} == dict.fromkeys(SAMPLE_MARKS, "13")
    statuses = {row[0]: row[len(COLUMNS) :] for row in rows[1:]}
    assert statuses["gus"] == ["memory"] + ["not run"] * 7
    # Its endless loop from n = 6 on stops at 5 s of CPU; on a machine so loaded that it
    # gets less than a third of a core, at the 15 s of wall time first.
    assert statuses["finn"][5] in ("cpu limit", "timeout")
    assert statuses["finn"][6:] == ["not run", "not run"]
    assert statuses["ivo"][1:3] == ["exit", "exit"]
    assert sorted(p.stem for p in (out / "feedback").glob("*.md")) == sorted(SAMPLE_MARKS)
    text = {p.stem: p.read_text(encoding="utf-8") for p in (out / "feedback").glob("*.md")}
    assert "all 2 returned boards are the same board" in text["cleo"]
    assert "mirror image" in text["ben"]
    assert "count from 1" in text["eve"]
    assert "rows and columns are swapped" in text["kim"]
    assert "too slow: stopped after 5." in text["finn"]  # CPU decides, never the wall clock
    assert "more than 512 MB" in text["gus"]
    assert "IndexError" in text["hana"]
    assert "sys.exit('no solution!')" in text["ivo"]
    assert "\x1b" not in text["jo"] and "garbage" in text["jo"]
    assert "student" in result.stdout and "ada" in result.stdout  # the summary table
    assert graders_processes() == []


def _grade_class(tmp_path: Path, sources: dict[str, str], limits: str) -> dict[str, Any]:
    folder = tmp_path / "subs"
    folder.mkdir()
    for name, source in sources.items():
        (folder / name).write_text(source, encoding="utf-8")
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(f"[limits]\n{limits}\n", encoding="utf-8")
    return {r.student: r for r in grade(folder, [4, 5], rubric=rubric, jobs=4)}


def test_each_limit_stops_only_its_own_submission(tmp_path: Path) -> None:
    """One class, one limit reached by each of three submissions (CPU, memory, the wall
    clock of a sleeper), and a right model beside them that loses nothing. One class
    rather than one per limit: the sleeper's wait overlaps the looper's second of CPU
    (the two classes cost 1.4 s of waiting more). 128 MB of memory: the hog fills it
    for half the CPU 256 MB took."""
    # The wall-clock allowance counts idle time only (neither running nor waiting for a
    # CPU): a looping submission that gets a fraction of a core on a loaded machine is
    # never idle, and is still stopped by its CPU limit. The clock's backstop is the idle
    # second plus 3 x the CPU limit x the machine's crowding (4 rooms on 2 cores: 7 s or
    # more): the looper's CPU second needs a seventh of a core.
    results = _grade_class(
        tmp_path,
        {
            "loops.py": "def model(n):\n    while True:\n        pass\n",
            "hogs.py": (
                "def model(n):\n    x = []\n    while True:\n        x.append(bytes(1 << 24))\n"
            ),
            "sleeps.py": "import time\ndef model(n):\n    time.sleep(60)\n",
            "right.py": RIGHT,
        },
        "cpu_seconds = 1\nwall_seconds = 1\nmemory_mb = 128",
    )
    assert {name: r.statuses() for name, r in results.items()} == {
        "hogs": ["memory", "not run"],  # killed whole: its resident memory passed the limit
        "loops": ["cpu limit", "not run"],
        "right": ["ok", "ok"],
        "sleeps": ["timeout", "not run"],
    }
    # The watcher polls, so the CPU it reports may pass the limit by a poll or two; never
    # less than the limit, never a second more.
    used = re.search(
        r"too slow: stopped after (\d+\.\d+) s of CPU \(every thread and process, measured\), "
        r"the limit is 1 s",
        feedback(results["loops"]),
    )
    assert used is not None and 1.0 <= float(used.group(1)) < 2.0
    assert "more than 128 MB" in feedback(results["hogs"])
    assert "spent 1 s neither computing nor waiting for a CPU" in feedback(results["sleeps"])
    assert graders_processes() == []
