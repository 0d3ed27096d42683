"""The room itself (issue 35): what a submission can reach of the machine, graded as the
grader's own user (root in CI), and how the grader ends every room at once.

Each probe is a submission that tries something and prints what it found; the test
reads its output. Cheap probes (well under a second each) are in the default run.
"""

from __future__ import annotations

import threading
import time

import pytest

from cp_queens.grading import sandbox
from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.grading.sandbox import watch as sandbox_watch

pytestmark = pytest.mark.skipif(
    sandbox_room.unavailable() is not None, reason=f"no sandbox: {sandbox_room.unavailable()}"
)

SLEEPER = """
import time

def model(n):
    time.sleep(60)
    return []
"""


def test_stop_all_ends_every_running_room_and_refuses_new_ones() -> None:
    limits = sandbox.Limits(wall_seconds=60)
    raised: list[BaseException] = []
    outcomes: list[sandbox.Outcome] = []

    def one() -> None:
        try:
            outcomes.append(sandbox.run(SLEEPER, [1, 2], limits))
        except sandbox.Stopped as error:
            raised.append(error)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 30
        while len(sandbox._RUNNING) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(sandbox._RUNNING) == 2  # both rooms are up, their submissions asleep
        sandbox.stop_all()
        for thread in threads:
            thread.join(30)
        assert not any(thread.is_alive() for thread in threads)
        assert len(raised) == 2 and outcomes == []
        assert not sandbox._RUNNING
        with pytest.raises(sandbox.Stopped):  # nothing starts while the grader stops
            sandbox.run("def model(n):\n    return []\n", [1], limits)
    finally:
        sandbox.resume()
    outcome = sandbox.run("def model(n):\n    return [[0]] if n == 1 else []\n", [1], limits)
    assert [m["event"] for m in outcome.messages][:2] == ["loaded", "start"]
    assert set(outcome.cpu_by_size) == {1}  # the grader measured the size it asked
    assert sandbox_watch.members(outcome.namespaces) == []
