"""What the grader writes: ``marks.csv``, one feedback file per student, a class summary.

The feedback speaks to the student: their points, a table of counts per
board size, what stopped their program (a limit, an exception, ``sys.exit``),
the pattern behind their mistakes, and the first missing, invalid and
duplicate board drawn, as ``check_model`` shows
them. The CSV is for the teacher's spreadsheet: one row per student, the
points, the maximum, the points the rubric gave (before a lecturer's
override), the reason, the seconds the run took and the CPU seconds its whole
process tree used (what the limit counts), the task, the rubric's name
and digest, and each size's status. Re-grading into the same folder replaces
the feedback there: a student never reads a file of an earlier run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cp_queens.grading.marking.written as written
import cp_queens.grading.tasks as tasks
from cp_queens.grading.intake.discover import shown
from cp_queens.grading.points import Number
from cp_queens.grading.points import shown as shown_points
from cp_queens.grading.results import SizeResult, StudentResult
from cp_queens.grading.rubric import Rubric

#: How much of a student's printed output the feedback file quotes.
QUOTED_OUTPUT = 2_000


#: The columns of ``marks.csv`` before one status column per board size.
COLUMNS = (
    "student",
    "points",
    "max",
    "computed",
    "reason",
    "seconds",
    "cpu_seconds",
    "task",
    "rubric",
    "rubric_sha256",
    "status",
    "id",
    "entries",
    "measured",
    "flags",
    "nearest",
)

#: What the letters of a drawn board mean, said under the first board of a feedback file.
LEGENDS = {
    "X": "Q = a queen, X = one of two queens that attack each other, . = an empty square",
    "!": "Q = a queen, ! = a square no queen occupies or attacks, . = a dominated square",
}


def write_marks(
    results: Sequence[StudentResult], path: str | Path, rubric: Rubric | None = None
) -> None:
    """One row per student: ``COLUMNS``, then ``n=1, n=2, ...`` (each size's status); a
    last column ``isolation`` when any submission ran without a sandbox (``none``), so
    that marks graded so are never taken for marks graded in one.

    ``points`` is the mark (a lecturer's override where there is one), ``computed`` what
    the rubric gave, ``reason`` the override's reason or what cost the most points,
    ``status`` whether it was graded (``cp_queens.grading.grade.StudentResult.status``).
    Written whole or not at all, no cell a formula (``cp_queens.grading.marking.written``).
    """
    sizes = [size.n for size in results[0].sizes] if results else []
    name = rubric.name if rubric is not None else ""
    digest = rubric.digest if rubric is not None else ""
    unisolated = any(result.isolation == "none" for result in results)
    extra = ["isolation"] if unisolated else []
    rows: list[list[object]] = [[*COLUMNS, *(f"n={n}" for n in sizes), *extra]]
    for result in results:
        rows.append(
            [
                result.student,
                _number(result.points, result.max_points),
                _number(result.max_points),
                _number(result.computed_points, result.max_points),
                reason(result),
                f"{result.seconds:.2f}",
                f"{result.cpu_seconds:.2f}",
                result.task,
                name,
                digest,
                result.status,
                result.student_id,
                " | ".join(shown(entry) for entry in result.entries),
                " | ".join(result.reruns),
                " | ".join(result.flags),
                result.nearest,
                *result.statuses(),
                *([result.isolation] if unisolated else []),
            ]
        )
    written.write_csv(path, rows)


def reason(result: StudentResult) -> str:
    """One line for the teacher: the override's reason, else what went wrong first."""
    if result.override is not None:
        return f"override: {result.override_reason}"
    if result.override_refused:
        return f"override {result.override_refused}"
    if result.full_marks:
        return ""
    if result.notes:
        return _cut(result.notes[0])
    for size in result.sizes:  # the pattern behind the mistakes says most
        hints = getattr(size.row, "hints", None)
        if hints:
            return _cut(f"n={size.n}: {hints[0]}")
    for size in result.sizes:
        if size.points < size.max_points:
            said = getattr(size.row, "reason", "")  # the dominate checker's words
            return _cut(f"n={size.n}: {_problem(size) or said or size.status}")
    return ""


def _cut(text: str, width: int = 160) -> str:
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 3] + "..."


def feedback(result: StudentResult, rubric: Rubric | None = None) -> str:
    """The student's feedback, in Markdown."""
    points = (
        f"**Points: {_number(result.points, result.max_points)} of {_number(result.max_points)}.**"
    )
    if result.override is not None:
        given = result.override_given
        decision = f"correction ({given})" if given[:1] in "+-" else "decision"
        points += (
            f" The lecturer's {decision}: {result.override_reason} (the rubric gave "
            f"{_number(result.computed_points, result.max_points)})."
        )
    lines = [f"# Feedback for {result.student}", "", f"Submission: `{result.path.name}`. {points}"]
    if rubric is not None:
        lines += ["", f"Marked by the rubric `{rubric.name}` (sha256 {rubric.digest})."]
    if result.instance:  # --variant: the boards this student was graded on
        lines += ["", "Graded on your own boards (rows and columns from 0):", ""]
        lines += [f"- {line}" for line in result.instance]
    lines += _table(result)
    lines += _measured(result)
    problems = list(result.notes)
    # The same problem at several sizes is told once, with the sizes.
    where: dict[str, list[int]] = {}
    for size in result.sizes:
        said = _problem(size)
        if said and size.status != "not run":
            where.setdefault(said.replace(f"model({size.n})", "model(n)"), []).append(size.n)
    for problem, ns in where.items():
        if len(ns) == 1:
            problems.append(problem.replace("model(n)", f"model({ns[0]})"))
        else:
            problems.append(f"{problem} (n = {', '.join(map(str, ns))})")
    not_run = [size.n for size in result.sizes if size.status == "not run"]
    if not_run:
        problems.append(f"not run: n = {', '.join(map(str, not_run))} (the program had stopped)")
    details = _details(result)
    if problems or details:
        lines += ["", "## What to look at", ""]
        lines += [f"- {problem}" for problem in problems]
        explained: set[str] = set()
        for detail in details:
            first, *board = detail.splitlines()
            lines.append(f"- {first}")
            if board:
                lines += ["", "  ```text", *("  " + line.strip() for line in board), "  ```", ""]
                for mark, legend in LEGENDS.items():
                    if mark not in explained and any(mark in line.split() for line in board):
                        explained.add(mark)
                        lines += [f"  ({legend})", ""]
    elif result.sizes and not _all_right(result):  # never "all right" beside a lost point
        lines += ["", "## What to look at", ""]
        lines += [f"- n={size.n}: {size.status}" for size in result.sizes if not _right(size)]
    elif result.sizes:
        lines += ["", tasks.get(result.task).all_right]
    if result.output:
        quoted = "".join(  # control characters (a terminal's escapes) shown as one mark
            ch if ch.isprintable() or ch in "\n\t" else "\ufffd"
            for ch in result.output[:QUOTED_OUTPUT].replace("```", "'''")
        )
        lines += ["", "## What your program printed (the start)", "", "```text", quoted, "```"]
    return "\n".join(lines).rstrip() + "\n"


def _measured(result: StudentResult) -> list[str]:
    """What the grader measured of the run: what a mark near a limit rests on, said as
    measured (never the limit printed back as a measurement)."""
    if result.status != "graded" or not any(size.cpu_seconds is not None for size in result.sizes):
        return []
    allowed = f"; the limit was {result.cpu_limit:g} s" if result.cpu_limit else ""
    return [
        "",
        f"Measured: {result.cpu_seconds:.2f} s of CPU (every thread and process of your "
        f"program{allowed}), {result.seconds:.1f} s of wall time.",
    ]


def _problem(size: SizeResult) -> str | None:
    """What went wrong at this size, in words: the grader's reason (a limit, a crash), else
    the judge's (what came back, when it was not a collection of solutions)."""
    if size.problem:
        return size.problem
    return getattr(size.row, "error", None)


def _right(size: SizeResult) -> bool:
    return size.status == "ok" and size.row is not None and bool(size.row.ok)


def _all_right(result: StudentResult) -> bool:
    return all(_right(size) for size in result.sizes)


def _table(result: StudentResult) -> list[str]:
    """The table of sizes: ``n``, the task's own columns, the status and the points."""
    task = tasks.get(result.task)
    lines = [
        "",
        "| " + " | ".join(("n", *task.columns, "status", "points")) + " |",
        "|--:|" + "--:|" * len(task.columns) + ":--|--:|",
    ]
    for size in result.sizes:
        cells = task.cells(size.row)
        lines.append(
            f"| {size.n} | " + "".join(f"{cell} | " for cell in cells) + f"{size.status} | "
            f"{_number(size.points, size.max_points)} of {_number(size.max_points)} |"
        )
    return lines


def _details(result: StudentResult) -> list[str]:
    """The findings below the table, the task's: each kind of mistake once, boards drawn."""
    rows = [size.row for size in result.sizes if size.row is not None]
    return tasks.get(result.task).details(rows)


def write_feedback(
    results: Sequence[StudentResult],
    folder: str | Path,
    rubric: Rubric | None = None,
    *,
    replace: bool = True,
    problems: list[str] | None = None,
) -> list[Path]:
    """One ``STUDENT.md`` per student in ``folder`` (created if needed, never through a
    link), a path of their own (namesakes told apart by id or a counter, names cut to 255
    bytes: ``written.file_names``); the paths written, all or none
    (``cp_queens.grading.marking.written.write_files``), or with ``problems``, each file
    that cannot be written said there and the others written.

    With ``replace`` (a class), feedback files an earlier run wrote for students not graded
    now are removed (unless changed since): a folder graded again holds this run's
    feedback only, and the lecturer's own files in it.
    """
    names = written.file_names([(result.student, result.student_id) for result in results])
    texts = {name: feedback(result, rubric) for name, result in zip(names, results, strict=True)}
    return written.write_files(folder, texts, replace=replace, problems=problems)


def flagged(results: Sequence[StudentResult]) -> list[str]:
    """The lecturer's lines after the class summary: each copy flagged (``flags``), which
    no student's feedback shows."""
    lines = [
        f"flagged for the lecturer: {result.student}: {flag}"
        for result in results
        for flag in result.flags
    ]
    if lines:
        lines.append("(marks.csv's flags column; the feedback says nothing of them)")
    return lines


def summary_table(results: Sequence[StudentResult], title: str = "") -> Any:
    """The class at a glance, a Rich table: points and a mark per size (ok, or what went wrong)."""
    from rich.table import Table

    overridden = any(result.override is not None for result in results)
    caption = "* the lecturer's override (marks.csv has the reason)" if overridden else None
    table = Table(title=title or None, title_justify="left", caption=caption)
    table.add_column("student")
    table.add_column("points", justify="right")
    sizes = [size.n for size in results[0].sizes] if results else []
    for n in sizes:
        table.add_column(f"n={n}", justify="center")
    table.add_column("seconds", justify="right")
    for result in results:
        cells = [_mark(size.status) for size in result.sizes]
        table.add_row(
            result.student,
            f"{_number(result.points, result.max_points)}/{_number(result.max_points)}"
            + ("*" if result.override is not None else ""),
            *cells,
            f"{result.seconds:.1f}",
        )
    return table


#: Short marks for the summary (the CSV and the feedback say it in full).
_MARKS = {
    "ok": "[green]ok[/green]",
    "error": "[red]error[/red]",
    "exit": "[red]exit[/red]",
    "memory": "[red]mem[/red]",
    "cpu limit": "[red]cpu[/red]",
    "timeout": "[red]time[/red]",
    "crashed": "[red]crash[/red]",
    "too much": "[red]big[/red]",
    "violation": "[red]forged[/red]",
    "not run": "[dim]-[/dim]",
    "not dominating": "[red]gap[/red]",
    "parallel enumeration": "[red]workers[/red]",
}


def _mark(status: str) -> str:
    if status.endswith("above the minimum"):  # the dominate task: "+1" queen
        return f"[yellow]+{status.split()[0]}[/yellow]"
    return _MARKS.get(status, "[yellow]wrong[/yellow]")


def _number(value: Number, most: Number | None = None) -> str:
    """Points for a person to read: two decimals at most, never rounded up to ``most``."""
    return shown_points(value, most)
