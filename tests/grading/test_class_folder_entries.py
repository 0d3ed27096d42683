"""Issue 35, "out of the class": every entry of a class folder is one row; marks are never lost.

Discovery is checked in-process (no submission runs): each odd entry a lecturer's
folder holds (``SAM.PY``, ``tom.py `` with a trailing space, ``_ada.py``, a
hidden file, a FIFO, a device, an archive, two files for one student, a folder
of several files, Moodle and Canvas downloads) is one ``Submission`` with a
status and a reason. From the command line: a judge that fails on one
submission costs only its row; Ctrl-C keeps the rows graded before it; a full
disk leaves the previous ``marks.csv`` as it was; no cell of ``marks.csv`` is a
formula. The whole class, graded in sandboxes, is the slow test.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from cp_queens.grading.intake.discover import find_submissions, notebook_code, summary
from cp_queens.grading.intake.textfile import decode_source
from cp_queens.grading.marking import written
from cp_queens.grading.marking.marks import write_feedback, write_marks
from cp_queens.grading.results import StudentResult
from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.output import OutputError
from tests.helpers import ROOT, run_cli
from tests.hostile import RIGHT

#: Where bubblewrap cannot run, the command-line tests grade without it (what is tested
#: here is the class, not the room).
ISOLATION = [] if sandbox_room.unavailable() is None else ["--isolation", "none"]

HELPER = RIGHT.replace("def model(", "def solve(")
USES_HELPER = "from helpers import solve\n\ndef model(n):\n    return solve(n)\n"
#: A hashable Mapping as a key of a returned dict: the judge's decoder crashed on it.
MAPPING_KEY = """
from collections.abc import Mapping

class Key(Mapping):
    def __getitem__(self, key):
        raise KeyError(key)
    def __iter__(self):
        return iter(())
    def __len__(self):
        return 0
    def __hash__(self):
        return 1

def model(n):
    return [{Key(): 1}]
"""


def notebook(source: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "source": source}], "nbformat": 4})


def write_class(folder: Path) -> Path:
    """A lecturer's folder holding every kind of entry of issue 35."""
    files: dict[str, str | bytes] = {
        "SAM.PY": RIGHT,
        "kim.Py": RIGHT,
        "tom.py ": RIGHT,
        "_ada.py": RIGHT,
        ".eve.py": RIGHT,
        "bom.py": b"\xef\xbb\xbf" + RIGHT.encode(),
        "latin.py": b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + RIGHT.encode(),
        "multi/model.py": USES_HELPER,
        "multi/helpers.py": HELPER,
        "multi/.ipynb_checkpoints/model-checkpoint.py": "broken(",
        "two/queens.py": RIGHT,
        "two/queens_old.py": RIGHT,
        "ada.py": RIGHT,
        "ada.ipynb": notebook(RIGHT),
        "Ada Lovelace_12345_assignsubmission_file_/queens.py": RIGHT,
        "Ada Lovelace_12345_assignsubmission_file_/notes.txt": "my notes",
        "Bob Baker_12346_assignsubmission_file_/main.py": USES_HELPER,
        "Bob Baker_12346_assignsubmission_file_/helpers.py": HELPER,
        "lovelaceada_201_9001_queens.py": USES_HELPER,
        "lovelaceada_201_9002_helpers.py": HELPER,
        'HYPERLINK("x").py': RIGHT,
        "=HYPERLINK(1).py": RIGHT,
        "+1+1.py": RIGHT,
        "@SUM(1).py": RIGHT,
        "key.py": MAPPING_KEY,
        "work.zip": b"PK\x03\x04",
        "readme.txt": "hand-ins",
    }
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    os.mkfifo(folder / "pipe.py")
    (folder / "null.py").symlink_to("/dev/null")
    return folder


#: Each entry's student and status, and a word of its reason.
EXPECTED = {
    "SAM": ("graded", ""),
    "kim": ("graded", ""),
    "tom": ("graded", ""),
    "_ada": ("graded", ""),
    ".eve.py": ("not graded", "hidden"),
    "bom": ("graded", ""),
    "latin": ("graded", ""),
    "multi": ("graded", ""),
    "two": ("conflict", "2 files define model: queens.py, queens_old.py"),
    "ada": ("conflict", "2 submissions for ada: ada.ipynb, ada.py"),
    "Ada Lovelace": ("graded", ""),
    "Bob Baker": ("graded", ""),
    "lovelaceada": ("graded", ""),
    'HYPERLINK("x")': ("graded", ""),
    "=HYPERLINK(1)": ("graded", ""),
    "+1+1": ("graded", ""),
    "@SUM(1)": ("graded", ""),
    "key": ("graded", ""),
    "work": ("not graded", "archive"),
    "readme": ("not graded", "not a Python file"),
    "pipe": ("not graded", "FIFO"),
    "null": ("not graded", "symbolic link"),
}


