"""The room itself (issue 35): what a submission can reach of the machine, graded as the
grader's own user (root in CI), and how the grader ends every room at once.

Each probe is a submission that tries something and prints what it found; the test
reads its output. Cheap probes (well under a second each) are in the default run.
"""

from __future__ import annotations

import contextlib
import csv
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from cp_queens.grading import sandbox
from cp_queens.grading.rubric import RubricError, load
from cp_queens.grading.sandbox import cgroup, protocol, users
from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.grading.sandbox import watch as sandbox_watch
from cp_queens.grading.sandbox.watch import StopReason
from tests.hostile import RIGHT, probes

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
        up: dict[int, list[psutil.Process]] = {}
        while not raised and time.monotonic() < deadline:
            up = {root: room_processes([root]) for root in list(sandbox._RUNNING)}
            if len(up) == 2 and all(up.values()):
                break
            time.sleep(0.01)
        assert not raised
        assert len(up) == 2 and all(up.values())  # both rooms are up, their PID 1 at least
        rooms = [process for found in up.values() for process in found]
        sandbox.stop_all()
        for thread in threads:
            thread.join(30)
        # However early it came, the stop ended every room: none lives on without its
        # grader (killing bwrap first once orphaned a room not yet looked into).
        assert still_alive(rooms) == []
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
    assert sandbox_watch.members(outcome.namespaces, started_before=outcome.ended) == []


def room_processes(roots: set[int] | list[int]) -> list[psutil.Process]:
    """The processes of the rooms below ``roots`` (bwrap's pids, or a grader's): the
    harness and what it started, found while bwrap is alive to be their parent. (bwrap
    names the harness on its own command line: a bwrap between its fork and its exec of
    the harness is not taken for a room process.)"""
    found = []
    for root in list(roots):
        with contextlib.suppress(psutil.Error):
            found += [
                process
                for process in psutil.Process(root).children(recursive=True)
                if _in_room(process)
            ]
    return found


def _in_room(process: psutil.Process) -> bool:
    with contextlib.suppress(psutil.Error):
        command = process.cmdline()
        return (
            bool(command)
            and "bwrap" not in Path(command[0]).name
            and "/harness/child.py" in " ".join(command)
        )
    return False


def still_alive(processes: list[psutil.Process], seconds: float = 5.0) -> list[int]:
    """Those of ``processes`` still running after ``seconds`` (the same process: psutil
    compares the start time, so a reused pid is not taken for it)."""
    deadline = time.monotonic() + seconds
    while True:
        left = [process.pid for process in processes if _running(process)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def _running(process: psutil.Process) -> bool:
    """Alive, and not a zombie (it may end between the two questions: then it is not)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


#: Ignores and blocks every signal it can, then loops: a stop must not ask it to end.
DEAF = """
import signal, time

for number in signal.valid_signals():
    try:
        signal.signal(number, signal.SIG_IGN)
    except (OSError, ValueError, RuntimeError):
        pass
signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())

def model(n):
    while True:
        time.sleep(0.01)
"""


def test_stop_all_ends_a_room_deaf_to_every_signal_it_can_refuse() -> None:
    """A submission that ignores and blocks every catchable signal is ended by the stop
    at once, its room with it: the grader's kill cannot be refused."""
    raised: list[BaseException] = []

    def one() -> None:
        try:
            sandbox.run(DEAF, [1], sandbox.Limits(wall_seconds=60))
        except BaseException as error:
            raised.append(error)

    thread = threading.Thread(target=one)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        rooms: list[psutil.Process] = []
        while len(rooms) < 2 and not raised and time.monotonic() < deadline:
            time.sleep(0.02)  # its PID 1 and the submission
            rooms = room_processes(sandbox._RUNNING)
        assert len(rooms) == 2 and not raised, raised
        time.sleep(0.3)  # past its handlers: the submission is looping in model(1)
        sandbox.stop_all()
        thread.join(30)
        assert [type(error) for error in raised] == [sandbox.Stopped]
        assert still_alive(rooms) == []
    finally:
        sandbox.resume()


GRADER_KILLED = """
import sys
from cp_queens.grading import sandbox
sandbox.run(sys.argv[1], [1], sandbox.Limits(wall_seconds=60))
"""


