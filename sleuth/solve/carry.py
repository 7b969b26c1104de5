"""A question's tally carried along the record's kept edges, over the layers its items span.

``layered.split`` needs a question's pass (its value left open) only between the first and the
last layer its items touch. A deal's path through the record's layers says who takes each item,
so it says the question's value too: the pass needs no plan and no states of its own. Each of
its entries is a state of the record's layer with the question's *part* so far (``Parts``): the
terms counted, and which of the open "any" terms (those with items still ahead) are hit. Each
record edge from a state takes every entry of that state along, with its part moved by the
holder the edge gives the item to; entries that meet (same record state, same part) merge.

At the last layer every "any" term has closed, so a part is the question's value: the split
follows by reading the record's ways to finish there (``layered``). The pass keeps its edges in
the record's form (``vector.gather`` runs the backward pass per answer over them).

The merge is a table indexed by (record state, part): in a compiled loop (``compiled.carried``)
once the count has turned to the compiled kernels, else in numpy (``carried``, the same entries
in another order; a sort for a step too wide for the table).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sleuth.model import Item, Term
from sleuth.solve import tuning
from sleuth.solve.counts import BudgetExceeded, TooBig
from sleuth.solve.vector import VectorRun

Part = tuple[int, int]  # (terms counted, bits of the open "any" terms hit)


@dataclass(frozen=True)
class Parts:
    """The question's parts at each layer of its span, and how each holder moves them."""

    parts: list[list[Part]]  # per layer from the span's first: the parts that can occur
    moves: list[np.ndarray]  # per step: holder x part -> the next layer's part (its index)


def parts(terms: tuple[Term, ...], order: list[Item], holders, start: int, end: int) -> Parts:
    """The parts of a question whose items all lie at positions ``start`` to ``end`` - 1."""
    position = {item: k for k, item in enumerate(order)}
    anys = [t for t in terms if t.any]
    closing: dict[int, list[int]] = {}  # step -> the "any" terms whose last item it visits
    for i, t in enumerate(anys):
        closing.setdefault(max(position[x] for x in t.items), []).append(i)
    found: list[list[Part]] = [[(0, 0)]]
    moves = []
    for k in range(start, end):
        item = order[k]
        index: dict[Part, int] = {}
        move = np.zeros((len(holders), len(found[-1])), np.int32)
        for h, holder in enumerate(holders):
            counted = sum(1 for t in terms if not t.any and t.holder == holder and item in t.items)
            hit = sum(1 << i for i, t in enumerate(anys) if t.holder == holder and item in t.items)
            for c, (count, bits) in enumerate(found[-1]):
                count, bits = count + counted, bits | hit
                for i in closing.get(k, []):
                    count, bits = count + (bits >> i & 1), bits & ~(1 << i)
                move[h, c] = index.setdefault((count, bits), len(index))
        found.append(list(index))
        moves.append(move)
    return Parts(found, moves)


@dataclass(frozen=True)
class Carried:
    """The question's pass over its span: per layer its entries' weights, per step its edges."""

    start: int
    ways: list[np.ndarray]  # per layer from ``start``
    edges: list[list[tuple[int, np.ndarray, np.ndarray]]]  # per step, as ``VectorRun.edges``
    rows: np.ndarray  # each final entry's state in the record's layer
    said: np.ndarray  # each final entry's value of the question (less its constant)


def carry(
    run: VectorRun, terms: tuple[Term, ...], start: int, end: int, deadline: float | None
) -> Carried:
    """The question's pass from the record's layer ``start`` to ``end`` (the record kept).

    BudgetExceeded past ``deadline``; TooBig when its entries and the record's states pass the
    layer engine's bound.
    """
    p = run.p
    found = parts(terms, p.order, p.holders, start, end)
    n = len(run.layers[start])
    rows, codes, ways = np.arange(n, dtype=np.int64), np.zeros(n, np.int64), run.layers[start].ways
    kept, edges, size = [ways], [], run.size
    table = None
    for k in range(start, end):
        if deadline is not None and time.monotonic() > deadline:
            raise BudgetExceeded
        here = run.edges[k]
        dests = np.full((len(here), len(run.layers[k])), -1, np.int32)
        for row, (_, mask, dest) in zip(dests, here, strict=True):
            row[np.flatnonzero(np.unpackbits(mask, count=len(row)))] = dest
        holders = [h for h, _, _ in here]
        moves = found.moves[k - start][holders]
        width = len(found.parts[k - start + 1])
        slots = len(run.layers[k + 1]) * width
        to = np.empty((len(here), len(rows)), np.int32)
        if len(here) * len(rows) >= tuning.HASHED:
            run.kernels.turn()
        compiled = run.kernels.module
        if compiled is not None and slots <= tuning.CARRIED:
            if table is None or len(table) < slots:
                table = np.full(slots, -1, np.int32)
            rows, codes, ways = compiled.carried(rows, codes, ways, dests, moves, width, table, to)
        else:
            rows, codes, ways = carried(rows, codes, ways, dests, moves, width, to)
        size += len(ways)
        if size > VectorRun.states:
            raise TooBig
        edges.append(
            [(h, np.packbits(t >= 0), t[t >= 0]) for h, t in zip(holders, to, strict=True)]
        )
        kept.append(ways)
    final = found.parts[-1]
    assert all(bits == 0 for _, bits in final)  # every "any" term has closed
    said = np.array([count for count, _ in final], np.int64)[codes]
    return Carried(start, kept, edges, rows, said)


def carried(rows, codes, ways, dests, moves, width: int, to: np.ndarray):
    """``compiled.carried`` in numpy, its successors in the order of their (state, part).

    Up to ``tuning.CARRIED`` slots, the keys met are marked in a table of every slot; past it,
    sorted.
    """
    ends = dests[:, rows].astype(np.int64)
    keys = np.where(ends >= 0, ends * width + moves[:, codes], -1)
    flat = keys.ravel()
    valid = flat >= 0
    met = flat[valid]
    slots = int(dests.max(initial=-1) + 1) * width
    if slots <= tuning.CARRIED:
        seen = np.zeros(slots, bool)
        seen[met] = True
        unique, inverse = np.flatnonzero(seen), (np.cumsum(seen) - 1)[met]
    else:
        unique, inverse = np.unique(met, return_inverse=True)
    out = np.zeros(len(unique), np.int64)
    np.add.at(out, inverse, np.broadcast_to(ways, keys.shape).ravel()[valid])
    spots = np.full(len(flat), -1, np.int64)
    spots[valid] = inverse
    to[:] = spots.reshape(keys.shape)
    return unique // width, unique % width, out
