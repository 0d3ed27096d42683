"""The engine contract: what every engine promises, checked on every engine.

Runs on every registered engine and on the template engine of
``engines/base.py``; ``pytest --engine NAME`` runs it on one. An engine that
cannot do a task must say so (``UnsupportedTaskError``), never pretend.
"""

from __future__ import annotations

import pickle
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from cp_queens import Problem, engines, verify
from cp_queens.answer import Answer
from cp_queens.budget import Budget
from cp_queens.engines.base import Engine, UniqueCount
from cp_queens.errors import (
    CpQueensError,
    EngineOptionError,
    TimeLimitError,
    UnsupportedTaskError,
)
from cp_queens.stats import COMPLETE, TIME_LIMIT, Progress
from tests.helpers import UNREGISTERED, build_or_skip, reference_set, total, unique

MakeEngine = Callable[..., Engine]

#: Engines that start a solver process for every call (about 0.1 s of CPU each, whatever
#: the size): by default their per-size checks below take the sizes in ``SAMPLE`` and the
#: largest; the slow run takes every size (``test_every_size_on_the_process_engines``).
PROCESS_ENGINES = ("cpmpy", "minizinc")


def on_process_engines_by_default(param: str, *kept: object) -> pytest.MarkDecorator:
    """On a process engine, only the cases of ``param`` in ``kept`` run by default; its other
    cases join the slow run (tests/conftest.py marks them). The cases kept are the edges of
    the family; the others go through the same code on another size or count, which costs
    such an engine a solver process each."""
    return pytest.mark.sampled(param, kept, engines=PROCESS_ENGINES)


#: Largest n at which an engine's whole solution set (and count) is checked in the default
#: run: bounded by how long the slowest engines take, not by what they can do.
CHECK_UP_TO = {
    # cpsat's default method counts n >= 10 in orbit subproblems: n = 10 here, n = 11 in
    # tests/test_cpsat_symmetry.py (n = 12 there in the slow run)
    "cpsat": 9,
    "template": 8,
    "pyconstraint": 9,
    "cpsat-board": 9,
    "propagate": 9,
    # every backend's sets up to n = 9 are in tests/test_solvers.py
    "cpmpy": 8,
    "minizinc": 8,
}


def check_up_to(name: str) -> int:
    return CHECK_UP_TO.get(name, 10)


def fit(engine: Engine, n: int) -> int:
    """``n``, or the engine's ``max_n`` if that is smaller: every size a contract test
    picks goes through here, so an engine with a small ``max_n`` is tested within it."""
    return n if engine.max_n is None else min(n, engine.max_n)


def can(engine: Engine, task: str) -> bool:
    return {"enumerate": engine.can_enumerate, "count": engine.can_count}[task]


def needs(engine: Engine, task: str) -> None:
    """Skip, saying why, a test of ``task`` (``count`` or ``enumerate``) on an engine that
    cannot do it: a report of ``--engine construct`` then says "skipped", never "passed"
    for a promise it was not held to (its refusal is ``test_unable_engines_say_so``'s)."""
    if not can(engine, task):
        pytest.skip(f"engine '{engine.name}' cannot {task} (it says so: UnsupportedTaskError)")


def registered(engine_name: str) -> None:
    """Skip a test of the registry on an engine built outside it (the template)."""
    if engine_name in UNREGISTERED:
        pytest.skip(f"'{engine_name}' is not in the registry: its constructor is plain Python")


@pytest.mark.parametrize("n", [1, 4, 5, 8, 9, 12])
@on_process_engines_by_default("n", 1, 12)
def test_first_is_a_valid_solution(make_engine: MakeEngine, n: int) -> None:
    engine = make_engine()
    if n != fit(engine, n):
        with pytest.raises(UnsupportedTaskError, match=f"n <= {engine.max_n}"):
            engine.first(Problem(n))
        return
    answer = engine.first(Problem(n))
    placement = answer.value
    assert answer.complete and placement is not None and placement.n == n
    assert verify(placement)
    assert answer.stats is not None and answer.stats.solutions == 1
    assert (answer.stats.task, answer.stats.n) == ("first", n)


