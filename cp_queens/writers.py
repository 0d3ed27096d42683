"""Every output format, one entry each: what any command writes is an ``Answer`` in one
of these.

A ``Format`` says what it can do (draw one placement, stream many, write a whole
answer as one document, read placements back) and how; commands choose among the
formats that can do what they need (``choices``), open a ``Sink`` on their output,
and hand it their placements and their ``Answer``. Adding a format is one new entry
in ``FORMATS`` (or one ``register`` call): the commands' ``--format`` choices, their
``--help`` and the writing all follow from it.

What goes where (``docs/exit-codes.md``): the answer on stdout (or ``-o``); a partial
figure never goes where an answer goes: ``stopped_line`` says it on stderr, and the
``json`` document keeps it under ``partial``, never ``value``.

Examples:
    >>> from cp_queens.problem import Placement
    >>> print(FORMATS["jsonl"].draw(Placement([1, 3, 0, 2]), None), end="")
    [1, 3, 0, 2]
    >>> choices("draw")
    ('boards', 'jsonl', 'csv', 'unicode', 'svg')
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from cp_queens.answer import ANSWER, Answer
from cp_queens.problem import Placement, Problem
from cp_queens.render import TEXT_UP_TO
from cp_queens.wording import answer_text, stopped_line

__all__ = [
    "FORMATS",
    "Format",
    "Sink",
    "answer_text",
    "choices",
    "format_help",
    "format_of_file",
    "goes_out",
    "register",
    "stopped_line",
    "write_answer",
]


@dataclass(frozen=True)
class Format:
    """One output format: its name, its line of ``--help``, and what it can do.

    Attributes:
        name: what ``--format`` takes.
        help: a few words for ``--help``.
        draw: one placement as text ending with a newline (given queens of the problem
            may be marked); ``None`` for a format that draws no placement.
        header: the text before the first placement of a stream, given n (csv).
        between: the text between two placements (boards: a blank line).
        block: a NumPy ``(k, n)`` block of placements as text, for millions of lines.
        lines: every line is a whole record (a failed write is cut back to a line).
        many: a stream of many placements can be written (a picture holds one).
        up_to: the largest board it draws (``None``: any).
        document: writes the whole ``Answer`` as one document (json).
        summary: a format for answers that are no placement (a count, a verdict): their
            line for people. (Every format that draws also writes such answers so.)
        reads: ``verify``, ``check`` and ``complete`` read it back (detected, not named).
        suffixes: the file name endings that mean this format: ``-o FILE`` without
            ``--format`` writes it (``format_of_file``), the same for every command.
        squares: a board with queens on any squares, given n and ``(row, column)``
            pairs (a dominating set), as text without a final newline; ``None``: none.
    """

    name: str
    help: str
    draw: Callable[[Placement, Problem | None], str] | None = None
    header: Callable[[int], str] | None = None
    between: str = ""
    block: Callable[[Any], str] | None = None
    lines: bool = False
    many: bool = True
    up_to: int | None = None
    document: bool = False
    summary: bool = False
    reads: bool = False
    suffixes: tuple[str, ...] = ()
    squares: Callable[[int, Sequence[tuple[int, int]]], str] | None = None

    def can(self, ability: str) -> bool:
        """Whether this format can ``draw`` (one placement), ``stream`` (many),
        ``document`` (an answer as one document), ``summary`` (an answer as a line) or
        ``squares`` (queens on any squares: a dominating set)."""
        if ability == "stream":
            return (self.draw is not None and self.many) or self.document
        return bool(getattr(self, ability))


@functools.cache
def _jsonl_template(n: int) -> str:
    """``[%d, %d, ...]\\n``: the text ``json.dumps`` gives a list of ints, at a third of the
    cost, which matters when streaming hundreds of thousands of placements."""
    return "[" + ", ".join(["%d"] * n) + "]\n"


def _jsonl(placement: Placement, problem: Problem | None) -> str:
    return _jsonl_template(len(placement.cols)) % placement.cols


def _boards(placement: Placement, problem: Problem | None) -> str:
    return placement.to_text() + "\n"


def _csv(placement: Placement, problem: Problem | None) -> str:
    return ",".join(map(str, placement.cols)) + "\n"


def _csv_header(n: int) -> str:
    return ",".join(f"q{r}" for r in range(n)) + "\n"


def _unicode(placement: Placement, problem: Problem | None) -> str:
    from cp_queens.render import unicode

    return unicode(placement, given=None if problem is None else problem.fixed) + "\n"


def _svg(placement: Placement, problem: Problem | None) -> str:
    from cp_queens.render import svg

    return svg(placement, given=None if problem is None else problem.fixed) + "\n"


def _squares_text(n: int, queens: Sequence[tuple[int, int]]) -> str:
    from cp_queens.render import squares

    return squares(n, queens)


def _squares_unicode(n: int, queens: Sequence[tuple[int, int]]) -> str:
    from cp_queens.render import squares

    return squares(n, queens, style="unicode")


def _block(opening: str, separator: str, ending: str) -> Callable[[Any], str]:
    """A block writer: each line is ``opening``, the columns apart by ``separator``, then
    ``ending``."""

    def block(rows: Any) -> str:
        return _block_text(rows, (opening, separator, ending))

    return block


def _document_block(rows: Any) -> str:
    """A block of placements inside a JSON document: arrays apart by ``,`` and a line end
    (no comma after the last: the ``Sink`` puts one between blocks)."""
    return _block_text(rows, ("[", ", ", "]\n")).rstrip("\n").replace("\n", ",\n")


def block_text(block: Any, fmt: str) -> str:
    """The lines of format ``fmt`` (``jsonl``, ``csv``: without header) of a ``(k, n)``
    block of columns.

    Every column number becomes a fixed-width slot of bytes taken from a table
    (its digits and the separator after it, padded); a mask of the bytes that
    are really text squeezes the padding out in one pass.

    Examples:
        >>> import numpy as np
        >>> block_text(np.array([[1, 3, 0, 2], [2, 0, 3, 1]]), "jsonl")
        '[1, 3, 0, 2]\\n[2, 0, 3, 1]\\n'
    """
    writer = FORMATS[fmt].block if fmt in FORMATS else None
    if writer is None:
        raise ValueError(f"no block writer for format {fmt!r}")
    return writer(block)


def _block_text(block: Any, punctuation: tuple[str, str, str]) -> str:
    import numpy as np

    k, n = block.shape
    first, middle, end = _slot_tables(n, punctuation)
    cols = np.asarray(block, dtype=np.intp)
    if cols.size and (cols.min() < 0 or cols.max() >= n):
        raise ValueError(f"a block of n={n} holds columns outside 0..{n - 1}")
    pieces = [np.broadcast_to(first[0], (k, first[0].size))]
    keeps = [np.broadcast_to(first[1], (k, first[1].size))]
    if n > 1:
        pieces.append(middle[0][cols[:, :-1]].reshape(k, -1))
        keeps.append(middle[1][cols[:, :-1]].reshape(k, -1))
    pieces.append(end[0][cols[:, -1]])
    keeps.append(end[1][cols[:, -1]])
    text = np.concatenate(pieces, axis=1)[np.concatenate(keeps, axis=1)]
    return text.tobytes().decode("ascii")


@functools.cache
def _slot_tables(n: int, punctuation: tuple[str, str, str]) -> tuple[tuple[Any, Any], ...]:
    """(bytes, mask) tables: the line's opening, each value with its separator, each
    value with the line's end."""
    import numpy as np

    opening, separator, ending = punctuation

    def table(texts: list[str]) -> tuple[Any, Any]:
        width = max(len(t) for t in texts)
        chars = np.zeros((len(texts), width), dtype=np.uint8)
        keep = np.zeros((len(texts), width), dtype=bool)
        for row, t in enumerate(texts):
            chars[row, : len(t)] = np.frombuffer(t.encode("ascii"), dtype=np.uint8)
            keep[row, : len(t)] = True
        return chars, keep

    chars, keep = table([opening or " "])
    if not opening:
        keep[:] = False
    return (
        (chars[0], keep[0]),
        table([f"{v}{separator}" for v in range(n)]),
        table([f"{v}{ending}" for v in range(n)]),
    )


