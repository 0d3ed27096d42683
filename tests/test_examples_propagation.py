"""Lesson 08 must teach true things: check what it prints."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import ENV, ROOT

LESSON = ROOT / "examples" / "08_propagation.py"


def run(*args: str, timeout: float) -> str:
    result = subprocess.run(
        [sys.executable, str(LESSON), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def check(out: str) -> None:
    assert "nodes never grow with a stronger level (rows in order): True" in out
    assert "NO" not in out  # every run agrees with every other on the number of solutions
    assert "[plot of the nodes per level - drawn in the notebook version]" in out
    assert "/tmp" not in out  # no temporary file named: the reader cannot open it later
    # the nodes tables: one row per n, and the nodes never grow from left to right
    table = out.split("all solutions: nodes / fails\n")[1].split("every run")[0]
    rows = [line.split() for line in table.splitlines()[1:]]
    assert rows
    for row in rows:
        # A cell is "nodes / fails", or the status of a run that did not finish: a time-out
        # on a busy machine is a measurement, not a failure (the table says so).
        cells = _cells(row[1:])
        assert all(cell in ("timeout", "skipped") for cell in cells if isinstance(cell, str))
        nodes = [cell for cell in cells if isinstance(cell, int)]
        assert nodes == sorted(nodes, reverse=True)
    assert "every run agrees with the reference: yes" in out
    lines = [line for line in out.splitlines() if line.strip().startswith("n=")]
    statuses = [line.split(":", 1)[1].split()[0] for line in lines]  # "  n=   25: ok ..."
    assert statuses and all(status in ("ok", "timeout") for status in statuses)
    assert statuses[0] == "ok"  # 25 queens: about 25 nodes, whatever the load


def _cells(words: list[str]) -> list[int | str]:
    """The cells of a row of the nodes table: each level's nodes (an int), or its status."""
    cells: list[int | str] = []
    while words:
        if words[0] in ("timeout", "skipped", "error", "unsupported"):
            cells.append(words.pop(0))
        else:  # "nodes", "/", "fails"
            cells.append(int(words[0].replace(",", "")))
            del words[:3]
    return cells


def test_a_timed_out_cell_is_data() -> None:
    assert _cells(["1,024", "/", "3", "timeout", "12", "/", "0"]) == [1024, "timeout", 12]


@pytest.mark.slow  # 6 s of CPU: lesson 08 is one of the long lessons (test_examples)
def test_quick_tour(example_run) -> None:
    result = example_run(LESSON.name)  # the run tests/test_examples.py checks too
    assert result.returncode == 0, result.stderr
    check(result.stdout)


@pytest.mark.slow
def test_full_measurement() -> None:
    out = run("--full", timeout=1500)
    check(out)
    assert "largest n solved within 10 s" in out
