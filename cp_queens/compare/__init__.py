"""Run engines side by side: one process per run, a time limit, and peak memory.

``compare`` runs every chosen engine on every ``n`` for one task
(``first``, ``count`` or ``enumerate``) and returns one ``Run`` per pair.
Each run happens in a forked child process, for three reasons:

* **a fair clock and a hard time limit** - the engine gets the time limit
  itself (so it can stop cleanly and still report its search figures), and a
  child that overruns it by the grace period is killed, whatever it is doing
  (a MIP solve, a C++ search, a Python loop);
* **peak memory per run** - ``os.wait4`` returns the child's own resource
  usage, so ``ru_maxrss`` is the peak resident memory of that run alone, even
  for a run that had to be killed. It includes what the child inherited from
  the parent at fork time (the interpreter and the imported solvers), which
  is reported separately as ``baseline_rss_mb``;
* **isolation** - a crash or a leak in one engine cannot spoil the next run.

An engine that starts worker processes of its own (``cpsat``'s default
``method="fast"`` for n >= 10) is measured with them: the wall time includes
their work, and ``ru_maxrss`` is then the largest single process among the
run and the workers it waited for, not their sum. Engines are named as on the
command line, optionally with constructor options: ``cpsat:method=plain``,
``pyconstraint:solver=min-conflicts`` (see ``parse_engine_spec``).

Forking needs a POSIX system (Linux, macOS). Tables, CSV, JSON and the plot
are in ``cp_queens.compare.report``.

Examples:
    >>> parse_range("4..7")
    [4, 5, 6, 7]
    >>> parse_range("8,10,12")
    [8, 10, 12]
"""

from __future__ import annotations

import json
import os
import re
import resource
import select
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import cp_queens.engines as engines
from cp_queens.answer import ANSWER, DISAGREE, Answer, answer
from cp_queens.budget import Budget, Clock, check_budget
from cp_queens.errors import CpQueensError, UnsupportedTaskError
from cp_queens.problem import Problem
from cp_queens.stats import Stats

TASKS = engines.TASKS

#: The ``Answer`` task of each ``compare`` task.
ANSWER_TASKS = {"first": "first", "count": "count", "enumerate": "solutions"}

#: Run outcomes.
OK = "ok"
TIMEOUT = "timeout"
UNSUPPORTED = "unsupported"
SKIPPED = "skipped"
ERROR = "error"

#: Largest range ``parse_range`` accepts, so a typo cannot queue a million runs.
MAX_POINTS = 1000
#: Largest board size compared: far beyond what any engine does in a time limit, and
#: within what the plot's axis can hold (``--n 2**70`` broke it: an internal error).
MAX_SIZE = 10**9


#: The kind of solver behind each engine; engines that run other solvers (``cpmpy``,
#: ``minizinc``) say it themselves, per solver, in their ``family`` attribute.
FAMILIES = {
    "reference": "backtracking",
    "fast": "backtracking (bitmask)",
    "template": "generate and test",
    "propagate": "CP with propagation",
    "pyconstraint": "CP with propagation",
    "cpsat": "lazy clause generation",
    "cpsat-board": "lazy clause generation",
    "mip": "MIP",
    "construct": "formula",
    "minconflicts": "local search",
}


def family_of(engine: engines.Engine) -> str:
    """What kind of solver ``engine`` is (its own ``family``, else ``FAMILIES``)."""
    return engine.family or FAMILIES.get(engine.name, "")


class CompareError(CpQueensError):
    """A bad ``compare`` request: the range of n, an engine name, the task."""


