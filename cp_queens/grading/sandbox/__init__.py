"""Run one submission's ``model(n)`` in a sandbox of its own; take back what it returned.

By default (``isolation = "bwrap"``) the submission runs in a bubblewrap room
(``cp_queens.grading.sandbox.room``): its own user, PID, network, mount, IPC and
UTS namespaces, a read-only view of only the interpreter and the allowed
modules, a private size-capped scratch folder, no capabilities, a new session.
Graded as root, it is an unprivileged uid of its own outside the room
(``cp_queens.grading.sandbox.users``). The room's first process is the harness,
untraceable. Nothing of it outlives its run: when the run ends the first process
of its PID namespace is killed, and the kernel ends every other one with it.

Limits are measured from outside, on the whole process tree
(``cp_queens.grading.sandbox.watch``): CPU seconds of every thread and process
(what decides "too slow"), memory (resident, not address space: a CP-SAT model
with 8 workers reserves gigabytes and uses a few hundred MB; plus the files of
the room's tmpfs folders), idle time (neither running nor waiting for a CPU),
processes; the wall clock is only a backstop scaled by how crowded the machine
is. Output and result sizes are capped by the pipes that carry them, file
sizes by ``RLIMIT_FSIZE`` and the scratch folder's size. A tree over a limit is
killed whole.

Results cannot be forged: the grader asks for one size at a time and takes one
reply for it (``cp_queens.grading.sandbox.protocol``).

``isolation = "none"`` runs the harness as a plain child process, as the grader
did before bubblewrap: the limits above still hold, but the submission can read
what the grader's user can read and use the network. ``docs/course-grading.md``
says what each mode contains.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cp_queens.errors import CpQueensError
from cp_queens.grading.sandbox import cgroup, neutral, plain, protocol, room, users
from cp_queens.grading.sandbox import watch as watcher
from cp_queens.grading.sandbox.protocol import Conversation, Lines, TooMuch
from cp_queens.grading.sandbox.watch import StopReason

TOKEN_VARIABLE = plain.TOKEN_VARIABLE

SPARE_PROCESSES = plain.SPARE_PROCESSES

#: Threads and processes a submission may run at once (a CP-SAT model with 8 workers
#: runs about 20): ``pids.max`` of its control group where one can be made, else the
#: watcher's count. Room for solvers, none for a thread bomb, which would otherwise take
#: every PID of the machine.
TASKS = 512

SAMPLE_EVERY = watcher.SAMPLE_EVERY

#: The isolation modes (the rubric's ``limits.isolation``, ``grade --isolation``).
ISOLATIONS = ("bwrap", "none")

#: The modules a submission may import by default, besides the standard library.
DEFAULT_MODULES = ("ortools", "constraint", "numpy")

CHILD = Path(__file__).with_name("child.py")

#: Written into the harness's command line (tests set it to find their own submissions'
#: processes among those of other test runs on the machine).
LABEL = ""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one submission may use, all its sizes together; ``memory_mb`` and ``file_mb``
    may be None (no limit). ``isolation``, ``modules`` and ``submission_kb`` say where it
    runs, what it may import and how large a file is read at all."""

    cpu_seconds: int = 5
    wall_seconds: float = 15.0  # idle: neither running nor waiting for a CPU (sleeping)
    memory_mb: int | None = 512  # resident memory of the whole process tree
    file_mb: int | None = 16
    output_kb: int = 64  # printed output kept for the feedback; the rest is counted
    result_mb: int = 64  # what model(n) returned, all sizes together
    allow_processes: bool = False  # False: fork and subprocess fail (Linux x86_64, seccomp)
    isolation: str = "bwrap"
    modules: tuple[str, ...] = DEFAULT_MODULES
    submission_kb: int = 4096  # a .py or .ipynb larger than this is refused unread
    scratch_mb: int = 64  # the private writable folder (and /tmp) inside the sandbox
    solver_threads: int = 8  # cpu_seconds is per CP-SAT worker, up to this many


