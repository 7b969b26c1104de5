"""Item orders for the counter: greedy ones, polished ones, and the way a count picks one.

The counter's work depends on the order in which it visits the items, by orders of magnitude
on the hard records. Greedy orders (open few trackers, close many; breadth-first sweeps) are
cheap to make, and most counts finish in the first. For a hard count a few are ranked by a
static cost (how wide their layers promise to be), the cheapest polished by local search on
that cost, and tried both ways round (``race``). The settings are in ``tuning``.
"""

from __future__ import annotations

import math
import random
import time
from collections import defaultdict
from collections.abc import Iterator

from sleuth.model import Item
from sleuth.solve import engines, tuning
from sleuth.solve.counts import BudgetExceeded, TooBig
from sleuth.solve.engines import Run
from sleuth.solve.merge import Kernels
from sleuth.solve.plan import Plan, with_order
from sleuth.solve.simplify import Reduced
from sleuth.solve.widths import Widths


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
    """Greedy orders with several random tie-breaks and breadth-first sweeps, both ways round."""
    rng = random.Random(0)
    items = sorted(items, key=lambda i: (len(i), i))
    out = []
    for k in range(greedy + eager):
        order = _greedy_order(items, trackers, sizes, rng, k >= greedy)
        for candidate in (order, order[::-1]):
            if candidate not in out:
                out.append(candidate)
    return out


def first_order(p: Plan, tracked: list[Item]) -> list[Item]:
    """The greedy order a count runs first, alone (most counts finish in it)."""
    return candidate_orders(tracked, p.trackers, p.caps, 1, 0)[0]


def contenders(p: Plan, tracked: list[Item]) -> Iterator[list[Item]]:
    """The orders to try on a hard count, most promising first, each made when asked for.

    The greedy candidates are ranked by static cost, and a few of the cheapest polished by
    local search on that cost. The static cost cannot choose an order's direction, which can
    change the work tenfold: each polished order comes as made, then reversed.
    """
    greedy = candidate_orders(tracked, p.trackers, p.caps, greedy=8, eager=2)
    widths = Widths(tracked, p)
    ranked = sorted(greedy, key=widths.cost)
    made: list[list[Item]] = []
    for seed, start in enumerate(tuning.STARTS):
        if start < len(ranked):
            best = widths.polished(ranked[start], tuning.TRIES, seed)
            for order in (best, best[::-1]):
                if order not in made:
                    made.append(order)
                    yield order


def expected(run: Run) -> float:
    """States a run is expected to make in all, from the states it has made so far.

    The last layer's size is carried forward by how much wider (in tracker bits and tally
    values) each later layer is, ``GROWTH`` of a bit per bit.
    """
    done = len(run.layers) - 1
    if done == 0:
        return float(run.size)
    width = run.steps.width
    ahead = sum(2.0 ** (tuning.GROWTH * (w - width[done - 1])) for w in width[done:])
    return run.size + len(run.layers[-1]) * ahead


class Dropped(TooBig):
    """A run stopped whole by its forecast or its bound: it can go on later from where it is."""


def finished(run: Run, deadline: float | None, cap: float = math.inf) -> None:
    """Advance the run to its end, or past ``cap`` states.

    Dropped as soon as the run is expected to go far over its bound (``HOPELESS``), or when it
    reaches its bound not expected to end soon after: a run expected to end within ``OVER``
    times its bound, or within ``NEAR`` times the states it has made, may pass it (up to the
    engine's hard ``limit``), rather than be dropped near its end. A forecast from the first
    layers misleads, so a run under ``SURE`` states is dropped only at its bound. TooBig from
    the engine itself when a step would pass that limit.
    """
    bound = run.most
    try:
        while not run.done and run.size <= cap:
            forecast = expected(run)
            near = max(tuning.OVER * bound, tuning.NEAR * run.size)  # near its end: may pass
            if forecast > max(tuning.HOPELESS * bound, near) and run.size >= tuning.SURE:
                raise Dropped
            run.most = bound if forecast > near else min(run.limit, near)
            if run.size > run.most:
                raise Dropped
            # stop at the bound rather than fail inside it, so the forecast is asked again there
            run.advance(min(1.5 * run.size + 1000, cap, run.most), deadline)
    finally:
        run.most = bound


