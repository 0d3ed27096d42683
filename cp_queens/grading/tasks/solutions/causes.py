"""Causes a submission's source shows: CP-SAT asked to enumerate every solution on several
workers, which OR-Tools does not support.

A CP-SAT model with ``num_workers = 8`` and ``enumerate_all_solutions`` (OR-Tools 9.15)
misses and repeats solutions, differently on every run: at n = 5 it returned 6 of the 10,
at n = 8 153 boards of which 76 distinct. OR-Tools' maintainers say parallel enumeration
is not supported: enumerating all solutions in parallel without duplicates "is not yet
planned" (google/or-tools#1186), de-duplicating solutions across workers is too complex
(#1591); lesson 02 says the same ("exact enumeration needs a single worker"). What such a
model returns is luck, so the boards cannot say what is wrong (the feedback once blamed a
symmetry-breaking constraint the model did not have) and the marks changed from run to
run (five runs, five marks). The source says it: ``find`` reads it (``ast``, nothing
run) for a solver whose parameters set both, and ``settle`` gives the cause first,
with the fix, and marks every size the model answered by the verdict alone: no points,
whatever came back, the same on every run.

Without that evidence in the source (the workers passed in from elsewhere), a size that
both repeats and misses solutions of a model that imports OR-Tools gets the same cause
as a hint, first: the marks then follow the boards, as for any model.

Examples:
    >>> code = '''
    ... from ortools.sat.python import cp_model
    ... def model(n):
    ...     solver = cp_model.CpSolver()
    ...     solver.parameters.enumerate_all_solutions = True
    ...     solver.parameters.num_workers = 8
    ... '''
    >>> print(find(code).sentence())  # doctest: +NORMALIZE_WHITESPACE
    CP-SAT enumerates every solution (enumerate_all_solutions, line 5)
    on 8 workers (num_workers = 8, line 6)
    >>> find(code.replace("= 8", "= 1")) is None
    True
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from cp_queens.grading.points import exact
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.tasks.solutions.judge import CheckRow

#: The parameters that set CP-SAT's number of workers (the second is the older name).
WORKER_KEYS = ("num_workers", "num_search_workers")
#: Calls that enumerate every solution whatever the parameters say (the older API).
ENUMERATING_CALLS = ("SearchForAllSolutions", "search_for_all_solutions")

#: The status of a size a model enumerated in parallel: no points, whatever came back.
STATUS = "parallel enumeration"

#: OR-Tools' own position, and the one-line fix.
POSITION = (
    "OR-Tools does not support enumerating all solutions on several workers: its "
    "maintainers say de-duplicating solutions across workers is not planned "
    "(google/or-tools#1186, #1591), so solutions are missed and repeated, differently on "
    "every run. The fix is one line: solver.parameters.num_workers = 1 (lesson 02: exact "
    "enumeration needs a single worker)"
)


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where the source asks for both: enumeration (its line) and the workers (line, count
    or the expression that gives it)."""

    enumerate_line: int
    enumerate_how: str  # "enumerate_all_solutions" or the enumerating call
    workers_line: int
    workers_key: str
    workers: str  # "8", or "os.cpu_count()"

    def sentence(self) -> str:
        count = f"{self.workers} workers" if self.workers.isdigit() else "several workers"
        return (
            f"CP-SAT enumerates every solution ({self.enumerate_how}, line "
            f"{self.enumerate_line}) on {count} ({self.workers_key} = {self.workers}, line "
            f"{self.workers_line})"
        )


