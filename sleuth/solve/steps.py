"""The transitions of the counting program: which state follows a state when an item is dealt.

The program visits the planned items one at a time; a state is

    (room left in each holder's hand but the derived one's, the bit of every open "at least
    one" tracker, the partial sum of every open tally)

A tally's value already counts every hit so far; a bit only remembers that its holder already
hit, so that a second hit is not counted twice. Trackers close when their last item has been
visited, tallies close at their last item (the partial sum must be one of their values), and a
holder with no cards left clears its bits. Bounds prune states early: a tally above its
greatest value, or unable to reach its least one with the items and room still left
(``reaches``), is dead, and so is a hand that cannot hit every set it must (``hits``).

Both engines run these steps: ``reference.DictRun`` state by state, ``vector.VectorRun`` on whole
layers; they keep exactly the same states.

A plan with tolerable groups (``Plan.groups``: answers that may be wrong) counts the deals that
break at most one of them, each once. The state then ends with a *label*: 0 while no answer is
broken, the code (1 to G) of the group broken while it still has open tallies, ``settled`` (G
+ 1) once they have all closed. A tolerable tally that fails a bound or its values (one whose
group is the label is not checked) sets the label from 0, and kills the state if it is already
set; a strict one kills it as before. The open tallies of the label's group are kept at 0 (their
sums no longer matter), so that such states merge.

A plan's asked tally (``Plan.asked``) allows every value it can take, so no check ever fails
on it, and it closes after the last step: its sum is the one field of a final state after the
caps (``answer``).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from sleuth.solve.hits import musts, needs
from sleuth.solve.plan import Plan


class Action(NamedTuple):
    """What dealing a step's item to one holder changes (indices are step-local)."""

    slot: int | None  # the holder's room in the state; None for the derived holder
    sets: list[tuple[int, list[int]]]  # (bit it sets, tallies that grow when the bit is new)
    adds: list[int]  # tallies that grow by one (terms that count items)
    mine: list[int]  # the holder's bits, cleared when its hand fills
    emptied: list[int]  # tallies to check again when its hand fills (its terms stop growing)


class Potential(NamedTuple):
    """A term of an open tally that may still grow after a step."""

    bit: int  # its bit in the state, or -1 (not an open bit: a count, or not opened yet)
    holder: int
    ahead: int  # its items after this step
    any: bool


class Low(NamedTuple):
    """What an open tally needs: its least value, its terms that may grow, its gain bound."""

    least: int
    terms: list[Potential]
    items: int  # the most the items ahead can add to it (``_gains``)


class Hits(NamedTuple):
    """A holder that must hit several sets: its open must-tallies, and the hand each mask needs."""

    holder: int
    still: list[int]  # its open must-tallies (step-local)
    table: np.ndarray  # by mask of those not hit yet: the fewest items ahead (``hits.needs``)


@dataclass(frozen=True)
class Transition:
    """One step of the program: the item at position k, and how each state moves on."""

    opened_bits: int  # bits that open at this step (appended to the state's bits)
    opened_tallies: int  # tallies that open at this step (appended to its tallies)
    bits: int  # the bits open at this step, the new ones included
    actions: dict[int, Action]  # by holder of the item
    touched: list[int]  # tallies that the item may change
    lows: dict[int, Low]  # by open tally
    closing: list[tuple[int, frozenset[int]]]  # tallies whose last item this is, their values
    greatest: list[int]  # greatest value of each open tally
    keep_bits: list[int]  # the open bits still open after the step
    keep_tallies: list[int]  # the open tallies still open after the step
    hits: list[Hits]
    codes: list[int]  # per open tally: its group's label code, 0 if strict
    settling: frozenset[int]  # the codes of the groups whose last tally closes here

    def width(self) -> float:
        """log2 of the values of the trackers and tallies still open after the step."""
        kept = sum(math.log2(self.greatest[c] + 1) for c in self.keep_tallies)
        return len(self.keep_bits) + kept


def share(term: Potential, room, hit):
    """What a term may still add to its tally, with its holder's room and whether its bit is set.

    One item ahead per hit for a term that counts items, one in all for an "at least one" term
    not hit yet; on ints or on numpy arrays alike.
    """
    if term.any:
        return (room > 0) & (hit == 0)
    return np.minimum(room, term.ahead)


def reaches(low: Low, value, shares):
    """Whether a tally can still reach its least value: with its terms' shares, and its items."""
    return (value + shares >= low.least) & (value + low.items >= low.least)


def _gains(p: Plan, refs: list[int], position: dict) -> dict[int, int]:
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


