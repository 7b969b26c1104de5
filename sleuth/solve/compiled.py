"""Every loop compiled by numba: the hash-table merge, two field loops, the forced-hits kernel.

Imported only by ``merge.Kernels.turn``, when a count reaches a step of ``tuning.HASHED``
successors: numba takes about 0.3 s to load (0.2 s import, 0.15 s to load the compiled loops
from their cache; more the first time, when it compiles), which only a count that big wins
back. Each loop has a numpy or pure-Python twin with the same results, tested against it.

The hash-table merge (``by_hash``, twin of ``merge.by_sort``): small merges go into one table
fed a piece at a time (open addressing with linear probing, each slot holding the index of a
distinct key or -1). From ``tuning.SPREAD`` keys on, such a table (tens of MB) makes nearly
every probe a cache miss, so the keys are first spread into buckets by the top bits of their
hash (one pass counts each bucket, one copies every key, weight and input place to its
bucket), and each bucket is merged in a table of its own, about ``tuning.BUCKET`` keys, that
stays in the cache. Either way equal keys are found by comparing every word, so no two
different keys are ever merged. The keys come in pieces (one per holder and chunk of a layer);
each is dropped once it is in the table or copied to the buckets, so the copies take about the
memory that one big table did.

``unpacked`` and ``gathered`` do in one pass and no temporary arrays what numpy does in
several (``vector``); ``alive`` is the forced-hits check of a layer (``forced``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from sleuth.solve import tuning

_MIX = np.uint64(0x9E3779B97F4A7C15)
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
    way = _by_table if n < tuning.SPREAD else _by_buckets
    return way(pieces, rows, weights, n, words)


def _by_buckets(pieces, rows, weights, n: int, words: int):
    """``by_hash`` by spreading the keys to buckets by hash, each merged in a table of its own."""
    bits = max(int(n // tuning.BUCKET).bit_length(), 1)  # two buckets at least: a shift stays < 64
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


@njit(cache=True, nogil=True)
def unpacked(words, shift, mask, out) -> None:
    """One field of every key: ``out[i] = (words[i] >> shift) & mask`` (``vector._Fields``)."""
    s = np.uint64(shift)
    m = np.uint64(mask)
    for i in range(len(words)):
        out[i] = (words[i] >> s) & m


@njit(cache=True, nogil=True)
def gathered(mask, dest, back, ways, here) -> int:
    """One holder's edges of a step in the backward pass (``VectorRun.backward``).

    ``mask`` (packed bits, in state order) marks the states that may give the holder the item,
    and ``dest`` is the successor of each: each such state gains its successor's ways to
    finish the deal in ``here``. Returns the holding's count: the sum of each marked state's
    ways times its successor's. int64, as in numpy (``vector.fits`` bounds every sum).
    """
    c = 0
    held = 0
    for byte in range(len(mask)):
        bits = mask[byte]
        if bits == 0:
            continue
        for bit in range(8):
            if bits & (0x80 >> bit):
                i = byte * 8 + bit
                value = back[dest[c]]
                c += 1
                here[i] += value
                held += ways[i] * value
    return held


@intrinsic
def _ones(typingctx, x):
    """The number of bits set in a uint64 (LLVM's ctpop, a popcnt instruction on x86)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@njit(cache=True, nogil=True)
def alive(keys, layout, rounds, rows, block, out) -> None:
    """``out[i]``: whether state i survives the forced-hits check (``forced``).

    Trackers are bits of a mask: ``able`` (holder has room, not hit yet), ``forced``. A
    holder's tabulated rows are the bits ``h_run[h, 0]`` on, ``h_run[h, 1]`` of them;
    ``fits`` is indexed from ``f_start[h]`` by the holder's room, then that run of bits.
    The trackers a key has hit are read a byte at a time (``hit_bytes``: word and byte;
    ``hit_tables``: the mask of each value of the byte). States go ``block`` at a time,
    each field in a loop of its own; bit ``rows`` of a ``fits`` entry says the mask fits.
    """
    nh, nc, ncap = len(layout.h_room), len(layout.c_least), len(layout.cap_place)
    n = keys.shape[1]
    caps = np.zeros((ncap, block), np.int64)
    total = np.zeros(block, np.int64)
    room = np.zeros((nh, block), np.int64)
    value = np.zeros((nc, block), np.int64)
    able = np.zeros(block, np.uint64)
    forced = np.zeros(block, np.uint64)
    ok = np.zeros(block, np.bool_)
    for start in range(0, n, block):
        m = min(block, n - start)
        _read_caps(keys, start, m, layout.cap_place, caps, total)
        _rooms(m, layout.left1, layout.h_room, layout.h_all, caps, total, room, able)
        _clear_hit(keys, start, m, layout.hit_bytes, layout.hit_tables, able)
        _read_fields(keys, start, m, layout.c_place, value)
        ok[:] = True
        for _ in range(rounds):
            _tight(m, layout.c_least, layout.c_mask, value, able, ok, forced)
            if not _fit(m, layout, rows, room, forced, able, ok):
                break
        out[start : start + m] = ok[:m]


@njit(cache=True, nogil=True)
def _read_caps(keys, start, m, cap_place, caps, total) -> None:
    """``caps[s, i]``: cap s of state ``start + i``; ``total[i]``: their sum."""
    total[:] = 0
    for s in range(len(cap_place)):
        word, shift, mask = cap_place[s, 0], cap_place[s, 1], cap_place[s, 2]
        for i in range(m):
            caps[s, i] = (keys[word, start + i] >> shift) & mask
            total[i] += caps[s, i]


@njit(cache=True, nogil=True)
def _rooms(m, left1, h_room, h_all, caps, total, room, able) -> None:
    """``room[h, i]``: holder h's room; ``able[i]``: the trackers of every holder with room."""
    zero = np.uint64(0)
    able[:] = 0
    for h in range(len(h_room)):
        slot, mine = h_room[h], h_all[h]
        for i in range(m):
            # the rest's room is what the others leave; never below 0, so the table
            # index stays in range (more caps than items left is dead anyway)
            room[h, i] = caps[slot, i] if slot >= 0 else max(left1 - total[i], 0)
            able[i] |= mine if room[h, i] > 0 else zero


@njit(cache=True, nogil=True)
def _clear_hit(keys, start, m, hit_bytes, hit_tables, able) -> None:
    """``able`` without the trackers each state has hit already (a byte of its key at a time)."""
    byte = np.uint64(255)
    for b in range(len(hit_bytes)):
        word, shift = hit_bytes[b, 0], np.uint64(8 * hit_bytes[b, 1])
        for i in range(m):
            able[i] &= ~hit_tables[b, (keys[word, start + i] >> shift) & byte]


@njit(cache=True, nogil=True)
def _read_fields(keys, start, m, c_place, value) -> None:
    """``value[c, i]``: tally c of state ``start + i`` (0 where its mask is 0: not open yet)."""
    for c in range(len(c_place)):
        word, shift, mask = c_place[c, 0], c_place[c, 1], c_place[c, 2]
        for i in range(m):
            value[c, i] = (keys[word, start + i] >> shift) & mask


@njit(cache=True, nogil=True)
def _tight(m, c_least, c_mask, value, able, ok, forced) -> None:
    """One round's reach check: ``ok`` where each tally can reach its least value.

    With its able trackers; ``forced`` gets the trackers of the tallies that need every one.
    """
    zero = np.uint64(0)
    forced[:] = 0
    for c in range(len(c_least)):
        least, cmask = c_least[c], c_mask[c]
        for i in range(m):
            mine = able[i] & cmask
            # numba's intrinsic is typed with its typing context first, which numba passes itself
            reach = value[c, i] + np.int64(_ones(mine))  # type: ignore[call-arg]
            ok[i] &= reach >= least
            tight = reach == least and value[c, i] < least
            forced[i] |= mine if tight else zero


@njit(cache=True, nogil=True)
def _fit(m, layout, rows, room, forced, able, ok) -> bool:
    """One round's hand check: whether ``able`` changed.

    ``ok`` where each holder's hand fits its forced rows; the rows that no longer fit beside
    them leave ``able``.
    """
    h_run, h_hand, f_start, fits = layout.h_run, layout.h_hand, layout.f_start, layout.fits
    zero = np.uint64(0)
    one = np.uint64(1)
    top = np.uint64(rows)
    changed = False
    for h in range(len(h_run)):
        run = h_run[h, 1]
        if run == 0:
            continue
        low = np.uint64(h_run[h, 0])
        full = (one << np.uint64(run)) - one
        hand, fit0 = h_hand[h], f_start[h]
        for i in range(m):
            mask = np.int64((forced[i] >> low) & full)
            fit = np.uint64(fits[fit0 + (min(room[h, i], hand) << run) + mask])
            ok[i] &= fit >> top != zero
            kept = able[i] & ~((full & ~fit & ~np.uint64(mask)) << low)
            changed |= kept != able[i]
            able[i] = kept
    return changed


@njit(cache=True, nogil=True)
def carried(rows, codes, ways, dests, moves, width, table, to):
    """One step of a question's tally carried along the record's edges (``carry``).

    Entry j is the record's state ``rows[j]`` with the question's part ``codes[j]`` and weight
    ``ways[j]``. Holder h takes it to the record's state ``dests[h, rows[j]]`` (-1: no edge)
    with part ``moves[h, codes[j]]``; equal successors meet in ``table`` (the slot of each
    (state, part), ``state * width + part``, -1 when free, left free again). ``to[h, j]``:
    the successor's index, or -1. Returns the successors' states, parts and weights.
    """
    n, nh = len(rows), dests.shape[0]
    m = 0
    for j in range(n):
        for h in range(nh):
            d = dests[h, rows[j]]
            if d < 0:
                to[h, j] = -1
                continue
            key = d * width + moves[h, codes[j]]
            slot = table[key]
            if slot < 0:
                slot = m
                table[key] = m
                m += 1
            to[h, j] = slot
    out_rows = np.empty(m, np.int64)
    out_codes = np.empty(m, np.int64)
    out_ways = np.zeros(m, np.int64)
    for j in range(n):
        for h in range(nh):
            slot = to[h, j]
            if slot >= 0:
                out_rows[slot] = dests[h, rows[j]]
                out_codes[slot] = moves[h, codes[j]]
                out_ways[slot] += ways[j]
    for slot in range(m):
        table[out_rows[slot] * width + out_codes[slot]] = -1
    return out_rows, out_codes, out_ways


def warmed() -> None:
    """Load the carried step's loops from numba's cache now (``carried``, ``gathered``).

    Each loop is loaded where first called, a tenth of a second or more; called once before a
    batch forks its workers, they inherit it loaded instead of each loading it again.
    """
    none = np.zeros(0, np.int64)
    rows = np.zeros((1, 0), np.int32)
    carried(none, none, none, rows, np.zeros((1, 1), np.int32), 1, np.zeros(0, np.int32), rows)
    gathered(np.zeros(0, np.uint8), np.zeros(0, np.int32), none, none, np.zeros(0, np.int64))
