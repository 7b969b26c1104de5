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
from dataclasses import dataclass
from enum import Enum

from sleuth.model import Item
from sleuth.solve import engines, tuning
from sleuth.solve.counts import BudgetExceeded, TooBig
from sleuth.solve.engines import Engine, Run
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
    remaining, order = list(items), []
    open_: set[int] = set()

    def rank(item: Item) -> tuple[float, float, float]:
        """The item's key: the least is taken (ties broken at random)."""
        opened = sum(cost[t] for t in members[item] if t not in open_ and left[t] > 1)
        closed = sum(cost[t] for t in members[item] if t in open_ and left[t] == 1)
        inside = sum(cost[t] for t in members[item] if t in open_)
        key = (-inside, opened - closed) if eager else (opened - closed, -closed)
        return (*key, rng.random())

    while remaining:
        best = min(remaining, key=rank)
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


class Ending(Enum):
    """How ``finished`` left a run."""

    DONE = "done"  # every item visited
    PAUSED = "paused"  # past the cap it was given, not done: it may go on
    DROPPED = "dropped"  # stopped whole by its forecast or its bound: it may go on later
    FAILED = "failed"  # a step would have passed the engine's limit (TooBig): it is spent


def finished(run: Run, deadline: float | None, bound: float, cap: float = math.inf) -> Ending:
    """Advance the run to its end, or past ``cap`` states, under ``bound`` states.

    Dropped as soon as the run is expected to go far over its bound (``HOPELESS``), or when it
    reaches its bound not expected to end soon after: a run expected to end within ``OVER``
    times its bound, or within ``NEAR`` times the states it has made, may pass it (up to the
    run's hard ``limit``), rather than be dropped near its end. A forecast from the first
    layers misleads, so a run under ``SURE`` states is dropped only at its bound. Failed when
    a step of the engine itself would pass that limit.
    """
    while not run.done and run.size <= cap:
        forecast = expected(run)
        near = max(tuning.OVER * bound, tuning.NEAR * run.size)  # near its end: may pass
        if forecast > max(tuning.HOPELESS * bound, near) and run.size >= tuning.SURE:
            return Ending.DROPPED
        allowed = bound if forecast > near else min(run.limit, near)
        if run.size > allowed:
            return Ending.DROPPED
        try:  # stop at the bound rather than fail inside it, so the forecast is asked again there
            run.advance(min(1.5 * run.size + 1000, cap, allowed), deadline)
        except TooBig:
            return Ending.FAILED
    return Ending.DONE if run.done else Ending.PAUSED


class Shelf:
    """The contenders a race has dropped, and the one of them it keeps to go on with later.

    The kept run is the first dropped whole: the contenders come best first by static cost,
    and at the first bound the forecasts of hard records do not tell their orders apart. Its
    states count against the others' limit, so that all the runs alive together stay under the
    engine's bound of ``states``.
    """

    def __init__(self, states: int):
        self.states = states
        self.kept: tuple[list[Item], Run] | None = None
        self.tried: list[list[Item]] = []  # in the order they dropped

    def add(self, order: list[Item], run: Run, ending: Ending) -> None:
        """Note a dropped or failed run; keep it if it dropped whole and none is kept yet."""
        self.tried.append(order)
        if ending is Ending.DROPPED and self.kept is None:
            self.kept = (order, run)

    def room(self) -> int:
        """The hard state limit of a new run while the kept one waits."""
        return self.states - (self.kept[1].size if self.kept else 0)

    def resumed(self, deadline: float | None) -> Run | None:
        """The kept run, gone on to its end under the whole bound; None without one or if not."""
        if self.kept is None:
            return None
        _, run = self.kept
        self.kept = None
        run.limit = self.states
        return run if finished(run, deadline, self.states) is Ending.DONE else None


def _in_time(deadline: float | None) -> None:
    """BudgetExceeded once the deadline has passed: no new order is made or run after it."""
    if deadline is not None and time.monotonic() > deadline:
        raise BudgetExceeded