#: The registry, in the order ``--help`` lists them. One entry per format.
FORMATS: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    """Add ``fmt`` to the registry (a new format is this one call, or one entry below)."""
    if fmt.name in FORMATS:
        raise ValueError(f"format {fmt.name!r} is registered already")
    FORMATS[fmt.name] = fmt
    return fmt


for _entry in (
    Format("text", "a line for people", summary=True),
    Format(
        "boards",
        "rows of '.' and 'Q', a blank line between boards",
        draw=_boards,
        between="\n",
        up_to=TEXT_UP_TO,
        reads=True,
        suffixes=(".txt",),
        squares=_squares_text,
    ),
    Format(
        "jsonl",
        "one JSON array of columns per line",
        draw=_jsonl,
        block=_block("[", ", ", "]\n"),
        lines=True,
        reads=True,
        suffixes=(".jsonl", ".ndjson"),
    ),
    Format(
        "csv",
        "a header q0,q1,... then one row of columns each",
        draw=_csv,
        header=_csv_header,
        block=_block("", ",", "\n"),
        lines=True,
        reads=True,
        suffixes=(".csv",),
    ),
    Format(
        "unicode",
        "a chess diagram (a8 top left; given queens as ♕)",
        draw=_unicode,
        between="\n",
        up_to=TEXT_UP_TO,
        squares=_squares_unicode,
    ),
    Format(
        "svg",
        "a picture (large boards are shrunk; one board)",
        draw=_svg,
        many=False,
        suffixes=(".svg",),
    ),
    Format(
        "json",
        "one JSON document: the answer, whether it is complete, the statistics "
        "(cp_queens/answer.schema.json)",
        block=_document_block,
        document=True,
        reads=True,
        suffixes=(".json",),
    ),
):
    register(_entry)


