"""Teacher's key, lesson 08 (propagation): exercises 24-29 of EXERCISES.md."""

import time
from itertools import combinations, permutations

import cp_queens
from cp_queens import Problem, engines
from cp_queens.course.display import wrapped
from cp_queens.course.drawing.trace import record

LEVELS = ("none", "forward", "arc", "alldiff")


def nodes(n: int, consistency: str, **options: str) -> int:
    engine = engines.get("propagate", consistency=consistency, **options)
    return engine.count(Problem(n)).stats.branches


# Exercise 24: with the rows in order, each level removes at least what the weaker one
# removes, so its tree is a subtree of the weaker one's: nodes can only fall. With
# first-fail the stronger level may choose *different* rows, the trees are no longer
# nested, and nothing guarantees it. In practice they still fall for n = 4..10 here (the
# function returns the n where they do not: none). A side lesson: `none` needs exactly as
# many nodes with first-fail as in row order - without propagation the domains never
# shrink, first-fail is a fixed order, and its first k rows are always a block of
# adjacent rows, which has as many partial solutions as rows 0..k-1.
def exercise_24(sizes=range(4, 11), variable_order: str = "first-fail") -> dict[int, list[int]]:
    """Node counts per level (none, forward, arc, alldiff) for each n where they grow."""
    grows = {}
    for n in sizes:
        counts = [nodes(n, level, variable_order=variable_order) for level in LEVELS]
        if counts != sorted(counts, reverse=True):
            grows[n] = counts
    return grows


# Exercise 25: forward checking written out with sets, from the reference backtracker.
def exercise_25(n: int = 8, given: dict[int, int] | None = None) -> tuple[int, int]:
    """(completions, queens placed) of forward checking with ``given`` queens."""
    given = {0: 3} if given is None else given
    free = [set(range(n)) for _ in range(n)]
    for row, col in given.items():
        free[row] = {col}
        for other in range(n):
            if other not in given:
                distance = abs(other - row)
                free[other] -= {col, col - distance, col + distance}
    placed = 0

    def search(row: int) -> int:
        nonlocal placed
        if row == n:
            return 1
        if row in given:
            return search(row + 1)
        found = 0
        for col in sorted(free[row]):
            placed += 1
            saved = [set(columns) for columns in free]
            wiped = False
            for other in range(row + 1, n):
                if other in given:
                    continue
                distance = other - row
                free[other] -= {col, col - distance, col + distance}
                wiped = wiped or not free[other]
            if not wiped:
                found += search(row + 1)
            free[:] = saved
        return found

    return search(0), placed


# Exercise 26: microseconds per node, from a fresh count (the lesson's table gives the same
# picture). If a node cost the same everywhere, alldiff would win by its node ratio (about
# 30 % of none's nodes at n = 11-12). It does not: a node of plain testing costs three bit
# tests, arc two and a half times that, alldiff about three times arc. Measured at n = 12
# (CPU, benchmarks/propagate.py, 23 Nov 2026): none 2.9 s, arc 2.6 s, forward 3.2 s,
# alldiff 6.5 s - in pure Python arc and plain testing are about even at counting, alldiff
# is far behind.
def exercise_26(n: int = 10) -> dict[str, float]:
    per_node = {}
    for level in LEVELS:
        engine = engines.get("propagate", consistency=level)
        started = time.process_time()
        nodes = engine.count(Problem(n)).stats.branches
        per_node[level] = 1e6 * (time.process_time() - started) / nodes
    return per_node


# Exercise 27: with first-fail and centre values the search hardly backtracks (about n
# nodes), so the time is (nodes) x (cost per node), and the cost per node is what differs:
# forward checking touches each row once per queen, alldiff runs Régin's algorithm on three
# AllDifferents over all rows left. Measured (benchmarks/propagate.py --largest, 10 s of
# CPU, 23 Nov 2026): forward n = 2560, arc 2496, alldiff 1600 (forward and arc swap places
# from run to run). For a first solution the cheapest propagation that keeps the
# search backtrack-free wins - the opposite of the all-solutions count, where nodes
# dominate.
def exercise_27(n: int = 150) -> dict[str, float]:
    seconds = {}
    for level in ("forward", "arc", "alldiff"):
        engine = engines.get(
            "propagate",
            consistency=level,
            variable_order="first-fail-centre",
            value_order="centre",
        )
        started = time.perf_counter()
        placement = engine.first(Problem(n)).value
        seconds[level] = time.perf_counter() - started
        assert placement is not None and cp_queens.verify(placement).ok
    return seconds


# Exercise 28: without propagation a conflict is found only when the search reaches the
# row that has no free square: the node *above* it is a dead end (red). Forward checking
# crosses squares out as soon as a queen is placed, so the same situation shows one level
# higher: the queen that empties a row is pruned at once (orange). Dead ends whose row was
# emptied by the last queen become orange; those emptied earlier disappear altogether.
def exercise_28(n: int = 6) -> dict[str, dict[str, int]]:
    outcomes = {}
    for level in ("none", "forward"):
        trace = record(n, engine="propagate", consistency=level)
        tally: dict[str, int] = {}
        for node in trace.nodes:
            tally[node.outcome] = tally.get(node.outcome, 0) + 1
        outcomes[level] = tally
    return outcomes


# Exercise 29: on 6 x 6 with queens given at (0, 0) and (3, 1), two rows are left with the
# same two columns between them; alldiff crosses those columns out of every other row
# before the search starts, arc does not see it. Found by trying pairs of given queens.
def exercise_29(n: int = 6) -> tuple[dict[int, int], int, int] | None:
    for rows in combinations(range(n), 2):
        for cols in permutations(range(n), 2):
            fixed = dict(zip(rows, cols, strict=True))
            try:
                Problem(n, fixed)
            except cp_queens.CpQueensError:
                continue
            arc = record(n, engine="propagate", consistency="arc", fixed=fixed, first=True)
            gac = record(n, engine="propagate", consistency="alldiff", fixed=fixed, first=True)
            if len(gac.root_crossed) > len(arc.root_crossed) and gac.root_outcome == "inner":
                return fixed, len(arc.root_crossed), len(gac.root_crossed)
    return None


def say(*parts: object) -> None:
    """``print``, within 80 columns (long answers wrap between words)."""
    print(wrapped(" ".join(map(str, parts))))


if __name__ == "__main__":
    say("24. n where nodes grow with first-fail:", exercise_24() or "none")
    say("25. forward checking, completions and queens placed:", exercise_25())
    say("26. microseconds per node:", {k: round(v, 1) for k, v in exercise_26(9).items()})
    say("27. seconds, first solution:", {k: round(v, 2) for k, v in exercise_27().items()})
    say("28. node outcomes:", exercise_28())
    say("29. given queens, squares crossed out by arc / alldiff:", exercise_29())
