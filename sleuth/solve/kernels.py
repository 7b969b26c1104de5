"""Two inner loops of the layer engine, compiled by numba (imported only once it is loaded).

Numpy does each of these in several passes over whole arrays, each making a temporary array;
these loops make one pass and no arrays. The engine takes them only in a process where numba is
already loaded (by the hash-table merge, ``merge.loaded``), and does the same in numpy
otherwise, with the same results.
"""

from __future__ import annotations

import numpy as np
from numba import njit


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
