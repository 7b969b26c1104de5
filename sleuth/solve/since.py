"""When each certain fact became certain: the first prefix of the record that forces it.

Forced facts are monotone in the prefix (an event only adds tallies), so the first prefix that
forces a fact can be found by bisection. ``Entailment.since`` bisects one fact at a time, one
z3 check per step. Here the facts are bisected together: at the middle of a range, one call to
z3's ``consequences`` tells which of the facts whose first prefix lies in the range are forced
by the prefix up to the middle, and the two halves go on with those facts and the others. A
range with facts that all became certain at once, or with a single fact, costs one call per
halving instead of one check per fact. The answer is the bisection's, fact by fact
(``tests/test_since.py``).
"""

from __future__ import annotations

import z3

from sleuth.model import Pair
from sleuth.solve.entail import Entailment


def firsts(entail: Entailment, pairs: set[Pair]) -> dict[Pair, int]:
    """For each pair forced by the whole record, the first prefix (0: the setup) forcing it."""
    found: dict[Pair, int] = {}
    todo = [(0, len(entail.model.groups) - 1, set(pairs))]
    while todo:
        start, end, group = todo.pop()
        if start == end:
            found.update(dict.fromkeys(group, start))
            continue
        mid = (start + end) // 2
        early = forced_by(entail, mid, group)
        todo += [(start, mid, early), (mid + 1, end, group - early)]
    return found


def forced_by(entail: Entailment, k: int, pairs: set[Pair]) -> set[Pair]:
    """The pairs that the setup and the first ``k`` events force."""
    if not pairs:
        return set()
    var = {entail.x[p].get_id(): p for p in pairs}
    ask = [entail.x[p] for p in sorted(pairs)]
    _, implied = entail.solver.consequences([entail.prefixes[k]], ask)
    return {var[c.arg(1).get_id()] for c in implied if not z3.is_not(c.arg(1))}
