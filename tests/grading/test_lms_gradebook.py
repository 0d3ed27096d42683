"""Issue 45: the gradebook round trip, keyed by the LMS's ids, never a wrong mark.

Classes laid out as Moodle 4's "Download all submissions" and Canvas's "Download
Submissions" lay them out (namesakes, accents, multi-word names, a late and an
anonymous name, a student with nothing handed in, a submission on no roster line),
with each LMS's own exports as rosters, as they come.
"""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest

import cp_queens.grading.points as points
from cp_queens.grading.intake.lms import name_keys, parse_download
from cp_queens.grading.intake.roster import AMBIGUOUS, place, read_rosters
from cp_queens.grading.marking.export import COMMENTS, ExportError, column, export
from cp_queens.grading.marking.overrides import (
    OverrideError,
    apply_overrides,
    read_for_class,
    read_overrides,
)
from cp_queens.grading.marking.uploads import feedback_zip
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.rubric import load
from cp_queens.grading.sandbox import room as sandbox_room
from tests.helpers import run_cli

ISOLATION = [] if sandbox_room.unavailable() is None else ["--isolation", "none"]

#: Every solution for n <= 4 (5 points of 5 over --n 1..4), and one that knows only n = 1.
RIGHT = (
    "from itertools import permutations\n\n\ndef model(n):\n"
    "    return [list(p) for p in permutations(range(n))\n"
    "            if len({p[i] + i for i in range(n)}) == n == len({p[i] - i for i in range(n)})]\n"
)
PARTIAL = "def model(n):\n    return [[0]] if n == 1 else []\n"

#: Moodle's gradebook export (Grades > Export > Plain text), one ID number left blank.
MOODLE_GRADEBOOK = (
    '"First name","Last name","ID number",Institution,Department,"Email address",'
    '"Assignment: Queens (Real)","Last downloaded from this course"\n'
    "Wei,Zhang,s2001,Uni,CS,wei.zhang1@uni.example,-,1760000000\n"
    "Wei,Zhang,s2002,Uni,CS,wei.zhang2@uni.example,-,1760000000\n"
    '"María Lucía","Fernández García",s2003,Uni,CS,mlfg@uni.example,-,1760000000\n'
    '"Văn Anh",Nguyễn,s2004,Uni,CS,vanh@uni.example,-,1760000000\n'
    "Min-jun,Kim,s2005,Uni,CS,minjun@uni.example,-,1760000000\n"
    "Ada,Lovelace,s2006,Uni,CS,ada@uni.example,-,1760000000\n"
    "Grace,Hopper,,Uni,CS,grace@uni.example,-,1760000000\n"
)

#: Moodle's grading worksheet (Assignment > Download grading worksheet).
MOODLE_WORKSHEET = (
    'Identifier,"Full name","Email address",Status,Grade,"Maximum Grade",'
    '"Grade can be changed","Last modified (submission)","Last modified (grade)",'
    '"Feedback comments"\n'
    '"Participant 1234501","Wei Zhang",wei.zhang1@uni.example,"Submitted for grading",,5.00,'
    'Yes,"Monday, 6 October 2025, 9:12 AM",-,\n'
    '"Participant 1234502","Wei Zhang",wei.zhang2@uni.example,"Submitted for grading",,5.00,'
    'Yes,"Monday, 6 October 2025, 9:40 AM",-,\n'
    '"Participant 1234503","María Lucía Fernández García",mlfg@uni.example,'
    '"Submitted for grading",,5.00,Yes,"Monday, 6 October 2025, 9:41 AM",-,\n'
    '"Participant 1234504","Văn Anh Nguyễn",vanh@uni.example,"Submitted for grading",,5.00,'
    'Yes,"Monday, 6 October 2025, 9:42 AM",-,\n'
    '"Participant 1234505","Min-jun Kim",minjun@uni.example,"Submitted for grading",,5.00,'
    'Yes,"Monday, 6 October 2025, 9:43 AM",-,\n'
    '"Participant 1234506","Ada Lovelace",ada@uni.example,"Submitted for grading",,5.00,'
    'Yes,"Monday, 6 October 2025, 9:44 AM",-,\n'
    '"Participant 1234507","Grace Hopper",grace@uni.example,"No submission",,5.00,Yes,-,-,\n'
)

