"""Console examples of the README and docs/ as little sessions to run and match.

A ```console block is a session: ``$ command`` lines run in one fresh directory per
page (files a block writes are there for its later commands and blocks), and the lines
after a command are what it prints, stdout and stderr interleaved as on a terminal.
Values that change from run to run are written ``...``: inside a line it stands for any
text (a wall time, a branch count); a line that is only ``...`` stands for any number
of lines (a table's rows whose order or count depends on the machine).

A command shown without its output must still run: exit 0 (or the code its comment
names: ``$ cp-queens dominate 13 --time-limit 10   # ...: exit 4``), and no traceback. The
project's ``examples/`` folder is linked into the directory, as a reader in a clone has it,
and the files a page shows a reader writing by hand (``board.txt``) are there, from
``tests/data/console/``.

A block that needs more than that (a Dask cluster, a clone, a machine without bubblewrap)
names it on the line before it, in a comment the site does not show:
``<!-- console: needs: dask -->`` (``tests/console_needs.py`` says what each name sets
up). A command whose output starts ``^C`` is interrupted as a reader would: once it has
saved work (its ``--checkpoint`` file holds records).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from tests.console_needs import NEEDS, Setting, serve

#: A console block, and the comment line before it (if any).
BLOCK = re.compile(r"(?:^(?P<before>[^\n]*)\n)?^```console\n(?P<body>.*?)^```", re.M | re.S)
#: The comment naming what a block needs (``tests/console_needs.py``).
NEEDS_LINE = re.compile(r"<!-- console: needs: (?P<what>.+?) -->")


@dataclass(frozen=True)
class Block:
    """One ```console block of a page: its text, and what it needs (``tests/console_needs.py``)."""

    page: Path
    text: str
    needs: tuple[str, ...]

    @property
    def sessions(self) -> list[tuple[str, list[str]]]:
        return sessions(self.text)


def blocks(page: Path) -> list[Block]:
    """The page's console blocks, in order."""
    found = []
    for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
        named = NEEDS_LINE.search(match["before"] or "")
        needs = tuple(n.strip() for n in named["what"].split(",")) if named else ()
        found.append(Block(page, match["body"], needs))
    return found


def sessions(block: str) -> list[tuple[str, list[str]]]:
    """``(command, expected output lines)`` for every ``$ `` line of a console block (a
    command whose line ends in a backslash goes on in the next line)."""
    steps: list[tuple[str, list[str]]] = []
    going_on = False
    for line in block.splitlines():
        if going_on:
            steps[-1] = (steps[-1][0] + "\n" + line, [])
        elif line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps and line.strip():
            steps[-1][1].append(line)
        going_on = line.endswith("\\") and bool(steps) and not steps[-1][1]
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


#: Files a page shows a reader writing by hand, put in the page's directory: a board, the
#: teacher's seed, roster, rubric, decisions, the LMS's exports and download, a student's
#: model; ``submissions/`` is a small class taken from the example assignment.
GIVEN = Path(__file__).resolve().parent / "data" / "console"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: The small class (a right model, every solution twice, columns counted from 1), with
#: the names and ids of the LMS exports given (``gradebook.csv``, ``worksheet.csv``).
CLASS = {
    "ada": ("Ada Lovelace", "lovelaceada_48213_900001", 1234501),
    "dan": ("Dan Dahl", "dahldan_48214_900002", 1234502),
    "eve": ("Eve Evans", "evanseve_48215_900003", 1234503),
}


def given(cwd: Path) -> None:
    """What a page's directory holds before its first command: the examples (linked, as in
    a clone), the hand-written files, the small class."""
    (cwd / "examples").symlink_to(EXAMPLES)
    shutil.copytree(GIVEN, cwd, dirs_exist_ok=True)
    for name, (full_name, canvas, moodle) in CLASS.items():
        model = EXAMPLES / "assignment" / "submissions" / f"{name}.py"
        for copy in (
            cwd / "submissions" / f"{name}.py",
            cwd / "canvas-download" / f"{canvas}_queens.py",
            cwd / "moodle-download" / f"{full_name}_{moodle}_assignsubmission_file" / "queens.py",
        ):
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(model, copy)


def environment(setting: Setting | None = None) -> dict[str, str]:
    """The commands' environment: this venv's scripts first on the PATH, an 80-column
    terminal without colour, and what the block's setting adds."""
    setting = setting or Setting()
    rest = [] if setting.path_only else [os.environ.get("PATH", "")]
    return {
        **os.environ,
        "PATH": os.pathsep.join([*setting.path, str(Path(sys.executable).parent), *rest]),
        "COLUMNS": "80",
        "NO_COLOR": "1",
        "TERM": "dumb",
        **setting.env,
    }


def bash(command: str) -> list[str]:
    return [shutil.which("bash") or "/bin/bash", "-c", command]


def run(command: str, cwd: Path, timeout: float = 300) -> tuple[list[str], list[str]]:
    """Run ``command`` with bash in ``cwd``, this venv's ``cp-queens`` first on the PATH;
    its non-blank stdout and stderr lines."""
    out, err, _ = run_with_code(command, cwd, timeout)
    return out, err


def run_with_code(
    command: str,
    cwd: Path,
    timeout: float = 300,
    setting: Setting | None = None,
    interrupt: bool = False,
) -> tuple[list[str], list[str], int]:
    """``run``, and the command's exit code; with ``interrupt``, a Ctrl-C once its
    ``--checkpoint`` file holds records."""
    with subprocess.Popen(
        bash(command),
        cwd=cwd,
        env=environment(setting),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        if interrupt:
            wait_for_a_record(process, cwd, command, timeout)
            os.killpg(process.pid, signal.SIGINT)  # what a terminal sends on Ctrl-C
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raise
    lines = [line for line in stdout.splitlines() if line.strip()]
    return lines, [line for line in stderr.splitlines() if line.strip()], process.returncode


def wait_for_a_record(
    process: subprocess.Popen[str], cwd: Path, command: str, timeout: float
) -> None:
    """Until the command's ``--checkpoint`` file holds two records past its header (the
    first may be one a count makes before its subproblems: meeting in the middle's
    symmetric boards)."""
    named = re.search(r"--checkpoint (\S+)", command)
    assert named, f"a Ctrl-C is shown only after a command with --checkpoint: {command}"
    checkpoint, give_up = cwd / named[1], time.monotonic() + timeout
    while process.poll() is None and time.monotonic() < give_up:
        if checkpoint.exists() and len(checkpoint.read_bytes().splitlines()) >= 3:
            return
        time.sleep(0.01)
    raise AssertionError(f"{command}: no record in {checkpoint} to interrupt after")


def mismatch(
    command: str, expected: list[str], cwd: Path, setting: Setting | None = None
) -> str | None:
    """What differs between what ``command`` prints and ``expected`` (``None``: nothing);
    a command shown without output must exit 0 (or as its comment says), without a
    traceback; output that starts
    ``^C`` is that of a command interrupted once it has saved work."""
    interrupt = bool(expected) and expected[0] == "^C"
    if interrupt:
        expected = expected[1:]
    out, err, code = run_with_code(command, cwd, setting=setting, interrupt=interrupt)
    named = re.search(r"#.*\bexit (\d+)\s*$", command)
    wanted = int(named[1]) if named else 0
    if not expected and code == wanted and not any("Traceback" in line for line in err):
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


def mismatches(block: Block, cwd: Path) -> list[str]:
    """Every command of ``block`` run in ``cwd`` (given what it needs); what differs."""
    failures = []
    with ExitStack() as stack:
        setting = Setting()
        for name in block.needs:
            more = NEEDS[name](cwd, stack)
            setting.env.update(more.env)
            setting.path += more.path
            setting.path_only |= more.path_only
            setting.replace.update(more.replace)
            setting.servers.update(more.servers)
        for command, expected in block.sessions:
            for placeholder, value in setting.replace.items():
                command = command.replace(placeholder, value)
            server = next((s for s in setting.servers if command.startswith(s)), None)
            if server is not None:
                ready, times = setting.servers[server]
                stack.enter_context(serve(bash(command), cwd, environment(setting), ready, times))
            elif (found := mismatch(command, expected, cwd, setting)) is not None:
                failures.append(found)
    return failures
