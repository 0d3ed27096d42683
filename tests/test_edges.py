"""Reproducers of issue 13 at the edges: each gives one line and the right exit code.

Hostile input, huge numbers, and requests this machine cannot finish are refused
before any work starts, with a line that names what and why.
"""

from __future__ import annotations

import io
import time

import numpy as np
import pytest

import cp_queens
from cp_queens import Problem, engines, limits
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.errors import CpQueensError, ParseError, TimeLimitError, UnsupportedTaskError
from cp_queens.formats import read_placements
from cp_queens.stats import TIME_LIMIT
from tests.helpers import ask, run_cli


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    return run_cli(capsys, *argv)


def one_error_line(capsys, argv: list[str], code: int, message: str) -> str:
    got, out, err = run(capsys, argv)
    lines = [line for line in err.splitlines() if not line.startswith("#")]
    assert got == code, (got, out, err)
    assert len(lines) == 1 and message in lines[0], err
    assert "Traceback" not in err
    return lines[0]


# -- hostile input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "\n", "not nested"),
        ("[1, [2]]\n", "not nested"),
        ("{" * 100_000 + "\n", "unexpected '{'"),
        ("[1," * 50_000 + "\n", "not nested"),
        ("q" * 10_000 + "\n", "row 0 has 10000 queens"),
    ],
)
def test_hostile_lines_are_one_parse_error(text: str, message: str) -> None:
    started = time.perf_counter()
    with pytest.raises(ParseError, match=message):
        list(read_placements(io.StringIO(text), "x"))
    assert time.perf_counter() - started < 2


def test_binary_input_is_one_line(capsys, tmp_path) -> None:
    path = tmp_path / "binary"
    path.write_bytes(bytes(range(256)) * 4)
    one_error_line(capsys, ["verify", str(path)], ExitCode.BAD_INPUT, "not UTF-8 text")
    one_error_line(capsys, ["complete", str(path)], ExitCode.BAD_INPUT, "not UTF-8 text")


def test_deeply_nested_input_to_verify_is_one_line(capsys, tmp_path) -> None:
    path = tmp_path / "nested.jsonl"
    path.write_text("[" * 100_000 + "\n")
    one_error_line(capsys, ["verify", str(path)], ExitCode.BAD_INPUT, "not nested")


# -- one board grammar --------------------------------------------------------------------

BOARD = ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"


@pytest.mark.parametrize(
    "text",
    [
        BOARD,
        BOARD.replace(" ", "\t"),
        BOARD.replace("\n", "\r\n"),
        "\ufeff" + BOARD,
        "# a comment\n" + BOARD,
        BOARD.replace(".", "-"),
        BOARD.replace(".", "0").replace("Q", "1"),
        BOARD.replace("Q", "q"),  # a board starting with 'q' is not csv
        "q . . .\n. . q .\n. . . .\n. . . .\n".replace(". . . .\n. . . .", ". . . q\n. q . .")
        and "q...\n..q.\n....\n....\n".replace("....\n....", "...q\n.q.."),
    ],
    ids=["spaces", "tabs", "crlf", "bom", "comment", "dashes", "binary", "lower-q", "q-first"],
)
def test_every_board_spelling_reads_the_same(text: str) -> None:
    (cols,) = read_placements(io.StringIO(text))
    assert cp_queens.verify(cols) or cols == [0, 2, 3, 1]


def test_bom_and_crlf_from_a_file_through_the_cli(capsys, tmp_path) -> None:
    path = tmp_path / "b.txt"
    path.write_bytes(b"\xef\xbb\xbf" + BOARD.replace("\n", "\r\n").encode())
    code, out, _ = run(capsys, ["verify", str(path)])
    assert code == ExitCode.OK and "OK: 1 placement " in out


def test_board_memory_follows_rows_not_characters() -> None:
    import tracemalloc

    placement = cp_queens.first(1000, engine="construct")
    text = placement.to_text() + "\n"  # 2 MB
    source = io.StringIO(text)
    tracemalloc.start()
    (cols,) = read_placements(source)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert cols == list(placement.cols)
    assert peak < len(text) / 10  # was ~110 bytes per input byte


# -- numbers at the edges ----------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int64])
def test_narrow_integer_arrays_are_verified_as_python_ints(dtype) -> None:
    n = 127 if dtype is np.int8 else 200
    placement = cp_queens.first(n, engine="construct")
    assert cp_queens.verify(np.array(placement.cols, dtype=dtype))
    assert cp_queens.verify([dtype(c) for c in placement.cols])


def test_numpy_integers_work_as_board_sizes() -> None:
    assert cp_queens.count(np.int64(8)) == 92
    assert cp_queens.first(np.uint8(6), engine="reference") is not None


@pytest.mark.parametrize("limit", [2.5, "3", -1, True])
def test_limit_must_be_a_whole_number(limit) -> None:
    with pytest.raises(CpQueensError, match="limit must be a whole number"):
        cp_queens.solutions(8, engine="reference", limit=limit)


