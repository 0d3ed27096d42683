"""Memory the kernel holds outside every process (issue 44): graded without a control
group, the grader sees only its resident memory and its tmpfs folders, so what a
submission parks in the kernel must be refused or bounded by construction.

Tried here, each toward 1 GB (four times the run's limit), by a submission that then
answers right: memfds (the issue's 3 GB), System V segments, semaphore sets and message
queues (1.1 GB and 0.5 GB before they were refused), Unix socket pairs with their
buffers raised to the kernel's largest (1.1 GB before), TCP connections on the room's
loopback (1.1 GB before), pipes at 1 MB each (148 MB before). The test reads what each
hoard got the kernel to hold, as the submission counted it.
"""

from __future__ import annotations

import pytest

from cp_queens.grading import sandbox
from cp_queens.grading.sandbox import cgroup, child
from cp_queens.grading.sandbox import room as sandbox_room
from tests.hostile import RIGHT, tagged

pytestmark = pytest.mark.skipif(
    sandbox_room.unavailable() is not None, reason=f"no sandbox: {sandbox_room.unavailable()}"
)

#: Each hoard's aim: four times the run's memory limit (the issue's was 3 GB).
GOAL = 1 << 30

HOARDS = (
    RIGHT
    + r"""
import ctypes, fcntl, json, os, socket

GOAL = GOAL_BYTES
CHUNK = b"x" * (1 << 16)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
held = {}

def tell(name, value):
    print("HOARD " + json.dumps([name, value]), flush=True)

def fill(fd):
    total = 0
    os.set_blocking(fd, False)
    try:
        while total < GOAL:
            total += os.write(fd, CHUNK)
    except (BlockingIOError, OSError):
        pass
    return total

# the room's writable folders: their sizes; and nothing else takes a file
for path in ("/scratch", "/tmp", "/dev/shm"):
    tell("size " + path, os.statvfs(path).f_blocks * os.statvfs(path).f_frsize)
for path in ("/", "/dev", "/opt/python", "/site", "/submission", "/usr"):
    try:
        open(os.path.join(path, "hoard"), "wb").close()
        tell("write " + path, "made")
    except OSError as error:
        tell("write " + path, type(error).__name__)

# memfds: through os, and through the system call itself
try:
    os.memfd_create("hoard")
    tell("memfd-os", "made")
except OSError as error:
    tell("memfd-os", str(error))
x32 = libc.syscall(0x40000000 + 319, b"hoard", 0)  # the same call through the x32 table
tell("memfd-x32", x32 if x32 >= 0 else os.strerror(ctypes.get_errno()))
total, fds = 0, []
while total < GOAL:
    fd = libc.syscall(319, b"hoard", 0)
    if fd < 0:
        tell("memfd-syscall", os.strerror(ctypes.get_errno()))
        break
    os.ftruncate(fd, 512 << 20)
    for offset in range(0, 512 << 20, 1 << 20):
        total += os.pwrite(fd, CHUNK * 16, offset)
    fds.append(fd)
tell("memfd-bytes", total)

# System V: a segment, semaphore sets of 32,000, message queues of 16 KB
tell("shmget", libc.shmget(0, 1 << 30, 0o1600) >= 0 or os.strerror(ctypes.get_errno()))
sets = 0
while sets < 500 and libc.semget(0, 32000, 0o1600) >= 0:
    sets += 1
tell("semget-sets", sets)
class Message(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_long), ("text", ctypes.c_char * 8192)]

message, queues, total = Message(1, b"x" * 8192), 0, 0
while total < GOAL and queues < 32000:
    queue = libc.msgget(0, 0o1600)
    if queue < 0:
        break
    queues += 1
    while libc.msgsnd(queue, ctypes.byref(message), 8192, 0o4000) == 0:  # IPC_NOWAIT
        total += 8192
tell("msgget-queues", queues)
tell("msg-bytes", total)

# Unix socket pairs, each end's buffer raised as far as the kernel lets, both ways
total, pairs, refused = 0, [], None
try:
    while total < GOAL:
        a, b = socket.socketpair()
        pairs.append((a, b))
        for end in (a, b):
            try:
                end.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8 << 20)
            except OSError as error:
                refused = str(error)
            total += fill(end.fileno())
except OSError as error:
    tell("socketpair-ended", str(error))
tell("sndbuf", refused or "raised")
tell("socketpair-bytes", total)
for a, b in pairs:
    a.close(); b.close()

# TCP on the room's loopback
total, conns = 0, []
try:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1000)
    while total < GOAL:
        c = socket.create_connection(server.getsockname())
        s, _ = server.accept()
        conns += [c, s]
        total += fill(c.fileno())
    tell("tcp", "made")
except OSError as error:
    tell("tcp", str(error))
tell("tcp-bytes", total)
for c in conns:
    c.close()

# pipes of 1 MB
total, pipes = 0, []
try:
    while total < GOAL:
        r, w = os.pipe()
        pipes.append((r, w))
        try:
            fcntl.fcntl(w, 1031, 1 << 20)
        except OSError:
            pass
        total += fill(w)
except OSError as error:
    tell("pipes-ended", str(error))
tell("pipe-bytes", total)
""".replace("GOAL_BYTES", str(GOAL))
)


def test_memory_parked_in_the_kernel_is_refused_or_bounded_without_a_cgroup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cgroup, "make", lambda memory, tasks: cgroup.Group())
    limits = sandbox.Limits(memory_mb=256, cpu_seconds=30, wall_seconds=60, output_kb=256)
    outcome = sandbox.run(HOARDS, [6], limits)
    held = tagged(outcome.output, "HOARD")
    assert "pipe-bytes" in held, outcome.output  # every hoard was tried, to the end
    # Files: /scratch (and /tmp, a link to it) and /dev/shm, size-capped tmpfs whose use the
    # watcher adds to the memory; nothing else writable.
    assert held["size /scratch"] == held["size /tmp"] == limits.scratch_mb << 20
    assert held["size /dev/shm"] == 1 << 20
    for path in ("/", "/dev", "/opt/python", "/site", "/submission", "/usr"):
        assert held[f"write {path}"] in ("PermissionError", "OSError"), (path, held)
    # The 3 GB in memfds: refused, and the feedback says why.
    assert "memfd_create is not allowed" in str(held["memfd-os"])
    assert held["memfd-syscall"] == held["memfd-x32"] == "Operation not permitted"
    assert held["memfd-bytes"] == 0
    # System V IPC: refused (the room's IPC namespace holds nothing made before it).
    assert held["shmget"] == "Operation not permitted"
    assert held["semget-sets"] == held["msgget-queues"] == 0
    # Sockets: Unix ones only, at the kernel's default buffer size, FILES of them at most.
    assert held["sndbuf"] == "[Errno 1] Operation not permitted"
    assert "Address family not supported" in str(held["tcp"]) and held["tcp-bytes"] == 0
    most = child.FILES << 19  # half a megabyte per descriptor: twice what was measured
    assert 0 < int(held["socketpair-bytes"]) <= most, held  # type: ignore[call-overload]
    assert 0 < int(held["pipe-bytes"]) <= most, held  # type: ignore[call-overload]
    # Bounded, not refused: the submission still ran, and its right answer was taken.
    (result,) = [m for m in outcome.messages if m.get("event") == "result"]
    assert len(result["items"]) == 4 and outcome.stopped is None, outcome
