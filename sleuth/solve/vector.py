"""The counting program of ``count.py``, run on whole layers at once with numpy.

Same plan, same states, same transitions as ``_Steps.next_states``, but a layer is a matrix
(one row a state, one column a field) and every transition is a few array operations. Counts
are int64: exact as long as the number of deals that respect the hand sizes alone stays below
2**62, which ``fits`` checks before this engine is chosen (every partial count is at most that).
States are packed into 64-bit words to merge equal ones and to keep the layers small.
"""

from __future__ import annotations

import time
from collections import defaultdict

import numpy as np

from sleuth.solve.count import BudgetExceeded, Counts, _multinomial, _Plan, _Steps, finished

LIMIT = 1 << 62


def fits(p: _Plan) -> bool:
    """Whether every count of this plan fits in int64 (deals respecting hand sizes < 2**62)."""
    return min(p.caps) >= 0 and _multinomial(p.caps) < LIMIT


class _Layout:
    """How the fields of a layer's states are packed into 64-bit words."""

    def __init__(self, widths: list[int]):
        self.widths = widths
        self.places, word, shift = [], 0, 0
        for width in widths:
            if shift + width > 64:
                word, shift = word + 1, 0
            self.places.append((word, shift, (1 << width) - 1))
            shift += width
        self.words = word + 1

    def pack(self, x: np.ndarray) -> np.ndarray:
        """Rows of fields -> rows of words (a 1-D void array, comparable and sortable)."""
        out = np.zeros((x.shape[0], self.words), dtype=np.uint64)
        for col, (word, shift, _) in enumerate(self.places):
            out[:, word] |= x[:, col].astype(np.uint64) << np.uint64(shift)
        return out.view(np.dtype((np.void, 8 * self.words))).ravel()

    def unpack(self, keys: np.ndarray) -> np.ndarray:
        """Rows of words -> rows of fields (int16)."""
        words = keys.view(np.uint64).reshape(len(keys), self.words)
        out = np.empty((len(keys), len(self.places)), dtype=np.int16)
        for col, (word, shift, mask) in enumerate(self.places):
            out[:, col] = (words[:, word] >> np.uint64(shift)) & np.uint64(mask)
        return out


