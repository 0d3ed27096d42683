"""``cp-queens grade``: grade a folder of students' ``model(n)`` files, each run apart, limited;
or one file, as a student checks their own before handing it in.

Parsing and printing only: a class is ``cp_queens.grading.grade_class`` (the whole flow:
roster, run, overrides, marks, feedback, export), one file ``grade_file``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import cp_queens.grading.tasks as tasks
from cp_queens.errors import CpQueensError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "grade",
        description="Grade every submission in FOLDER (Python files or notebooks defining "
        "model(n), which returns every solution of the n-queens problem, or with --task "
        "dominate a set of queens that dominates the board): each runs in a "
        "bubblewrap sandbox of its own (no network, nothing visible but Python, the allowed "
        "modules and a scratch folder; nothing of it outlives its run) with CPU, memory, "
        "file-size and time limits on its whole process tree; what it returns is judged here "
        "against the reference engine. Writes DIR/marks.csv and one feedback file per "
        "student in DIR/feedback/ (replacing an earlier run's), and prints the class summary. "
        "Given one FILE instead, grades it exactly as the class would be graded and prints "
        "its feedback: exit 0 on full marks, 1 otherwise (a student's own check). Where "
        "bubblewrap cannot run, grading is refused unless --isolation none (see "
        "docs/course-grading.md).",
        epilog="examples:\n"
        "  cp-queens grade submissions/ --n 1..8 --overrides decisions.csv --out marks/\n"
        "  cp-queens grade my_model.py --n 1..8       (a student's own check)\n"
        "  cp-queens grade examples/assignment/dominate --task dominate --n 4..9",
    )
    parser.add_argument(
        "folder",
        metavar="FOLDER|FILE",
        nargs="?",
        help="folder of *.py / *.ipynb submissions, or one submission",
    )
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
        "--task",
        choices=tasks.names(),
        help="the graded task: what model(n) returns and how it is marked (each task is "
        "described in docs/course-grading.md); default: the rubric's task",
    )
    parser.add_argument(
        "--overrides",
        metavar="CSV",
        help="a lecturer's decisions, a CSV student,points,reason: the points replace the "
        "computed ones; the reason goes into marks.csv and the feedback",
    )
    parser.add_argument(
        "--roster",
        metavar="CSV",
        action="append",
        help="the class list, a CSV with the students' ids and names (the LMS's own export "
        "as it comes: Canvas's gradebook, Moodle's grading worksheet or gradebook export); "
        "every student on it gets a row, 0 and 'nothing handed in' if missing; submissions "
        "are matched by the ids in Moodle's and Canvas's download names, else by name "
        "(never a name two students share). Twice (--roster A --roster B): one class, "
        "lines joined by a shared key such as the email",
    )
    parser.add_argument(
        "--export",
        nargs=2,
        metavar=("LMS", "FILE"),
        help="also write FILE for the LMS's import, keyed by its ids: canvas (its "
        "gradebook import) or moodle (the grading worksheet written back when it is the "
        "roster, else the gradebook's CSV import); a student without a mark (not graded, "
        "conflict, ambiguous) has a blank cell or no line, and is named; needs --roster",
    )
    parser.add_argument(
        "--assignment",
        metavar="NAME",
        help="the gradebook column of --export: one of the roster's (default: its only "
        "one; Canvas: 'Title (id)' or the title)",
    )
    parser.add_argument(
        "--feedback-zip",
        metavar="FILE",
        help="each student's feedback in the LMS's bulk-upload zip (Moodle: 'upload "
        "multiple feedback files in a zip'; Canvas: 're-upload submissions'); default with "
        "--export: beside its FILE, NAME-feedback.zip",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="where marks.csv and feedback/ go (default grades; for one FILE, nothing is "
        "written unless --out is given)",
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
    parser.add_argument(
        "--variant",
        metavar="SEED",
        help="each student gets their own board (queens given, squares blocked; for "
        "dominate, holes), computed from their id and this secret seed (@FILE: read it "
        "from FILE); model is called model(n, queens=..., blocked=...) "
        "(docs/course-grading.md)",
    )
    parser.add_argument(
        "--show-instance",
        metavar="STUDENT_ID",
        help="with --variant: print that student's boards for --n (to hand to the student) "
        "and grade nothing; ALL with --roster: one instance file per student in --out "
        "(default instances/), each checked by its student with --instance",
    )
    parser.add_argument(
        "--instance",
        metavar="FILE",
        help="grade one FILE on the boards of a student's instance file (from --show-instance "
        "ALL): a student's own check of a variant; grades the file's sizes",
    )
    parser.set_defaults(run=run)


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"--jobs: a whole number 1..64, got {text!r}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cp_queens.grading.grade import grade_class
    from cp_queens.grading.marking.marks import flagged, summary_table
    from cp_queens.grading.rubric import load
    from cp_queens.grading.sandbox import IsolationError

    rubric = load(args.rubric).for_task(args.task)
    sizes = _sizes(args.n, rubric.task)
    variant = _variant(args, rubric.task, sizes)
    if args.show_instance == "ALL":
        return _hand_out(args, variant, rubric.task, sizes)
    if args.show_instance is not None:
        return 0  # the boards were printed: nothing is graded
    if args.instance is not None:  # a student's own boards, from their instance file
        rubric, sizes, variant = _instance(args, rubric)
    if args.folder is None:
        raise CpQueensError("FOLDER|FILE: what to grade (a folder of submissions, or one file)")
    if Path(args.folder).is_file():
        return _one_file(args, rubric, sizes, variant)
    if args.instance is not None:
        raise CpQueensError("--instance: for one FILE (a student's own check), not a FOLDER")
    roster, export = _class_list(args, rubric)
    try:
        report = grade_class(
            args.folder,
            sizes,
            rubric=rubric,
            roster=roster,
            overrides=args.overrides,
            export=export,
            variant=variant,
            out=args.out if args.out is not None else "grades",
            jobs=args.jobs,
            isolation=args.isolation,
            on_start=lambda: _warn_unisolated(args),
            on_done=_progress(args),
        )
    except IsolationError as error:
        raise _refused(error) from None
    _warn(report.warnings)
    for line in report.notices:
        print(f"cp-queens: {line}", file=sys.stderr)
    if report.interrupted:
        return _interrupted(report)
    _screen().print(summary_table(report.results, title=_title(args, report, variant)))
    for line in flagged(report.results):  # the lecturer's, never the students' feedback
        print(line)
    if not args.quiet:
        print(f"# wrote {report.marks} and {len(report.results)} files in {report.feedback}")
    return 0


def _hand_out(args: argparse.Namespace, variant: Any, task: str, sizes: list[int]) -> int:
    """``--show-instance ALL``: one instance file per roster student in ``--out``."""
    from pathlib import Path

    from cp_queens.grading.intake.roster import read_rosters
    from cp_queens.grading.tasks import variants

    if not args.roster:
        raise CpQueensError("--show-instance ALL: needs --roster (whose boards to write)")
    roster = read_rosters(args.roster)
    out = Path(args.out if args.out is not None else "instances")
    written = variants.write_instances(variant, task, [s.id for s in roster.students], sizes, out)
    if not args.quiet:
        hidden = variants.hidden_size(task, sizes)
        also = f"; grading adds n = {hidden}, hidden" if hidden is not None else ""
        print(f"# wrote {len(written)} instance files in {out} (n = {args.n}{also})")
    return 0


def _sizes(text: str, task: str) -> list[int]:
    """``--n``, read by the grader's own reading and bounds."""
    from cp_queens.grading.grade import parse_sizes

    try:
        return parse_sizes(text, task)
    except CpQueensError as error:
        raise CpQueensError(f"--n: {error}") from None


