"""Dead states found by forced hits: a check on a whole layer, compiled by numba.

The bounds of ``count._Steps`` look at one tally at a time. Most states of the hardest counts
are dead for a reason none of them sees: several rows each need a hit that only one holder can
still give, and that holder's hand has too few cards left to give them all. On the slowest
simulated 6-player count (seed 29 after 19 events) 65% of the states made were dead.

So once numba is loaded, each new layer of the layer engine (``vector.VectorRun``) is checked
state by state, and the states found dead are dropped before they make successors:

- A term of a tally is *able* when its holder has room and has not hit it yet. A tally whose
  value plus its able terms falls short of its least value is dead; one that just reaches it is
  *tight*: each of its able terms must hit.
- A holder must then take, among the items ahead that it may hold, one of each row it must hit.
  The fewest items that do so (a minimum hitting set, tabulated per layer and holder for every
  subset of its rows) must fit in its room; if not, the state is dead.
- An able term whose row cannot be hit along with the forced ones within that room will never
  hit: it is no longer able, which may make other tallies tight or short. This goes round up to
  ``ROUNDS`` times.

Every step is a consequence of the state and the rules, so a state dropped here has no way to
finish the deal, and the counts are those without the check (``tests/test_forced.py`` checks
that every dropped state had no completion). Only "at least one" terms are reasoned about; a
tally with a term that counts items is left to the bounds.

The kernel takes about 60 ns a state, fields first and then each round, ``BLOCK`` states at a
time so that the compiler vectorizes the loops (it took 83 ns state by state, 450 ns with
per-tracker arrays). Measured on seed 29 after 19 events in one item order: 9.2 million states
kept instead of 20.8 million, and 2.8 s for the forward pass instead of 4.0 s (11.6 million
states checked, 0.74 s of it). The check pays only where it drops many states, so the layer
engine makes it on big layers only and rests it where it drops few (``vector.VectorRun``).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

ROUNDS = 3  # rounds of forcing per state
ROWS = 12  # rows of one holder tabulated at most (2**ROWS masks, < 16); others are left able
HAND = 8  # holders whose hand is bigger are left out of the tables (their hitting sets grow)
FAR = 99  # more items than any hand holds
BITS = 64  # trackers checked at most in a layer (bits of a mask)


def _fewest(covers: set[int], most: int, rows: int) -> np.ndarray:
    """For every mask of ``rows`` rows: the fewest covers whose union holds it (up to ``most``).

    ``FAR`` where more than ``most`` covers would be needed or none can.
    """
    covers = {c for c in covers if not any(c | d == d != c for d in covers)}  # undominated
    union = np.full(1 << rows, FAR, np.int8)
    union[0] = 0
    frontier = np.zeros(1, np.int64)
    hit = np.array(sorted(covers), np.int64)
    for n in range(1, most + 1):
        if not len(frontier) or not len(hit):
            break
        made = np.unique((frontier[:, None] | hit[None, :]).ravel())
        frontier = made[union[made] == FAR]
        union[frontier] = n
    masks = np.arange(1 << rows)
    for bit in range(rows):  # a mask needs no more than any mask that holds it
        low = masks[masks & (1 << bit) == 0]
        union[low] = np.minimum(union[low], union[low | (1 << bit)])
    return union


def _hit_bytes(bits: list[tuple[int, tuple[int, int, int]]]) -> tuple[np.ndarray, np.ndarray]:
    """Tables that turn the bytes of a key into the mask of the trackers it has hit.

    ``bits``: (bit in the tracker mask, place of the tracker's bit in the key). Returns the
    bytes to read (word, byte) and, for each, the mask each of its 256 values gives.
    """
    by_byte: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for b, (word, shift, _) in bits:
        by_byte[word, shift // 8].append((shift % 8, b))
    where = np.array(sorted(by_byte), np.int64).reshape(len(by_byte), 2)
    tables = np.zeros((len(by_byte), 256), np.uint64)
    values = np.arange(256)
    for row, key in enumerate(sorted(by_byte)):
        for low, b in by_byte[key]:
            tables[row] |= ((values >> low) & 1).astype(np.uint64) << np.uint64(b)
    return where, tables


def _fits(fewest: np.ndarray, rows: int, most: int) -> np.ndarray:
    """For each room up to ``most`` and mask of rows to hit: which rows can be hit too.

    Bit b of entry (r, m) is set when row b can be hit along with the rows of m in room r
    (``fewest[m | 1 << b] <= r``), and bit ``ROWS`` when the rows of m can be hit at all
    (``fewest[m] <= r``). Flat, room by room.
    """
    masks = np.arange(1 << rows)
    out = np.zeros((most + 1, 1 << rows), np.uint16)
    for room in range(most + 1):
        out[room] |= (fewest <= room).astype(np.uint16) << ROWS
        for bit in range(rows):
            out[room] |= (fewest[masks | (1 << bit)] <= room).astype(np.uint16) << bit
    return out.ravel()


class Forced:
    """The forced-hits check of every layer of one item order (``alive``)."""

    def __init__(self, steps):
        self.steps, self.p = steps, steps.p
        self.where, self.tfirst = steps.where, steps.tfirst
        self.plans: dict[int, tuple | None] = {}

    def _tallies(self, j: int) -> list[tuple[int, int, list[int]]]:
        """(tally, least value, trackers with items ahead) of the tallies checked at layer j.

        Tallies with a term that counts items, or the same term twice, are left out, and so
        are the last ones once their trackers would pass ``BITS``.
        """
        p = self.p
        out, used = [], set()
        for c, (refs, values) in enumerate(p.tallies):
            terms = [t for t in refs if self.where[t][-1] >= j]  # rows with items ahead
            least = min(values)
            if least == 0 or not terms or len(set(terms)) < len(terms):
                continue
            if any(not p.trackers[t][2] for t in terms) or len(used | set(terms)) > BITS:
                continue
            used |= set(terms)
            out.append((c, least, terms))
        return out

    def _plan(self, j: int, fields) -> tuple | None:
        """The arrays the kernel reads for layer j (the states before item j), or None.

        Trackers are numbered holder by holder, each holder's tabulated rows first, so that a
        holder's rows are one run of bits of a tracker mask.
        """
        p, steps = self.p, self.steps
        tallies = self._tallies(j)
        if not tallies:
            return None
        used = {t for _, _, terms in tallies for t in terms}
        holders = sorted({p.trackers[t][0] for t in used})
        order: list[int] = []  # trackers by bit
        ncap = len(steps.cap_slots)
        cap_place = np.array([fields.places["cap", s] for s in range(ncap)], np.uint64)
        h_room = np.array([steps.slot_of.get(h, -1) for h in holders], np.int64)
        h_all = np.zeros(len(holders), np.uint64)
        h_run = np.zeros((len(holders), 2), np.int64)  # first bit and number of rows
        f_start = np.zeros(len(holders) + 1, np.int64)
        fits = []
        for i, h in enumerate(holders):
            mine = sorted(t for t in used if p.trackers[t][0] == h)
            rows = mine[:ROWS] if p.caps[h] <= HAND else []
            h_run[i] = len(order), len(rows)
            h_all[i] = ((1 << len(mine)) - 1) << len(order)
            order += mine
            covers = defaultdict(int)
            for bit, t in enumerate(rows):
                for k in self.where[t]:
                    if k >= j and h in p.domains[k]:
                        covers[k] |= 1 << bit
            fewest = _fewest(set(covers.values()), p.caps[h], len(rows))
            fits.append(_fits(fewest, len(rows), p.caps[h]))
            f_start[i + 1] = f_start[i] + len(fits[-1])
        bit = {t: b for b, t in enumerate(order)}
        hits = _hit_bytes(
            [(bit[t], fields.places["b", t]) for t in order if self.where[t][0] < j]
        )  # trackers opened before this layer: their bits are in the keys
        c_least = np.array([least for _, least, _ in tallies], np.int64)
        c_mask = np.array([sum(1 << bit[t] for t in terms) for _, _, terms in tallies], np.uint64)
        c_place = np.zeros((len(tallies), 3), np.uint64)  # mask 0: not open yet, value 0
        for i, (c, _, _) in enumerate(tallies):
            if self.tfirst[c] < j:
                c_place[i] = fields.places["c", c]
        return (
            cap_place.reshape(ncap, 3),
            steps.left[j] + 1,
            h_room,
            h_all,
            h_run,
            np.array([p.caps[h] for h in holders], np.int64),
            f_start,
            np.concatenate(fits),
            *hits,
            c_least,
            c_mask,
            c_place,
        )

    def alive(self, j: int, keys: np.ndarray, fields) -> np.ndarray | None:
        """Whether each state of layer j (keys: words x n) may still finish; None: no check."""
        if j not in self.plans:
            self.plans[j] = self._plan(j, fields)
        plan = self.plans[j]
        if plan is None:
            return None
        out = np.empty(keys.shape[1], np.bool_)
        _alive(np.ascontiguousarray(keys), *plan, ROUNDS, out)
        return out


@intrinsic
def _ones(typingctx, x):
    """The number of bits set in a uint64 (LLVM's ctpop, a popcnt instruction on x86)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


BLOCK = 256  # states checked together, field by field (loops the compiler can vectorize)


@njit(cache=True, nogil=True)
def _alive(
    keys,
    cap_place,
    left1,
    h_room,
    h_all,
    h_run,
    h_most,
    f_start,
    fits,
    hit_bytes,
    hit_tables,
    c_least,
    c_mask,
    c_place,
    rounds,
    out,
) -> None:
    """``out[i]``: whether state i survives the forced-hits check (see the module).

    Trackers are bits of a mask: ``able`` (holder has room, not hit yet), ``forced``. A
    holder's tabulated rows are the bits ``h_run[h, 0]`` on, ``h_run[h, 1]`` of them;
    ``fits`` is indexed from ``f_start[h]`` by the holder's room, then that run of bits.
    The trackers a key has hit are read a byte at a time (``hit_bytes``: word and byte;
    ``hit_tables``: the mask of each value of the byte). States go ``BLOCK`` at a time,
    each field in a loop of its own.
    """
    nh, nc, ncap = len(h_room), len(c_least), len(cap_place)
    n = keys.shape[1]
    caps = np.zeros((ncap, BLOCK), np.int64)
    total = np.zeros(BLOCK, np.int64)
    room = np.zeros((nh, BLOCK), np.int64)
    value = np.zeros((nc, BLOCK), np.int64)
    able = np.zeros(BLOCK, np.uint64)
    forced = np.zeros(BLOCK, np.uint64)
    ok = np.zeros(BLOCK, np.bool_)
    zero = np.uint64(0)
    one = np.uint64(1)
    byte = np.uint64(255)
    top = np.uint64(ROWS)
    for start in range(0, n, BLOCK):
        m = min(BLOCK, n - start)
        total[:] = 0
        for s in range(ncap):
            word, shift, mask = cap_place[s, 0], cap_place[s, 1], cap_place[s, 2]
            for i in range(m):
                caps[s, i] = (keys[word, start + i] >> shift) & mask
                total[i] += caps[s, i]
        able[:] = 0
        for h in range(nh):
            slot, mine = h_room[h], h_all[h]
            for i in range(m):
                # the rest's room is what the others leave; never below 0, so the table
                # index stays in range (more caps than items left is dead anyway)
                room[h, i] = caps[slot, i] if slot >= 0 else max(left1 - total[i], 0)
                able[i] |= mine if room[h, i] > 0 else zero
        for b in range(len(hit_bytes)):
            word, shift = hit_bytes[b, 0], np.uint64(8 * hit_bytes[b, 1])
            for i in range(m):
                able[i] &= ~hit_tables[b, (keys[word, start + i] >> shift) & byte]
        for c in range(nc):
            word, shift, mask = c_place[c, 0], c_place[c, 1], c_place[c, 2]
            for i in range(m):
                value[c, i] = (keys[word, start + i] >> shift) & mask
        ok[:] = True
        for _ in range(rounds):
            forced[:] = 0
            for c in range(nc):
                least, cmask = c_least[c], c_mask[c]
                for i in range(m):
                    mine = able[i] & cmask
                    reach = value[c, i] + np.int64(_ones(mine))
                    ok[i] &= reach >= least
                    tight = reach == least and value[c, i] < least
                    forced[i] |= mine if tight else zero
            changed = False
            for h in range(nh):
                rows = h_run[h, 1]
                if rows == 0:
                    continue
                low = np.uint64(h_run[h, 0])
                full = (one << np.uint64(rows)) - one
                most, fit0 = h_most[h], f_start[h]
                for i in range(m):
                    mask = np.int64((forced[i] >> low) & full)
                    fit = np.uint64(fits[fit0 + (min(room[h, i], most) << rows) + mask])
                    ok[i] &= fit >> top != zero
                    kept = able[i] & ~((full & ~fit & ~np.uint64(mask)) << low)
                    changed |= kept != able[i]
                    able[i] = kept
            if not changed:
                break
        out[start : start + m] = ok[:m]