def test_every_entry_of_the_class_folder_is_one_row(tmp_path: Path) -> None:
    folder = write_class(tmp_path / "class")
    found = {s.student: s for s in find_submissions(folder)}
    assert set(found) == set(EXPECTED)
    for student, (status, why) in EXPECTED.items():
        assert found[student].status == status, (student, found[student])
        assert why in (found[student].refused or ""), (student, found[student].refused)
    assert sum(len(s.entries) for s in found.values()) == len(os.listdir(folder))
    # Read as Python reads it: the BOM gone, the cookie's encoding used.
    assert found["bom"].source == RIGHT
    assert "# café" in found["latin"].source
    # A folder's entry point, the other files importable beside it.
    assert found["multi"].path.name == "model.py"
    assert set(found["multi"].beside) == {"helpers.py"}
    assert found["Bob Baker"].student_id == "12346"
    assert set(found["Bob Baker"].beside) == {"helpers.py"}
    assert found["lovelaceada"].student_id == "201"
    assert set(found["lovelaceada"].beside) == {"helpers.py"}
    assert "notes.txt" in " ".join(found["Ada Lovelace"].notes)
    assert found["tom"].entries == ("tom.py ",)
    said = summary(found.values(), folder)
    assert said.startswith(f"{len(os.listdir(folder))} entries (") and "4 folders" in said


def test_a_device_and_a_namesake_are_rows_too(tmp_path: Path) -> None:
    (tmp_path / "zero.py").symlink_to("/dev/zero")  # a link: never followed
    (tmp_path / "Ann Lee_1_assignsubmission_file_").mkdir()
    (tmp_path / "Ann Lee_1_assignsubmission_file_" / "q.py").write_text(RIGHT)
    (tmp_path / "Ann Lee_2_assignsubmission_file").mkdir()  # Moodle 4's name: no "_" after
    (tmp_path / "Ann Lee_2_assignsubmission_file" / "q.py").write_text(RIGHT)
    (tmp_path / "empty").mkdir()
    (tmp_path / "smithjane_LATE_301_9004_queens.py").write_text(RIGHT)  # Canvas, late
    found = {s.student: s for s in find_submissions(tmp_path)}
    assert set(found) == {"zero", "Ann Lee", "Ann Lee [2]", "empty", "smithjane"}
    assert found["smithjane"].student_id == "301" and found["smithjane"].status == "graded"
    assert "nothing to grade" in (found["empty"].refused or "")
    if os.geteuid() == 0:  # a device node (only root may make one)
        os.mknod(tmp_path / "dev.py", 0o600 | 0o020000, os.makedev(1, 3))
        device = {s.student: s for s in find_submissions(tmp_path)}["dev"]
        assert device.status == "not graded" and "character device" in (device.refused or "")


def test_source_is_read_as_python_reads_it() -> None:
    assert decode_source(b"\xef\xbb\xbfx = 1\n") == "x = 1\n"
    assert decode_source("# coding: cp1252\ns = '\u20ac'\n".encode("cp1252")).endswith("'\u20ac'\n")
    with pytest.raises(SyntaxError):
        decode_source(b"# coding: no-such-codec\n")
    with pytest.raises(SyntaxError):
        decode_source(b"s = '\xe9'\n")  # not UTF-8, nothing declared: python3 refuses it too


#: The peak of the child's own address space (VmHWM, in kB). Not ``ru_maxrss``: after
#: ``exec`` it still counts the RSS the forked child had, i.e. this test process's, which
#: hides up to that much of the reader's growth.
OWN_PEAK = "int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1])"