def _variant(args: argparse.Namespace, task: str, sizes: list[int]) -> Any:
    """``--variant`` read and checked for ``--n`` (None without it); with
    ``--show-instance``, that student's boards printed."""
    if args.variant is None and args.show_instance is None:
        return None
    from cp_queens.grading.tasks import variants

    if args.variant is None:
        raise CpQueensError("--show-instance needs --variant SEED (the seed the boards come from)")
    variant = variants.Variant.from_option(args.variant)
    variants.check_sizes(task, sizes)
    if args.show_instance is not None and args.show_instance != "ALL":
        print(variants.told(variant, task, args.show_instance, sizes), end="")
    return variant


def _instance(args: argparse.Namespace, rubric: Any) -> tuple[Any, list[int], Any]:
    """``--instance FILE``: the student's boards (the rubric for their task, their sizes)."""
    from cp_queens.grading.tasks import variants

    if args.variant is not None:
        raise CpQueensError("--instance: a student's file of boards, instead of --variant")
    instance = variants.read_instance(args.instance)
    return rubric.for_task(instance.task), sorted(instance.boards), instance


def _one_file(args: argparse.Namespace, rubric: Any, sizes: list[int], variant: Any) -> int:
    """One FILE, graded as its class would be (a student's own check): its feedback
    printed, written under ``--out`` only when asked; 0 on full marks, else 1."""
    from pathlib import Path

    from cp_queens.grading.grade import grade_file
    from cp_queens.grading.marking.marks import feedback, write_feedback, write_marks
    from cp_queens.grading.sandbox import IsolationError

    if args.overrides:
        raise CpQueensError("--overrides: for a class (a FOLDER), not for one FILE")
    if args.roster or args.export:
        raise CpQueensError("--roster, --export: for a class (a FOLDER), not for one FILE")
    out = Path(args.out) if args.out is not None else None
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CpQueensError(f"--out: cannot create {out}: {error.strerror}") from None
    _warn_unisolated(args)
    try:
        result = grade_file(
            args.folder, sizes, rubric=rubric, isolation=args.isolation, variant=variant
        )
    except IsolationError as error:
        raise _refused(error) from None
    print(feedback(result, rubric), end="")
    if out is not None:
        write_feedback([result], out / "feedback", rubric, replace=False)
        write_marks([result], out / "marks.csv", rubric)
    return 0 if result.full_marks else 1


