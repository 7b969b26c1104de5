"""When each certain fact became certain: the first prefix of the record that forces it.

A fact that the counter's propagation of the setup alone fixes (``simplify.fixed``, sound)
dates from the setup, as no prefix comes before it: z3 searches for the others only.

Forced facts are monotone in the prefix (an event only adds tallies), so the first prefix that
forces a fact can be found by bisection. The facts are bisected together: at the middle of a
range, one call to z3's ``consequences`` tells which of the facts whose first prefix lies in the
range are forced by the prefix up to the middle, and the two halves go on with those facts and
the others. A range with facts that all became certain at once costs one call per halving
instead of one check per fact; a range with a single fact left asks one check instead (cheaper
than ``consequences`` for one literal). This is the package's one search for the
first forcing event: the report's dated facts and ``why``'s proofs both come from it
(``tests/engine/test_since.py`` checks it against a scan of every prefix).
"""

from __future__ import annotations

import z3

from sleuth.model import Pair
from sleuth.solve.entail import Entailment
from sleuth.solve.simplify import fixed


def firsts(entail: Entailment, pairs: set[Pair], holding: bool = True) -> dict[Pair, int]:
    """For each pair, the first prefix (0: the setup) that forces it, e.g. ``{("Ana", "6B"): 3}``.

    Not ``holding``: the first prefix that forces its absence. A pair the whole record does not
    force gets the last prefix (the whole record).
    """
    found = dict.fromkeys(fixed(entail.model.prefix(0), pairs, holding), 0)
    todo = [(0, len(entail.model.groups) - 1, set(pairs) - set(found))]
    while todo:
        start, end, group = todo.pop()
        if not group:
            continue
        if start == end:
            found.update(dict.fromkeys(group, start))
            continue
        mid = (start + end) // 2
        early = forced_by(entail, mid, group, holding)
        todo += [(start, mid, early), (mid + 1, end, group - early)]
    return found


def forced_by(entail: Entailment, k: int, pairs: set[Pair], holding: bool = True) -> set[Pair]:
    """The pairs that the setup and the first ``k`` events force to hold (or not to)."""
    if not pairs:
        return set()
    if len(pairs) == 1:
        (pair,) = pairs
        return {pair} if entail.proves(range(k + 1), pair, holding) else set()
    var = {entail.x[p].get_id(): p for p in pairs}
    ask = [entail.x[p] for p in sorted(pairs)]
    _, implied = entail.solver.consequences([entail.prefixes[k]], ask)
    found = set()
    for consequence in implied:
        literal = consequence.arg(1)
        if z3.is_not(literal) != holding:
            found.add(var[(literal.arg(0) if z3.is_not(literal) else literal).get_id()])
    return found
