"""The counting program of ``steps.py``, run on whole layers at once with numpy.

Same plan, same states, same transitions as ``Steps.next_states``, but on whole layers. A
state is a key: its fields (a cap, a tracker bit, a tally value) packed into 64-bit words, each
field in the same place for its whole life (``_Fields``). A step reads as columns only the
fields its item touches, and every transition changes only those: a successor's key is its
state's key, with the fields that close cleared, plus the shifted change of each touched
field, so no successor is built field by field. Equal keys merge (``merge.py``: a sort, or
a hash table on big steps). The forward pass remembers where every successor went, so the
backward pass is a gather per holder and step. Once a count has turned to the compiled kernels
(``merge.Kernels``), unpacking a field and the backward gather run as compiled loops: on 44
hard simulated records, counts took 21 s instead of 24 s. From then on, big new layers also
lose the states that forced hits show dead (``forced.py``) before they make successors.

Counts are int64: exact as long as the number of deals that respect the hand sizes alone stays
below 2**62, which ``fits`` checks before this engine is chosen (every partial count, and
every product of a forward and a backward count, is at most that).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from sleuth.solve import tuning
from sleuth.solve.counts import BudgetExceeded, Counts, TooBig, multinomial
from sleuth.solve.forced import Forced
from sleuth.solve.merge import Kernels, merged
from sleuth.solve.plan import Plan
from sleuth.solve.steps import Action, Low, Steps, reaches, share

LIMIT = 1 << 62


def fits(p: Plan) -> bool:
    """Whether every count of this plan fits in int64 (deals respecting hand sizes < 2**62)."""
    return min(p.caps) >= 0 and multinomial(p.caps) < LIMIT


class _Fields:
    """Where each field of a state (a cap, a tracker bit, a tally) sits in its key.

    A field keeps its place for its whole life, from the step that opens it to the step that
    closes it, so a step re-packs nothing: the next layer's key of a successor starts as its
    state's key with the closing fields cleared, and a field opening at a step reads as zero
    because no live field shares its bits. Places are found first-fit in 64-bit words.
    """

    def __init__(self, steps: Steps, cap_widths: list[int], kernels: Kernels):
        self.kernels = kernels
        n = len(steps.steps)
        lives: dict[tuple[str, int], list[int]] = {}
        for k, (trackers, tallies) in enumerate(steps.opened):
            for key in [("b", t) for t in trackers] + [("c", c) for c in tallies]:
                lives.setdefault(key, [k, k])[1] = k
        if steps.p.asked is not None:  # the asked tally lives in the final layer too
            lives["c", steps.p.asked][1] = n
        greatest = {c: max(values) for c, (_, values) in enumerate(steps.p.tallies)}
        wanted = [(("cap", s), w, -1, n) for s, w in enumerate(cap_widths)]
        if steps.tolerant:  # the label (``steps``), alive from the start to the end
            wanted.append((("l", 0), steps.settled.bit_length(), -1, n))
        placing = sorted(lives.items(), key=lambda x: x[1][0])
        for (kind, i), (opens, last) in placing:
            width = 1 if kind == "b" else max(greatest[i].bit_length(), 1)
            wanted.append(((kind, i), width, opens, last))
        self.places: dict[tuple[str, int], tuple[int, int, int]] = {}
        placed: list[tuple[int, int, int, int, int]] = []  # word, shift, width, first, last
        for key, width, opens, last in wanted:
            live = [(w, sh, wd) for w, sh, wd, f, la in placed if f <= last and opens <= la]
            word, shift = 0, 0
            while True:
                clash = [
                    sh + wd
                    for w, sh, wd in live
                    if w == word and sh < shift + width and shift < sh + wd
                ]
                if not clash and shift + width <= 64:
                    break
                shift = max(clash) if clash else 64
                if shift + width > 64:
                    word, shift = word + 1, 0
            placed.append((word, shift, width, opens, last))
            self.places[key] = (word, shift, (1 << width) - 1)
        masks: list[dict[int, int]] = [{} for _ in range(n + 1)]  # per layer: word -> live bits
        for w, sh, wd, f, la in placed:
            for j in range(f + 1, la + 1):  # the layers the field lives in
                masks[j][w] = masks[j].get(w, 0) | ((1 << wd) - 1) << sh
        # per layer: (words, mask of live bits per word, bits used if one word)
        self.shapes: list[tuple[int, np.ndarray, int]] = []
        for layer in masks:
            words = 1 + max(layer, default=0)
            mask = np.array([layer.get(w, 0) for w in range(words)], dtype=np.uint64)
            used = max(layer.get(0, 0).bit_length(), 1)
            self.shapes.append((words, mask, used if words == 1 else 64))

    def column(self, keys: np.ndarray, key: tuple[str, int], dtype) -> np.ndarray:
        """One field of every state of a layer (zero where its word is not in the keys)."""
        word, shift, mask = self.places[key]
        if word >= keys.shape[0]:
            return np.zeros(keys.shape[1], dtype=dtype)
        compiled = self.kernels.module if keys.shape[1] >= tuning.UNPACKED else None
        if compiled is not None:
            out = np.empty(keys.shape[1], dtype=dtype)
            compiled.unpacked(keys[word], shift, mask, out)
            return out
        return ((keys[word] >> np.uint64(shift)) & np.uint64(mask)).astype(dtype)

    def base(self, keys: np.ndarray, j: int) -> np.ndarray:
        """The keys of layer j - 1 as keys of layer j: closed fields cleared, words as needed."""
        words, mask, _ = self.shapes[j]
        if keys.shape[0] < words:
            keys = np.concatenate(
                [keys, np.zeros((words - keys.shape[0], keys.shape[1]), keys.dtype)]
            )
        return keys[:words] & mask[:, None]


class _Columns:
    """A layer's fields of one kind by their step-local index, unpacked when first asked for."""

    def __init__(self, fields: _Fields, keys: np.ndarray, kind: str, ids: list[int], dtype):
        self.fields, self.keys, self.kind, self.ids, self.dtype = fields, keys, kind, ids, dtype
        self.cache: dict[int, np.ndarray] = {}

    def __getitem__(self, i: int) -> np.ndarray:
        if i not in self.cache:
            self.cache[i] = self.fields.column(self.keys, (self.kind, self.ids[i]), self.dtype)
        return self.cache[i]


