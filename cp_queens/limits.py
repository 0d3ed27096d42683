"""What a request will cost, checked before any work starts.

A request this machine cannot finish should be refused in a second with a line
that says why and what can do it instead, not after minutes of model building
and a ``MemoryError``. The figures below are rough per-engine costs measured
on the development machine (2 cores); they only have to be right within a
factor of a few, because they guard against requests that are off by factors
of millions (``solve 200000 -e cpsat``, ``count 30``).

Examples:
    >>> format_duration(300), format_duration(3 * 86400), format_duration(1e8)
    ('about 5 minutes', 'about 3 days', 'about 3 years')
    >>> known_or_estimated_total(8)
    92
"""

from __future__ import annotations

import math
import os

from cp_queens.errors import UnsupportedTaskError

#: Bytes per square of the board a model needs (peak RSS over n^2, measured:
#: cpsat 807 MB at n = 1000, cpsat-board 170 MB at n = 200, mip 70 MB at n = 60,
#: pyconstraint 66 MB at n = 400), and bytes per queen of engines linear in n
#: (construct 70 MB at n = 10^6, the placement itself ~40 bytes a queen).
BYTES_PER_SQUARE = {
    "cpsat": 800,
    "cpsat-board": 4_000,
    "mip": 20_000,
    "pyconstraint": 400,
    # guesses within a factor of a few (see the class attributes of these engines)
    "cpmpy": 300,
    "minizinc": 300,
}
BYTES_PER_QUEEN = 100

#: CPU seconds per solution found when counting (one core): fast 10.5 s for the
#: 95.8 million solutions of n = 17; the others measured at n = 10..11.
SECONDS_PER_SOLUTION = {
    "fast": 1.1e-7,
    "reference": 1e-4,
    "cpsat": 1e-4,
    "cpsat-board": 5e-4,
    "pyconstraint": 4e-4,
    "propagate": 1e-4,
    "cpmpy": 1e-3,
    "minizinc": 1e-4,
}
#: Engines whose count uses every core.
COUNTS_ON_EVERY_CORE = frozenset({"fast"})
#: A count expected to take longer than this is refused unless a time limit is given.
BEYOND_REACH = 365 * 86400.0

#: Engines that look for a first solution by plain backtracking in row order, and the
#: largest empty board on which they are expected to find one in minutes. Measured (the
#: lexicographic first solution, counted by the fast engine's kernel in the same order):
#: 58.7 million nodes at n = 30, 88 million at n = 32, more than 260 million at n = 36 and
#: beyond; ``reference`` visits about 10^5 nodes a second, so n = 30 takes some 10 minutes
#: (n = 32 ran for more than 14 under load), larger boards hours or more (the growth is
#: exponential, if irregular). Up to n = 29 it answers within about a minute.
FIRST_REACH = {"reference": 29}

#: Number of solutions, OEIS A000170; n = 27 is the largest ever counted (2016).
KNOWN_TOTALS = (
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624, 4968057848, 39029188884, 314666222712, 2691008701644,
    24233937684440, 227514171973736, 2207893435808352, 22317699616364044,
    234907967154122528,
)  # fmt: skip


def known_or_estimated_total(n: int) -> float:
    """Solutions of the n-queens problem: known up to n = 27, extrapolated above.

    Above 27 each step multiplies by about ``0.39 n`` (the ratio was 10.5 at n = 27).
    """
    if n <= len(KNOWN_TOTALS):
        return KNOWN_TOTALS[n - 1]
    steps = min(n - len(KNOWN_TOTALS), 10_000)  # beyond that it is infinite for us anyway
    log_total = math.log(KNOWN_TOTALS[-1]) + sum(
        math.log(0.39 * k) for k in range(len(KNOWN_TOTALS) + 1, len(KNOWN_TOTALS) + 1 + steps)
    )
    return math.inf if log_total > 700 else math.exp(log_total)


