"""Submissions that make the mistakes of issue 46, for the grader's tests: each one as a
student would hand it in (a file, a folder of files, bytes in another encoding).

``SOURCES`` are single ``.py`` files; ``FOLDERS`` are submissions of several files (a
name -> the file's bytes or text); ``write`` puts one into a class folder. The course's
own sample key is read from ``examples/`` where it ships, never copied here.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests import hostile

#: A right model in plain Python: the base most mistakes below are made from.
RIGHT = hostile.RIGHT.lstrip("\n")

#: A right model of a variant (``--variant``): every completion of the board it is given.
COMPLETIONS = """
def model(n, queens=None, blocked=()):
    queens = {int(r): int(c) for r, c in (queens or {}).items()}
    blocked = {tuple(square) for square in blocked}
    found = []

    def place(q):
        r = len(q)
        if r == n:
            found.append(list(q))
            return
        for c in range(n):
            if queens.get(r, c) != c or (r, c) in blocked:
                continue
            if all(c != d and abs(c - d) != r - i for i, d in enumerate(q)):
                place(q + [c])

    place([])
    return found
"""

#: ``return`` inside the loop: the first solution of each size, and no other.
RETURN_IN_LOOP = """\
from itertools import permutations


def model(n):
    for q in permutations(range(n)):
        if all(abs(q[i] - q[j]) != j - i for i in range(n) for j in range(i + 1, n)):
            return [list(q)]
    return []
"""

#: python-constraint's local search: one random solution per size (None where there is none).
MIN_CONFLICTS = """\
from constraint import AllDifferentConstraint, MinConflictsSolver, Problem


def model(n):
    problem = Problem(MinConflictsSolver(steps=2000))
    problem.addVariables(range(n), range(n))
    problem.addConstraint(AllDifferentConstraint())
    for i in range(n):
        for j in range(i + 1, n):
            problem.addConstraint(lambda a, b, d=j - i: abs(a - b) != d, (i, j))
    found = problem.getSolution()
    return [] if found is None else [[found[r] for r in range(n)]]
"""

#: Boards drawn as text, ``["..Q.", ...]``: n = 1 answers ``["Q"]``.
STRINGS = RIGHT.replace(
    "found.append(list(q))",
    'found.append(["." * c + "Q" + "." * (n - c - 1) for c in q])',
)

#: One row short: the search stops at row n - 1 (n = 1 answers the empty placement).
ROW_SHORT = RIGHT.replace("if row == n:", "if row == n - 1:")

#: A mutable default argument: the boards of every earlier call come back too.
KEEPS_BOARDS = RIGHT.replace("def model(n):\n    found = []\n", "def model(n, found=[]):\n")

#: The student's own CP-SAT time limit: what it finds depends on the machine's load.
TIME_LIMIT = """\
from ortools.sat.python import cp_model


class Collect(cp_model.CpSolverSolutionCallback):
    def __init__(self, q):
        super().__init__()
        self.q, self.found = q, []

    def on_solution_callback(self):
        self.found.append([self.value(v) for v in self.q])


