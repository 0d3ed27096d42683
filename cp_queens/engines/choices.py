"""The values some engine options take, where the command line can read them cheaply.

``cp-queens count --help`` shows the ``--method`` and ``--strategy`` choices of the
``cpsat`` engine, and ``cp-queens trace`` those of ``propagate``; building a parser
must not import the engines themselves (their modules, their helpers, sometimes
their solver libraries). So the names live here, in a module that imports nothing,
and the engines take them from here: one list for the engine and its flags.
"""

from __future__ import annotations

#: ``cpsat``'s ``method``: one model, or the symmetry-split fast path (see engines/cpsat).
CPSAT_METHODS = ("auto", "plain", "fast")
#: ``cpsat``'s ``symmetry``: symmetry-breaking constraints, weakest first.
CPSAT_SYMMETRY = ("none", "mirror", "full")
#: ``cpsat``'s ``strategy`` (see engines/cpsat/search.py).
CPSAT_STRATEGIES = ("auto", "portfolio", "fixed", "greedy")
#: ``cpsat``'s ``variable_order`` with ``strategy="fixed"``.
CPSAT_VARIABLE_ORDERS = ("input", "min-domain")
#: ``cpsat``'s ``value_order`` with ``strategy="fixed"``.
CPSAT_VALUE_ORDERS = ("min", "max", "median", "random")

#: ``propagate``'s ``consistency``, weakest first.
PROPAGATE_CONSISTENCIES = ("none", "forward", "arc", "alldiff")
#: ``propagate``'s ``variable_order``.
PROPAGATE_VARIABLE_ORDERS = ("input", "first-fail", "first-fail-centre")
#: ``propagate``'s ``value_order``.
PROPAGATE_VALUE_ORDERS = ("min", "centre")

#: What ``compare`` can ask every engine: its ``first``, ``count`` or
#: ``solutions`` (``enumerate``).
TASKS = ("first", "count", "enumerate")
