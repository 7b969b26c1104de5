"""Deals drawn uniformly at random from the worlds a layer engine has counted.

After ``VectorRun.backward`` every state knows how many ways there are to finish the deal from
it. A draw walks the layers from the start: at each item it picks a successor with probability
(ways to finish from it) / (ways to finish from here), then deals the free items at random into
the room left. The probabilities telescope: every world comes out with probability 1 / (number
of worlds). Many draws walk the layers together, one array operation per holder and item.
"""

from __future__ import annotations

import numpy as np

from sleuth.solve.simplify import Reduced
from sleuth.solve.vector import VectorRun

_POPCOUNT = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)


class Walker:
    """Uniform draws from a finished run whose backward pass has been made.

    A step's edges keep, per holder, a bit mask of the states that may give it the item and the
    successor of each such state in order; the successor of state ``i`` is at the mask's rank of
    ``i``, found from a running count of set bits per mask byte, made once here.
    """

    def __init__(self, run: VectorRun, reduced: Reduced):
        self.run = run
        self.fixed = {
            item: run.p.holders.index(next(iter(domain)))
            for item, domain in reduced.domains.items()
            if len(domain) == 1 and item not in run.p.order and item not in run.p.free
        }
        self.ranks = [
            [np.concatenate(([0], np.cumsum(_POPCOUNT[mask]))) for _, mask, _ in edges]
            for edges in run.edges
        ]

    def draw(self, count: int, rng: np.random.Generator) -> dict:
        """``count`` worlds drawn uniformly: item -> holder index per draw (``run.p.holders``)."""
        run, p = self.run, self.run.p
        cur = np.zeros(count, dtype=np.int64)
        deals: dict = {}
        for k, item in enumerate(p.order):
            after = run.back[k + 1]
            holders, successors, weights = [], [], []
            for (h, mask, dest), prefix in zip(run.edges[k], self.ranks[k], strict=True):
                if not len(dest):
                    continue
                byte, bit = cur >> 3, cur & 7
                has = (mask[byte] >> (7 - bit)) & 1 == 1
                rank = prefix[byte] + _POPCOUNT[mask[byte] >> (8 - bit)]
                nxt = np.where(has, dest[np.minimum(rank, len(dest) - 1)], 0)
                holders.append(h)
                successors.append(nxt)
                weights.append(np.where(has, after[nxt], 0).astype(np.float64))
            cumulative = np.cumsum(np.array(weights), axis=0)
            target = rng.random(count) * cumulative[-1]
            pick = np.minimum((cumulative <= target).sum(axis=0), len(holders) - 1)
            deals[item] = np.array(holders)[pick]
            cur = np.array(successors)[pick, np.arange(count)]
        self._deal_free(cur, deals, rng)
        for item, h in self.fixed.items():
            deals[item] = np.full(count, h)
        return deals

    def _deal_free(self, cur: np.ndarray, deals: dict, rng: np.random.Generator) -> None:
        """The free items of every draw, dealt at random into the room its final state leaves."""
        run, p = self.run, self.run.p
        if not p.free:
            return
        last = run.layers[-1].cols
        assert last is not None  # kept for the last layer once the run is done
        out = np.empty((len(cur), len(p.free)), dtype=np.int64)
        for row, state in enumerate(cur):
            parts = run.steps.finish(tuple(int(col[state]) for col in last))
            out[row] = rng.permutation(np.repeat(np.arange(len(parts)), parts))
        for j, item in enumerate(p.free):
            deals[item] = out[:, j]
