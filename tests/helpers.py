"""What many test modules share: the known counts (OEIS) and running the examples once.

A plain module, not a test module: test modules import from here, never from each other.
"""

from __future__ import annotations

import contextlib
import doctest
import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from cp_queens import Problem, engines
from cp_queens.problem import Placement

if TYPE_CHECKING:
    from collections.abc import Callable

#: OEIS A000170: number of ways to place n non-attacking queens, n = 1..20 (test oracle only).
A000170 = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
    14772512, 95815104, 666090624, 4968057848, 39029188884,
]  # fmt: skip

#: OEIS A002562: solutions up to rotation and reflection, n = 1..20 (test oracle only).
A002562 = [
    1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955,
    11977939, 83263591, 621012754, 4878666808,
]  # fmt: skip


def total(n: int) -> int:
    """All solutions of the n-queens problem (OEIS A000170)."""
    return A000170[n - 1]


def unique(n: int) -> int:
    """Solutions up to the 8 symmetries of the square (OEIS A002562)."""
    return A002562[n - 1]


@functools.cache
def reference_set(n: int) -> frozenset[Placement]:
    """Every solution of the empty n x n board, by the reference backtracker (the oracle
    the other engines' solution sets are held to). Computed once per test process, when
    first asked: three modules read it."""
    return frozenset(engines.get("reference").solutions(Problem(n)))


ALL_ENGINES = engines.names()
#: The template engine of engines/base.py: not registered (it is there to be copied),
#: yet held to the same contract as the registered engines.
TEMPLATE = "template"
#: The template engine held to a small ``max_n`` (7): the contract's sizes must follow
#: an engine's ``max_n``, not assume that every engine reaches n = 12.
TEMPLATE_SMALL = "template-small"
#: Engines that are not in the registry but run through the contract.
UNREGISTERED = (TEMPLATE, TEMPLATE_SMALL)


def build_or_skip(name: str, **options: Any) -> engines.Engine:
    """``engines.get(name, **options)``; a solver that is not installed here (engines
    ``cpmpy`` and ``minizinc`` name what to install) is a skip with that reason, except
    on CI (``CI=true``), where every solver must run and a missing one fails."""
    import pytest

    from cp_queens.errors import CpQueensError

    try:
        return engines.get(name, **options)
    except CpQueensError as error:
        missing = "not installed" in str(error) or "needs" in str(error)
        if not missing or os.environ.get("CI", "").lower() == "true":
            raise
        pytest.skip(str(error))


def ask(name: str, task: str, problem: Problem, **chosen: Any) -> Any:
    """One call of engine ``name``: ``task`` (``count``, ``count_unique``, ``first`` or
    ``solutions``) on ``problem``, the engine built with its options and the call given
    its run settings (``engines.build`` splits ``chosen``). ``progress`` goes to the call."""
    call = {key: chosen.pop(key) for key in ("progress", "limit") if key in chosen}
    engine, budget = engines.build(name, **chosen)
    return getattr(engine, task)(problem, budget=budget, **call)


def usable(names: list[str]) -> list[str]:
    """``names`` without the engines whose solver is not installed here, outside CI only
    (tests that loop over many engines; the engine contract skips those with the reason)."""
    if os.environ.get("CI", "").lower() == "true":
        return list(names)
    from cp_queens.errors import CpQueensError

    kept = []
    for name in names:
        try:
            engines.get(name)
        except CpQueensError:
            continue
        kept.append(name)
    return kept


def engines_that(*, enumerate: bool = False, count: bool = False) -> list[str]:
    """Registered engine names that can do the given tasks."""
    chosen = []
    for name in ALL_ENGINES:
        cls = engines.engine_class(name)
        if enumerate and not cls.can_enumerate:
            continue
        if count and not cls.can_count:
            continue
        chosen.append(name)
    return chosen


