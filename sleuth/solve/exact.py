"""The exact count of a model: propagate, plan, race the item orders, then the backward pass.

Every world is a deal of the items into hands of their sizes that satisfies every tally, and
all worlds are taken as equally likely, so a probability is a ratio of two counts.
"""

from __future__ import annotations

import time

from sleuth.model import Model
from sleuth.solve import tuning
from sleuth.solve.counts import Counts, Loose
from sleuth.solve.memory import Remembered
from sleuth.solve.order import race
from sleuth.solve.plan import plan
from sleuth.solve.simplify import Contradiction, reduce


def count(model: Model, budget: float | None = None, memory: Remembered | None = None) -> Counts:
    """Exact world counts and holding counts; BudgetExceeded after ``budget`` seconds.

    ``memory`` holds the order of the last hard count of the same game: it is tried first, and
    replaced by the order that finishes this one if this one is hard.
    """
    deadline = None if budget is None else time.monotonic() + budget
    space = model.space
    zero = {(h, i): 0 for h in space.holders for i in space.items}
    try:
        reduced = reduce(model)
        p = plan(model, reduced)
    except Contradiction:
        return Counts(0, zero)
    tracked = p.tracked
    hint = memory.hint(tracked) if memory is not None else None
    run = race(p, reduced, deadline, hint)
    if memory is not None:
        memory.learn(run.p.order[: len(tracked)] if run.size > tuning.BIG else [])
    return run.backward(zero, reduced)


def count_tolerant(model: Model, tolerable: frozenset[int], budget: float | None = None) -> Loose:
    """Counts over the deals that break at most one ``tolerable`` group, each once, in one pass.

    The other groups must hold. Also the counts of the deals that break none (``strict``),
    from a second backward pass over the same layers. BudgetExceeded after ``budget`` seconds.
    """
    deadline = None if budget is None else time.monotonic() + budget
    space = model.space
    zero = {(h, i): 0 for h in space.holders for i in space.items}
    try:
        reduced = reduce(model, tolerable)
        p = plan(model, reduced)
    except Contradiction:
        return Loose(Counts(0, zero), Counts(0, dict(zero)))
    if len(reduced.broken) > 1:
        return Loose(Counts(0, zero), Counts(0, dict(zero)))
    if reduced.broken:  # every deal left breaks this group: the others must hold
        left = None if deadline is None else deadline - time.monotonic()
        keep = set(range(len(model.groups))) - reduced.broken
        return Loose(count(model.restrict(keep), left), Counts(0, zero))
    run = race(p, reduced, deadline)
    if not any(p.groups):  # no tolerable tally is left to break: no deal breaks one
        whole = run.backward(zero, reduced)
        return Loose(whole, whole)
    strict = run.backward(dict(zero), reduced, keep=True, strict=True)
    return Loose(run.backward(zero, reduced), strict)
