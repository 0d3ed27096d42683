"""``cp-queens grade``: grade a folder of students' ``model(n)`` files, each run apart, limited.

Parsing only: the grading is ``cp_queens.course.grade.grade``, the files
it writes ``cp_queens.course.marks``.
"""

from __future__ import annotations

import argparse

from cp_queens.errors import CpQueensError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "grade",
        description="Grade every submission in FOLDER (Python files or notebooks defining "
        "model(n), which returns every solution of the n-queens problem): each runs in a "
        "bubblewrap sandbox of its own (no network, nothing visible but Python, the allowed "
        "modules and a scratch folder; nothing of it outlives its run) with CPU, memory, "
        "file-size and time limits on its whole process tree; what it returns is judged here "
        "against the reference engine. Writes DIR/marks.csv and one feedback file per "
        "student in DIR/feedback/, and prints the class summary. Where bubblewrap cannot "
        "run, grading is refused unless --isolation none (see docs/course-grading.md).",
        epilog="examples:\n"
        "  cp-queens grade examples/assignment/submissions --n 1..9\n"
        "  cp-queens grade submissions/ --n 4..10 --rubric my_rubric.toml --out marks/",
    )
    parser.add_argument("folder", metavar="FOLDER", help="folder of *.py / *.ipynb submissions")
    parser.add_argument(
        "--n",
        default="1..9",
        metavar="RANGE",
        help="board sizes to grade, e.g. 1..9 or 4,6,8 (default 1..9; at most 12)",
    )
    parser.add_argument(
        "--rubric", metavar="FILE", help="TOML rubric: points, penalties, limits (default: shipped)"
    )
    parser.add_argument(
        "--out", default="grades", metavar="DIR", help="where marks.csv and feedback/ go (grades)"
    )
    parser.add_argument(
        "--jobs", type=_jobs, default=2, metavar="J", help="submissions run at once (default 2)"
    )
    parser.add_argument(
        "--isolation",
        choices=("bwrap", "none"),
        help="bwrap: each submission in a bubblewrap sandbox (the rubric's default); none: "
        "a plain process with the limits only, where bubblewrap cannot run",
    )
    parser.set_defaults(run=run)


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"--jobs: a whole number 1..64, got {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console

    from cp_queens.compare import CompareError, parse_range
    from cp_queens.course.grade import StudentResult, check_sizes, grade
    from cp_queens.course.marks import summary_table, write_feedback, write_marks
    from cp_queens.course.rubric import load
    from cp_queens.course.sandbox import IsolationError

    try:
        sizes = check_sizes(parse_range(args.n))
    except CompareError as error:
        raise CpQueensError(f"--n: {error}") from None
    rubric = load(args.rubric)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CpQueensError(f"--out: cannot create {out}: {error.strerror}") from None
    progress = Console(stderr=True)

    def show(done: StudentResult) -> None:
        if progress.is_terminal and not args.quiet:
            progress.print(f"[dim]graded {done.student}: {done.points:g}[/dim]", highlight=False)

    try:
        results = grade(
            args.folder,
            sizes,
            rubric=rubric,
            jobs=args.jobs,
            on_done=show,
            isolation=args.isolation,
        )
    except IsolationError as error:
        if error.why == str(error):
            raise CpQueensError(str(error)) from None
        raise CpQueensError(
            f"cannot isolate submissions: {error.why}. Install bubblewrap (Debian/Ubuntu: "
            "apt-get install bubblewrap), or pass --isolation none to grade without a "
            "sandbox (see docs/course-grading.md)"
        ) from None
    write_marks(results, out / "marks.csv")
    write_feedback(results, out / "feedback")
    screen = Console()
    if not screen.is_terminal:
        screen = Console(width=120)
    title = f"{len(results)} submissions, n = {args.n}, {rubric.source}"
    if any(result.isolation == "none" for result in results):
        title += ", NO SANDBOX (isolation none)"
    screen.print(summary_table(results, title=title))
    if not args.quiet:
        print(f"# wrote {out / 'marks.csv'} and {len(results)} files in {out / 'feedback'}")
    return 0
