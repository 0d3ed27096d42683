"""The kernel's keyrings and the room (issue 44): a grader started from a login shell (or
``su -l``, ``runuser -l``, a systemd service) runs in a session keyring that may hold the
lecturer's keys, and a uid's user keyring outlives the run that wrote it.

Each grader here is a child process that first joins a session keyring of its own and
puts a key in it (through the system calls, as ``keyctl`` would), then grades hostile
submissions that try to read, search, plant and pass on keys.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.grading.sandbox import users
from tests.helpers import ROOT
from tests.hostile import probes

pytestmark = pytest.mark.skipif(
    sandbox_room.unavailable() is not None, reason=f"no sandbox: {sandbox_room.unavailable()}"
)

#: Every way to a key a submission has: the session, user and user-session keyrings by
#: their special ids, a search and request by description, planting a key, /proc/keys.
PROBES = r"""
import ctypes, os, sys

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
KEYCTL, ADD_KEY, REQUEST_KEY = 250, 248, 249
SESSION, USER, USER_SESSION = -3, -4, -5
READ, SEARCH = 11, 10

def probe(name, value):
    print("PROBE " + name + "=" + str(value), flush=True)

def call(*args):
    done = libc.syscall(*args)
    return done if done >= 0 else "errno %d" % ctypes.get_errno()

def read(key):
    buffer = ctypes.create_string_buffer(4096)
    done = libc.syscall(KEYCTL, READ, key, buffer, 4096)
    if done < 0:
        return "errno %d" % ctypes.get_errno()
    return buffer.raw[:done].hex()

for name, ring in (("session", SESSION), ("user", USER), ("user-session", USER_SESSION)):
    probe("read-" + name, read(ring))
    probe("search-" + name, call(KEYCTL, SEARCH, ring, b"user", b"lecturer-token", 0))
probe("request", call(REQUEST_KEY, b"user", b"lecturer-token", None, 0))
probe("request-left", call(REQUEST_KEY, b"user", b"left-by-the-last", None, 0))
for name, ring in (("session", SESSION), ("user", USER), ("user-session", USER_SESSION)):
    probe("plant-" + name, call(ADD_KEY, b"user", b"left-by-the-last", b"ANSWERS", 7, ring))
try:
    probe("proc-keys", open("/proc/keys").read().replace("\n", "|"))
except OSError as error:
    probe("proc-keys", type(error).__name__)

def model(n):
    return [[0]] if n == 1 else []
"""

#: The grader's side: join a session keyring, put the lecturer's key in it, grade the
#: probes as asked (one after another, or two at once), report what each run printed and
#: what the grader's keyring holds afterwards.
GRADER = r"""
import ctypes, json, sys, threading

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
assert libc.syscall(250, 1, b"lecturer-session") >= 0, ctypes.get_errno()  # JOIN
key = libc.syscall(248, b"user", b"lecturer-token", b"TOKEN-4f2a", 10, -3)
assert key >= 0, ctypes.get_errno()

from cp_queens.grading import sandbox

source = sys.stdin.read()
outputs = []
def one():
    outputs.append(sandbox.run(source, [1], sandbox.Limits()).output)
if sys.argv[1] == "together":
    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
else:
    one()
    one()
ids = (ctypes.c_int32 * 64)()
size = libc.syscall(250, 11, -3, ids, ctypes.sizeof(ids))  # READ the session keyring
kept = []
for index in range(size // 4):
    buffer = ctypes.create_string_buffer(256)
    libc.syscall(250, 6, ids[index], buffer, 256)  # DESCRIBE
    kept.append(buffer.value.decode())
secret = ctypes.create_string_buffer(64)
libc.syscall(250, 11, key, secret, 64)
print(json.dumps({"outputs": outputs, "kept": kept, "secret": secret.value.decode()}))
"""


def _grade(how: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", GRADER, how],
        input=PROBES,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("how", ["one-after-another", "together"])
def test_no_room_reads_or_writes_a_keyring(how: str) -> None:
    """Graded from a session keyring holding the lecturer's key: every key system call
    of a submission is refused (EPERM), /proc/keys shows nothing of the grader's, no key a
    student plants reaches the grader's keyring or the next (or the simultaneous)
    student."""
    report = _grade(how)
    runs = [probes(output) for output in report["outputs"]]
    assert len(runs) == 2 and all(runs), report
    for found in runs:
        calls = {name: value for name, value in found.items() if name != "proc-keys"}
        assert len(calls) == 11, found
        assert set(calls.values()) == {"errno 1"}, found  # EPERM, every one
        assert "lecturer" not in found["proc-keys"], found["proc-keys"]
        assert "left-by-the-last" not in found["proc-keys"], found["proc-keys"]
    assert report["kept"][0].endswith(";lecturer-token"), report  # type;uid;gid;perm;description
    assert len(report["kept"]) == 1, report  # nothing planted in the grader's keyring
    assert report["secret"] == "TOKEN-4f2a"


@pytest.mark.skipif(not users.dropping(), reason="a uid of the room's own needs root")
def test_each_run_of_a_uid_has_a_user_namespace_of_its_own() -> None:
    """The kernel keeps a uid's user and user-session keyrings per user namespace: a
    namespace kept for the uid's next run (as the grader did) carried one student's keys
    to the next student of that uid."""
    uid = users.acquire()
    try:
        first, second = users.namespace(uid), users.namespace(uid)
        try:
            assert os.fstat(first).st_ino != os.fstat(second).st_ino
        finally:
            os.close(first)
            os.close(second)
    finally:
        users.release(uid)
