"""Borderline verdicts measured again: a limit a submission reached near its edge costs
marks only if it reaches it again, run alone.

CPU time is not a constant of a program: on a crowded machine the same code takes
more of it (caches and cores shared), and the grader's own measurement has a poll's
grain. Six byte-identical copies of a model needing about 4.5 s of CPU at n = 9 (the
limit 5 s) graded six at a time got full marks four or five times in six: marks a
lecturer cannot defend. So a size whose verdict is a limit (``cpu limit``, a memory
limit, the wall-clock backstop of a busy machine) and whose measurement is within
``MARGIN`` of it is run again after the class, alone (no other submission running),
up to ``RERUNS`` times while its best run stays near the limit (on a loaded machine one
re-run may be as crowded as the class was), and the best run counts. The measurements
are kept: ``marks.csv`` has them in its ``measured`` column and the feedback says them,
as what was measured, never the limit printed back as a measurement.

A model that needs far more than the limit is stopped at it every time: its verdict
stands after its re-runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from cp_queens.grading.results import StudentResult
from cp_queens.grading.sandbox.watch import StopReason

#: How near a limit a measurement must be (a share of the limit) to be measured again.
MARGIN = 0.2

#: How many times at most a borderline submission is run again (while it stays borderline).
RERUNS = 2

#: The sizes' statuses that are a limit's verdict.
LIMITS = ("cpu limit", "memory", "timeout")


def why(result: StudentResult, memory_mb: int | None, margin: float = MARGIN) -> str | None:
    """What was measured at a limit's verdict, when it is within ``margin`` of the limit
    (the words for the feedback and ``marks.csv``); None when it is not borderline."""
    stopped = next((size for size in result.sizes if size.status in LIMITS), None)
    if stopped is None or result.status != "graded":
        return None
    at = f"n={stopped.n}"
    if stopped.status == "cpu limit":
        allowed = result.cpu_limit
        if allowed and result.cpu_seconds <= allowed * (1 + margin):
            return f"{stopped.status} at {at}: {result.cpu_seconds:.2f} s of CPU measured"
        return None
    if stopped.status == "memory" and memory_mb and result.peak_memory:
        peak = result.peak_memory / (1 << 20)
        if peak <= memory_mb * (1 + margin):
            return f"{stopped.status} at {at}: {peak:.0f} MB measured"
        return None
    if result.stopped == StopReason.BACKSTOP:  # a machine too busy: never the student's fault
        return f"timeout at {at}: the machine was too busy ({result.seconds:.1f} s of wall time)"
    return None


def measured(result: StudentResult) -> str:
    """One run in a few words: its sizes' verdicts and the CPU it used."""
    wrong = [f"n={size.n} {size.status}" for size in result.sizes if size.status != "ok"]
    verdicts = ", ".join(wrong[:2]) + (", ..." if len(wrong) > 2 else "") if wrong else "all ok"
    return f"{result.cpu_seconds:.2f} s of CPU, {verdicts}"


def rerun(
    results: Sequence[StudentResult],
    again: Callable[[int], StudentResult],
    memory_mb: int | None,
    margin: float = MARGIN,
    times: int = RERUNS,
) -> list[StudentResult]:
    """``results`` with each borderline one run again by ``again(index)`` (alone: one at a
    time, after the class), up to ``times`` times while its best run is still borderline,
    and the best of its runs kept; every run is said in the kept result's ``reruns`` and in
    a note of its feedback."""
    kept = list(results)
    for index, first in enumerate(results):
        reason = why(first, memory_mb, margin)
        if reason is None:
            continue
        runs = [first]
        while len(runs) <= times and why(max(runs, key=_points), memory_mb, margin):
            runs.append(again(index))
        best = max(runs, key=_points)  # the earliest of the best, on a tie
        which = ("first", "second", "third", "fourth")[runs.index(best)] if len(runs) <= 4 else ""
        words = (
            f"class run: {reason}; run again alone: "
            + "; then ".join(measured(run) for run in runs[1:])
            + f"; the {which or 'best'} run counts"
        )
        note = (
            f"near a limit, measured again: {words} (a verdict at a limit is measured again "
            "before it costs marks)"
        )
        kept[index] = replace(best, reruns=(*best.reruns, words), notes=(note, *best.notes))
    return kept


def _points(result: StudentResult) -> Fraction:
    return result.computed_points