@pytest.mark.parametrize("n", [1, 2])
@on_process_engines_by_default("n", 1)
def test_a_sampled_case_is_slow_exactly_where_it_is_left_out(
    request: pytest.FixtureRequest, engine_name: str, n: int
) -> None:
    """tests/conftest.py marks the cases ``on_process_engines_by_default`` leaves out as
    slow (here n = 2 on a process engine), and no other: were it not to, this case would
    run by default unmarked and fail."""
    left_out = engine_name in PROCESS_ENGINES and n != 1
    assert (request.node.get_closest_marker("slow") is not None) == left_out


@pytest.mark.parametrize("n", [2, 3])
@on_process_engines_by_default("n", 3)
def test_first_reports_no_solution(make_engine: MakeEngine, n: int) -> None:
    answer = make_engine().first(Problem(n))
    assert (answer.value, answer.complete, answer.outcome) == (None, True, "negative")
    assert answer.stats is not None and answer.stats.solutions == 0


def test_unable_engines_say_so(make_engine: MakeEngine, engine_name: str) -> None:
    engine = make_engine()
    if not engine.can_enumerate:
        with pytest.raises(UnsupportedTaskError, match=engine_name):
            engine.solutions(Problem(6))
    if not engine.can_count:
        with pytest.raises(UnsupportedTaskError, match=engine_name):
            engine.count(Problem(6))


#: The sizes a process engine is checked at by default: the one-square board, a board
#: without a solution, a small board with several (and a symmetric one), and the largest
#: its ``CHECK_UP_TO`` names.
SAMPLE = (1, 3, 6)


def sizes(engine_name: str, up_to: int, *, every: bool = False) -> list[int]:
    """The sizes 1..``up_to`` a per-size check takes: all of them, but for a process engine
    in the default run ``SAMPLE`` and ``up_to``."""
    if every or engine_name not in PROCESS_ENGINES:
        return list(range(1, up_to + 1))
    return sorted({n for n in SAMPLE if n <= up_to} | {up_to})


def check_solution_sets(engine: Engine, ns: list[int]) -> None:
    for n in ns:
        found = list(engine.solutions(Problem(n)))
        assert len(found) == len(set(found)), f"duplicates at n={n}"
        assert set(found) == reference_set(n), f"n={n}"


def check_counts(engine: Engine, ns: list[int]) -> None:
    for n in ns:
        answer = engine.count(Problem(n))
        assert (answer.value, answer.complete) == (total(n), True), f"n={n}"
        assert answer.stats is not None
        assert (answer.stats.solutions, answer.stats.status) == (total(n), COMPLETE)
        assert (answer.stats.engine, answer.stats.task) == (engine.name, "count")


def check_unique_counts(engine: Engine, ns: list[int]) -> None:
    for n in ns:
        answer = engine.count_unique(Problem(n))
        assert answer.value == (total(n), unique(n)), f"n={n}"
        assert answer.stats is not None and answer.stats.extra["unique"] == unique(n)


def largest(engine: Engine, engine_name: str, task: str) -> int:
    """The largest size the per-size check of ``task`` takes on the engine."""
    up_to = check_up_to(engine_name)
    return fit(engine, {"solutions": up_to, "count": up_to + 1, "unique": min(8, up_to)}[task])


def test_solution_sets_equal_the_reference(make_engine: MakeEngine, engine_name: str) -> None:
    engine = make_engine()
    needs(engine, "enumerate")
    check_solution_sets(engine, sizes(engine_name, largest(engine, engine_name, "solutions")))


def test_counts_match_oeis(make_engine: MakeEngine, engine_name: str) -> None:
    engine = make_engine()
    needs(engine, "count")
    check_counts(engine, sizes(engine_name, largest(engine, engine_name, "count")))


def test_unique_counts_match_oeis(make_engine: MakeEngine, engine_name: str) -> None:
    engine = make_engine()
    needs(engine, "count")
    check_unique_counts(engine, sizes(engine_name, largest(engine, engine_name, "unique")))


