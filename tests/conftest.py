"""The ``--engine NAME`` option and the fixtures of the engine contract.

``pytest --engine NAME`` runs the whole contract (``tests/test_contract.py``)
on one engine only, e.g. while writing a new one; without it, every registered
engine and the :class:`~cp_queens.engines.base.TemplateEngine` run through it.
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import settings

from cp_queens import budget
from cp_queens.engines.base import Engine, TemplateEngine
from tests.helpers import (
    ALL_ENGINES,
    TEMPLATE_SMALL,
    UNREGISTERED,
    build_or_skip,
    run_example_once,
    session_folder,
)

# Hypothesis' per-example deadline (200 ms by default) is a timed assertion: on CI's shared
# machine at load 30 an orbit of a 12-queens placement took longer, whatever the code did.
# No property test here is about speed, so none has a deadline.
settings.register_profile("cp-queens", deadline=None)
settings.load_profile("cp-queens")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--engine",
        action="append",
        metavar="NAME",
        help="run the engine contract on this engine only (repeatable); 'template' for the "
        "template engine of engines/base.py",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the processes the tests start, however pytest itself was started.

    A shell starts a background job (``cmd &`` in a script, ``nohup``) with SIGINT
    ignored, an ignored signal stays ignored across ``exec``, and Python then installs no
    ``KeyboardInterrupt`` handler: every ``cp-queens`` a Ctrl-C test starts would shrug
    the signal off, and the test would wait for an end that never comes. A handler set
    here is reset to the default in every process started from this one.
    """
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the default run's): one worker per core, plus one.

    Why the extra one: some of the default run's test time is spent waiting, not computing
    (on a child process, a solver's time limit, a sandboxed submission's wall clock), and
    a third worker computes meanwhile. Measured on 2 cores, quiet machine, the whole
    default run, 2026-11-27: 2 workers 43.7-44.2 s (81 CPU-s), 3 workers 43.0-45.2 s
    (84-88 CPU-s); from a cold start (no bytecode yet, as in a fresh clone) 47-50 s
    either way. Once a fifth of the time was waiting, and 3 workers took 68 s to 2's 77 s;
    with the waits cut, the third worker buys robustness to a slow wait, not speed.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still overrides it, as in pytest-xdist.
    """
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if chosen.isdigit():
        return int(chosen)
    return budget.available_cores() + 1


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "engine_name" in metafunc.fixturenames:
        chosen = metafunc.config.getoption("engine") or [*ALL_ENGINES, *UNREGISTERED]
        unknown = [name for name in chosen if name not in (*ALL_ENGINES, *UNREGISTERED)]
        if unknown:
            raise pytest.UsageError(f"--engine: unknown engine(s) {', '.join(unknown)}")
        metafunc.parametrize("engine_name", chosen)


def sampled_out(item: pytest.Item) -> bool:
    """Whether ``item`` is a case a ``sampled(param, kept, engines=...)`` mark leaves to the
    slow run: its engine is one of ``engines`` and its ``param`` is not in ``kept``."""
    marker = item.get_closest_marker("sampled")
    params = getattr(getattr(item, "callspec", None), "params", {})
    if marker is None or params.get("engine_name") not in marker.kwargs["engines"]:
        return False
    param, kept = marker.args
    return params[param] not in kept


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks the cases ``sampled`` leaves out as slow, before ``-m 'not slow'`` selects."""
    for item in items:
        if sampled_out(item):
            item.add_marker(pytest.mark.slow)


class SmallTemplate(TemplateEngine):
    """The template engine with a small ``max_n``: the contract must honour it."""

    name = "template-small"
    max_n = 7


@pytest.fixture
def make_engine(engine_name: str) -> Callable[..., Engine]:
    """Builds the engine under test with the given options of its method (the template
    included); the run settings go with each call (``budget=``)."""

    def build(**options: Any) -> Engine:
        if engine_name in UNREGISTERED:
            cls = SmallTemplate if engine_name == TEMPLATE_SMALL else TemplateEngine
            return cls(**options)
        return build_or_skip(engine_name, **options)

    return build


@pytest.fixture(scope="session")
def example_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``example_run(name, *args)``: the run of ``examples/name``, made once per session
    and shared by every test (and every xdist worker) that reads it."""
    return functools.partial(run_example_once, session_folder(tmp_path_factory) / "example-runs")
