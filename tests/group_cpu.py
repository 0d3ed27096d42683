"""The CPU seconds a process group spends from a moment on: how a test says "stopped at
once" without timing the wall clock.

A loaded machine stretches wall time (a process waits for a core), not CPU time: a count
that obeys a signal spends a fraction of a CPU second on its way out, whatever the load;
one that finishes the pieces it holds first spends the seconds those pieces need. Linux
only (``/proc``); each process's CPU is read every 10 ms until it is gone (a zombie keeps
its final figures until reaped, so little escapes).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

#: Clock ticks per second of ``/proc/PID/stat``'s times.
TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_of_group(group: int) -> dict[int, int]:
    """Ticks of CPU (user and system) used so far by each process of ``group``."""
    used = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after the command's name
        if int(fields[2]) == group:  # fields[2] is the process group (field 5)
            used[int(entry.name)] = int(fields[11]) + int(fields[12])  # utime, stime
    return used


class GroupCpu:
    """Watches ``group`` from its creation: ``spent()`` is the CPU seconds its processes
    (those alive now, and any started later) used since, once they are all gone."""

    def __init__(self, group: int) -> None:
        self.group = group
        self.start = _cpu_of_group(group)
        self.last = dict(self.start)
        self.done = threading.Event()
        self.watcher = threading.Thread(target=self._watch, daemon=True)
        self.watcher.start()

    def _watch(self) -> None:
        while not self.done.wait(0.01):
            now = _cpu_of_group(self.group)
            self.last.update(now)
            if not now:
                return

    def spent(self, wait: float = 60) -> float:
        """CPU seconds used since the watch began (waits up to ``wait`` s for the group
        to end)."""
        self.watcher.join(wait)
        self.done.set()
        return sum(self.last[pid] - self.start.get(pid, 0) for pid in self.last) / TICKS