def available_memory() -> int:
    """Bytes this process could still allocate: ``MemAvailable`` on Linux, else all RAM."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 1 << 34


def memory_needed(engine: str, n: int, free: int | None = None) -> float | None:
    """Rough peak bytes for one call of ``engine`` on an n x n board (``None``: unknown).

    ``free``: rows without a given queen; models are built on those rows only (the
    residue of a completion problem), so a huge board with few open rows is cheap.
    """
    per_square = BYTES_PER_SQUARE.get(engine)
    if per_square is not None:
        side = n if free is None else free
        return float(per_square) * side * side + float(BYTES_PER_QUEEN) * n
    if engine in ("construct", "minconflicts", "reference", "propagate"):
        return float(BYTES_PER_QUEEN) * n
    return None


def count_seconds(engine: str, n: int, cores: int = 1) -> float | None:
    """Rough wall seconds to count every solution of n queens (``None``: unknown)."""
    per_solution = SECONDS_PER_SOLUTION.get(engine)
    if per_solution is None:
        return None
    if engine not in COUNTS_ON_EVERY_CORE:
        cores = 1
    return known_or_estimated_total(n) * per_solution / max(1, cores)


def check_memory(engine: str, n: int, free: int | None = None) -> None:
    """Refuse, before building anything, a call that cannot fit in this machine's memory."""
    need = memory_needed(engine, n, free)
    if need is None:
        return
    have = available_memory()
    if need <= have:
        return
    per = "square" if engine in BYTES_PER_SQUARE else "queen"
    instead = (
        "use engine 'construct' (one solution for any n >= 4, O(n)) or 'minconflicts'"
        if engine != "construct"
        else "no engine can hold a placement this large here"
    )
    raise UnsupportedTaskError(
        f"engine '{engine}' would need about {format_bytes(need)} of memory for n={n} "
        f"(roughly {BYTES_PER_SQUARE.get(engine, BYTES_PER_QUEEN)} bytes per {per}); this "
        f"machine has {format_bytes(have)} available: {instead}"
    )


def check_count_reach(engine: str, n: int, cores: int, time_limit: float | None) -> None:
    """Refuse a count that would run for more than a year, saying how long it would take.

    With a time limit the caller accepts a partial count, so the count may start.
    """
    if time_limit is not None:
        return
    seconds = count_seconds(engine, n, cores)
    if seconds is None or seconds <= BEYOND_REACH:
        return
    record = len(KNOWN_TOTALS)
    raise UnsupportedTaskError(
        f"counting n={n} with engine '{engine}' would take {format_duration(seconds)} "
        f"on this machine ({cores} core{'s' * (cores != 1)}); the largest n ever counted is "
        f"{record}. Give a time limit of S seconds to count for that long anyway"
    )


def check_first_reach(engine: str, n: int, time_limit: float | None) -> None:
    """Refuse a first solution that plain backtracking will not find in reasonable time.

    ``solve 3000 -e reference`` would otherwise run for ever without a word. With a time
    limit the caller accepts "none found in time", so the search may start.
    """
    reach = FIRST_REACH.get(engine)
    if time_limit is not None or reach is None or n <= reach:
        return
    raise UnsupportedTaskError(
        f"engine '{engine}' (plain backtracking in row order) is not expected to find a "
        f"solution for n={n} in reasonable time: its search grows exponentially with n "
        f"(from n={reach + 1} on, ten minutes to years). Use engine 'construct' (one "
        "solution for any n >= 4, at once) or 'minconflicts', or give a time limit to search "
        "that long anyway"
    )


def format_bytes(size: float) -> str:
    """``1.5 GB``-style sizes for messages (powers of 1000, as people read them)."""
    if not math.isfinite(size):
        return "more bytes than exist"
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB", "EB"):
        if size < 1000:
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size * 1e21:.0e} bytes"


def format_duration(seconds: float) -> str:
    """A duration in the largest unit that fits, for messages."""
    if not math.isfinite(seconds) or seconds > 1e15 * 365 * 86400:
        return "longer than the age of the universe"
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= 2 * size:
            value = seconds / size
            return f"about {value:,.0f} {unit}" if value < 1e6 else f"about {value:.1e} {unit}"
    if seconds >= 120:
        return f"about {seconds / 60:.0f} minutes"
    return f"about {seconds:.0f} seconds"
