"""Reading partial boards: every accepted spelling, and errors that name line and column."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cp_queens import Problem
from cp_queens.errors import AttackingQueensError, InvalidProblemError, ParseError
from cp_queens.partial import format_partial, parse_partial

EIGHT_A8 = "Q . . . . . . .\n" + ". . . . . . . .\n" * 7


@pytest.mark.parametrize(
    "text",
    [
        ".Q..\n....\nQ...\n....\n",
        ". Q . .\n. . . .\nQ . . .\n. . . .\n",
        "0100\n0000\n1000\n0000\n",
        "0 1 0 0\n0 0 0 0\n1 0 0 0\n0 0 0 0\n",
        "-q--\n----\nq---\n----\n",
        "# a comment\n\n_Q__\n____\nQ___\n____\n\n\n",
        '{"n": 4, "queens": [[0, 1], [2, 0]]}',
        '{\n  "queens": [[2, 0], [0, 1]],\n  "n": 4\n}\n',
    ],
)
def test_every_spelling_reads_the_same_problem(text: str) -> None:
    assert parse_partial(text) == Problem(4, {0: 1, 2: 0})


def test_an_empty_board_and_json_without_queens() -> None:
    assert parse_partial("....\n" * 4) == Problem(4)
    assert parse_partial('{"n": 9}') == Problem(9)


#: Python's json names a trailing comma's place by its own rule, which changed in 3.13 (the
#: comma, 1:27; before, the bracket after it, 1:28): we pass on whatever it names.
TRAILING_COMMA = '{"n": 4, "queens": [[0, 0],]}'


def json_error_at(text: str) -> str:
    """``line:column`` of the error Python's own json parser finds in ``text``."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return f"{error.lineno}:{error.colno}"
    raise AssertionError(f"{text!r} is valid JSON")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q...\n....\n..y.\n....\n", "b.txt:3:3: unexpected 'y'"),
        ("Q . . .\n. . . .\n. . # .\n. . . .\n", "b.txt:3:5: unexpected '#'"),
        ("Q...\n...\n....\n....\n", "b.txt:2: row 1 has 3 squares, but row 0 has 4"),
        ("Q...\n....\n....\n", "b.txt: the board has 3 rows of 4 squares"),
        ('{"n": 4, "blocked": [[0]]}', "b.txt: blocked[0] is [0], expected [row, col]"),
        ("Q...\n\n....\n....\n....\n", "b.txt:2: blank line inside the board"),
        ("# only a comment\n", "b.txt: no board found"),
        (TRAILING_COMMA, f"b.txt:{json_error_at(TRAILING_COMMA)}: not valid JSON"),
        ('{"n": 4,\n "queens": [[0, 0]\n', "b.txt:3:1: not valid JSON"),
        ('{"n": "8"}', "b.txt: 'n' must be a whole number"),
        ('{"n": 4, "queens": [[0, 0, 1]]}', "b.txt: queens[0] is [0, 0, 1], expected [row, col]"),
        ('{"n": 4, "queens": {"0": 1}}', "b.txt: 'queens' must be a list"),
        ('{"n": 4, "queen": []}', "b.txt: unknown key 'queen'"),
        ("[1, 3, 0, 2]", "b.txt:1:1: unexpected '['"),
        ('{"n": 4, "queens": [[1, 1], [1, 1]]}', "queen at b3 (row 1, col 1) is given twice"),
    ],
)
def test_parse_errors_name_where(text: str, message: str) -> None:
    with pytest.raises(ParseError) as error:
        parse_partial(text, "b.txt")
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_attacking_queens_are_named_both() -> None:
    with pytest.raises(AttackingQueensError) as error:
        parse_partial("Q...\n.Q..\n....\n....\n", "b.txt")
    assert str(error.value) == (
        "b.txt: given queens at a4 (row 0, col 0) and b3 (row 1, col 1) share a diagonal"
    )
    with pytest.raises(
        InvalidProblemError, match=r"a2 \(row 2, col 0\) and d2 \(row 2, col 3\) share row 2"
    ):
        parse_partial("....\n....\nQ..Q\n....\n", "b.txt")
    with pytest.raises(InvalidProblemError, match=r"column 4 is outside the board 0\.\.3"):
        parse_partial('{"n": 4, "queens": [[0, 4]]}', "b.txt")


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(st.just(n), st.permutations(range(n)))))
def test_board_and_json_round_trip(case: tuple[int, list[int]]) -> None:
    n, perm = case
    # Non-attacking givens: keep queens of the permutation greedily.
    fixed: dict[int, int] = {}
    for r, c in enumerate(perm):
        if all(abs(r - r2) != abs(c - c2) for r2, c2 in fixed.items()):
            fixed[r] = c
    problem = Problem(n, fixed)
    assert parse_partial(format_partial(problem)) == problem
    assert parse_partial(format_partial(problem, "json")) == problem


@pytest.mark.parametrize(
    "text",
    [
        ".Qx.\n....\nQ...\n...X\n",
        ". Q x .\n. . . .\nQ . . .\n. . . x\n",
        '{"n": 4, "queens": [[0, 1], [2, 0]], "blocked": [[3, 3], [0, 2]]}',
    ],
)
def test_blocked_squares_are_read_from_boards_and_json(text: str) -> None:
    assert parse_partial(text) == Problem(4, {0: 1, 2: 0}, blocked={(0, 2), (3, 3)})


def test_blocked_squares_round_trip_and_a_queen_on_one_is_an_error() -> None:
    problem = Problem(5, {0: 0}, blocked={(1, 3), (4, 4)})
    for fmt in ("board", "json"):
        assert parse_partial(format_partial(problem, fmt)) == problem
    assert format_partial(problem).splitlines()[1] == ". . . x ."
    with pytest.raises(InvalidProblemError, match=r"queen at \(row 0, col 0\) stands on a blocked"):
        parse_partial('{"n": 4, "queens": [[0, 0]], "blocked": [[0, 0]]}', "b.txt")
    with pytest.raises(InvalidProblemError, match=r"blocked square at \(row 4, col 0\): row 4"):
        parse_partial('{"n": 4, "blocked": [[4, 0]]}', "b.txt")


def test_a_large_board_is_read_quickly_and_keeps_only_its_marks() -> None:
    n = 2000
    rows = ["." * n] * n
    rows[5] = "." * 7 + "Q" + "." * (n - 8)
    rows[9] = "x" * 3 + "." * (n - 3)
    problem = parse_partial("\n".join(rows))
    assert problem.n == n and problem.fixed == {5: 7}
    assert problem.blocked == {(9, 0), (9, 1), (9, 2)}