class _Spans:
    """Where each tracker and tally of a plan lives in its order, and what each step makes.

    A tracker lives from its first item to its last; a tally from its trackers' first item to
    their last (the asked tally to the end). ``transition`` makes step k from the trackers and
    tallies open at it.
    """

    def __init__(self, p: Plan, slot_of: dict[int, int]):
        self.p, self.slot_of = p, slot_of
        n = len(p.order)
        self.position = position = {item: k for k, item in enumerate(p.order)}
        self.where = [sorted(position[i] for i in items) for _, items, _ in p.trackers]
        self.first = [where[0] for where in self.where]
        self.last = [where[-1] for where in self.where]
        self.tfirst = [min(self.first[t] for t in refs) for refs, _ in p.tallies]
        self.tlast = [max(self.last[t] for t in refs) for refs, _ in p.tallies]
        if p.asked is not None:  # open to the end: the final states keep its value
            self.tlast[p.asked] = n
        self.bits = [t for t, (_, _, any_) in enumerate(p.trackers) if any_]
        self.members: dict[int, list[int]] = defaultdict(list)  # by tracker: its tallies
        for c, (refs, _) in enumerate(p.tallies):
            for t in refs:
                self.members[t].append(c)
        self.gain = [_gains(p, refs, position) for refs, _ in p.tallies]
        self.must = musts(p)
        self.tolerated = sorted({p.group(c) for c in range(len(p.tallies))} - {0})
        self.code = {g: k + 1 for k, g in enumerate(self.tolerated)}
        self.code[0] = 0
        self.glast: dict[int, int] = {}  # by group: the step of its last tally
        for c in range(len(p.tallies)):
            self.glast[p.group(c)] = max(self.glast.get(p.group(c), -1), self.tlast[c])

    def opening(self, k: int) -> tuple[list[int], list[int]]:
        """The bits and the tallies that open at step k."""
        bits = [t for t in self.bits if self.first[t] == k]
        tallies = [c for c in range(len(self.p.tallies)) if self.tfirst[c] == k]
        return bits, tallies

    def ahead(self, t: int, k: int) -> int:
        """Tracker t's items after step k."""
        return len(self.where[t]) - bisect_right(self.where[t], k)  # ``where[t]`` is sorted

    def _potential(self, c: int, k: int, bpos: dict[int, int]) -> list[Potential]:
        """Each term of tally c that may grow after step k."""
        out = []
        for t in self.p.tallies[c][0]:
            h, _, any_ = self.p.trackers[t]
            if self.ahead(t, k):
                out.append(Potential(bpos.get(t, -1) if any_ else -1, h, self.ahead(t, k), any_))
        return out

    def _action(self, k: int, h: int, open_b: list[int], bpos, cpos) -> Action:
        """What dealing item k to holder h changes."""
        p, item, members = self.p, self.p.order[k], self.members
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
                if th == h and self.ahead(t, k)
                for c in members[t]
                if c in cpos
            }
        )
        return Action(self.slot_of.get(h), sets, adds, mine, emptied)

    def _touched(self, k: int, cpos: dict[int, int]) -> list[int]:
        """The open tallies that item k may change."""
        item = self.p.order[k]
        return sorted(
            {
                cpos[c]
                for t, (_, items, _) in enumerate(self.p.trackers)
                if item in items
                for c in self.members[t]
            }
        )

    def _low(self, c: int, k: int, bpos: dict[int, int]) -> Low:
        """What tally c needs after step k."""
        ahead = sum(g for j, g in self.gain[c].items() if j > k)
        return Low(min(self.p.tallies[c][1]), self._potential(c, k, bpos), ahead)

    def _hits(self, k: int, cpos: dict[int, int]) -> list[Hits]:
        """The holders of item k that must still hit several sets (``hits.needs``)."""
        out = []
        for h in self.p.domains[k]:
            if h in self.must:
                must = self.must[h]
                still, table = needs(self.p, k, must, self.tfirst, self.tlast, self.position)
                if max(table) > 0:
                    out.append(Hits(h, [cpos[c] for c in still], table))
        return out

    def transition(self, k: int, open_b: list[int], open_c: list[int], new: tuple) -> Transition:
        """Step k, with the bits and tallies open at it (``new``: how many of each opened)."""
        p = self.p
        bpos = {t: i for i, t in enumerate(open_b)}
        cpos = {c: i for i, c in enumerate(open_c)}
        return Transition(
            new[0],
            new[1],
            len(open_b),
            {h: self._action(k, h, open_b, bpos, cpos) for h in p.domains[k]},
            self._touched(k, cpos),
            {i: self._low(c, k, bpos) for i, c in enumerate(open_c)},
            [(cpos[c], p.tallies[c][1]) for c in open_c if self.tlast[c] == k],
            [max(p.tallies[c][1]) for c in open_c],
            [i for i, t in enumerate(open_b) if self.last[t] > k],
            [i for i, c in enumerate(open_c) if self.tlast[c] > k],
            self._hits(k, cpos),
            [self.code[p.group(c)] for c in open_c],
            frozenset(self.code[g] for g in self.tolerated if self.glast[g] == k),
        )