class Shelf:
    """The contenders a race has dropped, and the one of them it keeps to go on with later.

    The kept run is the first dropped whole: the contenders come best first by static cost,
    and at the first bound the forecasts of hard records do not tell their orders apart. Its
    states count against the others' limit, so that all the runs alive together stay under the
    engine's bound.
    """

    def __init__(self, most: int):
        self.most = most
        self.kept: tuple[list[Item], Run] | None = None
        self.tried: list[list[Item]] = []  # in the order they dropped

    def add(self, order: list[Item], run: Run, whole: bool) -> None:
        """Note a dropped run; keep it if it is whole and none is kept yet."""
        self.tried.append(order)
        if whole and self.kept is None:
            self.kept = (order, run)

    def room(self) -> int:
        """The hard state limit of a new run while the kept one waits."""
        return self.most - (self.kept[1].size if self.kept else 0)

    def resumed(self, deadline: float | None) -> Run | None:
        """The kept run, gone on to its end under the whole bound; None without one."""
        if self.kept is None:
            return None
        _, run = self.kept
        self.kept = None
        run.most = run.limit = self.most
        finished(run, deadline)
        return run


def _in_time(deadline: float | None) -> None:
    """BudgetExceeded once the deadline has passed: no new order is made or run after it."""
    if deadline is not None and time.monotonic() > deadline:
        raise BudgetExceeded


def race(p: Plan, reduced: Reduced, deadline: float | None, hint: list[Item] | None = None) -> Run:
    """The forward pass of a count, in the first order that finishes.

    Most counts finish in the first greedy order within ``SOLO`` states. A hard one then takes
    the polished orders a pair at a time (an order and its reverse): both make ``PROBE``
    states, and the one expected to make fewer in all (``expected``) goes on first. The
    ``hint`` (the order that finished the record's last hard count, ``memory``) joins the first
    pair as one more contender, probed and ranked like them. Each run is held under ``FIRST``
    of the engine's state bound (an order that needs more, or is expected to need far more,
    drops out). When every one has dropped, the first run dropped whole goes on from where it
    stopped, under the whole bound (``Shelf``); if it fails too, the next ``SECOND`` that
    dropped run again from the start.
    """
    tracked = p.tracked
    engine, kernels = engines.choose(p), Kernels()  # the kernels are the count's, not a run's
    first = engine(with_order(p, first_order(p, tracked), reduced), kernels)
    try:
        first.advance(tuning.SOLO, deadline)
        if first.done:
            return first
    except TooBig:
        pass
    del first  # not kept in memory while the others run
    shelf = Shelf(engine.most)
    made = contenders(p, tracked)
    for order in made:
        _in_time(deadline)
        pair = [o for o in (order, next(made, None)) if o is not None]
        if hint is not None:
            pair = [hint, *pair]
        runs = []
        for o in pair:
            _in_time(deadline)
            run = engine(with_order(p, o, reduced), kernels)
            run.most, run.limit = tuning.FIRST * engine.most, shelf.room()
            try:
                finished(run, deadline, tuning.PROBE)
                if run.done:
                    return run
                runs.append((o, run))
            except TooBig as e:
                shelf.add(o, run, isinstance(e, Dropped))
        runs.sort(key=lambda x: expected(x[1]))
        for o, run in runs:
            run.limit = shelf.room()
            try:
                finished(run, deadline)
                return run
            except TooBig as e:
                shelf.add(o, run, isinstance(e, Dropped))
        del runs, run
        hint = None
    resumed = shelf.kept[0] if shelf.kept else None
    try:
        run = shelf.resumed(deadline)
        if run is not None:
            return run
    except TooBig:
        pass
    again = [o for o in shelf.tried if o is not resumed]
    for order in again[: tuning.SECOND]:
        _in_time(deadline)
        run = engine(with_order(p, order, reduced), kernels)
        try:
            finished(run, deadline)
            return run
        except TooBig:
            continue
    raise TooBig