def find(source: str) -> Evidence | None:
    """Evidence in ``source`` that one CP-SAT solver enumerates all solutions on more than
    one worker: both set in one function on one parameters object (or in one call), the
    worker count a number > 1 (a literal, a constant of the module, ``os.cpu_count()``).
    None when the source does not say so, or cannot be parsed."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    constants = _constants(tree)
    settings: dict[tuple[int, str], dict[str, tuple[int, Any]]] = {}
    for scope, node in _walk(tree):
        for key, base, value, line in _settings(node):
            place = settings.setdefault((scope, base), {})
            previous = place.get(key)
            if previous is None or previous[0] <= line:
                place[key] = (line, value)
    for (scope, base), found in settings.items():
        group = dict(found)
        if base:  # a call's keywords stand alone; attribute settings meet calls of the scope
            for (other_scope, other_base), more in settings.items():
                if other_scope == scope and not other_base:
                    group = {**more, **group}
        evidence = _evidence(group, constants)
        if evidence is not None:
            return evidence
    return None


def _evidence(group: dict[str, tuple[int, Any]], constants: dict[str, int]) -> Evidence | None:
    enumerating = group.get("enumerate_all_solutions") or group.get("__call__")
    if enumerating is None or not _truthy(enumerating[1], constants):
        return None
    how = "enumerate_all_solutions" if "enumerate_all_solutions" in group else enumerating[1]
    for key in WORKER_KEYS:
        if key in group:
            line, value = group[key]
            workers = _workers(value, constants)
            if workers is not None:
                how_text = how if isinstance(how, str) else "enumerate_all_solutions"
                return Evidence(enumerating[0], how_text, line, key, workers)
    return None


def _walk(tree: ast.AST) -> list[tuple[int, ast.AST]]:
    """Every node with the id of the function it is in (0: the module)."""
    found: list[tuple[int, ast.AST]] = []
    stack: list[tuple[int, ast.AST]] = [(0, tree)]
    while stack:
        scope, node = stack.pop()
        found.append((scope, node))
        inner = id(node) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else scope
        stack.extend((inner, child) for child in ast.iter_child_nodes(node))
    return found


def _settings(node: ast.AST) -> list[tuple[str, str, Any, int]]:
    """The solver settings one node makes: ``(key, base, value, line)``; ``base`` is the
    object's text (``solver.parameters``), empty for a call's keywords or text."""
    keys = (*WORKER_KEYS, "enumerate_all_solutions")
    found: list[tuple[str, str, Any, int]] = []
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr in keys:
                found.append((target.attr, _text(target.value), node.value, node.lineno))
    elif isinstance(node, ast.Call):
        for keyword in node.keywords:
            if keyword.arg in keys:
                found.append((keyword.arg, "", keyword.value, node.lineno))
        name = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if isinstance(node.func, ast.Name):
            name = node.func.id
        if name in ENUMERATING_CALLS:
            found.append(("__call__", "", name, node.lineno))
        if name == "setattr" and len(node.args) == 3:
            named = node.args[1]
            if isinstance(named, ast.Constant) and named.value in keys:
                found.append((str(named.value), _text(node.args[0]), node.args[2], node.lineno))
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = (
            node.value
        )  # parameters given as text: "num_workers: 8 enumerate_all_solutions: true"
        for key in keys:
            match = re.search(rf"\b{key}\s*:\s*(\w+)", text)
            if match:
                found.append((key, "", ast.Constant(_word(match.group(1))), node.lineno))
    return found


def _word(text: str) -> Any:
    if text.isdigit():
        return int(text)
    return text.lower() == "true"


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # an odd tree: a base of its own
        return f"<{id(node)}>"


def _constants(tree: ast.Module) -> dict[str, int]:
    """Names bound once to a whole number at the top of the module (``WORKERS = 8``)."""
    found: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            value = node.value.value
            if isinstance(value, int) and not isinstance(value, bool):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = value
    return found


def _truthy(value: Any, constants: dict[str, int]) -> bool:
    if isinstance(value, str):  # an enumerating call's name
        return True
    if isinstance(value, ast.Constant):
        return bool(value.value)
    if isinstance(value, ast.Name) and value.id in constants:
        return bool(constants[value.id])
    return False


def _workers(value: Any, constants: dict[str, int]) -> str | None:
    """The worker count as text when it is surely more than one, else None."""
    number = None
    if isinstance(value, ast.Constant) and isinstance(value.value, int):
        number = value.value
    elif isinstance(value, ast.Name):
        number = constants.get(value.id)
    elif isinstance(value, ast.Call):
        text = _text(value)
        if text.endswith("cpu_count()"):
            return text
    if isinstance(number, int) and not isinstance(number, bool) and number > 1:
        return str(number)
    return None


def settle(result: StudentResult, source: str, deduction: float = 0.5) -> StudentResult:
    """The cause, named before any guess from the boards, and marks that do not depend on
    luck. Seen at run time (the harness read CP-SAT's parameters as it solved, however
    they were set: ``child._SolverWatch``), those solves ran on one worker, so the boards
    are the model's own on every run: they are scored, less ``deduction`` of the size.
    Seen only in the source, what came back is luck: the size earns its points less
    ``deduction``, whatever came back. Without either, a size that both misses and
    repeats solutions of a model importing OR-Tools gets the cause as its first hint,
    and no symmetry guess. A time limit of the student's own is named too."""
    result = _name_the_time_limit(result, source)
    evidence = find(source)
    seen = [size for size in result.sizes if (size.solver or {}).get("parallel_enumeration")]
    keep = Fraction(1) - exact(deduction)
    if seen or evidence is not None:
        sizes = []
        for size in result.sizes:
            row = size.row
            several = not seen or size in seen  # enumerated on several workers
            if not isinstance(row, CheckRow) or row.error is not None or not several:
                sizes.append(size)  # no answer, or never enumerated on several workers
                continue
            if seen:
                earned = size.points * keep
                problem = (
                    f"model({size.n}) enumerated with several CP-SAT workers: run on one, its "
                    f"boards earn {_percent(keep)} of their points (see above)"
                )
            else:
                earned = exact(size.max_points) * keep
                problem = (
                    f"model({size.n}) enumerated with several CP-SAT workers: {_percent(keep)} "
                    "of the size's points, whatever came back (the answer is luck: see above)"
                )
            sizes.append(
                replace(
                    size,
                    row=_without_symmetry(row),
                    status=STATUS,
                    points=earned,
                    problem=problem,
                )
            )
        notes = (_sentence(evidence, seen, deduction), *result.notes)
        return replace(result, notes=notes, sizes=tuple(sizes))
    if "ortools" not in source:
        return result
    cause = (
        "some solutions are returned more than once while others are missing: that is what "
        "CP-SAT gives when it enumerates all solutions on several workers (num_workers or "
        f"num_search_workers > 1). {POSITION}"
    )
    return _hinted(result, lambda row, _: bool(row.duplicates and row.missing), cause)


