"""Many questions over one count of the record: each question's pass over its own layers only.

``exact.split`` counts the record again for each question, with the question's tally asked, in
an order of its own: on a hard record every question costs 1.5 to 3 times the record's count.
Here the record is counted once (``layers``), in an order that visits every item of the
questions, with every layer kept: its states, their weights (the ways to reach them) and, from
one backward pass, their ways to finish the deal. A question whose items lie at positions a to
b of that order is then counted by a run of the record's plan with the question's tally
asked, from the record's layer a to layer b + 1 only (``vector.resumed``): before a the
question's fields are not open, so that layer is the record's. A final state of that run, less
the question's fields, is a state of the record's layer b + 1. For each answer v:

- the worlds: over those states with value v, their weight times the record's ways to finish;
- the holdings of items a to b: the run's backward pass from those ways to finish (value v);
- of items before a: that pass goes on along the record's edges (``VectorRun.gathered``);
- of items after b: the weights of value v, merged into the record's layer b + 1, go on forward
  along the record's edges (``VectorRun.spread_by``), times the ways to finish where each goes.

Exact as the count is: a deal follows one path, through the question's layers from a to b + 1
and the record's elsewhere, and a state is dropped only where no deal can finish it (the
record's layer b + 1 lacks a state only if none can). The tests check every split against
``exact.split``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

from sleuth.model import Item, Model, Tally, Term
from sleuth.solve.counts import Counts
from sleuth.solve.order import race
from sleuth.solve.plan import Plan, plan
from sleuth.solve.simplify import Contradiction, Reduced, reduce, residual
from sleuth.solve.vector import VectorRun, fits, resumed

Question = tuple[Term, ...]  # a sum of terms whose value is not known yet


@dataclass(frozen=True)
class Layers:
    """The record counted once, every layer kept: where each question's pass starts and ends."""

    model: Model
    reduced: Reduced
    p: Plan  # the run's plan, in its order
    run: VectorRun
    counts: Counts  # the record's own
    visited: frozenset[Item]  # every item of the questions, visited even when free

    def zero(self) -> dict:
        """Every holding at 0."""
        return _zero(self.model)


def _zero(model: Model) -> dict:
    """Every holding of the model at 0."""
    return {(h, i): 0 for h in model.space.holders for i in model.space.items}


def _asked(reduced: Reduced, question: Question, model: Model):
    """The question's residual terms, the constant it adds, and its greatest value."""
    return residual(question, reduced.domains, model.space.sizes)


def layers(model: Model, questions: list[Question], budget: float | None = None) -> Layers | None:
    """The record counted for these questions, every layer kept; None where it cannot be.

    None: counts past int64 (the layer engine cannot keep them) or a record that cannot hold.
    BudgetExceeded as ``exact.count``.
    """
    deadline = None if budget is None else time.monotonic() + budget
    try:
        reduced = reduce(model)
        visited = frozenset(
            i for q in questions for t in _asked(reduced, q, model)[0] for i in t.items
        )
        p = plan(model, reduced, None, visited)
    except Contradiction:
        return None
    if not fits(p):
        return None
    run = race(p, reduced, deadline, keys=True)
    assert isinstance(run, VectorRun)  # ``fits``: the race's engine is the layer engine
    counts = run.backward(_zero(model), reduced, keep=True)
    return Layers(model, reduced, run.p, run, counts, visited)


def split(shared: Layers, question: Question, budget: float | None = None) -> dict[int, Counts]:
    """The worlds split by the question's value: answer -> Counts, none empty (``exact.split``).

    BudgetExceeded after ``budget`` seconds, TooBig past the engine's bound.
    """
    deadline = None if budget is None else time.monotonic() + budget
    reduced, p, run = shared.reduced, shared.p, shared.run
    terms, constant, highest = _asked(reduced, question, shared.model)
    if not terms:  # the answer is decided
        return {constant: shared.counts} if shared.counts.total else {}
    q = _question_plan(shared, terms, highest)
    position = {item: k for k, item in enumerate(p.order)}
    spots = [position[i] for t in terms for i in t.items]
    start, end = min(spots), max(spots) + 1
    seg = resumed(q, run, start, end)
    seg.advance(math.inf, deadline)
    words, mask, _ = run.fields.shapes[end]
    assert run.kept is not None
    at = located(run.kept[end], seg.keys[:words] & mask[:, None])  # the record's state, or -1
    finish = np.where(at >= 0, run.back[end][np.maximum(at, 0)], 0)
    weights, said = seg.layers[end].ways, seg.said
    values = sorted({int(v) for v in np.unique(said)})
    if not values:  # no deal reaches the question's last item
        return {}
    mine = np.stack([(said == v) & (at >= 0) for v in values])  # answer x final state
    back = np.where(mine, finish, 0)
    helds = [shared.zero() for _ in values]
    for k in range(end - 1, start - 1, -1):
        back = seg.gathered(k, back, helds)
    for k in range(start - 1, -1, -1):
        back = run.gathered(k, back, helds)
    totals = back.sum(axis=1)
    ahead = np.zeros((len(values), len(run.layers[end])), np.int64)
    for row, chosen in zip(ahead, mine, strict=True):  # merged into the record's states
        np.add.at(row, at[chosen], weights[chosen])
    for k in range(end, len(p.order)):
        ahead = run.spread_by(k, ahead, run.back[k + 1], helds)
    mults, shares = run.ends()
    assert (ahead @ mults == totals).all()  # the forward pass meets the backward one
    free = ahead @ shares  # answer x holder
    return {
        constant + value: p.counts(reduced, held, int(total), [int(n) for n in free[a]])
        for a, (value, held, total) in enumerate(zip(values, helds, totals, strict=True))
        if total
    }


def _question_plan(shared: Layers, terms: list[Term], highest: int) -> Plan:
    """The record's plan, in its run's order, with the question's tally asked (the last)."""
    reduced, p = shared.reduced, shared.p
    tally = Tally(tuple(terms), frozenset(range(highest + 1)))
    asked = replace(reduced, tallies=(*reduced.tallies, tally))
    q = plan(shared.model, asked, len(reduced.tallies), shared.visited)
    tracked = {i for t in q.trackers for i in t.items}
    q = replace(
        q,
        order=p.order,
        domains=p.domains,
        derived=p.derived,
        loose=[i for i in p.order if i not in tracked],
    )
    assert q.free == p.free and q.caps == p.caps and q.holders == p.holders
    assert q.trackers[: len(p.trackers)] == p.trackers and q.tallies[:-1] == p.tallies
    return q


def located(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """For each key of ``wanted`` (a layer's keys, words by states), its row in ``keys``, or -1."""
    if not keys.shape[1]:
        return np.full(wanted.shape[1], -1, np.int64)
    rows, sought = _rows(keys), _rows(wanted)
    order = np.argsort(rows, kind="stable")
    ordered = rows[order]
    at = np.minimum(np.searchsorted(ordered, sought), len(ordered) - 1)
    return np.where(ordered[at] == sought, order[at], -1)


def _rows(keys: np.ndarray) -> np.ndarray:
    """Each state's key as one value that sorts and compares whole (its words as bytes)."""
    if keys.shape[0] == 1:
        return keys[0]
    flat = np.ascontiguousarray(keys.T)
    return flat.view(np.dtype((np.void, 8 * keys.shape[0]))).ravel()
