"""Console examples of the README and docs/ as little sessions to run and match.

A ```console block is a session: ``$ command`` lines run in one fresh directory per
page (files a block writes are there for its later commands and blocks), and the lines
after a command are what it prints, stdout and stderr interleaved as on a terminal.
Values that change from run to run are written ``...``: inside a line it stands for any
text (a wall time, a branch count); a line that is only ``...`` stands for any number
of lines (a table's rows whose order or count depends on the machine).

A command shown without its output must still run: it may not fail as a bad request
(exit 2), a bug (70) or an unknown command (127), nor print a traceback. The
project's ``examples/`` folder is linked into the directory, as a reader in a clone has it,
and the files a page shows a reader writing by hand (``board.txt``) are there, from
``tests/data/console/``.

A block that cannot run here (it needs a Dask cluster, a Ctrl-C typed mid-run, a
student's folder) says so on the line before it, in a comment the site does not show:
``<!-- console: not run: why -->``.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: A console block, and the comment line before it (if any).
BLOCK = re.compile(r"(?:^(?P<before>[^\n]*)\n)?^```console\n(?P<body>.*?)^```", re.M | re.S)
#: The comment that keeps a block from running, with its reason.
NOT_RUN = re.compile(r"<!-- console: not run: (?P<why>.+?) -->")


@dataclass(frozen=True)
class Block:
    """One ```console block of a page: its text, and why it is not run (``None``: it runs)."""

    page: Path
    text: str
    not_run: str | None

    @property
    def sessions(self) -> list[tuple[str, list[str]]]:
        return sessions(self.text)


def blocks(page: Path) -> list[Block]:
    """The page's console blocks, in order."""
    found = []
    for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
        why = NOT_RUN.search(match["before"] or "")
        found.append(Block(page, match["body"], why["why"] if why else None))
    return found


def sessions(block: str) -> list[tuple[str, list[str]]]:
    """``(command, expected output lines)`` for every ``$ `` line of a console block."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps and line.strip():
            steps[-1][1].append(line)
    return steps


def pattern(expected: str) -> re.Pattern[str]:
    """One expected line as a regular expression: ``...`` is any text."""
    return re.compile(".*".join(map(re.escape, expected.split("..."))))


def interleaves(expected: list[str], out: list[str], err: list[str]) -> bool:
    """Whether ``expected`` is ``out`` and ``err`` merged, each in its own order (a line
    ``...`` alone takes any number of lines of either)."""
    patterns = [None if line.strip() == "..." else pattern(line) for line in expected]

    @functools.cache
    def match(i: int, j: int, k: int) -> bool:
        if i == len(patterns):
            return j == len(out) and k == len(err)
        wanted = patterns[i]
        if wanted is None:  # any lines: none more, or one more of either stream
            return (
                match(i + 1, j, k)
                or (j < len(out) and match(i, j + 1, k))
                or (k < len(err) and match(i, j, k + 1))
            )
        return (
            j < len(out) and wanted.fullmatch(out[j]) is not None and match(i + 1, j + 1, k)
        ) or (k < len(err) and wanted.fullmatch(err[k]) is not None and match(i + 1, j, k + 1))

    return match(0, 0, 0)


#: Files a page shows a reader writing by hand, put in the page's directory.
GIVEN = Path(__file__).resolve().parent / "data" / "console"

#: Exit codes that say a command shown without output is stale: a bad request, a bug, a
#: command that does not exist.
STALE = (2, 70, 127)


def run(command: str, cwd: Path, timeout: float = 300) -> tuple[list[str], list[str]]:
    """Run ``command`` with bash in ``cwd``, this venv's ``cp-queens`` first on the PATH;
    its non-blank stdout and stderr lines."""
    out, err, _ = run_with_code(command, cwd, timeout)
    return out, err


def run_with_code(
    command: str, cwd: Path, timeout: float = 300
) -> tuple[list[str], list[str], int]:
    """``run``, and the command's exit code."""
    bin_dir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "COLUMNS": "80",
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    done = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return lines, [line for line in done.stderr.splitlines() if line.strip()], done.returncode


def mismatch(command: str, expected: list[str], cwd: Path) -> str | None:
    """What differs between what ``command`` prints and ``expected`` (``None``: nothing);
    a command shown without output only has to run (see ``STALE``)."""
    examples = cwd / "examples"
    if not examples.exists():
        examples.symlink_to(Path(__file__).resolve().parents[1] / "examples")
        for given in GIVEN.iterdir():
            (cwd / given.name).write_bytes(given.read_bytes())
    out, err, code = run_with_code(command, cwd)
    if not expected and code not in STALE and not any("Traceback" in line for line in err):
        return None
    if expected and interleaves(expected, out, err):
        return None
    return (
        f"$ {command}\nexit {code}; the page shows:\n"
        + "\n".join(expected)
        + "\n\nstdout:\n"
        + "\n".join(out)
        + "\n\nstderr:\n"
        + "\n".join(err)
    )