def model(n):
    m = cp_model.CpModel()
    q = [m.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    m.add_all_different(q)
    m.add_all_different(q[r] + r for r in range(n))
    m.add_all_different(q[r] - r for r in range(n))
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 0.5
    collect = Collect(q)
    solver.solve(m, collect)
    return collect.found
"""

#: The card's CP-SAT model, inside ``model(n)``: the start of every CP-SAT submission here.
CARD = TIME_LIMIT[
    TIME_LIMIT.index("    m = cp_model.CpModel()") : TIME_LIMIT.index("    solver.parameters")
]
_CPSAT_HEAD = TIME_LIMIT.split("def model(n):")[0] + "def model(n):\n" + CARD
_CPSAT_TAIL = "    collect = Collect(q)\n    solver.solve(m, collect)\n    return collect.found\n"


def cpsat(settings: str) -> str:
    """The card's CP-SAT model collecting every solution through a callback class, its
    solver set by ``settings`` (lines of ``model``'s body, indented)."""
    return _CPSAT_HEAD + settings + _CPSAT_TAIL


#: Parallel enumeration, the parameters set through ``setattr`` from a dict.
PARALLEL_SETATTR = cpsat(
    '    settings = {"enumerate_all_solutions": True, "num_workers": 8}\n'
    "    for key, value in settings.items():\n"
    "        setattr(solver.parameters, key, value)\n"
)

#: Parallel enumeration given as SatParameters text (OR-Tools 9.15's ``parse_text_format``).
PARALLEL_TEXT = cpsat(
    "    text = ' '.join(['enumerate_all_solutions: true', 'num_workers: ' + str(8)])\n"
    "    solver.parameters.parse_text_format(text)\n"
)

#: Parallel enumeration merged in from another parameters object.
PARALLEL_MERGE = cpsat(
    "    mine = cp_model.CpSolver().parameters\n"
    "    mine.enumerate_all_solutions = True\n"
    "    mine.num_workers = 2 * 4\n"
    "    solver.parameters.merge_from(mine)\n"
)

#: A right model on 8 CP-SAT workers, no enumeration: one solve per solution, each found
#: board forbidden before the next solve.
EIGHT_WORKERS = (
    "from ortools.sat.python import cp_model\n\n\ndef model(n):\n"
    + CARD
    + """\
    solver.parameters.num_workers = 8
    found = []
    while solver.solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        board = [solver.value(v) for v in q]
        found.append(board)
        same = [m.new_bool_var("") for _ in range(n)]
        for r in range(n):
            m.add(q[r] == board[r]).only_enforce_if(same[r])
            m.add(q[r] != board[r]).only_enforce_if(~same[r])
        m.add_bool_or([~s for s in same])
    return found
"""
)

#: No diagonal checked: every permutation of the columns.
NO_DIAGONAL = """\
from itertools import permutations


def model(n):
    return [list(p) for p in permutations(range(n))]
"""

#: A right model saved by Windows Notepad in its ANSI code page, a comment in French.
WINDOWS_1252 = ("# Modèle à retours arrière, café\n" + RIGHT).encode("cp1252")

#: A module outside the allowed list.
TQDM = "from tqdm import tqdm\n\n" + RIGHT

#: The right model under another name.
N_QUEENS = RIGHT.replace("def model(n):", "def n_queens(n):")

#: A right model in two files, the board check in its own module.
TWO_FILES = {
    "model.py": (
        "from board import safe\n\n\n"
        "def model(n):\n"
        "    found = []\n\n"
        "    def place(row, q):\n"
        "        if row == n:\n"
        "            found.append(list(q))\n"
        "            return\n"
        "        for col in range(n):\n"
        "            if safe(q, row, col):\n"
        "                place(row + 1, [*q, col])\n\n"
        "    place(0, [])\n"
        "    return found\n"
    ),
    "board.py": (
        "def safe(q, row, col):\n"
        "    return all(col != q[r] and abs(col - q[r]) != row - r for r in range(row))\n"
    ),
}

#: The same, with a syntax error on line 5 of ``helpers.py``.
HELPER_SYNTAX = {
    "model.py": TWO_FILES["model.py"].replace("from board import", "from helpers import"),
    "helpers.py": (
        "# helpers for model.py\n\n\n"
        "def safe(q, row, col):\n"
        "    return all(col != q[r] and abs(col - q[r]) != row - r for r in range(row)\n"
    ),
}


def plot_notebook(megabytes: float = 5.0) -> bytes:
    """A right notebook whose outputs are plots (base64 PNG data): ``megabytes`` in all."""
    image = "iVBORw0KGgo" + "A" * (256 << 10)
    plots = max(1, int(megabytes * (1 << 20)) // len(image) + 1)
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# N queens"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": 1,
            "outputs": [],
            "source": RIGHT.splitlines(keepends=True),
        },
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": 2,
            "source": [
                'if __name__ == "__main__":  # plotted at home, not in the grader\'s run\n',
                "    import matplotlib.pyplot as plt\n",
                "    plt.plot([len(model(n)) for n in range(1, 9)])\n",
            ],
            "outputs": [
                {
                    "output_type": "display_data",
                    "metadata": {},
                    "data": {"image/png": image, "text/plain": ["<Figure>"]},
                }
                for _ in range(plots)
            ],
        },
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook).encode()


#: Single-file submissions by the mistake they make.
SOURCES: dict[str, str | bytes] = {
    "return_in_loop": RETURN_IN_LOOP,
    "min_conflicts": MIN_CONFLICTS,
    "strings": STRINGS,
    "row_short": ROW_SHORT,
    "keeps_boards": KEEPS_BOARDS,
    "time_limit": TIME_LIMIT,
    "parallel_setattr": PARALLEL_SETATTR,
    "parallel_text": PARALLEL_TEXT,
    "parallel_merge": PARALLEL_MERGE,
    "eight_workers": EIGHT_WORKERS,
    "no_diagonal": NO_DIAGONAL,
    "windows_1252": WINDOWS_1252,
    "tqdm": TQDM,
    "n_queens": N_QUEENS,
}

#: Submissions of several files.
FOLDERS: dict[str, dict[str, str | bytes]] = {
    "two_files": dict(TWO_FILES),
    "helper_syntax": dict(HELPER_SYNTAX),
}


def write(folder: Path, name: str, files: str | bytes | dict[str, str | bytes]) -> Path:
    """One submission in the class ``folder``: ``name.py`` for a source, a folder ``name``
    of files for a dict; the path written."""
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(files, dict):
        where = folder / name
        where.mkdir(exist_ok=True)
        for file, data in files.items():
            _put(where / file, data)
        return where
    path = folder / f"{name}.py"
    _put(path, files)
    return path


def _put(path: Path, data: str | bytes) -> None:
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
