"""Independent oracles the tests and benchmarks check sleuth against; no command uses them.

- ``brute``: every deal of a small model listed (numpy over hand combinations).
- ``csp``: the same counts by python-constraint, a second backend with nothing in common.
- ``lima``: Loot of Lima counted from the rules directly, without the model.
- ``scotland``: Scotland Yard's holder of X, every world of the hidden chances listed.
- ``tolerance``: ``--tolerate 1`` counted the old way, one count per answer left out.
- ``per_value``: the advisor's splits counted the old way, one count per answer.
"""
