"""A submission that would not load, or raised, told with the way forward.

The room's words are Python's ("No module named 'tqdm'", "defines no function
model(n)"); a student reads them as "my file is broken" when it is right work
with one thing to change. Here the reason is named with its fix: a module the
rubric does not allow, with the list of those it does; the toolkit, which is
never there; a function that looks like the model under another name.

Examples:
    >>> explain("ModuleNotFoundError: No module named 'rich' (line 1)", "", ("numpy",))
    "ModuleNotFoundError: No module named 'rich' (line 1) - rich is not allowed in a submission; allowed: the standard library and numpy"
    >>> explain("defines no function model(n)", "def n_queens(n):\\n    return []\\n", ())
    'defines no function model(n); it defines n_queens(n): name it model, or add the line model = n_queens'
"""  # noqa: E501

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from collections.abc import Iterable

_MISSING = re.compile(r"No module named '(?P<name>[^']+)'")

#: Words in a function's name that make it the model under another name.
_LIKELY = ("queen", "model", "solve", "solution")


def explain(text: str, source: str, allowed: Iterable[str], beside: Iterable[str] = ()) -> str:
    """``text`` (an error the room sent) with its reason and fix, where one is known."""
    if text.startswith("defines no function model"):
        return text + _model_like(source)
    missing = _MISSING.search(text)
    if missing is None:
        return text
    top = missing["name"].partition(".")[0]
    if top == "cp_queens":
        return text + " - the cp_queens toolkit is not available to submissions"
    allowed = tuple(allowed)
    own = {name.removesuffix(".py") for name in beside}
    if top in sys.stdlib_module_names or top in allowed or top in own:
        return text
    listed = ", ".join(allowed) if allowed else "nothing else"
    said = (
        f"{text} - {top} is not allowed in a submission; allowed: the standard library and {listed}"
    )
    if importlib.util.find_spec(top) is None:  # no such package here: one of the student's?
        said += f" (a module of your own: hand in {top}.py beside your file, in one folder)"
    return said


def _model_like(source: str) -> str:
    """ "; it defines n_queens(n): ..." for the top-level functions that could be the model."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ""
    functions = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and (node.args.posonlyargs or node.args.args)
    ]
    likely = [f for f in functions if any(word in f.name.lower() for word in _LIKELY)]
    chosen = likely or (functions if len(functions) == 1 else [])
    if not chosen:
        return ""
    name = chosen[0].name
    first = (chosen[0].args.posonlyargs or chosen[0].args.args)[0].arg
    return f"; it defines {name}({first}): name it model, or add the line model = {name}"