@pytest.mark.parametrize("seed", [2**70, -1, 2**31, 1.5])
def test_seeds_out_of_range_are_one_error(seed) -> None:
    for name in ("cpsat", "minconflicts"):
        with pytest.raises(CpQueensError, match="seed must be a whole number"):
            engines.get(name, seed=seed)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "8", "--seed", str(2**70)], "expected a seed from 0 to"),
        (["compare", "--n", "4", "--time-limit", "inf"], "at most"),
        (["solve", "8", "--time-limit", "1e400"], "at most"),
        (["solve", str(10**30), "--format", "jsonl"], "would need about"),
        (["count", str(2**63), "-e", "reference"], "would need about"),
        (["solve", "200000", "-e", "cpsat", "--time-limit", "5", "--format", "jsonl"], "TB"),
        (["count", "30"], "would take about"),
        (["count", "40"], "the largest n ever counted is 27"),
    ],
)
def test_huge_numbers_are_one_line_exit_2(capsys, argv: list[str], message: str) -> None:
    started = time.perf_counter()
    one_error_line(capsys, argv, ExitCode.BAD_INPUT, message)
    assert time.perf_counter() - started < 5  # refused before any work


def test_a_huge_solve_names_what_can_do_it(capsys) -> None:
    line = one_error_line(
        capsys, ["solve", "200000", "-e", "cpsat", "--format", "jsonl"], 2, "construct"
    )
    assert "n=200000" in line and "available" in line


@pytest.mark.parametrize("workers", ["1000", str(2**70)])
def test_workers_are_capped_at_the_cores_and_say_so(capsys, workers: str) -> None:
    code, out, err = run(capsys, ["count", "9", "--workers", workers])
    assert code == ExitCode.OK and "352 solutions" in out
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "workers capped at" in warnings[0]


def test_a_count_with_a_time_limit_stops_while_splitting_interpreted() -> None:
    """The engine under the CLI test below, on the interpreted kernels (no build)."""
    answer = ask("fast", "count", Problem(30), time_limit=0.05, force_python=True)
    with pytest.raises(TimeLimitError) as cut:
        answer.result()
    assert cut.value.partial == answer.partial == 0
    assert answer.stats.status == TIME_LIMIT and answer.stats.extra["subproblems"] == 0


#: A second of the clock, spent counting: in the slow run (the interpreted splitting is
#: stopped in the default run, test_a_count_with_a_time_limit_stops_while_splitting_interpreted).
@pytest.mark.slow
def test_a_count_with_a_time_limit_stops_while_splitting(capsys) -> None:
    started = time.perf_counter()
    code, out, _ = run(capsys, ["count", "30", "--time-limit", "1"])
    assert code == ExitCode.TIME_LIMIT and out == ""
    assert time.perf_counter() - started < 10


def test_a_long_count_says_how_long_it_may_take(capsys, monkeypatch) -> None:
    # The engine estimates before any work; the search itself is not what is tested.
    monkeypatch.setattr(
        engines.engine_class("reference"), "_count", lambda self, problem, call: 2279184
    )
    code, out, err = run(capsys, ["count", "15", "-e", "reference"])
    assert code == ExitCode.OK and "2279184" in out
    assert "this count may take about" in err and "Ctrl-C" in err


def test_estimates_refuse_only_what_cannot_fit() -> None:
    cpsat = engines.engine_class("cpsat")
    assert limits.memory_needed(cpsat, 100) < limits.available_memory()
    with pytest.raises(UnsupportedTaskError, match="construct"):
        limits.check_memory(cpsat, 10**6)
    assert limits.known_or_estimated_total(27) == limits.KNOWN_TOTALS[-1]
    assert limits.known_or_estimated_total(28) > 10 * limits.KNOWN_TOTALS[-1]
    assert limits.known_or_estimated_total(10**6) == float("inf")


def test_pyconstraint_honours_a_short_time_limit() -> None:
    started = time.perf_counter()
    # 0.2 s: past the model's building (0.1 s on an idle machine), so the search is what
    # the clock stops; the building's stop is test_pyconstraint_stops_while_building_...
    # (the run spends CPU until its limit: 0.3 s, as it was, checked nothing more)
    answer = ask("pyconstraint", "first", Problem(300), time_limit=0.2)
    with pytest.raises(TimeLimitError):
        answer.result()
    assert answer.stats.status == TIME_LIMIT
    # It once took 16 s for a 2 s limit (building the model ignored the clock). The
    # bound is loose on purpose: this machine is shared, only "stops" is asserted.
    assert time.perf_counter() - started < 15


def test_deeply_nested_json_to_complete_is_one_line(capsys, tmp_path) -> None:
    path = tmp_path / "nested.json"
    path.write_text('{"n": 8, "queens": ' + "[" * 100_000)
    one_error_line(capsys, ["complete", str(path)], ExitCode.BAD_INPUT, "nested more than 3")
