"""Why a fact is certain: the fewest recorded events that prove it, found by z3.

A holding is certain when the record together with its negation fits no deal. z3's unsat core
names the guarded groups it used (the setup is group 0, event k group k); dropping each in
turn while the rest still prove the fact leaves a minimal set: the fact follows from those
events, and from no set with any one of them left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import z3

from sleuth.errors import InputError
from sleuth.model import Holder, Item
from sleuth.solve import Entailment

if TYPE_CHECKING:
    from sleuth.record import Record


@dataclass(frozen=True)
class Proof:
    """The groups (0: the setup, k: event k) that prove ``holder`` holds ``item``, or not."""

    holder: Holder
    item: Item
    holds: bool
    groups: list[int]


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


def proof(
    record: Record, holder: Holder, item: Item, entail: Entailment | None = None
) -> tuple[Proof, Proof | None] | None:
    """A minimal proof of the holding, or of its absence; None when neither is certain.

    The second proof, when there is one, uses only the events up to the first that made the
    fact certain: the first proof may lean on a later event (a card laid face up).
    The record is taken to fit some deal (the caller checks).
    """
    entail = entail or Entailment(record.model())
    every = list(range(len(entail.guards)))
    for yes in (True, False):
        literal = entail.x[holder, item] if yes else z3.Not(entail.x[holder, item])
        if not proves(entail, every, literal):
            continue
        shortest = Proof(holder, item, yes, minimal(entail, every, literal))
        since = first(entail, literal)
        if since >= max(shortest.groups):
            return shortest, None
        return shortest, Proof(holder, item, yes, minimal(entail, every[: since + 1], literal))
    return None
