"""The test suite (a package, so that ``tests.helpers`` is ours: pychoco and Exact
install a top-level ``tests`` package of their own into site-packages).

The test session writes compiled bytecode even where ``PYTHONDONTWRITEBYTECODE`` is set
(the shells this project is developed in set it; a CI machine may): otherwise every
xdist worker, and every ``cp-queens`` or lesson child process the tests start, compiles
the checkout's modules (and pytest rewrites each test module's asserts) afresh. With it,
the children read what the workers wrote. Measured on a fresh clone, 2 cores, the
default run: 61-64 s without, 56 s with (52 s once written). (``__pycache__`` folders
are ignored by git; this package is imported before its ``conftest.py`` and every test
module.)
"""

import sys

sys.dont_write_bytecode = False
