"""``check_model`` as the grader runs it: a student's check gives the grader's own verdict.

A model checked in the student's own process can pass there and fail in the
grader's: it may start a process, import a module a submission may not use,
or need more than the limits allow; the notebook's check said OK and the
grader gave 0. So ``check_model`` hands the model to the grader's code path,
``cp_queens.grading.grade.grade_file`` (the same runner, rubric and judging as a
class gets), when it is given

* a file, ``check_model("my_model.py")`` or a notebook, ``"my_model.ipynb"``; or
* a function of a notebook or a script (defined in ``__main__``, as a student's
  ``model`` is): its source is rebuilt from the function, the functions and
  classes of ``__main__`` it uses, its imports and its constants, written to a
  file, and graded. What cannot be rebuilt (a lambda, a closure, a global that
  is not a constant) is said in one line, and the model is checked in this
  process instead, with a note saying so.

A function of another module (a test's, a lesson's) is checked in this process
(``cp_queens.grading.tasks.solutions.judge.check_model``), as before; ``graded=True`` asks for
the grader's path all the same.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import tempfile
import textwrap
import types
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import cp_queens.grading.tasks.solutions.judge as judge
from cp_queens.errors import CpQueensError
from cp_queens.grading.grade import grade_file
from cp_queens.grading.intake.discover import notebook_code
from cp_queens.grading.points import shown
from cp_queens.grading.results import StudentResult
from cp_queens.grading.rubric import Rubric
from cp_queens.grading.tasks.solutions.judge import CheckReport, CheckRow


class NotRebuilt(CpQueensError):
    """A function whose source cannot be handed to the grader as a file of its own."""


def check_model(
    model: Callable[[int], Iterable[Any]] | str | os.PathLike[str],
    n_max: int = 9,
    *,
    n_min: int = 1,
    name: str | None = None,
    graded: bool | None = None,
    rubric: Rubric | str | Path | None = None,
) -> CheckReport:
    """Does ``model`` return every solution of the n-queens problem, each once, for
    ``n = n_min..n_max``, when it runs as the grader runs it?

    ``model`` is a function or the path of a submission (``.py`` or ``.ipynb``).
    ``graded`` (default: for a path, and for a function of a notebook or a script)
    runs it through the grader, with ``rubric`` (default: the shipped one); the report
    is truthy exactly when the grader gives full marks, and says the mark. Otherwise it
    runs here, in this process (``cp_queens.grading.tasks.solutions.judge.check_model``).
    """
    if isinstance(n_min, bool) or not isinstance(n_min, int) or n_min < 1:
        raise CpQueensError(f"check_model: n_min must be a whole number >= 1, got {n_min!r}")
    if isinstance(n_max, bool) or not isinstance(n_max, int) or n_max < n_min:
        raise CpQueensError(f"check_model: n_max must be a whole number >= {n_min}, got {n_max!r}")
    sizes = range(n_min, n_max + 1)
    if isinstance(model, str | os.PathLike):
        path = Path(model)
        return report_from(
            grade_file(path, sizes, rubric=rubric, task="solutions"), name or path.name
        )
    label = name or getattr(model, "__name__", None) or repr(model)
    if graded is None:
        graded = getattr(model, "__module__", None) == "__main__"
    if not graded:
        return judge.check_model(model, n_max, n_min=n_min, name=name)
    run = notebook_run() if getattr(model, "__module__", None) == "__main__" else None
    if run is not None:  # a notebook: checked as the grader runs it, every cell
        return _check_notebook(model, run, sizes, rubric, label)
    try:
        source = submission_source(model)
    except NotRebuilt as why:
        if graded is True and getattr(model, "__module__", None) != "__main__":
            raise
        report = judge.check_model(model, n_max, n_min=n_min, name=name)
        here = (
            f"checked in this process, not as the grader runs it: {why} (save the model "
            "in a file and run check_model('file.py') or cp-queens grade file.py)"
        )
        return dataclasses.replace(report, notes=(*report.notes, here))
    with tempfile.TemporaryDirectory(prefix="cp-queens-check-") as folder:
        path = Path(folder) / "model.py"
        path.write_text(source, encoding="utf-8")
        result = grade_file(path, sizes, rubric=rubric, task="solutions")
    judged = f"{label} rebuilt from this script (the grader marks the file you hand in)"
    return report_from(result, label, judged)


def notebook_run() -> tuple[Path | None, list[str], str] | None:
    """The notebook this check runs in, as the grader will run it: its saved file where
    the kernel says which it is (Jupyter's session, VS Code), else the cells run in this
    kernel, in the order they ran; None outside IPython (a script, a test)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None:
        return None
    namespace = getattr(shell, "user_ns", None) or {}
    for named in (
        namespace.get("__session__"),
        namespace.get("__vsc_ipynb_file__"),
        os.environ.get("JPY_SESSION_NAME"),
    ):
        if isinstance(named, str) and named.endswith(".ipynb") and Path(named).is_file():
            return Path(named), [], f"the notebook {Path(named).name} as saved"
    history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
    if not isinstance(history, list):
        return None
    cells = [cell for cell in history[1:] if isinstance(cell, str) and cell.strip()]
    if not cells:  # a shell that keeps no history: the notebook cannot be rebuilt
        return None
    how = (
        f"the {len(cells)} cells run in this kernel, in the order they ran (the grader runs "
        "the saved notebook's code cells, top to bottom)"
    )
    return None, cells, how


def _check_notebook(
    model: Callable[..., Any],
    run: tuple[Path | None, list[str], str],
    sizes: range,
    rubric: Rubric | str | Path | None,
    label: str,
) -> CheckReport:
    """Grade the notebook the grader will grade: every code cell, the same allowed modules,
    the check cell itself included (the grader runs it too)."""
    saved, cells, how = run
    notes = [f"checked as the grader runs the notebook: {how}"]
    name = getattr(model, "__name__", "model")
    judged = "" if saved is not None else f"the {len(cells)} cells run in this kernel"
    if name != "model":
        notes.append(f"the grader calls the function named model, not {name}")
        judged = f"{judged or 'the saved notebook'} with model = {name} added"
    if judged:
        notes.append(
            f"the mark is for {judged}, not necessarily the notebook you hand in: the grader "
            "runs the saved notebook's code cells, top to bottom (save it, then "
            "check_model('your_notebook.ipynb'), or cp-queens grade your_notebook.ipynb)"
        )
    with tempfile.TemporaryDirectory(prefix="cp-queens-check-") as folder:
        if saved is None or name != "model":
            if saved is not None:
                cells = [notebook_code(saved)]
            if name != "model":
                cells = [*cells, f"model = {name}"]
            saved = Path(folder) / "notebook.ipynb"
            saved.write_text(json.dumps(_notebook(cells)), encoding="utf-8")
        result = grade_file(saved, sizes, rubric=rubric, task="solutions")
    report = report_from(result, label, judged)
    return dataclasses.replace(report, notes=(*notes, *report.notes))


def _notebook(cells: list[str]) -> dict[str, Any]:
    """``cells`` as a notebook the grader reads like any other (nbformat 4)."""
    return {
        "cells": [
            {
                "cell_type": "code",
                "metadata": {},
                "source": cell,
                "outputs": [],
                "execution_count": None,
            }
            for cell in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 4,
    }


def report_from(result: StudentResult, name: str, judged: str = "") -> CheckReport:
    """The grader's result as a ``CheckReport``: its rows (a size that never answered
    becomes an error row with the grader's reason), its notes, and its mark: "as the
    grader marks it" only when what ran is what will be handed in (a file, a saved
    notebook); else ``judged`` says what was marked instead."""
    rows = []
    for size in result.sizes:
        row = size.row
        if not isinstance(row, CheckRow):
            row = CheckRow(size.n, 0, error=size.problem or size.status)
        rows.append(row)
    how = f"for {judged}" if judged else "as the grader marks it"
    marks = f"{shown(result.points, result.max_points)} of {shown(result.max_points)} points, {how}"
    return CheckReport(name, tuple(rows), notes=result.notes, marks=marks)


def submission_source(function: Callable[..., Any]) -> str:
    """A file the grader can run: ``function`` as ``model``, with what it needs of its module.

    The functions and classes of the same module that it uses (and they use), the modules
    and names it imports, and its constants (numbers, text, and containers of them).
    """
    if not isinstance(function, types.FunctionType):
        raise NotRebuilt(f"{function!r} is not a function defined with def")
    imports: list[str] = []
    constants: list[str] = []
    definitions: list[str] = []
    seen: set[int] = set()

    def visit(obj: Any) -> None:
        if id(obj) in seen:
            return
        seen.add(id(obj))
        if isinstance(obj, types.FunctionType):
            if obj.__name__ == "<lambda>":
                raise NotRebuilt("a lambda has no source of its own (define it with def)")
            if obj.__closure__:
                raise NotRebuilt(f"{obj.__name__} uses variables of the function it is defined in")
        try:
            text = textwrap.dedent(inspect.getsource(obj))
        except (OSError, TypeError):
            raise NotRebuilt(f"the source of {obj.__name__} cannot be found") from None
        definitions.append(text)
        namespace = obj.__globals__ if isinstance(obj, types.FunctionType) else _globals(obj)
        for used in _names(obj):
            if used in namespace:
                need(used, namespace[used], namespace)

    def need(used: str, value: Any, namespace: dict[str, Any]) -> None:
        if isinstance(value, types.ModuleType):
            line = (
                f"import {value.__name__}"
                if value.__name__ == used
                else f"import {value.__name__} as {used}"
            )
            if line not in imports:
                imports.append(line)
        elif getattr(value, "__module__", None) == namespace.get("__name__") and isinstance(
            value, type | types.FunctionType
        ):
            visit(value)
        elif _constant(value):
            constants.append(f"{used} = {value!r}")
        elif (where := _importable(value)) is not None:
            line = f"from {where[0]} import {where[1]}" + (
                "" if where[1] == used else f" as {used}"
            )
            if line not in imports:
                imports.append(line)
        else:
            raise NotRebuilt(
                f"{used} ({type(value).__name__}) is neither a constant nor importable"
            )

    visit(function)
    tail = [] if function.__name__ == "model" else [f"model = {function.__name__}"]
    parts = ["\n".join(imports), "\n".join(dict.fromkeys(constants)), *reversed(definitions)]
    return "\n\n\n".join(part for part in [*parts, *tail] if part) + "\n"


def _names(obj: Any) -> set[str]:
    """Every global name the code of ``obj`` (a function, or a class's methods) may use."""
    codes = []
    if isinstance(obj, types.FunctionType):
        codes.append(obj.__code__)
    else:
        codes += [v.__code__ for v in vars(obj).values() if isinstance(v, types.FunctionType)]
        codes += [b for b in obj.__bases__ if b is not object]
    names: set[str] = set()
    while codes:
        code = codes.pop()
        if isinstance(code, type):
            names.add(code.__name__)
            continue
        names.update(code.co_names)
        codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return names


def _globals(cls: type) -> dict[str, Any]:
    for value in vars(cls).values():
        if isinstance(value, types.FunctionType):
            return value.__globals__
    module = inspect.getmodule(cls)
    return vars(module) if module is not None else {}


def _constant(value: Any, depth: int = 0) -> bool:
    if value is None or isinstance(value, bool | int | float | complex | str | bytes):
        return True
    if depth < 4 and isinstance(value, tuple | list | set | frozenset):
        return all(_constant(v, depth + 1) for v in value)
    if depth < 4 and isinstance(value, dict):
        return all(_constant(k, depth + 1) and _constant(v, depth + 1) for k, v in value.items())
    return False


def _importable(value: Any) -> tuple[str, str] | None:
    """``(module, name)`` when ``value`` is that module's attribute of that name."""
    module = getattr(value, "__module__", None)
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if not isinstance(module, str) or not isinstance(name, str) or "." in name:
        return None
    if module in ("__main__", "builtins"):
        return None
    try:
        found = getattr(__import__(module, fromlist=[name]), name, None)
    except Exception:
        return None
    return (module, name) if found is value else None
