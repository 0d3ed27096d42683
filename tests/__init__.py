"""The test suite (a package, so that ``tests.helpers`` is ours: pychoco and Exact
install a top-level ``tests`` package of their own into site-packages)."""
