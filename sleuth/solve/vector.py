"""The counting program of ``count.py``, run on whole layers at once with numpy.

Same plan, same states, same transitions as ``_Steps.next_states``, but a layer is a set of
columns (one contiguous array per field: a cap, a tracker bit, a tally value) and every
transition touches only the few fields its item changes. A state's key packs its fields into
64-bit words: the next layer's key of a successor is the key of the state's own kept fields
plus the shifted change of each field the item touches, so no successor is built field by
field. Equal keys merge (``merge.py``: a sort, or a hash table on big steps). The forward
pass remembers where every successor went, so the backward pass is a gather per holder and
step.

Counts are int64: exact as long as the number of deals that respect the hand sizes alone stays
below 2**62, which ``fits`` checks before this engine is chosen (every partial count, and
every product of a forward and a backward count, is at most that).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sleuth.solve.count import (
    BudgetExceeded,
    Counts,
    TooBig,
    _multinomial,
    _Plan,
    _Steps,
    finished,
)
from sleuth.solve.merge import merged

LIMIT = 1 << 62


def fits(p: _Plan) -> bool:
    """Whether every count of this plan fits in int64 (deals respecting hand sizes < 2**62)."""
    return min(p.caps) >= 0 and _multinomial(p.caps) < LIMIT


class _Layout:
    """Where each field of a layer's states sits in its key's 64-bit words."""

    def __init__(self, widths: list[int]):
        self.places, word, shift = [], 0, 0
        for width in widths:
            if shift + width > 64:
                word, shift = word + 1, 0
            self.places.append((word, shift, (1 << width) - 1))
            shift += width
        self.words = word + 1
        self.bits = shift if word == 0 else 64

    def pack(self, cols: list[np.ndarray], n: int) -> np.ndarray:
        """Keys (n rows of words) of these field columns."""
        out = np.zeros((self.words, n), dtype=np.uint64)
        for col, (word, shift, _) in zip(cols, self.places, strict=True):
            out[word] |= col.astype(np.uint64) << np.uint64(shift)
        return out

    def unpack(self, keys: np.ndarray, dtype) -> list[np.ndarray]:
        """Field columns of keys."""
        return [
            ((keys[word] >> np.uint64(shift)) & np.uint64(mask)).astype(dtype)
            for word, shift, mask in self.places
        ]


@dataclass
class _Layer:
    """A layer: its states' field columns and weights.

    Once the next layer is made only the weights are kept: the edges say the rest.
    """

    cols: list[np.ndarray] | None
    ways: np.ndarray

    def __len__(self) -> int:
        return len(self.ways)


class VectorRun:
    """A forward pass on whole layers; ``advance``, ``done`` and ``most`` as ``count._Run``.

    ``most`` bounds the states kept over all layers; every successor edge is kept too (an
    int32 and a bit per edge), about four edges per state. ``most_edges`` bounds the successors
    of one step, which are merged at once. At both bounds a count peaks at about
    850 MB (measured: 10.8 million states and 7.1 million successors in one step, 740 MB).
    """

    most = 12_000_000
    most_edges = 8_000_000  # successors made in one step, before they merge (the memory peak)

    def __init__(self, p: _Plan):
        self.p = p
        self.steps = _Steps(p)
        s = self.steps
        self.ncap = len(s.cap_slots)
        biggest = max([*p.caps, *(max(step[7], default=0) for step in s.steps), 1])
        self.dtype = np.int8 if biggest < 60 else np.int16
        cap_widths = [p.caps[h].bit_length() for h in s.cap_slots]
        self.layouts = [_Layout(cap_widths)]
        for k in range(len(p.order)):
            _, _, _, _, _, _, _, most, keep_b, keep_c = s.steps[k]
            widths = cap_widths + [1] * len(keep_b)
            widths += [max(most[c].bit_length(), 1) for c in keep_c]
            self.layouts.append(_Layout(widths))
        cols = [np.array([p.caps[h]], dtype=self.dtype) for h in s.cap_slots]
        self.layers = [_Layer(cols, np.ones(1, dtype=np.int64))]
        self.edges: list[list[tuple[int, np.ndarray, np.ndarray]]] = []
        self.size = 1

    @property
    def done(self) -> bool:
        """Whether every item has been visited."""
        return len(self.layers) > len(self.p.order)

    def _expanded(self, k: int, layer: _Layer):
        """Caps, bits and tallies of layer k, with zero columns for those opening at k."""
        nb, nc, width, *_ = self.steps.steps[k]
        n, ncap = len(layer), self.ncap
        zero = np.zeros(n, dtype=self.dtype)
        caps = layer.cols[:ncap]
        bits = layer.cols[ncap : ncap + width - nb] + [zero] * nb
        tallies = layer.cols[ncap + width - nb :] + [zero] * nc
        return caps, bits, tallies

    def _successors(self, k: int, layer: _Layer, limit: float):
        """For each holder: (holder, rows of the layer that may give it item k, their keys).

        TooBig as soon as more than ``limit`` successors are made.
        """
        step = self.steps.steps[k]
        _, _, width, actions, touched, lows, closing, most, keep_b, keep_c = step
        caps, bits, tallies = self._expanded(k, layer)
        n, ncap = len(layer), self.ncap
        left = self.steps.left[k]
        layout = self.layouts[k + 1]
        kept = caps + [bits[b] for b in keep_b] + [tallies[c] for c in keep_c]
        base = layout.pack(kept, n)
        place_cap = layout.places[:ncap]
        place_bit = {b: layout.places[ncap + i] for i, b in enumerate(keep_b)}
        place_tal = {c: layout.places[ncap + len(keep_b) + i] for i, c in enumerate(keep_c)}
        capsum = sum(c.astype(np.int16) for c in caps) if caps else np.zeros(n, np.int16)
        allowed = {c: np.isin(np.arange(max(most[c], 1) + 2), list(v)) for c, v in closing}
        out, made = [], 0
        for h, (slot, sets, adds, mine, emptied) in actions.items():
            delta = np.zeros((layout.words, n), dtype=np.int64)

            def shift_in(place, change, delta=delta):
                word, shift, _ = place
                delta[word] += change.astype(np.int64) << shift

            new_caps = list(caps)
            if slot is None:
                ok = left + 1 - capsum > 0
                rest = left - capsum
            else:
                ok = caps[slot] > 0
                new_caps[slot] = caps[slot] - 1
                ok &= capsum - 1 <= left
                rest = left - capsum + 1
                word, shift, _ = place_cap[slot]
                delta[word] -= 1 << shift
            new_bits = {}
            new_tal = {}
            for bit, hit in sets:
                old = new_bits.get(bit, bits[bit])
                fresh = (old == 0).astype(self.dtype)
                new_bits[bit] = old | 1
                for c in hit:
                    new_tal[c] = new_tal.get(c, tallies[c]) + fresh
            for c in adds:
                new_tal[c] = new_tal.get(c, tallies[c]) + 1
            for c, value in new_tal.items():
                ok &= value <= most[c]
            check = set(touched)
            if slot is not None and mine:
                room = (new_caps[slot] != 0).astype(self.dtype)
                for bit in mine:
                    new_bits[bit] = new_bits.get(bit, bits[bit]) & room
                check |= set(emptied)
            for c in sorted(check):
                ok &= self._reach(c, lows[c], new_caps, rest, bits, new_bits, tallies, new_tal)
            for c, _ in closing:
                value = new_tal.get(c, tallies[c])
                ok &= allowed[c][np.minimum(value, len(allowed[c]) - 1)]
            for o, still, table in self.steps.hits[k]:
                other = self.steps.slot_of.get(o)
                room = rest if other is None else new_caps[other]
                mask = np.zeros(n, dtype=np.int16)
                for i, c in enumerate(still):
                    mask |= (new_tal.get(c, tallies[c]) == 0).astype(np.int16) << i
                ok &= room >= np.asarray(table, dtype=np.int8)[mask]
            for bit, value in new_bits.items():
                if bit in place_bit:
                    shift_in(place_bit[bit], value - bits[bit])
            for c, value in new_tal.items():
                if c in place_tal:
                    shift_in(place_tal[c], value - tallies[c])
            rows = np.flatnonzero(ok)
            made += len(rows)
            if made > limit:
                raise TooBig
            keys = base[:, rows] + delta[:, rows].view(np.uint64)
            out.append((h, rows, keys))
        return out

    def _reach(self, c, low, caps, rest, bits, new_bits, tallies, new_tal) -> np.ndarray:
        """Rows where tally ``c`` can still reach its least value after the move."""
        least, terms, items = low
        now = new_tal.get(c, tallies[c]).astype(np.int16)
        reach = now.copy()
        for bit, h, ahead, any_ in terms:
            slot = self.steps.slot_of.get(h)
            room = rest if slot is None else caps[slot]
            if any_:
                can = room > 0
                if bit >= 0:
                    can &= new_bits.get(bit, bits[bit]) == 0
                reach += can
            else:
                reach += np.minimum(room, ahead).astype(np.int16)
        return (reach >= least) & (now + items >= least)

    def advance(self, cap: float, deadline: float | None) -> None:
        """Visit items until done or until more than ``cap`` states have been made."""
        while not self.done and self.size <= cap:
            if self.size > self.most:
                raise TooBig
            if deadline is not None and time.monotonic() > deadline:
                raise BudgetExceeded
            k = len(self.layers) - 1
            layer = self.layers[k]
            parts = self._successors(k, layer, self.most_edges)
            keys = [nxt for _, _, nxt in parts]
            ways = [layer.ways[rows] for _, rows, _ in parts]
            parts = [(h, rows) for h, rows, _ in parts]
            unique, sums, dest = merged(keys, ways, self.layouts[k + 1].bits)
            edges, at = [], 0
            for h, rows in parts:
                mask = np.zeros(len(layer), dtype=bool)
                mask[rows] = True
                edges.append((h, np.packbits(mask), dest[at : at + len(rows)]))
                at += len(rows)
            del parts
            self.edges.append(edges)
            cols = self.layouts[k + 1].unpack(unique, self.dtype)
            layer.cols = None
            self.layers.append(_Layer(cols, sums))
            self.size += len(sums)

    def backward(self, held: dict, reduced) -> Counts:
        """Total and per-holding counts, as ``count._backward`` but on whole layers.

        Keeps ``back``: for every layer, each state's number of ways to finish the deal.
        """
        p, steps = self.p, self.steps
        last = self.layers[-1]
        nfree = len(p.free)
        back = np.zeros(len(last), dtype=np.int64)
        free_held = [0] * len(p.holders)
        finals = np.array(last.cols, dtype=np.int64).reshape(len(last.cols), len(last)).T.tolist()
        for row, state in enumerate(finals):
            parts = steps.finish(tuple(state))
            mult = _multinomial(parts)
            back[row] = mult
            if nfree and mult:
                for h, part in enumerate(parts):
                    free_held[h] += int(last.ways[row]) * (mult * part // nfree)
        self.back = [back]
        for k in range(len(p.order) - 1, -1, -1):
            ways = self.layers[k].ways
            here = np.zeros(len(ways), dtype=np.int64)
            for h, mask, dest in self.edges[k]:
                rows = np.flatnonzero(np.unpackbits(mask, count=len(ways)))
                value = back[dest]
                here[rows] += value
                held[p.holders[h], p.order[k]] = int(np.dot(ways[rows], value))
            back = here
            self.back.append(back)
        self.back.reverse()
        return finished(p, reduced, held, int(back.sum()), free_held)