ROOT = Path(__file__).parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
#: Lessons whose run takes well over a second of CPU (1.5-3.5 s each, measured alone on
#: an idle machine): the default run leaves them to the slow run, which runs every
#: lesson as a script. The default run still runs every other lesson, and checks the
#: numbers they print.
LONG_LESSONS = frozenset(
    {
        "03_modelling_vs_backtracking.py",
        "03_python_constraint.py",
        "04_symmetry_breaking.py",
        "05_search_strategies.py",
        "08_propagation.py",  # compare runs each in a fresh process; test_examples_propagation
        "10_one_model_many_solvers.py",
        "11_optimisation.py",  # 3.5 s; its numbers: tests/test_examples_optimisation.py, slow
    }
)
#: Examples import the cp_queens of this checkout, not whichever one is installed.
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def run_example(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``examples/name`` as a script, as a reader would (a fresh process)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "examples" / name), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
    )


#: What the lessons import, loaded once by the example server instead of once per lesson.
PRELOADED = ("cp_queens.cli", "cp_queens.engines.cpsat", "numpy", "rich.console")


class ExampleServer:
    """Runs lessons as ``python examples/NAME`` does, minus the start-up: each in a child
    forked from one process that has already imported OR-Tools, NumPy and cp_queens
    (0.7 s of CPU per process, a third of what the lessons cost the default test run).

    The child runs the file as ``__main__`` with its own ``sys.argv``, ``sys.path[0]``,
    standard streams and exit code; what it imports beyond :data:`PRELOADED` it imports
    itself. The slow run also runs every lesson as a real script.
    """

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from tests.helpers import serve_examples; serve_examples()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=ENV,
        )

    def run(self, name: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        import json
        import tempfile

        path = str(ROOT / "examples" / name)
        assert self.process.stdin is not None and self.process.stdout is not None
        with tempfile.TemporaryDirectory() as folder:
            out, err = Path(folder, "stdout"), Path(folder, "stderr")
            request = {"path": path, "args": list(args), "timeout": timeout}
            request |= {"stdout": str(out), "stderr": str(err)}
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            reply = self.process.stdout.readline()
            if not reply:
                raise RuntimeError(f"the example server stopped (exit {self.process.wait()})")
            return subprocess.CompletedProcess(
                [sys.executable, path, *args],
                json.loads(reply)["returncode"],
                out.read_text(encoding="utf-8"),
                err.read_text(encoding="utf-8"),
            )

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)
        if self.process.stdout is not None:  # else "unclosed file" at this process's exit
            self.process.stdout.close()


_server: ExampleServer | None = None


def example_server() -> ExampleServer:
    """This process's example server, started on first use."""
    global _server
    if _server is None:
        import atexit

        _server = ExampleServer()
        atexit.register(_server.close)
    return _server


def serve_examples() -> None:
    """The example server's loop: a JSON request a line in, the child's exit code out."""
    import importlib
    import json

    for module in PRELOADED:
        importlib.import_module(module)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()  # nothing buffered may be written twice by the child
        pid = os.fork()
        if pid == 0:
            _run_forked(request)
        code = _wait(pid, request["timeout"])
        sys.stdout.write(json.dumps({"returncode": code}) + "\n")
        sys.stdout.flush()


