"""Files from outside read as their makers wrote them, and never more than a cap.

A lecturer's rubric, overrides and roster come from editors and spreadsheets:
Windows Notepad writes a UTF-8 byte-order mark, Excel's "CSV UTF-8" too, and
some editors save UTF-16. A student's source comes from the same editors, and
Python reads it by its own rules (PEP 263: a BOM, or a ``coding:`` cookie in
the first two lines; else UTF-8). Here each is decoded by the rules its reader
would use, and read through a cap: ``--rubric /dev/zero`` is refused after a
megabyte instead of filling the memory.

Examples:
    >>> decode_config(b"\\xef\\xbb\\xbfname = 'x'\\n", "r.toml")
    "name = 'x'\\n"
    >>> decode_config("a,b\\n".encode("utf-16"), "o.csv")
    'a,b\\n'
    >>> decode_source(b"\\xef\\xbb\\xbfx = 1\\n")
    'x = 1\\n'
    >>> decode_source(b"# -*- coding: latin-1 -*-\\ns = '\\xe9'\\n")[-4:]
    "'é'\\n"
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import tokenize
from pathlib import Path

from cp_queens.errors import CpQueensError

#: The largest rubric, overrides or roster file read (a class list of 10,000 students
#: is about 1 MB).
CONFIG_BYTES = 4 << 20

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE: its BOM starts the same way
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


class TextFileError(CpQueensError):
    """A file that is too large, not a file, or not text in an encoding we read."""


def read_capped(path: str | Path, cap: int, what: str) -> bytes:
    """The bytes of the file at ``path``, refused past ``cap`` bytes (read to ``cap + 1``,
    whatever its size says: ``/dev/zero`` says 0) and when it is a folder or a FIFO (a
    FIFO would wait forever for a writer)."""
    where = Path(path)
    try:
        mode = os.stat(where).st_mode
    except FileNotFoundError:
        raise TextFileError(f"{where}: no such {what}") from None
    except OSError as error:
        raise TextFileError(f"{where}: cannot read the {what}: {error.strerror}") from None
    if stat.S_ISDIR(mode):
        raise TextFileError(f"{where}: a folder, not a {what}")
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise TextFileError(f"{where}: a pipe or socket, not a {what}")
    try:
        with open(where, "rb") as handle:
            data = handle.read(cap + 1)
    except OSError as error:
        raise TextFileError(f"{where}: cannot read the {what}: {error.strerror}") from None
    if len(data) > cap:
        raise TextFileError(f"{where}: larger than {cap >> 20} MB: not a {what}")
    return data


def decode_config(data: bytes, name: str) -> str:
    """Text of a lecturer's file: UTF-8 or UTF-16/32 with a byte-order mark, else UTF-8
    (the BOM is dropped); one line naming the file when it is neither."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding)
            except UnicodeDecodeError as error:
                raise TextFileError(
                    f"{name}: not valid {encoding.upper()}: {error.reason}"
                ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise TextFileError(
            f"{name}: line {line}: not UTF-8 (save it as UTF-8, or UTF-16 with a byte-order mark)"
        ) from None


def decode_source(data: bytes) -> str:
    """Python source as ``python3 file.py`` reads it (``tokenize.open``'s rules: a UTF-8
    BOM, a coding cookie, else UTF-8), BOM removed; ``SyntaxError`` when Python could
    not read it either (an unknown encoding, bytes that are not the declared one)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError) as error:
        line = data[: getattr(error, "start", 0)].count(b"\n") + 1
        raise SyntaxError(
            f"line {line}: not valid {encoding}: Python cannot read the file"
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def read_source(data: bytes) -> tuple[str, str | None]:
    """A student's source as Python reads it (``decode_source``), else, when it declares
    no encoding and is not UTF-8, as Windows-1252 (what Notepad's "ANSI" saves in Western
    Europe and the Americas): the text, and a note saying which line is not UTF-8 and to
    save it as UTF-8. ``SyntaxError`` naming the line and the fix when neither reads it.

    Examples:
        >>> read_source("é = 1\\n".encode("cp1252"))
        ('é = 1\\n', 'read as Windows-1252: line 1 is not UTF-8 (save the file as UTF-8)')
    """
    try:
        return decode_source(data), None
    except SyntaxError as error:
        declared = _declared(data)
        try:
            data.decode("utf-8")
            line = 0
        except UnicodeDecodeError as bad:
            line = data[: bad.start].count(b"\n") + 1
        if declared or not line:
            raise SyntaxError(f"{error.msg} (save the file as UTF-8)") from None
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise SyntaxError(
                f"line {line}: not UTF-8 and no encoding declared: save the file as UTF-8"
            ) from None
        return text, f"read as Windows-1252: line {line} is not UTF-8 (save the file as UTF-8)"


def _declared(data: bytes) -> bool:
    """Does the file say its encoding (a byte-order mark, a coding cookie in its first two
    lines, PEP 263)?"""
    if any(data.startswith(bom) for bom, _ in _BOMS):
        return True
    head = b"\n".join(data.split(b"\n", 2)[:2])
    return re.search(rb"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+", head, re.MULTILINE) is not None
