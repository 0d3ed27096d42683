"""Ctrl-C and SIGTERM at any moment of a command end it with exit 130 and one line
(issue 44): while its modules load (OR-Tools' import cut short was "internal error:
ImportError: initialization failed", exit 70; SIGTERM before the handlers were installed
killed it, 143), and while CP-SAT searches on a helper thread (a search thread left
running at exit was a C++ abort: "terminate called without an active exception", -6)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def _start(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cp_queens", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def _ended_as_an_interrupt(process: subprocess.Popen[str], finished: str) -> None:
    """Exit 130 and one line, or (the signal came after the work) the work's own end, or
    (it came while the interpreter itself was starting, before the package's first line)
    the interpreter's own end by that signal."""
    out, err = process.communicate(timeout=120)
    assert "terminate called" not in err and "internal error" not in err, err
    if process.returncode in (-signal.SIGINT, -signal.SIGTERM) or "Fatal Python error" in err:
        assert "/cp_queens/" not in err, err  # not one line of ours had run
        return
    assert "Traceback" not in err, err
    if process.returncode == 0:  # it was done before the signal came
        assert finished in out
        return
    assert process.returncode == 130, (process.returncode, err)
    assert err.strip().splitlines()[-1] == "cp-queens: interrupted", err


def _loading(process: subprocess.Popen[str], library: str) -> bool:
    """Has the process mapped a file of ``library`` (its import is under way)?"""
    try:
        return library in Path(f"/proc/{process.pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")
@pytest.mark.parametrize(
    "sig",
    [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)],
    ids=["ctrl-c", "sigterm"],
)
def test_a_signal_during_the_or_tools_import_is_an_interrupt(sig: signal.Signals) -> None:
    process = _start("count", "11", "-e", "cpsat")
    deadline = time.monotonic() + 60
    while not _loading(process, "ortools") and time.monotonic() < deadline:
        if process.poll() is not None:
            break
        time.sleep(0.002)
    process.send_signal(sig)
    _ended_as_an_interrupt(process, "n=11: 2680")


@pytest.mark.parametrize("after", [0.0, 0.25])
def test_sigterm_from_the_first_moment_is_an_interrupt(after: float) -> None:
    process = _start("solve", "8", "-e", "cpsat")
    time.sleep(after)
    process.send_signal(signal.SIGTERM)
    _ended_as_an_interrupt(process, "Q")


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_at_many_moments_never_aborts(sig: signal.Signals) -> None:
    """The signal at 14 moments from the command's start to deep into CP-SAT's search of
    the dominating set of n = 30 (and the independent one of 12): always exit 130."""
    for argv in (["dominate", "30", "-q"], ["dominate", "12", "--independent", "-q"]):
        for moment in (0.2, 0.4, 0.6, 0.8, 1.0, 1.3, 1.6, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0):
            process = _start(*argv)
            time.sleep(moment)
            process.send_signal(sig)
            _ended_as_an_interrupt(process, "queens")
