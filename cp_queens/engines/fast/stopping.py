"""Stopping a compiled count within milliseconds: Ctrl-C, SIGTERM, a time limit.

Why this is needed: Python runs a signal handler only in the main thread, between two
bytecodes. A compiled search called from the main thread keeps it busy, so Ctrl-C used
to wait for the running subproblem: 35 s at n = 19. So the C loops look at a stop flag
of their own (``request_stop`` in ``_kernels`` and ``_mitm``), and a search started from
the main thread runs in a helper thread while the main thread waits on it, able to take
the signal: on Ctrl-C, SIGTERM (the CLI's handler raises ``KeyboardInterrupt``) or when
the clock runs out it raises the flag, the search returns within milliseconds, and the
main thread goes on (re-raising the interrupt). Worker processes need none of this:
they ignore Ctrl-C and die of SIGTERM, and the parent stops them so.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from cp_queens.budget import Clock

T = TypeVar("T")

#: Seconds between two looks at the clock while a search runs.
TICK = 0.05


def _flags() -> list[Any]:
    """The compiled modules with a stop flag that are loaded (only those can be running)."""
    import sys

    names = ("cp_queens.engines.fast._kernels", "cp_queens.engines.fast._mitm")
    return [sys.modules[name] for name in names if name in sys.modules]


def request_stop() -> None:
    """Ask every compiled search of this process to return now."""
    for module in _flags():
        module.request_stop()


def clear_stop() -> None:
    """Let compiled searches run again."""
    for module in _flags():
        module.clear_stop()


def run(search: Callable[[], T], clock: Clock | None = None) -> tuple[T | None, bool]:
    """Run ``search`` (a compiled call that releases the GIL) so that it can be stopped.

    Returns ``(its result, False)``, or ``(its result, True)`` when the clock ran out and
    the search was told to stop (its result is then partial: the caller drops it).

    Raises:
        KeyboardInterrupt: Ctrl-C or SIGTERM came (after the search has stopped).
    """
    if threading.current_thread() is not threading.main_thread():
        return search(), False  # no signal reaches this thread; the caller's clock rules
    outcome: list[Any] = []

    def target() -> None:
        try:
            outcome.append((True, search()))
        except BaseException as error:  # handed to the main thread
            outcome.append((False, error))

    helper = threading.Thread(target=target, name="cp-queens search", daemon=True)
    timed_out = False
    helper.start()
    try:
        while helper.is_alive():
            helper.join(TICK)
            if clock is not None and clock.expired() and helper.is_alive():
                timed_out = True
                request_stop()
    except BaseException:
        request_stop()
        helper.join()
        clear_stop()
        raise
    if timed_out:
        clear_stop()
    ok, value = outcome[0]
    if not ok:
        raise value
    return value, timed_out
