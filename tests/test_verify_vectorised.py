"""The NumPy path of ``verify`` must give the same verdict and pair as the plain path."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cp_queens import Placement, verify
from cp_queens.engines.construct import construct_columns
from cp_queens.verify import _first_attack_plain, _first_attack_vectorised


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.booleans())
def test_vectorised_and_plain_name_the_same_first_attack(seed: int, n: int, permute: bool) -> None:
    rng = np.random.default_rng(seed)
    cols = rng.permutation(n) if permute else rng.integers(0, n, n)
    assert _first_attack_vectorised(cols.astype(np.int64)) == _first_attack_plain(cols.tolist())


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1000, 1002, 1003, 1004]))
def test_a_broken_large_solution_is_caught_at_the_right_rows(seed: int, n: int) -> None:
    cols = construct_columns(n)
    assert cols is not None
    rng = np.random.default_rng(seed)
    i, j = rng.choice(n, size=2, replace=False)
    cols[[i, j]] = cols[[j, i]]
    expected = _first_attack_plain(cols.tolist())
    for form in (cols, cols.tolist(), Placement(tuple(cols.tolist()))):
        verdict = verify(form)
        if expected is None:
            assert verdict.ok
        else:
            assert verdict.reason == f"rows {expected[0]} and {expected[1]} share {expected[2]}"


def test_numpy_input_shapes_and_types() -> None:
    assert verify(np.array([1, 3, 0, 2] * 100)).reason == "rows 0 and 4 share a column"
    assert "not an integer" in verify(np.array([1.5, 2.0])).reason
    assert "outside the board" in verify(np.array([0, 5])).reason
    assert "shape" in verify(np.zeros((2, 2), dtype=int)).reason