@pytest.mark.slow
@pytest.mark.parametrize("name", PROCESS_ENGINES)
def test_every_size_on_the_process_engines(name: str) -> None:
    """The sizes the default run leaves out on the engines that start a process per call:
    every solution set, count and unique count up to their ``CHECK_UP_TO``."""
    engine = build_or_skip(name)
    check_solution_sets(engine, sizes(name, largest(engine, name, "solutions"), every=True))
    check_counts(engine, sizes(name, largest(engine, name, "count"), every=True))
    check_unique_counts(engine, sizes(name, largest(engine, name, "unique"), every=True))


def test_the_default_sizes_of_a_process_engine_keep_its_edges() -> None:
    """The sample keeps n = 1, a board without a solution and the largest size checked."""
    assert sizes("minizinc", 8) == [1, 3, 6, 8] and sizes("reference", 4) == [1, 2, 3, 4]
    assert sizes("cpmpy", 8, every=True) == list(range(1, 9))


@pytest.mark.parametrize("limit", [0, 1, 3, 5, 100])
@on_process_engines_by_default("limit", 0, 1, 100)
def test_streams_honour_their_limit(make_engine: MakeEngine, limit: int) -> None:
    engine = make_engine()
    needs(engine, "enumerate")
    stream = engine.solutions(Problem(6), limit=limit)
    found = list(stream)
    assert len(found) == min(limit, total(6)) == stream.stats.solutions
    assert all(verify(p) for p in found) and len(set(found)) == len(found)


@pytest.mark.parametrize("limit", [2.5, -1, True, "3"])
def test_a_limit_is_a_whole_number(make_engine: MakeEngine, limit: object) -> None:
    engine = make_engine()
    needs(engine, "enumerate")
    with pytest.raises(CpQueensError, match="limit"):
        engine.solutions(Problem(6), limit=limit)  # type: ignore[arg-type]


def _worker_threads() -> int:
    return sum(1 for t in threading.enumerate() if t is not threading.main_thread())


@pytest.mark.parametrize("take", [0, 1, 7])
@on_process_engines_by_default("take", 0, 7)
def test_closing_a_stream_early_leaves_no_thread_running(
    make_engine: MakeEngine, take: int
) -> None:
    engine = make_engine()
    needs(engine, "enumerate")
    before = _worker_threads()
    with engine.solutions(Problem(fit(engine, 8))) as stream:
        for _ in zip(range(take), stream, strict=False):
            pass
    assert stream.stats.status in ("stopped", COMPLETE)
    deadline = time.monotonic() + 5
    while _worker_threads() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _worker_threads() <= before


def test_a_time_limit_stops_the_call_and_says_so(make_engine: MakeEngine) -> None:
    """Either the work finished exactly in time, or its answer says it was cut short.

    The bound on the elapsed time is generous on purpose: this checks that the
    limit is obeyed at all, not how fast anything is (benchmarks do that).
    """
    engine, limited = make_engine(), Budget.of(time_limit=0.05)
    # n = 12: more than 0.05 s for every engine here but 'fast' (which counts it without
    # building its compiled kernels: a first build takes half a minute). The limit is
    # short because each engine searches flat out until it passes.
    n = min(engine.max_n or 12, 12)
    started = time.perf_counter()
    if engine.can_count:
        answer, exact = engine.count(Problem(n), budget=limited), total(n)
        found = answer.found
    else:
        answer, exact = engine.first(Problem(n), budget=limited), 1
        found = int(answer.found is not None)
    assert answer.stats is not None
    if answer.complete:
        assert (answer.stats.status, found) == (COMPLETE, exact)
    else:
        assert (answer.stats.status, answer.reason) == (TIME_LIMIT, TIME_LIMIT)
        # A lower bound: what the finished subproblems found, which may already be all
        # (the ones left unsearched held no solution).
        assert answer.value is None and (found is None or found <= exact)
        with pytest.raises(TimeLimitError) as cut:
            answer.result()
        assert cut.value.stats is answer.stats and cut.value.partial == answer.partial
    assert time.perf_counter() - started < 30