class Steps:
    """Every step of a plan in its order, and the state before the first."""

    def __init__(self, p: Plan):
        self.p = p
        n = len(p.order)
        self.cap_slots = [h for h in range(len(p.holders)) if h != p.derived]
        self.slot_of = {h: s for s, h in enumerate(self.cap_slots)}
        self.left = [n - k - 1 + len(p.free) for k in range(n)]
        spans = _Spans(p, self.slot_of)
        self.where, self.tfirst = spans.where, spans.tfirst
        self.tolerant = bool(spans.tolerated)
        self.settled = len(spans.tolerated) + 1  # the label once the broken group has closed
        self.steps: list[Transition] = []
        self.opened: list[tuple[list[int], list[int]]] = []  # open trackers and tallies per step
        self.width: list[float] = []  # log2 of the tracker and tally values after each step
        open_b: list[int] = []
        open_c: list[int] = []
        for k in range(n):
            new_b, new_c = spans.opening(k)
            open_b, open_c = open_b + new_b, open_c + new_c
            self.opened.append((open_b, open_c))
            step = spans.transition(k, open_b, open_c, (len(new_b), len(new_c)))
            self.steps.append(step)
            self.width.append(step.width())
            open_b = [open_b[i] for i in step.keep_bits]
            open_c = [open_c[i] for i in step.keep_tallies]

    def start(self) -> tuple:
        """The state before the first step: every hand's whole room (and label 0)."""
        return tuple(self.p.caps[h] for h in self.cap_slots) + (0,) * self.tolerant

    def labelled(self, step: Transition, label: int, failed: set[int]) -> int | None:
        """The label after a move whose checks ``failed`` (open tallies); None if it is dead.

        ``failed`` holds no tally of the label's own group: those are not checked.
        """
        codes = {step.codes[c] for c in failed}
        if 0 in codes or len(codes) > 1 or (codes and label):
            return None
        label = codes.pop() if codes else label
        return self.settled if label in step.settling else label

    def room(self, holder: int, caps, rest):
        """A holder's room: its cap in the state, or for the derived holder what the rest leave."""
        slot = self.slot_of.get(holder)
        return rest if slot is None else caps[slot]

    def _short(self, low: Low, caps, rest, bv, value) -> bool:
        """Whether a tally can no longer reach its least value (``reaches``)."""
        shares = sum(
            share(term, self.room(term.holder, caps, rest), bv[term.bit] if term.bit >= 0 else 0)
            for term in low.terms
        )
        return not reaches(low, value, shares)

    def next_states(self, k: int, state: tuple) -> list[tuple[int, tuple]]:
        """Every (holder, next state) reachable from ``state`` at step ``k``."""
        step = self.steps[k]
        nb, nc, greatest = step.opened_bits, step.opened_tallies, step.greatest
        ncap = len(self.cap_slots)
        label = state[-1] if self.tolerant else 0
        body = state[:-1] if self.tolerant else state
        caps = body[:ncap]
        old_b = body[ncap : ncap + step.bits - nb]
        old_c = body[ncap + step.bits - nb :]
        left = self.left[k]
        out = []
        for h, (slot, sets, adds, mine, emptied) in step.actions.items():
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
            grown = set(adds)
            for bit, tallies in sets:
                if not bv[bit]:
                    bv[bit] = 1
                    for c in tallies:
                        cv[c] += 1
                        grown.add(c)
            for c in adds:
                cv[c] += 1
            failed = {c for c in grown if cv[c] > greatest[c]}
            rest = left - sum(new_caps)
            check = step.touched
            if slot is not None and new_caps[slot] == 0:
                for bit in mine:
                    bv[bit] = 0
                check = sorted(set(step.touched) | set(emptied))
            ahead = [c for c in check if c not in failed]
            failed |= {c for c in ahead if self._short(step.lows[c], new_caps, rest, bv, cv[c])}
            failed |= {c for c, values in step.closing if cv[c] not in values}
            if any(
                self.room(o, new_caps, rest)
                < table[sum(1 << i for i, c in enumerate(still) if not cv[c])]
                for o, still, table in step.hits
            ):
                continue
            if self.tolerant:
                failed = {c for c in failed if not label or step.codes[c] != label}
                after = self.labelled(step, label, failed)
                if after is None:
                    continue
                pairs = zip(cv, step.codes, strict=True)
                cv = [0 if after and code == after else v for v, code in pairs]
                tail: tuple = (after,)
            elif failed:
                continue
            else:
                tail = ()
            keep = tuple(bv[i] for i in step.keep_bits) + tuple(cv[i] for i in step.keep_tallies)
            out.append((h, new_caps + keep + tail))
        return out

    def answer(self, state: tuple) -> int:
        """The asked tally's value in a final state (``Plan.asked``): the one field after the caps.

        Every tracker and every other tally has closed by then.
        """
        return state[len(self.cap_slots)]

    def finish(self, state: tuple) -> list[int]:
        """Cards each holder still takes at the end (the free items), derived one included."""
        caps = list(state[: len(self.cap_slots)])
        out = [0] * len(self.p.holders)
        for slot, h in enumerate(self.cap_slots):
            out[h] = caps[slot]
        out[self.p.derived] = len(self.p.free) - sum(caps)
        return out
