"""One ``compare`` run in a fresh interpreter: its start-up timed apart from its solve.

``run_one`` starts ``python -c LAUNCH FD SPAWNED JOB`` for every run
(``cp_queens.compare.process.LAUNCH``). A fresh
interpreter, not a fork of ``compare``, so that a run starts with nothing loaded:
what it pays to start (the interpreter, ``cp_queens``, the engine's own libraries such
as OR-Tools) is the same whichever engines ran before it or beside it. Forked, a run
inherited whatever the parent had imported: ``cpsat`` paid OR-Tools' import (half a
second) when it ran beside ``reference`` and nothing beside ``cpsat-board``, and the
table billed it as solving.

The run reports on file descriptor ``FD``, one JSON line at each step:

* ``{"ready": ...}`` once the engine is built and its libraries loaded: the start-up,
  in three parts on the system's monotonic clock (which parent and child share):
  ``python`` (from the parent's spawn to the child's first line), ``cp_queens``
  (the package and this harness) and ``engine`` (building the engine, importing its
  solver: ``Engine.prepare``); the parent starts the run's time limit from here;
* then the run's fields (``Run``): status, the task's wall time, the statistics.

``JOB`` is a JSON object: the engine spec (label, name, options, and the module of its
class, imported first so that an engine registered by a test or a script is known),
``n``, the task and the run settings.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from typing import Any


def main(started: float) -> None:
    """The child: start, report ready, run, report, and leave without cleanup."""
    fd, spawned, job = int(sys.argv[1]), float(sys.argv[2]), json.loads(sys.argv[3])
    code = 0
    try:
        out = os.fdopen(fd, "w")
        from cp_queens.parallel import die_with_parent

        die_with_parent(job["parent"])  # a run never outlives compare, kill -9 included
        result = _run(job, started, spawned, out)
        out.write(json.dumps(result, default=str) + "\n")
        out.write(json.dumps({"peak_rss_mb": _peak()}) + "\n")
        out.flush()
    except BaseException:
        code = 1
    finally:
        os._exit(code)  # no atexit, no waiting for threads: the run is over


def _run(job: dict[str, Any], started: float, spawned: float, out: Any) -> dict[str, Any]:
    """Build the engine, say it is ready, do the task; the outcome as a ``Run``'s fields."""
    import resource

    from cp_queens.budget import Budget
    from cp_queens.compare import (
        ANSWER_TASKS,
        ERROR,
        OK,
        TIMEOUT,
        UNSUPPORTED,
        EngineSpec,
        family_of,
    )
    from cp_queens.compare.process import megabytes, peak_megabytes
    from cp_queens.errors import UnsupportedTaskError
    from cp_queens.problem import Problem

    imported = time.monotonic()
    baseline = peak_megabytes()
    if baseline is None:
        baseline = megabytes(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    spec_fields = job["spec"]
    task, n = job["task"], job["n"]
    known: dict[str, Any] = {
        "engine": spec_fields["label"],
        "n": n,
        "task": task,
        "baseline_rss_mb": baseline,
    }
    try:
        _import_defining_module(spec_fields)
        spec = EngineSpec(spec_fields["label"], spec_fields["name"], spec_fields["options"])
        engine, budget = spec.build(Budget.of(**job["budget"]))
        engine.prepare()
        # Loading a solver leaves garbage behind (OR-Tools: tens of thousands of objects),
        # and the first collection it triggers, some 10-30 ms, fell in the first model
        # built: start-up's, not the model's.
        gc.collect()
        known["family"] = family_of(engine)
        _time_solver_phases()
    except Exception as error:
        return {**known, "status": ERROR, "message": f"{type(error).__name__}: {error}"}
    ready = time.monotonic()
    startup = {
        "python": round(started - spawned, 6),
        "cp_queens": round(imported - started, 6),
        "engine": round(ready - imported, 6),
    }
    known["startup_time"] = round(ready - spawned, 6)
    known["startup"] = startup
    out.write(json.dumps({"ready": startup}) + "\n")
    out.flush()
    from cp_queens.engines.ask import ask

    try:
        begun = time.perf_counter()
        result = ask(ANSWER_TASKS[task], Problem(n), engine, budget=budget)
        known["wall_time"] = round(time.perf_counter() - begun, 6)
        found = result.found  # a partial figure, kept as such: only in ``lower_bound``
        solutions = int(found is not None) if task == "first" else int(found or 0)
    except UnsupportedTaskError as error:
        return {**known, "status": UNSUPPORTED, "message": str(error)}
    except Exception as error:
        return {**known, "status": ERROR, "message": f"{type(error).__name__}: {error}"}
    stats = {} if result.stats is None else result.stats.as_dict()  # the call's own
    stats["solutions"] = solutions  # what the task gave: first is 0 or 1, whatever was streamed
    # Starting worker processes is start-up, not solving: apart from the solve time.
    pool_start = stats.get("pool_start")
    if pool_start is not None:
        known["pool_start"] = round(pool_start, 6)
        known["wall_time"] = round(max(0.0, known["wall_time"] - pool_start), 6)
    method = (stats.get("extra") or {}).get("method")
    return {
        **known,
        "method": "" if method is None else str(method),
        "status": OK if result.complete else TIMEOUT,
        "message": "" if result.complete else "stopped at its time limit",
        "stats": stats,
    }


def _peak() -> float | None:
    """Peak resident memory of this run in MiB: its own, or that of the largest worker
    process it waited for (a count on every core), whichever is larger."""
    import resource

    from cp_queens.compare.process import megabytes, peak_megabytes

    own = peak_megabytes()
    if own is None:  # no /proc (macOS): ru_maxrss, which exec does not reset there
        return megabytes(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return max(own, megabytes(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))


def _import_defining_module(spec: dict[str, Any]) -> None:
    """Import the module that defines the engine's class (and registers it), when it is not
    one of the package's: an engine a test or a script registered is known here too."""
    module = spec.get("module")
    if not module or module.startswith("cp_queens."):
        return
    import cp_queens.engines as engines

    if module == "__main__":  # a script: loaded by path, as multiprocessing's spawn does
        import runpy

        namespace = runpy.run_path(spec["path"], run_name="__mp_main__")
        cls = namespace.get(spec["qualname"])
    else:
        import importlib

        cls = getattr(importlib.import_module(module), spec["qualname"], None)
    if cls is not None and spec["name"] not in engines._REGISTRY:
        engines.register(cls)


def _time_solver_phases() -> None:
    """For an engine on CP-SAT (its runner loaded by ``prepare``): time presolve and
    search apart, from CP-SAT's own log (see ``runner.TIME_PHASES``)."""
    runner = sys.modules.get("cp_queens.engines._cpsat.runner")
    if runner is not None:
        runner.TIME_PHASES = True  # type: ignore[attr-defined]
