"""Equal states merged: the step of the layer engine where a count spends most of its time.

The successors of a layer come as packed keys (words x n, see ``vector._Fields``) with their
weights. Merging returns the distinct keys, the summed weight of each, and where each successor
went. Two ways: a sort (numpy alone, ``by_sort``), and an open-addressing hash table compiled
by numba (``compiled.by_hash``), about 2.5 times faster on a million keys and more. Both keep
every key exactly; only the order of the distinct keys differs.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from sleuth.solve import tuning


class Kernels:
    """The compiled kernels of one count (``compiled``), once the count has turned to them.

    A count turns at its first step of ``tuning.HASHED`` successors, whatever ran before in the
    process, so that a record always takes the same path: numba costs about 0.3 s to load, and
    only a count that big wins it back. From then on the count merges steps of
    ``tuning.LOADED`` successors or more by hash table, unpacks big fields and gathers its
    backward pass in compiled loops, and checks big layers for forced hits (``forced``).
    Every path gives the same counts.
    """

    def __init__(self):
        self.module: ModuleType | None = None

    def turn(self) -> ModuleType:
        """The compiled kernels, loaded now if this count has not turned to them yet."""
        if self.module is None:
            from sleuth.solve import compiled  # numba: the one place it is loaded

            self.module = compiled
        return self.module


def merged(pieces, rows, weights: np.ndarray, bits: int, kernels: Kernels):
    """Equal keys merged: (distinct keys, their summed weights, where each key went).

    The keys come in pieces; ``rows`` says, for each piece, which of ``weights`` each of its
    keys carries. Both lists are emptied here, and every array dropped as soon as it is used,
    since this is where a count's memory peaks. A step of ``tuning.HASHED`` successors turns
    the count to the compiled kernels (``Kernels``).
    """
    n = sum(len(r) for r in rows)
    if n >= tuning.HASHED:
        kernels.turn()
    if kernels.module is not None and n >= tuning.LOADED:
        return kernels.module.by_hash(pieces, rows, weights)
    keys = np.concatenate(pieces, axis=1) if pieces else np.zeros((1, 0), np.uint64)
    pieces.clear()
    ways = np.concatenate([weights[r] for r in rows]) if rows else weights[:0]
    rows.clear()
    return by_sort(keys, ways, bits)


def by_sort(keys: np.ndarray, ways: np.ndarray, bits: int):
    """``merged`` by sorting the keys (words x n) of ``bits`` used bits."""
    if not len(ways):
        return keys, ways, np.zeros(0, dtype=np.int32)
    order = _sorting(keys, bits)
    ordered = keys[:, order]
    del keys
    start = np.empty(len(order), dtype=bool)
    start[0] = True
    np.any(ordered[:, 1:] != ordered[:, :-1], axis=0, out=start[1:])
    starts = np.flatnonzero(start)
    unique = ordered[:, starts]
    del ordered
    sums = np.add.reduceat(ways[order], starts)
    del ways
    dest = np.empty(len(order), dtype=np.int32)
    dest[order] = np.cumsum(start, dtype=np.int32) - 1
    return unique, sums, dest


def _sorting(keys: np.ndarray, bits: int) -> np.ndarray:
    """A permutation that puts equal keys (words x n) next to each other.

    One-word keys narrow enough to carry their row number in their low bits take one plain
    sort, which is about twice as fast as an argsort; wider keys an argsort, several words a
    lexicographic sort (much faster than sorting them as raw bytes).
    """
    n = keys.shape[1]
    if keys.shape[0] > 1:
        return np.lexsort(keys)
    low = max(int(n - 1).bit_length(), 1)
    if bits + low > 64:
        return np.argsort(keys[0])
    tagged = keys[0] << np.uint64(low)
    tagged |= np.arange(n, dtype=np.uint64)
    tagged.sort()
    tagged &= np.uint64((1 << low) - 1)
    return tagged.astype(np.int32 if low < 31 else np.int64)
