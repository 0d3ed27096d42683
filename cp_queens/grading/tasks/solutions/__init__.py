"""The ``solutions`` task: every solution of the n-queens problem, each once.

``judge`` judges a model's solutions against the reference (``check_model``'s report),
``answers`` reads what a model returned, ``hints`` names the pattern behind a wrong answer,
``causes`` the line of the source that shows it, ``judge_file`` a file of placements
(``cp-queens check``).
"""
