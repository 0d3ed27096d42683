"""Points kept exact until they are shown: a mark that a rounding cannot move.

A size earns its worth times a share, and a share is a ratio of counts (723 of 724
solutions found). Rounded per size to two decimals, a submission missing one of the 724
solutions of n = 10 scored 2 of 2 points, and at n = 12 up to 36 wrong boards among
14,200 went unseen: full marks, exit 0 from ``cp-queens grade FILE``, while the status
said "1 missing". So points are ``fractions.Fraction`` from the share to the total
(a rubric's decimal numbers read as the decimals they are written as, ``0.1`` as 1/10),
and only ``shown`` rounds, for a person to read: to two decimals, but never up to the
maximum that was not reached (12.999 of 13 is shown 12.99, not 13).

Examples:
    >>> from fractions import Fraction
    >>> total = exact(2) * Fraction(723, 724)
    >>> total < 2, shown(total, most=2), shown(exact(0.1) * 3)
    (True, '1.99', '0.3')
"""

from __future__ import annotations

import math
from fractions import Fraction

Number = int | float | Fraction


def exact(value: Number | str) -> Fraction:
    """``value`` as a fraction: an int as it is, a float as the decimal it prints as (the
    rubric's ``0.1`` is 1/10, not the binary double nearest it), text as written."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise TypeError("points are numbers, not booleans")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"points must be finite, got {value!r}")
        return Fraction(repr(value))
    return Fraction(value)


def total(values: list[Number]) -> Fraction:
    """The exact sum of ``values``."""
    return sum((exact(value) for value in values), Fraction(0))


def shown(value: Number, most: Number | None = None) -> str:
    """``value`` to two decimals, without trailing zeros (``13``, ``8.35``, ``1.5``),
    rounded half to even; but a total below ``most`` is never shown as ``most``."""
    exact_value = exact(value)
    hundredths = round(exact_value * 100)
    if most is not None and exact_value < exact(most) and hundredths >= exact(most) * 100:
        hundredths = math.floor(exact_value * 100)
    return _decimal(hundredths)


def _decimal(hundredths: int) -> str:
    sign = "-" if hundredths < 0 else ""
    whole, part = divmod(abs(hundredths), 100)
    if part == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{part:02d}".rstrip("0")