def _without_symmetry(row: CheckRow, first: str | None = None) -> CheckRow:
    """The row without the symmetry guesses among its hints (a cause is known), and with
    ``first`` as its first hint if given."""
    kept = tuple(hint for hint in row.hints if not _symmetry(hint))
    return replace(row, hints=kept if first is None else (first, *kept))


def _hinted(
    result: StudentResult, wanted: Callable[[CheckRow, SizeResult], bool], hint: str
) -> StudentResult:
    """The result with ``hint`` first (and no symmetry guess) at each size whose answer
    was read and is ``wanted``."""
    sizes = []
    for size in result.sizes:
        row = size.row
        if isinstance(row, CheckRow) and row.error is None and wanted(row, size):
            size = replace(size, row=_without_symmetry(row, hint))
        sizes.append(size)
    return replace(result, sizes=tuple(sizes))


def _sentence(evidence: Evidence | None, seen: list[Any], deduction: float) -> str:
    """The cause, first in the feedback: where it was seen, OR-Tools' position, the fix,
    and what it cost."""
    if seen:
        workers = max(int(size.solver["parallel_enumeration"]) for size in seen)
        where = f" ({evidence.sentence()})" if evidence is not None else ""
        said = (
            f"CP-SAT was asked to enumerate every solution on {workers} workers, seen as "
            f"model(n) solved for n = {', '.join(str(size.n) for size in seen)}{where}"
        )
        done = (
            "The grader ran those solves on one worker, so your boards were judged the same "
            f"way on every run, and took {_percent(exact(deduction))} of each such size's "
            "points (the rubric's credit.parallel_enumeration)"
        )
    else:
        assert evidence is not None
        said = evidence.sentence()
        done = (
            f"Each size it answered earns {_percent(1 - exact(deduction))} of its points, "
            "whatever came back (the rubric's credit.parallel_enumeration)"
        )
    return f"{said}. {POSITION}. {done}."


def _percent(share: Fraction) -> str:
    return f"{float(share) * 100:.4g} %"


#: How a student's own CP-SAT time limit is said.
TIME_LIMIT = (
    "with a time limit, what CP-SAT finds depends on how busy the machine is, so marks "
    "could change from run to run: remove it (a right model of these sizes needs none; "
    "the grader's CPU limit stops a model that is too slow)"
)


def _name_the_time_limit(result: StudentResult, source: str) -> StudentResult:
    """A ``max_time_in_seconds`` of the student's own (seen as CP-SAT solved): said in the
    notes, and first at each size that misses solutions."""
    limits = [
        float(size.solver["time_limit"])
        for size in result.sizes
        if size.solver and isinstance(size.solver.get("time_limit"), int | float)
    ]
    if not limits:
        return result
    line = next(
        (i for i, text in enumerate(source.splitlines(), 1) if "max_time_in_seconds" in text),
        None,
    )
    where = f", line {line}" if line is not None else ""
    said = f"model sets CP-SAT's max_time_in_seconds = {min(limits):g}{where}: {TIME_LIMIT}"
    result = replace(result, notes=(*result.notes, said))
    hint = f"solutions are missing and {said}"
    return _hinted(result, lambda row, size: bool(row.missing and size.solver), hint)


def _symmetry(hint: str) -> bool:
    return "symmetry" in hint or "mirror image" in hint
