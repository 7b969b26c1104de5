"""The exact count of a model: propagate, plan, race the item orders, then the backward pass.

Every world is a deal of the items into hands of their sizes that satisfies every tally, and
all worlds are taken as equally likely, so a probability is a ratio of two counts.
"""

from __future__ import annotations

import time
from dataclasses import replace

from sleuth.model import Holder, Model, Tally, Term
from sleuth.solve import tuning
from sleuth.solve.counts import Counts, Loose
from sleuth.solve.memory import Remembered, digest
from sleuth.solve.order import race
from sleuth.solve.plan import plan
from sleuth.solve.simplify import Contradiction, reduce, residual


def count(model: Model, budget: float | None = None, memory: Remembered | None = None) -> Counts:
    """Exact world counts and holding counts; BudgetExceeded after ``budget`` seconds.

    ``memory`` holds the order of the last hard count of the same game: it is tried first, and
    replaced by the order that finishes this one if this one is hard; and the counts of the
    models counted last: a model counted before is not counted again (``Remembered.counted``).
    """
    if memory is None:
        return _count(model, budget, memory)
    key = digest(model)
    known = memory.counted(model, key)
    if known is not None:
        return known
    found = _count(model, budget, memory)
    memory.keep(model, found.total, found.held, key)
    return found


def _count(model: Model, budget: float | None, memory: Remembered | None) -> Counts:
    """``count``, counted."""
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


Pairs = dict[frozenset, int]  # pair of items -> worlds, e.g. {frozenset({"3F", "7M"}): 12}


def split(model: Model, question: tuple[Term, ...], budget: float | None = None) -> dict:
    """The worlds split by the value of a sum of terms: answer -> Counts, none empty.

    One forward pass with the question's tally left open (``Plan.asked``), then one backward
    pass per answer over the final states that give it. BudgetExceeded after ``budget``
    seconds, as ``count``.
    """
    return {a: counts for a, (counts, _) in _split(model, question, budget, None).items()}


def split_pairs(
    model: Model, question: tuple[Term, ...], holder: Holder, budget: float | None = None
) -> dict[int, tuple[Counts, Pairs]]:
    """As ``split``, with the worlds per pair of items ``holder`` holds, for each answer.

    The same pass, then one more forward pass along its edges (``DictRun.pairs``).
    """
    return _split(model, question, budget, holder)


def _split(model: Model, question: tuple[Term, ...], budget: float | None, holder):
    """``split``, and with a ``holder`` its pairs per answer too (else None)."""
    deadline = None if budget is None else time.monotonic() + budget
    space = model.space
    zero = {(h, i): 0 for h in space.holders for i in space.items}
    try:
        reduced = reduce(model)
        terms, constant, highest = residual(question, reduced.domains, space.sizes)
        asked, index = reduced, None
        if terms:  # else the answer is decided: the constant
            tally = Tally(terms, frozenset(range(highest + 1)))
            asked, index = replace(reduced, tallies=(*reduced.tallies, tally)), len(reduced.tallies)
        visited = frozenset(i for i, d in reduced.domains.items() if holder in d)
        p = plan(model, asked, index, visited)
    except Contradiction:
        return {}
    run = race(p, asked, deadline)
    values = sorted(run.answers()) if index is not None else [None]
    parts, backs = {}, {}
    for k, value in enumerate(values):
        keep = holder is not None or k < len(values) - 1
        parts[value] = run.backward(dict(zero), asked, keep=keep, answer=value)
        backs[value] = run.back
    found = run.pairs(p.holders.index(holder), backs) if holder in p.holders and backs else {}
    return {
        constant + (value or 0): (part, _pairs(found.get(value, {})) if holder else None)
        for value, part in parts.items()
        if part.total
    }


def _pairs(found: dict) -> Pairs:
    """Pairs keyed by their items, the empty ones left out."""
    return {frozenset(pair): n for pair, n in found.items() if n}
