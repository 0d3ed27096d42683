"""Turning a solver that calls us back into a generator its consumer drives.

A solver with a solution callback (CP-SAT, CPMpy's ``solveAll``) runs its own
loop and calls us for each solution; a Python generator must instead be driven
by whoever reads it. The bridge: the solver runs on a worker thread and hands
each solution over a *bounded* queue, so memory holds at most a few hundred
solutions however many exist, and the solver waits while the consumer is busy.
When the consumer stops, a stop flag tells the callback to end the search.

Shared by engines that need it (they never import each other).
"""

from __future__ import annotations

import queue
import threading

#: Solutions waiting for the consumer; bounds the memory of a stream.
QUEUE_SIZE = 256


def put_unless_stopped(out: queue.Queue, item: object, stop: threading.Event) -> bool:
    """Block until ``item`` is queued, unless the consumer stops first (then False)."""
    while not stop.is_set():
        try:
            out.put(item, timeout=0.05)
            return True
        except queue.Full:
            continue
    return False
