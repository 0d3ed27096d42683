"""Teacher's key, lesson 06 (completion): exercises 15-18 of EXERCISES.md."""

from itertools import combinations

import cp_queens
from cp_queens import Problem, engines
from cp_queens.completion import first_completion
from cp_queens.render import text


# Exercise 15: search for it: two queens in rows 0 and 1 that do not attack each other,
# and no completion (the reference backtracker proves "none" by exhausting its tree).
def exercise_15(n: int = 8) -> Problem | None:
    for c0 in range(n):
        for c1 in range(n):
            try:
                problem = Problem(n, {0: c0, 1: c1})
            except cp_queens.CpQueensError:  # the two queens attack each other
                continue
            if first_completion(problem, "reference") is None:
                return problem
    return None


# Exercise 16: a set of given queens taken from a solution forces that solution when no
# other solution agrees with it on those rows. Count that from the 92 solutions: one
# queen never suffices (every square has at least 4 completions, see exercise 17), two
# can: queens at (0, 0) and (1, 4) have exactly one completion.
def exercise_16(n: int = 8) -> tuple[int, Problem] | None:
    """The smallest k, and one board with k given queens and exactly one completion."""
    solutions = [tuple(p) for p in cp_queens.solutions(n, engine="reference")]
    for k in range(1, n + 1):
        for solution in solutions:
            for rows in combinations(range(n), k):
                agreeing = sum(all(s[r] == solution[r] for r in rows) for s in solutions)
                if agreeing == 1:
                    return k, Problem(n, {r: solution[r] for r in rows})
    return None


# Exercise 17: every solution has exactly one queen in row r, in one of its n squares, so
# the completions of "one queen on (r, c)", summed over c, count each solution once: 92.
def exercise_17(n: int = 8, row: int = 0) -> list[int]:
    return [cp_queens.count(n, fixed={row: c}, engine="reference") for c in range(n)]


# Exercise 18: local search moves queens around a full board, guided by how many attacks
# it sees; it never explores the whole space, so failing to find a board proves nothing.
# Only a complete search (backtracking, CP-SAT) can say "no completion exists". Our
# minconflicts engine does not even pretend: it refuses pre-placed queens.
def exercise_18() -> str:
    try:
        engines.get("minconflicts").first(Problem(8, {0: 2}))
    except cp_queens.CpQueensError as error:
        return str(error)
    return "minconflicts accepted a completion problem"


if __name__ == "__main__":
    board = exercise_15()
    print("15. no completion:", board.fixed)
    print(text([board.fixed.get(r, -1) for r in range(8)]))  # -1: an empty row
    k, forced = exercise_16()
    print(f"16. {k} given queens can force a unique completion, e.g. {forced.fixed}")
    print("17. row 0:", exercise_17(), "sum", sum(exercise_17()))
    print("18.", exercise_18())
