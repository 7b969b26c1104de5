"""The hash-table merge of ``merge.merged``, compiled by numba (imported only when needed).

Small merges go into one table fed a piece at a time (open addressing with linear probing,
each slot holding the index of a distinct key or -1). From ``SPREAD`` keys on, such a table
(tens of MB) makes nearly every probe a cache miss, so the keys are first spread into buckets by the
top bits of their hash (one pass counts each bucket, one copies every key, weight and input
place to its bucket), and each bucket is merged in a table of its own, about ``BUCKET`` keys,
that stays in the cache. Either way equal keys are found by comparing every word, so no two
different keys are ever merged.

Measured on the merges of the slowest simulated 6-player count (seed 29 after 19 events): 35
against 61-65 ns a key at 3 million keys, 31 against 49-58 at 900,000; at 200,000 one table is as
fast. Six of the slowest counts took 28.5-29.0 s in all, against 32.6-33.1 s with one table
(alternated runs), at the same peak memory; the 44 hard records took the same, about 21.5 s.

The keys come in pieces (one per holder and chunk of a layer); each is dropped once it is in
the table or copied to the buckets, and the buckets' distinct keys, sums and places are made
only after, so the copies take about the memory that one big table did.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MIX = np.uint64(0x9E3779B97F4A7C15)
BUCKET = 1 << 17  # keys per bucket, about (more thrash the cache, fewer cost copy streams)
SPREAD = 1 << 19  # keys from which they are spread to buckets; fewer go in one table
_NOWHERE = np.zeros(0, np.int32)  # no places: keys go in one table in input order


@njit(cache=True, inline="always")
def _hash(keys, i):
    """The hash of key i (words x n)."""
    h = np.uint64(0)
    for w in range(keys.shape[0]):
        h = (h ^ keys[w, i]) * _MIX
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True)
def _counted(keys, shift, counts) -> None:
    """Add one piece's keys to the count of their buckets (``counts[b]``, b = hash >> shift)."""
    for i in range(keys.shape[1]):
        counts[_hash(keys, i) >> shift] += 1


@njit(cache=True)
def _spread(keys, ways, at, shift, fill, spread, spread_ways, place) -> None:
    """Copy one piece's keys and weights to their buckets; ``place``: each one's input index.

    ``fill[b]`` is where the next key of bucket b goes; ``at`` the piece's first input index.
    """
    words = keys.shape[0]
    for i in range(keys.shape[1]):
        b = _hash(keys, i) >> shift
        q = fill[b]
        fill[b] = q + 1
        for w in range(words):
            spread[w, q] = keys[w, i]
        spread_ways[q] = ways[i]
        place[q] = at + i


@njit(cache=True)
def _inserted(keys, ways, lo, hi, place, slots, unique, sums, dest, m) -> int:
    """Put keys ``lo:hi`` (words x n) in the table ``slots``; returns the distinct keys now.

    ``dest[place[q]]`` receives the index in ``unique`` of the distinct key equal to key q
    (``place`` empty: ``dest[q - lo]``).
    """
    words = keys.shape[0]
    mask = len(slots) - 1
    direct = len(place) == 0
    for q in range(lo, hi):
        i = q - lo if direct else place[q]
        j = np.int64(_hash(keys, q) >> np.uint64(32)) & mask
        while True:
            s = slots[j]
            if s < 0:
                slots[j] = m
                for w in range(words):
                    unique[w, m] = keys[w, q]
                sums[m] = ways[q]
                dest[i] = m
                m += 1
                break
            same = True
            for w in range(words):
                if unique[w, s] != keys[w, q]:
                    same = False
                    break
            if same:
                sums[s] += ways[q]
                dest[i] = s
                break
            j = (j + 1) & mask
    return m


@njit(cache=True)
def _merged(keys, ways, place, starts, slots, unique, sums, dest) -> int:
    """Merge each bucket (``starts[b]:starts[b + 1]``) in a table of its own (as ``_inserted``)."""
    m = 0
    for b in range(len(starts) - 1):
        lo, hi = starts[b], starts[b + 1]
        size = 2
        while size < 2 * (hi - lo):
            size *= 2
        table = slots[:size]
        table[:] = -1
        m = _inserted(keys, ways, lo, hi, place, table, unique, sums, dest, m)
    return m


def by_hash(pieces: list[np.ndarray], rows: list[np.ndarray], weights: np.ndarray):
    """``merge.merged`` of keys (pieces of words x n) carrying ``weights[rows]``, by the tables.

    Both lists are emptied. The distinct keys come in first-seen order, or bucket by bucket.
    """
    n = sum(len(r) for r in rows)
    words = pieces[0].shape[0] if pieces else 1
    way = _by_table if n < SPREAD else _by_buckets
    return way(pieces, rows, weights, n, words)


def _by_buckets(pieces, rows, weights, n: int, words: int):
    """``by_hash`` by spreading the keys to buckets by hash, each merged in a table of its own."""
    bits = max(int(n // BUCKET).bit_length(), 1)  # two buckets at least: a shift stays < 64
    shift = np.uint64(64 - bits)
    counts = np.zeros((1 << bits) + 1, np.int64)
    pieces[:] = [np.ascontiguousarray(p) for p in pieces]
    for keys in pieces:
        _counted(keys, shift, counts[1:])
    starts = np.cumsum(counts)
    fill = starts[:-1].copy()
    spread = np.empty((words, n), np.uint64)
    spread_ways = np.empty(n, np.int64)
    place = np.empty(n, np.int32)
    at = 0
    pieces.reverse()
    rows.reverse()
    while pieces:
        keys = pieces.pop()
        ways = weights[rows.pop()].astype(np.int64, copy=False)
        _spread(keys, ways, at, shift, fill, spread, spread_ways, place)
        at += len(ways)
        del keys, ways
    slots = np.empty(max(2 * int(np.diff(starts).max()), 2) * 2, np.int32)
    unique = np.empty((words, n), np.uint64)
    sums = np.zeros(n, np.int64)
    dest = np.empty(n, np.int32)
    m = _merged(spread, spread_ways, place, starts, slots, unique, sums, dest)
    del spread, spread_ways, place, slots
    return unique[:, :m].copy(), sums[:m].copy(), dest


def _by_table(pieces, rows, weights, n: int, words: int):
    """``by_hash`` in one table, fed a piece at a time (no copies: for keys that fit a cache)."""
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
        m = _inserted(keys, ways, 0, len(ways), _NOWHERE, slots, unique, sums, dest[at:], m)
        at += len(ways)
        del keys, ways
    del slots
    return unique[:, :m].copy(), sums[:m].copy(), dest
