"""Many questions over one count of the record: each question's pass over its own layers only.

``exact.split`` counts the record again for each question, with the question's tally asked, in
an order of its own: on a hard record every question costs 1.5 to 3 times the record's count.
Here the record is counted once (``layers``), in an order that visits every item of the
questions, with every layer kept: its edges, its states' weights (the ways to reach them) and,
from one backward pass, their ways to finish the deal. A question whose items lie at positions
a to b of that order is carried along the record's edges from layer a to layer b + 1 only
(``carry``): each entry of that pass is a record state with the question's part so far, and at
b + 1 that part is the question's value. For each answer v:

- the worlds: over the final entries of value v, their weight times the record's ways to finish;
- the holdings of items a to b: the pass's backward run from those ways to finish (value v);
- of items before a: that run goes on along the record's edges (``VectorRun.gathered``);
- of items after b: the weights of value v, merged into the record's layer b + 1, go on forward
  along the record's edges (``VectorRun.spread_by``), times the ways to finish where each goes.

Exact as the count is: a deal follows one path through the record's layers, and the question
only splits its weight by the value it gives. The tests check every split against enumeration
and ``exact.split``, on both merges of the carried pass.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sleuth.model import Item, Model, Term
from sleuth.solve import tuning
from sleuth.solve.carry import carry
from sleuth.solve.counts import Counts
from sleuth.solve.order import race
from sleuth.solve.plan import Plan, plan
from sleuth.solve.simplify import Contradiction, Reduced, reduce, residual
from sleuth.solve.vector import VectorRun, fits, gather

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
    run = race(p, reduced, deadline)
    assert isinstance(run, VectorRun)  # ``fits``: the race's engine is the layer engine
    counts = run.backward(_zero(model), reduced, keep=True)
    if run.size * len(questions) >= tuning.TURNED:  # loaded once, before the questions' workers
        run.kernels.turn().warmed()
    return Layers(model, reduced, run.p, run, counts, visited)


def split(shared: Layers, question: Question, budget: float | None = None) -> dict[int, Counts]:
    """The worlds split by the question's value: answer -> Counts, none empty (``exact.split``).

    BudgetExceeded after ``budget`` seconds, TooBig past the engine's bound.
    """
    deadline = None if budget is None else time.monotonic() + budget
    reduced, p, run = shared.reduced, shared.p, shared.run
    terms, constant, _ = _asked(reduced, question, shared.model)
    if not terms:  # the answer is decided
        return {constant: shared.counts} if shared.counts.total else {}
    position = {item: k for k, item in enumerate(p.order)}
    spots = [position[i] for t in terms for i in t.items]
    start, end = min(spots), max(spots) + 1
    seg = carry(run, terms, start, end, deadline)
    assert run.back
    finish = run.back[end][seg.rows]
    weights, said = seg.ways[-1], seg.said
    values = sorted({int(v) for v in np.unique(said)})
    if not values:  # no deal reaches the question's last item
        return {}
    mine = np.stack([said == v for v in values])  # answer x final entry
    back = np.where(mine, finish, 0)
    helds = [shared.zero() for _ in values]
    compiled = run.kernels.module
    for k in range(end - 1, start - 1, -1):
        step = seg.edges[k - start], seg.ways[k - start], p.holders, p.order[k]
        back = gather(*step, back, helds, compiled)
    for k in range(start - 1, -1, -1):
        back = run.gathered(k, back, helds)
    totals = back.sum(axis=1)
    ahead = np.zeros((len(values), len(run.layers[end])), np.int64)
    for row, chosen in zip(ahead, mine, strict=True):  # merged into the record's states
        np.add.at(row, seg.rows[chosen], weights[chosen])
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
