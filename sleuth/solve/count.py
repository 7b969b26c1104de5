"""Exact counts of worlds and of every holding, by dynamic programming over the items.

After propagation (``simplify.reduce``) every item has a domain of possible holders and the
record is a list of residual tallies. Each distinct residual term is a *tracker*: how many of
its items its holder got so far (capped at 1 for an "at least one" term). The program visits
the undecided items one at a time in a chosen order; a state is

    (cards each holder may still take, the value of every open tracker, the partial sum of
    every open tally)

and its weight is the number of ways to deal the visited items that reach it. Trackers close
when their last item has been visited (their value moves into the partial sums of their
tallies), tallies close at their last item (the partial sum must be one of their values), and a
holder with no cards left folds its trackers the same way. Equal states merge. Items in no
tally with a full domain are interchangeable: they are dealt at the end in one multinomial.

This is exact: every deal reaches exactly one final state along exactly one path, states merge
only when every future choice has the same effect on them, and all arithmetic is on Python
integers. A backward pass gives, for every item and holder, the number of worlds in which the
holder holds the item.
"""

from __future__ import annotations

import math
import random
import time
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from sleuth.model import Holder, Item, Model, Tally
from sleuth.solve.simplify import Contradiction, Reduced, reduce


class BudgetExceeded(Exception):
    """The exact count did not finish within its time budget."""


@dataclass(frozen=True)
class Counts:
    """Exact counts: ``total`` worlds; ``held[(holder, item)]`` worlds where holder holds item."""

    total: int
    held: dict[tuple[Holder, Item], int]

    def probability(self, holder: Holder, item: Item) -> Fraction:
        """The probability that ``holder`` holds ``item``, given the record."""
        return Fraction(self.held[holder, item], self.total) if self.total else Fraction(0)


@dataclass
class _Plan:
    """The items to visit, the trackers and tallies over them, and where each opens and closes."""

    holders: list[Holder]
    derived: int
    order: list[Item]
    domains: list[list[int]]
    trackers: list[tuple[int, frozenset[Item], bool]]
    tallies: list[tuple[list[int], frozenset[int]]]
    free: list[Item]
    caps: list[int]


def _trackers(tallies: tuple[Tally, ...], index: dict[Holder, int]):
    """Distinct terms as trackers (holder index, items, any) and tallies as tracker lists."""
    ids: dict[tuple, int] = {}
    out = []
    for tally in tallies:
        refs = []
        for term in tally.terms:
            key = (index[term.holder], term.items, term.any)
            refs.append(ids.setdefault(key, len(ids)))
        out.append((refs, tally.values))
    return list(ids), out


def _open_cost(tracker, sizes) -> float:
    """log2 of how many values an open tracker can take."""
    holder, items, any_ = tracker
    return 1.0 if any_ else math.log2(min(len(items), sizes[holder]) + 1)


def _greedy_order(items, trackers, sizes, rng) -> tuple[list[Item], float]:
    """An item order that keeps few trackers open, and its estimated work."""
    members = defaultdict(list)
    for t, (_, titems, _) in enumerate(trackers):
        for item in titems:
            members[item].append(t)
    left = {t: len(trackers[t][1]) for t in range(len(trackers))}
    cost = [_open_cost(t, sizes) for t in trackers]
    remaining, order, open_, work = set(items), [], set(), 0.0
    while remaining:
        best, best_key = None, None
        for item in remaining:
            opened = sum(cost[t] for t in members[item] if t not in open_ and left[t] > 1)
            closed = sum(cost[t] for t in members[item] if t in open_ and left[t] == 1)
            key = (opened - closed, -closed, rng.random())
            if best_key is None or key < best_key:
                best, best_key = item, key
        remaining.discard(best)
        order.append(best)
        for t in members[best]:
            left[t] -= 1
            if left[t] == 0:
                open_.discard(t)
            else:
                open_.add(t)
        work += 2.0 ** sum(cost[t] for t in open_)
    return order, work


def _order(items, trackers, sizes, tries: int = 8) -> list[Item]:
    """The best of a few greedy orders (ties broken at random, seeded for repeatability)."""
    rng = random.Random(0)
    items = sorted(items, key=lambda i: (len(i), i))
    return min(
        (_greedy_order(items, trackers, sizes, rng) for _ in range(tries)), key=lambda pair: pair[1]
    )[0]


