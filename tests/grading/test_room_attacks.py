"""The grader against hostile students: one submission per attack class of issue 25.

A class of hostile submissions (``tests/hostile.py``) is graded once per test
session, in the test process (the xdist worker) that first asks, with the default
rubric; each test reads what happened to one attack.
Every grading run here is checked afterwards for survivors two ways: no process
left in any PID namespace the runs created, and no process on the machine whose
command line carries this test run's mark (the harness's label, and the mark the
hostile code writes into what it execs). The signals to the grader are sent from a
``cp-queens grade`` run in a child process, so that a hit could not end this one.
"""

from __future__ import annotations

import csv
import json
import os
import select
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cp_queens.grading import sandbox
from cp_queens.grading.grade import grade
from cp_queens.grading.marking.marks import COLUMNS, feedback, write_marks
from cp_queens.grading.results import StudentResult
from cp_queens.grading.rubric import RubricError, load
from cp_queens.grading.sandbox import room as sandbox_room
from cp_queens.grading.sandbox import watch as sandbox_watch
from tests import hostile
from tests.helpers import ROOT, once_per_session, session_folder
from tests.hostile import KEYS_DIR, MARK, TOOLKIT_DIR, marked_processes, write_class

pytestmark = pytest.mark.skipif(
    sandbox_room.unavailable() is not None, reason=f"no sandbox: {sandbox_room.unavailable()}"
)


class Runs:
    """Every PID namespace the grading runs of a test created (to look for survivors)."""

    def __init__(self) -> None:
        self.ended: dict[str, float] = {}  # namespace -> when its run ended (since boot)
        self.outcomes: list[sandbox.Outcome] = []

    def survivors(self) -> list[int]:
        """Live processes of the runs' namespaces started before their run ended (the
        number of a dead namespace is given to a new one, e.g. another test's run)."""
        return [
            pid
            for space, ended in self.ended.items()
            for pid in sandbox_watch.members({space}, started_before=ended)
        ]


@pytest.fixture(scope="module")
def runs() -> Iterator[Runs]:
    """Grading runs of this module labelled with ``MARK``, their namespaces kept; after the
    last test, nothing of them may be alive."""
    seen = Runs()
    real_run = sandbox.run
    label = sandbox.LABEL

    def run(
        source: str, sizes: list[int], limits: sandbox.Limits, beside: Any = None, **more: Any
    ) -> sandbox.Outcome:
        outcome = real_run(source, sizes, limits, beside, **more)
        ended = outcome.ended  # taken while the run held its namespaces
        seen.ended.update(dict.fromkeys(outcome.namespaces, ended))
        seen.outcomes.append(outcome)
        return outcome

    sandbox.run = run  # type: ignore[assignment]
    sandbox.LABEL = MARK
    try:
        yield seen
    finally:
        sandbox.run = real_run  # type: ignore[assignment]
        sandbox.LABEL = label
    assert seen.survivors() == []
    assert marked_processes() == []


def probes(result: StudentResult) -> dict[str, str]:
    """What a probe printed, ``PROBE name=value`` lines, as a mapping."""
    return hostile.probes(result.output)


SIZES = [1, 4, 5, 6]
#: A right model that searches on 8 threads at once (a barrier: none may be refused),
#: with numpy (an allowed compiled module) and 4 GB of address space reserved, never
#: touched: the resident memory is what counts, as with CP-SAT's 8 workers. The default
#: class's twin of ``hostile.CPSAT_8``, which costs 0.3 s of CPU more (OR-Tools' import).
THREADS_8 = (
    hostile.RIGHT.replace("def model(n):", "def search(n):")
    + """
import mmap, threading

import numpy

RESERVED = mmap.mmap(-1, 4 << 30, flags=mmap.MAP_PRIVATE)
together = threading.Barrier(8, action=lambda: print(f"PROBE threads={threading.active_count()}"))


def model(n):
    found = [None] * 8

    def work(i):
        together.wait(timeout=30)
        found[i] = numpy.array(search(n), dtype=int).reshape(-1, n)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert all(numpy.array_equal(boards, found[0]) for boards in found)
    return found[0].tolist()
"""
)
SECRET = "CPQ_TEST_SECRET_TOKEN"
#: The mark of the class graded once for the session: a word of its own, not this
#: process's ``MARK``, which the other runs of this module carry (their label, their
#: arguments). The class's record is read by every worker, and a worker looking for
#: the class's processes while another worker's runs carry that worker's ``MARK`` would
#: take those for survivors.
CLASS_MARK = "cpqclass" + uuid.uuid4().hex[:12]
#: How long the listeners are watched for a connection once the class's rooms are gone.
LISTEN = 0.1


