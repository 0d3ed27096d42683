"""The rooms' own uids, graded as root: one uid per run on the whole machine, whatever
number of graders run at once, and nothing left running as a uid when it is freed.

A uid is held by a lock file (``users.LOCKS``); these tests take their uids with
``users.acquire`` like any run, so they hold whatever uids the other test workers leave
free (never a fixed one).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from cp_queens.grading import sandbox, tasks
from cp_queens.grading.intake.discover import Submission
from cp_queens.grading.rubric import load
from cp_queens.grading.run import judge_outcome
from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.grading.sandbox import users

as_root = pytest.mark.skipif(
    not users.dropping(),
    reason="a room takes a uid of its own only when the grader runs as root (this is not root)",
)
in_a_room = pytest.mark.skipif(
    not users.dropping() or sandbox_room.unavailable() is not None,
    reason="rooms of their own uids need root and bubblewrap: "
    f"root={users.dropping()}, sandbox: {sandbox_room.unavailable() or 'yes'}",
)

#: A grader process holding one room uid until its input closes.
HOLDS_A_UID = """
import sys
from cp_queens.grading.sandbox import users
print(users.acquire(), flush=True)
sys.stdin.read()
"""


def _locked_elsewhere(uid: int) -> bool:
    """Does another open file hold ``uid``'s lock (tried, and let go at once)?"""
    fd = os.open(users.LOCKS / str(uid), os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


@as_root
def test_two_grader_processes_hold_different_uids_and_a_killed_ones_is_freed() -> None:
    """A uid another grader process holds is not handed out (two graders once both gave
    their runs the first uid); killed with -9, that grader leaves no lock behind."""
    other = subprocess.Popen(
        [sys.executable, "-c", HOLDS_A_UID], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    mine = None
    try:
        assert other.stdout is not None
        theirs = int(other.stdout.readline())
        mine = users.acquire()
        assert mine != theirs
        assert all(users.BASE <= uid < users.BASE + users.COUNT for uid in (mine, theirs))
        assert _locked_elsewhere(theirs)
    finally:
        other.kill()
        other.communicate()  # reaps it and closes its pipes
        if mine is not None:
            users.release(mine)
    # Free now; another test worker's run may take it in between, and free it when done.
    deadline = time.monotonic() + 30
    while _locked_elsewhere(theirs) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _locked_elsewhere(theirs)


@as_root
def test_one_grader_hands_out_a_uid_to_one_run_at_a_time() -> None:
    first = users.acquire()
    try:
        second = users.acquire()
        users.release(second)
        assert second != first
    finally:
        users.release(first)


#: Becomes the given real, effective and saved uids, says so, and sleeps; "leaderless":
#: its main thread ends first, leaving a zombie leader whose other thread runs on.
RUNS_AS = """
import ctypes, os, sys, threading, time
real, effective, saved = map(int, sys.argv[1:4])
os.setresuid(real, effective, saved)
if sys.argv[4] == "leaderless":
    threading.Thread(target=time.sleep, args=(60,)).start()
    print("ready", flush=True)
    ctypes.CDLL(None).pthread_exit(None)
print("ready", flush=True)
time.sleep(60)
"""


def _running_as(real: int, effective: int, saved: int, shape: str = "") -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-I", "-c", RUNS_AS, str(real), str(effective), str(saved), shape],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    return process


def _ended(process: subprocess.Popen[str]) -> int | None:
    """Its exit code once it ends (its pipe closed then), ``None`` if it runs on."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        code = process.wait(10)
        if process.stdout is not None:
            process.stdout.close()
        return code
    return None


@as_root
@pytest.mark.parametrize(
    "ids", ["real", "effective", "saved", "all", "leaderless"], ids=lambda ids: ids
)
def test_kill_all_ends_every_process_of_the_uid_and_no_other(ids: str) -> None:
    """A process with the uid as its real, effective or saved uid (or a process whose main
    thread is gone, a zombie to a quick look, while another thread runs) is killed;
    a process of another room uid, and one of root, are not; ``release`` kills too."""
    uid, neighbour = users.acquire(), users.acquire()
    started: list[subprocess.Popen[str]] = []
    try:
        which = {"real": (uid, 0, 0), "effective": (0, uid, 0), "saved": (0, 0, uid)}
        target = _running_as(*which.get(ids, (uid, uid, uid)), ids)
        started.append(target)
        beside = _running_as(neighbour, neighbour, neighbour)
        started.append(beside)
        rooted = _running_as(0, 0, 0)
        started.append(rooted)
        assert users.kill_all(uid) == [target.pid]
        assert _ended(target) == -9
        assert beside.poll() is None and rooted.poll() is None
        assert users.release(neighbour) == [beside.pid]
        assert _ended(beside) == -9 and rooted.poll() is None
    finally:
        for process in started:
            process.kill()
            process.wait()
            if process.stdout is not None:
                process.stdout.close()  # closing twice is harmless
        users.release(uid)
        users.release(neighbour)


@as_root
@pytest.mark.parametrize(
    ("make", "refused"),
    [
        (lambda folder: folder.symlink_to(folder.with_name("real")), "symbolic link"),
        (lambda folder: folder.write_text(""), "not a folder"),
        (
            lambda folder: (folder.mkdir(), folder.chmod(0o777)),
            r"others can write it \(mode 0777\)",
        ),
        (lambda folder: (folder.mkdir(0o700), os.chown(folder, 4321, 0)), "uid 4321, not root"),
    ],
    ids=["symlink", "file", "world-writable", "not-root's"],
)
def test_a_lock_folder_others_could_change_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: object, refused: str
) -> None:
    """Who can replace a lock file can hand one uid to two runs: no uid is taken then."""
    (tmp_path / "real").mkdir(mode=0o700)
    folder = tmp_path / "rooms"
    assert callable(make)
    make(folder)
    monkeypatch.setattr(users, "LOCKS", folder)
    with pytest.raises(users.UserError, match=refused) as raised:
        users.acquire()
    assert "\n" not in str(raised.value) and str(folder) in str(raised.value)


@as_root
def test_a_lock_folder_in_a_folder_others_can_write_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Who can write the folder holding the lock folder can move it away, and a grader
    after that would make a new, empty one."""
    holder = tmp_path / "run"
    holder.mkdir()
    holder.chmod(0o777)
    monkeypatch.setattr(users, "LOCKS", holder / "rooms")
    with pytest.raises(users.UserError, match=f"refusing {holder}: others can write it"):
        users.acquire()


@as_root
def test_a_missing_lock_folder_is_made_for_root_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "run" / "rooms"
    monkeypatch.setattr(users, "LOCKS", folder)
    os.close(users.lock_folder())
    assert folder.is_dir() and (folder.stat().st_mode & 0o777) == 0o700
    assert folder.stat().st_uid == 0
    assert folder.parent.stat().st_mode & 0o022 == 0  # made too (0755, less a umask)


#: Sleeps in model(1): its run stays up until its grader is killed.
SLEEPER = """
import time

def model(n):
    time.sleep(60)
    return []
"""

#: A grader process grading one sleeping submission.
GRADES_A_SLEEPER = """
import sys
from cp_queens.grading import sandbox
sandbox.run(sys.argv[1], [1], sandbox.Limits(wall_seconds=60))
"""


def _rooms(grader: int) -> list[psutil.Process]:
    """The room processes below ``grader``: the harness (the room's PID 1) and the
    submission it runs."""
    found = []
    with contextlib.suppress(psutil.Error):
        for process in psutil.Process(grader).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                command = process.cmdline()
                if "/harness/child.py" in command and "bwrap" not in command[0]:
                    found.append(process)
    return found


def _uids(processes: list[psutil.Process]) -> set[int]:
    """Their real uids outside (the harness begins as root, then becomes the room's)."""
    uids = set()
    for process in processes:
        with contextlib.suppress(psutil.Error):
            uids.add(process.uids().real)
    return uids


@in_a_room
@pytest.mark.slow  # two graders and their rooms: about 0.5 s of CPU (the default run has
# the two-process test of acquire, its cheap twin)
def test_two_graders_running_at_once_give_their_rooms_different_uids() -> None:
    """Two graders, each with a run going on: each room runs as one uid of the range,
    not the other's."""
    graders = [
        subprocess.Popen([sys.executable, "-c", GRADES_A_SLEEPER, SLEEPER]) for _ in range(2)
    ]
    try:
        deadline = time.monotonic() + 30
        seen: list[set[int]] = [set(), set()]
        while time.monotonic() < deadline:
            rooms = [_rooms(grader.pid) for grader in graders]
            seen = [_uids(processes) for processes in rooms]
            up = [len(processes) == 2 for processes in rooms]  # its PID 1 and the submission
            if all(up) and not any(0 in uids for uids in seen):
                break  # both rooms up, both dropped to a room uid
            time.sleep(0.02)
        assert all(len(uids) == 1 for uids in seen), seen
        (first,), (second,) = seen
        assert first != second
        assert all(users.BASE <= uid < users.BASE + users.COUNT for uid in (first, second))
    finally:
        for grader in graders:
            grader.kill()
            grader.wait()


#: Waits in model(1) until it is sent SIGUSR1, then answers.
WAITS_FOR_A_SIGNAL = """
import signal, time

told = []
signal.signal(signal.SIGUSR1, lambda number, frame: told.append(number))

def model(n):
    while not told:
        time.sleep(0.01)
    return []
"""


def _catches(pid: int, number: int) -> bool:
    """Has process ``pid`` a handler of its own for signal ``number`` (its ``SigCgt``)?"""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            fields = dict(line.split(":", 1) for line in status if ":" in line)
    except OSError:
        return False
    return bool(int(fields.get("SigCgt", "0").strip(), 16) >> (number - 1) & 1)


@in_a_room
def test_a_process_of_the_run_s_uid_outside_its_room_is_killed_and_reported() -> None:
    """What the room's namespaces cannot end (here a process started outside the room as
    the run's uid, as one escaped from it would be) is killed when the run ends, before
    its uid is freed, and the outcome names it."""
    outcomes: list[sandbox.Outcome] = []
    run = threading.Thread(
        target=lambda: outcomes.append(
            sandbox.run(WAITS_FOR_A_SIGNAL, [1], sandbox.Limits(wall_seconds=30))
        )
    )
    run.start()
    escaped = None
    try:
        deadline = time.monotonic() + 30
        rooms: list[psutil.Process] = []
        while time.monotonic() < deadline:
            rooms = [room for pid in list(sandbox._RUNNING) for room in _rooms(pid)]
            if len(rooms) == 2 and 0 not in _uids(rooms):
                break  # its PID 1 and the submission, both of the run's uid
            time.sleep(0.02)
        (uid,) = _uids(rooms)
        escaped = _running_as(uid, uid, uid)
        pids = {room.pid for room in rooms}
        (submission,) = [room for room in rooms if room.ppid() in pids]
        while not _catches(submission.pid, signal.SIGUSR1) and time.monotonic() < deadline:
            time.sleep(0.01)  # its module still loading: SIGUSR1 would end it, not tell it
        submission.send_signal(signal.SIGUSR1)
        run.join(30)
        assert [outcome.escaped for outcome in outcomes] == [[escaped.pid]]
        assert _ended(escaped) == -9
        assert outcomes[0].stopped is None and len(outcomes[0].messages) >= 3, outcomes
        rubric = load()
        handed_in = Submission("escaper", Path("escaper.py"), WAITS_FOR_A_SIGNAL)
        expected = {1: tasks.reference(rubric.task, 1)}
        graded = judge_outcome(handed_in, outcomes[0], [1], expected, rubric)
        assert any("the sandbox did not hold" in note for note in graded.notes), graded.notes
    finally:
        if escaped is not None:
            escaped.kill()
            escaped.wait()
        if run.is_alive():
            sandbox.stop_all()
            run.join(30)
            sandbox.resume()
