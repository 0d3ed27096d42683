"""What every subcommand imports, in one place: the command modules say
``from cp_queens.cli._common import ...`` and need not know which module holds what.

Each job has its own module:

* ``_parser`` - the parser: one-line errors, help wrapped to the terminal;
* ``_args`` - argument types, calling the library's checkers;
* ``_engine`` - ``--engine`` and the method's flags, ``make_engine``;
* ``_output`` - errors, ``#`` notes, answers as JSON, files and streams;
* ``_progress`` - the live progress line.
"""

from __future__ import annotations

from cp_queens.cli._args import (
    board_size,
    engine_name,
    fraction,
    non_negative_int,
    positive_seconds,
    seed_value,
    whole_number,
    workers_value,
)
from cp_queens.cli._engine import (
    FLAG_ENGINES,
    EngineChoices,
    add_engine_argument,
    add_method_argument,
    add_strategy_arguments,
    make_engine,
    strategy_options,
)
from cp_queens.cli._output import (
    StreamError,
    add_format_argument,
    check_output,
    choose_format,
    conclude,
    deliver,
    fail,
    live_console,
    note,
    open_input,
    open_output,
    open_sink,
    report,
    set_quiet,
)
from cp_queens.cli._parser import HelpFormatter, OneLineErrorParser, terminal_columns
from cp_queens.cli._progress import (
    BAR_WIDTHS,
    Tally,
    fit_progress,
    progress_details,
    progress_display,
    progress_line,
    telling_how_long,
)

__all__ = [
    "BAR_WIDTHS",
    "FLAG_ENGINES",
    "EngineChoices",
    "HelpFormatter",
    "OneLineErrorParser",
    "StreamError",
    "Tally",
    "add_engine_argument",
    "add_format_argument",
    "add_method_argument",
    "add_strategy_arguments",
    "board_size",
    "check_output",
    "choose_format",
    "conclude",
    "deliver",
    "engine_name",
    "fail",
    "fit_progress",
    "fraction",
    "live_console",
    "make_engine",
    "non_negative_int",
    "note",
    "open_input",
    "open_output",
    "open_sink",
    "positive_seconds",
    "progress_details",
    "progress_display",
    "progress_line",
    "report",
    "seed_value",
    "set_quiet",
    "strategy_options",
    "telling_how_long",
    "terminal_columns",
    "whole_number",
    "workers_value",
]
