"""The result channel bounded in the grader's memory, not only in bytes (issue 44): a
reply line is costed as it streams and stopped past a few times what the right answer
costs to read, before a byte of it is parsed. A forged 64 MB line of one-queen boards
(0.1 s of the student's CPU) made the grader peak at 3.4 GB."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cp_queens.grading.sandbox import protocol
from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.grading.tasks.solutions.judge import reference_solutions
from tests.helpers import ROOT


def test_a_line_is_stopped_as_it_streams_past_its_budget() -> None:
    reader = protocol.Lines(budget=10_000)
    assert reader.feed(b"[[0, 1], [2, 3]]\n") == [b"[[0, 1], [2, 3]]"]
    assert reader.spent == 0  # a whole line read: the next starts from nothing
    reader.feed(b"[[0]," * 20)
    with pytest.raises(protocol.TooMuch):
        for _ in range(100):  # never whole: stopped before its end ever comes
            reader.feed(b"[0]," * 20)
    assert len(reader.pending) < 10_000


def test_a_reply_may_cost_a_few_times_the_right_answer_within_bounds() -> None:
    """The budget follows the task: the answer's own cost times FACTOR, never below
    LEAST (a wrong answer of 40,320 permutations at n = 8 is judged, not stopped) nor
    above MOST (a few hundred MB)."""
    right = reference_solutions(9)
    honest = protocol.cost(json.dumps(right).encode())
    assert protocol.reply_budget(right) == max(protocol.LEAST, protocol.FACTOR * honest)
    many = [list(board) for board in right] * 200  # what 70,400 solutions would cost
    assert protocol.reply_budget(many) == protocol.FACTOR * protocol.cost(json.dumps(many).encode())
    assert protocol.reply_budget(reference_solutions(4)) == protocol.LEAST
    assert protocol.reply_budget(10**9) == protocol.LEAST
    permutations = json.dumps([[0, 1, 2, 3, 4, 5, 6, 7]] * 40_320).encode()
    assert protocol.cost(permutations) < protocol.LEAST
    assert protocol.reply_budget([[0] * 10] * 200_000) == protocol.MOST


#: Writes, when asked for a size, one reply line of 64 MB on the result channel (fd 3):
#: 16.7 million one-queen boards.
FORGER = r"""
import os

def model(n):
    head = b'{"event": "result", "n": %d, "kind": "items", "sized": true, ' % n
    head += b'"cut": false, "items": ['
    line = head + b"[0]," * (16_700_000) + b"[0]]}\n"
    view = memoryview(line)
    while view:
        view = view[os.write(3, view):]
    return []
"""

GRADER = r"""
import json, resource, sys
from pathlib import Path
from cp_queens.grading.grade import grade

[result] = grade(Path(sys.argv[1]), [1, 2, 3, 4, 5, 6], isolation=sys.argv[2])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10
print(json.dumps({"peak": peak, "statuses": result.statuses(), "notes": result.notes,
                  "problems": [size.problem for size in result.sizes]}))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="the forger writes on descriptor 3")
def test_a_64_mb_forged_reply_costs_the_grader_little_memory(tmp_path: Path) -> None:
    """The grader, a process of its own here, is measured by its peak resident memory."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "forger.py").write_text(FORGER, encoding="utf-8")
    isolation = "bwrap" if sandbox_room.unavailable() is None else "none"
    done = subprocess.run(
        [sys.executable, "-c", GRADER, str(folder), isolation],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["statuses"][0] == "too much", report
    assert "returned more than the grader reads" in report["problems"][0]
    assert report["peak"] < 600 << 20, f"the grader peaked at {report['peak'] >> 20} MB"