@pytest.fixture(scope="module")
def listener() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A TCP port and an abstract Unix socket on the grader's machine, for the network probe."""
    tcp = socket.create_server(("127.0.0.1", 0))
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind("\0" + CLASS_MARK)
    unix.listen()
    yield tcp, unix
    tcp.close()
    unix.close()


@pytest.fixture(scope="module")
def graded(
    runs: Runs,
    tmp_path_factory: pytest.TempPathFactory,
    listener: tuple[socket.socket, socket.socket],
) -> dict[str, Any]:
    """The hostile class graded once per test session (default rubric), its marks.csv
    written: by the first worker that asks, under a lock; the others wait and read what
    it kept. Why: pytest ends a module's fixtures whenever a worker's next test is of
    another module, so with ``--dist worksteal`` this class was graded three or four
    times a run (1.2 s of CPU each). What the checks need goes with it: the mark its
    processes carried, its runs' PID namespaces, and what the listeners received."""
    return once_per_session(
        session_folder(tmp_path_factory),
        "hostile-class",
        lambda: grade_the_class(runs, tmp_path_factory, listener),
    )


def grade_the_class(
    runs: Runs,
    tmp_path_factory: pytest.TempPathFactory,
    listener: tuple[socket.socket, socket.socket],
) -> dict[str, Any]:
    """Grade the hostile class in this process; what the tests read of it."""
    base = tmp_path_factory.mktemp("hostile")
    out = base / "out"
    out.mkdir()
    folder = write_class(
        base / "class",
        {
            **hostile.ATTACKS,
            "environ.py": hostile.ENVIRON,
            "rich.py": "import rich\n" + hostile.RIGHT,  # installed, never allowed
            "threads8.py": THREADS_8,
            "right.py": hostile.RIGHT,
        },
        MARK=CLASS_MARK,
        OUT=out,
        CLASS=base / "class",
        KEYS=KEYS_DIR,
        TOOLKIT=TOOLKIT_DIR,
        PORT=listener[0].getsockname()[1],
    )
    before = len(runs.outcomes)
    os.environ[SECRET] = CLASS_MARK + "-secret"  # a token in the grader's environment
    try:
        results = {r.student: r for r in grade(folder, SIZES, jobs=2)}
    finally:
        del os.environ[SECRET]
    write_marks(list(results.values()), out / "marks.csv")
    marks = (out / "marks.csv").read_text()
    written = sandbox_watch.now()  # since boot: the same clock in every worker
    outcomes = runs.outcomes[before:]
    # Every room has ended: whatever reached a listener is waiting in its queue now. Both
    # are watched at once (they were in turn, a tenth of a second each).
    ready, _, _ = select.select(list(listener), [], [], LISTEN)
    names = zip(("tcp", "unix"), listener, strict=True)
    reached = [name for name, server in names if server in ready]
    return {
        "results": results,
        "out": out,
        "marks": marks,
        "mark": CLASS_MARK,  # the class's processes and output carry it
        "ended": {space: o.ended for o in outcomes for space in o.namespaces},
        "survivors": [o.survivors for o in outcomes],
        "reached": reached,
        "written": written,
    }


def test_no_process_of_the_class_outlives_its_run(graded: dict[str, Any], runs: Runs) -> None:
    assert graded["ended"]  # the check below looked somewhere
    assert all(survivors == [] for survivors in graded["survivors"])
    left = [
        pid
        for space, ended in graded["ended"].items()
        for pid in sandbox_watch.members({space}, started_before=ended)
    ]
    assert left == []
    assert marked_processes(graded["mark"]) == []
    assert runs.survivors() == []  # this process's runs, if it graded any
    assert marked_processes() == []


