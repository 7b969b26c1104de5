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


def proof(record: Record, holder: Holder, item: Item, entail: Entailment | None = None):
    """A minimal set of groups proving the holding, or its absence; None when neither is certain.

    The record is taken to fit some deal (the caller checks).
    """
    entail = entail or Entailment(record.model())
    every = list(range(len(entail.guards)))
    for yes in (True, False):
        literal = entail.x[holder, item] if yes else z3.Not(entail.x[holder, item])
        if not proves(entail, every, literal):
            continue
        used = {str(lit) for lit in entail.solver.unsat_core()}
        core = [g for g in every if str(entail.guards[g]) in used]
        for g in list(core):
            trial = [c for c in core if c != g]
            if proves(entail, trial, literal):
                core = trial
        return Proof(holder, item, yes, core)
    return None
