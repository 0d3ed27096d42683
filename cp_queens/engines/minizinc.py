"""``minizinc``: the card's model as a MiniZinc file, on any solver MiniZinc has.

The models ship in the package (``cp_queens/models/``), each readable alone:

* ``queens.mzn`` (``model="plain"``, the default): the card's model, three
  ``alldifferent`` over ``q``, ``q + r`` and ``q - r``, ``solve satisfy``;
* ``queens_first_fail.mzn`` (``model="first-fail"``): the same with the search
  annotation a course adds, ``int_search(q, first_fail, indomain_median)``;
* ``queens_symmetry.mzn`` (``model="symmetry"``): lexicographic symmetry
  breaking over the 8 symmetries of the square: one solution per class.

Given queens and blocked squares shrink the model as everywhere else: the data
hold only the free rows, each with its open columns.

How it runs: ``minizinc --all-solutions --json-stream`` as a child process
whose output is read line by line as the solver prints it, so ``solutions()``
is a true generator at flat memory, with no thread. Closing the stream (or the
time limit) kills the process. We do not go through the ``minizinc`` Python
package: its ``Instance.solutions()`` is an ``async`` iterator, and driving it
from a plain generator needs an event loop of our own, which collides with the
loop a notebook already runs; the JSON stream is the same protocol it parses.

The solver's own figures come from ``--statistics``: ``nodes`` as branches,
``failures`` as conflicts, ``propagations`` and the flattening time in
``extra``.
"""

from __future__ import annotations

import collections
import functools
import json
import os
import selectors
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Iterator
from importlib import resources
from typing import Any, ClassVar

from cp_queens.budget import Clock
from cp_queens.engines import register
from cp_queens.engines._child import GRACE, kill_group, run_briefly, spawn
from cp_queens.engines._reported import Reported
from cp_queens.engines.base import Call, Engine
from cp_queens.errors import (
    CpQueensError,
    CpQueensWarning,
    SolverFailedError,
    UnsupportedTaskError,
)
from cp_queens.problem import Placement, Problem, Residue

#: The model variants, by option value, and their files in cp_queens/models.
MODELS = {
    "plain": "queens.mzn",
    "first-fail": "queens_first_fail.mzn",
    "symmetry": "queens_symmetry.mzn",
}
INSTALL = (
    "engine 'minizinc' needs the MiniZinc executable on PATH: 'apt-get install minizinc' "
    "(Debian/Ubuntu, brings Gecode) or the bundle from https://www.minizinc.org"
)
#: Families of the solvers MiniZinc commonly drives (by solver id tag).
FAMILIES = {
    "gecode": "CP with propagation",
    "chuffed": "lazy clause generation",
    "cp-sat": "lazy clause generation",
    "coin-bc": "MIP",
    "cbc": "MIP",
    "highs": "MIP",
    "scip": "MIP",
}


def model_path(model: str = "plain") -> str:
    """The file of a model variant, as shipped in the package."""
    return str(resources.files("cp_queens") / "models" / MODELS[model])


def executable() -> str:
    """The ``minizinc`` executable, or a one-line error saying how to install it."""
    found = shutil.which("minizinc")
    if found is None:
        raise CpQueensError(INSTALL)
    return found


#: Lines of minizinc's output outside its JSON protocol kept for an error message.
SAID_KEPT = 20
#: The longest line read from minizinc: a solution of n = 100,000 is some 600 kB.
MAX_LINE_BYTES = 1 << 24

#: Seconds ``minizinc --solvers-json`` may take (it answers in a tenth of a second).
SOLVERS_JSON_SECONDS = 5.0


def installed_solvers() -> list[str]:
    """Ids and tags of the solvers this MiniZinc knows (``gecode``, ``org.gecode.gecode``).

    Asked once per executable (its path and modification time) in a process: each
    ``minizinc --solvers-json`` costs about 0.03 s of CPU, and every engine made asks.

    Raises:
        SolverFailedError: ``minizinc`` did not answer within ``SOLVERS_JSON_SECONDS``
            (it is killed, with whatever it started). A failure is not remembered.
    """
    path = executable()
    try:
        changed = os.stat(path).st_mtime_ns
    except OSError:
        changed = 0
    return list(_solvers_of(path, changed))


