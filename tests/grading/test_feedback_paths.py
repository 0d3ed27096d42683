"""Every file named after a student is a path of their own, and every path the command
names is checked before the work (issue 44).

Two roster students named "John Smith" shared one feedback file; ``a<TAB>b`` and
``a_b``, ``ada`` and ``.ada`` too; a roster name of 70 emoji (280 bytes) ended a graded
class with "File name too long" and no marks.csv. A ``feedback/`` linked to another
folder, holding a list of files "the grader wrote", had a file there deleted as root.
``--export canvas grades/marks.csv`` replaced the run's own marks.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cp_queens.grading.marking import written
from cp_queens.grading.marking.marks import write_feedback, write_marks
from cp_queens.grading.results import StudentResult
from cp_queens.grading.sandbox import room as sandbox_room
from tests.helpers import ROOT

RIGHT = "def model(n):\n    return [[0]] if n == 1 else []\n"
ISOLATION = [] if sandbox_room.unavailable() is None else ["--isolation", "none"]
EMOJI = "\N{GRINNING FACE}" * 70  # 280 bytes of UTF-8


def test_each_student_has_a_name_of_their_own() -> None:
    names = written.file_names(
        [
            ("John Smith", "1001"),
            ("John Smith", "1002"),
            ("a\tb", ""),
            ("a_b", ""),
            ("ada", ""),
            (".ada", ""),
            ("Ada", ""),
            (EMOJI, ""),
            (EMOJI + "!", ""),  # the same once cut to fit
        ]
    )
    assert names[:2] == ["John Smith (1001).md", "John Smith (1002).md"]
    assert names[2:7] == ["a_b.md", "a_b (2).md", "ada.md", "ada (2).md", "Ada (3).md"]
    assert len({name.casefold() for name in names}) == len(names)
    assert all(len(name.encode()) <= written.NAME_BYTES for name in names)
    assert names[7].startswith("\N{GRINNING FACE}") and names[8].endswith(" (2).md")


def test_namesakes_and_long_names_get_their_files_and_the_class_its_marks(
    tmp_path: Path,
) -> None:
    rows = [
        StudentResult("John Smith", tmp_path / "a.py", student_id="1001"),
        StudentResult("John Smith", tmp_path / "b.py", student_id="1002"),
        StudentResult(EMOJI, tmp_path / "c.py", student_id=""),
        StudentResult("x" * 254, tmp_path / "d.py", student_id=""),  # a valid folder name
    ]
    problems: list[str] = []
    paths = write_feedback(rows, tmp_path / "feedback", problems=problems)
    write_marks(rows, tmp_path / "marks.csv")
    assert problems == [] and len(set(paths)) == 4 and all(path.is_file() for path in paths)
    assert (tmp_path / "marks.csv").read_text(encoding="utf-8").count("John Smith") == 2


def test_a_file_that_cannot_be_written_costs_only_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stage = written.Folder.stage

    def refuse_ben(self: written.Folder, name: str, data: bytes) -> str:
        if name.startswith("ben"):
            raise OSError(5, "Input/output error")
        return stage(self, name, data)

    monkeypatch.setattr(written.Folder, "stage", refuse_ben)
    problems: list[str] = []
    rows = [StudentResult(name, tmp_path / f"{name}.py") for name in ("ada", "ben", "cy")]
    paths = write_feedback(rows, tmp_path / "feedback", problems=problems)
    assert [path.name for path in paths] == ["ada.md", "cy.md"]
    assert len(problems) == 1 and "ben.md: not written: Input/output error" in problems[0]


def _listed(folder: Path, *files: Path) -> None:
    """A list in ``folder`` naming ``files`` with their hashes, as the grader writes it."""
    listing = {
        os.path.relpath(path, folder): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in files
    }
    (folder / written.MANIFEST).write_text(json.dumps(listing), encoding="utf-8")


def test_nothing_outside_the_folder_nor_unlisted_by_this_user_is_removed(tmp_path: Path) -> None:
    feedback = tmp_path / "out" / "feedback"
    feedback.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("a lecturer's file\n", encoding="utf-8")
    (feedback / "old.md").write_text("an earlier run's\n", encoding="utf-8")
    _listed(feedback, victim, feedback / "old.md")  # "../victim.txt": a path, not a name
    (feedback / written.MANIFEST).chmod(0o666)  # anyone could have written this list
    written.write_files(feedback, {"ada.md": "new"}, replace=True)
    assert victim.exists() and (feedback / "old.md").exists()  # a list not believed
    _listed(feedback, victim, feedback / "old.md")
    written.write_files(feedback, {"ada.md": "new"}, replace=True)
    assert victim.exists() and not (feedback / "old.md").exists()  # its own file, listed


def _grade(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    folder = tmp_path / "class"
    if not folder.exists():
        folder.mkdir()
        (folder / "ada.py").write_text(RIGHT, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "cp_queens", "grade", str(folder), "--n", "1", *ISOLATION, *options],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def test_a_linked_feedback_folder_is_refused_before_any_student_runs(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    victim = elsewhere / "victim.txt"
    victim.write_text("someone else's\n", encoding="utf-8")
    _listed(elsewhere, victim)
    out = tmp_path / "out"
    out.mkdir()
    (out / "feedback").symlink_to(elsewhere)
    done = _grade(tmp_path, "--out", str(out))
    assert done.returncode == 2, done.stderr
    assert "it is a symbolic link" in done.stderr and "Traceback" not in done.stderr
    assert victim.exists() and not (out / "marks.csv").exists()


ROSTER = "id,name\n1001,Ada\n"


@pytest.mark.parametrize("onto", ["marks", "roster", "missing-folder"])
def test_an_export_onto_the_run_s_own_files_is_refused_before_any_student_runs(
    tmp_path: Path, onto: str
) -> None:
    out = tmp_path / "out"
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    target = {
        "marks": out / "marks.csv",
        "roster": roster,
        "missing-folder": tmp_path / "no-such-folder" / "moodle.csv",
    }[onto]
    done = _grade(
        tmp_path, "--out", str(out), "--roster", str(roster), "--export", "moodle", str(target)
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    said = {"marks": "that is the run's marks.csv", "roster": "that is the roster"}
    assert said.get(onto, "No such file or directory") in line, line
    assert roster.read_text(encoding="utf-8") == ROSTER
    assert not (out / "marks.csv").exists()  # no student ran


def test_a_seed_file_is_capped_like_the_rubric(tmp_path: Path) -> None:
    done = _grade(tmp_path, "--variant", "@/dev/zero", "--out", str(tmp_path / "out"))
    assert done.returncode == 2, done.stderr
    assert "cannot read the seed from /dev/zero: larger than 4 MB: not a seed file" in done.stderr
