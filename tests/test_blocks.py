"""Block paths for big files: the same text, placements and verdicts as the line-by-line ones."""

from __future__ import annotations

import io
import random
from pathlib import Path

import numpy as np
import pytest

from cp_queens import engines, formats
from cp_queens.cli import main
from cp_queens.engines.fast import loader
from cp_queens.formats import block_text, read_blocks, read_placements, write_blocks
from cp_queens.formats import write_placements as write_rows
from cp_queens.problem import Problem
from cp_queens.verify import verify, verify_rows
from tests.helpers import total


class InterpretedParser:
    """Stands in for ``loader.COMPILED`` in :func:`cp_queens.formats.read_blocks`: the
    ``parse_rows`` source, interpreted (over bytes, as the C reads the buffer)."""

    def __init__(self) -> None:
        self.calls = 0

    def parse_rows(self, data: np.ndarray, brackets: int, out: np.ndarray, shape: np.ndarray):
        self.calls += 1
        return loader.PYTHON.parse_rows(data.tobytes(), brackets, out, shape)


@pytest.fixture(params=["interpreted", "compiled"])
def block_parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The block path of read_blocks: with the kernels' source interpreted, and compiled."""
    if request.param == "compiled" and loader.COMPILED is None:
        pytest.skip(f"no compiled kernels here: {loader.MISSING}")
    if request.param == "interpreted":
        monkeypatch.setattr(loader, "COMPILED", InterpretedParser())


def flatten(items) -> list[list[int]]:
    out: list[list[int]] = []
    for item in items:
        out.extend(item.tolist() if isinstance(item, np.ndarray) else [item])
    return out


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "boards"])
@pytest.mark.parametrize("n", [1, 4, 6, 9])
def test_block_writer_writes_the_same_text_as_the_row_writer(fmt: str, n: int) -> None:
    fast = engines.get("fast")
    blocks, rows = io.StringIO(), io.StringIO()
    written = write_blocks(fast.solution_arrays(Problem(n)), blocks, fmt)
    write_rows(engines.get("reference").solutions(Problem(n)), rows, fmt)
    assert written == total(n)
    assert blocks.getvalue() == rows.getvalue()


def test_solution_arrays_keep_order_limit_and_stats() -> None:
    fast = engines.get("fast")
    every = [tuple(p.cols) for p in engines.get("reference").solutions(Problem(10))]
    stream = fast.solution_arrays(Problem(10), limit=700)
    got = [tuple(row) for block in stream for row in block.tolist()]
    assert got == every[:700]
    assert stream.stats.solutions == 700 and stream.stats.status == "stopped"
    whole = fast.solution_arrays(Problem(10))
    assert [tuple(r) for b in whole for r in b.tolist()] == every
    assert whole.stats.status == "complete"


def test_block_text_refuses_columns_off_the_board() -> None:
    with pytest.raises(ValueError, match="outside"):
        block_text(np.array([[0, 4, 1, 2]]), "jsonl")


@pytest.mark.parametrize(
    "text",
    [
        "[1, 3, 0, 2]\n[2, 0, 3, 1]\n" * 30,
        "[1,3,0,2]\n[2,0,3,1]\n" * 30 + "[0, 1, 2]\n",  # a line of another size
        "[1, 3, 0, 2]\n\n[2, 0, 3, 1]\n[1,  3, 0, 2]\n" * 10,  # blank line, double space
        "q0,q1,q2,q3\n1,3,0,2\n2,0,3,1\n" * 20,  # csv; headers again in the middle
        "1,3,0,2\n2, 0,3,1\n01,3,0,2\n" * 20,  # csv spacing and leading zeros
        "[1, 3, 0, 2]",  # no final newline
        ". Q . .\n. . . Q\nQ . . .\n. . Q .\n",  # boards: line by line only
    ],
)
def test_read_blocks_gives_the_placements_of_read_placements(
    monkeypatch, block_parser, text: str
) -> None:
    """Every block size in one item (each takes microseconds; an item each cost more)."""
    expected = list(read_placements(io.StringIO(text), "f"))
    for block_chars in (16, 50, 1 << 21):
        monkeypatch.setattr(formats, "BLOCK_CHARS", block_chars)
        assert flatten(read_blocks(io.StringIO(text), "f")) == expected, block_chars


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 3, 0, 2]\n" * 40 + "[0, 1\n", "f:41:6: not valid JSON"),
        ("[1, 3, 0, 2]\n" * 40 + "[07, 1]\n", "f:41:"),
        ("q0,q1\n" + "0,1\n" * 40 + "0,x\n", "f:42: field 2 is 'x'"),
    ],
)
@pytest.mark.parametrize("block_chars", [16, 1 << 21])
def test_read_blocks_names_the_bad_line_like_read_placements(
    monkeypatch, block_parser, text: str, message: str, block_chars: int
) -> None:
    monkeypatch.setattr(formats, "BLOCK_CHARS", block_chars)
    with pytest.raises(formats.ParseError) as slow:
        list(read_placements(io.StringIO(text), "f"))
    with pytest.raises(formats.ParseError) as fast:
        list(read_blocks(io.StringIO(text), "f"))
    assert message in str(slow.value)
    assert str(fast.value) == str(slow.value)


