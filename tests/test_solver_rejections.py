"""What a solver refuses or reports is checked, never taken for something else (issue 38):
CP-SAT's rejection of the user's parameters is a one-line error, not "gave up"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import cp_queens
from cp_queens.errors import EngineOptionError

CLASHING = {"num_search_workers": 2}  # CP-SAT: "Do not specify both ... and num_workers"

TASKS: dict[str, Callable[[str], Any]] = {
    "first": lambda engine: cp_queens.first(8, engine=engine, parameters=CLASHING),
    "count": lambda engine: cp_queens.count(8, engine=engine, parameters=CLASHING),
    "completion": lambda engine: cp_queens.count(
        8, fixed={0: 0}, engine=engine, parameters=CLASHING
    ),
    "solutions": lambda engine: list(cp_queens.solutions(8, engine=engine, parameters=CLASHING)),
}


@pytest.mark.parametrize("engine", ["cpsat", "cpsat-board"])
@pytest.mark.parametrize("task", sorted(TASKS))
def test_cpsat_refusing_the_parameters_is_an_option_error(engine: str, task: str) -> None:
    with pytest.raises(EngineOptionError) as raised:
        TASKS[task](engine)
    message = str(raised.value)
    assert "num_search_workers" in message and "parameters" in message
    assert "\n" not in message and "incomplete" not in message