#: Canvas's gradebook export: a Manual Posting line, Points Possible, two assignments.
CANVAS_GRADEBOOK = (
    "Student,ID,SIS User ID,SIS Login ID,Section,Assignment 1: every solution (48211),"
    "Quiz 0 (48100),Current Score,Unposted Current Score,Final Score,Unposted Final Score\n"
    ",,,,,Manual Posting,,,,,\n"
    "    Points Possible,,,,,5.00,10.00,(read only),(read only),(read only),(read only)\n"
    '"Zhang, Wei",48213,S2001,wzhang1,Lab A,,9.00,90.00,90.00,90.00,90.00\n'
    '"Zhang, Wei",48214,S2002,wzhang2,Lab A,,7.00,70.00,70.00,70.00,70.00\n'
    '"Fernández García, María Lucía",48215,S2003,mlfg,Lab B,,8.00,80.00,80.00,80.00,80.00\n'
    '"Hopper, Grace",48216,S2007,ghopper,Lab B,,6.00,60.00,60.00,60.00,60.00\n'
)


def moodle_class(folder: Path) -> Path:
    """A Moodle download: one folder per participant (Moodle 4.1+, no trailing ``_``)."""
    entries = {
        "Wei Zhang_1234501": {"queens.py": RIGHT},
        "Wei Zhang_1234502": {"queens.py": PARTIAL},
        "María Lucía Fernández García_1234503": {
            "model.py": "from helpers import every\n\n\ndef model(n):\n    return every(n)\n",
            "helpers.py": RIGHT.replace("def model", "def every"),
        },
        "Văn Anh Nguyễn_1234504": {"queens.py": PARTIAL},
        "Min-jun Kim_1234505": {"queens.zip": "PK"},  # not graded: an archive only
        "Ada Lovelace_1234506": {"a.py": RIGHT, "b.py": PARTIAL},  # conflict: two models
        "Mallory Intruder_1234599": {"queens.py": RIGHT},  # on no roster line
    }
    for prefix, files in entries.items():
        where = folder / f"{prefix}_assignsubmission_file"
        where.mkdir(parents=True)
        for name, text in files.items():
            (where / name).write_text(text, encoding="utf-8")
    return folder


def read_csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def row(student: str, keys: dict[str, str], mark: int, status: str = "graded") -> StudentResult:
    """A row as the grader makes it for ``--n 1..4`` (5 points): ``mark`` of them."""
    sizes = []
    left = mark
    for n in range(1, 5):
        worth = points.exact(load().points_for(n))
        got = min(worth, points.exact(left))
        left -= int(got)
        sizes.append(SizeResult(n, "ok" if got == worth else "1 missing", got, worth))
    return StudentResult(
        student,
        Path(f"{student}.py"),
        tuple(sizes),
        keys=dict(keys),
        status=status,
        student_id=keys.get("participant") or keys.get("canvas_user", ""),
        entries=(f"{student}_entry",),
    )


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_download_names_of_both_lms_are_read_with_their_keys() -> None:
    late = parse_download("zhangwei_LATE_48214_700190_queens.py", folder=False)
    assert late is not None and (late.key, late.value, late.late) == ("canvas_user", "48214", True)
    assert late.keys()["canvas_name"] == "zhangwei_LATE"
    accented = parse_download("fernándezgarcíamaríalucía_48215_700200_model.py", folder=False)
    assert accented is not None and accented.name == "fernándezgarcíamaríalucía"
    assert "fernandezgarciamarialucia" in name_keys("Fernández García, María Lucía")
    assert "fernandezgarciamarialucia" in name_keys("María Lucía Fernández García")
    assert "nguyenvananh" in name_keys("Văn Anh Nguyễn")
    anonymous = parse_download("anon_xK9pQ_700181_model.py", folder=False)
    assert anonymous is not None and (anonymous.key, anonymous.value) == ("canvas_anon", "xK9pQ")
    moodle = parse_download("Kim Min-jun_1234505_assignsubmission_file_queens.py", folder=False)
    assert moodle is not None and (moodle.value, moodle.file) == ("1234505", "queens.py")
    assert parse_download("ada.py", folder=False) is None


