"""Teacher's key, lesson 02 (callbacks): exercises 4-6 of EXERCISES.md."""

from collections import Counter

from ortools.sat.python import cp_model


def card_model(n: int) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    model.add_all_different(q)
    model.add_all_different(q[r] + r for r in range(n))
    model.add_all_different(q[r] - r for r in range(n))
    return model, q


def all_solutions_solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    return solver


# Exercise 4: count, store nothing. For N = 8, 12 solutions keep both long diagonals empty.
class OffLongDiagonals(cp_model.CpSolverSolutionCallback):
    def __init__(self, q: list[cp_model.IntVar]) -> None:
        super().__init__()
        self.q, self.count = q, 0

    def on_solution_callback(self) -> None:
        n = len(self.q)
        if all(self.value(v) not in (r, n - 1 - r) for r, v in enumerate(self.q)):
            self.count += 1


def exercise_4(n: int = 8) -> int:
    model, q = card_model(n)
    counter = OffLongDiagonals(q)
    all_solutions_solver().solve(model, counter)
    return counter.count


# Exercise 5: stop at the first solution with q[0] == 2. It needs far fewer branches
# than the whole enumeration (the numbers depend on the OR-Tools version: run it).
class StopAtColumn(cp_model.CpSolverSolutionCallback):
    def __init__(self, q: list[cp_model.IntVar], column: int) -> None:
        super().__init__()
        self.q, self.column, self.found = q, column, None

    def on_solution_callback(self) -> None:
        if self.value(self.q[0]) == self.column:
            self.found = [self.value(v) for v in self.q]
            self.stop_search()


def exercise_5(n: int = 8, column: int = 2) -> tuple[list[int] | None, int, int]:
    """(the board, branches until it, branches for all solutions)."""
    model, q = card_model(n)
    stopper = StopAtColumn(q, column)
    solver = all_solutions_solver()
    solver.solve(model, stopper)
    everything = all_solutions_solver()
    everything.solve(model, RowTally(q, 0))  # any callback: it only has to see every one
    return stopper.found, solver.num_branches, everything.num_branches


# Exercise 6: the left-right mirror maps column c to N-1-c and keeps every row where it
# is, so it pairs the solutions with q[r] = c and those with q[r] = N-1-c: the tallies
# of ANY row come in mirror pairs, row 1 included.
class RowTally(cp_model.CpSolverSolutionCallback):
    def __init__(self, q: list[cp_model.IntVar], row: int) -> None:
        super().__init__()
        self.q, self.row, self.tally = q, row, Counter()

    def on_solution_callback(self) -> None:
        self.tally[self.value(self.q[self.row])] += 1


def exercise_6(n: int = 8, row: int = 1) -> list[int]:
    model, q = card_model(n)
    tally = RowTally(q, row)
    all_solutions_solver().solve(model, tally)
    return [tally.tally[c] for c in range(n)]


if __name__ == "__main__":
    print("4. solutions with both long diagonals empty:", exercise_4())
    board, first, every = exercise_5()
    print(f"5. {board} after {first} branches (all solutions: {every} branches)")
    print("6. row-1 tally:", exercise_6())