@dataclass
class Run:
    """One engine on one board size: what happened and what it cost.

    What the engine itself reports (solutions, branches, conflicts, its other figures)
    is its ``Stats``, kept whole in ``stats`` and read through the
    properties below; the fields here are what only ``compare`` knows.

    Attributes:
        engine: registry name.
        n: board size.
        task: ``first``, ``count`` or ``enumerate``.
        status: ``ok``, ``timeout``, ``unsupported`` (the engine says it cannot
            do the task), ``skipped`` (timed out on a smaller n already) or
            ``error``.
        wall_time: seconds the task took inside the child, measured around the call
            (the time of the kill for a run that had to be killed; ``None`` if it
            never ran).
        peak_rss_mb: peak resident memory of the run's process, in MiB.
        baseline_rss_mb: resident memory the child started with (inherited).
        agrees: for runs that finished, whether ``solutions`` equals that of every
            other finished run at the same n (``None`` when there is nothing to
            compare with).
        family: what kind of solver answered (CP with propagation, lazy clause
            generation, SAT, pseudo-Boolean, MIP, backtracking, ...).
        message: why a run is not ``ok``.
        stats: the engine's statistics of the call, or ``None`` when it made none.
    """

    engine: str
    n: int
    task: str
    status: str
    #: The kind of solver (see ``FAMILIES``), so "same model, other solver" reads.
    family: str = ""
    wall_time: float | None = None
    peak_rss_mb: float | None = None
    baseline_rss_mb: float | None = None
    agrees: bool | None = None
    message: str = ""
    stats: Stats | None = None

    @property
    def solutions(self) -> int | None:
        """Solutions found (counted, streamed, or 0/1 for ``first``) by a run that finished;
        ``None`` otherwise (a run cut short has a ``lower_bound`` instead)."""
        return None if self.stats is None or self.status != OK else self.stats.solutions

    @property
    def lower_bound(self) -> int | None:
        """For a run the time limit stopped: the solutions it had found, a lower bound
        (never in ``solutions``, which holds complete answers only)."""
        if self.status != TIMEOUT or self.stats is None:
            return None
        return self.stats.solutions

    @property
    def branches(self) -> int | None:
        return None if self.stats is None else self.stats.branches

    @property
    def conflicts(self) -> int | None:
        return None if self.stats is None else self.stats.conflicts

    @property
    def extra(self) -> dict[str, Any]:
        """The engine's other figures (solver status, LP iterations, ...)."""
        return {} if self.stats is None else self.stats.extra

    def as_dict(self) -> dict[str, Any]:
        """One flat record: the run's fields and the engine's figures side by side."""
        record = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "stats"}
        figures = ("solutions", "lower_bound", "branches", "conflicts", "extra")
        return {**record, **{name: getattr(self, name) for name in figures}}


# -- parsing requests --------------------------------------------------------------------------


#: One part of a ``--n`` list: ``8`` or ``4..12``, spaces allowed around the numbers.
_SIZES = re.compile(r"(?P<low>[+-]?[0-9]+)(?:\s*\.\.\s*(?P<high>[+-]?[0-9]+))?")


def parse_range(text: str) -> list[int]:
    """Board sizes from ``"4..12"``, ``"8"`` or ``"4,6,8"`` (ranges inclusive)."""
    sizes: list[int] = []
    for part in text.split(","):
        part = part.strip()
        # ASCII digits only: int() would also read "1_000" and other scripts' digits.
        match = _SIZES.fullmatch(part)
        if match is None:
            raise CompareError(
                f"board sizes: cannot read {part!r} in {text!r} (expected e.g. 4..12 or 4,6,8)"
            )
        try:
            low = int(match["low"])
            high = low if match["high"] is None else int(match["high"])
        except ValueError:  # more digits than int() converts
            raise CompareError(f"board sizes: {part[:20]!r}... has too many digits") from None
        if low < 1:
            raise CompareError(f"board sizes start at 1, got {low} in {text!r}")
        if high > MAX_SIZE:
            raise CompareError(f"board sizes go up to {MAX_SIZE:,}, got {high} in {text!r}")
        if high < low:
            raise CompareError(f"board sizes: empty range {part!r} (the end is below the start)")
        if high - low + 1 + len(sizes) > MAX_POINTS:
            raise CompareError(f"board sizes: {text!r} asks for more than {MAX_POINTS}")
        sizes.extend(range(low, high + 1))
    return sorted(set(sizes))


@dataclass(frozen=True)
class EngineSpec:
    """An engine as named on the command line: ``cpsat`` or ``cpsat:method=plain``.

    ``label`` is the text as given (it names the engine in every output);
    ``options`` go to the engine's constructor in each run.
    """

    label: str
    name: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)

    def build(self, budget: Budget | None = None) -> tuple[engines.Engine, Budget]:
        """The engine with its method options (checked by ``engines.build``), and the
        budget of its calls: the run settings of the spec (``fast:workers=1``), with
        those set in the comparison's ``budget`` (its time limit) on top."""
        engine, own = engines.build(self.name, **self.options)
        if budget is not None:
            chosen = {f.name: getattr(budget, f.name) for f in fields(budget)}
            own = replace(own, **{key: value for key, value in chosen.items() if value is not None})
        return engine, own


def parse_engine_spec(text: str) -> EngineSpec:
    """``name`` or ``name:key=value[:key=value...]``; values read as int, float, bool or text.

    Examples:
        >>> parse_engine_spec("pyconstraint:solver=optimized:forwardcheck=false").options
        {'solver': 'optimized', 'forwardcheck': False}
    """
    try:
        name, options = engines.parse_spec(text)
    except CpQueensError as error:
        raise CompareError(str(error)) from None
    if "time_limit" in options:
        raise CompareError(f"{text.strip()}: the time limit is set for the whole comparison")
    spec = EngineSpec(text.strip(), name, options)
    try:
        spec.build()  # engines.get checks the options, the engine their values: now, once
    except CpQueensError as error:
        raise CompareError(f"{text.strip()}: {error}") from None
    return spec