@dataclass
class _Race:
    """What every run of one race shares: its plan, engine, kernels and deadline."""

    p: Plan
    reduced: Reduced
    deadline: float | None
    engine: Engine
    kernels: Kernels  # the count's, not a run's

    def run(self, order: list[Item]) -> Run:
        """A new run in this order, at its start."""
        return self.engine(with_order(self.p, order, self.reduced), self.kernels)

    def alone(self) -> Run | None:
        """The first greedy order's run, if it finishes within ``SOLO`` states."""
        run = self.run(first_order(self.p, self.p.tracked))
        try:
            run.advance(tuning.SOLO, self.deadline)
        except TooBig:
            return None
        return run if run.done else None

    def pairs(self, hint: list[Item] | None) -> Iterator[list[list[Item]]]:
        """The contenders a pair at a time (an order and its reverse), the hint in the first."""
        made = contenders(self.p, self.p.tracked)
        for order in made:
            _in_time(self.deadline)
            pair = [o for o in (order, next(made, None)) if o is not None]
            yield pair if hint is None else [hint, *pair]
            hint = None

    def pair(self, orders: list[list[Item]], shelf: Shelf) -> Run | None:
        """The first of these orders to finish, each under ``FIRST`` of the engine's bound.

        Each is probed (``PROBE`` states), then the probed go on in their forecast's order; the
        others go on the shelf.
        """
        bound = tuning.FIRST * self.engine.states
        probed = []
        for order in orders:
            _in_time(self.deadline)
            run = self.run(order)
            run.limit = shelf.room()
            ending = finished(run, self.deadline, bound, tuning.PROBE)
            if ending is Ending.DONE:
                return run
            if ending is Ending.PAUSED:
                probed.append((order, run))
            else:
                shelf.add(order, run, ending)
        probed.sort(key=lambda x: expected(x[1]))
        for order, run in probed:
            run.limit = shelf.room()
            ending = finished(run, self.deadline, bound)
            if ending is Ending.DONE:
                return run
            shelf.add(order, run, ending)
        return None

    def again(self, orders: list[list[Item]]) -> Run | None:
        """The first of these orders to finish, each run from the start under the whole bound."""
        for order in orders:
            _in_time(self.deadline)
            run = self.run(order)
            if finished(run, self.deadline, self.engine.states) is Ending.DONE:
                return run
        return None


def race(
    p: Plan,
    reduced: Reduced,
    deadline: float | None,
    hint: list[Item] | None = None,
) -> Run:
    """The forward pass of a count, in the first order that finishes.

    Most counts finish in the first greedy order within ``SOLO`` states. A hard one then takes
    the polished orders a pair at a time (an order and its reverse): both make ``PROBE``
    states, and the one expected to make fewer in all (``expected``) goes on first. The
    ``hint`` (the order that finished the record's last hard count, ``memory``) joins the first
    pair as one more contender, probed and ranked like them. Each run is held under ``FIRST``
    of the engine's state bound (an order that needs more, or is expected to need far more,
    drops out). When every one has dropped, the first run dropped whole goes on from where it
    stopped, under the whole bound (``Shelf``); if it fails too, the next ``SECOND`` that
    dropped run again from the start. TooBig when none finishes.
    """
    engine = engines.choose(p)
    racing = _Race(p, reduced, deadline, engine, Kernels())
    run = racing.alone()
    if run is not None:
        return run
    shelf = Shelf(engine.states)
    for orders in racing.pairs(hint):
        run = racing.pair(orders, shelf)
        if run is not None:
            return run
    resumed = shelf.kept[0] if shelf.kept else None
    run = shelf.resumed(deadline)
    if run is not None:
        return run
    again = [o for o in shelf.tried if o is not resumed]
    run = racing.again(again[: tuning.SECOND])
    if run is None:
        raise TooBig
    return run
