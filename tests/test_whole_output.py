"""Output is whole or the run fails (issue 19, item 2): the ``ulimit -f`` reproducers.

A file-size limit makes writes fail part-way, as a full disk does. Every writer must
then exit 74 with one line, and leave only whole records: stdout (a regular file) cut
back to its last whole line or board, a file named with ``-o`` not created at all (or
an old one untouched).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from cp_queens.cli.exit_codes import ExitCode
from tests.helpers import run_cli

LIMIT = 100 * 1024  # ``ulimit -f 100``


def run(argv: list[str], stdout: Path | None, limit: int = LIMIT, cwd: Path | None = None):
    """``(ulimit -f LIMIT/1024; cp-queens argv > stdout)``."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    with open(stdout if stdout else os.devnull, "wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "cp_queens", *argv],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=limited,
            cwd=cwd,
        )
    errors = [line for line in done.stderr.splitlines() if not line.startswith("#")]
    return done.returncode, errors


def whole_records(text: str, fmt: str, n: int) -> int:
    """How many records ``text`` holds, asserting that each is whole."""
    if fmt == "jsonl":
        lines = text.splitlines(keepends=True)
        assert all(line.endswith("\n") and len(json.loads(line)) == n for line in lines)
        return len(lines)
    if fmt == "csv":
        lines = text.splitlines(keepends=True)
        assert lines[0] == ",".join(f"q{r}" for r in range(n)) + "\n"
        assert all(line.endswith("\n") and len(line.split(",")) == n for line in lines[1:])
        return len(lines) - 1
    boards = [board for board in text.split("\n\n") if board]
    for board in boards:
        rows = board.strip("\n").split("\n")
        assert len(rows) == n and all(row.count("Q") == 1 for row in rows), board
    assert text.endswith("\n")
    return len(boards)


#: One case in the default run: jsonl and csv go through the same line-cutting sink
#: (``lines=True``), so csv, the boards' record ends and the other engines are the slow
#: run's (0.2 s of CPU each, a whole ``cp-queens`` process under ``ulimit -f``).
ENUMERATE = [
    pytest.param("fast", "jsonl", id="fast-jsonl"),
    pytest.param("fast", "csv", id="fast-csv", marks=pytest.mark.slow),
    pytest.param("fast", "boards", id="fast-boards", marks=pytest.mark.slow),
    pytest.param("reference", "jsonl", id="reference-jsonl", marks=pytest.mark.slow),
    pytest.param("cpsat", "csv", id="cpsat-csv", marks=pytest.mark.slow),
    pytest.param("cpsat", "boards", id="cpsat-boards", marks=pytest.mark.slow),
    pytest.param("propagate", "jsonl", id="propagate-jsonl", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("engine", "fmt"), ENUMERATE)
def test_enumerate_to_a_full_stdout_exits_74_with_whole_records(
    tmp_path: Path, engine: str, fmt: str
) -> None:
    """``(ulimit -f 100; cp-queens enumerate 12 -e ENGINE --format FMT > f)``."""
    target = tmp_path / "f"
    code, errors = run(["enumerate", "12", "-e", engine, "--format", fmt], target)
    assert code == ExitCode.IO_ERROR
    assert errors == ["cp-queens: error: cannot write <stdout>: File too large"]
    text = target.read_text()
    assert 0 < whole_records(text, fmt, 12) < 14200
    assert len(text.encode()) <= LIMIT


@pytest.mark.slow
def test_enumerate_unique_to_a_full_stdout(tmp_path: Path) -> None:
    target = tmp_path / "f"
    code, errors = run(["enumerate", "12", "--unique", "--format", "jsonl"], target, 10_000)
    assert code == ExitCode.IO_ERROR and len(errors) == 1
    assert 0 < whole_records(target.read_text(), "jsonl", 12) < 1787


def test_solve_with_construct_to_a_full_stdout_exits_74(tmp_path: Path) -> None:
    """``(ulimit -f 1; cp-queens solve 1000 -e construct --format jsonl > f)``: no cut placement."""
    target = tmp_path / "f"
    code, errors = run(["solve", "1000", "-e", "construct", "--format", "jsonl"], target, 1024)
    assert code == ExitCode.IO_ERROR
    assert errors == ["cp-queens: error: cannot write <stdout>: File too large"]
    assert target.read_bytes() == b""  # one placement, which did not fit: none at all


@pytest.mark.parametrize("old", [None, "the previous results\n"], ids=["new", "existing"])
def test_boards_to_a_named_file_leave_no_partial_target(tmp_path: Path, old: str | None) -> None:
    """``(ulimit -f 100; cp-queens enumerate 12 --format boards -o f)``."""
    target = tmp_path / "f"
    if old is not None:
        target.write_text(old)
    code, errors = run(["enumerate", "12", "-e", "fast", "--format", "boards", "-o", "f"], None,
                       cwd=tmp_path)  # fmt: skip
    assert code == ExitCode.IO_ERROR
    assert errors == ["cp-queens: error: cannot write f: File too large"]
    if old is None:
        assert not target.exists()
    else:
        assert target.read_text() == old
    assert [p.name for p in tmp_path.iterdir()] == (["f"] if old else [])  # no temporary left


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "300", "-e", "construct", "--format", "svg", "-o", "f"],
        ["solve", "2000", "-e", "construct", "--format", "jsonl", "-o", "f"],
        ["enumerate", "12", "-e", "fast", "--format", "jsonl", "-o", "f"],
    ],
    ids=["svg", "jsonl", "enumerate-jsonl"],
)
def test_every_named_file_is_whole_or_absent(tmp_path: Path, argv: list[str]) -> None:
    code, errors = run(argv, None, limit=4096, cwd=tmp_path)
    assert code == ExitCode.IO_ERROR and len(errors) == 1 and "cannot write f" in errors[0]
    assert list(tmp_path.iterdir()) == []


