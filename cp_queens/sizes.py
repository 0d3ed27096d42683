"""The one grammar of a list of board sizes, every command's ``--n RANGE``: ``8``, ``4..12``
(inclusive, spaces allowed around ``..``), or parts of those joined by commas.

``compare`` and ``grade`` read a list of sizes with ``ranges`` and differ only in their
bounds (a comparison goes up to 10**9, the grader to its task's largest board), so a text
one of them reads the other reads too, and one it cannot read neither can.

Examples:
    >>> ranges("4 .. 6, 9")
    [('4 .. 6', 4, 6), ('9', 9, 9)]
    >>> ranges("4-9")
    Traceback (most recent call last):
    ...
    cp_queens.sizes.UnreadableSize: 4-9
"""

from __future__ import annotations

import re

#: One part: ``8`` or ``4..12``, ASCII digits only (``int`` would also read ``1_000`` and
#: other scripts' digits), a sign allowed (a size below 1 is then a bound's refusal).
_PART = re.compile(r"(?P<low>[+-]?[0-9]{1,40})(?:\s*\.\.\s*(?P<high>[+-]?[0-9]{1,40}))?")


class UnreadableSize(ValueError):
    """A part of the list that is no size and no range; ``args[0]`` is the part."""


def ranges(text: str) -> list[tuple[str, int, int]]:
    """Each comma-separated part of ``text`` as ``(part, low, high)`` (``high`` is ``low``
    for one size), in the order written; ``UnreadableSize`` for the first part that is
    neither a size nor a range (the caller words it and checks the bounds)."""
    found = []
    for part in text.split(","):
        part = part.strip()
        match = _PART.fullmatch(part)
        if match is None:
            raise UnreadableSize(part)
        low = int(match["low"])
        found.append((part, low, low if match["high"] is None else int(match["high"])))
    return found
