"""Whom a submission runs as outside its room, when the grader runs as root.

Run by an ordinary user, bubblewrap maps the room's user to that user: the
submission can do no more than the lecturer could. Run by root (CI, the cgroup
v1 set-up), it would map it to root: no capabilities, but root's files and
root's ``/proc/sys``. The contest sandboxes' answer is a user of the room's
own: ioi/isolate runs box N as uid 60000 + N, nsjail maps the jail's user to
one chosen outside. Here each run takes a uid of its own from
``BASE .. BASE + COUNT`` (skipping any that ``/etc/passwd`` or ``/etc/group``
names): a range systemd leaves to nobody (its container ranges end at
1879048191, its dynamic users are 61184-65519) and no distribution assigns,
so no file on the machine belongs to it and no other process runs as it.
``nobody`` would do for the files, but every daemon that drops to it would
share it.

Two runs at once never share a uid, even run by two graders (two lecturers,
CI's test workers): a run holds its uid by an exclusive ``flock`` on a lock
file of that uid in ``LOCKS``, a folder only root can write or move (the
folder holding it is root's alone too). The kernel frees the lock when its
holder dies, however (``kill -9``): no stale lock outlives a grader, no uid is
lost. ``flock`` (not ``lockf``) because its lock belongs to the open file, not
the process: two threads of one grader opening the file each exclude each
other too, where a second ``lockf`` of the same process would succeed. The
uids this process holds are kept as well (with their lock files), so that its
own runs skip them without a system call. So one run cannot signal, trace or
share a per-user limit (``RLIMIT_NPROC``, pipes, inotify, message queues) with
another. And since any process running as a run's uid is that run's,
``release`` first kills every process of the machine still running as it
(real, effective or saved uid), as ioi/isolate cleans a box: a second line of
defence behind the room's PID namespace, which should have ended them all
already; ``acquire`` does the same for what a grader killed with -9 may have
left.

Bubblewrap needs to read the interpreter, which may live where only root can
(``/root/.pyenv``), so it cannot itself run as that uid. Instead the grader
makes, once per uid, a user namespace mapping the namespace's root to root
(for bubblewrap's set-up: mounts, reading the binds) and ``ROOM_USER`` (65534)
to the run's uid, with ``user.max_user_namespaces = 0`` inside (no namespace
of the submission's own); bubblewrap joins it (``--userns``) keeping only
``CAP_SETUID``/``CAP_SETGID``, and the harness's first act is to become
``ROOM_USER``, leaving every group and capability behind. From then on every
process of the room is that uid, outside as inside. Each run has a namespace of
its own, made for it and dropped with it (a few ms of a helper's start): the
kernel keeps a uid's user and user-session keyrings per user namespace, and a
namespace kept for the uid's next run carried one student's keys to the next.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import grp
import os
import pwd
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

#: The first uid (and gid) of the rooms, and how many there are. (Graders before the
#: lock files handed out uids from 1900000000, holding no lock: one still running beside
#: this one, from another install, would share its uids and have its rooms killed.)
BASE = 1_900_100_000
COUNT = 1024

#: The submission's uid and gid inside the room.
ROOM_USER = 65534

#: Where a uid is held: a lock file per uid, locked by the run that has it. Root's only.
LOCKS = Path("/run/cp-queens/rooms")

#: How long ``kill_all`` goes on finding and killing a uid's processes (a fork bomb may
#: race it) before it gives up.
KILL_SECONDS = 5.0

_LOCK = threading.Lock()
_TAKEN: dict[int, int] = {}  # uid -> its locked lock file, for the runs of this process

#: Run as root by the helper: a user namespace of its own, told when its map is written,
#: then no nested namespaces inside it; it stays until its input closes.
_HELPER = """
import ctypes, sys
if ctypes.CDLL(None, use_errno=True).unshare(0x10000000) != 0:
    sys.exit("unshare(CLONE_NEWUSER): errno %d" % ctypes.get_errno())
print("made", flush=True)
sys.stdin.readline()
with open("/proc/sys/user/max_user_namespaces", "w") as limit:
    limit.write("0")
print("limited", flush=True)
sys.stdin.read()
"""


class UserError(OSError):
    """The room's user or its namespace cannot be made here."""


