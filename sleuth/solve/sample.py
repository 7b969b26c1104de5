"""An estimate by sampling, for when the exact count runs out of time. Never exact.

Deals are drawn uniformly from the worlds of a *relaxed* record, one that the counter can count
exactly: every fact (a single holding, such as z3's impossible holdings), and the tallies of
the record's first events, as many as can be counted in the time (found by bisection). A draw
is kept when it also satisfies the tallies left out. Kept draws are uniform over the worlds, so
shares among them estimate the probabilities, and (the relaxed record's exact number of worlds)
x (the share kept) estimates the number of worlds. The fewer tallies are left out, the more
draws are kept: far more than from deals that only respect the domains, which is what this
falls back to when the layer engine cannot be used (counts past int64).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sleuth.chance import wilson
from sleuth.model import Holder, Item, Model, Tally
from sleuth.solve.counts import BudgetExceeded
from sleuth.solve.draw import Walker
from sleuth.solve.order import race
from sleuth.solve.plan import plan
from sleuth.solve.simplify import Contradiction, Reduced, reduce
from sleuth.solve.vector import VectorRun, allowed, fits

FEWEST = 256  # draws an estimate makes even past its deadline (one batch)
FLOOR = 0.1  # seconds a relaxation's count may take even past the deadline (the first: 0.04 s)


@dataclass(frozen=True)
class Estimate:
    """A sampled estimate: worlds with a 95% interval, and shares of kept draws per holding."""

    worlds: int
    low: int
    high: int
    samples: int
    kept: int
    held: dict[tuple[Holder, Item], int]


class _Sampler:
    """Uniform deals that respect item domains and hand sizes."""

    def __init__(self, model: Model, domains: dict):
        space = model.space
        self.holders = list(space.holders)
        full = frozenset(h for h in self.holders if space.sizes[h] > 0)
        self.bound = [i for i in space.items if domains[i] != full]
        self.free = [i for i in space.items if domains[i] == full]
        index = {h: k for k, h in enumerate(self.holders)}
        self.domains = [[index[h] for h in sorted(domains[i])] for i in self.bound]
        self.sizes = tuple(space.sizes[h] for h in self.holders)
        self.ways = lru_cache(maxsize=None)(self._ways)

    def _ways(self, k: int, caps: tuple[int, ...]) -> int:
        """Deals of the bound items from ``k`` on, and of the free items, given hand room."""
        if k == len(self.bound):
            total, n = 1, 0
            for c in caps:
                n += c
                total *= math.comb(n, c)
            return total if n == len(self.free) else 0
        return sum(
            self.ways(k + 1, caps[:h] + (caps[h] - 1,) + caps[h + 1 :])
            for h in self.domains[k]
            if caps[h] > 0
        )

    def total(self) -> int:
        """Every deal that respects the domains."""
        return self.ways(0, self.sizes)

    def draw(self, rng: random.Random) -> dict[Item, Holder]:
        """One deal, uniformly at random among those that respect the domains."""
        caps, deal = self.sizes, {}
        for k, item in enumerate(self.bound):
            options = [h for h in self.domains[k] if caps[h] > 0]
            weights = [self.ways(k + 1, caps[:h] + (caps[h] - 1,) + caps[h + 1 :]) for h in options]
            h = rng.choices(options, weights)[0]
            deal[item] = self.holders[h]
            caps = caps[:h] + (caps[h] - 1,) + caps[h + 1 :]
        hands = [self.holders[h] for h, c in enumerate(caps) for _ in range(c)]
        rng.shuffle(hands)
        deal.update(zip(self.free, hands, strict=True))
        return deal


def _scaled(relaxed: int, samples: int, kept: int, held: dict) -> Estimate:
    """The estimate from ``kept`` of ``samples`` uniform draws among ``relaxed`` deals."""
    low, high = wilson(kept, samples)
    return Estimate(
        round(relaxed * kept / samples),
        math.floor(relaxed * low),
        math.ceil(relaxed * high),
        samples,
        kept,
        held,
    )


def _relaxed(model: Model, keep: int) -> tuple[Model, tuple[Tally, ...]]:
    """The model with every fact but only the tallies of groups 0..keep, and the tallies left."""
    groups, left = [], []
    for g, group in enumerate(model.groups):
        if g <= keep:
            groups.append(group)
            continue
        facts = tuple(t for t in group if len(t.terms) == 1 and len(t.terms[0].items) == 1)
        groups.append(facts)
        left += [t for t in group if t not in facts]
    return Model(model.space, tuple(groups), model.labels), tuple(left)


def counted_run(model: Model, deadline: float) -> tuple[VectorRun, Reduced, int] | None:
    """The layer engine's finished run over ``model`` with its backward pass, or None.

    None as well where the layer engine cannot count it (past int64): draws walk its layers.
    """
    try:
        reduced = reduce(model)
        p = plan(model, reduced)
        if not fits(p):
            return None
        run = race(p, reduced, deadline)
    except (Contradiction, BudgetExceeded):
        return None
    assert isinstance(run, VectorRun)  # ``fits``: the race ran the layer engine
    zero = {(h, i): 0 for h in model.space.holders for i in model.space.items}
    counts = run.backward(zero, reduced, keep=True)
    return (run, reduced, counts.total) if counts.total else None


def _best_relaxation(model: Model, deadline: float):
    """(run, reduced, worlds, tallies left out) for the most events countable in time, or None.

    The whole record is known not to count in time; group ``keep`` is the last one kept.
    """
    lo, hi, best = -1, len(model.groups) - 2, None
    while lo < hi:
        keep = lo if best is None else (lo + hi + 1) // 2
        relaxed, left = _relaxed(model, keep)
        now = time.monotonic()  # half the time left, but a try of at least FLOOR, even late
        counted = counted_run(relaxed, now + max((deadline - now) / 2, FLOOR))
        if counted is not None:
            best, lo = (*counted, left), keep
        elif best is None:
            return None
        else:
            hi = keep - 1
        if time.monotonic() >= deadline:
            break
    return best


def satisfied(deals: dict, tallies: tuple[Tally, ...], index: dict, count: int) -> np.ndarray:
    """Which draws satisfy every tally in ``tallies``."""
    ok = np.ones(count, dtype=bool)
    for tally in tallies:
        total = np.zeros(count, dtype=np.int64)
        for term in tally.terms:
            h = index.get(term.holder, -1)
            hits = sum((deals[i] == h).astype(np.int64) for i in term.items)
            total += np.minimum(hits, 1) if term.any else hits
        ok &= allowed(total, tally.values)
    return ok


def estimate(model: Model, seconds: float, seed: int = 0) -> Estimate:
    """Sample for about ``seconds`` and estimate worlds and holdings."""
    space = model.space
    held = {(h, i): 0 for h in space.holders for i in space.items}
    started = time.monotonic()
    relaxation = _best_relaxation(model, started + 0.6 * seconds)
    if relaxation is None:
        return _estimate_from_domains(model, started + seconds, seed, held)
    run, reduced, relaxed, left = relaxation
    walker = Walker(run, reduced)
    index = {h: k for k, h in enumerate(run.p.holders)}
    rng, deadline = np.random.default_rng(seed), started + seconds
    samples = kept = 0
    batch = 256
    while samples < FEWEST or time.monotonic() < deadline:
        deals = walker.draw(batch, rng)
        ok = satisfied(deals, left, index, batch)
        samples += batch
        kept += int(ok.sum())
        for item, holders in deals.items():
            for k, n in zip(*np.unique(holders[ok], return_counts=True), strict=True):
                held[run.p.holders[k], item] += int(n)
        batch = min(batch * 2, 4096)
    return _scaled(relaxed, samples, kept, held)


def _estimate_from_domains(model: Model, deadline: float, seed: int, held: dict) -> Estimate:
    """The estimate from deals that only respect the domains (when no layer run is possible)."""
    try:
        reduced = reduce(model)
    except Contradiction:
        return Estimate(0, 0, 0, 0, 0, held)
    sampler = _Sampler(model, reduced.domains)
    relaxed = sampler.total()
    rng = random.Random(seed)
    samples = kept = 0
    while samples < 100 or time.monotonic() < deadline:
        deal = sampler.draw(rng)
        samples += 1
        if all(t.holds(deal) for t in reduced.tallies):
            kept += 1
            for item, holder in deal.items():
                held[holder, item] += 1
    return _scaled(relaxed, samples, kept, held)
