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
from typing import ClassVar, Protocol

from cp_queens.errors import UnsupportedTaskError

#: Bytes of the placement itself, per queen (~40), with the lists around it: what an
#: engine linear in n needs (construct 70 MB at n = 10^6), and what any engine adds.
BYTES_PER_QUEEN = 100

#: A count expected to take longer than this is refused unless a time limit is given.
BEYOND_REACH = 365 * 86400.0


class Costed(Protocol):
    """What these checks read off an engine (its class or an instance): the figures
    live on the engine's class (see :class:`cp_queens.engines.base.Engine`), so an
    engine written in one file brings its own costs."""

    name: ClassVar[str]
    #: Peak bytes per square of the board its model needs, or ``None``.
    bytes_per_square: ClassVar[float | None]
    #: Bytes per queen when it is linear in n, or ``None``.
    bytes_per_queen: ClassVar[float | None]
    #: CPU seconds per solution when counting on one core, or ``None``: unknown.
    seconds_per_solution: ClassVar[float | None]
    #: Its count spreads over every core it is given.
    counts_on_every_core: ClassVar[bool]
    #: The largest empty board it is expected to solve within minutes, or ``None``.
    first_reach: ClassVar[int | None]


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


def memory_needed(engine: Costed, n: int, free: int | None = None) -> float | None:
    """Rough peak bytes for one call of ``engine`` on an n x n board (``None``: unknown).

    ``free``: rows without a given queen; models are built on those rows only (the
    residue of a completion problem), so a huge board with few open rows is cheap.
    """
    if engine.bytes_per_square is not None:
        side = n if free is None else free
        return float(engine.bytes_per_square) * side * side + float(BYTES_PER_QUEEN) * n
    if engine.bytes_per_queen is not None:
        return float(engine.bytes_per_queen) * n
    return None


def count_seconds(engine: Costed, n: int, cores: int = 1) -> float | None:
    """Rough wall seconds to count every solution of n queens (``None``: unknown)."""
    if engine.seconds_per_solution is None:
        return None
    if not engine.counts_on_every_core:
        cores = 1
    return known_or_estimated_total(n) * engine.seconds_per_solution / max(1, cores)


def check_memory(engine: Costed, n: int, free: int | None = None) -> None:
    """Refuse, before building anything, a call that cannot fit in this machine's memory."""
    need = memory_needed(engine, n, free)
    if need is None:
        return
    have = available_memory()
    if need <= have:
        return
    if engine.bytes_per_square is not None:
        per = f"{engine.bytes_per_square:g} bytes per square"
    else:
        per = f"{engine.bytes_per_queen:g} bytes per queen"
    instead = (
        "use engine 'construct' (one solution for any n >= 4, O(n)) or 'minconflicts'"
        if engine.name != "construct"
        else "no engine can hold a placement this large here"
    )
    raise UnsupportedTaskError(
        f"engine '{engine.name}' would need about {format_bytes(need)} of memory for n={n} "
        f"(roughly {per}); this machine has {format_bytes(have)} available: {instead}"
    )


def check_count_reach(engine: Costed, n: int, cores: int, time_limit: float | None) -> float | None:
    """Refuse a count that would run for more than a year, saying how long it would take.

    With a time limit the caller accepts a partial count, so the count may start.

    Returns:
        The estimated wall seconds (``None``: unknown, or a time limit was given), so
        that a caller can say up front that a count will be long without estimating again.
    """
    if time_limit is not None:
        return None
    seconds = count_seconds(engine, n, cores)
    if seconds is None or seconds <= BEYOND_REACH:
        return seconds
    record = len(KNOWN_TOTALS)
    raise UnsupportedTaskError(
        f"counting n={n} with engine '{engine.name}' would take {format_duration(seconds)} "
        f"on this machine ({cores} core{'s' * (cores != 1)}); the largest n ever counted is "
        f"{record}. Give a time limit of S seconds to count for that long anyway"
    )


def check_first_reach(engine: Costed, n: int, time_limit: float | None) -> None:
    """Refuse a first solution that plain backtracking will not find in reasonable time.

    ``solve 3000 -e reference`` would otherwise run for ever without a word. With a time
    limit the caller accepts "none found in time", so the search may start.
    """
    reach = engine.first_reach
    if time_limit is not None or reach is None or n <= reach:
        return
    raise UnsupportedTaskError(
        f"engine '{engine.name}' (plain backtracking in row order) is not expected to find a "
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
