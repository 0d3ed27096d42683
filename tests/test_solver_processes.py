"""Solvers we run in other processes keep our promises (issue 28).

A ``minizinc`` that hangs, hangs on ``--solvers-json`` or crashes (fake ones on
PATH); a ``cp-queens`` killed with -9 while MiniZinc searches; Choco's JVM unable to
start under ``ulimit -v``; Pumpkin's noise; a closed pipe; a checkpoint that is a
symbolic link or holds a forged record. Each ends in one line we wrote with its own
exit code, leaving no process behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import psutil
import pytest

from cp_queens import Problem
from cp_queens.cli.exit_codes import ExitCode
from cp_queens.errors import CpQueensWarning, SolverFailedError, TimeLimitError
from tests.helpers import build_or_skip, fake_minizinc, run_cli


def _sleeper() -> str:
    """A ``sleep`` nobody else runs, to look for afterwards."""
    return f"sleep {random.randint(10_000, 99_999)}"


def _running(command: str) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        same = " ".join(process.info["cmdline"] or []) == command
        if same and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process)
    return found


def _cli(*argv: str, env: dict[str, str] | None = None, **kwargs: object):
    return subprocess.run(
        [sys.executable, "-m", "cp_queens", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        **kwargs,  # type: ignore[arg-type]
    )


def test_a_minizinc_hanging_while_solving_is_killed_at_the_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fake never stops, so any limit and grace end in the kill: both small here (the
    product's 1 s grace would be waited out in full)."""
    sleeper = _sleeper()
    monkeypatch.setenv("PATH", fake_minizinc(tmp_path / "bin", sleeper))
    from cp_queens import engines
    from cp_queens.engines import minizinc

    monkeypatch.setattr(minizinc, "GRACE", 0.1)
    engine, budget = engines.build("minizinc", time_limit=0.1)
    with pytest.warns(CpQueensWarning, match="did not stop"):
        answer = engine.count(Problem(8), budget=budget)
    with pytest.raises(TimeLimitError):
        answer.result()
    assert answer.stats is not None and answer.stats.extra["solver_status"] == "KILLED"
    assert not _running(sleeper)  # the solver's own children went with it


def test_a_minizinc_hanging_on_its_solver_list_is_one_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cp_queens.engines import minizinc

    sleeper = _sleeper()
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "minizinc").write_text(f"#!/bin/sh\n{sleeper}\n")
    (folder / "minizinc").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    # It never answers: a tenth of a second shows the limit as well as the 5 s of the product.
    monkeypatch.setattr(minizinc, "SOLVERS_JSON_SECONDS", 0.1)
    with pytest.raises(SolverFailedError, match=r"did not answer within 0\.1 s"):
        minizinc.MiniZincEngine()
    assert not _running(sleeper)


def test_the_solver_list_is_asked_once_per_executable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every engine made asks for the solver list: once per executable in a process, and
    again when the file there changes (or a failure came instead of a list)."""
    from cp_queens.engines import minizinc

    asked = tmp_path / "asked"
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "minizinc"
    script.write_text(f'#!/bin/sh\necho >> {asked}\necho \'[{{"id": "org.x.first"}}]\'\n')
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    assert minizinc.installed_solvers() == minizinc.installed_solvers() == ["org.x.first", "first"]
    assert asked.read_text().count("\n") == 1
    script.write_text(f'#!/bin/sh\necho >> {asked}\necho \'[{{"id": "org.x.second"}}]\'\n')
    os.utime(script, ns=(time.time_ns(), time.time_ns() + 10**9))  # a new file there
    assert minizinc.installed_solvers() == ["org.x.second", "second"]
    assert asked.read_text().count("\n") == 2


def test_a_crashing_minizinc_is_one_line_with_its_own_exit_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI in this process: the crash is minizinc's, in a process of its own anyway."""
    crashing = 'echo "Segmentation fault (core dumped)" >&2\nkill -SEGV $$'
    monkeypatch.setenv("PATH", fake_minizinc(tmp_path / "bin", crashing))
    code, _, err = run_cli(capsys, "count", "8", "-e", "minizinc")
    assert code == ExitCode.SOLVER_FAILED, err
    assert err.count("\n") == 1
    assert "Segmentation fault" in err and "internal error" not in err


@pytest.mark.slow  # 2 s; the default run kills a hanging minizinc's tree at its deadline
@pytest.mark.skipif(shutil.which("minizinc") is None, reason="minizinc is not installed")
def test_kill_9_of_cp_queens_takes_minizinc_and_its_solver_along() -> None:
    """MiniZinc starts the solver (``fzn-gecode``) as a process of its own: both go."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cp_queens", "count", "16", "-e", "minizinc"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    root = psutil.Process(process.pid)
    deadline = time.monotonic() + 60
    tree: list[psutil.Process] = []
    while time.monotonic() < deadline and process.poll() is None:  # until Gecode searches
        with contextlib.suppress(psutil.Error):
            tree = root.children(recursive=True)
            if any("fzn-gecode" in " ".join(p.cmdline()) for p in tree):
                break
        time.sleep(0.05)
    names = [" ".join(p.cmdline()) for p in tree]
    process.send_signal(signal.SIGKILL)
    process.wait()
    _, alive = psutil.wait_procs(tree, timeout=5)
    alive = [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]
    assert any("fzn-gecode" in name for name in names), names
    assert not alive, alive


@pytest.mark.slow  # a JVM start-up, failed; seconds on a loaded machine
def test_choco_unable_to_start_is_one_line_with_its_own_exit_code() -> None:
    build_or_skip("cpmpy", solver="choco")

    def small_address_space() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (8_000_000 * 1024, 8_000_000 * 1024))

    done = _cli("count", "8", "-e", "cpmpy:solver=choco", preexec_fn=small_address_space)
    if done.returncode == 0:
        pytest.skip("this JVM starts within 8 GB of address space")
    assert done.returncode == ExitCode.SOLVER_FAILED, done.stderr
    assert done.stderr.count("\n") == 1 and "cpmpy (choco)" in done.stderr


def test_pumpkin_noise_stays_out_of_the_terminal_of_this_process(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """The CLI in this process, its output read at file descriptors 1 and 2 (``capfd``),
    where a backend's own writes, or its solver process's, land too. A fresh
    ``cp-queens`` (1 s of CPU: Python, CPMpy) is the slow run's twin below."""
    build_or_skip("cpmpy", solver="pumpkin")
    from cp_queens.cli import main

    try:
        code = main(["solve", "12", "-e", "cpmpy:solver=pumpkin", "--format", "jsonl"])
    except SystemExit as exit_:
        code = exit_.code  # type: ignore[assignment]
    out, err = capfd.readouterr()
    assert code == 0, err
    assert len(out.splitlines()) == 1, out  # the one board, and nothing else
    assert all(line.startswith("#") for line in err.splitlines()), err


