"""Worker processes start safely beside threads, a script needs no ``__main__`` guard
for the package's own workers, and one whose workers must import it (work defined in
the script) is told so in one line instead of breaking the pool."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

from cp_queens.parallel.local import start_method
from tests.helpers import total

#: A script with a thread of its own (a progress display, a GUI, a server) that counts
#: with two workers, with and without the guard. n = 11 goes to the pool as n = 14 did
#: (173 subproblems), for 0.15 CPU-s less a script.
THREADED = """
import threading, time
import cp_queens
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
{guard}print(cp_queens.count(11, workers=2))
"""

#: Work defined in the script itself: its workers must import it.
OWN_WORK = """
import threading, time
from cp_queens import parallel

def square(batch):
    return [(str(x), x * x) for x in batch]

threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
{guard}print(sum(parallel.run(range(10), square, key=str, workers=2).records.values()))
"""


def run_script(tmp_path: Path, text: str, guard: bool) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "my_count.py"
    script.write_text(text.format(guard='if __name__ == "__main__":\n    ' if guard else ""))
    return subprocess.run(
        # Shown, not made errors: os.fork drops a warning an "error" filter would raise.
        [sys.executable, "-W", "always::DeprecationWarning", str(script)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip


def test_no_fork_beside_a_running_thread() -> None:
    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, daemon=True)
    helper.start()
    try:
        assert start_method().get_start_method() != "fork"
    finally:
        stop.set()
        helper.join()


def test_a_script_without_the_guard_counts_beside_its_thread(tmp_path: Path) -> None:
    """The package's workers skip the script (lessons call cp_queens at top level)."""
    for guard in (False, True):
        done = run_script(tmp_path, THREADED, guard)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == str(total(11))
        assert "use of fork()" not in done.stderr  # Python 3.12+: no fork beside threads
        assert "Traceback" not in done.stderr


def test_work_defined_in_an_unguarded_script_gets_one_line_naming_the_guard(
    tmp_path: Path,
) -> None:
    done = run_script(tmp_path, OWN_WORK, guard=False)
    assert done.returncode != 0
    assert "BrokenProcessPool" not in done.stderr and "leaked" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "MainGuardError: my_count.py, line 9" in last
    assert 'if __name__ == "__main__":' in last
    guarded = run_script(tmp_path, OWN_WORK, guard=True)
    assert guarded.returncode == 0, guarded.stderr
    assert guarded.stdout.strip() == str(sum(x * x for x in range(10)))


#: Workers from a fork server, then the script is killed with ``kill -9``.
ORPHANED = """
import os, threading, time
from cp_queens.parallel.local import local_pool
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
pool = local_pool(2)
print(pool.submit(os.getpid).result(), flush=True)
pool.submit(time.sleep, 60)
time.sleep(60)
"""


def test_fork_server_workers_die_with_a_killed_script(tmp_path: Path) -> None:
    """A fork server lives as long as a process it started: its workers watch us."""
    script = tmp_path / "orphans.py"
    script.write_text(ORPHANED)
    process = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    assert process.stdout is not None
    worker = int(process.stdout.readline())
    assert Path(f"/proc/{worker}").exists()
    process.kill()
    process.communicate()  # reaps it and closes its pipe
    deadline = time.monotonic() + 5
    while not _dead(worker) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _dead(worker)


def _dead(pid: int) -> bool:
    """Gone, or a zombie: killed, waiting to be reaped. Orphaned, the worker is reaped by
    process 1, which in a container may look only every second or two (1.5 s here)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
