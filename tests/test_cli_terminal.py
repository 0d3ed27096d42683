"""Terminal polish: the live progress line fits the terminal, and every --help is tidy."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from cp_queens.cli import build_parser
from cp_queens.cli._common import fit_progress, progress_details, progress_line
from cp_queens.stats import Progress

LABEL = "counting N=16 with fast"
RECORDS = [
    Progress(0, 0.0, done=0, total=6_778),
    Progress(12_873_980, 40.0, done=5_920, total=6_778),
    Progress(39_029_188_884, 86_000.0, done=12_345, total=1_234_567),  # n = 21, hours left
    Progress(1_234_567, 3.0),  # a search that does not know its size
]


def rendered_line(record: Progress, width: int) -> str:
    """The live line as Rich draws it on a terminal ``width`` columns wide."""
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system=None)
    fitted: list[str] = []

    def detail() -> str:
        return fitted[0]

    bar_column, live = progress_line(console, detail)
    task = live.add_task(LABEL, total=None)
    text, bar_column.bar_width = fit_progress(LABEL, progress_details(record), width)
    fitted.append(text)
    live.update(task, total=record.total, completed=record.done or 0)
    console.print(live.make_tasks_table(live.tasks))
    return out.getvalue().rstrip("\n")


@pytest.mark.parametrize("width", [80, 100, 132])
@pytest.mark.parametrize("record", RECORDS, ids=["start", "n16", "n21", "unsized"])
def test_progress_line_is_whole_at_every_width(record: Progress, width: int) -> None:
    line = rendered_line(record, width)
    assert "\n" not in line and len(line) <= width
    assert "…" not in line  # nothing cut off
    if record.total is not None:
        assert "ETA" in line  # what matters most survives at 80 columns
    else:
        assert f"{record.solutions:,} solutions" in line


def test_progress_line_says_more_on_a_wide_terminal() -> None:
    record = RECORDS[1]
    assert "5,920/6,778 parts" in rendered_line(record, 132)
    assert "5,920/6,778 parts" not in rendered_line(record, 80)


def test_the_rate_is_solutions_per_second_never_parts() -> None:
    """A count without a checkpoint once showed "21/s" (subproblems a second) as if it were
    solutions: the rate now always says solutions/s and is worked out from solutions."""
    for record in (Progress(920, 2.0, done=21), Progress(920, 2.0, done=21, total=90)):
        fullest = progress_details(record)[0]
        assert "460 solutions/s" in fullest
        assert "10/s" not in fullest and "10 solutions/s" not in fullest


def test_the_clock_moves_and_the_eta_counts_down_between_reports() -> None:
    """Nothing freezes: between two reports (a long subproblem) the line is redrawn with
    the time since the last report."""
    record = Progress(100, 10.0, done=50, total=100)  # ETA 10 s at the last report
    assert progress_details(record, since=0.0)[0].endswith("0:00:10, ETA 0:00:10")
    assert progress_details(record, since=4.0)[0].endswith("0:00:14, ETA 0:00:06")
    assert progress_details(record, since=60.0)[0].endswith("ETA 0:00:00")  # never negative


def subcommands() -> dict[str, str]:
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return {name: sub.format_help() for name, sub in action.choices.items()}


def test_every_help_ends_with_two_or_three_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for name, text in subcommands().items():
        _, found, examples = text.rstrip().rpartition("\nexamples:\n")
        assert found, f"'cp-queens {name} --help' does not end with examples"
        lines = examples.splitlines()
        assert 2 <= len(lines) <= 3, f"{name}: {len(lines)} examples"
        assert all(re.match(r"  .*cp-queens ", line) for line in lines), f"{name}: {lines}"


def test_no_help_line_is_wider_than_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    helps = {"": build_parser().format_help(), **subcommands()}
    for name, text in helps.items():
        wide = [line for line in text.splitlines() if len(line) > 80]
        assert not wide, f"'cp-queens {name} --help' has lines over 80 columns: {wide}"


def _on_a_terminal(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    """Run ``cp-queens argv`` with stderr on a pseudo-terminal (stdout captured): exit
    code, what the terminal showed, and stdout. In this process, as ``main`` runs from
    the shell, its ``sys.stderr`` the terminal's end (a fresh interpreter per run added
    0.2 s of start-up and nothing the live line depends on: it asks ``sys.stderr``)."""
    import os
    import pty
    import sys
    import threading

    from tests.helpers import run_cli

    master, slave = pty.openpty()
    shown: list[bytes] = []

    def read_all() -> None:  # the terminal's buffer is small: read while the run writes
        while True:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the other end closed
                break
            if not chunk:
                break
            shown.append(chunk)

    reader = threading.Thread(target=read_all)
    reader.start()
    try:
        with monkeypatch.context() as patch, open(slave, "w", encoding="utf-8") as terminal:
            patch.setenv("COLUMNS", "120")
            patch.setattr(sys, "stderr", terminal)
            code, out, _ = run_cli(capsys, *argv)
    finally:
        reader.join(timeout=60)
        os.close(master)
    return code, b"".join(shown).decode(errors="replace"), out


def test_enumerate_to_a_file_and_verify_draw_the_live_line_their_help_promises(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--quiet`` says it drops the live progress: enumerate and verify have one."""
    target = tmp_path / "n10.jsonl"
    code, shown, _ = _on_a_terminal(
        ["enumerate", "10", "-e", "fast", "--format", "jsonl", "-o", str(target)],
        capsys,
        monkeypatch,
    )
    assert code == 0 and "enumerating N=10 with fast" in shown
    assert re.search(r"[0-9,]+ solutions", shown)
    code, shown, out = _on_a_terminal(["verify", str(target)], capsys, monkeypatch)
    assert code == 0 and "OK: 724 placements checked" in out
    assert "verifying n10.jsonl" in shown and re.search(r"[0-9,]+ placements", shown)
    code, shown, _ = _on_a_terminal(["verify", str(target), "--quiet"], capsys, monkeypatch)
    assert code == 0 and "verifying" not in shown


def test_a_listing_of_known_length_shows_a_fraction_and_an_eta(tmp_path) -> None:
    """``enumerate`` knows how many it will write (OEIS, or ``--limit``); ``verify`` the
    placements ``--expect`` names, or the bytes of its file."""
    import argparse

    from cp_queens.cli._progress import Tally
    from cp_queens.cli.enumerate import _known_total
    from cp_queens.cli.verify import _position

    def asked(**given: object) -> argparse.Namespace:
        return argparse.Namespace(**{"n": 8, "unique": False, "limit": None, **given})

    assert _known_total(asked()) == 92
    assert _known_total(asked(unique=True)) == 12
    assert _known_total(asked(limit=10)) == 10 and _known_total(asked(n=40)) is None
    shown: list[Progress] = []
    tally = Tally(shown.append, total=92)
    tally.add(46)
    assert (shown[-1].done, shown[-1].total) == (46, 92)
    assert progress_details(shown[-1], parts="solutions")[-1] == "50%"
    placements = tmp_path / "p.jsonl"
    placements.write_text("[1, 3, 0, 2]\n" * 100)
    with placements.open() as source:
        where = _position(source)
        assert where is not None and where() == (0, 1300)
        source.read()
        assert where() == (1300, 1300)