def test_even_a_small_input_takes_the_block_parser(monkeypatch) -> None:
    """The compiled parser is imported with the package (no build to wait for)."""
    text = "[1, 3, 0, 2]\n[2, 0, 3, 1]\n"
    parser = InterpretedParser()
    monkeypatch.setattr(loader, "COMPILED", parser)
    assert flatten(read_blocks(io.StringIO(text), "f")) == [[1, 3, 0, 2], [2, 0, 3, 1]]
    assert parser.calls == 1


def test_read_blocks_without_compiled_kernels_reads_line_by_line(monkeypatch) -> None:
    monkeypatch.setattr(loader, "COMPILED", None)
    text = "[1, 3, 0, 2]\n[2, 0, 3, 1]\n"
    assert list(read_blocks(io.StringIO(text), "f")) == [[1, 3, 0, 2], [2, 0, 3, 1]]


def test_verify_rows_agrees_with_verify() -> None:
    chooser = random.Random(7)
    for n in (1, 2, 5, 8, 13, 31):
        rows = [list(p.cols) for p in engines.get("cpsat").solutions(Problem(n), limit=20)]
        for _ in range(200):
            rows.append([chooser.randrange(-1, n + 1) for _ in range(n)])
            perm = list(range(n))
            chooser.shuffle(perm)
            rows.append(perm)
        block = np.array(rows, dtype=np.int64)
        assert verify_rows(block).tolist() == [bool(verify(row)) for row in rows]
    assert verify_rows(np.zeros((2, 40), dtype=np.int64)) is None  # beyond 64-bit masks


def test_verify_cli_on_a_big_block_reports_each_bad_placement(
    capsys, block_parser, tmp_path: Path
) -> None:
    rows = [list(p.cols) for p in engines.get("reference").solutions(Problem(8))]
    rows[10] = [0, 1, 2, 3, 4, 5, 6, 7]
    rows[50] = rows[49]
    target = tmp_path / "eight.jsonl"
    target.write_text("".join(f"[{', '.join(map(str, r))}]\n" for r in rows))
    assert main(["verify", str(target)]) == 1
    out = capsys.readouterr().out
    assert "placement 11 (n=8): rows 0 and 1 share a diagonal" in out
    assert "FAILED: 92 placements checked (n=8): 1 invalid" in out
    assert main(["verify", str(target), "--distinct"]) == 1
    assert "placement 51 (n=8): repeats placement 50" in capsys.readouterr().out


def _one_by_one(items: list, **settings: object) -> tuple[bool, list]:
    """The verdict and failures as the statement has them: ``verify`` per placement and a
    dict of tuples for repeats."""
    problem = settings.get("problem")
    seen: dict[tuple[int, ...], int] = {}
    failures = []
    plain = [row for item in items for row in (item.tolist() if hasattr(item, "ndim") else [item])]
    for index, cols in enumerate(plain, 1):
        verdict = verify(cols, problem)  # type: ignore[arg-type]
        reason = verdict.reason
        if verdict.ok and settings.get("distinct"):
            first = seen.setdefault(tuple(cols), index)
            reason = None if first == index else f"repeats placement {first}"
        if reason is not None:
            failures.append({"placement": index, "n": len(cols), "reason": reason})
    return not failures and bool(plain), failures


def _by_blocks(items: list, **settings: object) -> tuple[bool, list]:
    from cp_queens.verify import verify_all

    answer = verify_all(items, **settings)  # type: ignore[arg-type]
    return answer.value, answer.details["failures"]


@pytest.mark.parametrize("n", [8, 17, 33])  # one 64-bit key; packed bytes; past the bit masks
def test_distinct_and_n_on_blocks_agree_with_one_by_one(n: int) -> None:
    # Repeats inside a block, across blocks and between a single line and a block, and
    # rows that fail the problem (a moved given queen, a blocked square, another size):
    # the block path must name the same placements for the same reasons.
    rng = random.Random(n)
    solutions = list(engines.get("fast").solutions(Problem(8), limit=40)) if n == 8 else []
    if n == 8:
        rows = [list(p.cols) for p in solutions]
    else:
        from cp_queens.engines.construct import ConstructEngine

        base = list(ConstructEngine().first(Problem(n)).value.cols)
        rows = [base, base[::-1], [n - 1 - c for c in base], [n - 1 - c for c in base[::-1]]]
    blocks = [np.array(rows[:3]), [*rows[1]], np.array([rows[0], rows[2], *rows[3:]])]
    blocks.append(np.array([rows[rng.randrange(len(rows))] for _ in range(5)]))
    problem = Problem(n, {0: rows[0][0]})
    for settings in (
        {"distinct": True},
        {"distinct": True, "problem": problem},
        {"problem": problem},
    ):
        assert _by_blocks(blocks, **settings) == _one_by_one(blocks, **settings), settings
    wrong_size = [np.array(rows[:2])]
    assert not _by_blocks(wrong_size, problem=Problem(n + 1))[0]
