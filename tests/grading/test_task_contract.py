"""The task contract: every registered graded task keeps the same promises, as
``tests/test_contract.py`` holds every engine to its own (issue 43).

A task is registered by being one file of ``cp_queens.grading.tasks``; these tests run
over ``tasks.names()``, so a new task is held to them without a line here. A task that is
half done (no feedback columns, a judge that passes a wrong answer, an error row that
earns points, a ``--variant`` that neither gives an instance nor refuses clearly) fails.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from cp_queens.grading import tasks
from cp_queens.grading.rubric import load
from cp_queens.grading.tasks.base import Instance, Task, VariantError
from cp_queens.grading.tasks.variants import Variant, check_sizes

NAMES = tasks.names()


@pytest.fixture(params=NAMES)
def task(request: pytest.FixtureRequest) -> Task:
    return tasks.get(request.param)


def sizes(task: Task) -> list[int]:
    """A few boards every task grades: the smallest, a middle one, and 5 (or its largest)."""
    return sorted({1, min(4, task.largest), min(5, task.largest)})


def test_a_task_is_registered_under_its_module_name_and_describes_itself(task: Task) -> None:
    assert task.name in NAMES and tasks.get(task.name) is task
    assert type(task).__module__.split(".")[3] == task.name  # cp_queens.grading.tasks.NAME
    assert task.summary and task.all_right
    assert task.largest >= 5, "a task grades boards up to at least n = 5"
    assert task.name in load().for_task(task.name).task  # the rubric takes it


def test_the_reference_and_the_judge_tell_a_right_answer_from_a_wrong_one(task: Task) -> None:
    rubric = load().for_task(task.name)
    for n in sizes(task):
        expected = task.reference(n)
        assert expected is not None
        right, wrong = task.answers(n)
        good = task.judged(n, right, expected)
        assert isinstance(good, task.row_type)
        assert good.ok and good.verdict() == "ok" and good.error is None, (n, good)
        assert task.share(good, rubric) == 1 and tasks.share(good, rubric) == 1
        bad = task.judged(n, wrong, expected)
        assert isinstance(bad, task.row_type)
        assert not bad.ok and bad.verdict() != "ok", (n, bad)
        assert Fraction(0) <= task.share(bad, rubric) < 1, (n, bad)


def test_an_error_row_says_the_problem_and_earns_nothing(task: Task) -> None:
    rubric = load().for_task(task.name)
    n = sizes(task)[-1]
    row = task.error_row(n, task.reference(n), f"model({n}) raised ValueError")
    assert isinstance(row, task.row_type)
    assert row.error == f"model({n}) raised ValueError"
    assert not row.ok and row.verdict() == "error"
    assert task.share(row, rubric) == 0 and task.points(row, 3, rubric) == 0


def test_a_judge_never_raises_on_an_answer_it_cannot_read(task: Task) -> None:
    class Strange:
        def __iter__(self) -> object:
            raise RuntimeError("no")

    for junk in (None, 7, "queens", Strange(), [[object()]]):
        row = task.judged(4, junk, task.reference(4))
        assert not row.ok and isinstance(task.share(row, load().for_task(task.name)), Fraction)


def test_every_share_is_exact_and_between_0_and_1_under_every_scheme(task: Task) -> None:
    import dataclasses

    base = load().for_task(task.name)
    for scheme in ("shares", "penalties", "exact"):
        rubric = dataclasses.replace(base, scheme=scheme)
        for n in sizes(task):
            right, wrong = task.answers(n)
            for answer in (right, wrong, [*wrong, *wrong]):
                share = task.share(task.judged(n, answer, task.reference(n)), rubric)
                assert isinstance(share, Fraction) and 0 <= share <= 1, (scheme, n, share)


def test_the_feedback_table_names_its_columns_and_fills_each(task: Task) -> None:
    assert task.columns, "the feedback table needs the task's columns"
    assert all(isinstance(c, str) and c and "|" not in c for c in task.columns)
    n = sizes(task)[-1]
    expected = task.reference(n)
    right, wrong = task.answers(n)
    rows = [
        task.judged(n, right, expected),
        task.judged(n, wrong, expected),
        task.error_row(n, expected, "stopped"),
        None,  # a size never run
    ]
    for row in rows:
        cells = task.cells(row)
        assert len(cells) == len(task.columns), (row, cells)
        assert all(isinstance(cell, str) and cell for cell in cells)
    details = task.details([row for row in rows if row is not None])
    assert isinstance(details, list) and all(isinstance(line, str) for line in details)


def test_a_variant_gives_each_student_an_instance_or_refuses_in_one_line(task: Task) -> None:
    variant = Variant("the lecturer's secret")
    if not task.variant_largest:
        with pytest.raises(VariantError, match=f"task {task.name} has no variants"):
            variant.instance(task.name, "s1", 4)
        with pytest.raises(VariantError, match=f"task {task.name} has no variants"):
            check_sizes(task.name, [4])
        return
    assert task.variant_call.startswith("model(n") and task.variant_returns
    assert task.variant_legend
    n = min(5, task.variant_largest)
    mine = variant.instance(task.name, "s1", n)
    assert isinstance(mine, Instance) and mine.task == task.name and mine.n == n
    assert mine == variant.instance(task.name, "s1", n)  # the same on every run
    assert set(mine.arguments()) == set(mine.keywords) and mine.call().startswith(f"model({n}, ")
    assert task.reference(n, mine) is not None
    with pytest.raises(VariantError, match=f"up to n = {task.variant_largest}"):
        check_sizes(task.name, [task.variant_largest + 1])
