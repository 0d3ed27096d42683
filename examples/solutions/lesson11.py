"""Teacher's key, lesson 11 (from satisfaction to optimisation): exercises 35-39 of EXERCISES.md."""

from collections.abc import Callable

from ortools.sat.python import cp_model

from cp_queens.course.display import wrapped
from cp_queens.dominate import attacks, classic_lower_bound, dominate, lp_bound
from cp_queens.dominate.models import build_cp
from cp_queens.grading import tasks
from cp_queens.grading.rubric import load


# Exercise 35: satisfaction questions, asked from the classic bound up. Every k below
# ceil((n - 1) / 2) is a "no" known in advance, so asking it wastes a whole search; the
# first "yes" is the optimum, and the "no" before it is the proof.
def k_queens_suffice(n: int, k: int) -> bool:
    model, x = build_cp(n)
    model.clear_objective()
    model.add(sum(v for line in x for v in line) == k)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.solve(model) == cp_model.OPTIMAL


def smallest_by_questions(n: int) -> tuple[int, list[tuple[int, bool]]]:
    answers = []
    k = classic_lower_bound(n) or 1  # at least one queen, even where the bound says 0
    while True:
        yes = k_queens_suffice(n, k)
        answers.append((k, yes))
        if yes:
            return k, answers
        k += 1


# Exercise 36: why the LP bound is weak. A corner square is covered from the fewest
# squares: its row, its column and one diagonal, 3(n - 1) others plus itself, 3n - 2 in
# all. So x = 1 / (3n - 2) on every square satisfies every covering row, and the LP
# optimum is at most n^2 / (3n - 2), about n / 3: far below the n / 2 that is needed.
def fewest_dominators(n: int) -> int:
    board = [(r, c) for r in range(n) for c in range(n)]
    return min(sum(attacks(queen, square) for queen in board) for square in board)


def uniform_lp_value(n: int) -> float:
    return n * n / fewest_dominators(n)


# Exercise 37: where independence costs a queen. Up to n = 7 the two optima differ at
# n = 4 and n = 6: the small boards where the best dominating sets need queens that
# see each other.
def where_independence_costs(largest: int = 7) -> list[int]:
    return [
        n
        for n in range(1, largest + 1)
        if dominate(n, independent=True, symmetry="halves").size
        != dominate(n, symmetry="halves").size
    ]


# Exercise 38: symmetry in numbers. Every smallest dominating set of the 5 x 5 board,
# by CP-SAT enumerating the sets of exactly 3 queens; then with the 'lex' rows only the
# smallest image of each survives, so the same enumeration counts the orbits. The
# helper variables of 'lex' can take several values for one board, so the boards are
# collected as sets of squares.
def smallest_sets(n: int, *, symmetry: str = "none") -> set[frozenset[tuple[int, int]]]:
    size = dominate(n).size
    assert size is not None
    model, x = build_cp(n, symmetry=symmetry)
    model.clear_objective()
    model.add(sum(v for line in x for v in line) == size)
    found: set[frozenset[tuple[int, int]]] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.add(
                frozenset((r, c) for r in range(n) for c in range(n) if self.boolean_value(x[r][c]))
            )

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.solve(model, Collect())
    return found


# Exercise 39: the graded assignment. The greedy rule (a queen where it dominates the most
# squares not yet dominated) always dominates the board, but not always with the fewest
# queens; CP-SAT finds a smallest set well within the grader's limits when it is asked
# for a set, not for the proof that none is smaller (deterministic time: the same work on
# any machine). The points are the grader's own judging, in this process.
def greedy(n: int) -> list[tuple[int, int]]:
    squares = [(r, c) for r in range(n) for c in range(n)]
    left, queens = set(squares), []
    while left:
        best = max(squares, key=lambda q: sum(attacks(q, s) for s in left))
        queens.append(best)
        left = {s for s in left if not attacks(best, s)}
    return queens


def optimal(n: int) -> list[tuple[int, int]]:
    model, x = build_cp(n)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 0.5
    solver.solve(model)
    return [(r, c) for r in range(n) for c in range(n) if solver.value(x[r][c])]


def graded(model: Callable[[int], list[tuple[int, int]]], sizes: range = range(4, 10)) -> float:
    """The points the grader's rubric gives ``model`` (judged here, not run apart)."""
    rubric = load().for_task("dominate")
    total = 0.0
    for n in sizes:
        row = tasks.judge("dominate", n, model(n), tasks.reference("dominate", n))
        total += tasks.points(row, rubric.points_for(n), rubric)
    return total


def say(*parts: object) -> None:
    """``print``, within 80 columns (long answers wrap between words)."""
    print(wrapped(" ".join(map(str, parts))))


if __name__ == "__main__":
    say("35. n = 7, questions asked (k, yes?):", smallest_by_questions(7))
    say(
        "36. n = 8: fewest dominators",
        fewest_dominators(8),
        f"uniform point {uniform_lp_value(8):.2f} >= LP bound {lp_bound(8):.2f}",
    )
    say("37. independence costs a queen at n =", where_independence_costs())
    say(
        "38. 5 x 5, smallest sets:",
        len(smallest_sets(5)),
        " up to symmetry:",
        len(smallest_sets(5, symmetry="lex")),
    )
    short = [n for n in range(4, 10) if len(greedy(n)) > tasks.reference("dominate", n)]
    say("39. greedy is a queen over the minimum at n =", short, "points:", graded(greedy))
    say("    optimal points:", graded(optimal), "of 12")
