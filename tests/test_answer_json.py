"""Every answering command's ``--format json``: one document, valid against the schema the
package ships, and the exit code its outcome says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cp_queens.answer import SCHEMA_FILE, schema
from cp_queens.cli import main
from cp_queens.cli.exit_codes import ExitCode
from tests.helpers import run_cli

jsonschema = pytest.importorskip("jsonschema")

VALIDATOR = jsonschema.Draft202012Validator(schema())
ROOT = Path(__file__).resolve().parent.parent


def document_of(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    """Run the command; its stdout must be exactly one JSON document, valid by the schema."""
    code, out, _ = run_cli(capsys, *argv, "--format", "json")
    document = json.loads(out)  # one document, nothing before or after it
    errors = sorted(VALIDATOR.iter_errors(document), key=str)
    assert not errors, f"{argv}: {errors[0].message} at {list(errors[0].absolute_path)}"
    assert (
        code
        == {
            "answer": ExitCode.OK,
            "negative": ExitCode.NEGATIVE,
            "disagree": ExitCode.DISAGREE,
            "incomplete": ExitCode.TIME_LIMIT,
        }[document["outcome"]]
    )
    return code, document


def test_the_schema_is_a_valid_schema_and_shipped_as_package_data() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"*.schema.json"' in pyproject and (ROOT / "cp_queens" / SCHEMA_FILE).is_file()


@pytest.mark.parametrize(
    ("argv", "code", "value"),
    [
        (["solve", "6", "-e", "reference"], ExitCode.OK, [1, 3, 5, 0, 2, 4]),
        (["solve", "3", "-e", "reference"], ExitCode.NEGATIVE, None),
        (["count", "8", "-e", "reference"], ExitCode.OK, 92),
        (["count", "8", "-e", "fast"], ExitCode.OK, 92),
        (["count", "3", "-e", "reference"], ExitCode.OK, 0),
        (["enumerate", "6", "-e", "reference"], ExitCode.OK, 4),
        (["enumerate", "3", "-e", "reference"], ExitCode.NEGATIVE, 0),
        (["enumerate", "8", "-e", "fast", "--limit", "5"], ExitCode.OK, 5),
    ],
)
def test_solve_count_and_enumerate(capsys, argv: list[str], code: int, value: object) -> None:
    got, document = document_of(capsys, *argv, "-q")
    assert got == code and document["complete"] is True and document["value"] == value
    assert document["n"] == int(argv[1]) and document["stats"]["engine"] == argv[3]


@pytest.mark.parametrize(
    ("argv", "unique"),
    [
        (["-e", "fast"], 12),
        (["-e", "reference"], None),
        (["-e", "reference", "--unique"], 12),
        (["-e", "cpsat"], None),
        (["-e", "fast", "--time-limit", "1e-6"], "partial"),
        (["-e", "reference", "--time-limit", "1e-6"], "partial"),
    ],
)
def test_count_has_one_shape_whatever_the_engine(capsys, argv: list[str], unique: object) -> None:
    """``jq .value`` is the count, a number, with every engine; ``unique`` is always
    there, ``null`` where the engine did not count it (issue 38)."""
    n = 12 if unique == "partial" else 8  # 14,200 solutions: no engine counts them at once
    code, document = document_of(capsys, "count", str(n), *argv, "-q")
    assert document["task"] == "count" and "unique" in document
    VALIDATOR.validate(document)
    if unique == "partial":  # cut short at once: the same shape, under partial
        assert code == ExitCode.TIME_LIMIT and "value" not in document
        assert isinstance(document["partial"], int) and document["partial"] < 14200
        return
    assert code == ExitCode.OK and document["value"] == 92 and document["unique"] == unique


def test_enumerate_lists_its_placements_inside_the_document(capsys) -> None:
    _, document = document_of(capsys, "enumerate", "6", "-e", "reference", "-q")
    assert document["placements"] == [
        [1, 3, 5, 0, 2, 4],
        [2, 5, 1, 4, 0, 3],
        [3, 0, 4, 1, 5, 2],
        [4, 2, 0, 5, 3, 1],
    ]


def test_placements_written_in_blocks_make_the_same_document(capsys) -> None:
    # the fast engine hands whole NumPy blocks to the writer; the text is the same
    _, blocks = document_of(capsys, "enumerate", "9", "-e", "fast", "-q")
    _, rows = document_of(capsys, "enumerate", "9", "-e", "reference", "-q")
    assert blocks["placements"] == rows["placements"] and len(rows["placements"]) == 352
    assert blocks["value"] == rows["value"] == 352


def test_a_count_cut_short_exits_4_with_its_figure_under_partial(capsys) -> None:
    # the issue's own example (its limit was 0.5 s; any cut shows the shape, and the
    # search only burns CPU until the limit): the answer is incomplete, and says so
    code, document = document_of(
        capsys, "count", "15", "-e", "reference", "--time-limit", "0.05", "-q"
    )
    assert code == ExitCode.TIME_LIMIT and document["complete"] is False
    assert "value" not in document and 0 <= document["partial"] < 2_279_184
    assert document["reason"] == "time_limit"


@pytest.mark.parametrize(
    "argv",
    [
        # each search only burns CPU until the limit: a short one is the same cut
        ["solve", "3000", "-e", "reference", "--time-limit", "0.05"],
        ["enumerate", "15", "-e", "reference", "--time-limit", "0.05"],
        ["count", "16", "--unique", "-e", "reference", "--time-limit", "0.05"],
    ],
)
def test_every_task_cut_short_is_one_valid_document(capsys, argv: list[str]) -> None:
    code, document = document_of(capsys, *argv, "-q")
    assert code == ExitCode.TIME_LIMIT and document["outcome"] == "incomplete"
    if argv[0] == "enumerate":
        assert document["partial"] == len(document["placements"])


def test_verify_and_check(capsys, tmp_path: Path) -> None:
    placements = tmp_path / "p.jsonl"
    placements.write_text("[1, 3, 0, 2]\n[2, 0, 3, 1]\n")
    code, document = document_of(capsys, "verify", str(placements))
    assert code == ExitCode.OK and document["value"] is True and document["checked"] == 2
    code, document = document_of(capsys, "check", str(placements))
    assert code == ExitCode.OK and document["value"] is True and document["n"] == 4
    placements.write_text("[1, 3, 0, 2]\n[0, 1, 2, 3]\n")
    code, document = document_of(capsys, "verify", str(placements))
    assert code == ExitCode.NEGATIVE and document["failures"][0]["placement"] == 2
    code, document = document_of(capsys, "check", str(placements))
    assert code == ExitCode.NEGATIVE and document["missing"] == 1 and document["invalid"] == 1


@pytest.mark.parametrize(
    ("extra", "value"),
    [([], [0, 4, 7, 5, 2, 6, 1, 3]), (["--count"], 4), (["--all", "--limit", "2"], 2)],
)
def test_complete_in_every_mode(capsys, tmp_path: Path, extra: list[str], value: object) -> None:
    board = tmp_path / "board.txt"
    board.write_text("Q.......\n" + "........\n" * 7)
    code, document = document_of(capsys, "complete", str(board), "-e", "reference", *extra, "-q")
    assert code == ExitCode.OK and document["value"] == value
    assert document["fixed"] == [[0, 0]]


def test_a_cross_checked_count_carries_the_verdict(capsys, tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text("Q.......\n" + "........\n" * 7)
    _, document = document_of(capsys, "complete", str(board), "--count", "-x", "reference", "-q")
    assert document["value"] == 4
    assert document["cross_check"] == {"engine": "reference", "agrees": True, "difference": None}


def test_compare_keeps_a_partial_figure_out_of_the_answer_column(capsys) -> None:
    # the limit counts from the engine being ready: n = 6 ends in milliseconds, n = 14
    # only burns CPU until the limit (0.2 s: room for a loaded machine, 0.3 s before)
    code, document = document_of(
        capsys,
        "compare",
        "--n",
        "6,14",
        "--engines",
        "reference",
        "--time-limit",
        "0.2",
        "--repeat",
        "1",
    )
    assert code == ExitCode.OK
    finished, stopped = document["value"]
    assert finished["status"] == "ok" and finished["solutions"] == 4
    assert finished["lower_bound"] is None
    assert stopped["status"] == "timeout" and stopped["solutions"] is None
    assert stopped["lower_bound"] is not None and stopped["lower_bound"] < 365_596


def test_a_new_output_format_is_one_entry(capsys, monkeypatch) -> None:
    """Registered in ``cp_queens.writers`` alone, a format reaches every command that
    can use it: its ``--format`` choice, its ``--help``, and the writing."""
    from cp_queens import writers

    lisp = writers.Format(
        "lisp",
        "one s-expression per placement",
        draw=lambda placement, problem: f"({' '.join(map(str, placement.cols))})\n",
    )
    monkeypatch.setitem(writers.FORMATS, lisp.name, lisp)  # what register() does, undone after
    assert main(["solve", "4", "-e", "reference", "--format", "lisp", "-q"]) == 0
    assert capsys.readouterr().out == "(1 3 0 2)\n"
    assert main(["enumerate", "4", "-e", "reference", "--format", "lisp", "-q"]) == 0
    assert capsys.readouterr().out == "(1 3 0 2)\n(2 0 3 1)\n"
    with pytest.raises(SystemExit):
        main(["enumerate", "--help"])
    assert "lisp: one s-expression per placement" in " ".join(capsys.readouterr().out.split())
