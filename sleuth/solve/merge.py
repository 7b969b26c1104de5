"""Equal states merged: the step of the layer engine where a count spends most of its time.

The successors of a layer come as packed keys (words x n, see ``vector._Fields``) with their
weights. Merging returns the distinct keys, the summed weight of each, and where each successor
went. Two ways: a sort (numpy alone), and an open-addressing hash table compiled by numba,
about 2.5 times faster on a million keys and more. Numba costs about 0.3 s to load in a
process (0.2 s import, 0.15 s to load the compiled table from its cache; more the first time,
when it compiles), so only a step of a million successors loads it: a count that big merges
many millions in all, and saves more than the load. From then on every step but the smallest
takes it (on 20,000 keys it is already 5 times faster).
Both keep every key exactly; only the order of the distinct keys differs.
"""

from __future__ import annotations

from functools import cache

import numpy as np

HASHED = 1_000_000  # successors of one step from which the hash table is loaded
LOADED = 10_000  # successors of one step from which a loaded hash table merges them


def merged(pieces: list[np.ndarray], rows: list[np.ndarray], weights: np.ndarray, bits: int):
    """Equal keys merged: (distinct keys, their summed weights, where each key went).

    The keys come in pieces; ``rows`` says, for each piece, which of ``weights`` each of its
    keys carries. Both lists are emptied here, and every array dropped as soon as it is used,
    since this is where a count's memory peaks.
    """
    n = sum(len(r) for r in rows)
    table = _table() if n >= (LOADED if loaded() else HASHED) else None
    if table is not None:
        return table(pieces, rows, weights)
    keys = np.concatenate(pieces, axis=1) if pieces else np.zeros((1, 0), np.uint64)
    pieces.clear()
    ways = np.concatenate([weights[r] for r in rows]) if rows else weights[:0]
    rows.clear()
    return by_sort(keys, ways, bits)


def loaded() -> bool:
    """Whether numba is loaded in this process already (by the hash-table merge)."""
    return _table.cache_info().currsize > 0 and _table() is not None


@cache
def _table():
    """The compiled hash-table merge, or None where numba cannot be loaded."""
    try:
        from sleuth.solve.hashed import by_hash
    except ImportError:
        return None
    return by_hash


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
