"""One model, many solvers: engines ``cpmpy`` (every backend) and ``minizinc`` (every model).

The engine contract (tests/test_contract.py) runs both engines with their default
solver; here every backend and every model variant gives the reference's exact
solution sets for n = 1..9 (the blocking-clause backends, which take seconds at
n = 9, go that far in the slow run), counts agree, and what is missing says what
to install. A solver not installed here is a skip with its reason, except on CI.
"""

from __future__ import annotations

import pytest

from cp_queens import Problem, engines, verify
from cp_queens.errors import CpQueensError, UnsupportedTaskError
from tests.helpers import build_or_skip, reference_set, total, unique

#: Backends whose enumeration is native (fast): checked up to n = 9 in the default run,
#: but for the engines' default solvers (CPMpy's OR-Tools, MiniZinc's Gecode), whose sets,
#: counts, first solutions and completions the engine contract and tests/test_completion.py
#: check there: here they run in the slow run.
FAST = [
    pytest.param("cpmpy", "ortools", marks=pytest.mark.slow),
    # Choco starts a JVM per call (half a second each): the default run has a twin below.
    pytest.param("cpmpy", "choco", marks=pytest.mark.slow),
    pytest.param("minizinc", "gecode", marks=pytest.mark.slow),
]
#: Backends enumerating by blocking clauses (seconds at n = 9): n = 5 by default.
BLOCKING = [("cpmpy", "exact"), ("cpmpy", "pumpkin"), ("cpmpy", "pysat")]


def _check_sets(name: str, solver: str, up_to: int, **options: str) -> None:
    engine = build_or_skip(name, solver=solver, **options)
    for n in range(1, up_to + 1):
        found = list(engine.solutions(Problem(n)))
        assert len(found) == len(set(found)), f"{solver}: duplicates at n={n}"
        assert set(found) == reference_set(n), f"{solver}: n={n}"


@pytest.mark.parametrize(("name", "solver"), FAST)
def test_native_enumeration_gives_the_reference_sets(name: str, solver: str) -> None:
    _check_sets(name, solver, 9)


def test_choco_counts_enumerates_and_completes() -> None:
    """The default run's twin of Choco's two slow checks: one call of each kind."""
    engine = build_or_skip("cpmpy", solver="choco")
    assert set(engine.solutions(Problem(6))) == reference_set(6)
    assert engine.count(Problem(8)).value == total(8)
    problem = Problem(8, fixed={0: 0}, blocked=[(1, 4)])
    assert set(engine.solutions(problem)) == {p for p in reference_set(8) if problem.admits(p)}


@pytest.mark.parametrize(("name", "solver"), BLOCKING)
def test_blocking_enumeration_gives_the_reference_sets_small(name: str, solver: str) -> None:
    """n = 5 (ten solutions, so ten blocking clauses); 1..9 in the slow run."""
    engine = build_or_skip(name, solver=solver)
    found = list(engine.solutions(Problem(5)))
    assert len(found) == len(set(found)) and set(found) == reference_set(5)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "solver"), BLOCKING)
def test_blocking_enumeration_gives_the_reference_sets(name: str, solver: str) -> None:
    _check_sets(name, solver, 9)


@pytest.mark.parametrize("solver", ["ortools", "choco", "exact"])
@pytest.mark.parametrize("sizes", [(5,), pytest.param(range(1, 7), marks=pytest.mark.slow)])
def test_forced_blocking_gives_the_same_sets(solver: str, sizes: range) -> None:
    engine = build_or_skip("cpmpy", solver=solver, enumeration="blocking")
    assert engine.enumeration == "blocking"
    for n in sizes:
        assert set(engine.solutions(Problem(n))) == reference_set(n), f"{solver}: n={n}"