@functools.lru_cache(maxsize=16)
def _solvers_of(path: str, changed: int) -> tuple[str, ...]:
    """The answer of ``installed_solvers`` for the executable at ``path`` as it was at
    ``changed`` (a new file there is asked again)."""
    out = run_briefly(
        [path, "--solvers-json"],
        seconds=SOLVERS_JSON_SECONDS,
        what="minizinc --solvers-json",
    )
    try:
        configs = json.loads(out)
    except json.JSONDecodeError:
        return ()
    names: list[str] = []
    for config in configs if isinstance(configs, list) else []:
        if not isinstance(config, dict):
            continue
        ident = str(config.get("id", ""))
        names += [ident, ident.rsplit(".", 1)[-1], *map(str, config.get("tags", []))]
    return tuple(names)


def data(residue: Residue) -> dict[str, Any]:
    """The model's data: the free rows and each one's open columns as intervals."""
    return {
        "n": residue.n,
        "m": len(residue.rows),
        "row": list(residue.rows),
        "open": [{"set": _intervals(residue.open_columns(i))} for i in range(len(residue.rows))],
    }


def _intervals(columns: tuple[int, ...]) -> list[list[int]]:
    runs: list[list[int]] = []
    for col in columns:
        if runs and runs[-1][1] == col - 1:
            runs[-1][1] = col
        else:
            runs.append([col, col])
    return runs


