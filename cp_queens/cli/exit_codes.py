"""What each exit code of ``cp-queens`` means, defined once for every command.

A script that calls ``cp-queens`` must be able to tell a proven "no" from a
crash, and a complete answer from one cut short by the time limit; so each
outcome has its own code, and every command uses this table (also printed by
``cp-queens --help`` and in ``docs/exit-codes.md``).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Exit codes of ``cp-queens``; the docstring of each member is its line in ``--help``."""

    #: An answer: a solution, a count, every placement valid.
    OK = 0
    #: A proven negative: no solution exists, a placement is invalid, nothing to check.
    NEGATIVE = 1
    #: Bad input: an argument or the content of an input file is wrong (one line on stderr).
    BAD_INPUT = 2
    #: Two engines gave different answers to one question: a bug in one of them.
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
    ExitCode.DISAGREE: "two engines disagree (a bug in one of them)",
    ExitCode.TIME_LIMIT: "stopped by --time-limit: the answer is incomplete",
    ExitCode.INTERNAL_ERROR: "internal error, a bug (--debug or CP_QUEENS_DEBUG=1 shows it)",
    ExitCode.SOLVER_FAILED: "a solver failed: crashed, hung, out of memory (one line on stderr)",
    ExitCode.IO_ERROR: "reading or writing failed (disk full, closed stream, lost cluster)",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C, SIGTERM); finished work is kept",
    ExitCode.CLOSED_PIPE: "the reader of stdout went away (| head): quiet, as for SIGPIPE",
}


def table() -> str:
    """The exit codes as an indented table for ``--help``."""
    lines = ["exit codes:"]
    lines.extend(f"  {int(code):>3}  {text}" for code, text in MEANINGS.items())
    return "\n".join(lines) + "\n"
