"""Run and judge submissions: each ``model(n)`` in a sandbox of its own, its replies
judged here, in the grader's process, against the task's reference.

The one path of a class, of one file and of ``check_model`` (``grade_submissions``): a
hostile or broken submission costs only its own row, and whatever fails while one
submission is run or judged (the machine, a bug of the grader) is said in that row.
"""

from __future__ import annotations

import dataclasses
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from typing import Any

import cp_queens.grading.borderline as borderline
import cp_queens.grading.copies as copies
import cp_queens.grading.load_errors as load_errors
import cp_queens.grading.sandbox as sandbox
import cp_queens.grading.sandbox.protocol as protocol
import cp_queens.grading.tasks as tasks
import cp_queens.grading.tasks.variants as variants
from cp_queens.grading.intake.discover import Submission
from cp_queens.grading.results import Row, SizeResult, StudentResult
from cp_queens.grading.rubric import Rubric
from cp_queens.grading.sandbox.watch import StopReason
from cp_queens.grading.tasks.variants import Instances

#: How many submissions run at once by default: the grader's machine has its own work too.
DEFAULT_JOBS = 2


class GradingInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM during a class: the running rooms were stopped; ``results`` are
    the submissions graded before it (in the class's order), for marks.csv."""

    def __init__(self, results: list[StudentResult], total: int) -> None:
        super().__init__()
        self.results = results
        self.total = total


def grade_submissions(
    submissions: Sequence[Submission],
    sizes: Sequence[int],
    rubric: Rubric,
    jobs: int = DEFAULT_JOBS,
    on_done: Callable[[StudentResult], None] | None = None,
    variant: Instances | None = None,
) -> list[StudentResult]:
    """Run and judge each submission; the one path of a class, a file and ``check_model``.

    Whatever fails while one submission is run or judged (the machine, a bug of the
    grader) is that submission's row: the class always gets its marks. On Ctrl-C or
    SIGTERM the running rooms are stopped at once and ``GradingInterrupted`` carries the
    rows graded before it.
    """
    task = tasks.get(rubric.task)
    expected = {n: task.reference(n) for n in sizes}
    stopping = threading.Event()

    def judged(submission: Submission) -> StudentResult:
        if variant is None:
            result = _run_and_judge(submission, sizes, expected, rubric)
        else:  # the student's own boards: in the source the room runs, and to judge by
            instances = variant.instances(rubric.task, _student_key(submission), sizes)
            own = {n: task.reference(n, instances[n]) for n in sizes}
            source = submission.source + variants.wrapper(instances)
            mine = dataclasses.replace(submission, source=source)
            result = _run_and_judge(mine, sizes, own, rubric)
            result = variants.settle(result, instances, submission.source.count("\n") + 1)
        return result

    def one(submission: Submission) -> StudentResult:
        if stopping.is_set():
            raise _Stopped
        result = judged(submission)
        if stopping.is_set():
            raise _Stopped  # stopped by the interrupt, not by itself: not a mark
        if on_done is not None:
            on_done(result)
        return result

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    futures = [pool.submit(one, submission) for submission in submissions]
    try:
        while not all(future.done() for future in futures):
            wait(futures, timeout=0.2, return_when=FIRST_EXCEPTION)
        results = [future.result() for future in futures]
        # Near a limit: measured again, alone, after the class; the better run counts.
        results = borderline.rerun(
            results, lambda index: judged(submissions[index]), rubric.limits.memory_mb
        )
        return _flag_copies(results, submissions)
    except KeyboardInterrupt:
        stopping.set()
        for future in futures:
            future.cancel()
        _stop_rooms(futures)
        pool.shutdown(wait=True, cancel_futures=True)
        sandbox.resume()  # every run has returned: this process may grade again
        graded = [
            future.result()
            for future in futures
            if future.done() and not future.cancelled() and future.exception() is None
        ]
        raise GradingInterrupted(graded, len(submissions)) from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        sandbox.finish()


def _flag_copies(
    results: list[StudentResult], submissions: Sequence[Submission]
) -> list[StudentResult]:
    """A copy of a course file or of another student's submission, flagged for the
    lecturer (``flags``, never the feedback), and each one's nearest classmate. A
    submission the grader could not run (its row "not graded") is left out, as one
    refused when it was found."""
    read = [
        s.refused is None and result.status != "not graded" and bool(s.source.strip())
        for s, result in zip(submissions, results, strict=True)
    ]
    sources = [s.source if ok else None for s, ok in zip(submissions, read, strict=True)]
    prints = [
        copies.fingerprint(s.source, s.beside) if ok else None
        for s, ok in zip(submissions, read, strict=True)
    ]
    students = [result.student for result in results]
    said = copies.flags(students, prints, paths=[s.path for s in submissions])
    nearest = copies.described(students, copies.similarity(sources)) if len(results) > 1 else []
    return [
        dataclasses.replace(
            result,
            flags=(*result.flags, *(f"copy: {what}" for what in said[index])),
            nearest=nearest[index] if nearest else result.nearest,
        )
        for index, result in enumerate(results)
    ]


def _student_key(submission: Submission) -> str:
    """Whose instance (``--variant``): the roster's or LMS's id, else the submission's name."""
    return submission.student_id or submission.student


class _Stopped(Exception):
    """A submission whose run the interrupt stopped (or never started)."""


def _stop_rooms(futures: Sequence[Future[StudentResult]]) -> None:
    """Stop every running room now (``sandbox.stop_all``) and wait, a few seconds at most,
    until the running submissions have returned."""
    sandbox.stop_all()
    deadline = time.monotonic() + 4.0
    while time.monotonic() < deadline and not all(future.done() for future in futures):
        time.sleep(0.02)


def _run_and_judge(
    submission: Submission, sizes: Sequence[int], expected: dict[int, Any], rubric: Rubric
) -> StudentResult:
    """One submission's row, whatever happens: a failure of the machine or of the grader
    while it runs or is judged is said in its row, never the class's end."""
    outcome = sandbox.Outcome(isolation=rubric.limits.isolation)
    if submission.refused is None:
        try:
            # A reply is read only up to a few times what the right one costs to read.
            replies = {n: protocol.reply_budget(expected[n]) for n in sizes}
            outcome = sandbox.run(
                submission.source,
                list(sizes),
                rubric.limits,
                beside=dict(submission.beside) or None,
                replies=replies,
            )
        except OSError as error:  # the machine, not the student: say so in their row
            refused = f"the grader could not run it: {error}"
            submission = dataclasses.replace(submission, refused=refused)
        except Exception as error:  # a bug of the grader: the same
            refused = f"the grader could not run it: {type(error).__name__}: {error}"
            submission = dataclasses.replace(submission, refused=refused)
    try:
        result = judge_outcome(submission, outcome, sizes, expected, rubric)
        result = _guard_the_check(result, submission.source)
        # A cause the source shows, named first (the task's own reading of the source).
        return tasks.get(rubric.task).settle(result, submission.source, rubric)
    except Exception as error:  # a bug of the grader must not cost the class its marks
        problem = f"{type(error).__name__}: {str(error)[:200]}"
        result = judge_outcome(
            dataclasses.replace(
                submission, refused=f"the grader failed while judging it ({problem})"
            ),
            sandbox.Outcome(isolation=outcome.isolation),
            sizes,
            expected,
            rubric,
        )
        return dataclasses.replace(
            result,
            status="grader error",
            output=outcome.output,
            output_bytes=outcome.output_bytes,
            seconds=outcome.seconds,
            cpu_seconds=outcome.cpu_seconds,
        )


def judge_outcome(
    submission: Submission,
    outcome: sandbox.Outcome,
    sizes: Sequence[int],
    expected: dict[int, Any],
    rubric: Rubric,
) -> StudentResult:
    """Turn what the child sent, and how it ended, into checked sizes and points."""
    status = submission.status
    if submission.refused is not None and submission.status == "graded":
        status = "not graded"  # refused after it was found (the machine failed)
    result = StudentResult(
        submission.student,
        submission.path,
        output=outcome.output,
        output_bytes=outcome.output_bytes,
        seconds=outcome.seconds,
        cpu_seconds=outcome.cpu_seconds,
        task=rubric.task,
        isolation=outcome.isolation,
        cpu_limit=outcome.cpu_limit or float(rubric.limits.cpu_seconds),
        peak_memory=outcome.peak_memory,
        stopped=outcome.stopped,
        status=status,
        student_id=submission.student_id,
        keys=dict(submission.keys),
        entries=tuple(submission.entries),
    )
    if submission.refused is not None:
        not_run = (
            SizeResult(n, "not run", 0.0, rubric.points_for(n), None, "not run: not read")
            for n in sizes
        )
        return dataclasses.replace(
            result,
            notes=(f"not graded: {submission.refused}", *submission.notes),
            sizes=tuple(not_run),
        )
    graded = tasks.get(rubric.task)
    limits = rubric.limits
    notes: list[str] = []  # about the run as a whole
    sized: list[SizeResult] = []  # one per size, in order
    if outcome.isolation == "none":
        notes.append(
            "graded without a sandbox (isolation none): the limits held, the namespaces "
            "did not exist"
        )
    notes += submission.notes
    events = {(m.get("event"), m.get("n")): m for m in outcome.messages}
    load_error = events.get(("load_error", None)) or events.get(("setup_error", None))
    ended = _ending(outcome, rubric)
    notes += outcome.notes
    if outcome.garbled:
        notes.append(
            f"{outcome.garbled} line(s) on the grader's result channel were not the grader's: "
            "they were ignored"
        )
    if outcome.escaped:
        notes.append(
            f"{len(outcome.escaped)} process(es) of this run still ran outside its sandbox "
            "after it ended, and were killed: the sandbox did not hold (please report it)"
        )
    if outcome.survivors:
        notes.append(
            f"{len(outcome.survivors)} process(es) of this run could not be ended (still "
            f"there after the grader's kill: {', '.join(map(str, outcome.survivors))}); "
            "the machine needs a look (please report it)"
        )
    if outcome.output_bytes > limits.output_kb << 10:
        notes.append(
            f"printed {_size(outcome.output_bytes)}; the feedback keeps the first "
            f"{limits.output_kb} KB (printing does not cost points, but slows a model down)"
        )
    if load_error is not None and load_error.get("event") == "setup_error":
        notes.append(f"the grader could not set its limits: {load_error.get('error')}")
    elif load_error is not None:
        said = _explained(str(load_error.get("error")), submission, limits)
        problem = with_line(said, submission.source)
        notes.append(f"the file could not be loaded: {problem}")
    elif ("loaded", None) not in events:
        notes.append(f"the file could not be loaded: {ended[1]}")
    stopped_at: int | None = None
    for n in sizes:
        worth = rubric.points_for(n)
        message = events.get(("result", n))
        error = events.get(("error", n))
        forged = outcome.violations.get(n)
        if forged is not None:
            problem = f"model({n}): {forged}: no points for n={n}"
            row = graded.error_row(n, expected[n], problem)
            size = SizeResult(n, "violation", 0.0, worth, row, problem)
        elif message is not None:
            row = graded.judged(n, _decode_result(message), expected[n])
            if message.get("cut"):
                row = dataclasses.replace(
                    row,
                    error=f"model({n}) returned more than the {limits.result_mb} MB the grader "
                    "reads: an endless generator?",
                )
            size = SizeResult(n, _status(row), graded.points(row, worth, rubric), worth, row)
        elif error is not None:
            text = _explained(str(error.get("error")), submission, limits)
            status = "exit" if "sys.exit" in text else "error"
            problem = f"model({n}) {text}" if status == "exit" else f"model({n}) raised {text}"
            if text.startswith("BlockingIOError") and not limits.allow_processes:
                problem += (
                    " - submissions may not start processes (fork, subprocess, multiprocessing)"
                )
            if text.startswith("MemoryError"):
                status = "memory"
                problem = (
                    f"model({n}) used more than {limits.memory_mb} MB of memory (the limit) "
                    f"and got {text}"
                )
            row = graded.error_row(n, expected[n], problem)
            size = SizeResult(n, status, 0.0, worth, row, problem)
        elif ("start", n) in events:
            stopped_at = n
            status, problem = ended
            problem = f"model({n}): {problem}"
            row = graded.error_row(n, expected[n], problem)
            size = SizeResult(n, status, 0.0, worth, row, problem)
        else:
            if stopped_at is not None:
                problem = f"not run: the program had stopped at n={stopped_at}"
            elif load_error is not None or ("loaded", None) not in events:
                problem = "not run: the file could not be loaded"
            else:
                problem = "not run"
            size = SizeResult(n, "not run", 0.0, worth, None, problem)
        sized.append(
            dataclasses.replace(
                size, cpu_seconds=outcome.cpu_by_size.get(n), solver=events.get(("solver", n))
            )
        )
    return dataclasses.replace(result, notes=tuple(notes), sizes=tuple(sized))


#: What the grader says of a notebook handed in with its check cell (``check_model``).
GUARD = (
    "the grader runs every code cell of a notebook, the check cell too, and the cp_queens "
    'toolkit is not there: put the check under if __name__ == "__main__": (the '
    "grader's run is not __main__), or delete the cell before handing in"
)


def _guard_the_check(result: StudentResult, source: str) -> StudentResult:
    """A file that could not load because it imports the toolkit to check itself: the row
    with a note saying how to keep the check and hand the file in."""
    toolkit = any("toolkit is not available" in note for note in result.notes)
    if toolkit and "check_model" in source and GUARD not in result.notes:
        return dataclasses.replace(result, notes=(*result.notes, GUARD))
    return result


def _explained(text: str, submission: Submission, limits: sandbox.Limits) -> str:
    """An error with its reason and fix (``load_errors``): a module not allowed, the
    toolkit, a model under another name; the student will look for the reason."""
    return load_errors.explain(text, submission.source, limits.modules, submission.beside)


def _ending(outcome: sandbox.Outcome, rubric: Rubric) -> tuple[str, str]:
    """How the child ended, as (status, words) for the size it was working on."""
    limits = rubric.limits
    if outcome.stopped == StopReason.MEMORY:
        return (
            "memory",
            f"used more than {limits.memory_mb} MB of memory (the limit: the resident memory "
            "of all its threads and processes, and the files it keeps in /scratch, /tmp and "
            "/dev/shm): it was stopped",
        )
    if outcome.stopped == StopReason.PROCESSES:
        return (
            "crashed",
            f"ran more than {sandbox.SPARE_PROCESSES} processes or {sandbox.TASKS} threads at "
            "once: it was stopped",
        )
    if outcome.stopped == StopReason.WALL:
        return (
            "timeout",
            f"spent {limits.wall_seconds:g} s neither computing nor waiting for a CPU (the "
            f"limit): sleeping, or waiting for input? It used {outcome.cpu_seconds:.1f} s of "
            "CPU",
        )
    if outcome.stopped == StopReason.BACKSTOP:
        return (
            "timeout",
            f"still running after {outcome.seconds:.0f} s of real time on a machine too busy "
            f"to finish it ({outcome.cpu_seconds:.1f} s of CPU used, the limit is "
            f"{limits.cpu_seconds} s): not the submission's fault; grade it again with fewer "
            "submissions at a time",
        )
    if outcome.stopped == StopReason.RESULT:
        return "too much", (
            f"returned more than the grader reads: {limits.result_mb} MB in all, and for one "
            f"size {protocol.FACTOR} times what its right answer takes (at least "
            f"{protocol.LEAST >> 20} MB of the grader's memory): it was stopped"
        )
    sig = outcome.signal
    allowed = outcome.cpu_limit or float(limits.cpu_seconds)
    if (
        outcome.stopped == StopReason.CPU  # the watcher's verdict, else the kernel's signal
        or sig == signal.SIGXCPU
        or (sig == signal.SIGKILL and outcome.cpu_seconds >= allowed)
    ):
        per_thread = (
            f" ({allowed / limits.cpu_seconds:g} solver threads x {limits.cpu_seconds} s)"
            if allowed > limits.cpu_seconds
            else ""
        )
        # What was measured, never the limit printed back as a measurement.
        return (
            "cpu limit",
            f"too slow: stopped after {outcome.cpu_seconds:.2f} s of CPU (every thread and "
            f"process, measured), the limit is {allowed:g} s{per_thread}",
        )
    if sig is not None:
        name = signal.Signals(sig).name
        maybe = " (out of memory?)" if sig in (signal.SIGKILL, signal.SIGABRT) else ""
        return "crashed", f"the process was ended by signal {name}{maybe}"
    return (
        "exit",
        f"the program ended with exit code {outcome.returncode} (os._exit, or a crash in "
        "compiled code?)",
    )


def _status(row: Row) -> str:
    return "error" if row.error is not None else row.verdict()


def with_line(error: str, source: str) -> str:
    """A load error with the line it happened on: a ``SyntaxError`` raised while compiling
    has no frame of the submission, so its line is found here by compiling the source again
    (compiling runs none of it)."""
    if (
        "(line " in error
        or ", line " in error
        or not error.startswith(("SyntaxError", "IndentationError", "TabError"))
    ):
        return error
    try:
        compile(source, "submission", "exec")
    except SyntaxError as problem:
        if problem.lineno is not None:
            return f"{error} (line {problem.lineno})"
    except (ValueError, RecursionError, MemoryError):
        pass
    return error


class _Opaque:
    """Something the child could only describe (an object of the student's own class)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _decode_result(message: dict[str, Any]) -> Any:
    """What ``model(n)`` returned, rebuilt from the child's plain JSON."""
    kind = message.get("kind")
    if kind == "items":
        items = [_decode(item) for item in message.get("items", [])]
        return items if message.get("sized") else iter(items)
    return _decode(message.get("value"))


def _decode(value: Any, depth: int = 0) -> Any:
    if depth > 8:
        return _Opaque("<nested too deep>")
    if isinstance(value, list):
        return [_decode(v, depth + 1) for v in value]
    if isinstance(value, dict):
        if "__map__" in value and isinstance(value["__map__"], list):
            mapping = {}
            for pair in value["__map__"]:
                if isinstance(pair, list) and len(pair) == 2:
                    mapping[_key(_decode(pair[0], depth + 1))] = _decode(pair[1], depth + 1)
            return mapping
        return _Opaque(str(value.get("__repr__", "<object>")))
    return value


def _key(value: Any) -> Any:
    """A decoded mapping's key, hashable: a list as a tuple, a mapping (a student's
    hashable ``Mapping`` used as a key) or an object by its description."""
    if isinstance(value, list):
        return tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return repr(value)
    return value if not isinstance(value, _Opaque) else value.text


def _size(count: int) -> str:
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
