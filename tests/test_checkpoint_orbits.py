"""Every figure of a meet-in-the-middle checkpoint record is checked (issue 44): the
symmetric piece's half-turn and quarter-turn boards against whole orbits and against the
known unique count (A002562), so a forged record is dropped with one warning and counted
again, never a wrong unique count nor an internal error."""

from __future__ import annotations

import json
import warnings
import zlib
from pathlib import Path

import pytest

from cp_queens import Problem, engines, limits
from cp_queens.engines.fast import loader, meet, mitm
from cp_queens.errors import CpQueensWarning
from cp_queens.parallel.checkpoint import MODULI
from tests.helpers import A000170, A002562, total, unique

needs_c = pytest.mark.skipif(loader.mitm() is None, reason="the C extension _mitm was not built")
N = 14
FIELDS = ("total", "half_turn", "quarter_turn", "nodes")


def test_the_known_unique_counts_agree_with_the_oracle_and_the_totals() -> None:
    assert list(limits.KNOWN_UNIQUE[: len(A002562)]) == A002562
    assert list(limits.KNOWN_TOTALS[: len(A000170)]) == A000170
    for n in range(2, len(limits.KNOWN_UNIQUE) + 1):
        turns = 8 * limits.KNOWN_UNIQUE[n - 1] - limits.KNOWN_TOTALS[n - 1]
        # each symmetric board counted once or three times (a quarter turn: 1 + 2)
        assert 0 <= turns <= 3 * limits.KNOWN_TOTALS[n - 1] and turns % 2 == 0, n


def test_the_symmetric_record_is_checked_on_every_figure() -> None:
    why = meet._sane(N)
    half, quarter = mitm.symmetric(N, False), mitm.symmetric(N, True)
    assert why("mitm:symmetric", meet.MeetPart(0, half, quarter, 9)) is None
    assert "whole orbit" in (why("mitm:symmetric", meet.MeetPart(0, half + 2, quarter, 9)) or "")
    assert "whole orbit" in (why("mitm:symmetric", meet.MeetPart(0, half, quarter + 1, 9)) or "")
    moved = meet.MeetPart(0, half + 8, quarter, 9)
    assert "another unique count" in (why("mitm:symmetric", moved) or "")
    both = meet.MeetPart(0, half + 4, quarter + 4, 9)
    assert "another unique count" in (why("mitm:symmetric", both) or "")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("orbits") / "n14.jsonl"
    engine, budget = engines.build("fast", workers=1, checkpoint=str(path))
    assert tuple(engine.count_unique(Problem(N), budget=budget).value) == (total(N), unique(N))
    return path.read_bytes()


def _forged(template: bytes, path: Path, half: int, quarter: int) -> Path:
    """The finished checkpoint with the symmetric record's turns moved, its checksum and
    residues recomputed: what a careful forger leaves."""
    lines = template.decode().splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines) if '"mitm:symmetric"' in line)
    record = json.loads(lines[number])
    record["half_turn"] += half
    record["quarter_turn"] += quarter
    fields = {name: record[name] for name in ("key", *FIELDS)}
    for m in MODULI:
        record[f"mod{m}"] = [record[name] % m for name in FIELDS]
    record["crc"] = zlib.crc32(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode())
    lines[number] = json.dumps(record) + "\n"
    path.write_text("".join(lines))
    return path


@needs_c
@pytest.mark.parametrize(("half", "quarter"), [(8, 0), (4, 4)], ids=["half-by-8", "both-by-4"])
def test_a_forged_symmetric_record_is_dropped_and_counted_again(
    finished: bytes, tmp_path: Path, half: int, quarter: int
) -> None:
    path = _forged(finished, tmp_path / "n14.jsonl", half, quarter)
    assert "1 record(s) dropped" in _counted_again(path)


@needs_c
def test_beyond_the_known_counts_figures_of_no_whole_orbit_are_counted_again(
    finished: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no known count checks the record (n > 27), the orbit arithmetic of the whole
    count still finds it: dropped with one warning and counted again, not exit 70."""
    monkeypatch.setattr(limits, "KNOWN_UNIQUE", limits.KNOWN_UNIQUE[: N - 1])
    path = _forged(finished, tmp_path / "n14.jsonl", 4, 4)
    assert "mitm:symmetric" in _counted_again(path)


def _counted_again(path: Path) -> str:
    """Count n = N's solutions and unique ones from the checkpoint at ``path``: the
    figures exact, and the one warning the count gave (what it dropped, and why)."""
    engine, budget = engines.build("fast", workers=1, checkpoint=str(path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        answer = engine.count_unique(Problem(N), budget=budget)
    assert tuple(answer.value) == (total(N), unique(N))
    said = [w for w in caught if issubclass(w.category, CpQueensWarning)]
    assert len(said) == 1, said
    return str(said[0].message)
