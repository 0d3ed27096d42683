"""What each exit code of ``cp-queens`` means, defined once for every command.

A script that calls ``cp-queens`` must be able to tell a proven "no" from a
crash, and a complete answer from one cut short by the time limit; so each
outcome has its own code, and every command uses this table (also printed by
``cp-queens --help`` and in ``docs/exit-codes.md``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from cp_queens.answer import ANSWER, DISAGREE, INCOMPLETE, NEGATIVE

if TYPE_CHECKING:
    from cp_queens.answer import Answer


class ExitCode(IntEnum):
    """Exit codes of ``cp-queens``; the docstring of each member is its line in ``--help``."""

    #: An answer: a solution, a count, every placement valid.
    OK = 0
    #: A proven negative: no solution exists, a placement is invalid, nothing to check.
    NEGATIVE = 1
    #: Bad input: an argument or the content of an input file is wrong (one line on stderr).
    BAD_INPUT = 2
    #: Two engines gave different answers to one question, or the independent verifier
    #: refused an engine's placement: a bug in one of them.
    DISAGREE = 3
    #: Stopped by --time-limit: the answer is incomplete (what was written is whole).
    TIME_LIMIT = 4
    #: A solver we run failed: it crashed, hung past the time limit, outgrew the
    #: memory, or an external solver (minizinc) did not answer (one line on stderr).
    SOLVER_FAILED = 69
    #: Reading or writing failed (disk full, closed stream, unwritable file, a Dask
    #: scheduler lost mid-run).
    IO_ERROR = 74
    #: An internal error: a bug in cp-queens (run with --debug for the traceback).
    INTERNAL_ERROR = 70
    #: Interrupted by Ctrl-C (SIGINT) or SIGTERM; finished work is kept.
    INTERRUPTED = 130
    #: The reader of stdout went away (``| head``): nothing said, the code of a process
    #: ended by SIGPIPE (128 + 13), as ``seq`` or ``yes`` would give under ``pipefail``.
    CLOSED_PIPE = 141


#: One line per code, for ``--help`` and the docs.
MEANINGS: dict[ExitCode, str] = {
    ExitCode.OK: "an answer: a solution, a count, every placement valid",
    ExitCode.NEGATIVE: "a proven negative: no solution, an invalid placement, nothing to check",
    ExitCode.BAD_INPUT: "bad input: a wrong argument or unreadable input (one line on stderr)",
    ExitCode.DISAGREE: "two engines disagree, or the verifier refused an answer (a bug)",
    ExitCode.TIME_LIMIT: "stopped by --time-limit: the answer is incomplete",
    ExitCode.INTERNAL_ERROR: "internal error, a bug (--debug or CP_QUEENS_DEBUG=1 shows it)",
    ExitCode.SOLVER_FAILED: "a solver failed: crashed, hung, out of memory (one line on stderr)",
    ExitCode.IO_ERROR: "reading or writing failed (disk full, closed stream, lost cluster)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C, SIGTERM); finished work is kept",
    ExitCode.CLOSED_PIPE: "the reader of stdout went away (a closed pipe): quiet, as for SIGPIPE",
}


#: The exit code of each outcome of an ``Answer``: every answering command ends with it.
OUTCOMES: dict[str, ExitCode] = {
    ANSWER: ExitCode.OK,
    NEGATIVE: ExitCode.NEGATIVE,
    DISAGREE: ExitCode.DISAGREE,
    INCOMPLETE: ExitCode.TIME_LIMIT,
}


def of(answer: Answer) -> ExitCode:
    """The exit code of ``answer``: 0, 1 (a proven no), 3 (engines disagree) or 4 (cut short)."""
    return OUTCOMES[answer.outcome]


#: What each code means for each answering command, in its own words: the one table the
#: command pages (``<!-- exit-codes CMD -->`` in docs/commands/) and the ``--help`` of
#: ``complete`` are written from. Every command may also end with 69, 70, 74, 130 or 141.
BY_COMMAND: dict[str, dict[ExitCode, str]] = {
    "solve": {
        ExitCode.OK: "a solution",
        ExitCode.NEGATIVE: "no solution exists (proven)",
        ExitCode.BAD_INPUT: "bad input",
        ExitCode.DISAGREE: "the independent verifier refused the engine's placement",
        ExitCode.TIME_LIMIT: "none found within --time-limit (none is not proven)",
    },
    "count": {
        ExitCode.OK: "the count",
        ExitCode.BAD_INPUT: "bad input",
        ExitCode.TIME_LIMIT: "cut short by --time-limit (a lower bound, not the answer)",
    },
    "enumerate": {
        ExitCode.OK: "every solution written",
        ExitCode.NEGATIVE: "no solution exists",
        ExitCode.BAD_INPUT: "bad input",
        ExitCode.DISAGREE: "the verifier refused a placement (those before it were written)",
        ExitCode.TIME_LIMIT: "stopped by --time-limit (what was written is whole; the list is not)",
    },
    "verify": {
        ExitCode.OK: "every placement valid",
        ExitCode.NEGATIVE: "one is not, or not as many as --expect, or nothing to check",
        ExitCode.BAD_INPUT: "unreadable input",
    },
    "check": {
        ExitCode.OK: "every solution, each exactly once",
        ExitCode.NEGATIVE: "a solution missing, a placement invalid or repeated",
        ExitCode.BAD_INPUT: "unreadable input or N too large",
    },
    "complete": {
        ExitCode.OK: "completed",
        ExitCode.NEGATIVE: "no completion exists",
        ExitCode.BAD_INPUT: "unreadable input or given queens that attack each other",
        ExitCode.DISAGREE: "the engines named by --engine and --cross-check disagree",
        ExitCode.TIME_LIMIT: "stopped by --time-limit",
    },
    "compare": {
        ExitCode.OK: "the table",
        ExitCode.BAD_INPUT: "a bad --n, --engines or --task",
        ExitCode.DISAGREE: "finished engines disagree on a count (agrees = NO)",
    },
    "grade": {
        ExitCode.OK: "graded: a class (whatever its marks), or one FILE with full marks",
        ExitCode.NEGATIVE: "one FILE below full marks",
        ExitCode.BAD_INPUT: "a bad folder, file, --n, rubric or overrides",
    },
    "dominate": {
        ExitCode.OK: "a smallest set, proven",
        ExitCode.BAD_INPUT: "bad input",
        ExitCode.TIME_LIMIT: "stopped by --time-limit (the best set found, its bound and gap)",
    },
}


def command_codes(command: str) -> str:
    """One line of ``command``'s exit codes, e.g. ``0 a solution, 1 ..., 4 ...``.

    Examples:
        >>> command_codes("compare")
        '0 the table, 2 a bad --n, --engines or --task, 3 finished engines disagree on a count (agrees = NO)'
    """  # noqa: E501
    return ", ".join(f"{int(code)} {text}" for code, text in BY_COMMAND[command].items())


def table() -> str:
    """The exit codes as an indented table for ``--help``."""
    lines = ["exit codes:"]
    lines.extend(f"  {int(code):>3}  {text}" for code, text in MEANINGS.items())
    return "\n".join(lines) + "\n"
