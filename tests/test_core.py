"""Placement, Problem validation, the independent checker and the file formats."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_queens import Placement, Problem, verify
from cp_queens.errors import (
    AttackingQueensError,
    InvalidPlacementError,
    InvalidProblemError,
    ParseError,
)
from cp_queens.formats import read_placements, write_placements
from cp_queens.verify import _first_attack_plain, _first_attack_vectorised


def test_placement_is_immutable_hashable_sequence() -> None:
    p = Placement((1, 3, 0, 2))
    assert p.n == 4 and list(p) == [1, 3, 0, 2] and p[1] == 3
    assert {p, Placement([1, 3, 0, 2])} == {p}
    with pytest.raises(AttributeError):
        p.cols = (0,)  # type: ignore[misc]


def test_a_placement_equals_its_list_and_its_tuple_and_hashes_as_the_tuple() -> None:
    """``first(8) == [0, 4, 7, 5, 2, 6, 1, 3]`` (issue 47): a placement is its columns."""
    import cp_queens

    first = cp_queens.first(8, engine="reference")
    as_list, as_tuple = [0, 4, 7, 5, 2, 6, 1, 3], (0, 4, 7, 5, 2, 6, 1, 3)
    assert first == as_list and as_list == first  # both ways round
    assert first == as_tuple and as_tuple == first
    assert first != [0, 4, 7, 5, 2, 6, 3, 1] and first != [0, 4, 7] and first != first.cols[:-1]
    assert hash(first) == hash((0, 4, 7, 5, 2, 6, 1, 3))
    assert (0, 4, 7, 5, 2, 6, 1, 3) in {first} and first in {(0, 4, 7, 5, 2, 6, 1, 3)}
    assert len({first, (0, 4, 7, 5, 2, 6, 1, 3), Placement(first.cols)}) == 1
    # a board is a list or tuple of columns; a string, a range or a number is not
    assert Placement([0]) != "0" and Placement([0]) != range(1) and Placement([0]) != 0
    assert Placement((1, 0)) != Placement((0, 1))


@pytest.mark.parametrize(
    ("cols", "message"),
    [((0, 4), "row 1: column 4 is outside the board 0..1"), ((0, "a"), "row 1: column 'a'")],
)
def test_placement_rejects_bad_columns(cols, message: str) -> None:
    with pytest.raises(InvalidPlacementError, match=message):
        Placement(cols)


@pytest.mark.parametrize(
    ("n", "fixed", "error", "message"),
    [
        (0, {}, InvalidProblemError, "at least 1, got 0"),
        ("8", {}, InvalidProblemError, "must be an integer"),
        (8, {8: 0}, InvalidProblemError, "row 8 is outside the board 0..7"),
        (8, {0: -1}, InvalidProblemError, "column -1 is outside"),
        (
            8,
            {0: 3, 5: 3},
            AttackingQueensError,
            r"d8 \(row 0, col 3\) and d3 \(row 5, col 3\) share",
        ),
        (8, {2: 2, 4: 0}, AttackingQueensError, "share a diagonal"),
    ],
)
def test_problem_validates_on_construction(n, fixed, error, message: str) -> None:
    with pytest.raises(error, match=message):
        Problem(n, fixed)


def test_problem_from_queens_rejects_two_in_a_row() -> None:
    with pytest.raises(InvalidProblemError, match="share row 3"):
        Problem.from_queens(8, [(3, 1), (3, 5)])


def test_verify_names_first_attacking_pair() -> None:
    assert verify([1, 3, 0, 2]).ok
    assert verify([0, 0]).reason == "rows 0 and 1 share a column (a2 and a1)"
    assert verify([0, 2, 4, 1, 3, 5]).reason == "rows 0 and 5 share a diagonal (a6 and f1)"
    assert verify([2, 4, 1, 3, 0, 5]).reason == "rows 3 and 5 share a diagonal (d3 and f1)"
    assert verify([0, 5]).reason == "row 1: column 5 is outside the board 0..1"
    assert not verify([1, 3, 0, 2], Problem(4, {0: 2}))


@settings(deadline=None)  # the first example imports NumPy: 0.45 s on a loaded machine
@given(st.lists(st.integers(0, 299), min_size=1, max_size=300))
def test_vectorised_and_plain_checkers_agree(cols: list[int]) -> None:
    n = max(max(cols) + 1, len(cols))
    cols = cols + [0] * (n - len(cols))
    import numpy as np

    assert _first_attack_vectorised(np.array(cols)) == _first_attack_plain(cols)


def test_verify_big_permutation_finds_planted_clash() -> None:
    # For n = 0 or 4 (mod 6), odd columns then even columns is a classical solution.
    cols = list(range(1, 300, 2)) + list(range(0, 300, 2))
    assert verify(cols)
    i, j = random.Random(0).sample(range(300), 2)
    cols[i], cols[j] = cols[j], cols[i]
    assert verify(cols).reason == _reason_plain(cols)


def _reason_plain(cols: list[int]) -> str | None:
    found = _first_attack_plain(cols)
    return None if found is None else f"rows {found[0]} and {found[1]} share {found[2]}"


@pytest.mark.parametrize("fmt", ["boards", "jsonl", "csv"])
def test_formats_round_trip(fmt: str) -> None:
    from cp_queens import engines

    placements = list(engines.get("reference").solutions(Problem(6)))
    out = io.StringIO()
    assert write_placements(placements, out, fmt) == 4
    read = list(read_placements(io.StringIO(out.getvalue())))
    assert read == [list(p) for p in placements]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[0, 1\n", r"x:1:6: not valid JSON"),
        ('["a"]\n', "x:1: expected a JSON array"),
        ("[0]\n{}\n", "x:2: not valid JSON|x:2: expected"),
        (". Q\nQ ?\n", r"x:2:3: unexpected .\?."),
        (". Q .\nQ . .\n", "x:2: the board has 2 rows of 3 squares"),
        (". Q .\nQ .\n", "x:2: row 1 has 2 squares, but row 0 has 3"),
        (". .\nQ .\n", "x:1: row 0 has 0 queens"),
        ("q0,q1\n0,z\n", "x:2: field 2 is 'z'"),
    ],
)
def test_parse_errors_name_line_and_column(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        list(read_placements(io.StringIO(text), "x"))
