"""Nothing of the host's paths in the room (issue 44): graded as root, a submission that
reads everything the kernel and the interpreter tell it about where it runs finds no
path of the grader's repository, its interpreter's prefix, its venv or its home folder.

A bind mount tells its source (``/proc/self/mountinfo``'s fourth field: the source's
path inside its file system), so the room binds hard-linked copies made in a private
folder (``sandbox.neutral``) and shows them under neutral paths (``/opt/python``,
``/site``, ``/harness``, ``/submission``).
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path

import pytest

import cp_queens
from cp_queens.grading import sandbox
from cp_queens.grading.sandbox import neutral
from cp_queens.grading.sandbox import room as sandbox_room
from tests.hostile import tagged

pytestmark = pytest.mark.skipif(
    sandbox_room.unavailable() is not None, reason=f"no sandbox: {sandbox_room.unavailable()}"
)

#: Everything a submission can ask about where it runs, printed to its feedback as one
#: JSON line per source; then the allowed modules at work (N-Queens of 6 three ways).
LOOKS = r"""
import importlib.metadata, json, os, sys, sysconfig, traceback

def tell(name, value):
    print("LOOK " + json.dumps([name, value]), flush=True)

def read(path):
    try:
        with open(path, "rb") as source:
            return source.read().decode(errors="replace")
    except OSError as error:
        return "unreadable: %s" % error

for name in ("mountinfo", "mounts", "mountstats", "maps", "environ", "cmdline", "cgroup"):
    tell(name, read("/proc/self/" + name))
for name in ("exe", "cwd", "root"):
    tell(name, os.readlink("/proc/self/" + name))
tell("sys.path", sys.path)
tell("sys.executable", sys.executable)
tell("sys._base_executable", getattr(sys, "_base_executable", ""))
tell("sys.prefixes", [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix])
tell("sys.orig_argv", sys.orig_argv)
tell("os.environ", dict(os.environ))
tell("sysconfig.get_paths", sysconfig.get_paths())
import numpy, ortools, constraint
from ortools.sat.python import cp_model
tell("__file__", [os.__file__, json.__file__, numpy.__file__, ortools.__file__,
                  constraint.__file__, cp_model.__file__, os.walk.__code__.co_filename])
tell("distributions", sorted(str(d.locate_file("")) for d in importlib.metadata.distributions()))
try:
    numpy.zeros(-1)
except ValueError:
    tell("traceback", traceback.format_exc())
tell("opt", sorted(os.listdir("/opt/python/lib/python%d.%d/site-packages" % sys.version_info[:2])))

def model(n):
    problem = constraint.Problem()
    problem.addVariables(range(n), range(n))
    problem.addConstraint(constraint.AllDifferentConstraint())
    for a in range(n):
        for b in range(a + 1, n):
            problem.addConstraint(lambda x, y, d=b - a: abs(x - y) != d, (a, b))
    by_constraint = sorted(tuple(s[i] for i in range(n)) for s in problem.getSolutions())
    sat = cp_model.CpModel()
    q = [sat.new_int_var(0, n - 1, "q%d" % i) for i in range(n)]
    sat.add_all_different(q)
    sat.add_all_different([q[i] + i for i in range(n)])
    sat.add_all_different([q[i] - i for i in range(n)])
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    found = []

    class Keep(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self):
            found.append(tuple(self.value(v) for v in q))

    solver.solve(sat, Keep())
    assert sorted(found) == by_constraint
    return numpy.array(by_constraint).tolist()
