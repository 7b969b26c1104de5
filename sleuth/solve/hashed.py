"""The hash-table merge of ``merge.merged``, compiled by numba (imported only when needed).

Open addressing with linear probing: the table holds, for each slot, the index of a distinct
key or -1. A key's slot comes from a multiply-xorshift hash of its words; equal keys are found
by comparing every word, so no two different keys are ever merged. The table has at least
twice as many slots as keys, so probes stay short.

The keys come in pieces (one per holder and chunk of a layer) and go into the table one piece
at a time, each dropped once it is in, with its weights gathered only then: the pieces are
never copied into one array, which at the engine's bound of successors would be about 190 MB
more at the peak of a count's memory.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _insert(keys, ways, slots, unique, sums, dest, m):
    """Put one piece of keys (words x n) in the table; returns the distinct keys now in it.

    ``dest`` receives, for each key of the piece, the index of its distinct key.
    """
    words, n = keys.shape
    mask = len(slots) - 1
    for i in range(n):
        h = np.uint64(0)
        for w in range(words):
            h = (h ^ keys[w, i]) * _MIX
            h ^= h >> np.uint64(31)
        j = np.int64(h >> np.uint64(32)) & mask
        while True:
            s = slots[j]
            if s < 0:
                slots[j] = m
                for w in range(words):
                    unique[w, m] = keys[w, i]
                sums[m] = ways[i]
                dest[i] = m
                m += 1
                break
            same = True
            for w in range(words):
                if unique[w, s] != keys[w, i]:
                    same = False
                    break
            if same:
                sums[s] += ways[i]
                dest[i] = s
                break
            j = (j + 1) & mask
    return m


def by_hash(pieces: list[np.ndarray], rows: list[np.ndarray], weights: np.ndarray):
    """``merge.merged`` of keys (pieces of words x n) carrying ``weights[rows]``, by the table.

    Both lists are emptied. The distinct keys come in first-seen order.
    """
    n = sum(len(r) for r in rows)
    words = pieces[0].shape[0] if pieces else 1
    size = 2
    while size < 2 * n:
        size *= 2
    slots = np.full(size, -1, np.int32)
    unique = np.empty((words, n), np.uint64)
    sums = np.zeros(n, np.int64)
    dest = np.empty(n, np.int32)
    m, at = 0, 0
    pieces.reverse()
    rows.reverse()
    while pieces:
        keys = np.ascontiguousarray(pieces.pop())
        ways = weights[rows.pop()].astype(np.int64, copy=False)
        m = _insert(keys, ways, slots, unique, sums, dest[at : at + len(ways)], m)
        at += len(ways)
        del keys, ways
    del slots
    return unique[:, :m].copy(), sums[:m].copy(), dest