def parse_engines(text: str) -> list[EngineSpec]:
    """Engines from ``"reference,cpsat:method=plain"``; an unknown name lists the known ones."""
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts:
        raise CompareError("no engine named (e.g. reference,cpsat)")
    specs = {spec.label: spec for spec in map(parse_engine_spec, parts)}
    return list(specs.values())


def check_task(task: str) -> str:
    if task not in TASKS:
        raise CompareError(f"unknown task '{task}' (choose from {', '.join(TASKS)})")
    return task


# -- running ---------------------------------------------------------------------------------


def compare(
    engine_specs: Sequence[str | EngineSpec],
    sizes: Sequence[int],
    task: str,
    *,
    time_limit: float | None = 10.0,
    grace: float = 2.0,
    skip_after_timeout: bool = True,
    on_run: Callable[[Run], None] | None = None,
    budget: Budget | None = None,
) -> list[Run]:
    """Run every engine on every size, smallest n first, each in its own process.

    Every run gets the same ``budget`` (by default ``Budget.of(time_limit=time_limit)``):
    each engine stops itself at its time limit, and a run that overruns it by
    ``grace`` seconds is killed (its process cannot be trusted to stop).

    Once an engine times out, its larger sizes are recorded as ``skipped``
    (they could only take longer) unless ``skip_after_timeout`` is false.
    ``on_run`` is called after each run, e.g. to show progress.
    """
    check_task(task)
    budget = _budget(budget, time_limit)
    if not hasattr(os, "fork"):
        raise CompareError("compare runs each engine in a forked process: needs Linux or macOS")
    engines.names()  # import every engine before forking, so each child starts alike
    runs: list[Run] = []
    for spec in map(_spec, engine_specs):
        timed_out_at: int | None = None
        for n in sizes:
            if timed_out_at is not None and skip_after_timeout:
                run = Run(spec.label, n, task, SKIPPED, message=f"timed out at n={timed_out_at}")
            else:
                run = run_one(spec, n, task, budget=budget, grace=grace)
                if run.status == TIMEOUT:
                    timed_out_at = n
            runs.append(run)
            if on_run is not None:
                on_run(run)
    mark_agreement(runs)
    return runs


def _spec(engine: str | EngineSpec) -> EngineSpec:
    return engine if isinstance(engine, EngineSpec) else parse_engine_spec(engine)


def unsupported_reason(engine: str | EngineSpec, n: int, task: str) -> str | None:
    """Why the engine cannot do ``task`` at size ``n`` (as it declares), or ``None``.

    Asked of an instance: options can take abilities away (min-conflicts cannot count).
    """
    instance, _ = _spec(engine).build()
    if task == "count" and not instance.able_to("count"):
        return "cannot count"
    if task == "enumerate" and not instance.able_to("enumerate"):
        return "cannot enumerate"
    if instance.max_n is not None and n > instance.max_n:
        return f"handles n <= {instance.max_n} only"
    return None


def _budget(budget: object, time_limit: float | None) -> Budget:
    """The comparison's one budget; a limit is needed, for each run is killed after it."""
    budget = check_budget(budget) or Budget.of(time_limit=time_limit)
    if budget.time_limit is None:
        raise CompareError("compare needs a time limit: each run is killed once it overruns it")
    return budget


def run_one(
    engine: str | EngineSpec,
    n: int,
    task: str,
    *,
    time_limit: float | None = None,
    grace: float = 2.0,
    budget: Budget | None = None,
) -> Run:
    """One run in a forked child, with ``budget`` (or ``Budget.of(time_limit=...)``);
    killed if it overruns its time limit by ``grace`` seconds."""
    budget = _budget(budget, time_limit)
    spec = _spec(engine)
    name = spec.label
    reason = unsupported_reason(spec, n, task)
    if reason is not None:
        return Run(name, n, task, UNSUPPORTED, message=reason)
    sys.stdout.flush()
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    clock = budget.clock()  # the child's limit, on the same clock as the child's own
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: run, send the result, and leave without cleanup
        os.close(read_end)
        code = 0
        try:
            from cp_queens.parallel import die_with_parent

            die_with_parent(parent)  # a run never outlives compare, kill -9 included
            result = _child_run(spec, n, task, budget)
            with os.fdopen(write_end, "w") as out:
                json.dump(result, out, default=str)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(write_end)
    try:
        payload, killed = _read_until(read_end, clock.extended(grace))
        if killed:
            os.kill(pid, signal.SIGKILL)
    except BaseException:  # Ctrl-C in the parent: take the child down too
        os.kill(pid, signal.SIGKILL)
        os.wait4(pid, 0)
        raise
    finally:
        os.close(read_end)
    _, wait_status, usage = os.wait4(pid, 0)
    elapsed = clock.elapsed()
    peak = _megabytes(usage.ru_maxrss)
    if killed:
        return Run(
            name,
            n,
            task,
            TIMEOUT,
            wall_time=round(elapsed, 6),
            peak_rss_mb=peak,
            message=f"killed after {elapsed:.1f}s",
        )
    try:
        result = json.loads(payload)
    except ValueError:
        return Run(
            name,
            n,
            task,
            ERROR,
            wall_time=round(elapsed, 6),
            peak_rss_mb=peak,
            message=f"the run's process ended without a result ({_describe(wait_status)})",
        )
    if result.get("stats") is not None:
        result["stats"] = Stats(**result["stats"])
    return Run(peak_rss_mb=peak, **result)


