"""Why a fact is certain: the fewest recorded events that prove it, found by z3.

A holding is certain when the record together with its negation fits no deal. z3's unsat core
names the guarded groups it used (the setup is group 0, event k group k); dropping each in
turn while the rest still prove the fact leaves a minimal set: the fact follows from those
events, and from no set with any one of them left out.

A minimal set need not be the smallest. The smallest is found by hitting sets: every set of
groups that fits a deal without the fact leaves the others as a correction set, which each
proof must meet. The fewest groups that meet every correction set found so far either prove
the fact (then no smaller set does) or fit such a deal, which yields one more correction set.
After ``SMALLEST`` seconds of processor time (not of the clock, so that a busy machine finds
the same proofs) the search ends; then the minimal set is kept, and said to be only minimal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import z3

from sleuth.errors import InputError
from sleuth.model import Deal, Holder, Item
from sleuth.solve import Entailment

if TYPE_CHECKING:
    from sleuth.record import Record


@dataclass(frozen=True)
class Proof:
    """The groups (0: the setup, k: event k) that prove ``holder`` holds ``item``, or not.

    ``smallest``: no set of fewer groups proves it (else the set is only minimal).
    """

    holder: Holder
    item: Item
    holds: bool
    groups: list[int]
    smallest: bool = False


SMALLEST = 0.3  # seconds of this process's time (z3's included) to look for the smallest proofs


def fact(record: Record, holder: str, item: str) -> tuple[Holder, Item]:
    """The holder (a unique prefix of a player, or a place such as aside) and the item named."""
    space = record.model().space
    places = [h for h in space.holders if h not in record.table.players]
    place = [h for h in places if h.casefold() == holder.casefold()]
    who = place[0] if place else record.table.prefix(holder, "holder")
    items = [i for i in space.items if i.casefold() == item.strip().casefold()]
    if not items:
        raise InputError("", "item", f"{item!r} is not an item of this game, e.g. {space.items[0]}")
    return who, items[0]


def proves(entail: Entailment, groups: list[int], literal: z3.BoolRef) -> bool:
    """Whether the groups admit no deal in which ``literal`` is false."""
    assume = [entail.guards[g] for g in groups] + [z3.Not(literal)]
    return entail.solver.check(assume) == z3.unsat


def first(entail: Entailment, literal: z3.BoolRef) -> int:
    """The first prefix of the record (0: the setup) that proves ``literal``, by bisection."""
    low, high = 0, len(entail.guards) - 1
    while low < high:
        mid = (low + high) // 2
        low, high = (low, mid) if proves(entail, list(range(mid + 1)), literal) else (mid + 1, high)
    return low


def minimal(entail: Entailment, groups: list[int], literal: z3.BoolRef) -> list[int]:
    """A minimal subset of ``groups`` (which prove ``literal``) that still proves it."""
    proves(entail, groups, literal)
    used = {str(lit) for lit in entail.solver.unsat_core()}
    core = [g for g in groups if str(entail.guards[g]) in used]
    for g in list(core):
        trial = [c for c in core if c != g]
        if proves(entail, trial, literal):
            core = trial
    return core


class Dealer:
    """Reads the deal of the solver's last model in one evaluation, not one per holding.

    Every holding literal is packed into a single bit-vector.
    """

    def __init__(self, entail: Entailment):
        self.entail = entail
        self.pairs = list(entail.x)
        one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
        self.packed = z3.Concat([z3.If(entail.x[p], one, zero) for p in reversed(self.pairs)])

    def deal(self) -> Deal:
        """The deal of the last model (bit k: holding k of ``pairs``)."""
        bits = self.entail.solver.model().eval(self.packed).as_long()
        return {i: h for k, (h, i) in enumerate(self.pairs) if bits >> k & 1}


def grown(dealer: Dealer, start: set[int], groups: list[int], literal) -> set[int]:
    """A maximal set of ``groups`` that fits a deal without ``literal``, grown from ``start``.

    ``start`` fits one; each group that a deal found satisfies is taken at once.
    """
    entail, keep = dealer.entail, set(start)
    for g in groups:
        if g not in keep and not proves(entail, sorted(keep | {g}), literal):
            found = dealer.deal()
            keep |= {h for h in groups if all(t.holds(found) for t in entail.model.groups[h])}
    return keep


def smallest(
    entail: Entailment, groups: list[int], literal, core: list[int], deadline: float
) -> list[int] | None:
    """The fewest of ``groups`` that prove ``literal``, or None past ``deadline``.

    ``core`` is a minimal proof: a smaller one is looked for only below its size;
    ``deadline`` is a time of ``time.process_time``.
    """
    dealer = Dealer(entail)
    pick = {g: z3.Bool(f"pick|{g}") for g in groups}
    search = z3.Optimize()
    search.minimize(z3.Sum([z3.If(b, 1, 0) for b in pick.values()]))
    while time.process_time() < deadline:
        search.check()
        model = search.model()
        chosen = [g for g in groups if z3.is_true(model.eval(pick[g]))]
        if len(chosen) >= len(core):
            return core
        if proves(entail, chosen, literal):
            return chosen
        fits = grown(dealer, set(chosen), groups, literal)
        search.add(z3.Or([pick[g] for g in groups if g not in fits]))
    return None


def fewest(
    groups: list[int], literal, pair: tuple[Holder, Item], yes: bool, entail, deadline
) -> Proof:
    """The smallest proof among ``groups`` when found by ``deadline``, else a minimal one."""
    core = minimal(entail, groups, literal)
    least = smallest(entail, groups, literal, core, deadline)
    return Proof(*pair, yes, core if least is None else least, least is not None)


def proof(
    record: Record, holder: Holder, item: Item, entail: Entailment | None = None
) -> tuple[Proof, Proof | None] | None:
    """The smallest (else a minimal) proof of the holding or of its absence; None if neither.

    The second proof, when there is one, uses only the events up to the first that made the
    fact certain: the first proof may lean on a later event (a card laid face up).
    The record is taken to fit some deal (the caller checks).
    """
    entail = entail or Entailment(record.model())
    every = list(range(len(entail.guards)))
    deadline = time.process_time() + SMALLEST
    for yes in (True, False):
        literal = entail.x[holder, item] if yes else z3.Not(entail.x[holder, item])
        if not proves(entail, every, literal):
            continue
        shortest = fewest(every, literal, (holder, item), yes, entail, deadline)
        since = first(entail, literal)
        if since >= max(shortest.groups):
            return shortest, None
        return shortest, fewest(every[: since + 1], literal, (holder, item), yes, entail, deadline)
    return None
