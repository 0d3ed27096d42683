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
so no file on the machine belongs to it and no other process runs as it; two
runs at once never share one, so one cannot signal, trace or share a per-user
limit (pipes, inotify, message queues) with another. ``nobody`` would do for the
files, but every daemon that drops to it would share it.

Bubblewrap needs to read the interpreter, which may live where only root can
(``/root/.pyenv``), so it cannot itself run as that uid. Instead the grader
makes, once per uid, a user namespace mapping the namespace's root to root
(for bubblewrap's set-up: mounts, reading the binds) and ``ROOM_USER`` (65534)
to the run's uid, with ``user.max_user_namespaces = 0`` inside (no namespace
of the submission's own); bubblewrap joins it (``--userns``) keeping only
``CAP_SETUID``/``CAP_SETGID``, and the harness's first act is to become
``ROOM_USER``, leaving every group and capability behind. From then on every
process of the room is that uid, outside as inside.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import subprocess
import sys
import threading

#: The first uid (and gid) of the rooms, and how many there are.
BASE = 1_900_000_000
COUNT = 1024

#: The submission's uid and gid inside the room.
ROOM_USER = 65534

_LOCK = threading.Lock()
_TAKEN: set[int] = set()
_NAMESPACES: dict[int, int] = {}  # uid -> a descriptor of its user namespace

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
    """A uid no run going on uses (the lowest free one): release it when the run ends."""
    with _LOCK:
        for uid in range(BASE, BASE + COUNT):
            if uid not in _TAKEN and _free(uid):
                _TAKEN.add(uid)
                return uid
    raise UserError(f"all {COUNT} room uids from {BASE} are in use or named in /etc/passwd")


def release(uid: int) -> None:
    with _LOCK:
        _TAKEN.discard(uid)


def namespace(uid: int) -> int:
    """A descriptor of the user namespace of ``uid``'s rooms (made on first use, kept)."""
    with _LOCK:
        fd = _NAMESPACES.get(uid)
        if fd is None:
            fd = _NAMESPACES[uid] = _make(uid)
        return fd


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
