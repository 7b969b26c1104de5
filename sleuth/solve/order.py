"""Item orders for the counter: greedy candidates, and the race that picks one by running them.

The counter's work depends on the order in which it visits the items, by orders of magnitude
on the hard records, and no static measure predicts it well. So a few candidate orders are made
cheaply (greedy: open few trackers, close many; and breadth-first sweeps; each both ways
round) and raced on the engine itself (``race``), which keeps the run that finishes first.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict

from sleuth.model import Item
from sleuth.solve.count import TooBig, _Plan, _Run, with_order
from sleuth.solve.simplify import Reduced


def _open_cost(tracker, sizes) -> float:
    """log2 of how many values an open tracker can take."""
    holder, items, any_ = tracker
    return 1.0 if any_ else math.log2(min(len(items), sizes[holder]) + 1)


def _greedy_order(items, trackers, sizes, rng, eager: bool) -> list[Item]:
    """An item order that keeps few trackers open.

    Each step takes the item that opens the least and closes the most; ``eager`` prefers items
    in the most trackers already open instead (a breadth-first sweep).
    """
    members = defaultdict(list)
    for t, (_, titems, _) in enumerate(trackers):
        for item in titems:
            members[item].append(t)
    left = {t: len(trackers[t][1]) for t in range(len(trackers))}
    cost = [_open_cost(t, sizes) for t in trackers]
    remaining, order, open_ = list(items), [], set()
    while remaining:
        best, best_key = None, None
        for item in remaining:
            opened = sum(cost[t] for t in members[item] if t not in open_ and left[t] > 1)
            closed = sum(cost[t] for t in members[item] if t in open_ and left[t] == 1)
            inside = sum(cost[t] for t in members[item] if t in open_)
            key = (-inside, opened - closed) if eager else (opened - closed, -closed)
            key += (rng.random(),)
            if best_key is None or key < best_key:
                best, best_key = item, key
        remaining.remove(best)
        order.append(best)
        for t in members[best]:
            left[t] -= 1
            if left[t] == 0:
                open_.discard(t)
            else:
                open_.add(t)
    return order


def candidate_orders(items, trackers, sizes, greedy: int = 4, eager: int = 1) -> list[list[Item]]:
    """Orders to race: greedy with several random tie-breaks, a breadth-first sweep, both ways."""
    rng = random.Random(0)
    items = sorted(items, key=lambda i: (len(i), i))
    out = []
    for k in range(greedy + eager):
        order = _greedy_order(items, trackers, sizes, rng, k >= greedy)
        for candidate in (order, order[::-1]):
            if candidate not in out:
                out.append(candidate)
    return out


def _engine(p: _Plan):
    """The numpy engine when numpy is there and every count fits in int64, else pure Python."""
    try:
        from sleuth.solve.vector import VectorRun, fits
    except ImportError:
        return _Run
    return VectorRun if fits(p) else _Run


def _outlook(run) -> float:
    """States a run is expected to make in all, from the states it has made so far.

    That is the states made, plus the last layer's size carried forward by how much wider (in
    tracker bits and tally values) each later layer is.

    The widths are what the order promises before pruning; half of each extra bit shows up
    in practice (measured on simulated 5- and 6-player records), hence the 0.5.
    """
    done = len(run.layers) - 1
    if done == 0:
        return float(run.size)
    width = run.steps.width
    ahead = sum(2.0 ** (0.5 * (w - width[done - 1])) for w in width[done:])
    return run.size + len(run.layers[-1]) * ahead


def race(p: _Plan, reduced: Reduced, deadline: float | None) -> _Run:
    """The forward pass of the best candidate order, found by successive halving.

    Every candidate runs until it has made ``cap`` states; the better half (least expected
    work, ``_outlook``) goes on with twice the cap, until one finishes. The order changes the
    work by orders of magnitude, and no static measure predicts it well; the states a run has
    actually made are the best guide. A run that needs more states than its engine may keep
    (TooBig) drops out; when every runner has, the best benched runs come back. A small count
    that the first order finishes within the first cap needs no other candidate at all.
    """
    tracked = [i for i in p.order if i not in p.loose]
    sizes = [p.caps[h] for h in range(len(p.holders))]
    engine = _engine(p)
    orders = candidate_orders(tracked, p.trackers, sizes)
    cap = 2000.0
    first = engine(with_order(p, orders[0], reduced))
    runs, benched = [], []
    try:
        first.advance(cap, deadline)
        if first.done:
            return first
        runs.append(first)
    except TooBig:
        pass
    runs += [engine(with_order(p, o, reduced)) for o in orders[1:]]
    del first  # a candidate that loses the race must not stay in memory
    while True:
        fitting = []
        for run in runs:
            try:
                run.advance(cap, deadline)
            except TooBig:
                continue  # this order needs too many states; the others may not
            if run.done:
                return run
            fitting.append(run)
        fitting.sort(key=_outlook)
        keep = max(1, (len(fitting) + 1) // 2)
        runs, benched = fitting[:keep], benched + fitting[keep:]
        if not runs:
            if not benched:
                raise TooBig
            benched.sort(key=_outlook)  # every runner was too big: call up the best benched
            runs, benched = benched[:keep], benched[keep:]
            continue
        cap *= 2
