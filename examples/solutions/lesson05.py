"""Teacher's key, lesson 05 (search strategies): exercises 12-14 of EXERCISES.md.

Exercises 12 and 14 ask for measurements: the answers below say what to expect
and why; the numbers are whatever your machine and OR-Tools version print.
"""

import time

from cp_queens import Budget, Problem, engines
from cp_queens.course.display import wrapped

# Exercise 12: worst at N = 28 is rows in order with the smallest column first (input /
# min): plain backtracking, which must undo bad early choices in the left corner, and the
# first solution of N = 28 is deep in its lexicographic order. The ranking is not stable:
# at N = 12 every strategy answers in a few hundredths of a second (the ranking is noise);
# at N = 40 (measured on a loaded 2-core machine) input/min and input/median ran out of
# their second while min-domain/median and greedy still answered.
STRATEGIES = {
    "input/min": {"strategy": "fixed", "variable_order": "input", "value_order": "min"},
    "input/median": {"strategy": "fixed", "variable_order": "input", "value_order": "median"},
    "min-domain/median": {
        "strategy": "fixed",
        "variable_order": "min-domain",
        "value_order": "median",
    },
    "greedy": {"strategy": "greedy"},
}


def exercise_12(n: int, time_limit: float = 1.0) -> dict[str, tuple[list[int] | None, float]]:
    """Each strategy's board (None if none within the limit) and its seconds."""
    engines.get("cpsat").first(Problem(4))  # load OR-Tools before the clocks start
    answers = {}
    budget = Budget.of(time_limit=time_limit)
    for label, options in STRATEGIES.items():
        engine = engines.get("cpsat", seed=1, **options)
        started = time.perf_counter()
        answer = engine.first(Problem(n), budget=budget)
        # Out of time: no board (a complete answer of None would mean none exists).
        found = answer.value if answer.complete else None
        answers[label] = (None if found is None else list(found), time.perf_counter() - started)
    return answers


# Exercise 13: different seeds give different boards (greedy randomises its placements).
def exercise_13(n: int = 200, seeds: range = range(1, 6)) -> list[list[int]]:
    return [list(engines.get("cpsat", seed=k).first(Problem(n)).value) for k in seeds]


# Exercise 14: the reference backtracker with "start in the middle" columns. Every board
# up to N = 31 takes a few thousand nodes at most; N = 32 is the first that needs about a
# second (503,326 nodes; 0.7-0.8 s on our 2-core machine: node counts do not depend on
# the machine, seconds do). Nodes = queens placed, as in the reference engine.
def middle_first_order(n: int) -> list[int]:
    """n//2, n//2 - 1, n//2 + 1, n//2 - 2, ... (every column once)."""
    order, step = [n // 2], 1
    while len(order) < n:
        for col in (n // 2 - step, n // 2 + step):
            if 0 <= col < n:
                order.append(col)
        step += 1
    return order


def middle_first(n: int, *, limit: int | None = None) -> tuple[list[list[int]], int]:
    """Solutions (up to ``limit``) in the middle-first order, and the nodes visited."""
    order = middle_first_order(n)
    cols: list[int] = []
    used_col, used_sum, used_diff = set(), set(), set()
    found: list[list[int]] = []
    nodes = 0

    def place(row: int) -> bool:  # True when enough solutions were found
        nonlocal nodes
        if row == n:
            found.append(list(cols))
            return limit is not None and len(found) >= limit
        for col in order:
            if col in used_col or row + col in used_sum or row - col in used_diff:
                continue
            nodes += 1
            cols.append(col)
            used_col.add(col), used_sum.add(row + col), used_diff.add(row - col)
            if place(row + 1):
                return True
            cols.pop()
            used_col.discard(col), used_sum.discard(row + col), used_diff.discard(row - col)
        return False

    place(0)
    return found, nodes


def all_middle_first(n: int) -> list[list[int]]:
    return middle_first(n)[0]


def exercise_14(most_nodes: int = 400_000, n_max: int = 60) -> dict[int, tuple[int, float]]:
    """Nodes and seconds to a first solution, n = 4.., up to the first n that needs more
    than ``most_nodes`` nodes (N = 32, about a second here).

    It stops on nodes, not seconds: nodes are the same on every machine, seconds are
    not. Stopping at the first n over a second ran on to N = 38 on a faster machine
    (N = 32 in 0.8 s there), whose 30 million nodes took 50 s.
    """
    measured = {}
    for n in range(4, n_max + 1):
        started = time.perf_counter()
        _, nodes = middle_first(n, limit=1)
        measured[n] = (nodes, time.perf_counter() - started)
        if nodes > most_nodes:
            break
    return measured


def say(*parts: object) -> None:
    """``print``, within 80 columns (long answers wrap between words)."""
    print(wrapped(" ".join(map(str, parts))))


if __name__ == "__main__":
    for n in (12, 28, 40):
        shown = {k: f"{t:.2f}s" if b else "-" for k, (b, t) in exercise_12(n).items()}
        say(f"12. N={n}:", shown)
    say("13. distinct boards from 5 seeds:", len({tuple(b) for b in exercise_13()}))
    slow = {n: v for n, v in exercise_14().items() if v[1] > 0.05}
    say("14. middle-first, boards needing > 0.05 s (nodes, s):", slow or "none up to 60")