#: How every ``UserError`` about the lock folder begins.
WHERE = "room uids: "


def dropping() -> bool:
    """Does a room run as a uid of its own (the grader is root)?"""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _free(uid: int) -> bool:
    for lookup in (pwd.getpwuid, grp.getgrgid):
        try:
            lookup(uid)
            return False
        except KeyError:
            continue
    return True


def acquire() -> int:
    """A uid no run on the machine uses (the lowest free one), with no process left of it:
    ``release`` it when the run ends."""
    folder = lock_folder()
    try:
        while True:
            uid = _take(folder)
            if uid is None:
                raise UserError(
                    f"all {COUNT} room uids from {BASE} are in use or named in /etc/passwd"
                )
            # What a grader killed with -9 may have left of a room that was ending.
            _, left = _kill_until_none(uid, KILL_SECONDS)
            if not left:
                return uid
            # (A process that SIGKILL does not end: the uid stays held, never handed out.)
    finally:
        os.close(folder)


def _take(folder: int) -> int | None:
    with _LOCK:
        for uid in range(BASE, BASE + COUNT):
            if uid in _TAKEN or not _free(uid):
                continue
            held = _hold(folder, uid)
            if held is not None:
                _TAKEN[uid] = held
                return uid
    return None


def _hold(folder: int, uid: int) -> int | None:
    """The lock file of ``uid``, locked, or None if another run holds it."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(str(uid), flags, 0o600, dir_fd=folder)
    except OSError as error:
        raise UserError(_stale(uid, error)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except BaseException:
        os.close(fd)
        raise
    return fd


def _stale(uid: int, error: OSError | None = None) -> str:
    """One line naming an entry of ``LOCKS`` that is not a lock file, and what to do."""
    path = LOCKS / str(uid)
    if path.is_symlink():
        what = "a symbolic link"
    elif path.is_dir():
        what = "a folder"
    elif error is not None:
        what = f"unusable ({error.strerror or error})"
    else:
        what = "not a plain file"
    return (
        f"{WHERE}{path} is {what} where the lock file of uid {uid} belongs (left by "
        f"someone or something else than the grader): remove it (rm -r {path}) and grade again"
    )


def check_locks() -> None:
    """Refuse, with one line naming it and the fix, an entry of ``LOCKS`` that is not a
    lock file (a link or a folder): asked once before a class, so that no student's run
    is the first to meet it."""
    folder = lock_folder()
    try:
        for name in os.listdir(folder):
            if not name.isdigit() or not BASE <= int(name) < BASE + COUNT:
                continue
            try:
                status = os.stat(name, dir_fd=folder, follow_symlinks=False)
            except FileNotFoundError:
                continue  # released and removed meanwhile
            if not stat.S_ISREG(status.st_mode):
                raise UserError(_stale(int(name)))
    finally:
        os.close(folder)


def release(uid: int) -> list[int]:
    """Kill every process still running as ``uid``, then free it for another run: the
    processes killed (none, unless one escaped its room). A uid some process still has
    after that is never handed out again by this grader."""
    killed, left = _kill_until_none(uid, KILL_SECONDS)
    if not left:
        with _LOCK:
            held = _TAKEN.pop(uid, None)
        if held is not None:
            os.close(held)  # the lock goes with the last descriptor of the open file
    return killed


def lock_folder() -> int:
    """A descriptor of ``LOCKS``, made (0700, in a 0755 folder) if missing; refused, with
    a line saying why, unless it and the folder holding it are folders only root can
    write: who can replace a lock file, or the folder of them, can hand one uid to two
    runs. Each is opened without following a link, and checked once open."""
    holder = _root_only(LOCKS.parent, 0o755)
    try:
        return _root_only(LOCKS, 0o700, within=holder)
    finally:
        os.close(holder)


def _root_only(path: Path, mode: int, within: int | None = None) -> int:
    """A descriptor of the folder ``path`` (the entry ``path.name`` of the open folder
    ``within``, if given), made with ``mode`` if missing."""
    name = str(path) if within is None else path.name
    try:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, mode, dir_fd=within)
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(name, flags, dir_fd=within)
    except OSError as error:
        raise UserError(f"{WHERE}cannot use {path}: {_not_a_folder(path, error)}") from None
    problem = _unsafe(os.fstat(fd))
    if problem is not None:
        os.close(fd)
        raise UserError(f"{WHERE}refusing {path}: {problem}; only root may write there")
    return fd


def _not_a_folder(path: Path, error: OSError) -> str:
    if path.is_symlink():
        return "it is a symbolic link"
    if error.errno == errno.ENOTDIR or (path.exists() and not path.is_dir()):
        return "it is not a folder"
    return error.strerror or str(error)


def _unsafe(status: os.stat_result) -> str | None:
    if status.st_uid != 0:
        return f"it belongs to uid {status.st_uid}, not root"
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"others can write it (mode {stat.S_IMODE(status.st_mode):04o})"
    return None


def kill_all(uid: int, seconds: float = KILL_SECONDS) -> list[int]:
    """Kill every process on the machine whose real, effective or saved uid is ``uid``,
    again and again until none is left (``seconds`` at most): the processes killed."""
    return _kill_until_none(uid, seconds)[0]


def _kill_until_none(uid: int, seconds: float) -> tuple[list[int], list[int]]:
    """The processes of ``uid`` killed, and those still running when time ran out."""
    killed: list[int] = []
    deadline = time.monotonic() + seconds
    while True:
        found = _running_as(uid)
        if not found or time.monotonic() > deadline:
            return killed, found
        for pid in found:
            if _kill_if_running_as(pid, uid) and pid not in killed:
                killed.append(pid)
        time.sleep(0.001)  # a killed process takes a moment to be gone from /proc


def _running_as(uid: int) -> list[int]:
    """The processes whose real, effective or saved uid is ``uid``."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    return [int(name) for name in names if name.isdigit() and _runs_as(int(name), uid)]


