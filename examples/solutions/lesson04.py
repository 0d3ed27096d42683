"""Teacher's key, lesson 04 (symmetry): exercises 10-11 of EXERCISES.md."""

from collections import Counter

from ortools.sat.python import cp_model

import cp_queens
from cp_queens import symmetry


# Exercise 10: an orbit has 8 boards only when no symmetry other than the identity maps
# the board to itself. One of the 12 classes of N = 8 looks the same after a half turn,
# so it has 4 members: 11 * 8 + 1 * 4 = 92.
def exercise_10(n: int = 8) -> Counter:
    """How many classes have each orbit size."""
    canonical = [p for p in cp_queens.solutions(n, engine="reference") if symmetry.is_canonical(p)]
    return Counter(symmetry.orbit_size(p) for p in canonical)


# Exercise 11: the mirror break 2*q[0] <= N-1 keeps q[0] in the left half. For odd N the
# middle column is its own mirror image, so solutions with q[0] = (N-1)/2 keep BOTH
# mirror partners: count = (all + those with the middle queen) / 2.
def mirror_broken(n: int) -> list[list[int]]:
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[r] + r for r in range(n))
    model.add_all_different(q[r] - r for r in range(n))
    model.add(2 * q[0] <= n - 1)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    found: list[list[int]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append([self.value(v) for v in q])

    solver.solve(model, Collect())
    return found


def exercise_11(n: int = 9) -> tuple[int, int, int]:
    """(all solutions, with the mirror break, with the first queen in the middle column)."""
    middle = cp_queens.count(n, fixed={0: n // 2}) if n % 2 else 0
    return cp_queens.count(n), len(mirror_broken(n)), middle


if __name__ == "__main__":
    print("10. classes by orbit size, N=8:", dict(exercise_10()))
    total, broken, middle = exercise_11()
    print(f"11. N=9: {total} solutions, {broken} with the mirror break, {middle} in the middle")