def test_a_named_file_appears_whole_and_keeps_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No limit to set here: the CLI runs in this process (a fresh one is 0.1 CPU-s)."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "enumerate", "9", "-e", "fast", "--format", "csv", "-o", "f")
    errors = [line for line in err.splitlines() if not line.startswith("#")]
    assert code == ExitCode.OK and errors == [] and out == ""
    assert whole_records((tmp_path / "f").read_text(), "csv", 9) == 352
    assert [p.name for p in tmp_path.iterdir()] == ["f"]


@pytest.mark.slow
def test_a_trace_picture_is_whole_or_absent(tmp_path: Path) -> None:
    code, errors = run(["trace", "6", "--output", "t.svg"], None, limit=2048, cwd=tmp_path)
    assert code == ExitCode.IO_ERROR and len(errors) == 1 and "cannot write" in errors[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_pipe_closed_by_the_reader_is_still_not_an_error() -> None:
    """EPIPE keeps its own behaviour: the reader had what it wanted."""
    done = subprocess.run(
        f"{sys.executable} -m cp_queens enumerate 12 -e fast --format jsonl | head -1",
        shell=True,
        capture_output=True,
        text=True,
    )
    assert done.stdout.count("\n") == 1 and "error" not in done.stderr


def test_a_ctrl_c_as_a_write_returns_writes_nothing_twice(tmp_path, monkeypatch) -> None:
    """Ctrl-C landing just after ``os.write`` returned, before the writer counted what it
    wrote: the flush that follows must not write the same records again (a file then held
    its first 64 KB twice)."""
    from cp_queens import output

    target = tmp_path / "out.jsonl"
    fd = os.open(target, os.O_WRONLY | os.O_CREAT)
    sink = output.WholeRecords(fd, str(target), lines=True)
    real_write = os.write

    def write_then_interrupt(fd_: int, data: bytes) -> int:
        real_write(fd_, data)
        raise KeyboardInterrupt

    sink.write("[1, 3, 0, 2]\n", 1)
    monkeypatch.setattr(output.os, "write", write_then_interrupt)
    try:
        sink.flush_whole()
    except KeyboardInterrupt:
        monkeypatch.setattr(output.os, "write", real_write)
        sink.flush_whole()
    os.close(fd)
    assert target.read_text() == "[1, 3, 0, 2]\n"


def test_reading_a_stdin_that_refuses_a_flush_leaves_it_open_and_says_nothing_later(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wrapper that closed stdin's buffer when collected printed "Exception ignored"
    at a random later moment on 3.13 (pytest's captured stdin refuses the flush)."""
    import gc
    import io
    import types
    import warnings

    from cp_queens.cli._output import open_input

    class RefusesFlush(io.BytesIO):
        def flush(self) -> None:
            raise io.UnsupportedOperation("no flush here")

    buffer = RefusesFlush(b"\xef\xbb\xbf[1, 3, 0, 2]\r\n")
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=buffer))
    with open_input("-") as handle:
        assert handle.read() == "[1, 3, 0, 2]\n"
    unraisable: list[object] = []
    monkeypatch.setattr("sys.unraisablehook", unraisable.append)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gc.collect()
    assert unraisable == [] and not buffer.closed