@pytest.mark.slow  # a fresh process (1 s of CPU); its in-process twin above runs by default
def test_pumpkin_noise_stays_out_of_the_terminal() -> None:
    """In a process of its own: what Python prints as it exits lands in the terminal too."""
    build_or_skip("cpmpy", solver="pumpkin")
    done = _cli("solve", "12", "-e", "cpmpy:solver=pumpkin", "--format", "jsonl")
    assert done.returncode == 0
    assert all(line.startswith("#") for line in done.stderr.splitlines()), done.stderr


def test_first_with_minizinc_is_complete_without_a_status() -> None:
    answer = build_or_skip("minizinc").first(Problem(1))
    assert answer.value is not None
    assert answer.stats is not None and answer.stats.status == "complete"


def _into_a_closed_pipe(*argv: str) -> subprocess.CompletedProcess[str]:
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "cp_queens", *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize(
    "argv",
    [
        # the reference engine by default: the default engine, CP-SAT, adds OR-Tools'
        # import (0.3 s) to the fresh process; its run is in the slow run
        ("enumerate", "10", "-e", "reference", "--format", "jsonl", "-q"),
        pytest.param(("enumerate", "10", "--format", "jsonl", "-q"), marks=pytest.mark.slow),
        # compare starts every engine (1 s): in the slow run
        pytest.param(("compare", "--n", "4..5", "-q"), marks=pytest.mark.slow),
    ],
    ids=["enumerate-reference", "enumerate", "compare"],
)
def test_a_closed_pipe_is_a_quiet_exit(argv: tuple[str, ...]) -> None:
    done = _into_a_closed_pipe(*argv)
    assert done.returncode == ExitCode.CLOSED_PIPE == 128 + signal.SIGPIPE
    assert done.stderr == ""


def test_a_checkpoint_that_is_a_symbolic_link_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "elsewhere"
    (tmp_path / "link").symlink_to(target)
    code, _, err = run_cli(capsys, "count", "10", "--checkpoint", str(tmp_path / "link"))
    assert code == ExitCode.BAD_INPUT
    assert "symbolic link" in err and err.count("\n") == 1
    assert not target.exists()


def _forge(path: Path) -> None:
    """Take 8 solutions (one orbit) off a record, its checksum and residues recomputed.

    The first record that has them: the records come in the order the pool finished
    its pieces, and one with fewer would turn negative, which is dropped and counted
    again, not caught as forged."""
    lines = path.read_text().splitlines()
    records = [(i, json.loads(line)) for i, line in enumerate(lines) if '"total"' in line]
    where, record = next((i, r) for i, r in records if r["total"] >= 8 and r["unique"])
    record["total"] -= 8
    record["unique"] -= 1
    fields = {key: record[key] for key in ("key", "total", "unique", "nodes")}
    for modulus in (13, 15):
        record[f"mod{modulus}"] = [record[k] % modulus for k in ("total", "unique", "nodes")]
    record["crc"] = zlib.crc32(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode())
    lines[where] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n")


def test_recheck_says_what_share_it_checked_and_a_forged_record_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In this process (the CLI's code, not its start-up, is what is checked here):
    three fresh interpreters cost 0.5 s of CPU."""
    checkpoint = str(tmp_path / "c.jsonl")
    assert run_cli(capsys, "count", "11", "--checkpoint", checkpoint)[0] == 0
    code, _, err = run_cli(capsys, "count", "11", "--checkpoint", checkpoint, "--recheck", "0.05")
    assert code == 0
    assert "rechecked=" in err and " resumed: ok" in err, err
    _forge(tmp_path / "c.jsonl")
    # a recheck might draw the forged record: not asked for here
    code, out, err = run_cli(capsys, "count", "11", "--checkpoint", checkpoint)
    assert code == ExitCode.BAD_INPUT, err
    assert "OEIS" in err and "2680" not in out


def _grow(send: object) -> None:
    """A child that keeps 200 MB and waits: past any ceiling set below it."""
    kept = bytearray(200_000_000)
    time.sleep(30)
    del kept


def test_a_child_that_outgrows_its_memory_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    from cp_queens import limits
    from cp_queens.budget import Clock
    from cp_queens.engines import _child

    monkeypatch.setattr(_child, "MEMORY_FLOOR", 50e6)
    monkeypatch.setattr(limits, "available_memory", lambda: 100_000_000)  # ceiling 75 MB
    run = _child.ChildRun(_grow, (), what="test", clock=Clock.start(None))
    # Waited for, it would end after 30 s as a process that died, not with this message.
    with pytest.raises(SolverFailedError, match=r"test: the solver used .* of memory"):
        list(run.messages())
    assert not run._process.is_alive()