def plan(model: Model, reduced: Reduced) -> _Plan:
    """Choose the items to visit, their order, and the trackers and tallies over them."""
    space = model.space
    holders = [h for h in space.holders if space.sizes[h] > 0]
    index = {h: k for k, h in enumerate(holders)}
    trackers, tallies = _trackers(reduced.tallies, index)
    caps = [space.sizes[h] for h in holders]
    tracked = {i for _, items, _ in trackers for i in items}
    full = frozenset(holders)
    visit, free = [], []
    for item in space.items:
        domain = reduced.domains[item]
        if len(domain) == 1 and item not in tracked:
            caps[index[next(iter(domain))]] -= 1
        elif item in tracked or domain != full:
            visit.append(item)
        else:
            free.append(item)
    if min(caps, default=0) < 0:
        raise Contradiction
    with_trackers = {h for h, _, _ in trackers}
    derived = max(range(len(holders)), key=lambda k: (k not in with_trackers, caps[k]))
    sizes = [space.sizes[h] for h in holders]
    order = _order(visit, trackers, sizes)
    domains = [sorted(index[h] for h in reduced.domains[i]) for i in order]
    return _Plan(holders, derived, order, domains, trackers, tallies, free, caps)


class _Steps:
    """The transition of every step: which state follows a state when an item goes to a holder."""

    def __init__(self, p: _Plan):
        self.p = p
        n = len(p.order)
        position = {item: k for k, item in enumerate(p.order)}
        first = [min(position[i] for i in items) for _, items, _ in p.trackers]
        last = [max(position[i] for i in items) for _, items, _ in p.trackers]
        tfirst = [min(first[t] for t in refs) for refs, _ in p.tallies]
        tlast = [max(last[t] for t in refs) for refs, _ in p.tallies]
        self.cap_slots = [k for k in range(len(p.holders)) if k != p.derived]
        self.slot_of = {h: s for s, h in enumerate(self.cap_slots)}
        open_t, open_c = [], []
        self.steps = []
        for k in range(n):
            open_t = open_t + [t for t in range(len(p.trackers)) if first[t] == k]
            open_c = open_c + [c for c in range(len(p.tallies)) if tfirst[c] == k]
            added = (
                sum(first[t] == k for t in range(len(p.trackers))),
                sum(tfirst[c] == k for c in range(len(p.tallies))),
            )
            feeds = [
                [
                    open_c.index(c)
                    for c in range(len(p.tallies))
                    if t in p.tallies[c][0] and c in open_c
                ]
                for t in open_t
            ]
            item = p.order[k]
            hits = {
                h: [
                    (pos, p.trackers[t][2])
                    for pos, t in enumerate(open_t)
                    if p.trackers[t][0] == h and item in p.trackers[t][1]
                ]
                for h in p.domains[k]
            }
            mine = {
                h: [pos for pos, t in enumerate(open_t) if p.trackers[t][0] == h]
                for h in p.domains[k]
            }
            closing_t = [pos for pos, t in enumerate(open_t) if last[t] == k]
            closing_c = [(pos, p.tallies[c][1]) for pos, c in enumerate(open_c) if tlast[c] == k]
            most = [max(p.tallies[c][1]) for c in open_c]
            keep_t = [pos for pos, t in enumerate(open_t) if last[t] > k]
            keep_c = [pos for pos, c in enumerate(open_c) if tlast[c] > k]
            self.steps.append(
                (added, feeds, hits, mine, closing_t, closing_c, most, keep_t, keep_c, len(open_t))
            )
            open_t = [open_t[pos] for pos in keep_t]
            open_c = [open_c[pos] for pos in keep_c]
        self.left = [n - k - 1 + len(p.free) for k in range(n)]

    def next_states(self, k: int, state: tuple) -> list[tuple[int, tuple]]:
        """Every (holder, next state) reachable from ``state`` at step ``k``."""
        (added, feeds, hits, mine, closing_t, closing_c, most, keep_t, keep_c, width) = self.steps[
            k
        ]
        ncap = len(self.cap_slots)
        caps = state[:ncap]
        old_t = state[ncap : ncap + width - added[0]]
        old_c = state[ncap + width - added[0] :]
        left = self.left[k]
        out = []
        for h in self.p.domains[k]:
            slot = self.slot_of.get(h)
            if slot is None:
                if left + 1 - sum(caps) <= 0:
                    continue
                new_caps = caps
            else:
                if caps[slot] == 0:
                    continue
                new_caps = caps[:slot] + (caps[slot] - 1,) + caps[slot + 1 :]
                if sum(new_caps) > left:
                    continue
            tv = list(old_t) + [0] * added[0]
            pv = list(old_c) + [0] * added[1]
            for pos, any_ in hits[h]:
                tv[pos] = 1 if any_ else tv[pos] + 1
            fold = list(closing_t)
            if slot is not None and new_caps[slot] == 0:
                fold += [pos for pos in mine[h] if pos not in closing_t]
            dead = False
            for pos in fold:
                value = tv[pos]
                if value:
                    tv[pos] = 0
                    for c in feeds[pos]:
                        pv[c] += value
                        if pv[c] > most[c]:
                            dead = True
            if dead:
                continue
            if any(pv[pos] not in values for pos, values in closing_c):
                continue
            out.append(
                (h, new_caps + tuple(tv[pos] for pos in keep_t) + tuple(pv[pos] for pos in keep_c))
            )
        return out

    def finish(self, state: tuple) -> list[int]:
        """Cards each holder still takes at the end (the free items), derived one included."""
        caps = list(state[: len(self.cap_slots)])
        rest = len(self.p.free) - sum(caps)
        out = [0] * len(self.p.holders)
        for slot, h in enumerate(self.cap_slots):
            out[h] = caps[slot]
        out[self.p.derived] = rest
        return out


