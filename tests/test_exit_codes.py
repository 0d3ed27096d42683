"""Every command ends in one of the documented exit codes, with one line saying why.

A test per code per command (where the command can reach the code): the code
a script sees must tell a proven "no" from a crash, and a complete answer from
one cut short. See :mod:`cp_queens.cli.exit_codes` and ``docs/exit-codes.md``.
"""

from __future__ import annotations

import contextlib
import importlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cp_queens.cli import build_parser, main
from cp_queens.cli.exit_codes import MEANINGS, ExitCode
from cp_queens.engines.base import Engine
from cp_queens.problem import Placement
from tests.helpers import run_cli

SOLVABLE = ". . . .\n. . . .\n. . . .\n. . . .\n"
DEAD_END = "Q . . .\n. . . .\n. . . .\n. . . .\n"  # a queen in the corner of 4x4: none
ATTACKING = "Q . . .\n. Q . .\n. . . .\n. . . .\n"


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    return run_cli(capsys, *argv)


def error_lines(err: str) -> list[str]:
    """The lines that are not statistics (``#`` lines are the engines' figures)."""
    return [line for line in err.splitlines() if not line.startswith("#")]


def check(capsys, argv: list[str], expected: ExitCode, message: str | None = None) -> str:
    code, out, err = run(capsys, argv)
    assert code == expected, (code, out, err)
    assert "Traceback" not in err
    if expected not in (ExitCode.OK, ExitCode.NEGATIVE):
        lines = error_lines(err)
        assert len(lines) == 1, err  # one line says what happened
        if message is not None:
            assert message in lines[0], err
    return out + err


@pytest.fixture
def board(tmp_path: Path):
    def write(text: str) -> str:
        path = tmp_path / "board.txt"
        path.write_text(text)
        return str(path)

    return write


# -- 0, 1, 2, 3, 4: the answers --------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["solve", "8"], ExitCode.OK),
        (["solve", "3"], ExitCode.NEGATIVE),
        (["solve", "0"], ExitCode.BAD_INPUT),
        (["solve", "60", "-e", "reference", "--time-limit", "0.01"], ExitCode.TIME_LIMIT),
        (["count", "8", "-e", "reference"], ExitCode.OK),
        (["count", "x"], ExitCode.BAD_INPUT),
        (["count", "14", "-e", "reference", "--time-limit", "0.01"], ExitCode.TIME_LIMIT),
        (["enumerate", "6"], ExitCode.OK),
        (["enumerate", "3"], ExitCode.NEGATIVE),
        (["enumerate", "6", "--limit", "-1"], ExitCode.BAD_INPUT),
        (["enumerate", "14", "-e", "reference", "--time-limit", "0.05"], ExitCode.TIME_LIMIT),
        # one size: compare runs each (engine, n) in a fresh process, 0.08 s of CPU each
        (["compare", "--n", "4", "--engines", "reference", "--repeat", "1"], ExitCode.OK),
        (["compare", "--n", "x"], ExitCode.BAD_INPUT),
    ],
)
def test_answers_have_their_codes(capsys, argv: list[str], expected: ExitCode) -> None:
    check(capsys, argv, expected)


def test_enumerate_stopped_by_time_says_how_many_were_written(capsys) -> None:
    code, out, err = run(
        capsys, ["enumerate", "14", "-e", "reference", "--time-limit", "0.05", "--format", "jsonl"]
    )
    written = len(out.splitlines())
    assert code == ExitCode.TIME_LIMIT
    assert f"after {written} solutions" in err and "time limit" in err


def test_count_stopped_by_time_is_no_answer_on_stdout(capsys) -> None:
    code, out, err = run(capsys, ["count", "14", "-e", "reference", "--time-limit", "0.01"])
    assert code == ExitCode.TIME_LIMIT and out == "" and "at least" in err


@pytest.mark.parametrize(
    ("text", "extra", "expected"),
    [
        (SOLVABLE, [], ExitCode.OK),
        (DEAD_END, [], ExitCode.NEGATIVE),
        (DEAD_END, ["--count"], ExitCode.NEGATIVE),
        (ATTACKING, [], ExitCode.BAD_INPUT),
        ("8", [], ExitCode.BAD_INPUT),
    ],
)
def test_complete_answers(capsys, board, text: str, extra: list[str], expected) -> None:
    check(capsys, ["complete", board(text), "-e", "reference", *extra], expected)


