"""Teacher's key, lesson 01 (the model): exercises 1-3 of EXERCISES.md.

Each answer is a function; ``python examples/solutions/lesson01.py`` prints
them all, and tests/test_solutions.py checks every one with the toolkit
(``check_model``, the reference engine), never with a number typed in here.
"""

from ortools.sat.python import cp_model


def card_model(n: int, *, up_diagonals: bool = True, knights: bool = False) -> list[list[int]]:
    """Every solution of lesson 01's model, with the switches the exercises ask for."""
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[r] + r for r in range(n))
    if up_diagonals:
        model.add_all_different(q[r] - r for r in range(n))
    if knights:  # exercise 3: no two queens a knight's move apart
        for r in range(n):
            for gap, jump in ((1, 2), (2, 1)):  # rows apart, columns apart
                if r + gap < n:
                    model.add(q[r] - q[r + gap] != jump)
                    model.add(q[r + gap] - q[r] != jump)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    found: list[list[int]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append([self.value(v) for v in q])

    solver.solve(model, Collect())
    return found


# Exercise 1: fewer solutions for 4 and 6 than for 8, more for 10 (2, 4, 724 against 92):
# the count is not monotone in N (6 has fewer than 5), but grows fast from 7 on.
def exercise_1() -> dict[int, int]:
    return {n: len(card_model(n)) for n in (4, 6, 8, 10)}


# Exercise 2: without AllDifferent(q[r] - r) two queens may share a "\" diagonal
# (r - c constant: down and to the right); "/" diagonals and columns stay safe.
def without_q_minus_r(n: int) -> list[list[int]]:
    return card_model(n, up_diagonals=False)


def exercise_2() -> list[list[int]]:
    """The wrong 'solutions' for N = 8: those the verifier rejects."""
    return [s for s in without_q_minus_r(8) if any(s[i] - i == s[j] - j for i, j in _pairs(8))]


# Exercise 3: superqueens. The smallest N > 1 with a solution is 10 (4 solutions; N = 1
# is trivial). The knight constraints are two "!=" per pair of rows one or two apart.
def superqueens(n: int) -> list[list[int]]:
    return card_model(n, knights=True)


def exercise_3(n_max: int = 10) -> int | None:
    return next((n for n in range(2, n_max + 1) if superqueens(n)), None)


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


if __name__ == "__main__":
    print("1. solutions:", exercise_1())
    wrong = exercise_2()
    print(f"2. without q-r: {len(wrong)} wrong boards for N=8, e.g. {wrong[0]}")
    print("3. smallest N with superqueens:", exercise_3(), "e.g.", superqueens(10)[0])
