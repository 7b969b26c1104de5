"""Weighted tables of card counts, summed and convolved in numpy with exact integer weights.

A ``Weights`` is a table of count vectors (e.g. an opponent's unseen draws per deck pool, one
figure count per column) with an exact weight each: the number of hidden arrangements leading
there. The keys are an int64 array, the weights an object array of Python ints, so that the
loops over pairs run in numpy while every weight stays exact. ``hands`` and ``advice`` count
with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import factorial

import numpy as np

CHUNK = 1 << 21  # pairs of keys formed at a time (each pair a row of the key width)


@dataclass(frozen=True)
class Weights:
    """Keys (n x width, int64) and their exact weights (n, Python ints); e.g. one key, weight 1."""

    keys: np.ndarray
    weights: np.ndarray

    @classmethod
    def one(cls, width: int) -> Weights:
        """The zero vector, weight 1: convolving with it changes nothing."""
        return cls(np.zeros((1, width), np.int64), objects([1]))

    def __len__(self) -> int:
        return len(self.weights)

    def dict(self) -> dict[tuple[int, ...], int]:
        """As a dict of key -> weight."""
        return {tuple(k): w for k, w in zip(self.keys.tolist(), self.weights.tolist(), strict=True)}


def objects(values) -> np.ndarray:
    """Python ints as a numpy object array (never a fixed-width int that could overflow)."""
    out = np.empty(len(values), object)
    out[:] = list(values)
    return out


def gathered(keys: np.ndarray, weights: np.ndarray) -> Weights:
    """The weights of equal keys summed: one row per distinct key."""
    if not len(weights):
        return Weights(keys.reshape(0, keys.shape[1]), weights)
    radix = keys.max(axis=0, initial=0) - keys.min(axis=0, initial=0) + 1
    if float(np.prod(radix.astype(float))) < 2.0**62:  # one code a key: a sort of one column
        scale = np.cumprod(np.r_[1, radix[:-1]]).astype(np.int64)
        codes = (keys - keys.min(axis=0)) @ scale
        order = np.argsort(codes, kind="stable")
        new = np.r_[True, codes[order][1:] != codes[order][:-1]]
    else:
        order = np.lexsort(keys.T[::-1])
        new = np.r_[True, (keys[order][1:] != keys[order][:-1]).any(axis=1)]
    keys, weights = keys[order], weights[order]
    starts = np.flatnonzero(new)
    return Weights(keys[starts], np.add.reduceat(weights, starts))


def fitting(
    a: np.ndarray, b: np.ndarray, top: np.ndarray, wanted: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair (i, j) of rows of ``a`` and ``b`` whose sum is nowhere above ``top``: i, j, sum.

    ``wanted``: when given, only the sums whose first ``wanted.shape[1]`` counts are a row of
    it (formed a block of ``a`` at a time).
    """
    n = 0 if wanted is None else wanted.shape[1]
    scale = np.cumprod(np.r_[1, top[:-1] + 1]).astype(np.int64)  # a part as one number
    codes = None if wanted is None else np.unique(wanted[(wanted >= 0).all(axis=1)] @ scale[:n])
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    rows = max(1, CHUNK // max(1, len(b)))
    for start in range(0, len(a), rows):
        sums = a[start : start + rows, None, :] + b[None, :, :]
        fits = (sums <= top).all(axis=2)
        if codes is not None:
            fits &= np.isin(sums[..., :n] @ scale[:n], codes)
        i, j = np.nonzero(fits)
        found.append((start + i, j, sums[i, j]))
    if not found:
        none = np.zeros(0, np.int64)
        return none, none, np.zeros((0, a.shape[1]), np.int64)
    i, j, sums = zip(*found, strict=True)
    return np.concatenate(i), np.concatenate(j), np.concatenate(sums)


def convolve(a: Weights, b: Weights, top: np.ndarray, wanted: np.ndarray | None = None) -> Weights:
    """Each sum of a key of ``a`` and one of ``b``, none above ``top``: weights multiplied.

    ``wanted``: as for ``fitting``, checked before any weight is multiplied.
    """
    for x, y in ((a, b), (b, a)):
        if wanted is None and len(x) == 1 and not x.keys.any() and x.weights[0] == 1:
            return y
    i, j, sums = fitting(a.keys, b.keys, top, wanted)
    return gathered(sums, a.weights[i] * b.weights[j])


def multinomials(rest: np.ndarray) -> np.ndarray:
    """Per row of counts, the orders of a deck holding them: (sum)! / prod(count!); 0 if any < 0."""
    bad = (rest < 0).any(axis=1)
    safe = np.where(rest < 0, 0, rest)
    facts = objects([factorial(n) for n in range(int(safe.sum(axis=1).max(initial=0)) + 1)])
    out = facts[safe.sum(axis=1)]
    for column in safe.T:
        out = out // facts[column]
    out[bad] = 0
    return out


def pairs(wanted: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j) with ``wanted[i]`` equal to ``keys[j]`` (rows of counts); i in order."""
    if not wanted.shape[1]:
        i, j = np.indices((len(wanted), len(keys)))
        return i.ravel(), j.ravel()
    radix = np.maximum(wanted.max(initial=0), keys.max(initial=0)) + 1
    scale = radix ** np.arange(wanted.shape[1], dtype=np.int64)
    want = np.where((wanted < 0).any(axis=1), -1, wanted @ scale)
    have = keys @ scale
    order = np.argsort(have, kind="stable")
    lo = np.searchsorted(have[order], want, "left")
    hi = np.searchsorted(have[order], want, "right")
    counts = hi - lo
    i = np.repeat(np.arange(len(wanted)), counts)  # in order: each row's pairs together
    offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    return i, order[np.repeat(lo, counts) + offsets]


def distinct(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of counts (none negative), and where each row is among them."""
    if not len(rows):
        return rows, np.zeros(0, np.int64)
    scale = np.cumprod(np.r_[1, rows.max(axis=0)[:-1] + 1]).astype(np.int64)
    _, first, where = np.unique(rows @ scale, return_index=True, return_inverse=True)
    return rows[first], where.ravel()
