"""What the grader writes: ``marks.csv``, one feedback file per student, a class summary.

The feedback speaks to the student: their points, a table of counts per
board size, what stopped their program (a limit, an exception, ``sys.exit``),
the pattern behind their mistakes, and the first missing, invalid and
duplicate board drawn, as ``check_model`` shows
them. The CSV is for the teacher's spreadsheet: one row per student, the
points, the maximum, and each size's status.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cp_queens.course.check import CheckReport
from cp_queens.course.grade import StudentResult

#: How much of a student's printed output the feedback file quotes.
QUOTED_OUTPUT = 2_000


def write_marks(results: Sequence[StudentResult], path: str | Path) -> None:
    """``student, points, max, n=1, n=2, ...`` (each size's status), one row per student;
    a last column ``isolation`` when any submission ran without a sandbox (``none``), so
    that marks graded so are never taken for marks graded in one."""
    sizes = [size.n for size in results[0].sizes] if results else []
    unisolated = any(result.isolation == "none" for result in results)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        extra = ["isolation"] if unisolated else []
        writer.writerow(["student", "points", "max", *(f"n={n}" for n in sizes), *extra])
        for result in results:
            writer.writerow(
                [
                    result.student,
                    _number(result.points),
                    _number(result.max_points),
                    *result.statuses(),
                    *([result.isolation] if unisolated else []),
                ]
            )


def feedback(result: StudentResult) -> str:
    """The student's feedback, in Markdown."""
    lines = [
        f"# Feedback for {result.student}",
        "",
        f"Submission: `{result.path.name}`. **Points: {_number(result.points)} of "
        f"{_number(result.max_points)}.**",
        "",
        "| n | solutions | you returned | correct | status | points |",
        "|--:|--:|--:|--:|:--|--:|",
    ]
    for size in result.sizes:
        row = size.row
        returned = "-" if row is None or row.error else str(row.returned)
        correct = "-" if row is None or row.error else str(row.correct)
        expected = "-" if row is None else str(row.expected)
        lines.append(
            f"| {size.n} | {expected} | {returned} | {correct} | {size.status} | "
            f"{_number(size.points)} of {_number(size.max_points)} |"
        )
    problems = list(result.notes)
    # The same problem at several sizes is told once, with the sizes.
    where: dict[str, list[int]] = {}
    for size in result.sizes:
        if size.problem and size.status != "not run":
            where.setdefault(size.problem.replace(f"model({size.n})", "model(n)"), []).append(
                size.n
            )
    for problem, ns in where.items():
        if len(ns) == 1:
            problems.append(problem.replace("model(n)", f"model({ns[0]})"))
        else:
            problems.append(f"{problem} (n = {', '.join(map(str, ns))})")
    not_run = [size.n for size in result.sizes if size.status == "not run"]
    if not_run:
        problems.append(f"not run: n = {', '.join(map(str, not_run))} (the program had stopped)")
    report = CheckReport("model", [size.row for size in result.sizes if size.row is not None])
    details = [line for line in report.details() if not line.startswith("error: ")]
    if problems or details:
        lines += ["", "## What to look at", ""]
        lines += [f"- {problem}" for problem in problems]
        for detail in details:
            first, *board = detail.splitlines()
            lines.append(f"- {first}")
            if board:
                lines += ["", "  ```text", *("  " + line.strip() for line in board), "  ```", ""]
    elif result.sizes:
        lines += ["", "Every board size is right: every solution, each exactly once."]
    if result.output:
        quoted = "".join(  # control characters (a terminal's escapes) shown as one mark
            ch if ch.isprintable() or ch in "\n\t" else "\ufffd"
            for ch in result.output[:QUOTED_OUTPUT].replace("```", "'''")
        )
        lines += ["", "## What your program printed (the start)", "", "```text", quoted, "```"]
    return "\n".join(lines).rstrip() + "\n"


def write_feedback(results: Sequence[StudentResult], folder: str | Path) -> list[Path]:
    """One ``STUDENT.md`` per student in ``folder`` (created if needed); the paths written."""
    where = Path(folder)
    where.mkdir(parents=True, exist_ok=True)
    written = []
    for result in results:
        path = where / f"{result.student}.md"
        path.write_text(feedback(result), encoding="utf-8")
        written.append(path)
    return written


def summary_table(results: Sequence[StudentResult], title: str = "") -> Any:
    """The class at a glance, a Rich table: points and a mark per size (ok, or what went wrong)."""
    from rich.table import Table

    table = Table(title=title or None, title_justify="left")
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
            f"{_number(result.points)}/{_number(result.max_points)}",
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
}


def _mark(status: str) -> str:
    return _MARKS.get(status, "[yellow]wrong[/yellow]")


def _number(value: float) -> str:
    return f"{value:g}"
