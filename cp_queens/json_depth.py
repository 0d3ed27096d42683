"""A guard run before decoding JSON from outside: refuse nesting deeper than expected.

Python's JSON decoder recurses, so ``[[[[...`` a hundred thousand deep exhausts its
stack. Readers of placements (``cp_queens.formats``), partial boards
(``cp_queens.partial``) and checkpoints (``cp_queens.parallel.checkpoint``) all
need the guard; it lives here, below all of them, so that none has to import another
for it (a checkpoint importing ``formats`` closed an import cycle through the fast
engine, whose block parser ``formats`` uses).
"""

from __future__ import annotations

import re

from cp_queens.errors import ParseError

# Possessive (Python 3.11+): no backtracking point is kept per character, so a string
# of 4 MB of escapes costs no memory (the plain pattern kept ~50 bytes a character).
_JSON_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"')
_BRACKETS = re.compile(r"[^\[\]{}]+")


def check_json_depth(text: str, deepest: int, name: str) -> None:
    """Refuse JSON nested deeper than ``deepest`` before decoding it: the decoder
    recurses, and ``[[[[...`` a hundred thousand deep would exhaust its stack."""
    depth = 0
    for bracket in _BRACKETS.sub("", _JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        if depth > deepest:
            raise ParseError(f"{name}: JSON nested more than {deepest} deep; this is not a board")
