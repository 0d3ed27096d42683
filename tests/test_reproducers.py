"""The reproducers of the robustness issue, as a user types them: the real command,
its exit code, its one line, and how long it may take (and, for the big ones, how much
memory). The quick ones run in this process and are timed in this process's CPU
seconds (a shared machine stretches wall time, not CPU: "refused at once" means no
search ran); the slow ones run ``python -m cp_queens`` and hold its wall-clock limits.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

import pytest

from cp_queens.cli.exit_codes import ExitCode
from cp_queens.engines.cpsat import orbits
from tests.helpers import ENV, run_cli


def one_line(err: str) -> str:
    """The one ``cp-queens`` line of stderr (statistics lines start with ``#``)."""
    lines = [line for line in err.splitlines() if not line.startswith("#")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# -- refused before any work ---------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["solve", "3000", "-e", "reference", "--format", "jsonl"], "'construct'"),
        (["solve", "40", "-e", "reference"], "not expected to find a solution for n=40"),
        (["enumerate", "100", "-e", "reference", "--limit", "1"], "'minconflicts'"),
        (["count", str(2**63), "-e", "reference"], "would need about"),
        (["enumerate", "1000000000", "--time-limit", "3"], "would need about"),
        (["compare", "--n", str(2**70), "--time-limit", "0.5"], "board sizes go up to"),
    ],
)
def test_what_cannot_be_done_is_refused_at_once(capsys, argv: list[str], says: str) -> None:
    started = time.process_time()
    code, out, err = run_cli(capsys, *argv)
    assert code == ExitCode.BAD_INPUT and out == ""
    assert says in one_line(err)
    assert time.process_time() - started < 5


def test_a_time_limit_lets_a_long_search_start_and_stop(capsys) -> None:
    started = time.process_time()
    code, out, err = run_cli(
        # 0.1 s: the search starts (a thousand nodes) and stops as under the 0.5 s
        capsys,
        "solve",
        "3000",
        "-e",
        "reference",
        "--format",
        "jsonl",
        "--time-limit",
        "0.1",
    )
    assert code == ExitCode.TIME_LIMIT and out == ""
    assert "no solution found within the time limit" in one_line(err)
    assert time.process_time() - started < 3


def test_the_reference_engine_still_solves_what_it_can(capsys) -> None:
    code, out, _ = run_cli(capsys, "solve", "16", "-e", "reference", "--format", "jsonl")
    assert code == ExitCode.OK and out.startswith("[")


@pytest.mark.parametrize("n", [47, 316, 317, 1000, 10_000])
def test_the_orbit_split_stays_small_on_any_board(n: int) -> None:
    started = time.process_time()
    prefixes = orbits.subproblems(n)
    assert 0 < len(prefixes) <= 50_000
    assert time.process_time() - started < 2  # n = 200 once split for a minute


def test_a_source_without_line_ends_is_one_line(capsys, monkeypatch) -> None:
    """``/dev/zero`` and ``/dev/full`` never end a line: readers stop at a bound."""
    import cp_queens.formats

    monkeypatch.setattr(cp_queens.formats, "MAX_LINE_CHARS", 1 << 20)  # the bound, quicker
    for argv in (["verify", "/dev/zero"], ["check", "/dev/full"], ["complete", "/dev/zero"]):
        code, _, err = run_cli(capsys, *argv)
        assert code == ExitCode.BAD_INPUT
        assert "line 1 is longer than 1,048,576 characters" in one_line(err)


@pytest.mark.slow
def test_a_source_without_line_ends_is_read_to_the_real_bound_only() -> None:
    for command in ("verify", "complete"):
        done = subprocess.run(
            [sys.executable, "-m", "cp_queens", command, "/dev/zero"],
            capture_output=True, text=True, timeout=120, env=ENV,
        )  # fmt: skip
        assert done.returncode == ExitCode.BAD_INPUT
        assert "is longer than" in one_line(done.stderr)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    assert peak < 2 << 30  # it once grew to 23 GB and was killed


# -- the real command, its limits held --------------------------------------------------------

#: (argv, exit code, CPU seconds allowed beyond the interpreter's own start, words of the line)
#: Each command would work for minutes (or build gigabytes) if its limit or refusal did not
#: hold. What the test bounds is the CPU the command's whole process tree spends, not the
#: wall clock: on a shared machine at load 30 the wall clock of a two-second run is ten
#: times its quiet figure whatever the code does, while its CPU seconds barely move. A
#: command that ignored its limit would burn CPU until the hang guard (300 s) stops it.
TIMED = [
    (["enumerate", "1000000000", "--time-limit", "3"], ExitCode.BAD_INPUT, 3, "would need"),
    (["solve", "200000", "-e", "cpsat", "--time-limit", "5", "--format", "jsonl"],
     ExitCode.BAD_INPUT, 3, "'construct'"),
    (["solve", "300", "-e", "pyconstraint", "--time-limit", "2"], ExitCode.TIME_LIMIT, 4,
     "within the time limit of 2 s"),
    (["solve", "3000", "-e", "reference", "--format", "jsonl", "--time-limit", "2"],
     ExitCode.TIME_LIMIT, 4, "within the time limit of 2 s"),
    (["enumerate", "200", "--time-limit", "2", "--format", "jsonl"], ExitCode.TIME_LIMIT, 8,
     "stopped by the time limit of 2 s"),
    (["enumerate", "1000", "-e", "cpsat", "--time-limit", "2", "--format", "jsonl"],
     ExitCode.TIME_LIMIT, 10, "stopped by the time limit of 2 s"),
    (["count", "30", "--time-limit", "2"], ExitCode.TIME_LIMIT, 10, "at least"),
]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(("argv", "code", "seconds", "says"), TIMED, ids=lambda v: str(v)[:40])
def test_limits_hold_for_the_real_command(
    argv: list[str], code: ExitCode, seconds: float, says: str
) -> None:
    baseline = _interpreter_start()
    before = _children_cpu()
    done = subprocess.run(
        [sys.executable, "-m", "cp_queens", *argv, "--quiet"],
        capture_output=True, text=True, timeout=300, env=ENV,
    )  # fmt: skip
    spent = _children_cpu() - before
    assert done.returncode == code, done.stderr
    assert says in one_line(done.stderr)
    assert spent < baseline + seconds, (spent, baseline)
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 < 3 << 30


def _children_cpu() -> float:
    """CPU seconds (user + system) of every child this process has reaped, theirs included."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _interpreter_start() -> float:
    """CPU seconds of ``python -m cp_queens --version`` here (imports, start-up)."""
    before = _children_cpu()
    subprocess.run([sys.executable, "-m", "cp_queens", "--version"], capture_output=True, env=ENV)
    return _children_cpu() - before
