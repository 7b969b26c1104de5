"""The hash-table merge of ``merge.merged``, compiled by numba (imported only when needed).

Open addressing with linear probing: the table holds, for each slot, the index of a distinct
key or -1. A key's slot comes from a multiply-xorshift hash of its words; equal keys are found
by comparing every word, so no two different keys are ever merged. The table has at least
twice as many slots as keys, so probes stay short.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _merge(keys, ways):
    """(distinct keys, sums of weights, destination of each key); keys in first-seen order."""
    words, n = keys.shape
    size = 2
    while size < 2 * n:
        size *= 2
    mask = size - 1
    slots = np.full(size, -1, np.int32)
    unique = np.empty((words, n), np.uint64)
    sums = np.zeros(n, np.int64)
    dest = np.empty(n, np.int32)
    m = 0
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
    return unique, sums, dest, m


def by_hash(keys: np.ndarray, ways: np.ndarray):
    """``merge.merged`` of keys (words x n) and their int64 weights, by the hash table."""
    unique, sums, dest, m = _merge(np.ascontiguousarray(keys), ways.astype(np.int64, copy=False))
    return unique[:, :m].copy(), sums[:m].copy(), dest
