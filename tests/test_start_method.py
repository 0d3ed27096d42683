"""Worker processes start safely beside threads, and a script without the ``__main__``
guard is told so in one line instead of breaking the pool."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

from cp_queens.parallel.local import start_method

THREADED = """
import threading, time
import cp_queens
threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
{guard}print(cp_queens.count(16, workers=2))
"""


def run_script(tmp_path: Path, guard: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "my_count.py"
    indent = "    " if guard else ""
    script.write_text(THREADED.format(guard=guard + indent))
    return subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", str(script)],
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


def test_a_script_without_the_guard_gets_one_line_naming_it(tmp_path: Path) -> None:
    done = run_script(tmp_path, "")
    assert done.returncode != 0
    assert "BrokenProcessPool" not in done.stderr and "leaked" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "my_count.py, line 5" in last and 'if __name__ == "__main__":' in last


def test_a_guarded_script_counts_beside_its_thread(tmp_path: Path) -> None:
    done = run_script(tmp_path, 'if __name__ == "__main__":\n    ')
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "14772512"  # OEIS A000170, n = 16
    assert "DeprecationWarning" not in done.stderr