def _multinomial(parts: list[int]) -> int:
    """The number of ways to deal sum(parts) distinct items into hands of these sizes."""
    if min(parts) < 0:
        return 0
    ways, n = 1, 0
    for part in parts:
        n += part
        ways *= math.comb(n, part)
    return ways


def count(model: Model, budget: float | None = None) -> Counts:
    """Exact world counts and holding counts; BudgetExceeded after ``budget`` seconds."""
    deadline = None if budget is None else time.monotonic() + budget
    space = model.space
    zero = {(h, i): 0 for h in space.holders for i in space.items}
    try:
        reduced = reduce(model)
        p = plan(model, reduced)
    except Contradiction:
        return Counts(0, zero)
    steps = _Steps(p)
    start = tuple(p.caps[h] for h in steps.cap_slots)
    layers = [{start: 1}]
    for k in range(len(p.order)):
        nxt: dict[tuple, int] = defaultdict(int)
        for seen, (state, ways) in enumerate(layers[k].items()):
            if deadline is not None and seen % 2048 == 0 and time.monotonic() > deadline:
                raise BudgetExceeded
            for _, after in steps.next_states(k, state):
                nxt[after] += ways
        layers.append(nxt)
    return _backward(p, steps, layers, zero, reduced)


def _backward(p: _Plan, steps: _Steps, layers, held, reduced: Reduced) -> Counts:
    """Total and per-holding counts from the forward layers."""
    nfree = len(p.free)
    back = {}
    free_held = [0] * len(p.holders)
    for state, ways in layers[-1].items():
        parts = steps.finish(state)
        mult = _multinomial(parts)
        back[state] = mult
        if nfree and mult:
            for h, part in enumerate(parts):
                free_held[h] += ways * (mult * part // nfree)
    for k in range(len(p.order) - 1, -1, -1):
        item, here, row = p.order[k], {}, defaultdict(int)
        for state, ways in layers[k].items():
            acc = 0
            for h, after in steps.next_states(k, state):
                value = back.get(after, 0)
                acc += value
                row[h] += ways * value
            here[state] = acc
        for h, n in row.items():
            held[p.holders[h], item] = n
        back = here
    total = sum(back.values())
    for item in p.free:
        for h, n in enumerate(free_held):
            held[p.holders[h], item] = n
    for item, domain in reduced.domains.items():
        if len(domain) == 1 and item not in p.order and item not in p.free:
            held[next(iter(domain)), item] = total
    return Counts(total, held)