def test_a_grader_killed_with_9_leaves_no_room_running() -> None:
    """Nothing of a room outlives its grader, even one killed with -9 while the submission
    sleeps: bwrap dies with the grader, and the room's first process with bwrap."""
    grader = subprocess.Popen([sys.executable, "-c", GRADER_KILLED, SLEEPER])
    try:
        deadline = time.monotonic() + 30
        rooms: list[psutil.Process] = []
        while len(rooms) < 2 and time.monotonic() < deadline:  # its PID 1 and the submission
            time.sleep(0.02)
            rooms = room_processes([grader.pid])
        assert len(rooms) == 2, "the room did not start"
    finally:
        grader.kill()
        grader.wait()
    assert still_alive(rooms) == []


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


def test_the_room_reaches_nothing_of_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """Graded as root (CI), the submission is an unprivileged uid of its own outside the
    room: no /proc/sys file opens for writing, the room's PID 1 cannot be traced nor its
    memory opened, and no process of the room shows the grader's environment."""
    monkeypatch.setenv("CPQ_ROOM_SECRET", "grader-secret-value")
    outcome = sandbox.run(REACH, [1], sandbox.Limits())
    found = probes(outcome.output)
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
    assert sandbox_watch.members(outcome.namespaces, started_before=outcome.ended) == []


def json_list(text: str) -> list[int]:
    return [int(part) for part in text.strip("[]").split(",") if part.strip()]


#: Memory resident in no process: a memfd written and closed (mapped or not), a System V
#: segment detached, and files in the size-capped tmpfs folders.
HOARDS = r"""
import mmap, os

def probe(name, value):
    print("PROBE " + name + "=" + str(value), flush=True)

held = []
try:
    fd = os.memfd_create("hoard")
    probe("memfd", "made")
except OSError as error:
    probe("memfd", type(error).__name__)
try:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    probe("shmget", libc.shmget(0, 1 << 20, 0o1600) >= 0)
except OSError as error:
    probe("shmget", type(error).__name__)
written = 0
try:
    while written < (96 << 20):  # files of 8 MB (each file is capped at file_mb)
        with open("/scratch/hoard%d" % (written >> 23), "ab") as hoard:
            hoard.write(b"x" * (1 << 20))
        written += 1 << 20
    probe("scratch", written >> 20)
except OSError as error:
    probe("scratch", "%s at %d MB" % (error, written >> 20))
import time
time.sleep(30)

def model(n):
    return []
"""


@pytest.mark.parametrize("control_group", [True, False], ids=["cgroup", "no-cgroup"])
def test_memory_resident_in_no_process_counts(
    monkeypatch: pytest.MonkeyPatch, control_group: bool
) -> None:
    """memfd and System V shared memory are refused (the watcher could not see them); the
    files a submission keeps in its tmpfs folders count against its memory limit, with a
    control group (the kernel charges them) and without one (the watcher adds them)."""
    if not control_group:
        monkeypatch.setattr(cgroup, "make", lambda memory, tasks: cgroup.Group())
    limits = sandbox.Limits(memory_mb=64, scratch_mb=128, wall_seconds=60)
    outcome = sandbox.run(HOARDS, [1], limits)
    found = probes(outcome.output)
    assert found.get("memfd") == "PermissionError", outcome.output
    assert found.get("shmget") == "False", outcome.output
    if control_group:  # the kernel charges each page as it is written
        assert "scratch" not in found  # it never got to 96 MB: stopped on the way
    # Without one the watcher samples every SAMPLE_EVERY seconds: 96 MB written between
    # two samples (an idle machine writes tmpfs that fast) are caught at the next one.
    assert outcome.stopped is StopReason.MEMORY, outcome  # an enumerated reason


def test_a_long_reply_line_is_read_in_linear_time() -> None:
    """The result channel looks at each byte once, however the line is cut into reads
    (it split the whole pending line again at every read: quadratic)."""
    reader = protocol.Lines()
    line = b"[" + b"1," * 500_000 + b"1]"
    lines = []
    for start in range(0, len(line), 4096):
        lines += reader.feed(line[start : start + 4096])
    lines += reader.feed(b"\n{}\n")
    assert lines == [line, b"{}"]
    assert reader.scanned == len(line) + 4  # every byte once, the two newlines included


