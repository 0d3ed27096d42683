"""Where a ``fast`` count runs: on how many workers, and on which executor.

Both ways the engine counts an empty board (subproblems of the DFS kernels, pieces of
the meet in the middle) place their work the same way, from the call's budget; the
choice lives here, below both, so that neither has to reach back into the engine.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

import cp_queens.engines.fast.subproblems as split_module
from cp_queens.engines.base import Call
from cp_queens.problem import Problem

if TYPE_CHECKING:
    from concurrent.futures import Executor

#: Without ``workers``, counts from this n use every core. Below it one core wins:
#: benchmarks/count.py measured n = 15 at 0.33 s on one core, 0.37 s on two.
PARALLEL_FROM = 16


def workers(problem: Problem, call: Call) -> int | None:
    """The workers a count asks for: the budget's, else one for a small count (it is
    over before a pool has started), else ``None`` (every core)."""
    budget = call.budget
    if budget.workers is not None:
        return budget.workers
    small = problem.n < PARALLEL_FROM and budget.checkpoint is None
    return 1 if small else None


def executor(
    stack: contextlib.ExitStack, call: Call, n: int, force_python: bool
) -> tuple[Executor | None, str | None, Callable[[], int] | None]:
    """Where the work goes, its name, and how many workers it has now (Dask); a cluster
    started here is closed with ``stack``."""
    where = call.budget.where
    if where is None:
        return None, None, None
    if not isinstance(where, str):
        return where, "an executor", None
    from cp_queens.parallel.dask import dask_cluster

    local = where == "local" or where.startswith("local:")
    if local:
        # The local cluster's workers are forked from this process: load the
        # kernels once here, and every worker starts with them.
        split_module.warm_up(force_python, n)
    cluster = stack.enter_context(
        dask_cluster(
            scheduler=None if local else where,
            cluster=where if local else None,
            clock=call.clock,
        )
    )
    return cluster.executor, cluster.description, cluster.workers