def allowed(value: np.ndarray, values: frozenset[int]) -> np.ndarray:
    """Where a tally's value is one of its allowed values: ``np.isin(value, list(values))``.

    A range is two comparisons, other sets one comparison a value: ``np.isin`` builds a lookup
    table for small integer sets and indexes it, 6 times slower at 4 values, still 1.6 times
    at 30 (2 M states).
    """
    low, high = min(values), max(values)
    if len(values) == high - low + 1:
        return (value >= low) & (value <= high) if low < high else value == low
    first, *rest = sorted(values)
    out = value == first
    for v in rest:
        out |= value == v
    return out


class _Reach:
    """Whether each open tally can still reach its least value after a move, for a chunk.

    The bound is ``steps.reaches``, on whole columns. A move changes only the room and bits of
    the holder that takes the item, so each tally's shares are summed once from the states
    before the move, and each move only puts its holder's terms right; a move that changes
    neither the tally nor any of its terms gets the rows the first such move got.
    """

    def __init__(self, steps: Steps, lows: dict, caps, rest, bits: _Columns, tallies: _Columns):
        self.steps, self.lows, self.caps, self.rest = steps, lows, caps, rest
        self.bits, self.tallies = bits, tallies
        self.base: dict[int, np.ndarray] = {}
        self.before: dict[tuple, np.ndarray] = {}  # each term's share before the move
        self.unmoved: dict[int, np.ndarray] = {}  # per tally: the rows for a move outside it

    def _hit(self, term, bits: dict):
        """Whether a term's bit is set, with the bits a move changed (0: it has no bit)."""
        return bits.get(term.bit, self.bits[term.bit]) if term.bit >= 0 else 0

    def _before(self, term) -> np.ndarray:
        """A term's share before the move (made once per chunk)."""
        if term not in self.before:
            room = self.steps.room(term.holder, self.caps, self.rest)
            self.before[term] = share(term, room, self._hit(term, {}))
        return self.before[term]

    def after(self, c: int, h: int, room, new_bits: dict, new_tal: dict) -> np.ndarray:
        """Rows where tally ``c`` can still reach its least value after ``h`` takes the item.

        ``room``: h's room after the move; ``new_bits``, ``new_tal``: the fields it changed.
        """
        low: Low = self.lows[c]
        if c not in self.base:
            base = np.zeros(len(self.rest), np.int16)
            for term in low.terms:
                base += self._before(term)
            self.base[c] = base
        mine = [term for term in low.terms if term.holder == h]
        unmoved = not mine and c not in new_tal  # the move changes neither the tally nor a term
        if unmoved and c in self.unmoved:
            return self.unmoved[c]
        shares = self.base[c]
        for term in mine:
            shares = shares + share(term, room, self._hit(term, new_bits)) - self._before(term)
        ok = reaches(low, new_tal.get(c, self.tallies[c]), shares)
        if unmoved:
            self.unmoved[c] = ok
        return ok


