"""Dead states found by forced hits: a check on a whole layer, run by a compiled kernel.

The bounds of ``steps.Steps`` look at one tally at a time. Most states of the hardest counts
are dead for a reason none of them sees: several rows each need a hit that only one holder can
still give, and that holder's hand has too few cards left to give them all. On the slowest
simulated 6-player count (seed 29 after 19 events) 65% of the states made were dead.

So once a count has turned to the compiled kernels (``merge.Kernels``), each new big layer of
the layer engine (``vector.VectorRun``) is checked state by state, and the states found dead
are dropped before they make successors:

- A term of a tally is *able* when its holder has room and has not hit it yet. A tally whose
  value plus its able terms falls short of its least value is dead; one that just reaches it is
  *tight*: each of its able terms must hit.
- A holder must then take, among the items ahead that it may hold, one of each row it must hit.
  The fewest items that do so (a minimum hitting set, tabulated per layer and holder for every
  subset of its rows) must fit in its room; if not, the state is dead.
- An able term whose row cannot be hit along with the forced ones within that room will never
  hit: it is no longer able, which may make other tallies tight or short. This goes round up to
  ``tuning.ROUNDS`` times.

Every step is a consequence of the state and the rules, so a state dropped here has no way to
finish the deal, and the counts are those without the check
(``tests/engine/test_forced.py`` checks that every dropped state had no completion). Only "at
least one" terms are reasoned about; a tally with a term that counts items is left to the
bounds.

The kernel (``compiled.alive``) takes about 60 ns a state, fields first and then each round,
``tuning.BLOCK`` states at a time so that the compiler vectorizes the loops (it took 83 ns
state by state, 450 ns with per-tracker arrays). Measured on the slowest count in one item
order: 9.2 million states kept instead of 20.8 million, and 2.8 s for the forward pass instead
of 4.0 s (11.6 million states checked, 0.74 s of it). The check pays only where it drops many
states, so the layer engine makes it on big layers only and rests it where it drops few.
"""

from __future__ import annotations

from collections import defaultdict
from types import ModuleType
from typing import NamedTuple

import numpy as np

from sleuth.solve import tuning
from sleuth.solve.hits import fewest
from sleuth.solve.steps import Steps

BITS = 64  # trackers checked at most in a layer (bits of a mask)


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


def fits(table: np.ndarray, rows: int, hand: int) -> np.ndarray:
    """For each room up to ``hand`` and mask of rows to hit: which rows can be hit too.

    Bit b of entry (r, m) is set when row b can be hit along with the rows of m in room r
    (``table[m | 1 << b] <= r``), and bit ``ROWS`` when the rows of m can be hit at all
    (``table[m] <= r``), ``table`` being ``hits.fewest``. Flat, room by room.
    """
    masks = np.arange(1 << rows)
    out = np.zeros((hand + 1, 1 << rows), np.uint16)
    for room in range(hand + 1):
        out[room] |= (table <= room).astype(np.uint16) << tuning.ROWS
        for bit in range(rows):
            out[room] |= (table[masks | (1 << bit)] <= room).astype(np.uint16) << bit
    return out.ravel()


class Layout(NamedTuple):
    """What the kernel reads for one layer: where the fields sit, and the tables per holder.

    Holders are those of the checked tallies, by index ``h``; tallies by index ``c``.
    """

    cap_place: np.ndarray  # (word, shift, mask) of each cap in the keys
    left1: int  # items left after this layer's item, plus one (the derived holder's room)
    h_room: np.ndarray  # per holder: its cap's slot, or -1 for the derived holder
    h_all: np.ndarray  # per holder: the bits of all its trackers in a tracker mask
    h_run: np.ndarray  # per holder: its first tabulated bit and number of tabulated rows
    h_hand: np.ndarray  # per holder: its hand's room at the start
    f_start: np.ndarray  # per holder: where its ``fits`` table starts in ``fits``
    fits: np.ndarray  # every holder's ``fits`` table, one after the other
    hit_bytes: np.ndarray  # (word, byte) of the keys holding tracker bits
    hit_tables: np.ndarray  # per such byte and value: the mask of trackers it has hit
    c_least: np.ndarray  # per tally: its least value
    c_mask: np.ndarray  # per tally: the mask of its trackers
    c_place: np.ndarray  # per tally: (word, shift, mask) of its value (mask 0: not open yet)


class Forced:
    """The forced-hits check of every layer of one item order (``alive``)."""

    def __init__(self, steps: Steps, kernels: ModuleType):
        self.steps, self.p, self.kernels = steps, steps.p, kernels
        self.where, self.tfirst = steps.where, steps.tfirst
        self.plans: dict[int, Layout | None] = {}

    def _tallies(self, j: int) -> list[tuple[int, int, list[int]]]:
        """(tally, least value, trackers with items ahead) of the tallies checked at layer j.

        Tallies with a term that counts items, or the same term twice, are left out, and so
        are tolerable ones (a deal may break them) and the last ones once their trackers
        would pass ``BITS``.
        """
        p = self.p
        out: list[tuple[int, int, list[int]]] = []
        used: set[int] = set()
        for c, (refs, values) in enumerate(p.tallies):
            terms = [t for t in refs if self.where[t][-1] >= j]  # rows with items ahead
            least = min(values)
            if least == 0 or not terms or len(set(terms)) < len(terms) or p.group(c):
                continue
            if any(not p.trackers[t][2] for t in terms) or len(used | set(terms)) > BITS:
                continue
            used |= set(terms)
            out.append((c, least, terms))
        return out

    def _plan(self, j: int, fields) -> Layout | None:
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
        tables = []
        for i, h in enumerate(holders):
            mine = sorted(t for t in used if p.trackers[t][0] == h)
            rows = mine[: tuning.ROWS] if p.caps[h] <= tuning.HAND else []
            h_run[i] = len(order), len(rows)
            h_all[i] = ((1 << len(mine)) - 1) << len(order)
            order += mine
            covers: dict[int, int] = defaultdict(int)
            for bit, t in enumerate(rows):
                for k in self.where[t]:
                    if k >= j and h in p.domains[k]:
                        covers[k] |= 1 << bit
            table = fewest(set(covers.values()), p.caps[h], len(rows))
            tables.append(fits(table, len(rows), p.caps[h]))
            f_start[i + 1] = f_start[i] + len(tables[-1])
        bit_of = {t: b for b, t in enumerate(order)}
        hits = _hit_bytes(
            [(bit_of[t], fields.places["b", t]) for t in order if self.where[t][0] < j]
        )  # trackers opened before this layer: their bits are in the keys
        c_least = np.array([least for _, least, _ in tallies], np.int64)
        masks = [sum(1 << bit_of[t] for t in terms) for _, _, terms in tallies]
        c_mask = np.array(masks, np.uint64)
        c_place = np.zeros((len(tallies), 3), np.uint64)  # mask 0: not open yet, value 0
        for i, (c, _, _) in enumerate(tallies):
            if self.tfirst[c] < j:
                c_place[i] = fields.places["c", c]
        return Layout(
            cap_place.reshape(ncap, 3),
            steps.left[j] + 1,
            h_room,
            h_all,
            h_run,
            np.array([p.caps[h] for h in holders], np.int64),
            f_start,
            np.concatenate(tables),
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
        rounds, rows, block = tuning.ROUNDS, tuning.ROWS, tuning.BLOCK
        self.kernels.alive(np.ascontiguousarray(keys), plan, rounds, rows, block, out)
        return out
