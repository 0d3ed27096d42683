"""Issue 36: a class list in (``--roster``), a gradebook out (``--export canvas|moodle``).

In-process: a roster read as LMSs export it (Canvas's gradebook with its "Points
Possible" line, a Moodle participants list with first and last names, a BOM);
submissions matched by the names Moodle and Canvas downloads give them; a roster
student with nothing handed in is a row, a submission on no line is flagged; the
Canvas and Moodle files have the columns their imports read. From the command line,
issue 36's "done when": ``grade FOLDER --roster R.csv --export canvas F.csv``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import cp_queens.grading.points as points
from cp_queens.grading.intake.roster import RosterError, place, read_roster
from cp_queens.grading.marking.export import CANVAS_COLUMNS, export
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.rubric import load
from cp_queens.grading.sandbox import room as sandbox_room
from tests.helpers import run_cli

ISOLATION = [] if sandbox_room.unavailable() is None else ["--isolation", "none"]

CANVAS_ROSTER = (
    "\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Week 1 (101)\n"
    "    Points Possible,,,,,10\n"
    '"Lovelace, Ada",201,S001,ada,Lab A,9\n'
    '"Turing, Alan",202,S002,alan,Lab A,\n'
    '"Hopper, Grace",203,S003,grace,Lab B,\n'
    "Noether Emmy,204,S004,emmy,Lab B,\n"
)


def result(student: str, student_id: str = "", got: int = 3) -> StudentResult:
    sizes = [SizeResult(n, "ok", points.exact(1 if n <= got else 0), 1) for n in (1, 2, 3)]
    return StudentResult(student, Path(f"{student}.py"), tuple(sizes), student_id=student_id)


def read_csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def test_a_roster_is_read_as_lms_export_it(tmp_path: Path) -> None:
    path = tmp_path / "canvas.csv"
    path.write_text(CANVAS_ROSTER, encoding="utf-8")
    roster = read_roster(path)
    assert [(s.id, s.name) for s in roster.students] == [
        ("201", "Lovelace, Ada"), ("202", "Turing, Alan"), ("203", "Hopper, Grace"),
        ("204", "Noether Emmy"),
    ]  # fmt: skip
    assert roster.id_column == "ID"
    moodle = tmp_path / "moodle.csv"
    moodle.write_text(
        "First name,Last name,ID number,Email address\nAda,Lovelace,s1,ada@x\n", encoding="utf-8"
    )
    assert [(s.id, s.name) for s in read_roster(moodle).students] == [("s1", "Ada Lovelace")]
    for text, said in [
        ("name\nada\n", "line 1: the header needs an id column"),
        ("id,name\n1,ada\n1,bob\n", "line 3: 1 is on the roster twice (line 2)"),
        ("id,name\n1,\n", "line 2: no name"),
    ]:
        path.write_text(text, encoding="utf-8")
        with pytest.raises(RosterError, match=said.replace("(", r"\(").replace(")", r"\)")):
            read_roster(path)


def test_submissions_are_matched_as_downloads_name_them(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(CANVAS_ROSTER, encoding="utf-8")
    roster = read_roster(path)
    results = [
        result("lovelaceada", "201"),  # Canvas: lastfirst and the user id
        result("Alan Turing", "98765", got=2),  # Moodle: the full name (its id is another)
        result("emmy"),  # a file named by the SIS login id
        result("mallory"),  # on no line
    ]
    placed = place(results, roster, load())
    rows = {(r.student, r.student_id): r for r in placed}
    assert list(rows) == [
        ("Lovelace, Ada", "201"), ("Turing, Alan", "202"), ("Hopper, Grace", "203"),
        ("Noether Emmy", "204"), ("mallory", ""),
    ]  # fmt: skip
    grace = rows[("Hopper, Grace", "203")]
    assert (grace.status, grace.points, grace.max_points) == ("missing", 0, 3)
    assert grace.notes == ("nothing handed in",)
    assert rows[("mallory", "")].status == "graded, not on the roster"

    canvas = tmp_path / "F.csv"
    done = export(placed, roster, "canvas", canvas, "Week 1 (101)")
    assert done.blank == ["mallory: graded, not on the roster"] and done.marks == 4
    assert "Points Possible for 'Week 1 (101)' is 10" in done.warnings[0]
    lines = read_csv(canvas)
    assert lines[0] == [*CANVAS_COLUMNS, "Week 1 (101)"]
    assert lines[1][0].strip() == "Points Possible" and lines[1][-1] == "10"  # Canvas's own
    assert [line[1] for line in lines[2:]] == ["201", "202", "203", "204"]
    assert [line[-1] for line in lines[2:]] == ["3", "2", "0", "3"]
    assert lines[2][2:5] == ["S001", "ada", "Lab A"]
    moodle = tmp_path / "M.csv"
    export(placed, roster, "moodle", moodle, "Week 1")
    assert read_csv(moodle) == [
        ["ID number", "Full name", "Week 1"], ["S001", "Lovelace, Ada", "3"],
        ["S002", "Turing, Alan", "2"], ["S003", "Hopper, Grace", "0"],
        ["S004", "Noether Emmy", "3"],
    ]  # fmt: skip


def test_grade_with_a_roster_and_a_canvas_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 36's "done when": a row for every roster student (one with no submission
    included), and a Canvas file with every roster id. The command runs in this process
    (its parsing, grading and writing are under test, not a fresh interpreter's start-up);
    the two submissions still run in their rooms."""
    folder = tmp_path / "class"
    (folder / "Ada Lovelace_501_assignsubmission_file_").mkdir(parents=True)
    right = "def model(n):\n    return [[0]] if n == 1 else []\n"
    (folder / "Ada Lovelace_501_assignsubmission_file_" / "queens.py").write_text(right)
    (folder / "turingalan_202_9001_queens.py").write_text(right)
    roster = tmp_path / "R.csv"
    roster.write_text(CANVAS_ROSTER, encoding="utf-8")
    out, gradebook = tmp_path / "out", tmp_path / "F.csv"
    argv = ["grade", str(folder), "--n", "1..3", "--out", str(out), "--roster", str(roster)]
    argv += ["--export", "canvas", str(gradebook), *ISOLATION]
    code, _, err = run_cli(capsys, *argv)
    assert code == 0, err
    with open(out / "marks.csv", encoding="utf-8", newline="") as handle:
        rows = {row["id"]: row for row in csv.DictReader(handle)}
    assert set(rows) == {"201", "202", "203", "204"}
    assert rows["201"]["points"] == rows["202"]["points"] == "3"
    assert rows["203"]["status"] == "missing" and rows["203"]["points"] == "0"
    lines = read_csv(gradebook)
    assert [line[1] for line in lines[2:]] == ["201", "202", "203", "204"]
    assert [line[-1] for line in lines[2:]] == ["3", "3", "0", "0"]


def test_export_needs_a_roster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.py").write_text("def model(n):\n    return []\n")
    code, _, err = run_cli(capsys, "grade", str(tmp_path), "--export", "canvas", "F")
    assert code == 2
    assert "--export: needs --roster" in err
