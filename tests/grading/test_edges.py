"""Issue 46's mistakes, each named by its own hint from the evidence, and never by a guess
about symmetry breaking: every submission here is one of ``tests/mistakes``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cp_queens.grading.tasks.solutions.judge import check_model
from tests import mistakes


def _model(source: str) -> Any:
    namespace: dict[str, Any] = {"__name__": "submission"}
    exec(compile(source, "submission.py", "exec"), namespace)
    return namespace["model"]


def _hints(source: str, n_max: int = 6) -> list[str]:
    return [line for line in check_model(_model(source), n_max).details() if "hint" in line]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("return_in_loop", "model(4) returned one board; the 4-board has 2 solutions"),
        ("min_conflicts", "MinConflictsSolver"),
        ("strings", "drawn as text"),
        ("row_short", "one row short"),
        ("keeps_boards", "mutable default argument"),
    ],
)
def test_each_mistake_has_its_own_hint_and_no_symmetry_guess(name: str, said: str) -> None:
    hints = _hints(str(mistakes.SOURCES[name]))
    assert any(said in hint for hint in hints), hints
    assert not any("symmetry" in hint or "mirror" in hint for hint in hints), hints


def test_a_text_board_is_never_right_not_even_at_n_1() -> None:
    report = check_model(_model(mistakes.STRINGS), 4)
    assert not report.rows[0].ok
    assert "drawn as text" in str(report.first_invalid)
    assert "[row.index('Q') for row in board]" in "\n".join(report.details())


def test_a_row_short_is_told_at_n_1_where_the_board_is_empty() -> None:
    hints = _hints(mistakes.ROW_SHORT, 3)
    assert hints[0].startswith("hint (n=1): every board is one row short")
    assert len(hints) == 1  # the same pattern at n = 2, 3 is not said again


def test_boards_kept_between_calls_are_not_called_a_row_short() -> None:
    hints = _hints(mistakes.KEEPS_BOARDS)
    assert hints and not any("row short" in hint for hint in hints)


def test_a_right_model_and_a_symmetry_breaking_one_keep_their_hints() -> None:
    assert _hints(mistakes.RIGHT) == []
    half = mistakes.RIGHT.replace(
        "for col in range(n):",
        "for col in range(n):\n"
        "            if row == 0 and col >= (n + 1) // 2:\n"
        "                break",
    )
    assert any("mirror" in hint or "symmetr" in hint for hint in _hints(half))


def _outcome(sizes: list[int], stopped_at: int | None, cpu: float) -> Any:
    """A run as the sandbox reports it: right boards for each size, or stopped at the CPU
    limit at ``stopped_at``, having used ``cpu`` seconds."""
    from cp_queens.grading import sandbox, tasks

    messages: list[dict[str, Any]] = [{"event": "loaded"}]
    for n in sizes:
        messages.append({"event": "start", "n": n})
        if n == stopped_at:
            break
        boards = [list(q) for q in tasks.reference("solutions", n)]
        messages.append(
            {"event": "result", "n": n, "kind": "items", "sized": True, "items": boards}
        )
    return sandbox.Outcome(
        messages=messages,
        stopped="cpu" if stopped_at else None,
        cpu_seconds=cpu,
        cpu_limit=5.0,
        returncode=-9 if stopped_at else 0,
    )


def test_a_verdict_near_the_cpu_limit_is_measured_again_and_the_better_run_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cp_queens.grading import grade as grading
    from cp_queens.grading.marking.marks import feedback, write_marks
    from cp_queens.grading.rubric import load

    runs = iter([_outcome([1, 4], 4, 5.03), _outcome([1, 4], None, 4.52)])
    monkeypatch.setattr(grading.sandbox, "run", lambda *args, **kwargs: next(runs))
    mistakes.write(tmp_path / "class", "ada", mistakes.RIGHT)
    [result] = grading.grade(tmp_path / "class", [1, 4], isolation="none")
    assert result.statuses() == ["ok", "ok"] and result.full_marks
    [both] = result.reruns
    assert "cpu limit at n=4: 5.03 s of CPU measured" in both and "4.52 s of CPU" in both
    assert "the second run counts" in both
    text = feedback(result)
    assert "5.03 s" in text and "4.52 s" in text and "5.0 s of CPU" not in text
    write_marks([result], tmp_path / "marks.csv", load())
    assert "5.03 s" in (tmp_path / "marks.csv").read_text(encoding="utf-8")


def test_a_verdict_far_over_the_limit_is_not_measured_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cp_queens.grading import grade as grading

    runs = iter([_outcome([1, 4], 4, 7.5)])
    monkeypatch.setattr(grading.sandbox, "run", lambda *args, **kwargs: next(runs))
    mistakes.write(tmp_path / "class", "ada", mistakes.RIGHT)
    [result] = grading.grade(tmp_path / "class", [1, 4], isolation="none")
    assert result.statuses() == ["ok", "cpu limit"] and result.reruns == ()
    assert "stopped after 7.50 s of CPU" in result.sizes[1].problem  # measured, not 5


ISOLATION = "bwrap" if __import__("shutil").which("bwrap") else "none"


def _graded(tmp_path: Path, name: str, sizes: range = range(1, 6)) -> Any:
    from cp_queens.grading.grade import grade_file

    files = mistakes.SOURCES.get(name) or mistakes.FOLDERS[name]
    where = mistakes.write(tmp_path, name, files)
    path = where / "model.py" if where.is_dir() else where
    return grade_file(path, sizes, isolation=ISOLATION)


def test_a_right_two_file_submission_checked_alone_gets_what_the_class_gives(
    tmp_path: Path,
) -> None:
    from cp_queens.grading.grade import grade

    alone = _graded(tmp_path / "mine", "two_files")
    [in_class] = grade(tmp_path / "mine", range(1, 6), isolation=ISOLATION)
    assert alone.full_marks and in_class.full_marks
    assert alone.points == in_class.points


def test_a_syntax_error_in_a_helper_names_the_helper_and_its_line(tmp_path: Path) -> None:
    result = _graded(tmp_path, "helper_syntax")
    said = " ".join(result.notes)
    assert "(helpers.py, line 5)" in said and "line 2" not in said


@pytest.mark.parametrize(
    ("name", "said"),
    [
        (
            "tqdm",
            "tqdm is not allowed in a submission; allowed: the standard library and "
            "ortools, constraint, numpy",
        ),
        ("n_queens", "it defines n_queens(n): name it model, or add the line model = n_queens"),
    ],
)
def test_right_work_that_does_not_load_is_told_the_fix(
    tmp_path: Path, name: str, said: str
) -> None:
    result = _graded(tmp_path, name, range(1, 3))
    assert any(said in note for note in result.notes), result.notes


def test_a_windows_1252_file_is_read_and_told_to_be_saved_as_utf_8(tmp_path: Path) -> None:
    result = _graded(tmp_path, "windows_1252")
    assert result.full_marks
    assert any(
        "Windows-1252: line 1 is not UTF-8 (save the file as UTF-8)" in n for n in result.notes
    )


def test_a_file_declaring_an_encoding_it_is_not_in_is_refused_with_its_line(tmp_path: Path) -> None:
    from cp_queens.grading.intake.discover import read_submission

    path = tmp_path / "ann.py"
    path.write_bytes(b"# coding: utf-8\nx = 1\ns = '\xe9'\n")
    submission = read_submission("ann", path)
    assert submission.refused is not None
    assert "line 3" in submission.refused and "save the file as UTF-8" in submission.refused


def test_a_5_mb_notebook_of_plots_is_graded_by_its_code(tmp_path: Path) -> None:
    from cp_queens.grading.grade import grade_file

    path = tmp_path / "plots.ipynb"
    path.write_bytes(mistakes.plot_notebook(5.0))
    assert path.stat().st_size > 5 << 20
    result = grade_file(path, range(1, 6), isolation=ISOLATION)
    assert result.full_marks
    assert any("clear the outputs" in note for note in result.notes)


def test_an_archive_in_a_students_download_folder_says_unpack_it(tmp_path: Path) -> None:
    from cp_queens.grading.grade import grade

    folder = tmp_path / "class" / "Ann Lee_1234_assignsubmission_file_"
    folder.mkdir(parents=True)
    (folder / "queens.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    mistakes.write(tmp_path / "class", "bob", mistakes.RIGHT)
    rows = {r.student: r for r in grade(tmp_path / "class", [4], isolation=ISOLATION)}
    assert "unpack it" in rows["Ann Lee"].notes[0] and "queens.zip" in rows["Ann Lee"].notes[0]


def test_the_course_sample_key_handed_in_is_flagged_for_the_lecturer_only(tmp_path: Path) -> None:
    from cp_queens.grading.grade import grade
    from cp_queens.grading.marking.marks import feedback
    from tests.helpers import ROOT

    key = (ROOT / "examples" / "assignment" / "submissions" / "ada.py").read_text()
    folder = tmp_path / "class"
    mistakes.write(folder, "zoe", key)
    mistakes.write(folder, "yan", key.replace("    ", "  ").replace("# Sample", "# My own"))
    mistakes.write(folder, "bob", mistakes.RIGHT)
    rows = {r.student: r for r in grade(folder, [1, 4], isolation=ISOLATION)}
    for name in ("zoe", "yan"):
        assert any("examples/assignment/submissions/ada.py" in f for f in rows[name].flags)
        assert "ada.py" not in feedback(rows[name])  # the lecturer's, not the student's
    assert rows["zoe"].nearest == "yan 1.00"
    assert rows["bob"].flags == () and rows["bob"].full_marks


def test_the_course_class_graded_where_it_ships_is_no_copy_of_itself() -> None:
    from cp_queens.grading import copies
    from tests.helpers import ROOT

    ada = ROOT / "examples" / "assignment" / "submissions" / "ada.py"
    digest = copies.fingerprint(ada.read_text())
    assert copies.flags(["ada"], [digest], paths=[ada]) == [[]]
    assert copies.flags(["ada"], [digest], paths=[Path("elsewhere/ada.py")]) != [[]]


SEED = "edges-seed"


def test_a_roster_gets_one_instance_file_each_and_a_student_checks_theirs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from tests.helpers import run_cli

    roster = tmp_path / "roster.csv"
    roster.write_text('Student,ID\n"Lovelace, Ada",201\n"Turing, Alan",202\n', "utf-8")
    out = tmp_path / "instances"
    code, said, err = run_cli(
        capsys, "grade", "--variant", SEED, "--show-instance", "ALL", "--roster", str(roster),
        "--n", "4..6", "--out", str(out),
    )  # fmt: skip
    assert code == 0, err
    assert "n = 7, hidden" in said
    handed = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert handed == ["201.json", "202.json"]
    record = json.loads((out / "201.json").read_text("utf-8"))
    assert [board["n"] for board in record["boards"]] == [4, 5, 6] and record["hidden"] == [7]
    assert all("count" in board and "solutions" not in board for board in record["boards"])
    model = tmp_path / "model.py"
    model.write_text(mistakes.COMPLETIONS, encoding="utf-8")
    code, text, err = run_cli(capsys, "grade", str(model), "--instance", str(out / "201.json"))
    assert code == 0, text + err
    assert "Points: 6 of 6" in text and "n = 7, a board you have not seen" in text
    # A board whose count is not its own (edited, or another student's) is refused.
    record["boards"][2]["count"] += 3
    (out / "201.json").write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run_cli(capsys, "grade", str(model), "--instance", str(out / "201.json"))
    assert code == 2 and "not the one handed out" in err


def test_answers_pasted_for_the_boards_handed_out_do_not_pass_the_hidden_size(
    tmp_path: Path,
) -> None:
    import cp_queens
    from cp_queens.grading.grade import grade
    from cp_queens.grading.tasks.variants import Variant

    variant = Variant(SEED)
    pasted = {
        n: [list(q) for q in cp_queens.solutions(variant.instance("solutions", "s1", n).problem())]
        for n in range(4, 7)
    }
    source = f"ANSWERS = {pasted!r}\n\n\ndef model(n, queens=None, blocked=()):\n"
    source += "    return ANSWERS.get(n, [])\n"
    mistakes.write(tmp_path / "class", "s1", source)
    [result] = grade(tmp_path / "class", range(4, 7), variant=variant, isolation=ISOLATION)
    assert [size.n for size in result.sizes] == [4, 5, 6, 7]
    assert result.statuses()[:3] == ["ok"] * 3 and result.statuses()[3] != "ok"
    assert not result.full_marks


def test_parallel_enumeration_set_any_way_is_named_and_marked_the_same_every_run(
    tmp_path: Path,
) -> None:
    from cp_queens.grading.marking.marks import feedback

    runs = [_graded(tmp_path / f"run{i}", "parallel_setattr", range(1, 7)) for i in range(2)]
    assert runs[0].points == runs[1].points == runs[0].max_points / 2
    text = feedback(runs[0])
    assert "CP-SAT was asked to enumerate every solution on 8 workers" in text
    assert "num_workers = 1" in text and "symmetry" not in text
    assert runs[0].points > _graded(tmp_path / "nodiag", "no_diagonal", range(1, 7)).points
    for name in ("parallel_text", "parallel_merge"):
        other = _graded(tmp_path / name, name, range(4, 6))
        assert other.statuses() == ["parallel enumeration"] * 2, name
        assert "8 workers" in other.notes[0]


def test_a_students_own_time_limit_is_named(tmp_path: Path) -> None:
    result = _graded(tmp_path, "time_limit", range(4, 6))
    assert any("max_time_in_seconds = 0.5, line 22" in note for note in result.notes)


def test_the_class_summary_tells_the_lecturer_what_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.helpers import ROOT, run_cli

    key = (ROOT / "examples" / "assignment" / "submissions" / "ada.py").read_text()
    mistakes.write(tmp_path / "class", "zoe", key)
    mistakes.write(tmp_path / "class", "bob", mistakes.RIGHT)
    out = tmp_path / "out"
    code, said, err = run_cli(
        capsys, "grade", str(tmp_path / "class"), "--n", "4", "--out", str(out),
        "--isolation", ISOLATION,
    )  # fmt: skip
    assert code == 0, err
    assert "flagged for the lecturer: zoe: copy: the course's examples/assignment" in said
    assert "bob:" not in said
    assert "examples/assignment" not in (out / "feedback" / "zoe.md").read_text("utf-8")


def test_a_verdict_that_stays_at_the_limit_is_measured_three_times_and_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cp_queens.grading import grade as grading
    from cp_queens.grading.borderline import RERUNS

    runs = iter([_outcome([1, 4], 4, 5.02 + i / 100) for i in range(1 + RERUNS)])
    monkeypatch.setattr(grading.sandbox, "run", lambda *args, **kwargs: next(runs))
    mistakes.write(tmp_path / "class", "ada", mistakes.RIGHT)
    [result] = grading.grade(tmp_path / "class", [1, 4], isolation="none")
    assert result.statuses() == ["ok", "cpu limit"]
    [said] = result.reruns
    assert "5.02 s" in said and "5.03 s" in said and "5.04 s" in said
    assert "the first run counts" in said
    assert next(runs, None) is None  # every run asked for was made, and no more