def test_real_exports_are_accepted_as_rosters(tmp_path: Path) -> None:
    """Canvas's export with its Manual Posting line; Moodle's with a blank ID number."""
    canvas = read_rosters([write(tmp_path, "canvas.csv", CANVAS_GRADEBOOK)])
    assert [s.id for s in canvas.students] == ["48213", "48214", "48215", "48216"]
    assert canvas.warnings == []
    moodle = read_rosters([write(tmp_path, "moodle.csv", MOODLE_GRADEBOOK)])
    assert len(moodle.students) == 7
    grace = moodle.students[-1]
    assert (grace.id, grace.keys.get("number")) == ("grace@uni.example", None)
    assert moodle.warnings == [
        f"{tmp_path / 'moodle.csv'}: line 8: Grace Hopper: no ID number; known by Email "
        "address grace@uni.example"
    ]
    registrar = read_rosters(
        [write(tmp_path, "r.csv", "Student number,Name,Email\n7001,Ada Lovelace,ada@x\n")]
    )
    assert registrar.students[0].keys == {"number": "7001", "email": "ada@x"}


def test_a_moodle_class_with_its_gradebook_export_never_exports_a_wrong_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Done when: a student who handed work in gets their mark or a blank cell named on
    stderr (two students of one name included); not graded and conflict rows no mark."""
    folder = moodle_class(tmp_path / "download")
    roster = write(tmp_path, "grades.csv", MOODLE_GRADEBOOK)
    out, gradebook = tmp_path / "out", tmp_path / "moodle.csv"
    argv = ["grade", str(folder), "--n", "1..4", "--out", str(out), "--roster", str(roster)]
    code, _, err = run_cli(capsys, *argv, "--export", "moodle", str(gradebook), *ISOLATION)
    assert code == 0, err
    lines = read_csv(gradebook)
    # Grace Hopper has no ID number (nothing handed in: 0): every line keys by the email,
    # the column Moodle's import maps from ("Map from": Email address).
    assert lines[0] == ["Email address", "Full name", "Assignment: Queens (Real)"]
    marks = {line[0].split("@")[0]: line[2] for line in lines[1:]}
    # Fernández García: 5 of 5 (helpers beside her model); Nguyễn: 3; no other line.
    assert marks == {"mlfg": "5", "vanh": "3", "grace": "0"}
    for said in ("Wei Zhang (s2001): ambiguous", "Wei Zhang [s2002]: ambiguous",
                 "Min-jun Kim (s2005): not graded", "Ada Lovelace (s2006): conflict",
                 "Mallory Intruder (1234599): graded, not on the roster"):  # fmt: skip
        assert f"no mark for {said}" in err
    with open(out / "marks.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    feedback = list((out / "feedback").glob("*.md"))
    assert len(feedback) == len(rows) == 10  # 7 on the roster, 3 not: one file each
    namesakes = [r for r in rows if r["id"] in ("1234501", "1234502")]
    assert sorted(r["points"] for r in namesakes) == ["3", "5"]  # graded, in marks.csv
    # Moodle's feedback zip beside the export: one file per participant id, namesakes too.
    with zipfile.ZipFile(tmp_path / "moodle-feedback.zip") as archive:
        names = archive.namelist()
    assert "Wei Zhang_1234501_assignfeedback_file/feedback.md" in names
    assert "Wei Zhang_1234502_assignfeedback_file/feedback.md" in names
    assert len(names) == len(set(names)) == 7


def test_the_worksheet_as_roster_is_written_back_for_upload_grading_worksheet(
    tmp_path: Path,
) -> None:
    """Done when: Identifier, Grade, Last modified (grade), Feedback comments for every
    participant; namesakes told apart by the participant id; not graded left blank."""
    roster = read_rosters([write(tmp_path, "worksheet.csv", MOODLE_WORKSHEET)])
    results = [
        row("Wei Zhang", {"participant": "1234501", "moodle_name": "Wei Zhang"}, 5),
        row("Wei Zhang [1234502]", {"participant": "1234502", "moodle_name": "Wei Zhang"}, 3),
        row("Min-jun Kim", {"participant": "1234505"}, 0, status="not graded"),
    ]
    placed = place(results, roster, load())
    assert column(roster, "moodle", None, "default") == "Grade"
    path = tmp_path / "upload.csv"
    done = export(placed, roster, "moodle", path, "Grade")
    lines = read_csv(path)
    header = lines[0]
    assert header == next(csv.reader([MOODLE_WORKSHEET.splitlines()[0]]))
    at = {name: header.index(name) for name in header}
    graded = {line[0]: line for line in lines[1:]}
    assert len(graded) == 7  # every participant
    assert graded["Participant 1234501"][at["Grade"]] == "5"
    assert graded["Participant 1234502"][at["Grade"]] == "3"
    assert graded["Participant 1234502"][at[COMMENTS]].startswith("3 of 5 points.")
    assert graded["Participant 1234505"][at["Grade"]] == ""  # not graded: Moodle skips it
    assert graded["Participant 1234507"][at["Grade"]] == "0"  # nothing handed in
    assert graded["Participant 1234501"][at["Last modified (grade)"]] == "-"  # as given
    assert "Min-jun Kim (1234505): not graded" in done.blank


def test_grading_with_the_worksheet_gives_each_namesake_their_own_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole command with Moodle's worksheet as roster: every participant's line
    comes back, the namesakes' grades by participant id, the feedback zip beside it."""
    folder = tmp_path / "download"
    for prefix, text in [("Wei Zhang_1234501", RIGHT), ("Wei Zhang_1234502", PARTIAL)]:
        (folder / f"{prefix}_assignsubmission_file").mkdir(parents=True)
        (folder / f"{prefix}_assignsubmission_file" / "queens.py").write_text(text)
    roster = write(tmp_path, "worksheet.csv", MOODLE_WORKSHEET)
    upload, zipped = tmp_path / "upload.csv", tmp_path / "fb.zip"
    argv = ["grade", str(folder), "--n", "1..4", "--out", str(tmp_path / "out")]
    argv += ["--roster", str(roster), "--export", "moodle", str(upload)]
    code, _, err = run_cli(capsys, *argv, "--feedback-zip", str(zipped), *ISOLATION)
    assert code == 0, err
    lines = read_csv(upload)
    grade, comments = lines[0].index("Grade"), lines[0].index(COMMENTS)
    got = {line[0]: (line[grade], line[comments]) for line in lines[1:]}
    assert got["Participant 1234501"] == ("5", "5 of 5 points.")
    assert got["Participant 1234502"][0] == "3"
    assert got["Participant 1234502"][1].startswith("3 of 5 points. n=4")
    assert got["Participant 1234507"] == ("0", "0 of 5 points. nothing handed in")
    assert len(got) == 7
    with zipfile.ZipFile(zipped) as archive:
        assert sorted(archive.namelist()) == [
            "Wei Zhang_1234501_assignfeedback_file/feedback.md",
            "Wei Zhang_1234502_assignfeedback_file/feedback.md",
        ]
        assert (
            "Points: 3 of 5"
            in archive.read("Wei Zhang_1234502_assignfeedback_file/feedback.md").decode()
        )


