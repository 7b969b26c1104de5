"""What a holder must still hit: a check on its whole hand, which the per-tally bounds miss.

A tally of one "at least one" term with a least value of 1 says that its holder holds one of
its items (a search answered only by that player, a tip card seen). A holder with several such
sets and one card left, whose remaining items hit no two of them at once, is dead; the bounds
of ``count._Steps`` look at one tally at a time and keep such a state alive until one of the
sets closes, sometimes ten items later. On one hard 6-player record (seed 9 after 20 events)
this check cuts the states a count makes from 5.65 to 3.31 million.

So after each item the counter checks, for each holder of that item with such sets: the fewest
items ahead that hit every set it has not hit yet must fit in its hand. The fewest is a
minimum hitting set, found per step for every subset of the open sets from which sets each
item ahead hits (at most 2**sets masks, and hands hold 3 cards, so this stays small).
"""

from __future__ import annotations

from collections import defaultdict

FAR = 99  # more items than any hand holds


def musts(p) -> dict[int, list[int]]:
    """For each holder: the tallies that make it hold one item of a set."""
    out = defaultdict(list)
    for c, (refs, values) in enumerate(p.tallies):
        if len(refs) == 1 and min(values) >= 1:
            holder, _, any_ = p.trackers[refs[0]]
            if any_:
                out[holder].append(c)
    return dict(out)


def _fewest(covers: set[int], most: int) -> dict[int, int]:
    """For each union of at most ``most`` covers: the fewest covers that make it."""
    best = {0: 0}
    frontier = {0}
    for n in range(1, most + 1):
        frontier = {m | c for m in frontier for c in covers} - best.keys()
        best.update(dict.fromkeys(frontier, n))
    return best


def needs(p, k: int, must: list[int], tfirst, tlast, position) -> tuple[list[int], list[int]]:
    """After step k: the must-tallies still open, and the fewest items a hand needs.

    The second is indexed by a mask of the open must-tallies not yet hit: the fewest items
    ahead that hit those and every must-tally not yet opened (``FAR`` when no hand can).
    """
    open_ = [c for c in must if tfirst[c] <= k < tlast[c]]
    sets = open_ + [c for c in must if tfirst[c] > k]
    covers = defaultdict(int)
    for bit, c in enumerate(sets):
        (t,) = p.tallies[c][0]
        for item in p.trackers[t][1]:
            if position[item] > k:
                covers[item] |= 1 << bit
    holder = p.trackers[p.tallies[must[0]][0][0]][0]
    best = _fewest(set(covers.values()), p.caps[holder])
    later = sum(1 << bit for bit in range(len(open_), len(sets)))
    table = []
    for mask in range(1 << len(open_)):
        wanted = mask | later
        table.append(min((n for union, n in best.items() if union & wanted == wanted), default=FAR))
    return open_, table
