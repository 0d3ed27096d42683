"""Memory estimates honour the process's own limits (issue 44): under ``ulimit -v``
``MemAvailable`` still shows the machine's memory, and a call planned on it ran for 35 s
before failing "internal error: out of memory"; a board too large to draw is refused
before the work, as ``solve`` refuses it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

#: Under an address-space limit 256 MB above what the process holds: what is available,
#: and whether a call needing 1 GB is refused before it starts.
UNDER_A_LIMIT = r"""
import json, resource
from cp_queens import limits
from cp_queens.errors import UnsupportedTaskError

held = limits._status_bytes(("VmSize:",))["VmSize:"]
resource.setrlimit(resource.RLIMIT_AS, (held + (256 << 20), resource.RLIM_INFINITY))
try:
    limits.check_bytes(1 << 30, "a call of 1 GB", "use less")
    said = ""
except UnsupportedTaskError as error:
    said = str(error)
print(json.dumps({"available": limits.available_memory(), "said": said}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/self/status")
def test_an_address_space_limit_bounds_the_memory_available() -> None:
    done = subprocess.run(
        [sys.executable, "-c", UNDER_A_LIMIT], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert 0 < found["available"] <= 256 << 20
    assert "a call of 1 GB would need about" in found["said"]


def test_a_completion_too_large_to_draw_is_refused_before_the_work(tmp_path: Path) -> None:
    board = tmp_path / "big.json"
    board.write_text('{"n": 10000000}', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "cp_queens", "complete", str(board)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"cp-queens: error: {board}: n=10000000 is too large to draw as --format boards "
        "(at most 1000); use --format jsonl or svg"
    )
