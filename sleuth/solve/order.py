"""Item orders for the counter: greedy ones, polished ones, and the way a count picks one.

The counter's work depends on the order in which it visits the items, by orders of magnitude
on the hard records. Greedy orders (open few trackers, close many; breadth-first sweeps) are
cheap to make, and most counts finish in the first. For a hard count a few are ranked by a
static cost (how wide their layers promise to be), the cheapest polished by local search on
that cost, and tried both ways round (``race``).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterator

from sleuth.model import Item
from sleuth.solve.count import TooBig, _Plan, _Run, with_order
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


def first_order(p: _Plan, tracked: list[Item]) -> list[Item]:
    """The greedy order a count runs first, alone (most counts finish in it)."""
    return candidate_orders(tracked, p.trackers, p.caps, 1, 0)[0]


TRIES = 2000  # moves tried when polishing an order (about 25 ms)
STARTS = (0, 2, 4)  # the greedy orders polished, by static rank (0 and 1 are often reverses)


def contenders(p: _Plan, tracked: list[Item]) -> Iterator[list[Item]]:
    """The orders to try on a hard count, most promising first, each made when asked for.

    The greedy candidates are ranked by static cost, and a few of the cheapest polished by
    local search on that cost (2 to 3 times fewer states than the greedy order on hard
    records). The static cost cannot choose an order's direction, which can change the work
    tenfold: each polished order comes as made, then reversed.
    """
    greedy = candidate_orders(tracked, p.trackers, p.caps, greedy=8, eager=2)
    widths = Widths(tracked, p)
    ranked = sorted(greedy, key=widths.cost)
    made: list[list[Item]] = []
    for seed, start in enumerate(STARTS):
        if start < len(ranked):
            best = widths.polished(ranked[start], TRIES, seed)
            for order in (best, best[::-1]):
                if order not in made:
                    made.append(order)
                    yield order


def _engine(p: _Plan):
    """The numpy engine when numpy is there and every count fits in int64, else pure Python."""
    try:
        from sleuth.solve.vector import VectorRun, fits
    except ImportError:
        return _Run
    return VectorRun if fits(p) else _Run


GROWTH = 0.5  # layer growth, in bits, per bit a later layer promises (see ``_expected``)
HOPELESS = 1.5  # a run expected to make this many times its bound of states is dropped early
SURE = 100_000  # states a run makes before its forecast may drop it (see ``_finished``)


def _expected(run) -> float:
    """States a run is expected to make in all, from the states it has made so far.

    The last layer's size is carried forward by how much wider (in tracker bits and tally
    values) each later layer is, ``GROWTH`` of a bit per bit. Replayed on the runs of 40 hard
    simulated 6-player records (240 runs, bound 6 million states), dropping a run once this
    passes ``HOPELESS`` times its bound saved about half the work that runs over their bound
    waste, and dropped 3 runs that would have finished under it (all over 4.7 million states).

    ``GROWTH`` was 0.3, then 0.5. Replaying the race on the recorded layers of every contender
    of 36 records that took over 1 s in the surveys of seeds 20 to 39 made 452 million states
    at 0.5, 539 million at 0.3; on the 44 hard records of seeds 0 to 19, 112 and 113 million.
    Timed, those 36 counts took 93 and 108 s in all at 0.5, 110 and 116 s at 0.3 (alternated
    runs); the 44 took the same, about 26 s. It is not better everywhere: at 0.5 the first
    layers of a contender can promise so much that it drops after a few thousand states, and
    on seed 38 after 15 events the order that needs 3.9 million states went that way (0.7 s
    became 4.4 s; seed 22 after 16 events, 0.8 s became 2.7 s). Keeping such tiny drops and
    probing them again before going on fixed seed 38 but slowed seed 29 after 19 events from
    5.8 s to 8.9 s, and was not kept.
    """
    done = len(run.layers) - 1
    if done == 0:
        return float(run.size)
    width = run.steps.width
    ahead = sum(2.0 ** (GROWTH * (w - width[done - 1])) for w in width[done:])
    return run.size + len(run.layers[-1]) * ahead


OVER = 1.25  # a run expected to end within this many times its bound may pass the bound
NEAR = 2.0  # a run past its bound goes on while expected to end within this many times its size


class Dropped(TooBig):
    """A run stopped whole by its forecast or its bound: it can go on later from where it is."""


def _finished(run, deadline: float | None, cap: float = math.inf) -> None:
    """Advance the run to its end, or past ``cap`` states.

    Dropped as soon as the run is expected to go far over its bound, or when it reaches its
    bound not expected to end soon after: a run expected to end within ``OVER`` times its
    bound, or within ``NEAR`` times the states it has made, may pass it (up to the engine's
    hard ``limit``), rather than be dropped near its end. TooBig from the engine itself when
    a step would pass that limit.

    ``NEAR`` is for runs that reach their bound well into the count, when the forecast is
    good: what is left is then at most what is done, and any other order would start again.
    It came with the forced-hits check (``forced.py``), whose runs keep fewer states but cost
    more each, so that dropping a run at its bound wastes more time: seed 29 after 16 events
    dropped four runs of 0.8 to 2 s each, one of them at 7.4 million states expected to end at
    12.1 million (it ended at 12.2). With the check, the 30 slowest simulated states took 77.2
    s at ``NEAR`` 1 (as before it: only ``OVER``), 51.6 s at 1.5 and 48.3 s at 2, against 65.0
    s without the check; the 44 hard records took about the same throughout (19.4 to 21.8 s
    in all, runs of one setting differing by up to 4 s on this shared machine).

    A forecast from the first layers misleads, so a run under ``SURE`` states is dropped only
    at its bound. On seed 38 after 15 events, the best order (3.4 million states) was forecast
    at 10 million after 12,844 states and dropped, and the order that went on made 15.5
    million (3.8 s). Replayed (``benchmarks/replay.py``) on every order of the 30 slowest and
    the 44 hard records, the slow ones took 33.4 s in all with ``SURE``, 36.4 s without (38/15
    0.59 s against 3.09 s; 15 states over 1 s against 17), the hard ones 17.6 and 17.5 s.
    """
    bound = run.most
    try:
        while not run.done and run.size <= cap:
            expected = _expected(run)
            near = max(OVER * bound, NEAR * run.size)  # a run near its end may pass its bound
            if expected > max(HOPELESS * bound, near) and run.size >= SURE:
                raise Dropped
            run.most = bound if expected > near else min(run.limit, near)
            if run.size > run.most:
                raise Dropped
            # stop at the bound rather than fail inside it, so the forecast is asked again there
            run.advance(min(1.5 * run.size + 1000, cap, run.most), deadline)
    finally:
        run.most = bound


SOLO = 200_000  # states the first greedy order may make before the better orders are made
PROBE = 200_000  # states each way round of a polished order makes before one is chosen
FIRST = 0.25  # of the engine's state bound, for each contender's first run
SECOND = 2  # contenders run again from the start under the whole bound, when all have dropped


class _Dropped:
    """The contenders a race has dropped, and the one of them it keeps to go on with later.

    The kept run is the first dropped whole: the contenders come best first by static cost,
    and at the first bound the forecasts of hard records do not tell their orders apart (on
    seed 29 of the simulated games, every contender of event 16 was forecast at 10 to 15
    million states when dropped; they needed from 13.7 to over 26 million). Its states count
    against the others' limit, so that all the runs alive together stay under the engine's
    bound.
    """

    def __init__(self, most: int):
        self.most = most
        self.kept = None  # (order, run)
        self.tried: list[list[Item]] = []  # in the order they dropped

    def add(self, order: list[Item], run, whole: bool) -> None:
        """Note a dropped run; keep it if it is whole and none is kept yet."""
        self.tried.append(order)
        if whole and self.kept is None:
            self.kept = (order, run)

    def room(self) -> int:
        """The hard state limit of a new run while the kept one waits."""
        return self.most - (self.kept[1].size if self.kept else 0)

    def resumed(self, deadline: float | None):
        """The kept run, gone on to its end under the whole bound; None without one."""
        if self.kept is None:
            return None
        _, run = self.kept
        self.kept = None
        run.most = run.limit = self.most
        _finished(run, deadline)
        return run


BIG = 6_000_000  # states of a count whose order is remembered for the next (``memory``)


def race(
    p: _Plan, reduced: Reduced, deadline: float | None, hint: list[Item] | None = None
) -> _Run:
    """The forward pass of a count, in the first order that finishes.

    Most counts finish in the first greedy order within ``SOLO`` states. A hard one then takes
    the polished orders a pair at a time (an order and its reverse): both make ``PROBE``
    states, and the one expected to make fewer in all (``_expected``) goes on first. The
    ``hint`` (the order that finished the record's last hard count, ``memory``) joins the first
    pair as one more contender, probed and ranked like them. Each run is held under ``FIRST``
    of the engine's state bound (an order that needs more, or is expected to need far more,
    drops out). When every one has dropped, the first run dropped whole goes on from where it
    stopped, under the whole bound (``_Dropped``); if it fails too, the next ``SECOND`` that
    dropped run again from the start.

    Racing many orders side by side by successive halving on their early layers was tried
    and measured: on the 40 slowest 6-player records of 20 simulated games it took 95 s in
    all; trusting the polished order took 46 s (44 records), probing its direction 42 s.
    Probing deeper chooses better: replayed on the recorded layers of every contender of 44
    hard records, a probe of 300,000 states makes 94 million states in all, 30,000 makes 117
    million (the best contender of each: 82 million); the 44 counts took 24.5 s, not 28.8 s.
    With the forced-hits check (whose runs keep fewer states), 200,000 does a little better
    than 300,000: replayed (``benchmarks/replay.py``) on the 30 slowest and the 44 hard
    records, 33.4 and 17.6 s in all against 34.2 and 18.4 s; timed, alternated twice, 44.5 and
    38.4 s against 45.6 and 40.1 s, and 18.5 and 18.8 s against 19.9 and 19.7 s.

    The hint used to go on first unless another was forecast at under half its states, under
    half the bound. Surveyed with orders remembered, alternated, that gave seeds 20 to 29 and
    30 to 39 16 and 7 states over 1 s, maxima 5.3 and 3.2 s, peaks 768 and 574 MiB, against
    15 and 6, 3.3 and 2.7 s, 621 and 559 MiB as one more contender (without a hint: 14 and 5,
    2.9 and 2.6 s).
    """
    tracked = [i for i in p.order if i not in p.loose]
    engine = _engine(p)
    first = engine(with_order(p, first_order(p, tracked), reduced))
    try:
        first.advance(SOLO, deadline)
        if first.done:
            return first
    except TooBig:
        pass
    del first  # not kept in memory while the others run
    dropped = _Dropped(engine.most)
    made = contenders(p, tracked)
    for order in made:
        pair = [o for o in (order, next(made, None)) if o is not None]
        if hint is not None:
            pair = [hint, *pair]
        runs = []
        for o in pair:
            run = engine(with_order(p, o, reduced))
            run.most, run.limit = FIRST * engine.most, dropped.room()
            try:
                _finished(run, deadline, PROBE)
                if run.done:
                    return run
                runs.append((o, run))
            except TooBig as e:
                dropped.add(o, run, isinstance(e, Dropped))
        runs.sort(key=lambda x: _expected(x[1]))
        for o, run in runs:
            run.limit = dropped.room()
            try:
                _finished(run, deadline)
                return run
            except TooBig as e:
                dropped.add(o, run, isinstance(e, Dropped))
        del runs, run
        hint = None
    resumed = dropped.kept[0] if dropped.kept else None
    try:
        run = dropped.resumed(deadline)
        if run is not None:
            return run
    except TooBig:
        pass
    again = [o for o in dropped.tried if o is not resumed]
    for order in again[:SECOND]:
        run = engine(with_order(p, order, reduced))
        try:
            _finished(run, deadline)
            return run
        except TooBig:
            continue
    raise TooBig
