"""How long an answer may take: one default for the command line and the analyses alike.

A light module (no solver imports), so that the command line can name the default at start-up.
"""

DEFAULT_BUDGET = 15.0  # seconds for an answer: the --budget default
COUNT_SHARE = 0.85  # of the budget, for the exact count; an estimate gets at least the rest