def test_forged_results_score_nothing_and_are_named(graded: dict[str, Any]) -> None:
    forges = graded["results"]["forges"]
    assert forges.statuses()[:3] == ["violation", "violation", "violation"]
    assert forges.points == 0
    text = feedback(forges)
    assert "a second result for n=1" in text
    assert "a result for n=4 before the grader asked for it" in text
    assert "a result for n=5 while model(1) was running" in text


def test_the_toolkit_and_its_keys_are_not_there(graded: dict[str, Any]) -> None:
    toolkit = graded["results"]["toolkit"]
    assert toolkit.points == 0
    assert "the cp_queens toolkit is not available to submissions" in feedback(toolkit)
    keys = probes(graded["results"]["keys"])
    assert keys and set(keys.values()) == {"0"}, keys


def test_nothing_outside_the_scratch_folder(graded: dict[str, Any]) -> None:
    found = probes(graded["results"]["outside"])
    for name in (
        "read-class",
        "read-out",
        "read-work",
        "read-toolkit",
        "read-shadow",
        "write-out",
        "write-usr",
        "write-root",
        "write-site",
    ):
        assert found[name].startswith("no "), (name, found[name])
    # The user's home holds only the path to the interpreter (pyenv's, here), if that is
    # where it is: bubblewrap makes the folders a read-only bind needs, nothing else.
    home = found["read-root-home"]
    assert home.startswith("no ") or home in ("yes []", "yes ['.pyenv']"), home
    assert found["write-scratch"].startswith("yes")
    assert found["write-tmp"].startswith("yes")
    assert int(found["see-processes"].split()[1]) <= 3  # bwrap's init, the harness


def test_the_graders_environment_is_not_seen(graded: dict[str, Any]) -> None:
    environ = graded["results"]["environ"]
    assert "PROBE environ:1=" in environ.output  # bwrap's first process, readable
    assert graded["mark"] + "-secret" not in environ.output and SECRET not in environ.output


def test_output_printed_before_a_crash_is_kept(graded: dict[str, Any]) -> None:
    crash = graded["results"]["crash"]
    assert crash.statuses()[0] == "crashed"
    assert f"about to crash at n=1 {graded['mark']}" in feedback(crash)
    assert "SIGSEGV" in feedback(crash)


def test_the_scratch_folder_is_small_and_private(graded: dict[str, Any]) -> None:
    found = probes(graded["results"]["fills"])
    assert len(found) == 3
    for value in found.values():
        megabytes, error = value.split()
        assert int(megabytes) <= sandbox.Limits().scratch_mb and error == "OSError"


def test_a_right_model_on_8_threads_gets_full_marks(graded: dict[str, Any]) -> None:
    """The default run's twin of the slow CP-SAT test below: 8 threads at once, an allowed
    compiled module, gigabytes of address space reserved: full marks all the same."""
    threads = graded["results"]["threads8"]
    assert threads.statuses() == ["ok"] * len(SIZES), feedback(threads)
    assert threads.points == threads.max_points
    assert int(probes(threads)["threads"]) >= 9  # the 8 searching, and the harness
    assert graded["results"]["right"].points == graded["results"]["right"].max_points


@pytest.mark.slow  # importing OR-Tools in the room: 0.3 s of CPU more than its twin above
def test_a_right_cp_sat_model_with_8_workers_gets_full_marks(tmp_path: Path, runs: Runs) -> None:
    folder = write_class(tmp_path / "class", {"cpsat8.py": hostile.CPSAT_8})
    [cpsat] = grade(folder, SIZES)
    assert cpsat.statuses() == ["ok"] * len(SIZES), feedback(cpsat)
    assert cpsat.points == cpsat.max_points
    assert runs.survivors() == []


# -- attacks that need their own rubric or their own grader ---------------------------------


def test_signals_do_not_reach_the_grader(graded: dict[str, Any]) -> None:
    # This process graded the class: had a signal reached it, no test would be running.
    signals = graded["results"]["signals"]
    assert signals.points == signals.max_points


