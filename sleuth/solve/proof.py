"""z3 for the fewest groups of a record that prove a fact (``sleuth why``'s smallest proof).

A minimal proof (``Entailment.minimal``) need not be the smallest. The smallest is found by
hitting sets: every set of groups that fits a deal without the fact leaves the others as a
correction set, which each proof must meet. The fewest groups that meet every correction set
found so far either prove the fact (then no smaller set does) or fit such a deal, which yields
one more correction set.
"""

from __future__ import annotations

import z3

from sleuth.model import Deal, Holder, Item
from sleuth.solve.entail import Entailment

Pair = tuple[Holder, Item]


class Dealer:
    """Reads the deal of the solver's last model in one evaluation, not one per holding.

    Every holding literal is packed into a single bit-vector.
    """

    def __init__(self, entail: Entailment):
        self.entail = entail
        self.pairs = list(entail.x)
        one, zero = z3.BitVecVal(1, 1, entail.ctx), z3.BitVecVal(0, 1, entail.ctx)
        self.packed = z3.Concat([z3.If(entail.x[p], one, zero) for p in reversed(self.pairs)])

    def deal(self) -> Deal:
        """The deal of the last model (bit k: holding k of ``pairs``)."""
        bits = self.entail.solver.model().eval(self.packed).as_long()
        return {i: h for k, (h, i) in enumerate(self.pairs) if bits >> k & 1}


def grown(
    dealer: Dealer, start: set[int], groups: list[int], pair: Pair, holding: bool
) -> set[int]:
    """A maximal set of ``groups`` that fits a deal without the fact, grown from ``start``.

    ``start`` fits one; each group that a deal found satisfies is taken at once.
    """
    entail, keep = dealer.entail, set(start)
    for g in groups:
        if g not in keep and not entail.proves(sorted(keep | {g}), pair, holding):
            found = dealer.deal()
            keep |= {h for h in groups if all(t.holds(found) for t in entail.model.groups[h])}
    return keep


def smallest(
    entail: Entailment,
    groups: list[int],
    pair: Pair,
    holding: bool,
    core: list[int],
    until: int,
) -> list[int] | None:
    """The fewest of ``groups`` that prove the holding (or its absence), or None past ``until``.

    ``core`` is a minimal proof: a smaller one is looked for only below its size; ``until``
    is a count of z3's work (``Entailment.work``), which bounds each choice of groups too.
    """
    dealer = Dealer(entail)
    pick = {g: z3.Bool(f"pick|{g}", entail.ctx) for g in groups}
    search = z3.Optimize(ctx=entail.ctx)
    search.minimize(z3.Sum([z3.If(b, 1, 0) for b in pick.values()]))
    while (left := until - entail.work()) > 0:
        search.set("rlimit", left)
        if search.check() != z3.sat:  # unknown: out of work (all groups meet every set found)
            return None
        model = search.model()
        chosen = [g for g in groups if z3.is_true(model.eval(pick[g]))]
        if len(chosen) >= len(core):
            return core
        if entail.proves(chosen, pair, holding):
            return chosen
        fits = grown(dealer, set(chosen), groups, pair, holding)
        search.add(z3.Or([pick[g] for g in groups if g not in fits]))
    return None