@pytest.mark.parametrize(
    ("name", "solver"), [*FAST, *(pytest.param(*pair, marks=pytest.mark.slow) for pair in BLOCKING)]
)
def test_counts_first_and_completions(name: str, solver: str) -> None:
    engine = build_or_skip(name, solver=solver)
    assert [engine.count(Problem(n)).value for n in range(1, 7)] == [total(n) for n in range(1, 7)]
    placement = engine.first(Problem(20)).value
    assert placement is not None and verify(placement).ok
    assert engine.first(Problem(3)).value is None
    problem = Problem(8, fixed={0: 0}, blocked=[(1, 4)])
    expected = {p for p in reference_set(8) if problem.admits(p)}
    assert set(engine.solutions(problem)) == expected
    # a given queen whose diagonals close a free row completely: no completion
    assert engine.count(Problem(4, fixed={0: 1}, blocked=[(1, 3)])).value == 0


def test_solver_statistics_are_the_solvers_own() -> None:
    stats = build_or_skip("minizinc", solver="gecode").count(Problem(8)).stats
    assert stats is not None and stats.branches and stats.conflicts is not None
    assert stats.extra["solver_status"] == "ALL_SOLUTIONS"
    stats = build_or_skip("cpmpy", solver="ortools").count(Problem(8)).stats
    assert stats is not None and stats.branches and stats.extra["enumeration"] == "native"


@pytest.mark.slow
@pytest.mark.parametrize("model", ["plain", "first-fail"])
def test_minizinc_models_enumerate_every_solution(model: str) -> None:
    _check_sets("minizinc", "gecode", 9, model=model)


#: One MiniZinc call per n (0.1 s each): by default a board of each kind, no solution
#: (3), one solution alone in its class (1), classes of 8 and 2 (5: 10 = 8 + 2) and of 4
#: (6); every n up to 8 in the slow run (8: classes of 8 and 4 again).
SYMMETRY_SIZES = [(1, 3, 5, 6), pytest.param(range(1, 9), marks=pytest.mark.slow)]


@pytest.mark.parametrize("sizes", SYMMETRY_SIZES, ids=["kinds", "1-8"])
def test_minizinc_symmetry_model_finds_one_per_class(sizes: tuple[int, ...]) -> None:
    engine = build_or_skip("minizinc", model="symmetry")
    for n in sizes:
        found = list(engine.solutions(Problem(n)))
        assert len(found) == unique(n), f"n={n}"
        # one representative of each class: no two related by a symmetry
        from cp_queens.symmetry import canonical

        assert len({canonical(p) for p in found}) == unique(n)
    with pytest.raises(UnsupportedTaskError, match="symmetry"):
        engine.count(Problem(8, fixed={0: 0}))


def test_bad_options_are_one_line_errors() -> None:
    with pytest.raises(CpQueensError, match=r"unknown solver 'nope'.*ortools"):
        engines.get("cpmpy", solver="nope")
    with pytest.raises(CpQueensError, match="has no native enumeration"):
        build_or_skip("cpmpy", solver="pysat", enumeration="native")
    with pytest.raises(CpQueensError, match="unknown model 'nope'"):
        engines.get("minizinc", model="nope")


def test_a_missing_minizinc_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import cp_queens.engines.minizinc as module

    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    with pytest.raises(CpQueensError, match="apt-get install minizinc"):
        engines.get("minizinc")


def test_a_missing_backend_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("cpmpy")
    import cpmpy

    class Missing:
        @staticmethod
        def supported() -> bool:
            return False

    monkeypatch.setattr(cpmpy.SolverLookup, "lookup", lambda name: Missing)
    with pytest.raises(CpQueensError, match=r"pip install '\.\[solvers\]' in a clone"):
        engines.get("cpmpy", solver="exact")


def test_a_missing_choco_is_found_without_starting_its_jvm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pychoco is looked for, not imported: its JVM ends the process when it cannot start."""
    pytest.importorskip("cpmpy")
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pychoco" else real(name, *a)
    )
    with pytest.raises(CpQueensError, match=r"solver 'choco' is not installed"):
        engines.get("cpmpy", solver="choco")


def test_the_models_ship_in_the_package() -> None:
    from cp_queens.engines.minizinc import MODELS, model_path

    for model in MODELS:
        with open(model_path(model), encoding="utf-8") as source:
            text = source.read()
        assert "alldifferent(q)" in text and "solve" in text