def test_complete_time_limit(capsys, board) -> None:
    path = board("\n".join(["." * 60] * 60))
    check(capsys, ["complete", path, "-e", "reference", "--time-limit", "0.01"], 4, "time limit")


def test_complete_disagreement(capsys, board, monkeypatch) -> None:
    monkeypatch.setattr("cp_queens.completion.cross_check", lambda *a, **k: "2 != 3")
    argv = ["complete", board(SOLVABLE), "--count", "-e", "reference", "-x", "cpsat"]
    check(capsys, argv, ExitCode.DISAGREE, "cross-check FAILED")


def test_compare_disagreement(capsys, monkeypatch) -> None:
    from cp_queens import compare

    real = compare.compare

    def lying(*args, **kwargs):
        runs = real(*args, **kwargs)
        runs[-1].agrees = False
        return runs

    monkeypatch.setattr("cp_queens.compare.compare", lying)
    check(capsys, ["compare", "--n", "5", "--engines", "reference", "--repeat", "1"], 3, "disagree")


@pytest.mark.parametrize(
    ("text", "expected", "says"),
    [
        ("[1, 3, 0, 2]\n", ExitCode.OK, "OK: 1"),
        ("[0, 1, 2, 3]\n", ExitCode.NEGATIVE, "FAILED"),
        ("", ExitCode.NEGATIVE, "NOTHING TO CHECK"),
        ("[]\n", ExitCode.NEGATIVE, "no queens to check"),
        ("\n\n   \n", ExitCode.NEGATIVE, "NOTHING TO CHECK"),
        ("[1, 3, 0, 2\n", ExitCode.BAD_INPUT, "not valid JSON"),
    ],
)
def test_verify_answers(capsys, board, text: str, expected: ExitCode, says: str) -> None:
    assert says in check(capsys, ["verify", board(text)], expected)


def test_verify_of_dev_null_is_nothing_to_check(capsys) -> None:
    assert "NOTHING TO CHECK" in check(capsys, ["verify", "/dev/null"], ExitCode.NEGATIVE)


# -- 70 internal error, 130 interrupted ---------------------------------------------------


def _raising(error: BaseException):
    def boom(*args, **kwargs):
        raise error

    return boom


#: The modules that say ``from cp_queens.verify import verify``, and the module itself.
VERIFY_BINDERS = (
    "cp_queens.verify",
    "cp_queens.completion",
    "cp_queens.engines._reported",
    "cp_queens.grading.tasks.solutions.judge",
    "cp_queens.grading.tasks.solutions.judge_file",
)


def _sabotage(monkeypatch, error: BaseException) -> None:
    """Every engine call, the verifier and the compare harness raise ``error``."""
    for method in ("first", "count", "solutions", "count_unique"):
        monkeypatch.setattr(Engine, method, _raising(error))
    # Every module that binds the verifier by name when it is imported gets the stand-in,
    # imported first: a module first imported under the sabotage (cp_queens.completion,
    # by `complete`) kept the raising stand-in after the test, and a later test of the same
    # process failed with "a bug". (cp_queens.verify: the module, not the function the
    # package exports under that name.)
    binders = [importlib.import_module(name) for name in VERIFY_BINDERS]  # all, then patch
    for module in binders:
        monkeypatch.setattr(module, "verify", _raising(error))
    monkeypatch.setattr("cp_queens.compare.compare", _raising(error))


def every_command(path: str) -> list[list[str]]:
    return [
        ["solve", "8"],
        ["count", "8", "-e", "reference"],
        ["enumerate", "8"],
        ["verify", path],
        ["complete", path],
        ["compare", "--n", "4", "--engines", "reference"],
    ]


def test_a_bug_is_one_line_with_code_70_in_every_command(capsys, monkeypatch, board) -> None:
    _sabotage(monkeypatch, TypeError("a bug\nsecond line"))
    for argv in every_command(board("[1, 3, 0, 2]\n")):
        if argv[0] == "complete":
            argv[1] = board(SOLVABLE)
        message = "internal error: TypeError: a bug (a bug in cp-queens; run again with --debug"
        check(capsys, argv, ExitCode.INTERNAL_ERROR, message)