@pytest.mark.slow
def test_signals_do_not_reach_the_command(tmp_path: Path) -> None:
    folder = write_class(
        tmp_path / "class",
        {"signals.py": hostile.SIGNALS + hostile.RIGHT, "right.py": hostile.RIGHT},
    )
    out = tmp_path / "out"
    code = (
        "import sys; from cp_queens.grading import sandbox; sandbox.LABEL = sys.argv[1]; "
        "from cp_queens.cli import main; sys.exit(main(sys.argv[2:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, MARK, "grade", str(folder), "--n", "4", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    rows = {row[0]: row for row in csv.reader((out / "marks.csv").open(encoding="utf-8"))}
    status = len(COLUMNS)  # the first size's status, after the fixed columns
    assert rows["right"][status] == rows["signals"][status] == "ok"
    assert marked_processes() == []


@pytest.mark.slow  # 2.3 s of fork and thread bombs; the other tests here end trees too
def test_a_process_tree_is_limited_and_ended_whole(tmp_path: Path, runs: Runs) -> None:
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(
        "[limits]\ncpu_seconds = 1\nwall_seconds = 60\nallow_processes = true\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    out.mkdir()
    folder = write_class(
        tmp_path / "class",
        {
            "threads.py": hostile.THREADS,
            "bomb.py": hostile.FORK_BOMB,
            "threadbomb.py": hostile.THREAD_BOMB,
            "forger.py": hostile.FORGER,
        },
        MARK=MARK,
        OUT=out,
    )
    results = {r.student: r for r in grade(folder, [4, 5], rubric=rubric)}
    write_marks(list(results.values()), out / "marks.csv")
    written = (out / "marks.csv").read_text()
    assert results["threads"].statuses() == ["cpu limit", "not run"]
    assert results["bomb"].statuses()[0] in ("crashed", "cpu limit")
    assert "more than 64 processes" in feedback(results["bomb"]) or "CPU" in feedback(
        results["bomb"]
    )
    # Threads are bounded too (pids.max of its control group here, else the watcher).
    assert results["threadbomb"].statuses()[0] in ("2 missing", "crashed")
    threads = probes(results["threadbomb"]).get("threads", "0 RuntimeError").split()
    assert int(threads[0]) <= sandbox.TASKS
    # Allowed to fork, the forger's child (setsid, execve with an empty environment)
    # ends with its run: it never writes to marks.csv. The 32-bit entry stays refused
    # whatever the rubric (the filter denies every other table), so its child is made by
    # os.fork, which the rubric allows: the fallback must not have failed.
    assert results["forger"].statuses() == ["ok", "ok"]
    assert probes(results["forger"])["fork32"] == "-1"
    assert "PROBE fork=" not in results["forger"].output
    assert runs.survivors() == []
    assert marked_processes() == []
    time.sleep(0.5)
    assert (out / "marks.csv").read_text() == written


def test_one_file_never_costs_the_class(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    with open(folder / "huge.py", "wb") as handle:  # 20 GB, sparse: nothing on disk
        handle.truncate(20 << 30)
    deep = '{"cells": ' + "[" * 200_000 + "]" * 200_000 + "}"
    (folder / "deep.ipynb").write_text(deep, encoding="utf-8")
    (folder / "linked.py").symlink_to("/etc/passwd")
    (folder / "right.py").write_text(hostile.RIGHT, encoding="utf-8")
    results = {r.student: r for r in grade(folder, [4])}
    assert results["right"].statuses() == ["ok"]
    for name in ("huge", "deep", "linked"):
        assert results[name].statuses() == ["not run"]
    assert "over the 4.0 MB a submission may be" in feedback(results["huge"])
    assert "nested more than 64 deep" in feedback(results["deep"])
    assert "a symbolic link" in feedback(results["linked"])


def test_modules_not_allowed_are_not_there(graded: dict[str, Any]) -> None:
    rich = graded["results"]["rich"]
    assert rich.points == 0 and "No module named 'rich'" in feedback(rich)


@pytest.mark.slow
def test_the_rubric_chooses_the_modules(tmp_path: Path) -> None:
    source = "import {MODULE}\ndef model(n):\n    return []\n"
    folder = tmp_path / "class"
    folder.mkdir()
    for module in ("numpy", "ortools", "rich"):
        (folder / f"{module}.py").write_text(source.replace("{MODULE}", module))
    rubric = tmp_path / "rubric.toml"
    rubric.write_text('[limits]\nmodules = ["numpy", "constraint"]\n', encoding="utf-8")
    results = {r.student: r for r in grade(folder, [2], rubric=rubric)}
    assert {name: r.statuses() for name, r in results.items()} == {
        "numpy": ["ok"],
        "ortools": ["not run"],  # installed, but not in this rubric's list
        "rich": ["not run"],  # installed (the grader uses it), never allowed
    }
    assert "No module named 'ortools'" in feedback(results["ortools"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('isolation = "docker"', "limits.isolation: one of 'bwrap', 'none'"),
        ('modules = ["cp_queens"]', "cp_queens is never available"),
        ("modules = [3]", "a list of module names"),
        ('modules = ["os.path/.."]', "is not a module name"),
        ("submission_kb = 0", "limits.submission_kb: must be >= 1"),
    ],
)
def test_sandbox_keys_of_a_wrong_rubric_are_one_line(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "rubric.toml"
    path.write_text(f"[limits]\n{text}\n", encoding="utf-8")
    with pytest.raises(RubricError, match=message.replace("(", r"\(")):
        load(path)


def test_without_bubblewrap_grading_is_refused_unless_isolation_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_class(tmp_path / "class", {"right.py": hostile.RIGHT})
    out = tmp_path / "out"
    monkeypatch.setattr(sandbox_room, "unavailable", lambda: "no user namespaces here")
    from cp_queens.cli import main

    assert main(["grade", str(folder), "--n", "4", "--out", str(out)]) == 2
    assert not (out / "marks.csv").exists()
    assert main(["grade", str(folder), "--n", "4", "--out", str(out), "--isolation", "none"]) in (
        0,
        1,
    )
    with (out / "marks.csv").open(encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][-1] == "isolation" and rows[1][-1] == "none"


def test_the_refusal_is_one_line_saying_why_and_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_class(tmp_path / "class", {"right.py": hostile.RIGHT})
    monkeypatch.setattr(sandbox_room, "unavailable", lambda: "no user namespaces here")
    from cp_queens.cli import main

    assert main(["grade", str(folder), "--n", "4", "--out", str(tmp_path / "o")]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "no user namespaces here" in line and "--isolation none" in line
    assert json.dumps(line)  # one line of text, no traceback


def test_a_run_the_machine_cannot_start_is_that_students_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_class(tmp_path / "class", {"ada.py": hostile.RIGHT})

    def no_more_processes(*args: Any, **kwargs: Any) -> None:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(sandbox.subprocess, "Popen", no_more_processes)
    [ada] = grade(folder, [4])
    assert ada.statuses() == ["not run"]
    assert "the grader could not run it: [Errno 11]" in feedback(ada)


def test_no_packet_leaves(
    graded: dict[str, Any], listener: tuple[socket.socket, socket.socket]
) -> None:
    """Near the end of the module: the tenth of a second the listeners must stay empty
    after the class was graded has passed in the tests before it."""
    found = probes(graded["results"]["sockets"])
    assert {name: value.split()[0] for name, value in found.items()} == {
        "tcp-local": "no",
        "udp-out": "no",
        "unix-abstract": "no",
    }
    assert graded["reached"] == []  # the listeners the class was given: nothing came
    # Nor later: nothing waits at this worker's listeners a tenth of a second after the
    # class was graded (what is left of that tenth is waited here, if any is).
    wait = max(0.0, graded["written"] + LISTEN - sandbox_watch.now())
    assert select.select(list(listener), [], [], wait)[0] == []


#: How long after the class was graded its marks.csv must still be as written.
STILL_WRITTEN_AFTER = 0.5


def test_a_32_bit_fork_is_refused_and_marks_stay_as_written(graded: dict[str, Any]) -> None:
    """Last of the module: the half second marks.csv must stay as written is counted from
    when the class was graded, so the tests before this one wait most of it (it waited
    0.5 s of its own)."""
    forger = graded["results"]["forger"]
    assert probes(forger)["fork32"] == "-1"  # int 0x80 fork: EPERM, whatever the table
    assert probes(forger)["fork"] == "BlockingIOError"  # fork and subprocess: refused
    assert forger.statuses() == ["ok"] * len(SIZES)
    time.sleep(max(0.0, graded["written"] + STILL_WRITTEN_AFTER - sandbox_watch.now()))
    assert sandbox_watch.now() >= graded["written"] + STILL_WRITTEN_AFTER
    assert (graded["out"] / "marks.csv").read_text() == graded["marks"]
    assert "mallory" not in graded["marks"]