def _run_forked(request: dict[str, Any]) -> None:
    """In the forked child: run the lesson as a script would run, then exit (never returns)."""
    import atexit
    import runpy
    import traceback

    code = 1
    try:
        stdin = os.open(os.devnull, os.O_RDONLY)
        os.dup2(stdin, 0)
        for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
            target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(target, fd)
            os.close(target)
        script = request["path"]
        sys.argv = [script, *request["args"]]
        sys.path[0] = os.path.dirname(script)  # as ``python script`` sets it
        try:
            runpy.run_path(script, run_name="__main__")
            code = 0
        except SystemExit as exit_:
            if exit_.code is None or isinstance(exit_.code, int):
                code = exit_.code or 0
            else:
                print(exit_.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def _wait(pid: int, timeout: float) -> int:
    """The child's exit code, as ``subprocess`` gives it (-9: killed after ``timeout``)."""
    import signal
    import time

    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return -signal.SIGKILL
        time.sleep(0.01)


def session_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every xdist worker of this test session shares: the session's, above each
    worker's own (without xdist, the session's own)."""
    shared = tmp_path_factory.getbasetemp()
    return shared.parent if os.environ.get("PYTEST_XDIST_WORKER") else shared


Made = TypeVar("Made")


def once_per_session(folder: Path, key: str, make: Callable[[], Made]) -> Made:
    """``make()``, made once per test session by whichever worker asks first and kept
    (pickled) in ``folder``, a :func:`session_folder`, under a lock: the others wait for
    it and read it.

    Why: pytest-xdist's grouping does not hold with every pytest, and a module's fixture
    is made again whenever a worker comes back to its module (``--dist worksteal``), so
    a costly run that several tests read would otherwise be made on every worker, and
    more than once on one.
    """
    import fcntl
    import pickle

    folder.mkdir(parents=True, exist_ok=True)
    saved = folder / f"{key}.pickle"
    with open(folder / f"{key}.lock", "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        if saved.exists():
            return pickle.loads(saved.read_bytes())  # type: ignore[no-any-return]
        made = make()
        saved.write_bytes(pickle.dumps(made))
    return made


def run_example_once(folder: Path, name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """:func:`run_example` (through :class:`ExampleServer`), once per test session,
    whichever worker asks first (:func:`once_per_session`): several tests read one
    lesson's output, and a lesson takes seconds."""
    import hashlib

    key = hashlib.sha256("\0".join([name, *args]).encode()).hexdigest()[:16]
    return once_per_session(folder, key, lambda: example_server().run(name, *args))


#: The teacher's key: worked answers to the exercises, one module per lesson.
KEY = ROOT / "examples" / "solutions"


def load_key(name: str) -> ModuleType:
    """Import ``examples/solutions/name.py`` (the key is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"key_{name}", KEY / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PYTHON_BLOCK = re.compile(r"^```(?:python|pycon)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def run_python_blocks(page: Path) -> doctest.TestResults:
    """Run the ``>>>`` examples of every python block of ``page``, sharing one namespace."""
    text = page.read_text(encoding="utf-8")
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    namespace: dict[str, object] = {}
    for number, block in enumerate(PYTHON_BLOCK.findall(text), start=1):
        if ">>> " in block:
            test = doctest.DocTestParser().get_doctest(
                block, namespace, f"{page.name} block {number}", str(page), 0
            )
            runner.run(test, clear_globs=False)
    return runner.summarize(verbose=False)


def run_cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """Run ``cp-queens argv...`` in this process: exit code, stdout, stderr."""
    from cp_queens.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = exit_.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    return code, out, err


def refusal(path: Path, text: str, read: Callable[[Path], Any], error: type[Exception]) -> str:
    """The one line ``read`` refuses ``path`` with once the file holds ``text``: an
    ``error`` that names the file (a lecturer's rubric, overrides, roster)."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error, match=re.escape(f"{path.name}: ")) as caught:
        read(path)
    return str(caught.value)


#: A lesson's output must fit a terminal's default width (and a slide, and a page).
COLUMNS = 80


def check_width(stdout: str) -> None:
    """Every line of a lesson's output within :data:`COLUMNS` characters."""
    wide = [line for line in stdout.splitlines() if len(line) > COLUMNS]
    assert not wide, f"{len(wide)} lines wider than {COLUMNS} columns, e.g.\n{wide[0]}"


#: What a fake ``minizinc`` says to ``--solvers-json``: one CP solver, Gecode.
FAKE_SOLVERS = json.dumps([{"id": "org.gecode.gecode", "tags": ["cp", "int"]}])


def fake_minizinc(folder: Path, body: str) -> str:
    """A PATH with a ``minizinc`` first that answers --solvers-json, then runs ``body``."""
    folder.mkdir(exist_ok=True)
    script = folder / "minizinc"
    script.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "--solvers-json" ]; then echo \'{FAKE_SOLVERS}\'; exit 0; fi\n{body}\n'
    )
    script.chmod(0o755)
    return f"{folder}{os.pathsep}{os.environ['PATH']}"
