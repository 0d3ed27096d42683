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

The per-engine figures live on each engine class (``bytes_per_square``,
``seconds_per_solution``, ``counts_on_every_core``, ``first_reach``): see ``Costs``.
"""

from __future__ import annotations

import math
import os
from typing import Protocol

from cp_queens.errors import UnsupportedTaskError

#: What every engine holds per queen besides its model (the placement itself, ~40 bytes
#: a queen as Python ints, and the text written out): construct 70 MB at n = 10^6.
BYTES_PER_QUEEN = 100
#: A count expected to take longer than this is refused unless a time limit is given.
BEYOND_REACH = 365 * 86400.0
#: A call may plan to use at most this share of the memory free when it starts. The
#: figures are rough (within a factor of about 1.5), other processes grow meanwhile, and
#: running out is not a clean failure on Linux (the OOM killer picks a process, maybe not
#: ours): better refuse ``solve 5000 -e cpsat`` (20 GB planned, 21.6 GB measured) on a
#: 24 GB machine than take it to the edge.
MEMORY_SHARE = 0.75
#: Plans smaller than this are not checked (100 MB fits anywhere this runs).
CHECK_FROM_BYTES = 100e6


class Costs(Protocol):
    """What an engine costs, as its class says (see ``Engine``).

    The figures live on the engine class, so that adding an engine is one file; this
    module only does the arithmetic and writes the messages.
    """

    @property
    def name(self) -> str: ...
    @property
    def bytes_per_square(self) -> float | None:
        """Peak bytes per square of the residue its model needs, or ``None`` (no model)."""

    @property
    def seconds_per_solution(self) -> float | None:
        """CPU seconds per solution when counting (one core), or ``None``: unknown."""

    @property
    def counts_on_every_core(self) -> bool:
        """Whether a count runs on every core (the figure above is divided by them)."""

    @property
    def first_reach(self) -> int | None:
        """Largest empty board on which a first solution is expected within minutes, or
        ``None``: no limit (a formula, local search, a solver with first-fail heuristics)."""


#: Number of solutions, OEIS A000170; n = 27 is the largest ever counted (2016).
KNOWN_TOTALS = (
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624, 4968057848, 39029188884, 314666222712, 2691008701644,
    24233937684440, 227514171973736, 2207893435808352, 22317699616364044,
    234907967154122528,
)  # fmt: skip


#: OEIS A002562: the solutions distinct up to the square's symmetries, n = 1..27. Never an
#: answer: only what a count resumed from a checkpoint is checked against.
KNOWN_UNIQUE = (
    1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955, 11977939,
    83263591, 621012754, 4878666808, 39333324973, 336376244042, 3029242658210,
    28439272956934, 275986683743434, 2789712466510289, 29363495934315694,
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
    """Bytes this process could still allocate: ``MemAvailable`` on Linux (else all RAM),
    and no more than its own limits leave (``ulimit -v``: ``RLIMIT_AS`` less the address
    space it holds; ``RLIMIT_DATA`` less its data), which ``MemAvailable`` does not show:
    a call planned on the machine's memory under ``ulimit -v 3G`` ran 35 s and then failed
    out of memory."""
    have = _machine_memory()
    for limit, used in _own_limits():
        have = min(have, max(0, limit - used))
    return have


def _machine_memory() -> int:
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


def _own_limits() -> list[tuple[int, int]]:
    """(soft limit, bytes already counted against it) of ``RLIMIT_AS`` and ``RLIMIT_DATA``
    where they are set; what is counted is read from ``/proc/self/status`` (0 elsewhere)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return []
    used = _status_bytes(("VmSize:", "VmData:"))
    found = []
    for name, field in (("RLIMIT_AS", "VmSize:"), ("RLIMIT_DATA", "VmData:")):
        which = getattr(resource, name, None)
        if which is None:
            continue
        soft = resource.getrlimit(which)[0]
        if soft != resource.RLIM_INFINITY and soft >= 0:
            found.append((soft, used.get(field, 0)))
    return found


def _status_bytes(fields: tuple[str, ...]) -> dict[str, int]:
    found: dict[str, int] = {}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                words = line.split()
                if words and words[0] in fields:
                    found[words[0]] = int(words[1]) * 1024  # in kB
    except (OSError, ValueError, IndexError):
        pass
    return found


def memory_needed(engine: Costs, n: int, free: int | None = None) -> float:
    """Rough peak bytes for one call of ``engine`` on an n x n board.

    ``free``: rows without a given queen; models are built on those rows only (the
    residue of a completion problem), so a huge board with few open rows is cheap.
    """
    linear = float(BYTES_PER_QUEEN) * n
    if engine.bytes_per_square is None:
        return linear
    side = n if free is None else free
    return float(engine.bytes_per_square) * squares(engine, side, "memory_growth") + linear


