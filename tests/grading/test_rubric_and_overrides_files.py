"""Issue 35: a lecturer's rubric and overrides read as editors save them, never without end.

A rubric saved with a BOM or in UTF-16, an overrides file saved by Excel ("CSV
UTF-8", a BOM) are read; ``/dev/zero`` is refused after a few megabytes; a limit
past what the kernel takes (``cpu_seconds = 1e19``, ``file_mb = 1e13``) or a
number that is not finite (``default = inf``) is refused with one line, where it
used to pass and give every student 0 (or ``inf`` marks); the largest limits
accepted do grade a right model.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import pytest

from cp_queens.grading import rubric as rubric_module
from cp_queens.grading.grade import grade_file
from cp_queens.grading.marking.overrides import OverrideError, read_overrides
from cp_queens.grading.rubric import RubricError, load
from cp_queens.grading.sandbox import room as sandbox_room
from tests.hostile import RIGHT

ISOLATION = None if sandbox_room.unavailable() is None else "none"


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", b"\xfe\xff")],
)
def test_a_rubric_with_a_bom_or_in_utf_16_is_read(
    tmp_path: Path, encoding: str, bom: bytes
) -> None:
    path = tmp_path / "week3.toml"
    path.write_bytes(bom + 'name = "wk3"\n[limits]\ncpu_seconds = 7\n'.encode(encoding))
    read = load(path)
    assert (read.name, read.limits.cpu_seconds) == ("wk3", 7)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "[limits]\ncpu_seconds = 1e19\n",
            "limits.cpu_seconds: at most 9007199254740992 (what the kernel takes)",
        ),
        ("[limits]\nfile_mb = 1e13\n", "limits.file_mb: at most 8796093022207 "),
        ("[limits]\nmemory_mb = 1e16\n", "limits.memory_mb: at most"),
        ("[limits]\nwall_seconds = inf\n", "limits.wall_seconds: a finite number"),
        ("[points]\ndefault = inf\n", "points.default: a finite number, got inf"),
        ('[points]\n"9" = nan\n', "points.9: a finite number"),
    ],
)
def test_a_limit_the_kernel_would_refuse_is_refused_here(
    tmp_path: Path, text: str, said: str
) -> None:
    path = tmp_path / "r.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RubricError, match=re.escape(said)):
        load(path)


def test_an_endless_or_odd_file_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(RubricError, match="/dev/zero: larger than 4 MB"):
        load("/dev/zero")
    with pytest.raises(OverrideError, match="/dev/zero: larger than 4 MB"):
        read_overrides("/dev/zero")
    with pytest.raises(RubricError, match="a folder, not a rubric file"):
        load(tmp_path)
    (tmp_path / "latin.toml").write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(RubricError, match="line 1: not UTF-8"):
        load(tmp_path / "latin.toml")


def test_overrides_saved_by_excel_are_read(tmp_path: Path) -> None:
    path = tmp_path / "decisions.csv"
    path.write_bytes(codecs.BOM_UTF8 + b'student,points,reason\r\neve,12,"1-based, fine"\r\n')
    assert read_overrides(path)["eve"].points == 12
    path.write_bytes("student,points,reason\neve,3,ok\n".encode("utf-16"))
    assert read_overrides(path)["eve"].reason == "ok"


def test_the_largest_limits_accepted_do_grade(tmp_path: Path) -> None:
    """Every numeric limit at the largest value the check lets through: the run is made
    (rlimits, tmpfs size, memory) and a right model gets full marks."""
    largest = {
        key: int(top) if key != "wall_seconds" else top
        for key, top in rubric_module._LIMIT_MAX.items()
    }
    path = tmp_path / "largest.toml"
    path.write_text(
        "[limits]\n" + "".join(f"{key} = {value!r}\n" for key, value in largest.items()),
        encoding="utf-8",
    )
    (tmp_path / "right.py").write_text(RIGHT, encoding="utf-8")
    result = grade_file(tmp_path / "right.py", range(1, 6), rubric=path, isolation=ISOLATION)
    assert result.full_marks, result.notes
