"""``cp_queens.grading.grade_class`` is the class door: a library call grades a class with
a roster, overrides and an export exactly as ``cp-queens grade FOLDER`` does (issue 43).

Both grade the same folder; their marks.csv, feedback files and gradebook file are the
same, line for line, once the times measured (which differ between two runs) are masked.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from cp_queens import grading
from cp_queens.grading.grade import Export
from cp_queens.grading.sandbox import room as sandbox_room
from tests.helpers import run_cli

ISOLATION = None if sandbox_room.unavailable() is None else "none"

RIGHT = """\
def model(n):
    def place(row, cols):
        if row == n:
            yield list(cols)
            return
        for c in range(n):
            if all(c != q and abs(c - q) != row - r for r, q in enumerate(cols)):
                yield from place(row + 1, cols + [c])
    return list(place(0, []))
"""
NO_DIAGONALS = "from itertools import permutations\n\ndef model(n):\n    return [list(p) for p in permutations(range(n))]\n"  # noqa: E501

ROSTER = "id,name\ns1,Ada Lovelace\ns2,Alan Turing\ns3,Grace Hopper\n"
OVERRIDES = "student,points,reason\nalan turing,5,a mark agreed in person\n"

#: A time measured (seconds, CPU), a memory measured: not the same in two runs.
MEASURED = re.compile(r"\d+(\.\d+)?( ?(s|MB measured))\b")
#: marks.csv's columns of times measured.
TIMES = ("seconds", "cpu_seconds")


def masked(text: str) -> str:
    lines = list(csv.reader(io.StringIO(text)))
    if lines and all(name in lines[0] for name in TIMES):  # marks.csv: its times left out
        kept = [i for i, name in enumerate(lines[0]) if name not in TIMES]
        text = "\n".join(",".join(line[i] for i in kept) for line in lines)
    return MEASURED.sub("<measured>", text)


def files(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): masked(path.read_text(encoding="utf-8"))
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix in (".csv", ".md")
    }


@pytest.fixture
def class_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "Ada Lovelace.py").write_text(RIGHT, encoding="utf-8")
    (folder / "Alan Turing.py").write_text(NO_DIAGONALS, encoding="utf-8")
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    (tmp_path / "overrides.csv").write_text(OVERRIDES, encoding="utf-8")
    return folder


def test_grade_class_grades_a_class_with_roster_overrides_and_export_as_the_cli(
    class_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    here = class_folder.parent
    report = grading.grade_class(
        class_folder,
        range(1, 6),
        roster=here / "roster.csv",
        overrides=here / "overrides.csv",
        export=Export("moodle", here / "library.csv"),
        out=here / "library",
        isolation=ISOLATION,
    )
    assert [(r.student, r.status) for r in report.results] == [
        ("Ada Lovelace", "graded"),
        ("Alan Turing", "graded"),
        ("Grace Hopper", "missing"),
    ]
    marks = {r.student: str(r.points) for r in report.results}
    assert marks == {"Ada Lovelace": "7", "Alan Turing": "5", "Grace Hopper": "0"}
    assert report.marks == here / "library" / "marks.csv" and not report.interrupted
    flags = ["--isolation", ISOLATION] if ISOLATION else []
    code, _, err = run_cli(
        capsys,
        "grade",
        str(class_folder),
        "--n",
        "1..5",
        "--roster",
        str(here / "roster.csv"),
        "--overrides",
        str(here / "overrides.csv"),
        "--export",
        "moodle",
        str(here / "cli.csv"),
        "--out",
        str(here / "cli"),
        *flags,
    )
    assert code == 0, err
    assert files(here / "library") == files(here / "cli")
    assert masked((here / "library.csv").read_text()) == masked((here / "cli.csv").read_text())
    assert len(files(here / "library")) == 4  # marks.csv and three feedback files


def test_grade_class_checks_before_anything_runs(class_folder: Path) -> None:
    here = class_folder.parent
    with pytest.raises(grading.grade.GradeError, match="an export needs a roster"):
        grading.grade_class(class_folder, [1], export=Export("moodle", here / "x.csv"))
    (here / "overrides.csv").write_text("student,points,reason\nnobody,3,typo\n")
    with pytest.raises(Exception, match="nobody"):
        grading.grade_class(class_folder, [1], overrides=here / "overrides.csv", out=here / "never")
    assert not (here / "never").exists()  # refused before the output folder was made
