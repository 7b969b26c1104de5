"""Minimum hitting sets: the fewest items ahead that hit every set a holder must still hit.

A tally of one "at least one" term with a least value of 1 says that its holder holds one of
its items (a search answered only by that player, a tip card seen). A holder with several such
sets and one card left, whose remaining items hit no two of them at once, is dead; the bounds
of ``steps.reaches`` look at one tally at a time and keep such a state alive until one of the
sets closes, sometimes ten items later. On one hard 6-player record this check cuts the states
a count makes from 5.65 to 3.31 million.

Both uses read one table, ``fewest``: for every mask of sets, the fewest items (each a *cover*,
the mask of the sets it hits) whose union holds the mask. The counting program checks after
each item, for each holder of that item with such sets, that the fewest items ahead that hit
every set it has not hit yet fit in its hand (``needs``); the forced-hits check of big layers
(``forced.py``) tabulates the rows its reasoning forces a holder to hit.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import numpy as np

FAR = 99  # more items than any hand holds


def fewest(covers: set[int], hand: int, rows: int) -> np.ndarray:
    """For every mask of ``rows`` sets: the fewest covers whose union holds it (up to ``hand``).

    ``FAR`` where more than ``hand`` covers would be needed or none can. Read-only: the same
    covers come back at many steps of a count, and the table is made once for them.
    """
    return _fewest(frozenset(covers), hand, rows)


@lru_cache(maxsize=4096)
def _fewest(covers: frozenset[int], hand: int, rows: int) -> np.ndarray:
    """``fewest``, made."""
    undominated = {c for c in covers if not any(c | d == d != c for d in covers)}
    union = np.full(1 << rows, FAR, np.int8)
    union[0] = 0
    frontier = np.zeros(1, np.int64)
    hit = np.array(sorted(undominated), np.int64)
    for n in range(1, hand + 1):
        if not len(frontier) or not len(hit):
            break
        made = np.unique((frontier[:, None] | hit[None, :]).ravel())
        frontier = made[union[made] == FAR]
        union[frontier] = n
    masks = np.arange(1 << rows)
    for bit in range(rows):  # a mask needs no more than any mask that holds it
        low = masks[masks & (1 << bit) == 0]
        union[low] = np.minimum(union[low], union[low | (1 << bit)])
    union.flags.writeable = False
    return union


def musts(p) -> dict[int, list[int]]:
    """For each holder: the tallies that make it hold one item of a set (strict ones only)."""
    out = defaultdict(list)
    for c, (refs, values) in enumerate(p.tallies):
        if len(refs) == 1 and min(values) >= 1 and not p.group(c):
            holder, _, any_ = p.trackers[refs[0]]
            if any_:
                out[holder].append(c)
    return dict(out)


def needs(p, k: int, must: list[int], tfirst, tlast, position) -> tuple[list[int], np.ndarray]:
    """After step k: the must-tallies still open, and the fewest items a hand needs.

    The second is indexed by a mask of the open must-tallies not yet hit: the fewest items
    ahead that hit those and every must-tally not yet opened (``FAR`` when no hand can).
    """
    open_ = [c for c in must if tfirst[c] <= k < tlast[c]]
    sets = open_ + [c for c in must if tfirst[c] > k]
    covers: dict[int, int] = defaultdict(int)
    for bit, c in enumerate(sets):
        (t,) = p.tallies[c][0]
        for item in p.trackers[t][1]:
            if position[item] > k:
                covers[item] |= 1 << bit
    holder = p.trackers[p.tallies[must[0]][0][0]][0]
    table = fewest(set(covers.values()), p.caps[holder], len(sets))
    later = sum(1 << bit for bit in range(len(open_), len(sets)))
    return open_, table[np.arange(1 << len(open_)) | later]