# -- the completeness convention: a tiny time limit on every task --------------------
#
# With a limit that has passed before the search starts, each task either finished
# anyway (a small board, checked against the exact answer) or gave an answer marked
# incomplete, its partial figure under ``partial`` (never ``value``), which cannot be
# mistaken for the answer, and ``result()`` raising ``TimeLimitError``. Never an
# incomplete figure where the answer goes. n = 12 has 14,200 solutions: no engine
# streams them all before its first look at the clock.
TINY = Budget.of(time_limit=1e-6)
N = 12


def _sized(engine: Engine) -> int:
    return min(engine.max_n or N, N)


def _cut_short(answer: Answer) -> TimeLimitError:
    """What ``result()`` raises for an ``answer`` a time limit cut short, checked against
    the answer's own fields."""
    assert not answer.complete and answer.value is None and answer.outcome == "incomplete"
    assert answer.stats is not None and answer.stats.status == answer.reason == TIME_LIMIT
    with pytest.raises(TimeLimitError) as cut:
        answer.result()
    assert cut.value.partial == answer.partial and cut.value.stats is answer.stats
    assert not isinstance(cut.value, CpQueensError)
    return cut.value


def test_a_count_cut_short_is_marked_with_the_partial_count(make_engine: MakeEngine) -> None:
    engine = make_engine()
    needs(engine, "count")
    n = _sized(engine)
    answer = engine.count(Problem(n), budget=TINY)
    if answer.complete:
        assert answer.value == total(n) and answer.stats and answer.stats.status == COMPLETE
        return
    assert isinstance(answer.partial, int) and 0 <= answer.partial < total(n)
    assert "lower bound" in str(_cut_short(answer))


def test_a_unique_count_cut_short_is_marked_with_partial_counts(make_engine: MakeEngine) -> None:
    engine = make_engine()
    needs(engine, "count")
    n = _sized(engine)
    try:
        answer = engine.count_unique(Problem(n), budget=TINY)
    except UnsupportedTaskError as refused:  # e.g. cpsat with symmetry breaking says so
        pytest.skip(f"engine '{engine.name}' cannot count unique solutions: {refused}")
    if answer.complete:
        assert answer.value == (total(n), unique(n))
        return
    assert isinstance(answer.partial, UniqueCount)
    assert answer.partial.total < total(n) or answer.partial.unique < unique(n)
    _cut_short(answer)


def test_first_out_of_time_is_marked_instead_of_saying_none(make_engine: MakeEngine) -> None:
    engine = make_engine()
    answer = engine.first(Problem(_sized(engine)), budget=TINY)
    if answer.complete:  # ``None`` would claim that n = 12 has no solution
        assert answer.value is not None and verify(answer.value).ok
        return
    assert answer.partial is None and answer.outcome != "negative"
    assert "not proven" in str(_cut_short(answer))


def test_a_stream_cut_short_yields_then_raises(make_engine: MakeEngine) -> None:
    engine = make_engine()
    needs(engine, "enumerate")
    n = _sized(engine)
    got = []
    stream = engine.solutions(Problem(n), budget=TINY)
    try:
        for placement in stream:
            got.append(placement)
    except TimeLimitError as cut:
        assert cut.partial == len(got) < total(n)
        assert cut.stats is stream.stats and stream.stats.status == TIME_LIMIT
    else:
        assert len(got) == total(n)
    assert all(verify(p).ok for p in got)


def test_a_limit_or_closing_the_stream_is_not_an_error(make_engine: MakeEngine) -> None:
    engine, roomy = make_engine(), Budget.of(time_limit=60)
    needs(engine, "enumerate")
    n = fit(engine, 8)
    assert len(list(engine.solutions(Problem(n), limit=3, budget=roomy))) == 3
    with engine.solutions(Problem(n), budget=roomy) as stream:
        next(stream)
    assert stream.stats.status != TIME_LIMIT


