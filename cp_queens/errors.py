"""Every error a user can cause, as one family of exceptions.

The CLI catches ``CpQueensError`` and prints its message on one line with
exit code 2, so each message must say *what* is wrong and *where* on its own.
They subclass ``ValueError`` because each one is a bad value handed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from cp_queens.stats import Stats


class CpQueensError(ValueError):
    """Base class: a problem with what the user asked for, never a bug."""


class InvalidProblemError(CpQueensError):
    """The board size or the pre-placed queens do not describe a valid problem."""


class AttackingQueensError(InvalidProblemError):
    """Two given queens attack each other; the message names both."""


class InvalidPlacementError(CpQueensError):
    """A sequence of columns is not a placement of the right shape."""


class ParseError(CpQueensError):
    """A file or string could not be read; the message names the line (and column)."""


class UnknownEngineError(CpQueensError):
    """No engine is registered under the requested name."""


class UnsupportedTaskError(CpQueensError):
    """An engine was asked for something it cannot do (a constructor cannot enumerate)."""


class EngineOptionError(CpQueensError):
    """An engine was given an option it does not take, or a value it cannot use."""


class RunSettingError(CpQueensError):
    """A run setting of a ``Budget`` out of range: ``setting`` names it, ``rule`` says
    what it must be (``"a finite number of seconds > 0"``), so that the command line words
    the same rule for its flag."""

    def __init__(self, setting: str, rule: str, shown: str) -> None:
        super().__init__(f"{setting} must be {rule}, got {shown}")
        self.setting = setting
        self.rule = rule


class ClusterLostError(CpQueensError):
    """The executor of a parallel run went away mid-run (a Dask scheduler stopped); the
    message says how far the run got and where the finished work is saved. The CLI
    exits with its I/O code: nothing was wrong with the request."""


class MainGuardError(CpQueensError):
    """Worker processes would run the calling script again: its call to ``cp_queens``
    stands outside ``if __name__ == "__main__":`` and the work they run is defined in
    the script, so they start by importing it."""


class SolverFailedError(CpQueensError):
    """A solver we run failed, not the request: a solver process that crashed, hung
    past the call's deadline or grew beyond the memory a call may plan on, or an
    external solver that does not answer. The message is one line, with the solver's
    own last words where it left any; the CLI exits with its own code (69)."""


class InvalidAnswerError(RuntimeError):
    """An engine answered a placement the independent verifier (``cp_queens.verify``)
    refuses: a bug in the engine or in its model (a constraint left out), never in the
    request. The message names the engine and the first attacking pair."""


class CpQueensWarning(UserWarning):
    """Something was adjusted to what helps (e.g. workers capped at the cores); the CLI
    prints it as one ``cp-queens: warning:`` line."""


#: What an incomplete answer carries (see ``IncompleteError.partial``).
Partial = TypeVar("Partial")


class IncompleteError(RuntimeError, Generic[Partial]):
    """A call stopped before its answer was whole; nothing was wrong with the request.

    Not a ``CpQueensError`` (the CLI's exit code 2 is for bad input): the answer is
    simply not all there. ``partial`` is what was found so far - a count found so far
    (a lower bound), a ``UniqueCount`` of lower bounds, the number of solutions a stream
    yielded, or ``None`` when a search for one solution found none in time - and
    ``stats`` the call's ``Stats`` (every engine gives them; ``None`` only when raised
    without).

    Generic in the type of ``partial``, which depends on the call that raised: caught
    as ``except TimeLimitError as err``, ``err.partial`` is unknown to a type checker
    (``Any``), so ``total: int | None = err.partial`` passes ``mypy --strict`` in the
    caller's code, where the call it wrapped says which type it is.
    """

    def __init__(
        self, message: str, *, partial: Partial | None = None, stats: Stats | None = None
    ) -> None:
        super().__init__(message)
        self.partial: Partial | None = partial
        self.stats: Stats | None = stats


class TimeLimitError(IncompleteError[Partial]):
    """The time limit ran out before the answer was complete (see ``IncompleteError``)."""
