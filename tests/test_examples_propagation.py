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
        nodes = [int(row[i].replace(",", "")) for i in (1, 4, 7, 10)]
        assert nodes == sorted(nodes, reverse=True)
    assert "every run agrees with the reference: yes" in out
    heuristic = [line for line in out.splitlines() if line.strip().startswith("n=")]
    assert heuristic and all(" ok " in line for line in heuristic[:3])


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
