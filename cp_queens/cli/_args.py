"""Argument types: each turns one command-line word into a checked value, or one error
line naming the word. Where the library has a checker (time limits, workers, seeds),
the type calls it, so a value is judged the same way whichever door it came through."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import cp_queens.engines as engines
from cp_queens.engines import DECIMAL_NUMBER, WHOLE_NUMBER
from cp_queens.errors import CpQueensError


def whole_number(text: str) -> int | None:
    """``text`` as an int when it is a plain ASCII decimal integer, else ``None``.

    ``int()`` takes more: ``1_000``, `` 8 `` and the digits of every script
    (``int("\u0668")``, Arabic-Indic eight, is 8), so a stray character could
    turn into a board size nobody typed.

    Examples:
        >>> whole_number("12"), whole_number("-3"), whole_number("1_000"), whole_number("\u0668")
        (12, -3, None, None)
    """
    if WHOLE_NUMBER.fullmatch(text) is None:
        return None
    try:
        return int(text)
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        return None


def _shown(text: str) -> str:
    """``text`` quoted for an error line, cut short if long."""
    return repr(text) if len(text) <= 40 else repr(text[:37] + "...")


def _whole(text: str, minimum: int, check: Callable[[int], object] | None = None) -> int:
    """``text`` as a whole number >= ``minimum``, then through the library's ``check``."""
    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_shown(text)}")
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected a number >= {minimum}, got {value}")
    if check is not None:
        try:
            check(value)
        except CpQueensError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return value


def board_size(text: str) -> int:
    """argparse type for N: a whole number, checked by ``cp_queens.problem.check_size``
    (the check every ``Problem`` makes)."""
    from cp_queens.problem import check_size

    return _whole(text, -(1 << 62), check_size)


def non_negative_int(text: str) -> int:
    """argparse type for counts such as --limit and --solver-workers: a whole number >= 0."""
    return _whole(text, 0)


def workers_value(text: str) -> int:
    """argparse type for --workers: local processes, checked (capped at the cores, with
    one warning) by ``cp_queens.budget.check_workers``, the check of the library's
    ``workers=``. ``0`` means every core."""
    from cp_queens.budget import check_workers

    value = _whole(text, 0)
    checked = check_workers(value)
    assert checked is not None
    return checked


def seed_value(text: str) -> int:
    """argparse type for --seed: a whole number every seeded engine takes (0 .. 2**31 - 1)."""
    from cp_queens.engines.base import SEED_RANGE

    value = whole_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {_shown(text)}")
    if value not in SEED_RANGE:
        raise argparse.ArgumentTypeError(
            f"expected a seed from 0 to {SEED_RANGE[-1]}, got {_shown(text)}"
        )
    return value


def fraction(text: str) -> float:
    """argparse type for --recheck: a plain decimal from 0 to 1, checked by the library's
    one checker, ``cp_queens.budget.check_recheck``."""
    from cp_queens.budget import check_recheck

    try:
        if DECIMAL_NUMBER.fullmatch(text) is None:
            raise ValueError(text)
        checked = check_recheck(float(text))
    except (ValueError, CpQueensError):
        raise argparse.ArgumentTypeError(
            f"expected a fraction from 0 to 1, got {_shown(text)}"
        ) from None
    assert checked is not None
    return checked


def positive_seconds(text: str) -> float:
    """argparse type for --time-limit: seconds as a plain decimal (``float()`` also
    takes ``1_0``, spaces and other scripts' digits), checked where a ``Budget`` is
    made (its one check, ``cp_queens.budget.check_time_limit``), in its words, before
    the command reads any input."""
    from cp_queens.budget import Budget
    from cp_queens.errors import RunSettingError

    try:
        if DECIMAL_NUMBER.fullmatch(text) is None:
            raise ValueError(text)
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {_shown(text)}") from None
    try:
        checked = Budget(time_limit=value).time_limit
    except RunSettingError as error:
        raise argparse.ArgumentTypeError(f"expected {error.rule}, got {_shown(text)}") from None
    assert checked is not None
    return checked


def engine_name(text: str) -> str:
    """argparse type: a registered engine name, alone or with options (``NAME:KEY=VALUE...``).

    The name is checked here, with the known names in the error; the options when
    the engine is built (``make_engine``).
    """
    known = engines.names()
    name = text.split(":", 1)[0].strip()
    if name not in known:
        raise argparse.ArgumentTypeError(
            f"unknown engine {name!r} (choose from {', '.join(known)})"
        )
    return text
