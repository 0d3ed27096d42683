"""Fuzzing the readers: hostile boards, JSON lines, CSV and checkpoints never crash.

Property: whatever the bytes, ``verify`` and ``complete`` end with exit 0, 1 or 2,
at most one error line on stderr, no traceback, in bounded time. The default run
keeps the budget small; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cp_queens.cli.exit_codes import ExitCode
from tests.helpers import run_cli

SQUARES = ".-_0Qq1xX #\t"
#: Pieces of every format the readers know, and of what breaks them.
PIECES = [
    "[",
    "]",
    "{",
    "}",
    ",",
    "q0",
    "q1",
    '"n": 8',
    '"queens": [[0, 0]]',
    "\n",
    "\r\n",
    "\ufeff",
    "-1",
    "99999999999999999999",
    "1e400",
    "NaN",
    "true",
    "null",
]

boards = st.lists(st.text(alphabet=SQUARES, max_size=12), max_size=12).map("\n".join)
structured = st.lists(
    st.one_of(st.sampled_from(PIECES), st.integers(-5, 20).map(str)), max_size=40
).map("".join)
raw = st.binary(max_size=200)


def _check(capsys, tmp_path: Path, data: bytes, command: str) -> None:
    path = tmp_path / "input"
    path.write_bytes(data)
    started = time.perf_counter()
    code, _, err = run_cli(
        capsys, command, str(path), *(["-e", "reference"] if command == "complete" else [])
    )
    assert time.perf_counter() - started < 10
    assert code in (ExitCode.OK, ExitCode.NEGATIVE, ExitCode.BAD_INPUT), err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("cp-queens")]
    assert len(errors) <= 1, err


def _fuzz(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )


@pytest.mark.parametrize("command", ["verify", "complete"])
@_fuzz(25)
@given(data=st.one_of(boards.map(str.encode), structured.map(str.encode), raw))
def test_any_input_is_an_answer_or_one_line(capsys, tmp_path, command: str, data: bytes) -> None:
    _check(capsys, tmp_path, data, command)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["verify", "complete"])
@_fuzz(400)
@given(data=st.one_of(boards.map(str.encode), structured.map(str.encode), raw))
def test_any_input_many_examples(capsys, tmp_path, command: str, data: bytes) -> None:
    _check(capsys, tmp_path, data, command)


@pytest.fixture(scope="module")
def finished_n6(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A finished checkpoint of n = 6, written once: each example appends to a copy (a
    count and its checkpoint's fsyncs per example were most of this test's time)."""
    from cp_queens import Problem
    from tests.helpers import ask

    path = tmp_path_factory.mktemp("ck") / "n6.jsonl"
    ask("fast", "count", Problem(6), workers=1, checkpoint=str(path))
    return path.read_bytes()


@_fuzz(25)
@given(tail=st.one_of(structured, boards))
def test_any_checkpoint_tail_is_refused_or_recomputed(
    tmp_path_factory, finished_n6: bytes, tail: str
) -> None:
    """A checkpoint with anything appended gives an exact count, a warning, or one error."""
    from cp_queens import Problem
    from cp_queens.errors import CpQueensError, CpQueensWarning
    from tests.helpers import ask

    path = tmp_path_factory.mktemp("ck") / "n6.jsonl"
    path.write_bytes(finished_n6 + tail.encode())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            found = ask("fast", "count", Problem(6), workers=1, checkpoint=str(path)).value
        except CpQueensError:
            return
    assert found == 4
    # The only warning there may be: which records were dropped and computed again.
    for warning in caught:
        assert issubclass(warning.category, CpQueensWarning), warning
        assert "dropped and computed again" in str(warning.message), warning