@register
class MiniZincEngine(Engine):
    """The card's model in MiniZinc, on ``solver`` (any MiniZinc knows; default Gecode).

    Examples:
        >>> engine = MiniZincEngine()
        >>> engine.count(Problem(6)).value, engine.family
        (4, 'CP with propagation')
    """

    name = "minizinc"
    description = "the card's model as a MiniZinc file (cp_queens/models) on any MiniZinc solver"
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {"model": tuple(MODELS)}
    #: Costs for the checks before work (see cp_queens.limits).
    bytes_per_square = 300
    seconds_per_solution = 1e-4

    def __init__(self, *, solver: str = "gecode", model: str = "plain") -> None:
        super().__init__()
        if model not in MODELS:
            raise CpQueensError(
                f"minizinc: unknown model '{model}' (choose from {', '.join(MODELS)})"
            )
        known = installed_solvers()
        if solver not in known:
            shown = sorted({k for k in known if "." not in k and k.isidentifier()})
            raise CpQueensError(
                f"minizinc: solver '{solver}' is not installed in this MiniZinc "
                f"(installed: {', '.join(shown) or 'none'})"
            )
        self.solver = solver
        self.model = model
        self.family = FAMILIES.get(solver.lower(), "")

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        return self._run(problem, call, all_solutions=True)

    def _first(self, problem: Problem, call: Call) -> Placement | None:
        # One solution, then MiniZinc's status and statistics: read them all.
        found = list(self._run(problem, call, all_solutions=False))
        return found[0] if found else None

    def _run(self, problem: Problem, call: Call, *, all_solutions: bool) -> Iterator[Placement]:
        """Run MiniZinc and yield each solution as it prints it; kill it when we stop."""
        if self.model == "symmetry" and not problem.is_empty_board:
            raise UnsupportedTaskError(
                "minizinc: model 'symmetry' breaks the symmetries of an empty board; "
                "given queens or blocked squares break them already"
            )
        residue = problem.residue()
        stats = call.stats
        stats.extra.update(solver=self.solver, model=self.model, family=self.family)
        if call.expired():
            call.stop_for_time()
            return
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(data(residue), handle)
        command = [
            executable(),
            "--solver",
            self.solver,
            "--json-stream",
            "--statistics",
            "--output-mode",
            "json",
        ]
        if all_solutions:
            command.append("--all-solutions")
        remaining = call.remaining()
        if remaining is not None:
            command += ["--time-limit", str(max(1, int(remaining * 1000)))]
        command += [model_path(self.model), handle.name]
        process = spawn(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        status = None
        found = 0
        errors: list[str] = []
        # What it printed that is not the protocol: only a tail, for the error message (a
        # minizinc flooding stdout grew this process to 4 GB in 20 s when all was kept).
        said: collections.deque[str] = collections.deque(maxlen=SAID_KEPT)
        checker = Reported(problem, f"minizinc ({self.solver})")
        try:
            assert process.stdout is not None
            enforcer = call.clock.extended(GRACE)  # minizinc stops itself at the limit
            for line in _lines(process.stdout, enforcer):
                message = _message(line)
                if message is None:
                    if line.strip():
                        said.append(line.strip()[:300])
                    continue
                kind = message.get("type")
                if kind == "solution":
                    placement = checker.residue_row(_columns(message))
                    found += 1
                    yield placement
                elif kind == "status":
                    status = message.get("status")
                elif kind == "statistics":
                    _record(stats, message.get("statistics", {}))
                elif kind == "error":
                    errors.append(str(message.get("message", message)).splitlines()[0])
            code = _exit_code(process, enforcer)
        finally:
            kill_group(process)  # minizinc and the solver it started (fzn-gecode)
            if process.stdout is not None:
                process.stdout.close()
            os.unlink(handle.name)
        if errors:
            raise CpQueensError(f"minizinc ({self.solver}): {errors[0]}")
        if code is None:  # still running at our deadline plus the grace: killed
            stats.extra["solver_status"] = "KILLED"
            warnings.warn(
                f"minizinc ({self.solver}) did not stop at its own time limit; killed it",
                CpQueensWarning,
                stacklevel=2,
            )
            call.stop_for_time()
            return
        # Asked for one solution of a satisfaction problem, MiniZinc prints it and no status.
        stats.extra["solver_status"] = status or ("SATISFIED" if found else "UNKNOWN")
        if status is None and not found and not _stopped_by_its_limit(call):
            # Neither an answer nor a word of the protocol: the solver failed.
            last = f": {said[-1]}" if said else ""
            raise SolverFailedError(
                f"minizinc ({self.solver}) ended without an answer (exit {code}){last}"
            )
        proven = {"ALL_SOLUTIONS", "UNSATISFIABLE"}
        if not all_solutions and found:
            return  # the one solution asked for (a satisfaction problem prints no status)
        if status not in proven:
            call.stop_for_time()


def _exit_code(process: subprocess.Popen[bytes], enforcer: Clock) -> int | None:
    """The solver's exit code once its output ended, or ``None``: ``enforcer`` (our limit
    plus the grace) ran out first (it is then killed, like one that closes its output
    and hangs)."""
    if enforcer.expired():
        return None
    left = enforcer.remaining()
    try:
        return process.wait(GRACE if left is None else left + 0.01)
    except subprocess.TimeoutExpired:
        return None


def _stopped_by_its_limit(call: Call) -> bool:
    """Whether our limit has (all but) passed: minizinc's own --time-limit then ends it
    quietly, without a status line."""
    left = call.clock.remaining()
    return left is not None and left < 0.05


def _lines(stream: Any, enforcer: Clock) -> Iterator[str]:
    """The lines of a child's output as they come, until it closes it or ``enforcer``
    (our limit plus ``GRACE``) runs out (a solver that hangs, or ignores its own
    --time-limit)."""
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    descriptor = stream.fileno()
    pending = b""
    try:
        while True:
            if enforcer.expired():
                return
            timeout = enforcer.remaining()
            if not selector.select(timeout):
                continue
            chunk = os.read(descriptor, 1 << 16)
            if not chunk:
                if pending:
                    yield pending.decode("utf-8", "replace")
                return
            pending += chunk
            *whole, pending = pending.split(b"\n")
            for line in whole:
                yield line.decode("utf-8", "replace")
            if len(pending) > MAX_LINE_BYTES:  # a line without end: not the protocol
                raise SolverFailedError(
                    f"minizinc printed a line longer than {MAX_LINE_BYTES:,} bytes "
                    f"({pending[:60].decode('utf-8', 'replace')!r}...); no answer of ours is"
                )
    finally:
        selector.close()


def _columns(message: dict[str, Any]) -> Any:
    """The columns a solution message carries (``output.json.q``), or ``None``: the
    checker names what came instead."""
    output = message.get("output")
    board = output.get("json") if isinstance(output, dict) else None
    return board.get("q") if isinstance(board, dict) else None


def _message(line: str) -> dict[str, Any] | None:
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        message = json.loads(line)
    except json.JSONDecodeError:
        return None
    return message if isinstance(message, dict) else None


def _record(stats: Any, figures: dict[str, Any]) -> None:
    """MiniZinc's ``--statistics`` (Gecode: nodes, failures, propagations, peakDepth)."""
    if "nodes" in figures:
        stats.branches = int(figures["nodes"])
    if "failures" in figures:
        stats.conflicts = int(figures["failures"])
    for key in ("propagations", "flatTime", "solveTime", "peakDepth"):
        if key in figures:
            stats.extra[key] = figures[key]