def notebook_growth_mb(path: Path) -> float:
    """How much ``notebook_code(path)`` raised the peak memory of a fresh process (MB)."""
    code = (
        "import re, sys\nfrom cp_queens.grading.intake.discover import notebook_code\n"
        f"base = {OWN_PEAK}\n"
        "notebook_code(sys.argv[1])\n"
        f"print({OWN_PEAK} - base)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    grown_mb = int(done.stdout) / 1024
    print(f"{path.name}: {path.stat().st_size >> 10} KB read with {grown_mb:.1f} MB more")
    return grown_mb


def large_notebooks(folder: Path, kilobytes: int) -> tuple[Path, Path]:
    """``kilobytes`` of empty lines in one cell, and as many of empty objects beside the
    cells: the two shapes the reader once held as a list of lines and a dict per object."""
    lines = folder / "lines.ipynb"
    lines.write_text(notebook("\n" * (kilobytes << 9)), encoding="utf-8")
    objects = folder / "objects.ipynb"
    objects.write_text(
        '{"cells": [], "metadata": [' + ",".join(["{}"] * ((kilobytes << 10) // 3)) + "]}",
        encoding="utf-8",
    )
    return lines, objects


def test_a_half_mb_notebook_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """The default run's twin of the 4 MB test below (which the slow run keeps): the same
    two notebooks at 512 KB, for under a quarter of its CPU (0.25 s; at 1 MB this twin
    took 0.35 s, most of it reading the objects). The growth is the child's own peak (VmHWM):
    ``ru_maxrss`` would start at this process's size and hide the reader's growth. At most
    ten times the file (it is about five, at 512 KB as at 4 MB: the text, and a None for
    each object dropped; the depth guard once cut the text into an object per piece, 28
    MB for 1 MB of ``{}``)."""
    lines, objects = large_notebooks(tmp_path, 512)
    for path in (lines, objects):
        assert notebook_growth_mb(path) < 5, path.name
    assert notebook_code(lines).strip() == ""


@pytest.mark.slow
def test_a_large_notebook_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """4 MB of empty lines in one cell, and 4 MB of empty objects beside the cells: the
    reader's peak memory stays a small multiple of the file (it was ~500 MB, then 119 MB
    while the depth guard cut the text into pieces). Slow (1.4 s of CPU, mostly decoding
    4 MB): the default run reads the same notebooks at 512 KB."""
    lines, objects = large_notebooks(tmp_path, 4096)
    for path in (lines, objects):
        assert notebook_growth_mb(path) < 40, path.name
    assert notebook_code(lines).strip() == ""


def test_marks_csv_holds_no_formula_and_the_feedback_the_name(tmp_path: Path) -> None:
    results = [
        StudentResult(name, tmp_path / f"{name}.py", entries=[f"{name}.py"])
        for name in ("=HYPERLINK(1)", "+1+1", "-2", "@SUM(1)", "\tTAB", "\rCR", "ada")
    ]
    write_marks(results, tmp_path / "marks.csv")
    with open(tmp_path / "marks.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    for row in rows[1:]:
        for value in row:
            assert not value.startswith(written.FORMULA_STARTS), row
    assert [row[0] for row in rows[1:]] == [
        "'=HYPERLINK(1)", "'+1+1", "'-2", "'@SUM(1)", "'\tTAB", "'\rCR", "ada"
    ]  # fmt: skip
    paths = write_feedback(results, tmp_path / "feedback")
    assert "# Feedback for =HYPERLINK(1)" in paths[0].read_text(encoding="utf-8")


def test_the_lecturers_own_files_stay_and_stale_feedback_goes(tmp_path: Path) -> None:
    folder = tmp_path / "feedback"
    folder.mkdir()
    (folder / "my-notes.md").write_text("the lecturer's", encoding="utf-8")
    first = [StudentResult(name, tmp_path / f"{name}.py") for name in ("ada", "ben", "cy")]
    write_feedback(first, folder)
    (folder / "cy.md").write_text("edited by the lecturer", encoding="utf-8")
    write_feedback(first[:1], folder)  # ben and cy are no longer in the class
    assert sorted(p.name for p in folder.glob("*.md")) == ["ada.md", "cy.md", "my-notes.md"]
    assert not list(folder.glob("*.part"))


@contextlib.contextmanager
def files_limited_to(size: int) -> Iterator[None]:
    """Writes to regular files of this process fail past ``size`` bytes (``EFBIG``, as on a
    full disk: ``RLIMIT_FSIZE``, soft, with ``SIGXFSZ`` ignored); both restored after.
    Pipes are not files: pytest-xdist's channel is not limited."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)


def test_a_full_disk_leaves_the_previous_marks(tmp_path: Path) -> None:
    """Re-grading under a file-size limit (writes fail with EFBIG, as on a full disk):
    the previous marks.csv and feedback as they were, no temporary file left. In this
    process, the limit lifted after (a child process for it cost 0.2 s of CPU, its
    start-up); the command's exit 74 is the slow test's below."""
    out = tmp_path / "out"
    many = [StudentResult(f"student{i:03}", tmp_path / "x.py") for i in range(200)]
    out.mkdir()
    write_marks(many[:2], out / "marks.csv")
    write_feedback(many[:2], out / "feedback")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    said = []
    with files_limited_to(2000):
        try:
            write_marks(many, out / "marks.csv")
        except OSError as error:
            said.append(f"marks {error}")
        many[0] = replace(many[0], notes=("x" * 5000,))
        try:
            write_feedback(many, out / "feedback")
        except OSError as error:
            said.append(f"feedback {error}")
    assert [line.split()[0] for line in said] == ["marks", "feedback"]
    assert all("cannot write" in line for line in said), said
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_a_failed_write_raises_and_keeps_the_old_file(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "marks.csv"
    path.write_text("old\n", encoding="utf-8")

    def full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(written.os, "write", full)
    with pytest.raises(OutputError):
        written.write_files(tmp_path, {"a.md": "new"}, replace=True)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marks.csv"]


def grade_cli(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cp_queens", "grade", *argv, *ISOLATION],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def test_a_judge_that_fails_costs_only_that_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``model`` returning ``[{Key(): 1}]`` (a hashable Mapping as a key) crashed the judge:
    exit 70, no marks for anyone. Now it is that submission's row, for a FILE too. The
    command runs in this process (the judge is under test, not the start-up: 0.4 s less
    CPU); the submission still runs in its room."""
    (tmp_path / "key.py").write_text(MAPPING_KEY, encoding="utf-8")
    code, out, err = run_cli(capsys, "grade", str(tmp_path / "key.py"), "--n", "1..3", *ISOLATION)
    assert code == 1, err
    assert "Feedback for key" in out


@pytest.mark.slow
def test_a_judge_that_fails_costs_only_that_row_in_a_class(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "key.py").write_text(MAPPING_KEY, encoding="utf-8")
    (folder / "right.py").write_text(RIGHT, encoding="utf-8")
    for task in ("solutions", "dominate"):
        out = tmp_path / task
        done = grade_cli(str(folder), "--n", "4..5", "--task", task, "--out", str(out))
        assert done.returncode == 0, done.stderr
        with open(out / "marks.csv", encoding="utf-8") as handle:
            rows = {row["student"]: row for row in csv.DictReader(handle)}
        assert set(rows) == {"key", "right"}
        assert rows["key"]["points"] == "0"


#: A submission that sleeps in its model, once it has said so (a file in its folder).
SLEEPER = "import time\ndef model(n):\n    open('asleep', 'w').close()\n    time.sleep(600)\n"


def asleep(grader: psutil.Process) -> bool:
    """Is a process of one of the grader's rooms in a folder that holds ``asleep``?"""
    with contextlib.suppress(psutil.Error):
        for process in grader.children(recursive=True):
            if os.path.exists(f"/proc/{process.pid}/cwd/asleep"):
                return True
    return False


@pytest.mark.parametrize(
    ("stop", "earlier"),
    [
        (signal.SIGINT, False),
        pytest.param(signal.SIGTERM, True, marks=pytest.mark.slow, id="sigterm-earlier-marks"),
    ],
)
def test_ctrl_c_keeps_the_rows_graded_before_it(tmp_path: Path, stop: int, earlier: bool) -> None:
    """Three quick submissions, then two that sleep: SIGINT (or SIGTERM) once the first
    sleeper runs. Exit 130 without waiting for the sleeper (it sleeps 600 s: the hang
    guard, 120 s, stops a grader that waits for it; no tighter wall-clock bound, as at
    load 18 the exit once took over 5 s), the three quick ones in marks.csv, the
    sleepers' rooms gone. A whole class's marks.csv from
    an earlier run is left as it was: the rows go to marks.partial.csv, which the next
    complete run removes."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("a1", "a2", "a3"):
        (folder / f"{name}.py").write_text("def model(n):\n    return [[0]]\n")
    for name in ("z1", "z2"):
        (folder / f"{name}.py").write_text(SLEEPER)
    out = tmp_path / "out"
    whole = "student,points\nevery,row\n"
    if earlier:
        out.mkdir()
        (out / "marks.csv").write_text(whole)
    argv = ["grade", str(folder), "--n", "1", "--jobs", "1", "--out", str(out), *ISOLATION]
    child = subprocess.Popen(
        [sys.executable, "-m", "cp_queens", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    grader = psutil.Process(child.pid)
    rooms: set[int] = set()
    deadline = time.monotonic() + 120
    while len(rooms) < 4 and time.monotonic() < deadline:  # the fourth room: z1 is running
        for process in grader.children():
            with contextlib.suppress(psutil.Error):
                line = process.cmdline()  # a room runs the harness; bubblewrap's probe
                if "--probe" not in line and any("child.py" in word for word in line):
                    rooms.add(process.pid)  # is no room, nor a helper of the sandbox
        time.sleep(0.01)
    assert len(rooms) >= 4
    # The signal comes while z1's model sleeps: it says so with a file in its working
    # directory (the room's scratch folder), read through /proc. Where /proc does not show
    # a room's files (not root), half a second after its room started, as this always
    # waited (0.4 s more than the file takes to come).
    until = time.monotonic() + 0.5
    while time.monotonic() < until and not asleep(grader):
        time.sleep(0.01)
    child.send_signal(stop)
    _, stderr = child.communicate(timeout=120)  # a hang guard; the sleeper sleeps 600 s
    assert child.returncode == 130, stderr
    written = out / ("marks.partial.csv" if earlier else "marks.csv")
    with open(written, encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert set(rows) == {"a1", "a2", "a3"}
    assert b"3 of 5 graded" in stderr and str(written).encode() in stderr
    assert not [pid for pid in rooms if psutil.pid_exists(pid)]
    if earlier:
        assert (out / "marks.csv").read_text() == whole
        for name in ("z1", "z2"):
            (folder / f"{name}.py").write_text("def model(n):\n    return [[0]]\n")
        again = grade_cli(str(folder), "--n", "1", "--jobs", "1", "--out", str(out))
        assert again.returncode == 0, again.stderr
        assert not (out / "marks.partial.csv").exists()
        assert "a1" in (out / "marks.csv").read_text()


@pytest.mark.slow
def test_a_class_of_every_kind_of_entry(tmp_path: Path) -> None:
    """Issue 35's "done when": one row per entry, the right models full marks (the BOM one
    and the folders of several files included), marks.csv whole and free of formulas."""
    folder = write_class(tmp_path / "class")
    out = tmp_path / "out"
    done = grade_cli(str(folder), "--n", "1..6", "--out", str(out), timeout=600)
    assert done.returncode in (0, 1), done.stderr
    text = (out / "marks.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    students = {row["student"].removeprefix("'"): row for row in rows}
    assert set(students) == set(EXPECTED)
    for row in rows:
        assert not any(value.startswith(written.FORMULA_STARTS) for value in row.values()), row
    right = [s for s, (status, _) in EXPECTED.items() if status == "graded" and s != "key"]
    for student in right:
        row = students[student]
        assert row["points"] == row["max"], (student, row)
    assert students["key"]["points"] == "0"
    for student, (status, _) in EXPECTED.items():
        if student == "key":  # its row, 0 points, whether the judge copes or fails
            assert students[student]["status"] in ("graded", "grader error")
        else:
            assert students[student]["status"] == status, student
    assert f"{len(os.listdir(folder))} entries" in done.stdout.replace("\n", " ")


@pytest.mark.slow
def test_a_full_disk_during_a_regrade_keeps_the_previous_marks(tmp_path: Path) -> None:
    """From the command line: a class graded, then graded again where writes fail past
    300 bytes (``RLIMIT_FSIZE``, soft: the rooms raise their own). Exit 74 with one line,
    and marks.csv and the feedback as the first run left them."""
    import resource

    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("ada", "ben"):
        (folder / f"{name}.py").write_text(RIGHT, encoding="utf-8")
    out = tmp_path / "out"
    assert grade_cli(str(folder), "--n", "1..4", "--out", str(out)).returncode == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (folder / "cy.py").write_text(RIGHT, encoding="utf-8")

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (300, resource.RLIM_INFINITY))

    argv = ["grade", str(folder), "--n", "1..4", "--out", str(out), *ISOLATION]
    done = subprocess.run(
        [sys.executable, "-m", "cp_queens", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        preexec_fn=small_disk,
    )
    assert done.returncode == 74, done.stderr
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_right_model_saved_with_a_bom_gets_full_marks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Windows Notepad's UTF-8 BOM: Python runs the file; it scored 0 ("invalid
    non-printable character U+FEFF"). Graded by the command in this process, the file in
    its room (a fresh grader process would only add its start-up)."""
    path = tmp_path / "notepad.py"
    path.write_bytes(b"\xef\xbb\xbf" + RIGHT.encode())
    code, out, err = run_cli(capsys, "grade", str(path), "--n", "1..5", *ISOLATION)
    assert code == 0, out + err
    assert "**Points: 7 of 7.**" in out  # 1 + 1 + 1 + 2 + 2: full marks
