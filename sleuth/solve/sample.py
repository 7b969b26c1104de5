"""An estimate by sampling, for when the exact count runs out of time. Never exact.

Deals are drawn uniformly from those that respect the propagated domains (every item goes to a
holder it may go to, every hand has its size); a draw is kept when it satisfies every tally.
Kept draws are uniform over the worlds, so shares among them estimate the probabilities, and
(the number of domain-respecting deals) x (the share kept) estimates the number of worlds.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import lru_cache

from sleuth.model import Holder, Item, Model
from sleuth.solve.simplify import Contradiction, reduce


@dataclass(frozen=True)
class Estimate:
    """A sampled estimate: worlds with a 95% interval, and shares of kept draws per holding."""

    worlds: int
    low: int
    high: int
    samples: int
    kept: int
    held: dict[tuple[Holder, Item], int]


def wilson(kept: int, samples: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if samples == 0:
        return 0.0, 1.0
    p = kept / samples
    centre = (p + z * z / (2 * samples)) / (1 + z * z / samples)
    spread = z * math.sqrt(p * (1 - p) / samples + z * z / (4 * samples * samples))
    spread /= 1 + z * z / samples
    return max(0.0, centre - spread), min(1.0, centre + spread)


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


def estimate(model: Model, seconds: float, seed: int = 0) -> Estimate:
    """Sample for about ``seconds`` and estimate worlds and holdings."""
    space = model.space
    held = {(h, i): 0 for h in space.holders for i in space.items}
    try:
        reduced = reduce(model)
    except Contradiction:
        return Estimate(0, 0, 0, 0, 0, held)
    sampler = _Sampler(model, reduced.domains)
    relaxed = sampler.total()
    rng, deadline = random.Random(seed), time.monotonic() + seconds
    samples = kept = 0
    while samples < 100 or time.monotonic() < deadline:
        deal = sampler.draw(rng)
        samples += 1
        if all(t.holds(deal) for t in reduced.tallies):
            kept += 1
            for item, holder in deal.items():
                held[holder, item] += 1
    low, high = wilson(kept, samples)
    return Estimate(
        round(relaxed * kept / samples),
        math.floor(relaxed * low),
        math.ceil(relaxed * high),
        samples,
        kept,
        held,
    )
