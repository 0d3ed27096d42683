"""``python -m cp_queens`` does what ``cp-queens`` does."""

import sys

from cp_queens.cli import main

sys.exit(main())