def test_each_call_runs_under_its_own_budget(make_engine: MakeEngine) -> None:
    """A call cut short leaves nothing behind: the next call, with room, is whole."""
    engine = make_engine()
    needs(engine, "count")
    n = _sized(engine)
    engine.count(Problem(n), budget=TINY)
    n = min(n, 8)
    assert engine.count(Problem(n), budget=Budget.of(time_limit=60)).value == total(n)
    assert engine.count(Problem(n)).value == total(n)


def test_progress_comes_as_progress_records(make_engine: MakeEngine) -> None:
    engine = make_engine()
    needs(engine, "count")
    seen: list[Progress] = []
    n = fit(engine, 10)
    assert engine.count(Problem(n), progress=seen.append).value == total(n)
    assert all(isinstance(p, Progress) for p in seen)
    solutions = [p.solutions for p in seen]
    assert solutions == sorted(solutions) and all(s <= total(n) for s in solutions)


def test_options_are_checked_when_the_engine_is_made(engine_name: str) -> None:
    registered(engine_name)
    with pytest.raises(EngineOptionError, match=f"engine '{engine_name}' has no option 'nope'"):
        engines.get(engine_name, nope=1)
    for bad in (-1, 0, float("inf"), "soon"):
        with pytest.raises(CpQueensError, match="time_limit"):
            engines.build(engine_name, time_limit=bad)


def test_run_settings_are_not_kept_on_the_engine(engine_name: str) -> None:
    """``get`` builds an engine of its method only; a run setting is refused in one line
    naming both ways to give it with a call."""
    registered(engine_name)
    with pytest.raises(EngineOptionError) as refused:
        engines.get(engine_name, time_limit=5)
    said = str(refused.value)
    assert "\n" not in said and "budget=Budget.of(time_limit=5)" in said
    assert f"engines.build('{engine_name}', time_limit=5)" in said
    engine, budget = engines.build(engine_name, time_limit=5)
    assert budget.time_limit == 5.0 and not hasattr(engine, "budget")


def _state(engine: Engine) -> bytes:
    """Everything the engine object holds, to the last byte (its attributes, pickled)."""
    return pickle.dumps(vars(engine))


def test_a_call_leaves_the_engine_as_it_was(make_engine: MakeEngine) -> None:
    """Nothing of a call is kept on the engine: its whole state is the same after each
    task, a time limit and a stream included."""
    engine = make_engine()
    before = _state(engine)
    assert not hasattr(engine, "stats") and not hasattr(engine, "budget")
    n = fit(engine, 6)
    answers = [engine.first(Problem(n)), engine.first(Problem(n), budget=TINY)]
    if engine.can_count:
        answers += [engine.count(Problem(n)), engine.count(Problem(n), budget=TINY)]
    if engine.can_enumerate:
        with engine.solutions(Problem(n), limit=2) as stream:
            list(stream)
    assert _state(engine) == before
    assert all(answer.stats is not None and answer.stats.n == n for answer in answers)


def test_one_engine_serves_two_streams_at_once(make_engine: MakeEngine) -> None:
    """Nothing of a call lives on the engine: two open streams keep their own statistics."""
    engine = make_engine()
    needs(engine, "enumerate")
    six, seven = engine.solutions(Problem(6)), engine.solutions(Problem(7))
    from_six, from_seven = [], []
    for a, b in zip(six, seven, strict=False):
        from_six.append(a)
        from_seven.append(b)
    from_seven.extend(seven)
    assert set(from_six) == reference_set(6) and set(from_seven) == reference_set(7)
    assert (six.stats.n, six.stats.solutions) == (6, total(6))
    assert (seven.stats.n, seven.stats.solutions) == (7, total(7))


