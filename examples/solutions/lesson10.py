"""Teacher's key, lesson 10 (one model, many solvers): exercises 32-34 of EXERCISES.md."""

import time
from itertools import combinations

from cp_queens import Problem, engines
from cp_queens.course.display import wrapped


# Exercise 32: Choco enumerates natively - after a solution it backtracks in the same
# search tree and goes on, so the whole count is one tree walk. Pumpkin (through CPMpy)
# has no such loop: each solution ends a search; CPMpy adds the clause "not this one"
# and starts again from the root. The k-th search carries k blocking clauses and walks
# again over the part of the tree the earlier searches had already covered, so the cost
# grows with (solutions x search), faster than the solutions. Clause learning helps each
# search, but learnt clauses explain failures, not "already seen" - they cannot replace
# the lost search state. Forcing Choco onto blocking clauses shows the same growth.
def exercise_32(n: int = 8) -> dict[str, tuple[int, float, int | None]]:
    """(count, seconds, searches started) per route."""
    routes = {
        "choco": {"solver": "choco"},
        "choco-blocking": {"solver": "choco", "enumeration": "blocking"},
        "pumpkin": {"solver": "pumpkin"},
    }
    found = {}
    for name, options in routes.items():
        engine = engines.get("cpmpy", **options)
        started = time.perf_counter()
        answer = engine.count(Problem(n))
        total, calls = answer.value, answer.stats.extra.get("solver_calls")
        found[name] = (total, time.perf_counter() - started, calls)
    return found


# Exercise 33: the SAT route. A SAT solver has no integers, no AllDifferent: CPMpy must
# encode q[r] as n Booleans (q[r] == c) with "exactly one" and each AllDifferent as
# "at most one" over every value - here written by hand on the 0/1 board. Pairwise
# "not both" clauses: O(n^3) of them (n = 8: 736), where the integer model has 3
# constraints. The encoding is the model the SAT solver really sees.
def board_clauses(n: int) -> list[list[int]]:
    """CNF of the n-queens board: variable r * n + c + 1 is "a queen on (r, c)"."""

    def var(r: int, c: int) -> int:
        return r * n + c + 1

    clauses = [[var(r, c) for c in range(n)] for r in range(n)]  # a queen in every row
    lines = [[(r, c) for c in range(n)] for r in range(n)]  # rows
    lines += [[(r, c) for r in range(n)] for c in range(n)]  # columns
    for d in range(-n + 1, n):  # "\" diagonals: c - r = -d
        lines.append([(r, r - d) for r in range(n) if 0 <= r - d < n])
    for s in range(2 * n - 1):  # "/" diagonals: r + c = s
        lines.append([(r, s - r) for r in range(n) if 0 <= s - r < n])
    for line in lines:
        clauses += [[-var(*a), -var(*b)] for a, b in combinations(line, 2)]
    return clauses


def exercise_33(n: int = 8) -> tuple[int, int, list[list[int]]]:
    """(solutions, clauses, the boards as column lists), enumerated by blocking clauses."""
    from pysat.solvers import Solver

    clauses = board_clauses(n)
    boards = []
    with Solver(bootstrap_with=clauses) as sat:
        while sat.solve():
            queens = [lit for lit in sat.get_model() if lit > 0]
            boards.append([(lit - 1) % n for lit in sorted(queens)])
            sat.add_clause([-lit for lit in queens])  # "not this board"
    return len(boards), len(clauses), boards


# Exercise 34: an annotation changes the order of the search, never the set of solutions:
# the counts are the same. For a count the whole tree is walked anyway, so the nodes move
# only a little (first-fail picks a row with fewest columns left: rows then fail earlier).
# For one solution it matters most: with the middle values first and the tightest row
# next, Gecode finds n = 60 or 80 in a few dozen nodes where plain row order may need
# hundreds or thousands - and the plain order's luck changes from one n to the next.
def exercise_34(count_n: int = 9, first_sizes=(20, 40, 60)) -> dict[str, dict[int, int]]:
    """Counts and nodes of both models: {"count": .., "count nodes": .., "first nodes": ..}."""
    result: dict[str, dict] = {"count": {}, "count nodes": {}, "first nodes": {}}
    for model in ("plain", "first-fail"):
        engine = engines.get("minizinc", model=model)
        answer = engine.count(Problem(count_n))
        result["count"][model] = answer.value
        result["count nodes"][model] = answer.stats.branches
        result["first nodes"][model] = {}
        for n in first_sizes:
            result["first nodes"][model][n] = engine.first(Problem(n)).stats.branches
    return result


def say(*parts: object) -> None:
    """``print``, within 80 columns (long answers wrap between words)."""
    print(wrapped(" ".join(map(str, parts))))


if __name__ == "__main__":
    print("32. n = 8 by route:   count  seconds  searches started (-: not reported)")
    for route, (total, seconds, calls) in exercise_32().items():
        print(f"    {route:16} {total:>6} {seconds:>8.2f}  {'-' if calls is None else calls}")
    count, clauses, _ = exercise_33()
    say(f"33. {count} solutions from {clauses} clauses")
    found = exercise_34()
    print("34. Gecode      count  nodes (count)  nodes (first solution, by n)")
    for model in ("plain", "first-fail"):
        first = ", ".join(f"{n}: {nodes:,}" for n, nodes in found["first nodes"][model].items())
        count, nodes = found["count"][model], found["count nodes"][model]
        print(f"    {model:11} {count:>5}  {nodes:>13,}  {first}")
