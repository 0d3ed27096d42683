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
from collections.abc import Callable

from cp_queens.errors import ParseError

#: Digits of a JSON integer read at most: no board, column or count comes near (n = 27,
#: the largest board ever counted, has 18 digits), and Python refuses to convert past
#: 4300 digits with a ValueError that named neither the file nor the number.
MAX_DIGITS = 100

# One token at a time: a string (skipped whole), an opening bracket (group 1) or a closing
# one (group 2). Possessive (Python 3.11+): no backtracking point is kept per character,
# so a string of 4 MB of escapes costs no memory (the plain pattern kept ~50 bytes a
# character). Tokens are scanned, never collected: cutting the text into pieces first
# (``re.sub``) cost an object per piece, ~110 MB for 4 MB of ``{},{},...``.
_TOKENS = re.compile(r'"(?:[^"\\]++|\\.)*+"|([\[{])|([\]}])')


def check_json_depth(text: str, deepest: int, name: str) -> None:
    """Refuse JSON nested deeper than ``deepest`` before decoding it: the decoder
    recurses, and ``[[[[...`` a hundred thousand deep would exhaust its stack.

    Examples:
        >>> check_json_depth('{"a": [1, "]]]"]}', 2, "f")
        >>> check_json_depth("[[[]]]", 2, "f")
        Traceback (most recent call last):
        ...
        cp_queens.errors.ParseError: f: JSON nested more than 2 deep; this is not a board
    """
    depth = 0
    for token in _TOKENS.finditer(text):
        if token.lastindex == 1:
            depth += 1
            if depth > deepest:
                raise ParseError(
                    f"{name}: JSON nested more than {deepest} deep; this is not a board"
                )
        elif token.lastindex == 2:
            depth -= 1


def whole_numbers(name: str) -> Callable[[str], int]:
    """A ``parse_int`` for ``json.loads`` that refuses an integer of more than
    ``MAX_DIGITS`` digits as bad input (``ParseError``, naming ``name``).

    Examples:
        >>> import json
        >>> json.loads("[1, 2]", parse_int=whole_numbers("f"))
        [1, 2]
        >>> json.loads("[" + "9" * 101 + "]", parse_int=whole_numbers("f:1"))
        Traceback (most recent call last):
        ...
        cp_queens.errors.ParseError: f:1: a number of 101 digits (999999999999...); \
no board, column or count has more than 100
    """

    def parse(digits: str) -> int:
        size = len(digits.lstrip("-"))
        if size > MAX_DIGITS:
            raise ParseError(
                f"{name}: a number of {size:,} digits ({digits[:12]}...); "
                f"no board, column or count has more than {MAX_DIGITS}"
            )
        return int(digits)

    return parse