def test_one_engine_serves_two_threads_at_once(make_engine: MakeEngine) -> None:
    """Two threads count on one engine at the same time (held at a barrier until both
    are ready), each with its own answer and its own statistics."""
    engine = make_engine()
    needs(engine, "count")
    sizes = (fit(engine, 8) - 1, fit(engine, 8))
    ready = threading.Barrier(len(sizes), timeout=60)
    results: dict[int, tuple[int, int, int]] = {}

    def count(n: int) -> None:
        ready.wait()
        answer = engine.count(Problem(n))
        assert answer.stats is not None
        results[n] = (answer.value, answer.stats.n, answer.stats.solutions)

    threads = [threading.Thread(target=count, args=(n,)) for n in sizes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {n: (total(n), n, total(n)) for n in sizes}


# -- the limits contract: every engine and backend stops at a time limit --------------
#
# At a 1-second limit on a board it cannot finish, every engine (each backend of
# ``cpmpy`` apart) stops within seconds, under a memory ceiling, leaves no process
# behind, and says so: ``TimeLimitError`` in the library, exit 4 on the command line.
# The board is chosen from the engine's own cost figures (``cp_queens.limits``), never
# hard-coded: a count whose estimate is a minute or more; a first solution beyond the
# engine's reach, or a model whose setup outlasts the limit, or (CPMpy, MiniZinc,
# whose model building cannot look at the clock) the largest board their memory figure
# allows. Each run is a process of its own, watched with its children (psutil).

#: Memory the whole process tree may reach (peak resident bytes, summed).
CEILING = 3e9
#: CPU seconds a run's whole process tree may spend, start-up (imports) included. CPU, not
#: the wall clock: at load 30 a quiet 3 s run takes 25 s of wall whatever the code does,
#: while its CPU seconds hardly move; a run that ignored its limit works for a minute or
#: more (the boards are chosen so) until the watchdog ends it.
STOPS_WITHIN = 20.0
#: Seconds of wall clock after which a run is taken for hung and killed.
WATCHDOG = 120.0
LIMIT = 0.3


def _targets() -> list[str]:
    from cp_queens.engines.cpmpy import SOLVERS

    out: list[str] = []
    for name in engines.names():
        out += [f"cpmpy:solver={s}" for s in SOLVERS] if name == "cpmpy" else [name]
    return out


def _engine(spec: str) -> Engine:
    name, options = engines.parse_spec(spec)
    return build_or_skip(name, **options)


def _size(engine: Engine, task: str) -> int | None:
    """A board ``engine`` cannot finish ``task`` on within the limit, by its figures."""
    from cp_queens import limits

    cap = engine.max_n or 1 << 20

    def fits(n: int) -> bool:
        return limits.memory_needed(engine, n) <= CEILING / 3

    if task in ("count", "enumerate"):
        for n in range(4, min(cap, 40) + 1):
            seconds = limits.count_seconds(engine, n)
            if seconds is None:
                return None
            if seconds >= 60:
                return n if fits(n) else None
        return None
    if engine.first_reach is not None:
        return min(cap, 2 * engine.first_reach)
    n = 8
    while 2 * n <= cap and fits(2 * n):
        n *= 2
    setup = limits.setup_seconds(engine, n)
    if (setup is not None and setup > LIMIT) or engine.name in ("cpmpy", "minizinc"):
        return n
    return None  # its figures promise nothing it cannot finish (a formula, local search)


def _watch(argv: list[str]) -> tuple[int, str, float, float, set[int]]:
    """Run ``argv``: exit code, stderr + stdout tail, CPU seconds of its tree, peak tree
    bytes, pids left behind."""
    import resource
    import subprocess
    import sys

    import psutil

    def children_cpu() -> float:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return used.ru_utime + used.ru_stime

    before = children_cpu()
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    root = psutil.Process(process.pid)
    seen: dict[int, float] = {}
    peak = 0.0
    reader = threading.Thread(target=lambda: outputs.append(process.communicate()))
    outputs: list[tuple[str, str]] = []
    reader.start()
    while process.poll() is None and time.monotonic() - started < WATCHDOG:
        try:
            tree = [root, *root.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree))
            seen.update({p.pid: p.create_time() for p in tree[1:]})
        except psutil.Error:
            pass
        time.sleep(0.05)
    if process.poll() is None:
        process.kill()
    reader.join()
    spent = children_cpu() - before
    out, err = outputs[0]
    # A killed tree takes a moment to be reaped: what is still there after 3 s was left.
    left = _alive(seen)
    until = time.monotonic() + 3
    while left and time.monotonic() < until:
        time.sleep(0.02)
        left = _alive(seen)
    return process.returncode, (err + out)[-600:], spent, peak, left