class _Checks:
    """The checks of one move: strict ones kill a row, tolerable ones set its label (``steps``).

    ``label``: the rows' labels, None for a plan without tolerable groups. A tolerable tally
    whose group is a row's label is not checked on that row.
    """

    def __init__(self, codes: list[int], label: np.ndarray | None):
        self.codes, self.label = codes, label
        self.failed: dict[int, np.ndarray] = {}  # per code: rows where a tally of it failed

    def add(self, ok: np.ndarray, c: int, passed: np.ndarray) -> np.ndarray:
        """``ok`` with the check of open tally c: rows where it did not pass."""
        code = self.codes[c] if self.label is not None else 0
        if not code:
            return ok & passed
        failed = ~passed & (self.label != code)
        self.failed[code] = self.failed[code] | failed if code in self.failed else failed
        return ok

    def labelled(self, ok: np.ndarray, settling: frozenset[int], settled: int):
        """The rows still alive, and their labels after the move (as ``Steps.labelled``)."""
        label = self.label
        assert label is not None  # called only for a plan with tolerable groups
        n = np.zeros(len(label), np.int8)
        after = label.copy()
        for code, failed in self.failed.items():
            n += failed
            after = np.where(failed, code, after)
        ok = ok & ((n == 0) | ((n == 1) & (label == 0)))
        for code in settling:
            after = np.where(after == code, settled, after)
        return ok, after


@dataclass
class _Layer:
    """A layer: its states' weights, and for the last layer their caps (for the multinomials).

    The run keeps the keys of its newest layer only; the edges say the rest.
    """

    cols: list[np.ndarray] | None
    ways: np.ndarray

    def __len__(self) -> int:
        return len(self.ways)


_SPENT = _Layer(None, np.zeros(0, np.int64))  # a layer the backward pass is done with


