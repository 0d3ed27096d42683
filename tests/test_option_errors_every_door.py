"""An engine option CP-SAT refuses is an ``EngineOptionError`` from every door (issue 44):
``solutions()`` of the ``fast`` method, whose subproblems run in worker processes, raised
a plain ``RuntimeError`` naming it where ``count()`` raised ``EngineOptionError``."""

from __future__ import annotations

import pytest

import cp_queens
from cp_queens.errors import EngineOptionError

REFUSED = {"num_search_workers": 2}  # beside the engine's own num_workers: refused


@pytest.mark.parametrize("door", ["solutions", "count"])
def test_a_refused_parameter_is_an_engine_option_error(door: str) -> None:
    with pytest.raises(EngineOptionError, match="num_search_workers"):
        found = getattr(cp_queens, door)(8, engine="cpsat", method="fast", parameters=REFUSED)
        if door == "solutions":
            list(found)
