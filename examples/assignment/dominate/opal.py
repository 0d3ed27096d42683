# Sample student (lesson 11): optimal. A CP-SAT set cover, one 0/1 variable per square,
# minimising the number of queens. Finding a best set is quick; proving that no smaller
# set exists takes far longer (49 s of CPU for n = 9), and the grader asks for the set,
# not the proof: so each search stops after 0.5 s of CP-SAT's *deterministic* time (the
# same work on any machine, however loaded), well after the optimum of n <= 9 is found.
from ortools.sat.python import cp_model


def model(n):
    m = cp_model.CpModel()
    x = {(r, c): m.new_bool_var(f"x{r}_{c}") for r in range(n) for c in range(n)}
    for r in range(n):
        for c in range(n):
            m.add(sum(x[a, b] for (a, b) in x if a == r or b == c or abs(a - r) == abs(b - c)) >= 1)
    m.minimize(sum(x.values()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 0.5
    solver.solve(m)
    return [square for square, var in x.items() if solver.value(var)]