@dataclass(slots=True)
class Outcome:
    """What happened to one run: the messages accepted and how it ended."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    returncode: int | None = None
    stopped: StopReason | None = None  # why the grader ended it; None: it ended by itself
    output: str = ""  # the first output_kb of stdout and stderr, merged
    output_bytes: int = 0
    garbled: int = 0  # lines on the result channel that were not JSON objects
    violations: dict[int, str] = field(default_factory=dict)  # size -> forged reply
    notes: list[str] = field(default_factory=list)  # other messages out of turn
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    # size -> CPU seconds of the whole tree while model(n) ran, measured by the grader
    # (from the moment it asked to the moment the reply came, or the run ended)
    cpu_by_size: dict[int, float] = field(default_factory=dict)
    idle_seconds: float = 0.0  # wall time the tree spent neither running nor runnable
    cpu_limit: float = 0.0  # the CPU seconds it was allowed (per solver thread: _per_thread)
    peak_memory: int = 0  # the largest resident memory of the tree seen, in bytes
    isolation: str = "bwrap"
    namespaces: set[str] = field(default_factory=set)  # the PID namespaces of the run
    # When the run was gone (seconds since boot), taken while its namespaces were still
    # held: a process in one of them started before this moment was the run's (after it,
    # the kernel may give a number to another run's namespace).
    ended: float = 0.0
    survivors: list[int] = field(default_factory=list)  # processes left (never, we hope)
    # Processes still running as the run's uid after its room had ended, outside its
    # namespaces, killed before the uid was freed (``users.release``): a room escaped.
    escaped: list[int] = field(default_factory=list)

    @property
    def signal(self) -> int | None:
        """The signal that ended the child, if one did."""
        code = self.returncode
        return -code if code is not None and code < 0 else None


class IsolationError(CpQueensError):
    """The sandbox asked for cannot be made here; the message says why and what to do."""

    def __init__(self, message: str, why: str = "") -> None:
        super().__init__(message)
        self.why = why or message


def check_isolation(isolation: str) -> None:
    """Refuse, with one line saying why and how to go on, an isolation this machine lacks."""
    if isolation not in ISOLATIONS:
        raise IsolationError(f"isolation {isolation!r}: unknown (expected {', '.join(ISOLATIONS)})")
    if isolation == "bwrap":
        why = room.unavailable()
        if why is not None and why.startswith(users.WHERE):  # the lock folder: its own fix
            raise IsolationError(f"cannot isolate submissions: {why}", why)
        if why is not None:
            raise IsolationError(
                f"cannot isolate submissions: {why}. Install bubblewrap (Debian/Ubuntu: "
                "apt-get install bubblewrap) on Linux, or grade with isolation 'none' "
                "(no namespaces: see docs/course-grading.md)",
                why,
            )


class Stopped(Exception):
    """Raised by ``run`` once ``stop_all`` was called: the run was ended (or never started)
    because the grader is stopping, not because of anything the submission did. A run
    that raises it has no outcome to judge: its student has no row from it."""


#: Set by ``stop_all``: every running room ends, and no new one starts until ``resume``.
_STOPPING = threading.Event()
#: The first process of every run going on (the ``bwrap`` started, or the plain child),
#: for ``stop_all`` to end them at once.
_RUNNING: set[int] = set()
_RUNNING_LOCK = threading.Lock()


def stop_all() -> None:
    """End every room running now, at once, and refuse new ones: for a grader stopping on
    Ctrl-C or SIGTERM (safe to call from a signal handler or another thread; returns at
    once). Each ``run`` going on kills its whole process tree within a sampling period
    (0.05 s), waits until it is gone, and raises ``Stopped``; a ``run`` called afterwards
    raises ``Stopped`` without starting anything. ``resume`` lets runs start again."""
    _STOPPING.set()
    # Nothing is killed here: each run's own thread finds its whole tree from bwrap, then
    # kills it. Killing bwrap first (as this did) orphaned a room its thread had not yet
    # looked into: the harness, the room's PID 1, is no longer bwrap's child to find, and
    # having changed its user it lost bwrap's --die-with-parent signal (the kernel clears
    # it on a change of credentials), so the submission lived on after the grader.


def resume() -> None:
    """Let runs start again after ``stop_all`` (a program grading another class)."""
    _STOPPING.clear()


def stopping() -> bool:
    """Has ``stop_all`` been called (and not ``resume``)?"""
    return _STOPPING.is_set()


def finish() -> None:
    """After a class: remove what the runs left to remove (their control groups)."""
    cgroup.finish()


def run(
    source: str,
    sizes: list[int],
    limits: Limits,
    beside: dict[str, bytes] | None = None,
    replies: Mapping[int, int] | None = None,
) -> Outcome:
    """Run ``model(n)`` of the Python ``source`` for each size, in a fresh sandbox;
    ``beside`` (a module's file name -> its bytes) are importable next to it, read-only
    in the room (a student's folder of several files). ``replies``: what the reply to
    each size may cost the grader to read (``protocol.reply_budget`` of the right
    answer; ``protocol.MOST`` for a size not named): a line past it stops the run
    ("result") before it is parsed. Raises ``Stopped`` if ``stop_all`` was called
    before or during the run."""
    if _STOPPING.is_set():
        raise Stopped("the grader is stopping")
    # In a room the submission's file is bound from here: a folder whose path names
    # nothing of the grader (``neutral``), not a TMPDIR that may be in a home folder.
    beneath = neutral.folder() if limits.isolation != "none" else None
    scratch = Path(tempfile.mkdtemp(prefix="cp-queens-grade-", dir=beneath))
    token = uuid.uuid4().hex
    try:
        submission = scratch / "submission.py"
        submission.write_text(source, encoding="utf-8")
        submission.chmod(0o644)
        extra = []
        for name, data in sorted((beside or {}).items()):
            if "/" in name or name in ("submission.py", "", ".", ".."):
                continue  # discover gives module file names only; never a path
            path = scratch / name
            path.write_bytes(data)
            path.chmod(0o644)
            extra.append(path)
        return _run_in(scratch, token, sizes, limits, extra, replies or {})
    finally:
        if limits.isolation == "none":
            plain.sweep(token)
        shutil.rmtree(scratch, ignore_errors=True)


def _run_in(
    scratch: Path,
    token: str,
    sizes: list[int],
    limits: Limits,
    beside: list[Path] | None = None,
    replies: Mapping[int, int] | None = None,
) -> Outcome:
    result_read, result_write = os.pipe()
    control_read, control_write = os.pipe()
    isolated = limits.isolation != "none"
    settings = {
        "fd": result_write,
        "control": control_read,
        "source": room.SUBMISSION if isolated else str(scratch / "submission.py"),
        "site": room.SITE if isolated else None,
        "block_toolkit": not isolated,
        # The harness's own RLIMIT_CPU is a backstop: the watcher holds the limit, per
        # solver thread (``_per_thread``), so the backstop leaves room for every thread.
        "cpu_seconds": min(limits.cpu_seconds * max(1, limits.solver_threads), 1 << 53),
        "file_bytes": None if limits.file_mb is None else limits.file_mb << 20,
        "processes": None if isolated else plain.process_limit(),
        "result_bytes": limits.result_mb << 20,
        "allow_processes": limits.allow_processes,
        "label": LABEL,
    }
    uid = users.acquire() if isolated and users.dropping() else None
    escaped: list[int] = []
    try:
        outcome = _run_as(
            scratch,
            token,
            sizes,
            limits,
            settings,
            uid,
            result_read,
            control_write,
            beside,
            replies,
        )
    finally:
        if uid is not None:
            escaped = users.release(uid)  # the room has ended: nothing should run as it
    outcome.escaped = escaped
    return outcome


def _run_as(
    scratch: Path,
    token: str,
    sizes: list[int],
    limits: Limits,
    settings: dict[str, Any],
    uid: int | None,
    result_read: int,
    control_write: int,
    beside: list[Path] | None = None,
    replies: Mapping[int, int] | None = None,
) -> Outcome:
    result_write, control_read = settings["fd"], settings["control"]
    isolated = limits.isolation != "none"
    keep: tuple[int, ...] = (result_write, control_read)
    lifeline = userns = None
    if isolated:
        # The room's first process ends when this end closes: when the run is over, or
        # when the grader dies, even by -9 (the kernel closes it). Graded as root, bwrap's
        # parent-death signal does not reach it (it is the run's uid by then).
        settings["lifeline"], lifeline = os.pipe()  # close-on-exec: only pass_fds hands on
        keep += (settings["lifeline"],)
        if uid is not None:
            userns = users.namespace(uid)
            keep += (userns,)
        settings["user"] = None if userns is None else room.NOBODY
        settings["pid1"] = True
        argv = room.command(
            [json.dumps(settings)],
            scratch / "submission.py",
            limits.modules,
            scratch_bytes=limits.scratch_mb << 20,
            beside=beside or (),
            userns=userns,
        )
        # Nothing of the grader's environment goes to bwrap (its first process is outside
        # the room's PID namespace, but a variable may hold a token or a key).
        environment = {"PATH": os.defpath, "LANG": "C.UTF-8"}
        cwd: Path | None = Path("/")
    else:
        argv = [sys.executable, "-I", "-u", str(CHILD), json.dumps(settings)]
        environment = plain.environment(token, scratch)
        cwd = scratch
    group = cgroup.Group()
    if isolated:
        memory = None if limits.memory_mb is None else limits.memory_mb << 20
        group = cgroup.make(memory, TASKS)
        argv = group.wrap(argv)
    outcome = Outcome(isolation=limits.isolation)
    started = time.monotonic()
    try:
        child = subprocess.Popen(
            argv,
            cwd=cwd,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=keep,
            start_new_session=True,
        )
    finally:
        os.close(result_write)
        os.close(control_read)
        if lifeline is not None:
            os.close(settings["lifeline"])
        if userns is not None:
            os.close(userns)  # bwrap holds it now; the namespace and its keyrings end with the run
    with _RUNNING_LOCK:
        _RUNNING.add(child.pid)
    fcntl.fcntl(control_write, fcntl.F_SETFL, os.O_NONBLOCK)
    control = _Control(control_write)
    watch = watcher.Watch(
        child.pid,
        cpu_seconds=limits.cpu_seconds,
        memory_bytes=None if limits.memory_mb is None else limits.memory_mb << 20,
        idle_seconds=limits.wall_seconds,
        processes=SPARE_PROCESSES + 3,  # (+3: bwrap, the room's first process, the harness)
        threads=TASKS + 3,
        tmpfs=(room.SCRATCH, "/dev/shm") if isolated else (),
        rooms=lambda: len(_RUNNING),
    )
    try:
        _collect(child, result_read, control, outcome, limits, started, sizes, watch, replies)
    finally:
        os.close(result_read)
        control.close()
        _end(child, watch, outcome)
        if lifeline is not None:
            os.close(lifeline)
        with _RUNNING_LOCK:
            _RUNNING.discard(child.pid)
        if outcome.stopped is None and group.out_of_memory():
            outcome.stopped = StopReason.MEMORY
        group.remove()
    if outcome.stopped == StopReason.STOPPING:
        raise Stopped("the grader is stopping")
    outcome.seconds = time.monotonic() - started
    return outcome


class _Control:
    """The grader's end of the control pipe, closed once: a descriptor closed twice may
    close another thread's (a run of another submission that just opened one)."""

    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd

    def ask(self, n: int | None) -> None:
        """Ask for size ``n``, or say there is none (close the pipe: the harness ends)."""
        if self.fd is None:
            return
        if n is None:
            self.close()
            return
        # The child may be gone or have closed its end: what it sent is what we have.
        with contextlib.suppress(OSError):
            os.write(self.fd, f"{n}\n".encode())

    def close(self) -> None:
        if self.fd is not None:
            fd, self.fd = self.fd, None
            os.close(fd)


def _collect(
    child: subprocess.Popen[bytes],
    results: int,
    control: _Control,
    outcome: Outcome,
    limits: Limits,
    started: float,
    sizes: list[int],
    watch: watcher.Watch,
    replies: Mapping[int, int] | None = None,
) -> None:
    """Read both pipes, ask for each size in turn, watch the limits, until the child is
    done, or runs out of time or room. A line on the result channel is bounded by what
    reading it would cost (``replies`` of the size running, ``protocol.LEAST`` while the
    file loads), counted as it streams: past it the run stops ("result") unparsed."""
    assert child.stdout is not None
    output = child.stdout.fileno()
    open_fds = {results, output}
    kept = bytearray()
    keep = limits.output_kb << 10
    budgets = replies or {}
    reader = Lines(budget=protocol.LEAST)
    capacity = (limits.result_mb << 20) + (1 << 20)  # the items plus the messages around them
    received = 0
    deadline = started + watch.backstop
    exited = False
    talk = Conversation(sizes)
    asked_at = 0.0  # the tree's CPU seconds when the running size was asked
    try:
        while open_fds:
            if _STOPPING.is_set():
                outcome.stopped = StopReason.STOPPING
                return
            now = time.monotonic()
            if not exited:
                deadline = max(deadline, started + watch.backstop)  # the machine got busier
            if now >= deadline:
                if not exited:
                    outcome.stopped = StopReason.BACKSTOP
                return
            over = watch.check(now)
            if over is not None and not exited:
                outcome.stopped = over
                return
            if not exited and _exited(child):
                # Exited, the child has written all it will: read what is there, then stop,
                # even if a process it left behind still holds the pipes open.
                exited = True
                deadline = min(deadline, now + 0.5)
            wait = 0 if exited else min(deadline - now, SAMPLE_EVERY)
            ready, _, _ = select.select(list(open_fds), [], [], wait)
            if exited and not ready:
                return
            for fd in ready:
                try:
                    data = os.read(fd, 1 << 16)
                except OSError:
                    data = b""
                if not data:
                    open_fds.discard(fd)
                    continue
                if fd == output:
                    outcome.output_bytes += len(data)
                    if len(kept) < keep:
                        kept += data[: keep - len(kept)]
                    continue
                received += len(data)
                if received > capacity:
                    outcome.stopped = StopReason.RESULT
                    return
                try:
                    lines = reader.feed(data)
                except TooMuch:
                    outcome.stopped = StopReason.RESULT
                    return
                for line in lines:
                    running = talk.running
                    taken = len(talk.accepted)
                    if talk.take(line):
                        cpu = watch.measure()
                        if running is not None:
                            outcome.cpu_by_size[running] = cpu - asked_at
                        asked_at = cpu
                        asked = talk.next_size()
                        if asked is not None:
                            reader.budget = budgets.get(asked, protocol.MOST)
                        control.ask(asked)
                    elif len(talk.accepted) > taken:  # CP-SAT's workers, told as it solves
                        _per_thread(watch, talk.accepted[-1], limits)
    finally:
        if _STOPPING.is_set() and outcome.stopped is None and not talk.finished:
            outcome.stopped = StopReason.STOPPING  # ended by stop_all (its pipes closed first)
        running = talk.running
        if running is not None:
            outcome.cpu_by_size[running] = watch.measure() - asked_at
        outcome.output = kept.decode("utf-8", errors="replace")
        outcome.messages = talk.accepted
        outcome.violations = talk.violations
        outcome.notes = talk.notes
        outcome.garbled = talk.garbled


def _per_thread(watch: watcher.Watch, message: dict[str, Any], limits: Limits) -> None:
    """The CPU limit per solver thread: a run whose CP-SAT solve asks for k workers (not
    enumerating: that runs on one) may use ``k x cpu_seconds``, k at most
    ``solver_threads``; a right multi-worker solve is not "too slow" for using the
    threads it asked for. (The harness tells it from inside the submission's process:
    a submission that lies gains at most ``solver_threads`` times the limit.)"""
    workers = message.get("workers")
    if isinstance(workers, int) and not isinstance(workers, bool) and workers > 1:
        threads = min(workers, limits.solver_threads)
        watch.cpu_seconds = max(watch.cpu_seconds, float(limits.cpu_seconds * threads))


def _end(child: subprocess.Popen[bytes], watch: watcher.Watch, outcome: Outcome) -> None:
    """Kill whatever is left of the run and wait until it is gone; reap the child."""
    watch.discover()
    usage = watcher.sample(watch.pids)
    watch.cpu = max(watch.cpu, usage.cpu_seconds)
    watcher.kill(watch.pids)
    if outcome.isolation == "none":
        _kill_group(child.pid)
    if child.stdout is not None:
        child.stdout.close()
    returncode, cpu = _reap(child)
    if outcome.isolation != "none" and 128 < returncode < 128 + 65:
        returncode = 128 - returncode  # bwrap passes on a signal as 128 + its number
    outcome.returncode = returncode
    outcome.cpu_seconds = max(cpu, watch.cpu)
    outcome.peak_memory = watch.peak
    outcome.idle_seconds = watch.idle
    outcome.cpu_limit = watch.cpu_seconds
    outcome.namespaces = set(watch.namespaces)
    outcome.survivors = watcher.gone(watch.namespaces)
    outcome.ended = watcher.now()  # while its namespaces' numbers are still the run's
    watch.unpin()


def _reap(child: subprocess.Popen[bytes]) -> tuple[int, float]:
    """Wait for the child: its exit code (minus the signal that ended it) and CPU seconds."""
    if child.returncode is not None:  # already reaped by poll(): its CPU time is lost
        return child.returncode, 0.0
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode, usage.ru_utime + usage.ru_stime


def _exited(child: subprocess.Popen[bytes]) -> bool:
    """Has the child ended? Asked without reaping it, so that its CPU time can still be read."""
    try:
        return os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