def choices(*abilities: str) -> tuple[str, ...]:
    """The names of the formats that can do any of ``abilities`` (see ``Format.can``)."""
    return tuple(name for name, fmt in FORMATS.items() if any(fmt.can(a) for a in abilities))


def format_of_file(path: str | None) -> str | None:
    """The format whose suffix ``path`` has (``None``: stdout, no suffix, or one no format
    claims): what ``-o FILE`` writes when no format was asked for, for every command.

    Examples:
        >>> format_of_file("b.svg"), format_of_file("dir.d/n14.CSV"), format_of_file("out")
        ('svg', 'csv', None)
    """
    if path is None or path == "-":
        return None
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    dot = name.rfind(".")
    if dot <= 0:  # no suffix, or a hidden file's name
        return None
    suffix = name[dot:].lower()
    return next((f.name for f in FORMATS.values() if suffix in f.suffixes), None)


def format_help(names: Iterable[str], default: str) -> str:
    """One ``--help`` text for ``--format`` over ``names``, from the registry's own words."""
    return "; ".join(
        f"{name}: {FORMATS[name].help}{' (default)' if name == default else ''}" for name in names
    )


class Sink:
    """Where one command writes: placements as they come, then its ``Answer``.

    Every placement goes out in one ``write`` (with its separator, or the csv header
    before the first), so an interrupted stream ends on a whole record. A document
    format (json) writes its placements inside the document, then closes it with the
    answer's fields.
    """

    def __init__(self, fmt: str | Format, out: TextIO, problem: Problem | None = None) -> None:
        self.format = FORMATS[fmt] if isinstance(fmt, str) else fmt
        self.out = out
        self.problem = problem
        self.written = 0
        self._opened = False  # a document's placements list is open

    def placement(self, placement: Placement) -> int:
        """Write one placement; return 1 (how many were written)."""
        fmt = self.format
        if fmt.document:
            text = _jsonl(placement, self.problem).rstrip("\n")
            text = (",\n" if self._opened else self._open_document() + "\n") + text
        else:
            assert fmt.draw is not None, f"format {fmt.name!r} draws no placement"
            text = fmt.draw(placement, self.problem)
            if self.written == 0 and fmt.header is not None:
                text = fmt.header(placement.n) + text
            elif self.written:
                text = fmt.between + text
        self._put(text, 1)
        return 1

    def block(self, rows: Any) -> int:
        """Write a NumPy block of placements (one row of columns each) at once; return how
        many were written."""
        k, n = rows.shape
        if not k:
            return 0
        fmt = self.format
        if fmt.block is None:
            for cols in rows.tolist():
                self.placement(Placement(tuple(cols)))
            return k
        text = fmt.block(rows)
        if fmt.document:
            text = (",\n" if self._opened else self._open_document() + "\n") + text
        elif self.written == 0 and fmt.header is not None:
            text = fmt.header(n) + text
        self._put(text, k)
        return k

    def _put(self, text: str, placements: int) -> None:
        put = getattr(self.out, "records", None) is not None
        if put:  # a ``WholeRecords``: it counts what it holds whole, as it takes it
            self.out.write(text, placements)  # type: ignore[call-arg]
        else:
            self.out.write(text)
        self.written += placements

    @property
    def kept(self) -> int:
        """Placements taken whole by the output: what a Ctrl-C leaves behind (``written``
        misses a block the interruption caught while it was being written out)."""
        records = getattr(self.out, "records", None)
        return self.written if records is None else int(records)

    def finish(self, answer: Answer) -> None:
        """Write the answer: the whole document (json); its placement, if it is one and
        was not written yet; or its line for people (a count, a verdict, a proven none).
        A stream's answer is its placements: its line goes to stderr (``stopped_line``)."""
        fmt = self.format
        if fmt.document:
            self.out.write(self._close_document(answer))
        elif answer.task == "dominate" and fmt.squares is not None and answer.found:
            queens = [(row, col) for row, col in answer.found["queens"]]
            self.out.write(fmt.squares(answer.n or 0, queens) + "\n" + answer_text(answer) + "\n")
        elif isinstance(answer.value, Placement):
            if not self.written:
                self.placement(answer.value)
        elif answer.complete and answer.task != "solutions":
            self.out.write(answer_text(answer) + "\n")

    #: The fields a document states before its placements (what was asked).
    _HEAD = ("schema", "version", "task", "n", "fixed", "blocked")

    def _open_document(self) -> str:
        import json

        self._opened = True
        asked = Answer("solutions", self.problem).to_json()
        head = {key: asked[key] for key in self._HEAD if key in asked}
        return json.dumps(head)[:-1] + ', "placements": ['

    def _close_document(self, answer: Answer) -> str:
        import json

        document = answer.to_json()
        if not self._opened and answer.task != "solutions":
            return json.dumps(document) + "\n"
        opening = "\n" if self._opened else self._open_document()
        rest = {key: value for key, value in document.items() if key not in self._HEAD}
        return opening + "], " + json.dumps(rest)[1:] + "\n"


def write_answer(answer: Answer, fmt: str | Format, out: TextIO) -> None:
    """Write a whole answer (its placement, if it is one) in ``fmt``."""
    Sink(fmt, out, answer.problem).finish(answer)


#: Tasks whose partial figure is right in itself, only not proven best (a witness): a
#: dominating set found is one, not proven the smallest. Cut short, such an answer is
#: still written where answers go, in words that say so; no other partial figure is (a
#: count so far would read as the count).
WITNESSES = frozenset({"dominate"})


def goes_out(answer: Answer, fmt: str | Format) -> bool:
    """Whether ``answer`` is written where answers go (stdout or ``-o``) in ``fmt``: the
    one rule for an answer cut short (``docs/architecture.md``). A document always (its
    figure under ``partial``); otherwise an answer, or the witness of one cut short."""
    chosen = FORMATS[fmt] if isinstance(fmt, str) else fmt
    if chosen.document or answer.outcome == ANSWER:
        return True
    return not answer.complete and answer.task in WITNESSES and answer.partial is not None