def residue_bytes(n: int, free: int) -> float:
    """Rough peak bytes of ``Problem.residue`` itself: tuples of the free rows and
    columns (~40 bytes an entry as Python ints) and one set per free row (~220 bytes).

    Every completion engine and the choice of the default one build it, so a board of
    a billion rows with one given queen is refused here, before 300 GB are asked for.
    """
    return 300.0 * free + 40.0 * n


def setup_seconds(engine: Costs, n: int, free: int | None = None) -> float | None:
    """Rough seconds to build and load the model of one call (``None``: not measured).

    The figures were measured on an idle machine: an underestimate on a busy one, so
    a call refused for its setup would have overrun its time limit in any case.
    """
    per_square = getattr(engine, "setup_seconds_per_square", None)
    if per_square is None:
        return None
    side = n if free is None else free
    return float(per_square) * squares(engine, side, "setup_growth")


def squares(engine: object, side: int, growth: str) -> float:
    """``side ** 2`` for a model that grows with the squares of the board; ``side ** g``
    for an engine whose class sets ``growth`` (``memory_growth``, ``setup_growth``) to
    ``g``: an encoding that grows faster (CPMpy's SAT encoding: about n^5 seconds and
    n^4 bytes), its ``*_per_square`` figure then the constant in front."""
    exponent = float(getattr(engine, growth, 2) or 2)
    try:
        return float(side) ** exponent
    except OverflowError:
        return math.inf


def count_seconds(engine: Costs, n: int, cores: int = 1) -> float | None:
    """Rough wall seconds to count every solution of n queens (``None``: unknown)."""
    per_solution = engine.seconds_per_solution
    if per_solution is None:
        return None
    if not engine.counts_on_every_core:
        cores = 1
    return known_or_estimated_total(n) * per_solution / max(1, cores)


def check_bytes(need: float, what: str, instead: str) -> None:
    """Refuse, before building anything, ``what`` if ``need`` bytes do not fit.

    ``need`` is compared with ``MEMORY_SHARE`` of the memory free now; the message
    names the estimate, what is free, and ``instead`` (what can do it).
    """
    have = available_memory()
    if need <= MEMORY_SHARE * have:
        return
    raise UnsupportedTaskError(
        f"{what} would need about {format_bytes(need)} of memory; this machine has "
        f"{format_bytes(have)} available (a call may plan on {MEMORY_SHARE:.0%} of it): {instead}"
    )


def check_memory(
    engine: Costs, n: int, free: int | None = None, *, completion: bool = False
) -> None:
    """Refuse, before building anything, a call that cannot fit in this machine's memory.

    ``completion``: given queens or blocked squares, which the formula cannot take.
    """
    need = memory_needed(engine, n, free)
    per_square = engine.bytes_per_square
    if per_square is not None:
        what = f"engine '{engine.name}' (roughly {per_square:g} bytes per square) for n={n}"
    else:
        what = f"engine '{engine.name}' (roughly {BYTES_PER_QUEEN} bytes per queen) for n={n}"
    if engine.name == "construct":
        instead = "no engine can hold a placement this large here"
    elif completion:
        instead = "engines 'reference' and 'propagate' need memory linear in n"
    else:
        instead = (
            "use engine 'construct' (one solution for any n >= 4, O(n) memory) or 'minconflicts'"
        )
    check_bytes(need, what, instead)


def check_count_reach(engine: Costs, n: int, cores: int, time_limit: float | None) -> float | None:
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


def check_first_reach(engine: Costs, n: int, time_limit: float | None) -> None:
    """Refuse a first solution that backtracking will not find in reasonable time.

    ``solve 3000 -e reference`` or ``solve 2000 -e propagate`` would otherwise run for
    ever without a word. With a time limit the caller accepts "none found in time", so
    the search may start.
    """
    reach = engine.first_reach
    if time_limit is not None or reach is None or n <= reach:
        return
    raise UnsupportedTaskError(
        f"engine '{engine.name}' is not expected to find a solution for n={n} in reasonable "
        f"time: its backtracking search reaches about n={reach} within minutes and grows "
        f"steeply beyond (hours to years). Use engine 'construct' (one "
        "solution for any n >= 4, at once) or 'minconflicts', or give a time limit to search "
        "that long anyway"
    )


#: A model whose setup alone is estimated longer than this is refused without a time
#: limit: nothing would be said for hours (``solve 5000 -e cpmpy`` ran silently).
SETUP_REFUSED_FROM = 3600.0


def check_setup_reach(engine: Costs, n: int, free: int, time_limit: float | None) -> None:
    """Refuse, without a time limit, a call whose model would take more than an hour
    to build and load before the search even starts (with a limit, ``Engine``'s setup
    check ends the call at once when the setup outlasts it)."""
    if time_limit is not None:
        return
    setup = setup_seconds(engine, n, free)
    if setup is None or setup <= SETUP_REFUSED_FROM:
        return
    raise UnsupportedTaskError(
        f"engine '{engine.name}' would need {format_duration(setup)} to build and load its "
        f"model of n={n} before searching. Use engine 'construct' (one solution for any "
        "n >= 4, at once) or 'minconflicts', or give a time limit to try anyway"
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