def test_two_rosters_bridge_the_download_to_the_gradebook(tmp_path: Path) -> None:
    """The worksheet has the participant id and the email; the gradebook export the ID
    number and the email: together the namesakes get their own marks by ID number."""
    roster = read_rosters(
        [write(tmp_path, "g.csv", MOODLE_GRADEBOOK), write(tmp_path, "w.csv", MOODLE_WORKSHEET)]
    )
    results = [
        row("Wei Zhang", {"participant": "1234501"}, 5),
        row("Wei Zhang [1234502]", {"participant": "1234502"}, 3),
    ]
    placed = place(results, roster, load())
    path = tmp_path / "g-out.csv"
    done = export(placed, roster, "moodle", path, column(roster, "moodle", None, "x"))
    assert done.form == "moodle-worksheet"
    first = read_rosters([write(tmp_path, "g2.csv", MOODLE_GRADEBOOK)]).files[0]
    roster.files = [first]  # the gradebook form alone, as --export writes it for that roster
    export(placed, roster, "moodle", path, "Assignment: Queens (Real)")
    marks = {line[0]: line[2] for line in read_csv(path)[1:]}
    assert (marks["wei.zhang1@uni.example"], marks["wei.zhang2@uni.example"]) == ("5", "3")


def test_canvas_export_uses_the_rosters_own_column_or_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Done when: the grade column is the roster's own assignment column, or the command
    refuses naming the choices (before anything runs)."""
    roster = read_rosters([write(tmp_path, "canvas.csv", CANVAS_GRADEBOOK)])
    with pytest.raises(ExportError, match=r"'Assignment 1: every solution \(48211\)'; 'Quiz 0"):
        column(roster, "canvas", None, "default")
    chosen = column(roster, "canvas", "Assignment 1: every solution", "default")
    bare = write(tmp_path, "bare.csv", 'Student,ID,SIS Login ID,Section\n"Zhang, Wei",1,w,A\n')
    with pytest.raises(ExportError, match="has no assignment column: create the assignment"):
        column(read_rosters([bare]), "canvas", None, "default")
    assert chosen == "Assignment 1: every solution (48211)"
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "zhangwei_48213_700180_queens.py").write_text(RIGHT)
    code, _, err = run_cli(
        capsys, "grade", str(tmp_path / "class"), "--roster", str(tmp_path / "canvas.csv"),
        "--export", "canvas", str(tmp_path / "F.csv"), "--out", str(tmp_path / "o"),
    )  # fmt: skip
    assert code == 2 and "Quiz 0 (48100)" in err and "Traceback" not in err
    assert not (tmp_path / "F.csv").exists()

    results = [
        row(
            "zhangwei",
            {"canvas_user": "48213", "canvas_attachment": "700180", "canvas_name": "zhangwei"},
            5,
        ),
        row(
            "zhangwei",
            {"canvas_user": "48214", "canvas_attachment": "700190", "canvas_name": "zhangwei_LATE"},
            3,
        ),
        row(
            "fernándezgarcíamaríalucía",
            {
                "canvas_user": "48215",
                "canvas_attachment": "7",
                "canvas_name": "fernándezgarcíamaríalucía",
            },
            0,
            status="conflict",
        ),
        row("anon_xK9pQ", {"canvas_anon": "xK9pQ", "canvas_attachment": "700181"}, 5),
    ]
    placed = place(results, roster, load())
    path = tmp_path / "canvas-import.csv"
    done = export(placed, roster, "canvas", path, chosen)
    lines = read_csv(path)
    assert lines[0][-1] == "Assignment 1: every solution (48211)"
    assert lines[1][0].strip() == "Points Possible" and lines[1][-1] == "5.00"
    cells = {line[1]: line[-1] for line in lines[2:]}
    assert cells == {"48213": "5", "48214": "3", "48215": "", "48216": "0"}
    assert "anon_xK9pQ: graded, not on the roster" in done.blank
    uploaded = feedback_zip(placed, "canvas", tmp_path / "fb.zip", lambda r: r.student)
    assert sorted(uploaded.files) == [
        "fernándezgarcíamaríalucía_48215_7_feedback.md",
        "zhangwei_48213_700180_feedback.md",
        "zhangwei_LATE_48214_700190_feedback.md",
    ]
    assert uploaded.left_out == ["anon_xK9pQ: an anonymous submission (no user id in its name)"]


def test_an_override_by_a_shared_name_is_refused_naming_both(tmp_path: Path) -> None:
    roster = read_rosters([write(tmp_path, "g.csv", MOODLE_GRADEBOOK)])
    results = place(
        [row("Wei Zhang", {"participant": "1", "moodle_name": "Wei Zhang"}, 5)], roster, load()
    )
    by_name = write(tmp_path, "o.csv", 'student,points,reason\n"Zhang, Wei",4,late\n')
    results, refused = apply_overrides(results, read_overrides(by_name), "o.csv")
    assert refused == [
        "o.csv: Zhang, Wei: the name fits 3 students: Wei Zhang (s2001); Wei Zhang [s2002]; "
        "Wei Zhang [1]; give the id instead: not applied"
    ]
    by_id = write(tmp_path, "p.csv", "student,points,reason\ns2002,4,late but right\n")
    results, refused = apply_overrides(results, read_overrides(by_id), "p.csv")
    assert refused == []
    assert [r.student_id for r in results if r.override is not None] == ["s2002"]
    assert all(r.status == AMBIGUOUS for r in results if r.student_id in ("s2001", "s2002"))
    folder = moodle_class(tmp_path / "download")
    with pytest.raises(OverrideError, match=r"Zhang, Wei: the name fits \d students: Wei Zhang"):
        read_for_class(by_name, folder, load(), [1, 2], roster)


def test_an_anonymous_canvas_student_with_two_files_is_one_row(tmp_path: Path) -> None:
    from cp_queens.grading.intake.discover import find_submissions

    (tmp_path / "anon_xK9pQ_700181_model.py").write_text(
        "from helpers import every\n\n\ndef model(n):\n    return every(n)\n"
    )
    (tmp_path / "anon_xK9pQ_700182_helpers.py").write_text(RIGHT.replace("def model", "def every"))
    (tmp_path / "LATE_anon_b7Rt2_700183_queens.py").write_text(PARTIAL)
    found = find_submissions(tmp_path)
    assert [(s.student, s.student_id, s.status) for s in found] == [
        ("anon_b7Rt2", "b7Rt2", "graded"),
        ("anon_xK9pQ", "xK9pQ", "graded"),
    ]
    assert list(found[1].beside) == ["helpers.py"]
    assert found[1].keys["canvas_anon"] == "xK9pQ"


def test_a_registrars_list_gives_canvas_its_sis_ids_never_an_email_as_id(
    tmp_path: Path,
) -> None:
    roster = read_rosters(
        [
            write(
                tmp_path,
                "r.csv",
                "Student number,Name,Email\n7001,Ada Lovelace,ada@x\n7002,Alan Turing,alan@x\n",
            )
        ]
    )
    with pytest.raises(ExportError, match=r"name the assignment 'Title \(id\)'"):
        column(roster, "canvas", "Week 1", "default")
    chosen = column(roster, "canvas", "Week 1 (48211)", "default")
    placed = place([row("lovelace_ada", {}, 5)], roster, load())
    path = tmp_path / "c.csv"
    export(placed, roster, "canvas", path, chosen)
    lines = read_csv(path)
    assert lines[2][:4] == ["Ada Lovelace", "", "7001", ""]  # ID blank, SIS User ID the number
    assert [line[-1] for line in lines[2:]] == ["5", "0"]


def test_moodle_import_keys_by_a_plain_rosters_own_id_column(tmp_path: Path) -> None:
    roster = read_rosters([write(tmp_path, "r.csv", "id,name\nu17,Ada Lovelace\n")])
    placed = place([row("ada_lovelace", {}, 3)], roster, load())
    path = tmp_path / "m.csv"
    export(placed, roster, "moodle", path, column(roster, "moodle", None, "week 3"))
    assert read_csv(path) == [["id", "Full name", "week 3"], ["u17", "Ada Lovelace", "3"]]


def test_moodle_gradebook_with_several_grade_items_needs_assignment(tmp_path: Path) -> None:
    text = MOODLE_GRADEBOOK.replace(
        '"Assignment: Queens (Real)"', '"Assignment: Queens (Real)","Quiz: Week 1 (Real)"'
    ).replace(",-,17", ",-,-,17")
    roster = read_rosters([write(tmp_path, "g.csv", text.replace("Quiz:", "Assignment:"))])
    with pytest.raises(ExportError, match=r"'Assignment: Queens \(Real\)'; 'Assignment: Week 1"):
        column(roster, "moodle", None, "default")
    assert column(roster, "moodle", "Queens (Real)", "x") == "Assignment: Queens (Real)"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Name,Email\nAda,\n", "line 2: no Email"),
        ("Name,Email,ID number\nAda,a@x,s1\nBob,a@x,s2\n", "line 3: a@x is on the roster twice"),
        ("Name\nAda\n", "line 1: the header needs an id column"),
    ],
)
def test_a_roster_without_a_key_for_a_student_is_refused(
    tmp_path: Path, text: str, said: str
) -> None:
    from cp_queens.grading.intake.roster import RosterError

    with pytest.raises(RosterError, match=said):
        read_rosters([write(tmp_path, "r.csv", text)])
