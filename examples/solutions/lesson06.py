"""Teacher's key, lesson 06 (completion): exercises 15-18, 24 and 25 of EXERCISES.md."""

import time
from itertools import combinations

import cp_queens
from cp_queens import Problem, engines
from cp_queens.completion import first_completion, generate
from cp_queens.course.display import wrapped
from cp_queens.render import text
from cp_queens.symmetry import is_canonical


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


# Exercise 19: keep one solution and block squares off it until every other solution
# has a blocked square: a *hitting set* of the other 91 solutions. One x is never
# enough: a square lies on at most 18 of the 92 solutions, so one x leaves at least 74.
# The least number is found exactly by branch and bound: take the smallest solution
# still alive, try each of its squares in turn; prune when even the solutions that
# share no square (each needs an x of its own) cannot be killed within the best so far.
# Symmetry maps blocked boards onto blocked boards, so the 12 canonical solutions are
# the only ones to keep and try. Answer: 8 squares (two seconds of Python).
def most_solutions_through_one_square(n: int = 8) -> int:
    solutions = [tuple(p) for p in cp_queens.solutions(n, engine="reference")]
    return max(sum(s[r] == c for s in solutions) for r in range(n) for c in range(n))


def fewest_blocks(keep: tuple[int, ...], others: list[tuple[int, ...]]) -> list[tuple[int, int]]:
    """The fewest squares off ``keep`` such that every solution in ``others`` uses one."""
    alive = [frozenset((r, c) for r, c in enumerate(t) if c != keep[r]) for t in others]
    best: list[tuple[int, int]] | None = None

    def disjoint(unhit: list[frozenset]) -> int:  # a lower bound: one x each
        used: set[tuple[int, int]] = set()
        count = 0
        for squares in sorted(unhit, key=len):
            if used.isdisjoint(squares):
                used |= squares
                count += 1
        return count

    def search(chosen: list[tuple[int, int]], unhit: list[frozenset]) -> None:
        nonlocal best
        if not unhit:
            if best is None or len(chosen) < len(best):
                best = list(chosen)
            return
        if best is not None and len(chosen) + disjoint(unhit) >= len(best):
            return
        for square in sorted(min(unhit, key=len)):  # one of its squares must be blocked
            chosen.append(square)
            search(chosen, [s for s in unhit if square not in s])
            chosen.pop()

    search([], alive)
    assert best is not None
    return best


def exercise_19(n: int = 8) -> tuple[int, Problem]:
    """The fewest blocked squares that leave exactly one solution, and such a board."""
    solutions = [tuple(p) for p in cp_queens.solutions(n, engine="reference")]
    best: tuple[int, Problem] | None = None
    for keep in solutions:
        if not is_canonical(cp_queens.Placement(keep)):
            continue
        blocked = fewest_blocks(keep, [s for s in solutions if s != keep])
        if best is None or len(blocked) < best[0]:
            best = len(blocked), Problem(n, blocked=blocked)
    assert best is not None
    return best


# Exercise 20: N does not decide the time; the residue does. With 3 queens blanked the
# residue has a handful of open squares, with 30 about a hundred, on the same N = 1000.
# (CP-SAT and python-constraint stay far under a second; the reference backtracker,
# which tries rows in order without looking ahead, takes seconds on the larger residue.)
def exercise_20(
    n: int = 1000, blanks: tuple[int, ...] = (3, 30)
) -> list[tuple[int, int, int, float]]:
    """(queens blanked, open squares, completions, seconds) per number of blanks."""
    rows = []
    for missing in blanks:
        problem = generate(n, missing, seed=0)
        started = time.perf_counter()
        completions = cp_queens.count(problem, engine="pyconstraint")
        seconds = time.perf_counter() - started
        rows.append((missing, problem.residue().open_squares(), completions, seconds))
    return rows


def say(*parts: object) -> None:
    """``print``, within 80 columns (long answers wrap between words)."""
    print(wrapped(" ".join(map(str, parts))))


if __name__ == "__main__":
    board = exercise_15()
    say("15. no completion:", board.fixed)
    say(text([board.fixed.get(r, -1) for r in range(8)]))  # -1: an empty row
    k, forced = exercise_16()
    say(f"16. {k} given queens can force a unique completion, e.g. {forced.fixed}")
    say("17. row 0:", exercise_17(), "sum", sum(exercise_17()))
    say("18.", exercise_18())
    say(f"19. one square is on at most {most_solutions_through_one_square()} of 92 solutions")
    k, alone = exercise_19()
    say(f"    {k} blocked squares leave one solution:")
    say(text(first_completion(alone, "reference")))
    say("    blocked:", sorted(alone.blocked))
    for missing, squares, found, seconds in exercise_20():
        say(f"20. {missing} blanks: {squares} open squares, {found} completions, {seconds:.2f} s")