def _merge(keys: np.ndarray, ways: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal keys merged (weights added exactly), sorted by key."""
    if len(keys) == 0:
        return keys, ways
    order = np.argsort(keys, kind="stable")
    keys, ways = keys[order], ways[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], np.add.reduceat(ways, starts)


class VectorRun:
    """A forward pass on whole layers; ``advance``, ``done`` and ``most`` as ``count._Run``."""

    most = 25_000_000

    def __init__(self, p: _Plan):
        self.p = p
        self.steps = _Steps(p)
        s = self.steps
        self.ncap = len(s.cap_slots)
        cap_width = max([max(p.caps).bit_length(), 1])
        self.layouts = [_Layout([cap_width] * self.ncap)]
        for k in range(len(p.order)):
            _, _, _, _, _, _, _, most, keep_b, keep_c = s.steps[k]
            widths = [cap_width] * self.ncap + [1] * len(keep_b)
            widths += [max(most[c].bit_length(), 1) for c in keep_c]
            self.layouts.append(_Layout(widths))
        start = np.array([[p.caps[h] for h in s.cap_slots]], dtype=np.int16)
        self.layers = [(self.layouts[0].pack(start), np.ones(1, dtype=np.int64))]
        self.size = 1

    @property
    def done(self) -> bool:
        """Whether every item has been visited."""
        return len(self.layers) > len(self.p.order)

    def _expand(self, k: int, keys: np.ndarray) -> np.ndarray:
        """The states of layer k with zero fields for the trackers and tallies opening at k."""
        nb, nc, width, *_ = self.steps.steps[k]
        old = self.layouts[k].unpack(keys)
        ncap, oldb = self.ncap, width - nb
        ntal = old.shape[1] - ncap - oldb + nc
        x = np.zeros((len(keys), ncap + width + ntal), dtype=np.int16)
        x[:, : ncap + oldb] = old[:, : ncap + oldb]
        x[:, ncap + width : ncap + width + ntal - nc] = old[:, ncap + oldb :]
        return x

    def _successors(self, k: int, x: np.ndarray):
        """For each holder: (holder, rows of ``x`` that may give it item k, their next keys)."""
        nb, nc, width, actions, touched, lows, closing, most, keep_b, keep_c = self.steps.steps[k]
        ncap, base = self.ncap, self.ncap + width
        left = self.steps.left[k]
        keep = list(range(ncap)) + [ncap + b for b in keep_b] + [base + c for c in keep_c]
        out = []
        for h, (slot, sets, adds, mine, emptied) in actions.items():
            y = x.copy()
            if slot is None:
                ok = left + 1 - y[:, :ncap].sum(axis=1) > 0
            else:
                ok = y[:, slot] > 0
                y[:, slot] -= 1
                ok &= y[:, :ncap].sum(axis=1) <= left
            grown = set(adds)
            for bit, tallies in sets:
                fresh = y[:, ncap + bit] == 0
                y[:, ncap + bit] = 1
                for c in tallies:
                    y[:, base + c] += fresh
                grown.update(tallies)
            for c in adds:
                y[:, base + c] += 1
            for c in grown:
                ok &= y[:, base + c] <= most[c]
            rest = left - y[:, :ncap].sum(axis=1)
            if slot is not None and mine:
                empty = y[:, slot] == 0
                for bit in mine:
                    y[empty, ncap + bit] = 0
            for c in sorted(set(touched) | set(emptied)):
                ok &= self._reach(y, rest, c, lows[c], ncap, base)
            for c, values in closing:
                ok &= np.isin(y[:, base + c], list(values))
            rows = np.flatnonzero(ok)
            out.append((h, rows, self.layouts[k + 1].pack(y[rows][:, keep])))
        return out

    def _reach(self, y, rest, c, low, ncap, base) -> np.ndarray:
        """Rows where tally ``c`` can still reach its least value."""
        least, terms = low
        reach = y[:, base + c].astype(np.int32)
        for bit, h, ahead, any_ in terms:
            slot = self.steps.slot_of.get(h)
            room = rest if slot is None else y[:, slot]
            if any_:
                can = room > 0
                if bit >= 0:
                    can &= y[:, ncap + bit] == 0
                reach += can
            else:
                reach += np.minimum(room, ahead)
        return reach >= least

    def advance(self, cap: float, deadline: float | None) -> None:
        """Visit items until done or until more than ``cap`` states have been made."""
        while not self.done and self.size <= cap:
            if self.size > self.most or (deadline is not None and time.monotonic() > deadline):
                raise BudgetExceeded
            k = len(self.layers) - 1
            keys, ways = self.layers[k]
            parts = self._successors(k, self._expand(k, keys))
            merged = _merge(
                np.concatenate([nxt for _, _, nxt in parts]),
                np.concatenate([ways[rows] for _, rows, _ in parts]),
            )
            self.layers.append(merged)
            self.size += len(merged[0])

    def backward(self, held: dict, reduced) -> Counts:
        """Total and per-holding counts, as ``count._backward`` but on whole layers."""
        p, steps = self.p, self.steps
        keys, ways = self.layers[-1]
        finals = self.layouts[-1].unpack(keys)
        nfree = len(p.free)
        back = np.zeros(len(keys), dtype=np.int64)
        free_held = [0] * len(p.holders)
        for row, state in enumerate(finals.tolist()):
            parts = steps.finish(tuple(state))
            mult = _multinomial(parts)
            back[row] = mult
            if nfree and mult:
                for h, part in enumerate(parts):
                    free_held[h] += int(ways[row]) * (mult * part // nfree)
        for k in range(len(p.order) - 1, -1, -1):
            next_keys = self.layers[k + 1][0]
            keys, ways = self.layers[k]
            here = np.zeros(len(keys), dtype=np.int64)
            row_held = defaultdict(int)
            for h, rows, nxt in self._successors(k, self._expand(k, keys)):
                value = back[np.searchsorted(next_keys, nxt)]
                here[rows] += value
                row_held[h] += int(np.dot(ways[rows], value))
            for h, n in row_held.items():
                held[p.holders[h], p.order[k]] = n
            back = here
        return finished(p, reduced, held, int(back.sum()), free_held)
