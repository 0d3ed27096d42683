"""What a submission's whole process tree uses, measured from outside, and how it is ended.

The tree is every process descended from the one the grader started. In a
PID namespace nothing can leave it: a process whose parent dies is adopted
by the namespace's first process, which is in the tree. Its CPU time is the
user and system time of every thread of every live process plus what their
reaped children used (``/proc/PID/stat``), so threads and processes count
alike; its memory is the resident memory of its processes (pages actually
used, not the address space that threads reserve). A sample is a handful of
small reads, taken every few hundredths of a second by the grader; a
submission over a limit is killed whole.

Ending a run: the first process of the PID namespace is killed, and the
kernel kills every other process in the namespace with it. ``gone`` waits
until no process is left in the namespaces the run created.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass(slots=True)
class Usage:
    """One sample of a tree: CPU seconds so far, resident bytes, processes and threads now."""

    cpu_seconds: float = 0.0
    resident_bytes: int = 0
    processes: int = 0
    threads: int = 0


class StopReason(StrEnum):
    """Why the grader ended a run (``Outcome.stopped``), as isolate's meta file enumerates
    how a run ended; a run that ended by itself has none (None). A ``str`` enum: its value
    is the word marks.csv and the tests have always read."""

    WALL = "wall"  # idle too long: neither computing nor waiting for a CPU
    BACKSTOP = "backstop"  # the wall clock of a machine too crowded to finish it
    CPU = "cpu"  # the CPU limit, every thread and process
    MEMORY = "memory"  # the memory limit (resident memory and the files it keeps)
    PROCESSES = "processes"  # more processes or threads than allowed at once
    RESULT = "result"  # returned more than the grader reads
    STOPPING = "stopping"  # ``stop_all`` ended it (``run`` raises ``Stopped`` instead)


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (which may hold spaces)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as source:
            text = source.read()
    except OSError:
        return None
    end = text.rfind(b")")
    return text[end + 2 :].decode().split() if end >= 0 else None


def _all_parents() -> dict[int, int]:
    parents = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    for name in names:
        if name.isdigit():
            fields = _stat(int(name))
            if fields is not None and len(fields) > 1:
                parents[int(name)] = int(fields[1])
    return parents


def tree(root: int) -> list[int]:
    """``root`` and every process descended from it, alive now."""
    children: dict[int, list[int]] = {}
    for pid, parent in _all_parents().items():
        children.setdefault(parent, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def sample(pids: list[int]) -> Usage:
    """CPU (threads and reaped children included), resident memory and count of ``pids``."""
    usage = Usage()
    for pid in pids:
        fields = _stat(pid)
        if fields is None or len(fields) < 22:
            continue
        # After the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
        # ... num_threads(17) ... rss(21), in clock ticks and pages.
        ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))
        usage.cpu_seconds += ticks / _TICKS
        usage.resident_bytes += int(fields[21]) * _PAGE
        usage.processes += 1
        usage.threads += int(fields[17])
    return usage


def namespace(pid: int) -> str | None:
    """The PID namespace of ``pid`` (``pid:[4026532...]``), None if it is gone."""
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return None


def pin(pid: int) -> tuple[str, int] | None:
    """The PID namespace of ``pid`` and a descriptor holding it: while the descriptor is
    open, the namespace's number is not given to another (None if ``pid`` is gone)."""
    try:
        fd = os.open(f"/proc/{pid}/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    return f"pid:[{os.fstat(fd).st_ino}]", fd


def members(namespaces: set[str], started_before: float | None = None) -> list[int]:
    """Every live process in one of ``namespaces`` (for the end of a run, and for tests);
    a zombie (dead, waiting for its parent to read its status) is not alive. The kernel
    gives a dead namespace's number to a new one: ``started_before`` (``now()`` when the
    run ended) leaves out the processes of a later run in a namespace of the same number."""
    if not namespaces:
        return []
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or namespace(int(name)) not in namespaces:
            continue
        fields = _stat(int(name))
        if fields is None or fields[0] in ("Z", "X"):
            continue
        if started_before is not None and int(fields[19]) / _TICKS > started_before:
            continue
        found.append(int(name))
    return found


def now() -> float:
    """Seconds since boot, the clock of a process's start time in ``/proc/PID/stat``."""
    return time.clock_gettime(time.CLOCK_BOOTTIME)


def kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def gone(namespaces: set[str], root: int | None = None, seconds: float = 10.0) -> list[int]:
    """Kill, and wait until there is no process left in ``namespaces`` (nor below ``root``);
    the processes still there after ``seconds`` (there should be none)."""
    deadline = time.monotonic() + seconds
    # Once empty, a namespace's number may go to another run's new one: its processes,
    # started after this moment, are not ours to kill.
    ended = now()
    while True:
        left = members(namespaces, started_before=ended)
        if root is not None:
            left += [pid for pid in tree(root)[1:] if pid not in left and not _zombie(pid)]
        if not left or time.monotonic() > deadline:
            return left
        kill(left)
        time.sleep(0.01)


def _zombie(pid: int) -> bool:
    fields = _stat(pid)
    return fields is None or fields[0] in ("Z", "X")


#: How often a tree is measured (seconds), and looked for anew.
SAMPLE_EVERY = 0.05
DISCOVER_EVERY = 0.1

#: A run's wall-clock backstop is its idle allowance plus this many times its CPU limit,
#: times the machine's crowding (rooms or load per core, at least 1): a legal model, which
#: needs at most its CPU limit, is never stopped by the clock of a busy machine.
BACKSTOP_FACTOR = 3.0


def backstop(cpu_seconds: float, idle_seconds: float, crowding: float) -> float:
    """The wall-clock seconds after which a run is stopped whatever it is doing."""
    return idle_seconds + BACKSTOP_FACTOR * cpu_seconds * max(1.0, crowding)


def crowding(rooms: int) -> float:
    """How many runnable things share each core now: the rooms running, or the load
    average of the last minute if the machine is busier than that."""
    cores = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    return max(rooms, load) / cores


def runnable(pids: list[int]) -> bool:
    """Is a thread of ``pids`` running or waiting for a CPU (or for the disk)? A tree that
    is not is sleeping or waiting for input: its time passes by its own choice."""
    for pid in pids:
        try:
            threads = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{pid}/task/{thread}/stat", "rb") as source:
                    text = source.read()
            except OSError:
                continue
            end = text.rfind(b")")
            if end >= 0 and text[end + 2 : end + 3] in (b"R", b"D"):
                return True
    return False


def tmpfs_bytes(pid: int, folders: tuple[str, ...]) -> int:
    """What the files in ``folders`` of ``pid``'s mount namespace hold (tmpfs: memory)."""
    used = 0
    for folder in folders:
        try:
            stats = os.statvfs(f"/proc/{pid}/root{folder}")
        except OSError:
            continue
        used += (stats.f_blocks - stats.f_bfree) * stats.f_frsize
    return used


class Watch:
    """One run's process tree, measured every ``SAMPLE_EVERY`` seconds against its limits:
    CPU seconds of every thread and process, memory (resident, plus the files of its
    tmpfs folders), processes and threads, the seconds it spends neither running nor
    waiting for a CPU (``idle_seconds``), and a wall-clock backstop scaled by how crowded
    the machine is."""

    def __init__(
        self,
        root: int,
        *,
        cpu_seconds: float,
        memory_bytes: int | None,
        idle_seconds: float,
        processes: int,
        threads: int,
        tmpfs: tuple[str, ...] = (),
        rooms: Callable[[], int] = lambda: 1,
    ) -> None:
        self.root = root
        self.cpu_seconds = cpu_seconds
        self.memory_bytes = memory_bytes
        self.idle_seconds = idle_seconds
        self.processes = processes
        self.threads = threads
        self.tmpfs = tmpfs
        self.rooms = rooms
        self.pids: list[int] = [root]
        self.namespaces: set[str] = set()
        # Descriptors of the namespaces, held until the run is gone: a namespace's number
        # is given to a new one as soon as it dies, and the sweep of this run's numbers
        # would kill another run's processes (of this grader, or another on the machine).
        self.pins: list[int] = []
        self.inside: int | None = None  # a process in the room (its mount namespace)
        self.cpu = 0.0
        self.peak = 0
        self.idle = 0.0
        self.crowding = 1.0
        self.started = time.monotonic()
        self.mine = namespace(os.getpid())
        self.next_sample = 0.0
        self.next_discovery = 0.0
        self.last = self.started

    @property
    def backstop(self) -> float:
        """The wall-clock seconds after which the run is stopped whatever it does."""
        return backstop(self.cpu_seconds, self.idle_seconds, self.crowding)

    def check(self, now: float) -> StopReason | None:
        """A limit the tree is over (``StopReason.CPU``, ``MEMORY``, ``PROCESSES``, ``WALL``:
        idle too long, ``BACKSTOP``: the wall clock), or None."""
        if now < self.next_sample:
            return None
        self.next_sample = now + SAMPLE_EVERY
        if now >= self.next_discovery:
            self.discover()
            self.crowding = max(self.crowding, crowding(self.rooms()))
            self.next_discovery = now + DISCOVER_EVERY
        usage = sample(self.pids)
        self.cpu = max(self.cpu, usage.cpu_seconds)
        memory = usage.resident_bytes
        if self.inside is not None and self.tmpfs:
            memory += tmpfs_bytes(self.inside, self.tmpfs)
        self.peak = max(self.peak, memory)
        if not runnable(self.pids):
            self.idle += now - self.last
        self.last = now
        if self.cpu >= self.cpu_seconds:
            return StopReason.CPU
        if usage.processes > self.processes or usage.threads > self.threads:
            return StopReason.PROCESSES
        if self.memory_bytes is not None and memory > self.memory_bytes:
            return StopReason.MEMORY
        if self.idle >= self.idle_seconds:
            return StopReason.WALL
        if now - self.started >= self.backstop:
            return StopReason.BACKSTOP
        return None

    def measure(self) -> float:
        """The tree's CPU seconds now (a sample taken at once, not at the next period)."""
        usage = sample(self.pids)
        self.cpu = max(self.cpu, usage.cpu_seconds)
        return self.cpu

    def discover(self) -> None:
        self.pids = tree(self.root)
        for pid in self.pids[1:]:
            held = pin(pid)
            if held is None:
                continue
            space, fd = held
            if space == self.mine or space in self.namespaces:
                os.close(fd)
            else:
                self.namespaces.add(space)
                self.pins.append(fd)
                if self.inside is None:
                    self.inside = pid

    def unpin(self) -> None:
        """Let the run's namespaces go (their numbers may then be given to new ones)."""
        for fd in self.pins:
            os.close(fd)
        self.pins = []
