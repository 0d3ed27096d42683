"""Teacher's key, lesson 07 (huge boards): exercises 21-23 of EXERCISES.md."""

import json
import time

from cp_queens import Problem, engines, verify
from cp_queens.course.display import wrapped
from cp_queens.formats import read_placements


# Exercise 21: 1-based, evens first: columns 2, 4, 6, ..., then 1, 3, 5, ... It fails
# exactly when N mod 6 is 2 or 3 (the two halves then meet on a diagonal); the construct
# engine's rule repairs those two cases (see its docstring).
def evens_odds(n: int) -> list[int]:
    """0-based columns of the rule: 1-based even columns are 0-based odd ones."""
    return list(range(1, n, 2)) + list(range(0, n, 2))


def exercise_21(n_max: int = 100) -> dict[int, str]:
    """N -> the reason the rule fails, for every failing N from 4 to ``n_max``."""
    return {
        n: verify(evens_odds(n)).reason for n in range(4, n_max + 1) if not verify(evens_odds(n))
    }


# Exercise 22: no, they hardly grow at all. Measured (seeds 1-5): N = 1,000 took 15-181
# moves, 10,000 took 47-121, 100,000 took 120-163. The engine starts from a greedy board
# (each queen on a little-attacked square), which leaves only a few hundred conflicts
# to repair whatever N is; Minton et al. report the same for their greedy start. The
# time still grows with N: building the start alone touches every row.
def exercise_22(sizes=(1_000, 10_000, 100_000), seeds=range(1, 6)) -> dict[int, list[int]]:
    moves = {}
    for n in sizes:
        moves[n] = []
        for seed in seeds:
            answer = engines.get("minconflicts", seed=seed).first(Problem(n))
            assert verify(answer.value).ok
            moves[n].append(answer.stats.extra["moves"])
    return moves


# Exercise 23: the formula takes milliseconds; the time goes into text: formatting a
# million numbers as JSON, piping them, parsing them back. Measured in one process here.
def exercise_23(n: int = 1_000_000) -> dict[str, float]:
    import io

    seconds = {}
    started = time.perf_counter()
    placement = engines.get("construct").first(Problem(n)).value
    seconds["formula"] = time.perf_counter() - started
    started = time.perf_counter()
    line = json.dumps(list(placement))
    seconds["write jsonl"] = time.perf_counter() - started
    started = time.perf_counter()
    (cols,) = read_placements(io.StringIO(line + "\n"))
    seconds["read jsonl"] = time.perf_counter() - started
    started = time.perf_counter()
    assert verify(cols).ok
    seconds["verify"] = time.perf_counter() - started
    return seconds


def say(*parts: object) -> None:
    """``print``, within 80 columns (long answers wrap between words)."""
    print(wrapped(" ".join(map(str, parts))))


if __name__ == "__main__":
    failures = exercise_21()
    say("21. fails for", sorted(failures), "= N mod 6 in", sorted({n % 6 for n in failures}))
    say("22. moves:", exercise_22(sizes=(1_000, 10_000), seeds=range(1, 4)))
    say("23.", {k: f"{v:.3f}s" for k, v in exercise_23().items()})
