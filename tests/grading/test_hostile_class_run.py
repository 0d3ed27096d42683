"""Issue 25's "done when": a class of about 40 hostile and right submissions, one run.

``cp-queens grade FOLDER --n 1..6 --out DIR`` in a child process, as a teacher runs
it, on every attack of ``tests/hostile.py``, the sample class of
``examples/assignment`` and more: it exits 0 or 1; ``marks.csv`` is whole, and
unchanged seconds after the grader has exited (a forger's child would have
rewritten it by then); no process of any submission is alive; no connection
reached the machine; the class folder is as it was; the toolkit's answers earn
nothing; every right model (CP-SAT with 8 workers among them) gets full marks.
Slow (a minute or two on 2 cores): it prints its wall time.
"""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cp_queens.grading.sandbox import room as sandbox_room
from tests import hostile
from tests.helpers import ROOT
from tests.hostile import KEYS_DIR, MARK, TOOLKIT_DIR, marked_processes, write_class

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sandbox_room.unavailable() is not None, reason="no sandbox here"),
]

MORE = {
    "loops.py": "def model(n):\n    while True:\n        pass\n",
    "sleeps.py": "import time\ndef model(n):\n    time.sleep(600)\n",
    "floods.py": (
        "import sys\ndef model(n):\n    while True:\n        sys.stdout.write('x' * 65536)\n"
    ),
    "endless.py": "def model(n):\n    while True:\n        yield [0] * n\n",
    "exits.py": "import sys\nsys.exit(3)\ndef model(n):\n    return []\n",
    "vanishes.py": "import os\nos._exit(0)\ndef model(n):\n    return []\n",
    "kills_itself.py": "import os, signal\ndef model(n):\n    os.kill(os.getpid(), 9)\n",
    "recursion.py": (
        "import sys\nsys.setrecursionlimit(10**7)\n"
        "def f(k):\n    return f(k + 1) + 1\ndef model(n):\n    return f(0)\n"
    ),
    "subprocess_.py": (
        "import subprocess\ndef model(n):\n"
        "    return subprocess.run(['sh', '-c', 'echo'], check=True)\n"
    ),
    "relative_keys.py": (
        "import glob\nfound = [p for up in ('..', '../..', '../../..', '/*', '/*/*', '/*/*/*')\n"
        "         for p in glob.glob(up + '/examples/solutions/*.py')]\n"
        "print('PROBE keys=' + str(len(found)))\ndef model(n):\n    return []\n"
    ),
    "environ.py": hostile.ENVIRON,
    "cpsat1.py": hostile.CPSAT_8.replace("num_workers = 8", "num_workers = 1"),
    "numpy_right.py": (
        "import numpy as np\n" + hostile.RIGHT.replace("return found", "return np.array(found)")
    ),
    "constraint_right.py": (
        "import constraint\n\ndef model(n):\n    p = constraint.Problem()\n"
        "    p.addVariables(range(n), range(n))\n"
        "    p.addConstraint(constraint.AllDifferentConstraint())\n"
        "    for a in range(n):\n        for b in range(a + 1, n):\n"
        "            p.addConstraint(lambda x, y, d=b - a: abs(x - y) != d, (a, b))\n"
        "    return [[s[r] for r in range(n)] for s in p.getSolutions()]\n"
    ),
}

RIGHT_MODELS = ("right", "cpsat8", "cpsat1", "numpy_right", "constraint_right", "ada", "nb_right")


def notebook(code: str) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "source": code}], "nbformat": 4})


def digest(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink() and path.stat().st_size < 1 << 20
    }


def test_a_hostile_class_of_40_in_one_run(tmp_path: Path) -> None:
    out = tmp_path / "out"
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    sources = {
        **hostile.ATTACKS,
        "cpsat8.py": hostile.CPSAT_8,
        "threads.py": hostile.THREADS,
        "bomb.py": hostile.FORK_BOMB,
        "threadbomb.py": hostile.THREAD_BOMB,
        "right.py": hostile.RIGHT,
        "nb_right.ipynb": notebook(hostile.RIGHT),
        "nb_toolkit.ipynb": notebook(hostile.TOOLKIT),
        **MORE,
    }
    folder = write_class(
        tmp_path / "class",
        sources,
        MARK=MARK,
        OUT=out,
        CLASS=tmp_path / "class",
        KEYS=KEYS_DIR,
        TOOLKIT=TOOLKIT_DIR,
        PORT=server.getsockname()[1],
    )
    for sample in (ROOT / "examples" / "assignment" / "submissions").iterdir():
        shutil.copy(sample, folder / sample.name)
    with open(folder / "huge.py", "wb") as handle:
        handle.truncate(20 << 30)
    (folder / "deep.ipynb").write_text('{"cells": ' + "[" * 200_000 + "]" * 200_000 + "}")
    (folder / "linked.py").symlink_to("/etc/passwd")
    before = digest(folder)
    students = len(list(folder.iterdir()))
    assert students >= 40

    code = (
        "import sys; from cp_queens.grading import sandbox; sandbox.LABEL = sys.argv[1]; "
        "from cp_queens.cli import main; sys.exit(main(sys.argv[2:]))"
    )
    argv = ["grade", str(folder), "--n", "1..6", "--out", str(out)]
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code, MARK, *argv],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    seconds = time.monotonic() - started
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"\n{students} submissions graded in {seconds:.1f} s (load {load})")
    assert done.returncode in (0, 1), done.stderr  # within the run's hang guard (600 s)
    assert marked_processes() == []
    written = (out / "marks.csv").read_text(encoding="utf-8")
    rows = {row[0]: row for row in csv.reader(written.splitlines())}
    assert len(rows) == students + 1  # the header, one row each
    time.sleep(5)  # the forger's child would have written by now
    assert (out / "marks.csv").read_text(encoding="utf-8") == written
    assert "mallory" not in written
    assert marked_processes() == []
    with pytest.raises(TimeoutError):
        server.accept()
    server.close()
    assert digest(folder) == before
    for name in RIGHT_MODELS:
        assert rows[name][1] == rows[name][2], (name, rows[name])
    for name in ("toolkit", "nb_toolkit", "huge", "deep", "linked"):
        assert rows[name][1] == "0", (name, rows[name])
    header = rows["student"]  # the per-size columns are found by name, after the fixed ones
    assert [rows["forges"][header.index(f"n={n}")] for n in (1, 4, 5)] == ["violation"] * 3
    feedback = {p.stem: p.read_text(encoding="utf-8") for p in (out / "feedback").glob("*.md")}
    assert "not available to submissions" in feedback["toolkit"]
    assert "PROBE keys=0" in feedback["relative_keys"]
