"""``cp-queens grade --n``: the grader reads its board sizes itself, with its own bounds."""

from __future__ import annotations

import pytest

from cp_queens.grading import tasks
from cp_queens.grading.grade import parse_sizes
from cp_queens.grading.results import GradeError
from tests.helpers import run_cli

DOMINATE = tasks.get("dominate").largest


@pytest.mark.parametrize(
    ("text", "sizes"),
    [("1..9", list(range(1, 10))), ("8", [8]), ("6, 4,8,4", [4, 6, 8]), ("3..3", [3])],
)
def test_sizes_are_read_sorted_and_once(text: str, sizes: list[int]) -> None:
    assert parse_sizes(text) == sizes


@pytest.mark.parametrize(
    ("text", "task", "says"),
    [
        ("0..4", "solutions", "board size 0: the grader takes 1..12 for task solutions"),
        ("1..13", "solutions", "board size 13: the grader takes 1..12"),
        (f"{DOMINATE + 1}", "dominate", f"takes 1..{DOMINATE}"),
        ("9..4", "solutions", "'9..4' is an empty range"),
        ("4-9", "solutions", "cannot read '4-9' in '4-9' (expected e.g. 1..9 or 4,6,8)"),
        ("١٢", "solutions", "cannot read"),  # other scripts' digits, which int() would take
        ("1" * 5000, "solutions", "cannot read"),  # not int()'s digit limit: one line
        ("", "solutions", "cannot read ''"),
    ],
)
def test_bad_sizes_are_named(text: str, task: str, says: str) -> None:
    with pytest.raises(GradeError) as refused:
        parse_sizes(text, task)
    assert says in str(refused.value) and len(str(refused.value)) < 200


def test_the_command_line_names_the_flag(capsys, tmp_path) -> None:
    code, out, err = run_cli(capsys, "grade", str(tmp_path), "--n", "1..40")
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "cp-queens: error: --n: board size 40: the grader takes 1..12 for task solutions"
    ]


def test_a_class_overrides_are_checked_before_it_runs(tmp_path) -> None:
    """The overrides module reads and checks a class's decisions against its folder and
    its rubric's maximum (13 points for 1..9 by default), before anything runs."""
    from cp_queens.grading.marking.overrides import OverrideError, read_for_class
    from cp_queens.grading.rubric import load

    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text("def model(n):\n    return []\n", encoding="utf-8")
    rubric = load(None).for_task("solutions")
    sizes = parse_sizes("1..9")
    path = tmp_path / "overrides.csv"
    path.write_text("student,points,reason\nalice,12,a fair mark\n", encoding="utf-8")
    assert set(read_for_class(path, folder, rubric, sizes)) == {"alice"}
    for line, says in (("bob,12,typo", "bob: no such student"), ("alice,120,typo", "alice: ")):
        path.write_text(f"student,points,reason\n{line}\n", encoding="utf-8")
        with pytest.raises(OverrideError, match=says):
            read_for_class(path, folder, rubric, sizes)


@pytest.mark.parametrize(
    "text",
    ["4 .. 5", "4..5", " 8 ", "4,6, 8", "4 ..5,7", "+4..5", "4-9", "4...5", "a", "", "4,,5",
     "١٢", "1" * 5000, "0..3", "5..4", "4 . . 5"],
)  # fmt: skip
def test_compare_and_grade_read_the_same_sizes(text: str) -> None:
    """One grammar for every --n (cp_queens.sizes): a text within both commands' bounds is
    read by both, to the same sizes, or refused by both."""
    from cp_queens.compare import CompareError, parse_range

    try:
        compared: list[int] | None = parse_range(text)
    except CompareError:
        compared = None
    try:
        graded: list[int] | None = parse_sizes(text)
    except GradeError:
        graded = None
    assert compared == graded


def test_the_command_lines_take_spaces_around_the_dots(capsys, tmp_path) -> None:
    code, _, err = run_cli(capsys, "grade", str(tmp_path / "none"), "--n", "4 .. 5")
    assert code == 2 and "--n" not in err, err  # read; what is refused is the folder
