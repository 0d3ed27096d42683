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
from dataclasses import dataclass

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


@dataclass(slots=True)
class Usage:
    """One sample of a tree: CPU seconds so far, resident bytes, processes and threads now."""

    cpu_seconds: float = 0.0
    resident_bytes: int = 0
    processes: int = 0
    threads: int = 0


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
