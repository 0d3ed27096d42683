"""The room itself (issue 35): what a submission can reach of the machine, graded as the
grader's own user (root in CI), and how the grader ends every room at once.

Each probe is a submission that tries something and prints what it found; the test
reads its output. Cheap probes (well under a second each) are in the default run.
"""

from __future__ import annotations

import os
import threading
import time

import pytest

from cp_queens.grading import sandbox
from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.grading.sandbox import users
from cp_queens.grading.sandbox import watch as sandbox_watch

pytestmark = pytest.mark.skipif(
    sandbox_room.unavailable() is not None, reason=f"no sandbox: {sandbox_room.unavailable()}"
)

SLEEPER = """
import time

def model(n):
    time.sleep(60)
    return []
"""


def test_stop_all_ends_every_running_room_and_refuses_new_ones() -> None:
    limits = sandbox.Limits(wall_seconds=60)
    raised: list[BaseException] = []
    outcomes: list[sandbox.Outcome] = []

    def one() -> None:
        try:
            outcomes.append(sandbox.run(SLEEPER, [1, 2], limits))
        except BaseException as error:
            raised.append(error)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 30
        while len(sandbox._RUNNING) < 2 and not raised and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not raised
        assert len(sandbox._RUNNING) == 2  # both rooms are up, their submissions asleep
        sandbox.stop_all()
        for thread in threads:
            thread.join(30)
        assert not any(thread.is_alive() for thread in threads)
        assert [type(error) for error in raised] == [sandbox.Stopped] * 2, (raised, outcomes)
        assert outcomes == []
        assert not sandbox._RUNNING
        with pytest.raises(sandbox.Stopped):  # nothing starts while the grader stops
            sandbox.run("def model(n):\n    return []\n", [1], limits)
    finally:
        sandbox.resume()
    outcome = sandbox.run("def model(n):\n    return [[0]] if n == 1 else []\n", [1], limits)
    assert [m["event"] for m in outcome.messages][:2] == ["loaded", "start"]
    assert set(outcome.cpu_by_size) == {1}  # the grader measured the size it asked
    assert sandbox_watch.members(outcome.namespaces) == []


#: What a submission can reach of the machine through /proc, printed as ``PROBE name=value``.
REACH = r"""
import ctypes, os

def probe(name, value):
    print("PROBE " + name + "=" + str(value), flush=True)

me = os.getuid()
outside = [line.split() for line in open("/proc/self/uid_map")]
probe("outside", [int(o) for i, o, n in outside if int(i) <= me < int(i) + int(n)])
writable = []
for folder, _, files in os.walk("/proc/sys"):
    for name in files:
        try:
            os.close(os.open(os.path.join(folder, name), os.O_WRONLY))
            writable.append(os.path.join(folder, name))
        except OSError:
            pass
probe("sysctl-writable", writable[:5])
libc = ctypes.CDLL(None, use_errno=True)
PTRACE_ATTACH, PTRACE_SEIZE = 16, 0x4206
for request in (PTRACE_ATTACH, PTRACE_SEIZE):
    probe("ptrace-%d" % request, libc.ptrace(request, 1, 0, 0) == 0)
try:
    os.close(os.open("/proc/1/mem", os.O_RDWR))
    probe("mem", "opened")
except OSError as error:
    probe("mem", type(error).__name__)
environ = []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            environ.append(open("/proc/%s/environ" % pid, "rb").read().decode())
        except OSError:
            pass
probe("environ", "|".join(environ).replace("\0", ";"))

def model(n):
    return []
"""


def _probes(output: str) -> dict[str, str]:
    found = {}
    for line in output.splitlines():
        if line.startswith("PROBE "):
            name, _, value = line[len("PROBE ") :].partition("=")
            found[name] = value
    return found


def test_the_room_reaches_nothing_of_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Graded as root (CI), the submission is an unprivileged uid of its own outside the
    room: no /proc/sys file opens for writing, the room's PID 1 cannot be traced nor its
    memory opened, and no process of the room shows the grader's environment."""
    monkeypatch.setenv("CPQ_ROOM_SECRET", "grader-secret-value")
    outcome = sandbox.run(REACH, [1], sandbox.Limits())
    found = _probes(outcome.output)
    assert set(found) >= {"outside", "sysctl-writable", "ptrace-16", "mem", "environ"}, outcome
    outside = json_list(found["outside"])
    assert len(outside) == 1
    if os.geteuid() == 0:
        assert outside[0] != 0 and outside[0] >= users.BASE
    else:
        assert outside[0] == os.geteuid()
    assert found["sysctl-writable"] == "[]"
    assert found["ptrace-16"] == found["ptrace-16902"] == "False"
    assert found["mem"] == "PermissionError"
    assert "grader-secret-value" not in found["environ"]
    assert f"PWD={os.getcwd()}" not in found["environ"]
    assert sandbox_watch.members(outcome.namespaces) == []


def json_list(text: str) -> list[int]:
    return [int(part) for part in text.strip("[]").split(",") if part.strip()]