def test_debug_shows_the_traceback(capsys, monkeypatch) -> None:
    _sabotage(monkeypatch, TypeError("a bug"))
    code, _, err = run(capsys, ["solve", "8", "--debug"])
    assert code == ExitCode.INTERNAL_ERROR and "Traceback" in err
    monkeypatch.setenv("CP_QUEENS_DEBUG", "1")
    code, _, err = run(capsys, ["solve", "8"])
    assert code == ExitCode.INTERNAL_ERROR and "Traceback" in err


def test_running_out_of_memory_is_named(capsys, monkeypatch) -> None:
    _sabotage(monkeypatch, MemoryError())
    check(capsys, ["solve", "8"], ExitCode.INTERNAL_ERROR, "out of memory")


def test_ctrl_c_is_130_in_every_command(capsys, monkeypatch, board) -> None:
    _sabotage(monkeypatch, KeyboardInterrupt())
    for argv in every_command(board("[1, 3, 0, 2]\n")):
        if argv[0] == "complete":
            argv[1] = board(SOLVABLE)
        check(capsys, argv, ExitCode.INTERRUPTED, "interrupted")


# -- 74 I/O failure -------------------------------------------------------------------------


@pytest.fixture
def full_stdout(monkeypatch):
    """Call it to put stdout on /dev/full: every write reaching the device fails (ENOSPC).

    Called in the test body, because capsys swaps sys.stdout in after fixtures are set up.
    """
    handle = open("/dev/full", "w")  # noqa: SIM115

    def use() -> None:
        monkeypatch.setattr(sys, "stdout", handle)

    yield use
    with contextlib.suppress(OSError):
        handle.close()


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "8"],
        ["solve", "8", "--format", "svg"],
        ["count", "8", "-e", "reference"],
        ["enumerate", "8", "--format", "jsonl"],
        ["enumerate", "8", "-e", "cpsat-board"],
        ["verify", "/dev/null"],
        ["compare", "--n", "4", "--engines", "reference"],
    ],
)
def test_a_full_disk_is_code_74(capsys, full_stdout, argv: list[str]) -> None:
    full_stdout()
    check(capsys, argv, ExitCode.IO_ERROR, "No space left on device")


def test_complete_to_a_full_disk_is_code_74(capsys, full_stdout, board) -> None:
    full_stdout()
    check(capsys, ["complete", board(SOLVABLE)], ExitCode.IO_ERROR, "cannot write <stdout>")


@pytest.mark.parametrize(
    "command", [["solve", "8"], ["enumerate", "6"], ["complete"], ["dominate", "5"]]
)
def test_an_output_file_that_cannot_be_made_is_code_2_before_the_work(
    capsys, board, monkeypatch, command
) -> None:
    """A bad ``-o`` is a bad argument, said at once: not exit 74 after the search."""
    from cp_queens.engines.base import Engine

    def no_work(*args, **kwargs):
        raise AssertionError("the engine was asked before the output was checked")

    for task in ("first", "count", "solutions"):
        monkeypatch.setattr(Engine, task, no_work)
    for target in ("/proc/version", "/nonexistent/x"):
        argv = [*command, "-o", target]
        if command == ["complete"]:
            argv.insert(1, board(SOLVABLE))
        check(capsys, argv, ExitCode.BAD_INPUT, f"cannot write {target}")