class VectorRun:
    """A forward pass on whole layers (``engines.Run``), as ``reference.DictRun`` state by state.

    ``states`` bounds the states kept over all layers (``limit``, the hard bound of one run,
    starts at it): each keeps its weight and the int32 successor of each of its edges, about
    16 bytes in all (26.5 million states: 383 MiB). The successors of one step are merged at
    once, at about 32 bytes plus 16 per key word each (keys, table, sums, where each went): they
    may take ``memory`` less what the states kept take, and never more than ``most_edges``.
    Measured at the bound, whole processes peak at 650 to 800 MiB.
    """

    states = tuning.VECTOR_STATES
    most_edges = tuning.VECTOR_EDGES  # successors made in one step, before they merge
    memory = tuning.VECTOR_MEMORY  # bytes for the states kept and one step's successors
    chunk = tuning.CHUNK  # states of a layer whose successors are made at once

    def __init__(self, p: Plan, kernels: Kernels | None = None):
        self.p = p
        self.steps = Steps(p)
        self.kernels = Kernels() if kernels is None else kernels  # shared by a count's runs
        s = self.steps
        self.ncap = len(s.cap_slots)
        biggest = max([*p.caps, *(max(step.greatest, default=0) for step in s.steps), s.settled])
        self.dtype = np.int8 if biggest < 60 else np.int16
        cap_widths = [max(p.caps[h].bit_length(), 1) for h in s.cap_slots]
        self.fields = _Fields(s, cap_widths, self.kernels)
        self.keys = np.zeros((self.fields.shapes[0][0], 1), dtype=np.uint64)
        for slot, h in enumerate(s.cap_slots):
            word, shift, _ = self.fields.places["cap", slot]
            self.keys[word] |= np.uint64(p.caps[h] << shift)
        self.layers = [_Layer(self._caps(self.keys), np.ones(1, dtype=np.int64))]
        self.edges: list[list[tuple[int, np.ndarray, np.ndarray]]] = []
        self.back: list[np.ndarray] = []  # per layer, once ``backward`` has run with ``keep``
        self.size = 1
        self.limit = type(self).states  # hard: a step that would pass it fails (TooBig)
        self.forced: Forced | None = None  # the forced-hits check, made where first checked
        self.ended: tuple[np.ndarray, np.ndarray] | None = None  # ``ends``, once made
        self.checked_from, self.idle = 0, 0  # the check rests after layers where it drops few

    @property
    def done(self) -> bool:
        """Whether every item has been visited."""
        return len(self.layers) > len(self.p.order)

    def _caps(self, keys: np.ndarray) -> list[np.ndarray]:
        """The cap columns of a layer's keys."""
        return [self.fields.column(keys, ("cap", s), self.dtype) for s in range(self.ncap)]

    def _successors(self, k: int, keys: np.ndarray, limit: float):
        """For each holder: (holder, rows of ``keys`` that may give it item k, their new keys).

        ``keys`` are some states of layer k. TooBig as soon as more than ``limit`` successors
        are made.
        """
        chunk = _Chunk(self, k, keys)
        out, made = [], 0
        for h, action in self.steps.steps[k].actions.items():
            rows, change = chunk.move(h, action)
            made += len(rows)
            if made > limit:
                raise TooBig
            out.append((h, rows, chunk.keys(rows, change)))
        return out

    def alive(self, j: int, keys: np.ndarray) -> np.ndarray | None:
        """Which states of a new layer j survive the forced-hits check (``forced.py``).

        None when it is not made: at the last layer, on layers of fewer than ``CHECKED``
        states, while it rests (after a layer where it dropped under ``USEFUL``), and before
        the count has turned to the compiled kernels (the check is one).
        """
        compiled = self.kernels.module
        if j >= len(self.p.order) or keys.shape[1] < tuning.CHECKED or compiled is None:
            return None
        if j < self.checked_from:
            return None
        if self.forced is None:
            self.forced = Forced(self.steps, compiled)
        alive = self.forced.alive(j, keys, self.fields)
        if alive is None or np.count_nonzero(alive) > (1 - tuning.USEFUL) * len(alive):
            self.idle = min(2 * self.idle, tuning.IDLE) if self.idle else 1
            self.checked_from = j + 1 + self.idle
        else:
            self.idle = 0
        return alive

    def most_successors(self, k: int) -> int:
        """The successors step k may make within ``memory``, beside the states kept so far.

        Kept by this run, and by other runs alive: their share is what they take off this
        run's ``limit``.
        """
        words = self.fields.shapes[k + 1][0]
        kept = self.size + max(type(self).states - self.limit, 0)
        return min(self.most_edges, (self.memory - 16 * kept) // (32 + 16 * words))

    def advance(self, cap: float, deadline: float | None) -> None:
        """Visit items until done or until more than ``cap`` states have been made."""
        while not self.done and self.size <= cap:
            if self.size > self.limit:
                raise TooBig
            if deadline is not None and time.monotonic() > deadline:
                raise BudgetExceeded
            k = len(self.layers) - 1
            layer = self.layers[k]
            masks: dict[int, np.ndarray] = {}  # per holder: the states that may give it item k
            pieces: list[tuple[int, np.ndarray, np.ndarray]] = []  # (holder, rows, their keys)
            made, room = 0, self.most_successors(k)
            for start in range(0, max(len(layer), 1), self.chunk):  # an empty layer too
                if start and deadline is not None and time.monotonic() > deadline:
                    raise BudgetExceeded  # a wide layer takes seconds: not past the deadline
                chunk = self.keys[:, start : start + self.chunk]
                for h, rows, nxt in self._successors(k, chunk, room - made):
                    made += len(rows)
                    rows = (rows + start).astype(np.int32)
                    masks.setdefault(h, np.zeros(len(layer), dtype=bool))[rows] = True
                    pieces.append((h, rows, nxt))
            if deadline is not None and time.monotonic() > deadline:
                raise BudgetExceeded  # merging a wide layer takes as long as making it
            lengths = [(h, len(r)) for h, r, _ in pieces]
            keys = [nxt for _, _, nxt in pieces]
            rows = [r for _, r, _ in pieces]
            del pieces
            bits = self.fields.shapes[k + 1][2]
            unique, sums, dest = merged(keys, rows, layer.ways, bits, self.kernels)
            alive = self.alive(k + 1, unique)
            if alive is not None and not alive.all():  # drop the dead: edges to -1, then go
                unique, sums = np.compress(alive, unique, axis=1), sums[alive]
                renumbered = np.cumsum(alive, dtype=np.int32) - 1
                renumbered[~alive] = -1
                dest = renumbered[dest]
                del alive, renumbered
            if self.size + len(sums) > self.limit:  # never keep more than the run may
                raise TooBig
            spans: dict[int, list[np.ndarray]] = {h: [] for h in masks}
            at = 0
            for h, n in lengths:  # the pieces come a chunk at a time; the edges a holder at a time
                spans[h].append(dest[at : at + n])
                at += n
            del dest
            edges = []
            for h in list(masks):
                mask, ends = masks.pop(h), np.concatenate(spans.pop(h))
                gone = ends < 0  # ends come in the order of the states (pieces by chunk, rows up)
                if gone.any():
                    mask[np.flatnonzero(mask)[gone]] = False
                    ends = ends[~gone]
                edges.append((h, np.packbits(mask), ends))
            self.edges.append(edges)
            layer.cols = None
            self.keys = unique
            self.layers.append(_Layer(None, sums))
            self.size += len(sums)
        if self.done and self.layers[-1].cols is None:
            self.layers[-1].cols = self._caps(self.keys)
            if self.steps.tolerant:
                self.labels = self.fields.column(self.keys, ("l", 0), self.dtype)
            if self.p.asked is not None:
                self.said = self.fields.column(self.keys, ("c", self.p.asked), self.dtype)

    def answers(self) -> set[int]:
        """The values of the asked tally in the final states of a finished run."""
        return {int(v) for v in np.unique(self.said)}

    def backward(
        self,
        held: dict,
        reduced,
        keep: bool = False,
        strict: bool = False,
        answer: int | None = None,
    ) -> Counts:
        """Total and per-holding counts, as ``reference.DictRun.backward`` but on whole layers.

        With ``keep``, keeps ``back`` (for every layer, each state's number of ways to finish
        the deal) and the edges, for ``draw.Walker``. Without it the run is spent: each step's
        edges and weights are dropped once used, so the pass needs no more memory than the
        forward one did. ``strict``: the counts of the deals that break no tolerable group;
        ``answer``: of the deals whose asked tally takes that value.
        """
        p, last = self.p, self.layers[-1]
        mults, shares = self.ends()
        dropped = np.zeros(len(last), dtype=bool)
        if strict:
            dropped |= self.labels != 0
        if answer is not None:
            dropped |= self.said != answer
        back = np.where(dropped, 0, mults)
        weights = np.where(dropped, 0, last.ways)  # each product is a count of deals: int64
        free_held = [int(np.dot(weights, shares[:, h])) for h in range(len(p.holders))]
        self.back = [back] if keep else []
        for k in range(len(p.order) - 1, -1, -1):
            back = self.gathered(k, back[None], [held])[0]
            if keep:
                self.back.append(back)
            else:
                self.edges[k], self.layers[k] = [], _SPENT
        self.back.reverse()
        return p.counts(reduced, held, int(back.sum()), free_held)

    def gathered(self, k: int, back: np.ndarray, helds: list[dict]) -> np.ndarray:
        """Layer k's ways to finish the deal, from layer k + 1's (``back``), per kind of deal.

        Kinds (the record's deals, or a question's answers) are rows of ``back`` and of the
        result, each with a dict of ``helds``: per holder, the deals that give it item k (weight
        times ways to finish, over its edges).
        """
        step = self.edges[k], self.layers[k].ways, self.p.holders, self.p.order[k]
        return gather(*step, back, helds, self.kernels.module)

    def spread_by(self, k: int, weights: np.ndarray, back: np.ndarray, helds: list[dict]):
        """Layer k + 1's weights of some deals from layer k's: ``gathered`` run forward.

        A row of ``weights`` per kind. Into ``helds``, per kind and holder, those deals that
        give it item k, with ``back`` (layer k + 1's ways to finish). For a kept run.
        """
        p, n = self.p, len(self.layers[k])
        out = np.zeros((len(weights), len(self.layers[k + 1])), dtype=np.int64)
        for h, mask, dest in self.edges[k]:
            value = weights[:, np.flatnonzero(np.unpackbits(mask, count=n))]
            for held, count in zip(helds, value @ back[dest], strict=True):
                held[p.holders[h], p.order[k]] = int(count)
            for row, part in zip(out, value, strict=True):
                np.add.at(row, dest, part)
        return out

    def ends(self) -> tuple[np.ndarray, np.ndarray]:
        """Per final state: its ways to deal the free items, and each holder's part of them.

        The part of a holder is the ways in which it takes one given free item (``counts``).
        Made once per run, from each distinct final state once.
        """
        if self.ended is None:
            last, nfree, made = self.layers[-1], len(self.p.free), {}
            mults = np.zeros(len(last), dtype=np.int64)
            shares = np.zeros((len(last), len(self.p.holders)), dtype=np.int64)
            assert last.cols is not None  # kept for the last layer once the run is done
            finals = np.array(last.cols, dtype=np.int64).reshape(len(last.cols), len(last))
            for row, state in enumerate(finals.T.tolist()):
                key = tuple(state)
                if key not in made:
                    parts = self.steps.finish(key)
                    mult = multinomial(parts)
                    made[key] = mult, [mult * part // nfree if nfree else 0 for part in parts]
                mults[row], shares[row] = made[key]
            self.ended = mults, shares
        return self.ended

    def pairs(self, holder: int, backs: dict) -> dict:
        """Per key of ``backs`` (kept backward passes' ``back``): worlds per pair ``holder`` holds.

        As ``reference.DictRun.pairs``, on whole layers along the kept edges: a column per
        item the holder took first, carried forward (no merge: each edge knows where it goes).
        """
        p = self.p
        firsts = [k for k in range(len(p.order)) if holder in p.domains[k]]
        column = {k: j for j, k in enumerate(firsts)}
        keys = list(backs)
        out: dict = {key: {} for key in keys}
        took = np.zeros((len(self.layers[0]), len(firsts)), np.int64)
        for k, edges in enumerate(self.edges):
            ways = self.layers[k].ways
            nxt = np.zeros((len(self.layers[k + 1]), len(firsts)), np.int64)
            for h, mask, dest in edges:
                rows = np.flatnonzero(np.unpackbits(mask, count=len(ways)))
                carried = took[rows]
                _added(nxt, dest, carried)
                if h != holder:
                    continue
                after = np.stack([backs[key][k + 1][dest] for key in keys])
                made = carried.T @ after.T  # first item x answer
                for j, a in zip(*np.nonzero(made), strict=True):
                    out[keys[a]][p.order[firsts[j]], p.order[k]] = int(made[j, a])
                _added(nxt[:, column[k]], dest, ways[rows])
            took = nxt
        return out


class _Change(NamedTuple):
    """What a move changes: the holder's cap slot (None: the derived one), its new columns."""

    slot: int | None
    bits: dict[int, np.ndarray]  # by step-local bit
    tallies: dict[int, np.ndarray]  # by step-local tally
    label: np.ndarray | None  # the rows' labels after the move; None without tolerable groups


class _Chunk:
    """Some states of layer k, read once, and the move of each holder of item k from them.

    ``move`` is ``Steps.next_states`` on whole columns: the room the move leaves, the fields it
    changes, the checks (strict ones kill a row, tolerable ones set its label), then the new
    keys of the rows that pass.
    """

    def __init__(self, run: VectorRun, k: int, keys: np.ndarray):
        steps, fields = run.steps, run.fields
        self.steps, self.step, self.fields, self.dtype = steps, steps.steps[k], fields, run.dtype
        trackers, open_tallies = steps.opened[k]
        self.caps = run._caps(keys)
        self.bits = _Columns(fields, keys, "b", trackers, run.dtype)
        self.tallies = _Columns(fields, keys, "c", open_tallies, run.dtype)
        self.n = keys.shape[1]
        self.left = steps.left[k]
        self.base = fields.base(keys, k + 1)
        self.place_cap = [fields.places["cap", s] for s in range(run.ncap)]
        self.place_bit = {b: fields.places["b", trackers[b]] for b in self.step.keep_bits}
        self.place_tal = {c: fields.places["c", open_tallies[c]] for c in self.step.keep_tallies}
        self.capsum = np.zeros(self.n, np.int16)
        for column in self.caps:
            self.capsum = self.capsum + column
        rest = self.left + 1 - self.capsum
        self.reach = _Reach(steps, self.step.lows, self.caps, rest, self.bits, self.tallies)
        self.fit: dict[int, np.ndarray] = {}  # per holder that must hit: rows whose hand still can
        self.label = fields.column(keys, ("l", 0), run.dtype) if steps.tolerant else None

    def move(self, h: int, action: Action) -> tuple[np.ndarray, _Change]:
        """The rows that may give item k to holder h, and what the move changes (``keys``)."""
        slot, sets, adds, _, _ = action
        ok, new_caps, rest = self._room(slot)
        new_bits, new_tal = self._changed(sets, adds)
        checks = _Checks(self.step.codes, self.label)
        ok = self._checked(h, action, checks, ok, new_caps, rest, new_bits, new_tal)
        ok = self._fits(h, ok, new_caps, rest, new_tal)
        after = None
        if self.label is not None:
            ok, after = self._labelled(checks, ok, new_tal)
        return np.flatnonzero(ok), _Change(slot, new_bits, new_tal, after)

    def _room(self, slot: int | None) -> tuple[np.ndarray, list[np.ndarray], np.ndarray]:
        """The rows with room for the item, the caps after the move, and the derived one's room."""
        caps, capsum, left = self.caps, self.capsum, self.left
        new_caps = list(caps)
        if slot is None:
            return left + 1 - capsum > 0, new_caps, left - capsum
        new_caps[slot] = caps[slot] - 1
        return (caps[slot] > 0) & (capsum - 1 <= left), new_caps, left - capsum + 1

    def _changed(self, sets, adds) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
        """The bits and the tallies the move changes, by step-local index, as new columns."""
        bits, tallies = self.bits, self.tallies
        new_bits: dict[int, np.ndarray] = {}
        new_tal: dict[int, np.ndarray] = {}
        for bit, hit in sets:
            old = new_bits.get(bit, bits[bit])
            fresh = (old == 0).astype(self.dtype)
            new_bits[bit] = old | 1
            for c in hit:
                new_tal[c] = new_tal.get(c, tallies[c]) + fresh
        for c in adds:
            new_tal[c] = new_tal.get(c, tallies[c]) + 1
        return new_bits, new_tal

    def _checked(self, h, action, checks, ok, new_caps, rest, new_bits, new_tal) -> np.ndarray:
        """``ok`` with the tallies' checks: their greatest values, the reach bound, the closing.

        A hand the move fills clears its bits (in ``new_bits``) and has its tallies checked.
        """
        step, slot, mine, emptied = self.step, action.slot, action.mine, action.emptied
        for c, value in new_tal.items():
            ok = checks.add(ok, c, value <= step.greatest[c])
        check = set(step.touched)
        if slot is not None and mine:
            room = (new_caps[slot] != 0).astype(self.dtype)
            for bit in mine:
                new_bits[bit] = new_bits.get(bit, self.bits[bit]) & room
            check |= set(emptied)
        own = rest if slot is None else new_caps[slot]  # h's room after the move
        for c in sorted(check):
            ok = checks.add(ok, c, self.reach.after(c, h, own, new_bits, new_tal))
        for c, values in step.closing:
            ok = checks.add(ok, c, allowed(new_tal.get(c, self.tallies[c]), values))
        return ok

    def _fits(self, h, ok, new_caps, rest, new_tal) -> np.ndarray:
        """``ok`` where every hand that must hit several sets still can (``Steps.hits``)."""
        for o, still, table in self.step.hits:
            unmoved = o != h and not any(c in new_tal for c in still)
            if unmoved and o in self.fit:  # the same for every move that leaves o's hand alone
                ok &= self.fit[o]
                continue
            other = self.steps.slot_of.get(o)
            room = rest if other is None else new_caps[other]
            mask = np.zeros(self.n, dtype=np.int16)
            for i, c in enumerate(still):
                mask |= (new_tal.get(c, self.tallies[c]) == 0).astype(np.int16) << i
            can = room >= table[mask]
            if unmoved:
                self.fit[o] = can
            ok &= can
        return ok

    def _labelled(self, checks, ok, new_tal) -> tuple[np.ndarray, np.ndarray]:
        """The rows alive and their labels; the tallies of the group broken set to 0."""
        step = self.step
        ok, after = checks.labelled(ok, step.settling, self.steps.settled)
        for c in step.keep_tallies:
            if step.codes[c]:  # a tolerable tally: 0 in the states its group broke
                gone = after == step.codes[c]
                new_tal[c] = np.where(gone, 0, new_tal.get(c, self.tallies[c]))
        return ok, after

    def keys(self, rows: np.ndarray, change: _Change) -> np.ndarray:
        """The keys in layer k + 1 of these rows after the move: each changed field added in."""
        fields, bits, tallies = self.fields, self.bits, self.tallies
        slot, new_bits, new_tal, after = change
        nxt = self.base[:, rows]  # then each changed field, on these rows only
        if slot is not None:
            word, shift, _ = self.place_cap[slot]
            nxt[word] -= np.uint64(1 << shift)
        changes = [(self.place_bit.get(b), v, bits[b]) for b, v in new_bits.items()]
        changes += [(self.place_tal.get(c), v, tallies[c]) for c, v in new_tal.items()]
        if after is not None and self.label is not None:
            changes.append((fields.places["l", 0], after, self.label))
        for place, value, old in changes:
            if place is not None:  # kept after this step
                word, shift, _ = place
                moved = (value[rows] - old[rows]).astype(np.int64) << shift
                nxt[word] += moved.view(np.uint64)
        return nxt


def _added(out: np.ndarray, dest: np.ndarray, values: np.ndarray) -> None:
    """``out[dest[i]] += values[i]`` for every i, equal destinations summed (``np.add.at``).

    By a sort and one sum per destination: ``np.add.at`` is slow on rows of a 2-d array.
    """
    if not len(dest):
        return
    order = np.argsort(dest, kind="stable")
    ends = dest[order]
    start = np.flatnonzero(np.concatenate(([True], ends[1:] != ends[:-1])))
    out[ends[start]] += np.add.reduceat(values[order], start, axis=0)


def gather(edges, ways: np.ndarray, holders, item, back: np.ndarray, helds: list[dict], compiled):
    """``VectorRun.gathered`` of one step, which gives ``item``.

    Its ``edges``, from states of weights ``ways``, with ``holders`` naming their holders;
    ``compiled``: the kernels' module, or None.
    """
    here = np.zeros((len(back), len(ways)), dtype=np.int64)
    for h, mask, dest in edges:
        pair = holders[h], item
        if compiled is not None:  # a big count: each kind in the compiled loop
            for held, row, out in zip(helds, back, here, strict=True):
                held[pair] = int(compiled.gathered(mask, dest, row, ways, out))
            continue
        rows = np.flatnonzero(np.unpackbits(mask, count=len(ways)))
        value = back[:, dest]
        here[:, rows] += value  # a holder's edges leave each state once
        for held, n in zip(helds, value @ ways[rows], strict=True):
            held[pair] = int(n)
    return here