def test_only_the_command_line_turns_the_sandbox_off(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A rubric saying isolation = "none" is refused in one line; --isolation none says so
    on stderr before any submission runs (the student's file writes a mark of its own
    into the output, printed after the warning). The command runs in this process, its
    stderr read at the file descriptor (where an unsandboxed submission would write too):
    a fresh interpreter would add only its start-up, 0.25 s of CPU a run."""
    from tests.helpers import run_cli

    rubric = tmp_path / "rubric.toml"
    rubric.write_text('[limits]\nisolation = "none"\n', encoding="utf-8")
    with pytest.raises(RubricError, match="only the command line can"):
        load(rubric)
    student = tmp_path / "student.py"
    student.write_text(
        "import sys\nprint('SUBMISSION RAN', file=sys.stderr)\n"
        "def model(n):\n    return [[0]] if n == 1 else []\n",
        encoding="utf-8",
    )
    code, _, err = run_cli(capfd, "grade", str(student), "--rubric", str(rubric))
    assert code == 2 and "only the command line can" in err
    code, _, err = run_cli(capfd, "grade", str(student), "--n", "1", "--isolation", "none")
    assert code == 0, err
    assert err.startswith("cp-queens: WARNING: --isolation none:"), err


#: A legal model that spends about 4.5 s of CPU (the limit is 5) at n = 9.
SLOW_BUT_LEGAL = "import time\n" + RIGHT.replace(
    "def model(n):\n",
    "def model(n):\n    if n == 9:\n        while time.process_time() < 4.4:\n            pass\n",
    1,
)


@pytest.mark.slow
def test_a_slow_legal_model_keeps_its_marks_on_a_crowded_machine(tmp_path: Path) -> None:
    """Issue 36: six copies of a legal model spending 4.5 s of CPU at n = 9 (limit 5) all
    get full marks at --jobs 6 on a two-core machine (the 15 s wall clock stopped them);
    marks.csv shows the CPU seconds each used."""
    folder = tmp_path / "class"
    folder.mkdir()
    for index in range(6):
        (folder / f"slow{index}.py").write_text(SLOW_BUT_LEGAL, encoding="utf-8")
    out = tmp_path / "out"
    argv = ["grade", str(folder), "--n", "1..9", "--jobs", "6", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "cp_queens", *argv],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    with open(out / "marks.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    print(
        "\n"
        + "\n".join(
            f"{r['student']}: {r['points']} of {r['max']}, "
            f"{r['cpu_seconds']} s of CPU, {r['seconds']} s"
            for r in rows
        )
    )
    assert len(rows) == 6
    assert all(row["points"] == row["max"] for row in rows), rows
    assert all(4.0 <= float(row["cpu_seconds"]) < 5.0 for row in rows), rows


#: Kills everything it may (every process it can signal, then the room's PID 1) and asks
#: the kernel to reboot the machine, then answers like a right model.
KILLS_WHAT_IT_CAN = (
    r"""
import os, signal

def probe(name, value):
    print("PROBE " + name + "=" + str(value), flush=True)

for target, name in ((-1, "every"), (1, "init")):
    try:
        os.kill(target, signal.SIGKILL)
        probe(name, "sent")
    except OSError as error:
        probe(name, type(error).__name__)
try:
    with open("/proc/sysrq-trigger", "w") as trigger:
        trigger.write("b")
    probe("sysrq", "written")
except OSError as error:
    probe("sysrq", type(error).__name__)
"""
    + RIGHT
)


def test_a_submission_killing_what_it_can_reaches_only_itself() -> None:
    """``kill -9 -1`` finds no process but its own room's; SIGKILL to the room's PID 1 from
    inside is ignored by the kernel (it is the harness, which then answers every size);
    the reboot trigger is not in the room. The grader, and this test, run on."""
    outcome = sandbox.run(KILLS_WHAT_IT_CAN, [1, 4, 5], sandbox.Limits(wall_seconds=20))
    found = probes(outcome.output)
    assert found["every"] == "ProcessLookupError", outcome.output
    assert found["sysrq"] in ("FileNotFoundError", "PermissionError", "OSError"), outcome.output
    assert outcome.stopped is None and len(outcome.messages) >= 3, outcome
    assert os.getppid() > 1  # this process and its parent are alive


#: Tries to outlast and outrank its neighbours: exempt itself from the OOM killer (so the
#: kernel would kill the grader or another student first), raise its own CPU limit past
#: the hard one the harness set, and raise its scheduling priority.
GRABS_RESOURCES = (
    r"""
import os, resource

def probe(name, value):
    print("PROBE " + name + "=" + str(value), flush=True)

try:
    with open("/proc/self/oom_score_adj", "w") as knob:
        knob.write("-1000")
    probe("oom", open("/proc/self/oom_score_adj").read().strip())
except OSError as error:
    probe("oom", type(error).__name__)
try:
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    resource.setrlimit(resource.RLIMIT_CPU, (hard + 100, hard + 100))
    probe("cpu", resource.getrlimit(resource.RLIMIT_CPU))
except (OSError, ValueError) as error:
    probe("cpu", type(error).__name__)
try:
    probe("nice", os.nice(-10))
except OSError as error:
    probe("nice", type(error).__name__)
"""
    + RIGHT
)


def test_a_submission_cannot_exempt_itself_from_the_oom_killer_or_its_limits() -> None:
    """Graded as root: an OOM-killer exemption, a CPU limit above the harness's hard one
    and a higher priority are all refused (the room's uid is nobody, mapped to an
    unprivileged uid outside); the submission is graded as any other."""
    outcome = sandbox.run(GRABS_RESOURCES, [1, 4], sandbox.Limits(wall_seconds=20))
    found = probes(outcome.output)
    assert found["oom"] == "PermissionError", outcome.output
    assert found["cpu"] == "ValueError", outcome.output  # above the hard limit: refused
    assert found["nice"] == "PermissionError", outcome.output
    assert outcome.stopped is None and len(outcome.messages) >= 2, outcome


@pytest.mark.parametrize(
    ("field", "said"),
    [("escaped", "the sandbox did not hold"), ("survivors", "could not be ended")],
)
def test_a_process_the_room_did_not_hold_or_end_is_in_the_feedback(field: str, said: str) -> None:
    """Never expected, never silent: a process found outside the room as its uid, or one
    still there after the kill, is a note in the student's feedback the lecturer sees."""
    from cp_queens.grading import tasks
    from cp_queens.grading.intake.discover import Submission
    from cp_queens.grading.run import judge_outcome

    rubric = load()
    outcome = sandbox.Outcome(messages=[{"n": 1, "solutions": [[0]]}], **{field: [4242]})
    handed_in = Submission("someone", Path("someone.py"), RIGHT)
    graded = judge_outcome(handed_in, outcome, [1], {1: tasks.reference(rubric.task, 1)}, rubric)
    assert [note for note in graded.notes if said in note], graded.notes
    clean = judge_outcome(
        handed_in,
        sandbox.Outcome(messages=outcome.messages),
        [1],
        {1: tasks.reference(rubric.task, 1)},
        rubric,
    )
    assert not [note for note in clean.notes if said in note], clean.notes


#: Signals the room's first process has a handler for (SIGCHLD wakes its wait), sent to
#: it without end from a thread while the model answers.
FLOODS_THE_FIRST_PROCESS = """
import os, signal, threading

def flood():
    while True:
        for number in (signal.SIGCHLD, signal.SIGIO, signal.SIGURG):
            try:
                os.kill(1, number)
            except OSError:
                pass

threading.Thread(target=flood, daemon=True).start()
"""


def test_signals_flooding_the_room_s_first_process_change_nothing() -> None:
    """The first process wakes on SIGCHLD to reap: a flood of it (and of signals it
    ignores) from the submission neither ends the room nor stalls the run."""
    outcome = sandbox.run(FLOODS_THE_FIRST_PROCESS + RIGHT, [1, 4, 6], sandbox.Limits())
    assert outcome.returncode == 0 and outcome.stopped is None, outcome
    sized = [m for m in outcome.messages if m.get("n") in (1, 4, 6)]
    assert {m["n"] for m in sized} == {1, 4, 6}, outcome
    assert not outcome.escaped and not outcome.survivors, outcome