"""


#: The boards of n = 6, by brute force.
SIX = sorted(
    p
    for p in itertools.permutations(range(6))
    if len({q + i for i, q in enumerate(p)}) == len({q - i for i, q in enumerate(p)}) == 6
)


def _host_paths() -> dict[str, str]:
    """The paths a room must not show: this checkout, the grader's interpreter (its venv
    and the base it is built on), where the allowed modules are installed, the home."""
    import numpy

    paths = {
        "repository": Path(cp_queens.__file__).resolve().parents[1],
        "sys.prefix": Path(sys.prefix),
        "sys.base_prefix": Path(sys.base_prefix),
        "interpreter": sandbox_room.interpreter().parents[1],
        "site-packages": Path(numpy.__file__).resolve().parents[1],
        "home": Path.home(),
    }
    both = {name: str(path) for name, path in paths.items()}
    both.update({name + " (resolved)": str(path.resolve()) for name, path in paths.items()})
    return both


def _shown(text: str, path: str) -> bool:
    """Does ``text`` name ``path`` (as a whole path, not a part of a longer name)?"""
    return re.search(re.escape(path) + r"(?![\w.-])", text) is not None


def test_the_room_shows_no_host_path_and_its_modules_work() -> None:
    outcome = sandbox.run(LOOKS, [6], sandbox.Limits(output_kb=1024, cpu_seconds=30))
    looks = tagged(outcome.output, "LOOK")
    assert {"mountinfo", "maps", "sys.path", "__file__", "opt"} <= set(looks), outcome.output
    told = json.dumps(looks)
    seen = {name: path for name, path in _host_paths().items() if _shown(told, path)}
    assert seen == {}, [line for line in told.split("\\n") if any(p in line for p in seen.values())]
    # The sources the room is bound from are the system's own, or the neutral folder's.
    links = neutral.folder()
    assert links is not None
    for line in str(looks["mountinfo"]).splitlines():
        source, mount_point = line.split()[3:5]
        if mount_point in ("/usr", "/etc") or mount_point.startswith("/etc/"):
            continue
        if mount_point.startswith(("/opt/", "/site/", "/harness/", "/submission/")):
            assert source.startswith(f"{links}/"), line
    assert looks["sys.executable"] == f"{sandbox_room.PYTHON}/bin/{sandbox_room.interpreter().name}"
    assert looks["opt"] == []  # the interpreter's own site-packages: empty in the room
    # numpy, OR-Tools and python-constraint all worked: 4 boards, each solver the same.
    (result,) = [m for m in outcome.messages if m.get("event") == "result"]
    assert sorted(map(tuple, result["items"])) == SIX, result


def test_a_tree_that_cannot_be_linked_is_bound_where_it_is_under_the_same_neutral_paths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without the links (another file system, a file the grader may not link), the room
    still runs, under the same paths: only the mount's source names the host, and what
    the links would have left out (the interpreter's site-packages) is covered."""
    monkeypatch.setattr(neutral, "source", lambda path, inside, skip=(): path)
    outcome = sandbox.run(LOOKS, [6], sandbox.Limits(output_kb=1024, cpu_seconds=30))
    looks = tagged(outcome.output, "LOOK")
    assert looks["opt"] == [], outcome.output
    assert looks["sys.executable"] == f"{sandbox_room.PYTHON}/bin/{sandbox_room.interpreter().name}"
    assert all(not _shown(json.dumps(looks["sys.path"]), p) for p in _host_paths().values())
    (result,) = [m for m in outcome.messages if m.get("event") == "result"]
    assert sorted(map(tuple, result["items"])) == SIX, result


def test_the_links_folder_goes_with_its_grader_and_a_killed_one_s_with_the_next(
    tmp_path: Path,
) -> None:
    """A grader's folder of links is removed when it exits; one left by a grader killed
    before it could is removed by the next grader, once no process holds its lock."""
    import fcntl
    import os
    import subprocess

    code = (
        "import sys; from pathlib import Path; from cp_queens.grading.sandbox import neutral;"
        "neutral.BASES = (sys.argv[1],);"
        "print(neutral.source(Path(neutral.__file__).parent, '/harness'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True
    )
    linked = Path(done.stdout.strip())
    assert linked.is_relative_to(tmp_path) and linked.name == "harness"
    assert list(tmp_path.iterdir()) == []  # gone with its grader
    left, held, fresh = (tmp_path / f"{neutral.PREFIX}{name}" for name in ("left", "held", "new"))
    for folder in (left, held, fresh):
        (folder / "tree").mkdir(parents=True)
        (folder / ".lock").touch()
    for folder in (left, held):
        os.utime(folder, (0, 0))
    holder = os.open(held / ".lock", os.O_RDWR)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        neutral._sweep(tmp_path)
    finally:
        os.close(holder)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([held.name, fresh.name])