def _runs_as(pid: int, uid: int) -> bool:
    """Is ``pid`` running (not a zombie: a zombie leader whose threads live on is) as
    ``uid``, its real, effective or saved uid?"""
    try:
        with open(f"/proc/{pid}/status", "rb") as source:
            lines = source.read().splitlines()
    except OSError:
        return False  # gone
    fields = {key: value.split() for key, _, value in (line.partition(b":") for line in lines)}
    state, threads = fields.get(b"State", [b"X"])[0], fields.get(b"Threads", [b"0"])[0]
    ended = state in (b"Z", b"X") and int(threads) <= 1
    return not ended and str(uid).encode() in fields.get(b"Uid", [])[:3]


def _kill_if_running_as(pid: int, uid: int) -> bool:
    """SIGKILL ``pid`` if it still runs as ``uid``; asked and sent through a descriptor of
    the process, so that a number reused by another process in between is not killed."""
    try:
        handle = os.pidfd_open(pid)
    except OSError:
        return False  # gone
    try:
        if not _runs_as(pid, uid):
            return False
        signal.pidfd_send_signal(handle, signal.SIGKILL)
        return True
    except OSError:
        return False
    finally:
        os.close(handle)


def namespace(uid: int) -> int:
    """A descriptor of a new user namespace for one room of ``uid``: the caller closes it
    when the run ends. Never one kept from an earlier run: the kernel keeps a uid's user
    keyrings per user namespace, so a namespace used again would hand the next student of
    that uid whatever keys the last one left there."""
    return _make(uid)


def _make(uid: int) -> int:
    helper = subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _HELPER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={},
        cwd="/",
    )
    assert helper.stdin is not None and helper.stdout is not None
    try:
        if helper.stdout.readline().strip() != "made":
            said = helper.stderr.read().strip() if helper.stderr else ""
            raise UserError(f"cannot make a user namespace for the room: {said}")
        mapping = f"0 0 1\n{ROOM_USER} {uid} 1\n"
        for name in ("uid_map", "gid_map"):
            with open(f"/proc/{helper.pid}/{name}", "w", encoding="ascii") as target:
                target.write(mapping)
        helper.stdin.write("\n")
        helper.stdin.flush()
        if helper.stdout.readline().strip() != "limited":
            raise UserError("cannot forbid user namespaces inside the room's namespace")
        return os.open(f"/proc/{helper.pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        with contextlib.suppress(OSError):
            helper.stdin.close()
        helper.kill()
        helper.wait()
        for stream in (helper.stdout, helper.stderr):
            if stream is not None:
                stream.close()
