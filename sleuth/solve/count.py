"""Exact counts of worlds and of every holding, by dynamic programming over the items.

After propagation (``simplify.reduce``) every item has a domain of possible holders and the
record is a list of residual tallies. Each distinct residual term is a *tracker*: how many of
its items its holder got so far (capped at 1 for an "at least one" term). The program visits
the undecided items one at a time in an order chosen by ``order.race``; a state is

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
import time
from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction

from sleuth.model import Holder, Item, Model, Tally
from sleuth.solve.hits import musts, needs
from sleuth.solve.memory import Remembered
from sleuth.solve.simplify import Contradiction, Reduced, reduce


class BudgetExceeded(Exception):
    """The exact count did not finish within its time budget."""


class TooBig(BudgetExceeded):
    """One run of the count needs more states than its engine may keep (memory bound).

    Another item order may still fit: the count drops the run and goes on with the next.
    """


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
    loose: list[Item]


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
    loose = [i for i in visit if i not in tracked]
    domains = [sorted(index[h] for h in reduced.domains[i]) for i in visit]
    return _Plan(holders, derived, visit, domains, trackers, tallies, free, caps, loose)


def with_order(p: _Plan, tracked: list[Item], reduced: Reduced) -> _Plan:
    """The plan visiting ``tracked`` items in this order, then the loose ones."""
    order = list(tracked) + p.loose
    index = {h: k for k, h in enumerate(p.holders)}
    domains = [sorted(index[h] for h in reduced.domains[i]) for i in order]
    return replace(p, order=order, domains=domains)


def _gains(p: _Plan, refs: list[int], position: dict[Item, int]) -> dict[int, int]:
    """For each position of an item in a tally: the most that item can add to the tally.

    An item goes to one holder, and adds one to each of that holder's terms that contain it
    (at most), so a tally can grow by no more than the sum of these over the items ahead. With
    one item of a row left, a row that needs two more hits is dead however many players could
    still hit it, which the per-term bound alone does not see.
    """
    per: dict[tuple[int, int], int] = defaultdict(int)
    for t in refs:
        holder, items, _ = p.trackers[t]
        for item in items:
            per[position[item], holder] += 1
    out: dict[int, int] = {}
    for (j, _), n in per.items():
        out[j] = max(out.get(j, 0), n)
    return out


class _Steps:
    """The transition of every step: which state follows a state when an item goes to a holder.

    A state is (room left in each holder's hand but the derived one's, the bit of every open
    "at least one" tracker, the current value of every open tally). A tally's value already
    counts every hit so far; a bit only remembers that its holder already hit, so that a
    second hit is not counted twice. Bounds prune states early: a tally above its greatest
    value, or unable to reach its least one with the items and room still left, is dead.
    """

    def __init__(self, p: _Plan):
        self.p = p
        n = len(p.order)
        self.n = n
        position = {item: k for k, item in enumerate(p.order)}
        first = [min(position[i] for i in items) for _, items, _ in p.trackers]
        last = [max(position[i] for i in items) for _, items, _ in p.trackers]
        # each tracker's item positions, and each tally's first step (kept: ``forced.py``)
        self.where = where = [sorted(position[i] for i in items) for _, items, _ in p.trackers]
        self.tfirst = tfirst = [min(first[t] for t in refs) for refs, _ in p.tallies]
        tlast = [max(last[t] for t in refs) for refs, _ in p.tallies]
        self.cap_slots = [h for h in range(len(p.holders)) if h != p.derived]
        self.slot_of = {h: s for s, h in enumerate(self.cap_slots)}
        self.left = [n - k - 1 + len(p.free) for k in range(n)]
        bits = [t for t, (_, _, any_) in enumerate(p.trackers) if any_]
        members = defaultdict(list)
        for c, (refs, _) in enumerate(p.tallies):
            for t in refs:
                members[t].append(c)
        gain = [_gains(p, refs, position) for refs, _ in p.tallies]
        must = musts(p)
        self.hits: list[list[tuple[int, list[int], list[int]]]] = []
        open_b, open_c, self.steps = [], [], []
        self.opened: list[tuple[list[int], list[int]]] = []  # open trackers and tallies per step
        self.width: list[float] = []  # log2 of the tracker and tally values after each step
        for k in range(n):
            new_b = [t for t in bits if first[t] == k]
            new_c = [c for c in range(len(p.tallies)) if tfirst[c] == k]
            open_b, open_c = open_b + new_b, open_c + new_c
            bpos = {t: i for i, t in enumerate(open_b)}
            cpos = {c: i for i, c in enumerate(open_c)}
            self.opened.append((open_b, open_c))
            item = p.order[k]

            def ahead(t, k=k):
                return sum(j > k for j in where[t])

            def potential(c, k=k, bpos=bpos):
                """(bit position or -1, holder, items ahead, any) of each term that may grow."""
                out = []
                for t in p.tallies[c][0]:
                    h, _, any_ = p.trackers[t]
                    if ahead(t):
                        out.append((bpos.get(t, -1) if any_ else -1, h, ahead(t), any_))
                return out

            touched = sorted(
                {
                    cpos[c]
                    for t, (_, items, _) in enumerate(p.trackers)
                    if item in items
                    for c in members[t]
                }
            )
            actions = {}
            for h in p.domains[k]:
                sets = [
                    (bpos[t], [cpos[c] for c in members[t]])
                    for t in open_b
                    if p.trackers[t][0] == h and item in p.trackers[t][1]
                ]
                adds = [
                    cpos[c]
                    for t, (th, items, any_) in enumerate(p.trackers)
                    if th == h and not any_ and item in items
                    for c in members[t]
                ]
                mine = [bpos[t] for t in open_b if p.trackers[t][0] == h]
                emptied = sorted(
                    {
                        cpos[c]
                        for t, (th, _, _) in enumerate(p.trackers)
                        if th == h and ahead(t)
                        for c in members[t]
                        if c in cpos
                    }
                )
                actions[h] = (self.slot_of.get(h), sets, adds, mine, emptied)
            lows = {
                c: (
                    min(p.tallies[open_c[c]][1]),
                    potential(open_c[c]),
                    sum(g for j, g in gain[open_c[c]].items() if j > k),
                )
                for c in range(len(open_c))
            }
            closing = [(cpos[c], p.tallies[c][1]) for c in open_c if tlast[c] == k]
            self.hits.append([])
            for h in p.domains[k]:
                if h in must:
                    still, table = needs(p, k, must[h], tfirst, tlast, position)
                    if max(table) > 0:
                        self.hits[k].append((h, [cpos[c] for c in still], table))
            most = [max(p.tallies[c][1]) for c in open_c]
            keep_b = [i for i, t in enumerate(open_b) if last[t] > k]
            keep_c = [i for i, c in enumerate(open_c) if tlast[c] > k]
            self.steps.append(
                (
                    len(new_b),
                    len(new_c),
                    len(open_b),
                    actions,
                    touched,
                    lows,
                    closing,
                    most,
                    keep_b,
                    keep_c,
                )
            )
            self.width.append(len(keep_b) + sum(math.log2(most[c] + 1) for c in keep_c))
            open_b = [open_b[i] for i in keep_b]
            open_c = [open_c[i] for i in keep_c]

    def _short(self, low, caps, rest, bv, cv_c) -> bool:
        """Whether a tally can no longer reach its least value."""
        least, terms, items = low
        if cv_c + items < least:
            return True
        reach = cv_c
        for bit, h, ahead, any_ in terms:
            slot = self.slot_of.get(h)
            room = rest if slot is None else caps[slot]
            if room:
                if any_:
                    reach += 0 if bit >= 0 and bv[bit] else 1
                else:
                    reach += min(ahead, room)
            if reach >= least:
                return False
        return reach < least

    def next_states(self, k: int, state: tuple) -> list[tuple[int, tuple]]:
        """Every (holder, next state) reachable from ``state`` at step ``k``."""
        (nb, nc, width, actions, touched, lows, closing, most, keep_b, keep_c) = self.steps[k]
        ncap = len(self.cap_slots)
        caps = state[:ncap]
        old_b = state[ncap : ncap + width - nb]
        old_c = state[ncap + width - nb :]
        left = self.left[k]
        out = []
        for h, (slot, sets, adds, mine, emptied) in actions.items():
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
            bv = list(old_b) + [0] * nb
            cv = list(old_c) + [0] * nc
            dead = False
            for bit, tallies in sets:
                if not bv[bit]:
                    bv[bit] = 1
                    for c in tallies:
                        cv[c] += 1
                        dead = dead or cv[c] > most[c]
            for c in adds:
                cv[c] += 1
                dead = dead or cv[c] > most[c]
            if dead:
                continue
            rest = left - sum(new_caps)
            check = touched
            if slot is not None and new_caps[slot] == 0:
                for bit in mine:
                    bv[bit] = 0
                check = sorted(set(touched) | set(emptied))
            if any(self._short(lows[c], new_caps, rest, bv, cv[c]) for c in check):
                continue
            if any(cv[c] not in values for c, values in closing):
                continue
            if any(
                (rest if self.slot_of.get(o) is None else new_caps[self.slot_of[o]])
                < table[sum(1 << i for i, c in enumerate(still) if not cv[c])]
                for o, still, table in self.hits[k]
            ):
                continue
            out.append((h, new_caps + tuple(bv[i] for i in keep_b) + tuple(cv[i] for i in keep_c)))
        return out

    def finish(self, state: tuple) -> list[int]:
        """Cards each holder still takes at the end (the free items), derived one included."""
        caps = list(state[: len(self.cap_slots)])
        out = [0] * len(self.p.holders)
        for slot, h in enumerate(self.cap_slots):
            out[h] = caps[slot]
        out[self.p.derived] = len(self.p.free) - sum(caps)
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


class _Run:
    """A forward pass in one order, which can be advanced a little at a time.

    ``most`` caps the states kept over all layers, so that memory stays well under 1 GiB; a
    count that needs more is treated as out of time.
    """

    most = 3_000_000

    def __init__(self, p: _Plan):
        self.p = p
        self.steps = _Steps(p)
        self.layers = [{tuple(p.caps[h] for h in self.steps.cap_slots): 1}]
        self.size = 1
        self.limit = type(self).most  # as VectorRun's; checked with ``most`` before each step

    @property
    def done(self) -> bool:
        """Whether every item has been visited."""
        return len(self.layers) > len(self.p.order)

    def advance(self, cap: float, deadline: float | None) -> None:
        """Visit items until done or until more than ``cap`` states have been made."""
        while not self.done and self.size <= cap:
            if self.size > self.most:
                raise TooBig
            k = len(self.layers) - 1
            nxt: dict[tuple, int] = defaultdict(int)
            for seen, (state, ways) in enumerate(self.layers[k].items()):
                if deadline is not None and seen % 256 == 0 and time.monotonic() > deadline:
                    raise BudgetExceeded
                for _, after in self.steps.next_states(k, state):
                    nxt[after] += ways
            self.layers.append(nxt)
            self.size += len(nxt)


def count(model: Model, budget: float | None = None, memory: Remembered | None = None) -> Counts:
    """Exact world counts and holding counts; BudgetExceeded after ``budget`` seconds.

    ``memory`` holds the order of the last hard count of the same game: it is tried first, and
    replaced by the order that finishes this one if this one is hard.
    """
    deadline = None if budget is None else time.monotonic() + budget
    space = model.space
    zero = {(h, i): 0 for h in space.holders for i in space.items}
    try:
        reduced = reduce(model)
        p = plan(model, reduced)
    except Contradiction:
        return Counts(0, zero)
    from sleuth.solve.order import BIG, race  # the race needs this module's engines

    tracked = [i for i in p.order if i not in p.loose]
    hint = memory.hint(tracked) if memory is not None else None
    run = race(p, reduced, deadline, hint)
    if memory is not None:
        memory.learn(run.p.order[: len(tracked)] if run.size > BIG else [])
    if isinstance(run, _Run):
        return _backward(run.p, run.steps, run.layers, zero, reduced)
    return run.backward(zero, reduced)


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
    return finished(p, reduced, held, sum(back.values()), free_held)


def finished(p: _Plan, reduced: Reduced, held: dict, total: int, free_held: list[int]) -> Counts:
    """The counts, with the free items and the items fixed before the program filled in."""
    for item in p.free:
        for h, n in enumerate(free_held):
            held[p.holders[h], item] = n
    for item, domain in reduced.domains.items():
        if len(domain) == 1 and item not in p.order and item not in p.free:
            held[next(iter(domain)), item] = total
    return Counts(total, held)