def _child_run(spec: EngineSpec, n: int, task: str, budget: Budget) -> dict[str, Any]:
    """Inside the child: do the task and describe the outcome as a Run's fields."""
    baseline = _megabytes(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    known: dict[str, Any] = {
        "engine": spec.label,
        "n": n,
        "task": task,
        "baseline_rss_mb": baseline,
    }
    try:
        engine, budget = spec.build(budget)
        known["family"] = family_of(engine)
        problem = Problem(n)
        started = time.perf_counter()
        result = answer(ANSWER_TASKS[task], problem, engine, budget=budget)
        finished = result.complete
        found = result.found  # a partial figure, kept as such: only in ``lower_bound``
        solutions = int(found is not None) if task == "first" else int(found or 0)
        known["wall_time"] = round(time.perf_counter() - started, 6)
    except UnsupportedTaskError as error:
        return {**known, "status": UNSUPPORTED, "message": str(error)}
    except Exception as error:
        return {**known, "status": ERROR, "message": f"{type(error).__name__}: {error}"}
    stats = engine.stats.as_dict()
    stats["solutions"] = solutions  # what the task gave: first is 0 or 1, whatever was streamed
    return {
        **known,
        "status": OK if finished else TIMEOUT,
        "message": "" if finished else "stopped at its time limit",
        "stats": stats,
    }


def _read_until(fd: int, clock: Clock) -> tuple[bytes, bool]:
    """Everything the child writes, or ``killed=True`` once ``clock`` runs out."""
    chunks: list[bytes] = []
    while True:
        remaining = clock.remaining()
        assert remaining is not None  # a compare always has a time limit
        if remaining <= 0:
            return b"".join(chunks), True
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks), False
            chunks.append(chunk)


def _megabytes(maxrss: int) -> float:
    """``ru_maxrss`` in MiB: Linux reports KiB, macOS bytes."""
    divisor = 1 << 20 if sys.platform == "darwin" else 1 << 10
    return round(maxrss / divisor, 1)


def _describe(wait_status: int) -> str:
    if os.WIFSIGNALED(wait_status):
        return f"killed by signal {os.WTERMSIG(wait_status)}"
    return f"exit code {os.WEXITSTATUS(wait_status)}"


def mark_agreement(runs: Sequence[Run]) -> None:
    """Set ``agrees`` on finished runs: did every finished run at this n find as many solutions?"""
    by_size: dict[int, list[Run]] = {}
    for run in runs:
        if run.status == OK and run.solutions is not None:
            by_size.setdefault(run.n, []).append(run)
    for group in by_size.values():
        if len(group) > 1:
            same = len({run.solutions for run in group}) == 1
            for run in group:
                run.agrees = same


def as_answer(runs: Sequence[Run], settings: dict[str, Any]) -> Answer:
    """The comparison as one ``Answer``: its value the runs (as flat records), the outcome
    ``disagree`` when two finished runs at one n found different numbers of solutions.

    A comparison whose runs hit their time limit is still complete: each such run is
    a measurement (``status`` ``timeout``, its figure in ``lower_bound``).
    """
    disagree = any(run.agrees is False for run in runs)
    return Answer(
        "compare",
        None,
        [run.as_dict() for run in runs],
        outcome=DISAGREE if disagree else ANSWER,
        details={"settings": settings},
    )


def machine() -> dict[str, Any]:
    """Where and with what the numbers were measured."""
    import platform  # here, not at the top: every ``cp-queens`` command imports this module
    from importlib import metadata

    versions = {}
    for package in ("ortools", "python-constraint2", "numpy"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            continue
    return {
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "versions": versions,
    }
