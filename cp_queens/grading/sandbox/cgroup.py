"""A control group for one graded run, where the machine lets the grader make one.

The kernel then enforces two limits the grader's watcher can only sample: the
memory of the whole run (resident memory and its scratch tmpfs, charged as the
pages are used: a burst between two samples cannot pass it) and the number of
tasks (threads and processes: a thread bomb fails at ``pids.max`` instead of
taking every PID of the machine). A controller is used where it is available
and writable: cgroup v2 when the grader's own group already hands ``memory`` /
``pids`` to its children, else cgroup v1 hierarchies of those controllers. None
available (a container with a read-only ``/sys/fs/cgroup``): the run goes on
with the watcher alone, which kills a tree over its memory or process limit.

The run joins its groups before ``bwrap`` starts (a shell writes its own PID to
each ``cgroup.procs``, then ``exec``s ``bwrap``), so every process of the run is
born inside them.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

PREFIX = "cp-queens-grade-"

#: The shell that joins the groups, then becomes ``bwrap``: ``sh -c JOIN sh F1 F2 -- argv``.
#: A group it cannot join leaves the run to the watcher's limits (never a failed run).
JOIN = 'while [ "$1" != -- ]; do { echo $$ > "$1"; } 2>/dev/null; shift; done; shift; exec "$@"'


@dataclass(slots=True)
class Group:
    """The folders made for one run (one per hierarchy) and what each controls."""

    folders: list[Path] = field(default_factory=list)
    memory: Path | None = None  # the folder whose memory controller limits the run
    memory_v2: bool = False
    pids: Path | None = None

    def wrap(self, argv: list[str]) -> list[str]:
        """``argv`` started inside the groups."""
        if not self.folders:
            return argv
        procs = [str(folder / "cgroup.procs") for folder in self.folders]
        return ["/bin/sh", "-c", JOIN, "sh", *procs, "--", *argv]

    def out_of_memory(self) -> bool:
        """Did the kernel kill a process of the run for memory?"""
        if self.memory is None:
            return False
        name = "memory.events" if self.memory_v2 else "memory.oom_control"
        return _counter(self.memory / name, "oom_kill") > 0

    def remove(self) -> None:
        """Remove the folders: now if they are empty, else later (a killed process stays a
        member until its new parent, the machine's init, has read its exit status)."""
        with _LATER_LOCK:
            _LATER.extend(self.folders)
        self.folders = []
        _remove_empty()


#: Folders of finished runs still to remove.
_LATER: list[Path] = []
#: Submissions are graded on several threads at once: each finished run sweeps ``_LATER``,
#: and two sweeps must not both remove the same folder from it.
_LATER_LOCK = threading.Lock()


def _remove_empty() -> None:
    with _LATER_LOCK:
        for folder in list(_LATER):
            try:
                folder.rmdir()
            except FileNotFoundError:
                pass
            except OSError:
                continue
            _LATER.remove(folder)


#: Folders already swept for groups left behind, once per process.
_SWEPT: set[Path] = set()


def _remove_stale(parent: Path) -> None:
    """Remove groups an earlier grader left (its last members were reaped after it ended):
    empty, and older than a minute (a group of a run going on is not empty by then)."""
    if parent in _SWEPT:
        return
    _SWEPT.add(parent)
    with contextlib.suppress(OSError):
        for folder in parent.glob(PREFIX + "*"):
            with contextlib.suppress(OSError):
                if time.time() - folder.stat().st_mtime > 60:
                    folder.rmdir()


def finish(seconds: float = 2.0) -> None:
    """Remove every folder still left (called when a class is graded), waiting up to
    ``seconds`` for the last members to be reaped."""
    deadline = time.monotonic() + seconds
    _remove_empty()
    while _LATER and time.monotonic() < deadline:
        time.sleep(0.05)
        _remove_empty()


def _counter(path: Path, name: str) -> int:
    try:
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == name:
                return int(value)
    except (OSError, ValueError):
        pass
    return 0


def _hierarchies() -> dict[str, tuple[Path, bool]]:
    """Controller (``memory``, ``pids``) -> (the grader's own group folder, is it v2)."""
    mounts: dict[str, tuple[Path, str]] = {}  # "v2" or a v1 controller -> (mount, its root)
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as source:
            for line in source:
                fields = line.split()
                dash = fields.index("-")
                kind, options = fields[dash + 1], fields[dash + 3].split(",")
                where = (Path(fields[4]), fields[3])
                if kind == "cgroup2":
                    mounts.setdefault("v2", where)
                elif kind == "cgroup":
                    for controller in ("memory", "pids"):
                        if controller in options:
                            mounts.setdefault(controller, where)
        with open("/proc/self/cgroup", encoding="utf-8") as source:
            mine = [line.rstrip("\n").split(":", 2) for line in source]
    except (OSError, ValueError):
        return {}
    found: dict[str, tuple[Path, bool]] = {}
    for _, controllers, path in mine:
        if controllers == "" and "v2" in mounts:
            folder = _inside(*mounts["v2"], path)
            try:
                delegated = (folder / "cgroup.subtree_control").read_text().split()
            except OSError:
                continue
            for controller in ("memory", "pids"):
                if controller in delegated:
                    found.setdefault(controller, (folder, True))
        for controller in controllers.split(","):
            if controller in ("memory", "pids") and controller in mounts:
                found[controller] = (_inside(*mounts[controller], path), False)
    return found


def _inside(mount: Path, root: str, path: str) -> Path:
    """The folder of group ``path`` under a mount of the hierarchy's ``root``."""
    relative = os.path.relpath(path, root) if path.startswith(root) else path.lstrip("/")
    return mount if relative == "." else mount / relative


def make(memory_bytes: int | None, tasks: int) -> Group:
    """Groups limiting a run to ``memory_bytes`` and ``tasks``, as far as this machine
    allows (an empty ``Group`` where it allows nothing)."""
    group = Group()
    name = PREFIX + uuid.uuid4().hex[:12]
    made: dict[Path, Path] = {}
    for controller, (parent, v2) in sorted(_hierarchies().items()):
        folder = made.get(parent)
        if folder is None:
            _remove_stale(parent)
            folder = parent / name
            try:
                folder.mkdir()
            except OSError:
                continue
            made[parent] = folder
            group.folders.append(folder)
        try:
            if controller == "pids":
                (folder / "pids.max").write_text(str(tasks))
                group.pids = folder
            elif memory_bytes is not None and v2:
                (folder / "memory.max").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):
                    (folder / "memory.swap.max").write_text("0")
                group.memory, group.memory_v2 = folder, True
            elif memory_bytes is not None:
                (folder / "memory.limit_in_bytes").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):  # only with swap accounting
                    (folder / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
                group.memory = folder
        except OSError:
            continue
    return group