def _class_list(args: argparse.Namespace, rubric: Any) -> tuple[Any, Any]:
    """``--roster`` read (its warnings said) and ``--export`` checked before anything runs:
    (the roster or None, the ``Export`` or None)."""
    from cp_queens.grading.grade import Export
    from cp_queens.grading.intake.roster import read_rosters
    from cp_queens.grading.marking.export import FORMATS, ExportError, column

    lms = args.export[0].lower() if args.export else None
    if lms is not None and lms not in FORMATS:
        raise CpQueensError(f"--export: one of {', '.join(FORMATS)}, got {args.export[0]!r}")
    if lms is not None and not args.roster:
        raise CpQueensError("--export: needs --roster (the gradebook's ids come from it)")
    if args.feedback_zip and lms is None:
        raise CpQueensError("--feedback-zip: needs --export LMS FILE (whose upload layout)")
    roster = read_rosters(args.roster) if args.roster else None
    _warn(roster.warnings if roster is not None else [])
    if roster is None or lms is None:
        return roster, None
    try:
        chosen = column(roster, lms, args.assignment, rubric.name)
    except ExportError as error:
        raise CpQueensError(f"--assignment: {error} (--assignment 'TITLE')") from None
    return roster, Export(lms, args.export[1], chosen, args.feedback_zip)


def _progress(args: argparse.Namespace) -> Any:
    """What ``grade_class`` calls as each submission is graded: a line on a terminal."""
    from rich.console import Console

    from cp_queens.grading.points import shown

    progress = Console(stderr=True)

    def show(done: Any) -> None:
        if progress.is_terminal and not args.quiet:
            progress.print(
                f"[dim]graded {done.student}: {shown(done.points, done.max_points)}[/dim]",
                highlight=False,
            )

    return show


def _interrupted(report: Any) -> int:
    """Ctrl-C or SIGTERM: which rows were kept, and where."""
    from cp_queens.cli.exit_codes import ExitCode

    print(
        f"cp-queens: interrupted: {len(report.results)} of {report.total} graded; "
        f"{report.marks} holds those"
        + (f" ({report.kept} is the earlier run's, untouched)" if report.kept else ""),
        file=sys.stderr,
    )
    return ExitCode.INTERRUPTED


def _title(args: argparse.Namespace, report: Any, variant: Any) -> str:
    """The class table's title: what was found, the task, the sizes, the rubric, the
    variant's fingerprint (never its seed), and a class graded without a sandbox."""
    from cp_queens.grading.intake.discover import summary

    rubric = report.rubric
    title = (
        f"{summary(report.results, args.folder)}; task {rubric.task}, n = {args.n}, rubric "
        f"{rubric.name} ({rubric.digest})"
    )
    if variant is not None:
        title += f", variant {variant.fingerprint()}"
    if any(result.isolation == "none" for result in report.results):
        title += ", NO SANDBOX (isolation none)"
    return title


def _screen() -> Any:
    """Standard output as a Rich console: 120 columns when it is not a terminal."""
    from rich.console import Console

    screen = Console()
    return screen if screen.is_terminal else Console(width=120)


def _warn_unisolated(args: argparse.Namespace) -> None:
    """With ``--isolation none``, said before any submission runs, once what was asked
    has been checked (an error stays one line)."""
    if args.isolation == "none" and _will_run(args.folder):
        print(
            "cp-queens: WARNING: --isolation none: every submission runs WITHOUT a sandbox, as "
            "this user, with the network and every file this user can read; grade code you "
            "do not trust in a container or a virtual machine (docs/course-grading.md)",
            file=sys.stderr,
            flush=True,
        )


def _refused(error: Exception) -> CpQueensError:
    """Bubblewrap cannot run here: one line, why and what to do."""
    why = getattr(error, "why", str(error))
    if why == str(error):
        return CpQueensError(str(error))
    return CpQueensError(
        f"cannot isolate submissions: {why}. Install bubblewrap (Debian/Ubuntu: "
        "apt-get install bubblewrap), or pass --isolation none to grade without a "
        "sandbox (see docs/course-grading.md)"
    )


def _warn(lines: list[str]) -> None:
    """Lines the lecturer must read (a decision not applied), each one warning on stderr."""
    for line in lines:
        print(f"cp-queens: warning: {line}", file=sys.stderr)


def _will_run(folder: str) -> bool:
    """Whether grading ``folder`` (a class folder, or one file) runs any submission."""
    from pathlib import Path

    from cp_queens.grading.intake.discover import is_submission_name

    where = Path(folder)
    return where.is_dir() or (where.is_file() and is_submission_name(where.name))