def test_an_output_file_in_a_missing_directory_is_code_2(capsys, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir.txt"
    check(capsys, ["solve", "8", "-o", str(target)], ExitCode.BAD_INPUT, "cannot write")


def test_closed_stdin_and_stdout_are_code_74(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    check(capsys, ["verify"], ExitCode.IO_ERROR, "cannot read <stdin>: it is closed")
    check(capsys, ["complete", "-"], ExitCode.IO_ERROR, "cannot read <stdin>")
    monkeypatch.setattr(sys, "stdout", None)
    code = main(["solve", "8"])
    assert code == ExitCode.IO_ERROR and "<stdout>: it is closed" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["results.csv", "results.json", "results.png"])
def test_an_unwritable_result_is_code_2_before_any_run(
    capsys, tmp_path: Path, monkeypatch, name: str
) -> None:
    """Found before the runs (minutes of them, maybe), not after: their work is not lost."""
    out = tmp_path / "report"
    out.mkdir()
    (out / name).mkdir()  # a directory where the file should go
    ran: list[object] = []
    monkeypatch.setattr("cp_queens.compare.compare", lambda *a, **k: ran.append(a) or [])
    argv = ["compare", "--n", "4", "--engines", "reference", "--out", str(out)]
    check(capsys, argv, ExitCode.BAD_INPUT, f"{name}: it is a directory")
    assert not ran and sorted(p.name for p in out.iterdir()) == [name]


def test_a_torn_line_is_cut_from_an_output_file(tmp_path: Path, monkeypatch) -> None:
    """A disk that fills up in the middle of a line: the file ends on the last whole one."""
    import errno
    import os

    from cp_queens.output import OutputError, WholeRecords

    target = tmp_path / "out.jsonl"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT)
    real_write, calls = os.write, []

    def full_disk(fd_: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd_, bytes(data[:30]))  # a short write, in the second line
        raise OSError(errno.ENOSPC, "No space left on device")

    sink = WholeRecords(fd, "out.jsonl", lines=True)
    sink.write("[1, 3, 0, 2]\n[2, 0, 3, 1]\n[1, 3, 0, 2]\n")
    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(OutputError, match=r"cannot write out\.jsonl: No space left on device"):
        sink.flush()
    monkeypatch.undo()
    os.close(fd)
    assert target.read_text() == "[1, 3, 0, 2]\n[2, 0, 3, 1]\n"


def test_ctrl_c_during_a_write_repeats_nothing_and_counts_what_was_kept(
    tmp_path: Path, monkeypatch
) -> None:
    """Ctrl-C in the middle of a write: the records after it are written once, and the
    sink's count of placements is the number of lines the file holds."""
    import os

    from cp_queens.output import WholeRecords
    from cp_queens.writers import Sink

    target = tmp_path / "out.jsonl"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT)
    real_write, calls = os.write, []

    def interrupted(fd_: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd_, bytes(data[:30]))  # a short write, then Ctrl-C
        raise KeyboardInterrupt

    out = WholeRecords(fd, "out.jsonl", lines=True)
    sink = Sink("jsonl", out)  # type: ignore[arg-type]
    for cols in ([1, 3, 0, 2], [2, 0, 3, 1], [1, 3, 0, 2]):
        sink.placement(Placement(cols))
    monkeypatch.setattr(os, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        out.flush()
    monkeypatch.undo()
    out.flush_whole()
    os.close(fd)
    lines = target.read_text().splitlines()
    assert lines == ["[1, 3, 0, 2]", "[2, 0, 3, 1]", "[1, 3, 0, 2]"]
    assert sink.kept == len(lines) == 3


# -- the table itself ------------------------------------------------------------------------


def test_help_and_docs_show_every_code() -> None:
    text = build_parser().format_help()
    docs = (Path(__file__).parent.parent / "docs" / "exit-codes.md").read_text()
    for code in ExitCode:
        assert f"  {int(code):>3}  {MEANINGS[code]}" in text
        assert f"| {int(code)} |" in docs
    assert len(set(ExitCode)) == len(MEANINGS)


def test_no_abort_when_a_stream_is_left_open_or_the_disk_is_full() -> None:
    """A CP-SAT thread still running at interpreter exit used to abort the process (134).

    The enumeration is written as boards: a board of 12 is 288 bytes, so the first 64 KB
    block meets the full disk some 230 solutions in, while CP-SAT searches on (as JSON
    lines it took some 1,700, half a second of solver CPU, to reach the same write)."""
    script = textwrap.dedent(
        """
        import sys
        import cp_queens
        from cp_queens.cli import main
        real = sys.stdout
        sys.stdout = open("/dev/full", "w")
        code = main(["enumerate", "12", "--format", "boards", "-e", "cpsat", "--method", "plain"])
        sys.stdout = real
        left_open = cp_queens.solutions(12, engine="cpsat-board")
        print(code, next(left_open).n, flush=True)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["74", "12"]
    assert "terminate called" not in done.stderr