def _alive(seen: dict[int, float]) -> set[int]:
    """The processes of ``seen`` (pid: creation time) still running, zombies aside."""
    import psutil

    left = set()
    for pid, created in seen.items():
        try:
            alive = psutil.Process(pid)
            if alive.create_time() == created and alive.status() != psutil.STATUS_ZOMBIE:
                left.add(pid)
        except psutil.Error:
            pass
    return left


_LIBRARY = """
import sys
from cp_queens import Problem, engines
from cp_queens.errors import TimeLimitError
name, options = engines.parse_spec(sys.argv[1])
engine, budget = engines.build(name, time_limit={limit}, **options)
task, n = sys.argv[2], int(sys.argv[3])
try:
    if task == "first":
        engine.first(Problem(n), budget=budget).result()
    elif task == "count":
        engine.count(Problem(n), budget=budget).result()
    else:
        for _ in engine.solutions(Problem(n), budget=budget):
            pass
except TimeLimitError:
    print("TimeLimitError")
"""

#: Cases run by default (the rest, minutes in all, in the slow run).
_QUICK = {("cpmpy:solver=pysat", "count", "cli"), ("minizinc", "first", "library")}


def _cases() -> list[Any]:
    cases = []
    for spec in _targets():
        for task in ("first", "count", "enumerate"):
            for where in ("library", "cli"):
                marks = () if (spec, task, where) in _QUICK else (pytest.mark.slow,)
                cases.append(pytest.param(spec, task, where, marks=marks))
    return cases


@pytest.mark.parametrize(("spec", "task", "where"), _cases())
def test_every_engine_stops_at_a_time_limit(spec: str, task: str, where: str) -> None:
    engine = _engine(spec)
    if task != "first" and not engine.able_to(task):
        pytest.skip(f"{spec} cannot {task}")
    n = _size(engine, task)
    if n is None:
        pytest.skip(f"{spec}: its cost figures name no board it cannot {task} within 1 s")
    if where == "library":
        argv = ["-c", _LIBRARY.format(limit=LIMIT), spec, task, str(n)]
    else:
        command = {"first": "solve", "count": "count", "enumerate": "enumerate"}[task]
        argv = ["-m", "cp_queens", command, str(n), "-e", spec, "--time-limit", str(LIMIT)]
        argv += ["--format", "jsonl"] if task != "count" else []
    code, said, spent, peak, left = _watch(argv)
    assert code != -9, f"{spec} {task} n={n}: still running after {WATCHDOG:.0f} s, killed"
    assert spent < STOPS_WITHIN, f"{spec} {task} n={n}: {spent:.1f} CPU-s"
    assert peak < CEILING, f"{spec} {task} n={n}: {peak / 1e9:.1f} GB"
    assert not left, f"{spec} {task} n={n}: processes left behind {left}"
    assert "Traceback" not in said and "internal error" not in said, said
    if where == "library":
        assert code == 0 and "TimeLimitError" in said, (code, said)
    else:
        assert code == 4, (code, said)


def test_an_engine_that_cannot_count_is_reported_skipped_not_passed() -> None:
    """``pytest tests/test_contract.py --engine construct`` (an engine that neither counts
    nor enumerates) reports the counting and enumerating promises as skipped, with the
    reason: a pass would say it was held to them."""
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__)
    run = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", str(here), "--engine", "construct"),
            *("-k", "oeis or equal_the_reference", "-n0", "-q", "-rs", "-p", "no:cacheprovider"),
        ],
        capture_output=True,
        text=True,
        cwd=here.parent.parent,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    assert "3 skipped" in run.stdout and "passed" not in run.stdout, run.stdout[-2000:]
    assert "engine 'construct' cannot count" in run.stdout
    assert "engine 'construct' cannot enumerate" in run.stdout
