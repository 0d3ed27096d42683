"""``cp-queens grade``: grade a folder of students' ``model(n)`` files, each run apart, limited;
or one file, as a student checks their own before handing it in.

Parsing only: the grading is ``cp_queens.grading.grade.grade`` (and
``grade_file``), the files it writes ``cp_queens.grading.marking.marks``, a
lecturer's overrides ``cp_queens.grading.marking.overrides``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import cp_queens.grading.tasks as tasks
from cp_queens.errors import CpQueensError

#: Where an interrupted run's rows go when a marks.csv is there already.
PARTIAL_MARKS = "marks.partial.csv"


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

    from rich.console import Console

    from cp_queens.cli.exit_codes import ExitCode
    from cp_queens.grading.grade import grade, grade_file, parse_sizes
    from cp_queens.grading.intake.discover import summary
    from cp_queens.grading.intake.roster import place
    from cp_queens.grading.marking.marks import (
        feedback,
        flagged,
        summary_table,
        write_feedback,
        write_marks,
    )
    from cp_queens.grading.marking.overrides import apply_overrides, read_for_class
    from cp_queens.grading.points import shown
    from cp_queens.grading.results import StudentResult
    from cp_queens.grading.rubric import load
    from cp_queens.grading.run import GradingInterrupted
    from cp_queens.grading.sandbox import IsolationError

    rubric = load(args.rubric).for_task(args.task)
    try:
        sizes = parse_sizes(args.n, rubric.task)
    except CpQueensError as error:
        raise CpQueensError(f"--n: {error}") from None
    variant = None
    if args.variant is not None or args.show_instance is not None:
        from cp_queens.grading.tasks import variants

        if args.variant is None:
            raise CpQueensError(
                "--show-instance needs --variant SEED (the seed the boards come from)"
            )
        variant = variants.Variant.from_option(args.variant)
        variants.check_sizes(rubric.task, sizes)
        if args.show_instance == "ALL":
            return _hand_out(args, variant, rubric.task, sizes)
        if args.show_instance is not None:
            print(variants.told(variant, rubric.task, args.show_instance, sizes), end="")
            return 0
    instance = None
    if args.instance is not None:
        from cp_queens.grading.tasks import variants

        if args.variant is not None:
            raise CpQueensError("--instance: a student's file of boards, instead of --variant")
        instance = variants.read_instance(args.instance)
        rubric = rubric.for_task(instance.task)
        sizes = sorted(instance.boards)
    if args.folder is None:
        raise CpQueensError("FOLDER|FILE: what to grade (a folder of submissions, or one file)")
    one_file = Path(args.folder).is_file()
    if instance is not None and not one_file:
        raise CpQueensError("--instance: for one FILE (a student's own check), not a FOLDER")
    if one_file and args.overrides:
        raise CpQueensError("--overrides: for a class (a FOLDER), not for one FILE")
    roster, lms, column = _class_list(args, one_file, rubric)
    overrides = (
        read_for_class(args.overrides, args.folder, rubric, sizes, roster) if args.overrides else {}
    )
    out = Path(args.out if args.out is not None else "grades")
    if args.out is not None or not one_file:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CpQueensError(f"--out: cannot create {out}: {error.strerror}") from None
    if args.isolation == "none" and _will_run(args.folder):
        # Said before any submission runs, once what was asked has been checked (an
        # error stays one line).
        print(
            "cp-queens: WARNING: --isolation none: every submission runs WITHOUT a sandbox, as "
            "this user, with the network and every file this user can read; grade code you "
            "do not trust in a container or a virtual machine (docs/course-grading.md)",
            file=sys.stderr,
            flush=True,
        )
    if one_file:
        try:
            result = grade_file(
                args.folder,
                sizes,
                rubric=rubric,
                isolation=args.isolation,
                variant=instance if instance is not None else variant,
            )
        except IsolationError as error:
            raise _refused(error) from None
        print(feedback(result, rubric), end="")
        if args.out is not None:
            write_feedback([result], out / "feedback", rubric, replace=False)
            write_marks([result], out / "marks.csv", rubric)
        return 0 if result.full_marks else 1
    progress = Console(stderr=True)

    def show(done: StudentResult) -> None:
        if progress.is_terminal and not args.quiet:
            progress.print(
                f"[dim]graded {done.student}: {shown(done.points, done.max_points)}[/dim]",
                highlight=False,
            )

    try:
        results = grade(
            args.folder,
            sizes,
            rubric=rubric,
            jobs=args.jobs,
            on_done=show,
            isolation=args.isolation,
            variant=variant,
            variant_ids=_roster_ids(args, rubric, roster) if variant is not None else None,
        )
    except IsolationError as error:
        raise _refused(error) from None
    except GradingInterrupted as stopped:  # the rows graded before it are kept
        _warn(apply_overrides(stopped.results, overrides, str(args.overrides)))
        write_feedback(stopped.results, out / "feedback", rubric, replace=False)
        # A whole class's marks from an earlier run are never replaced by some rows.
        kept = out / "marks.csv"
        marks = out / PARTIAL_MARKS if kept.exists() else kept
        write_marks(stopped.results, marks, rubric)
        print(
            f"cp-queens: interrupted: {len(stopped.results)} of {stopped.total} graded; "
            f"{marks} holds those"
            + (f" ({kept} is the earlier run's, untouched)" if marks != kept else ""),
            file=sys.stderr,
        )
        return ExitCode.INTERRUPTED
    if roster is not None:
        results = place(results, roster, rubric)
    _warn(apply_overrides(results, overrides, str(args.overrides)))
    write_feedback(results, out / "feedback", rubric)
    write_marks(results, out / "marks.csv", rubric)  # last: whole marks, whole feedback
    (out / PARTIAL_MARKS).unlink(missing_ok=True)  # an interrupted run's rows: superseded
    if roster is not None and lms is not None:
        _export(args, results, roster, lms, column, rubric)
    screen = Console()
    if not screen.is_terminal:
        screen = Console(width=120)
    title = (
        f"{summary(results, args.folder)}; task {rubric.task}, n = {args.n}, rubric "
        f"{rubric.name} ({rubric.digest})"
    )
    if variant is not None:  # which seed, without showing it
        title += f", variant {variant.fingerprint()}"
    if any(result.isolation == "none" for result in results):
        title += ", NO SANDBOX (isolation none)"
    screen.print(summary_table(results, title=title))
    for line in flagged(results):  # the lecturer's, never the students' feedback
        print(line)
    if not args.quiet:
        print(f"# wrote {out / 'marks.csv'} and {len(results)} files in {out / 'feedback'}")
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


def _class_list(
    args: argparse.Namespace, one_file: bool, rubric: Any
) -> tuple[Any, str | None, str]:
    """``--roster`` read and ``--export`` checked before anything runs: (the roster or
    None, the LMS or None, the export's grade column)."""
    from cp_queens.grading.intake.roster import read_rosters
    from cp_queens.grading.marking.export import FORMATS, ExportError, column

    lms = args.export[0].lower() if args.export else None
    if lms is not None and lms not in FORMATS:
        raise CpQueensError(f"--export: one of {', '.join(FORMATS)}, got {args.export[0]!r}")
    if one_file and (args.roster or lms):
        raise CpQueensError("--roster, --export: for a class (a FOLDER), not for one FILE")
    if lms is not None and not args.roster:
        raise CpQueensError("--export: needs --roster (the gradebook's ids come from it)")
    if args.feedback_zip and lms is None:
        raise CpQueensError("--feedback-zip: needs --export LMS FILE (whose upload layout)")
    roster = read_rosters(args.roster) if args.roster else None
    for line in roster.warnings if roster is not None else []:
        _warn([line])
    if roster is None or lms is None:
        return roster, lms, ""
    try:
        return roster, lms, column(roster, lms, args.assignment, rubric.name)
    except ExportError as error:
        raise CpQueensError(f"--assignment: {error} (--assignment 'TITLE')") from None


def _export(
    args: argparse.Namespace, results: Any, roster: Any, lms: str, column: str, rubric: Any
) -> None:
    """The gradebook file and the feedback upload zip; who has no mark, on stderr."""
    from cp_queens.grading.marking.export import export
    from cp_queens.grading.marking.marks import feedback
    from cp_queens.grading.marking.uploads import beside, feedback_zip

    path = args.export[1]
    done = export(results, roster, lms, path, column)
    _warn(done.warnings)
    for line in done.blank:
        print(f"cp-queens: {path}: no mark for {line}", file=sys.stderr)
    zipped = args.feedback_zip or beside(path)
    uploaded = feedback_zip(results, lms, zipped, lambda row: feedback(row, rubric))
    for line in uploaded.left_out:
        print(f"cp-queens: {zipped}: no feedback file for {line}", file=sys.stderr)
    print(
        f"cp-queens: {path}: {done.marks} marks ({done.form}), {len(done.blank)} students "
        f"without one (named above; marks.csv has every row); {zipped}: "
        f"{len(uploaded.files)} feedback files",
        file=sys.stderr,
    )


def _roster_ids(args: argparse.Namespace, rubric: Any, roster: Any) -> dict[str, str] | None:
    """Each submission's roster id, found as the roster places the graded rows (by the
    LMS's id, else the name), before grading: a variant's boards come from the id."""
    if roster is None:
        return None
    from pathlib import Path

    from cp_queens.grading.intake.discover import find_submissions
    from cp_queens.grading.intake.roster import NOT_ON_ROSTER, place
    from cp_queens.grading.results import StudentResult

    found = find_submissions(args.folder, rubric.limits.submission_kb << 10)
    rows = [
        StudentResult(s.student, Path(s.path), student_id=s.student_id, keys=dict(s.keys))
        for s in found
    ]
    names = {id(row): row.student for row in rows}
    place(rows, roster, rubric)
    return {
        names[id(row)]: row.student_id
        for row in rows
        if row.student_id and NOT_ON_ROSTER not in row.status
    }


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
