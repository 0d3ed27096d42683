"""Run engines side by side: one fresh process per run, a time limit, and peak memory.

``compare`` runs every chosen engine on every ``n`` for one task
(``first``, ``count`` or ``enumerate``) and returns one ``Run`` per pair.
Each run happens in a fresh Python process of its own (``cp_queens.compare.child``),
for four reasons:

* **what it measures is what it names** - the run's start-up (the interpreter,
  ``cp_queens``, the engine's own libraries such as OR-Tools) is timed apart from the
  task (``startup_time``, in three parts in ``startup``), and the task's time
  (``wall_time``: building the model, then the search) starts once the engine is
  ready. Every run starts with nothing loaded, so no figure depends on which other
  engines are in the comparison;
* **a fair clock and a hard time limit** - the engine gets the time limit
  itself (so it can stop cleanly and still report its search figures), and a
  child that overruns it by the grace period is killed, whatever it is doing
  (a MIP solve, a C++ search, a Python loop);
* **peak memory per run** - the run's process reports its own peak resident memory
  (``VmHWM``, and the largest of the worker processes it waited for), and the parent
  reads it of a run it has to kill just before the kill; what the fresh interpreter
  held with ``cp_queens`` loaded, before the engine, is ``baseline_rss_mb``;
* **isolation** - a crash or a leak in one engine cannot spoil the next run.

What the engine reports of its own time is in its ``Stats``: ``model_time`` (seconds
of the task spent building the model) and, for the engines on CP-SAT, ``presolve_time``
and ``search_time`` among its other figures (from CP-SAT's log, read as it is written).

An engine that starts worker processes of its own (``cpsat``'s default
``method="fast"`` for n >= 10) is measured with them: the wall time includes
their work, and the peak memory is then that of the largest single process among
the run and the workers it waited for, not their sum. Engines are named as on the
command line, optionally with constructor options: ``cpsat:method=plain``,
``pyconstraint:solver=min-conflicts`` (see ``parse_engine_spec``). An engine
registered outside the package is known in the run's process when its class can be
imported there (from its module, or from the script that defines it, which then
needs an ``if __name__ == "__main__":`` guard, as with ``multiprocessing``).

Needs a POSIX system (Linux, macOS). Tables, CSV, JSON and the plot
are in ``cp_queens.compare.report``.

Examples:
    >>> parse_range("4..7")
    [4, 5, 6, 7]
    >>> parse_range("8,10,12")
    [8, 10, 12]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import cp_queens.compare.process as process
import cp_queens.engines as engines
from cp_queens.answer import ANSWER, DISAGREE, Answer
from cp_queens.budget import Budget, Clock, check_budget
from cp_queens.compare.runs import ERROR as ERROR
from cp_queens.compare.runs import OK as OK
from cp_queens.compare.runs import REPEAT, REPEAT_UNDER
from cp_queens.compare.runs import SKIPPED as SKIPPED
from cp_queens.compare.runs import TIMEOUT as TIMEOUT
from cp_queens.compare.runs import UNSUPPORTED as UNSUPPORTED
from cp_queens.compare.runs import CompareInterrupted as CompareInterrupted
from cp_queens.compare.runs import Run as Run
from cp_queens.compare.runs import median_run as median_run
from cp_queens.errors import CpQueensError
from cp_queens.sizes import UnreadableSize, ranges
from cp_queens.stats import STOPPED, Stats

TASKS = engines.TASKS

#: The ``Answer`` task of each ``compare`` task.
ANSWER_TASKS = {"first": "first", "count": "count", "enumerate": "solutions"}


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
    "template": "backtracking",
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


# -- parsing requests --------------------------------------------------------------------------


def parse_range(text: str) -> list[int]:
    """Board sizes from ``"4..12"``, ``"8"`` or ``"4,6,8"`` (ranges inclusive)."""
    sizes: list[int] = []
    try:
        parts = ranges(text)  # the one grammar of every --n (cp_queens.sizes)
    except UnreadableSize as error:
        raise CompareError(
            f"board sizes: cannot read {error.args[0]!r} in {text!r} (expected e.g. 4..12 or 4,6,8)"
        ) from None
    for part, low, high in parts:
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
    repeat: int | None = 1,
) -> list[Run]:
    """Run every engine on every size, smallest n first, each in its own process.

    Every run gets the same ``budget`` (by default ``Budget.of(time_limit=time_limit)``):
    each engine stops itself at its time limit, and a run that overruns it by
    ``grace`` seconds is killed (its process cannot be trusted to stop).

    Each cell (engine, n) that finishes runs ``repeat`` times in all, each in a fresh
    process; its ``Run`` shows the median solve time and the spread (``wall_times``).
    ``repeat=None``: ``REPEAT`` times for cells quicker than ``REPEAT_UNDER`` seconds,
    once for longer ones. A run that timed out is not repeated: it is at the limit.

    Once an engine times out, its larger sizes are recorded as ``skipped``
    (they could only take longer) unless ``skip_after_timeout`` is false.
    ``on_run`` is called after each cell, e.g. to show progress.

    Raises:
        CompareInterrupted: on Ctrl-C, with the cells that finished.
    """
    check_task(task)
    budget = _budget(budget, time_limit)
    if repeat is not None and (isinstance(repeat, bool) or not isinstance(repeat, int)):
        raise CompareError(f"repeat must be a whole number >= 1, got {repeat!r}")
    if repeat is not None and repeat < 1:
        raise CompareError(f"repeat must be a whole number >= 1, got {repeat}")
    if os.name != "posix":
        raise CompareError("compare runs each engine in a process of its own: needs Linux or macOS")
    specs = list(map(_spec, engine_specs))
    runs: list[Run] = []
    try:
        for spec in specs:
            timed_out_at: int | None = None
            for n in sizes:
                if timed_out_at is not None and skip_after_timeout:
                    run = Run(
                        spec.label, n, task, SKIPPED, message=f"timed out at n={timed_out_at}"
                    )
                else:
                    run = _cell(spec, n, task, budget, grace, repeat, runs)
                    if run.status == TIMEOUT:
                        timed_out_at = n
                runs.append(run)
                if on_run is not None:
                    on_run(run)
    except KeyboardInterrupt:
        mark_agreement(runs)
        raise CompareInterrupted(runs, len(specs) * len(sizes)) from None
    mark_agreement(runs)
    return runs


def _cell(
    spec: EngineSpec,
    n: int,
    task: str,
    budget: Budget,
    grace: float,
    repeat: int | None,
    finished: list[Run],
) -> Run:
    """One cell, repeated: the median run. Ctrl-C amid the repeats keeps those done (in
    ``finished``, as the cell) before it goes on up."""
    first = run_one(spec, n, task, budget=budget, grace=grace)
    if first.status != OK:
        return first
    if repeat is None:
        cost = (first.wall_time or 0.0) + (first.startup_time or 0.0)
        repeat = REPEAT if cost < REPEAT_UNDER else 1
    done = [first]
    try:
        while len(done) < repeat:
            done.append(run_one(spec, n, task, budget=budget, grace=grace))
    except KeyboardInterrupt:
        finished.append(median_run(done))
        raise
    return median_run(done)


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
    """One run in a fresh process, with ``budget`` (or ``Budget.of(time_limit=...)``);
    killed if it overruns its time limit by ``grace`` seconds, counted from the moment
    the engine is ready (its start-up gets ``STARTUP_ALLOWANCE`` seconds)."""
    budget = _budget(budget, time_limit)
    spec = _spec(engine)
    name = spec.label
    reason = unsupported_reason(spec, n, task)
    if reason is not None:
        family = family_of(spec.build()[0])
        return Run(name, n, task, UNSUPPORTED, family=family, message=reason)
    read_end, write_end = os.pipe()
    starting = Clock.start(process.STARTUP_ALLOWANCE)
    try:
        child = subprocess.Popen(
            process.command(write_end, starting.started, _job(spec, n, task, budget)),
            stdin=subprocess.DEVNULL,
            stdout=sys.stderr.fileno() if process.has_fileno(sys.stderr) else subprocess.DEVNULL,
            pass_fds=(write_end,),
            # A group of its own: a Ctrl-C at the terminal is compare's to handle (it kills
            # the run); reaching a run still starting, it printed the interpreter's
            # traceback ("Fatal Python error: init_import_site") on the user's terminal.
            process_group=0,
        )
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    peak: float | None = None
    try:
        lines, killed, ready = process.read_run(
            read_end, starting, lambda: budget.clock().extended(grace)
        )
        if killed:
            peak = process.peak_megabytes(child.pid)  # the last moment it can be read
            # Not ``child.kill()``: it polls first, and a child that has just ended is then
            # reaped by Popen, and our ``wait4`` below fails ("No child processes").
            os.kill(child.pid, signal.SIGKILL)
    except BaseException:  # Ctrl-C in the parent: take the child down too
        os.kill(child.pid, signal.SIGKILL)  # unreaped, so the pid is still ours
        os.wait4(child.pid, 0)
        child.returncode = -signal.SIGKILL
        raise
    finally:
        os.close(read_end)
    _, wait_status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(wait_status)  # Popen must not wait again
    elapsed = (starting if ready is None else ready).elapsed()
    if peak is None and lines and "peak_rss_mb" in lines[-1]:
        peak = lines.pop(-1)["peak_rss_mb"]  # the run's own report, its workers included
    if peak is None and sys.platform == "darwin":
        peak = process.megabytes(usage.ru_maxrss)
    startup = lines[0]["ready"] if lines and "ready" in lines[0] else {}
    started: dict[str, Any] = {"startup": startup, "startup_time": _total(startup, ready)}
    if killed:
        where = "" if ready is not None else " while starting"
        return Run(
            name,
            n,
            task,
            TIMEOUT,
            wall_time=round(elapsed, 6) if ready is not None else None,
            peak_rss_mb=peak,
            message=f"killed after {elapsed:.1f}s{where}",
            **started,
        )
    result = lines[-1] if lines and "ready" not in lines[-1] else None
    if result is None:
        return Run(
            name,
            n,
            task,
            ERROR,
            peak_rss_mb=peak,
            message=f"the run's process ended without a result ({process.describe(wait_status)})",
            **started,
        )
    if result.get("stats") is not None:
        result["stats"] = Stats(**result["stats"])
    return Run(peak_rss_mb=peak, **result)


def _job(spec: EngineSpec, n: int, task: str, budget: Budget) -> dict[str, Any]:
    """What the run's process is told: the engine (and where its class is defined), the
    size, the task, the run settings that travel as text (the time limit, workers)."""
    cls = engines.engine_class(spec.name)
    module = sys.modules.get(cls.__module__)
    return {
        "spec": {
            "label": spec.label,
            "name": spec.name,
            "options": spec.options,
            "module": cls.__module__,
            "qualname": cls.__qualname__,
            "path": getattr(module, "__file__", None),
        },
        "n": n,
        "task": task,
        "budget": {
            key: getattr(budget, key)
            for key in ("time_limit", "workers")
            if getattr(budget, key) is not None
        },
        "parent": os.getpid(),
    }


def _total(startup: dict[str, float], ready: Clock | None) -> float | None:
    """The whole start-up of a run that got ready (``None``: it never did)."""
    return None if ready is None else round(sum(startup.values()), 6)


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


def as_answer(runs: Sequence[Run], settings: dict[str, Any], *, complete: bool = True) -> Answer:
    """The comparison as one ``Answer``: its value the runs (as flat records), the outcome
    ``disagree`` when two finished runs at one n found different numbers of solutions.

    A comparison whose runs hit their time limit is still complete: each such run is
    a measurement (``status`` ``timeout``, its figure in ``lower_bound``). One that
    Ctrl-C stopped (``complete=False``) keeps its finished runs as ``partial``, the
    reason ``stopped``.
    """
    records = [run.as_dict() for run in runs]
    if not complete:
        details = {"settings": settings}
        return Answer(
            "compare", None, complete=False, partial=records, reason=STOPPED, details=details
        )
    disagree = any(run.agrees is False for run in runs)
    return Answer(
        "compare",
        None,
        records,
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
