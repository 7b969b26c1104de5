"""A cross-check backend: enumerate every world of a small model with python-constraint.

Each item is a variable whose value is its holder. One constraint per holder keeps its hand
size, one per tally keeps its sum among the allowed values; both reject a partial deal as soon
as it can no longer be completed. Nothing is shared with the counter or with z3, so agreement
between them is evidence. Enumeration is exponential: only for tests on tiny spaces (a space
with at least one item).
"""

from __future__ import annotations

from collections.abc import Iterator

from constraint import Constraint, Problem

from sleuth.model import Deal, Holder, Item, Model, Tally, Term
from sleuth.solve.counts import Counts


class HandSize(Constraint):
    """``holder`` holds exactly ``size`` items; e.g. HandSize("aside", 22)."""

    def __init__(self, holder: Holder, size: int):
        """Remember the holder and its hand size."""
        self.holder, self.size = holder, size

    def __call__(self, variables, domains, assignments, forwardcheck=False) -> bool:
        """Whether the partial deal can still give the holder exactly its hand size."""
        held = sum(assignments.get(v) == self.holder for v in variables)
        open_ = sum(v not in assignments for v in variables)
        return held <= self.size <= held + open_


def term_range(term: Term, assignments: dict) -> tuple[int, int]:
    """The least and greatest value ``term`` can still take in a partial deal."""
    held = sum(assignments.get(i) == term.holder for i in term.items)
    open_ = sum(i not in assignments for i in term.items)
    if term.any:
        return min(held, 1), min(held + open_, 1)
    return held, held + open_


class TallyHolds(Constraint):
    """The sum of a tally's terms is one of its values; e.g. TallyHolds(holds("Bert", "32"))."""

    def __init__(self, tally: Tally):
        """Remember the tally."""
        self.tally = tally

    def __call__(self, variables, domains, assignments, forwardcheck=False) -> bool:
        """Whether some allowed value lies within the sum's reach in the partial deal."""
        ranges = [term_range(term, assignments) for term in self.tally.terms]
        low, high = sum(r[0] for r in ranges), sum(r[1] for r in ranges)
        return any(low <= v <= high for v in self.tally.values)


def problem(model: Model) -> Problem:
    """The model as a constraint problem over its items."""
    space = model.space
    items = list(space.items)
    able = [h for h in space.holders if space.sizes[h] > 0]
    out = Problem()
    out.addVariables(items, able)
    for holder in able:
        out.addConstraint(HandSize(holder, space.sizes[holder]), items)
    for tally in model.tallies:
        out.addConstraint(TallyHolds(tally), sorted(tally.items) or items)
    return out


def worlds(model: Model) -> Iterator[Deal]:
    """Every deal that fits the model, each once."""
    yield from problem(model).getSolutionIter()


def crosscheck(model: Model) -> Counts:
    """The number of worlds and, per holding, the worlds in which it holds."""
    space = model.space
    held: dict[tuple[Holder, Item], int] = {(h, i): 0 for h in space.holders for i in space.items}
    total = 0
    for deal in worlds(model):
        total += 1
        for item, holder in deal.items():
            held[holder, item] += 1
    return Counts(total, held)
