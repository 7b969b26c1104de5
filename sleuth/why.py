"""Why a fact is certain: the fewest recorded events that prove it, found by z3.

A holding is certain when the record together with its negation fits no deal. z3's unsat core
names the guarded groups it used (the setup is group 0, event k group k); dropping each in
turn while the rest still prove the fact leaves a minimal set (``Entailment.minimal``): the
fact follows from those events, and from no set with any one of them left out.

A minimal set need not be the smallest; ``sleuth.solve.proof.smallest`` looks for the smallest
by hitting sets. After ``WORK`` units of z3's work (not of time, so that every machine, however
fast or busy, finds the same proofs) the search ends; then the minimal set is kept, and said to
be only minimal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sleuth.deduce import follows
from sleuth.errors import InputError
from sleuth.model import Holder, Item, holds
from sleuth.solve import Entailment, firsts, smallest

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
    said: str = ""  # how its reason may be said (``worded``): "stated", "counted" or ""


PLAIN = 4  # at most this many groups for a reason in the game's plain words


def worded(record: Record, found: Proof) -> Proof:
    """``found`` with how its reason may be said, in ``said``.

    "stated": its one group states the fact itself (a right guess); "counted": the fact follows
    from what at most ``PLAIN`` groups state by simple counting (``sleuth.deduce``), so the
    game's plain words of those groups are its reason; "": only in general.
    """
    pair = (found.holder, found.item)
    model = record.model()
    said = ""
    if len(found.groups) <= PLAIN and follows(model, found.groups, pair, found.holds):
        fact = holds(found.holder, found.item, found.holds)
        alone = len(found.groups) == 1 and fact in model.groups[found.groups[0]]
        said = "stated" if alone else "counted"
    return replace(found, said=said)


# z3's work (``Entailment.work``) to look for the smallest proofs of a fact: on this machine,
# proving the 124 facts of the examples took 0.07 s (median), 0.38 s at most
WORK = 1_000_000


def fact(
    record: Record,
    holder: str,
    item: str,
    holdings: tuple[tuple[Holder, ...], tuple[Item, ...]],
) -> tuple[Holder, Item]:
    """The holder (a unique prefix of a player, or a place such as aside) and the item named.

    ``holdings``: the game's holders and items (``Belief.holdings``).
    """
    holders, known = holdings
    places = [h for h in holders if h not in record.table.players]
    place = [h for h in places if h.casefold() == holder.casefold()]
    who = place[0] if place else record.table.prefix(holder, "holder")
    items = [i for i in known if i.casefold() == item.strip().casefold()]
    if not items:
        raise InputError("", "item", f"{item!r} is not an item of this game, e.g. {known[0]}")
    return who, items[0]


def fewest(
    groups: list[int], pair: tuple[Holder, Item], yes: bool, entail: Entailment, until: int
) -> Proof:
    """The smallest proof among ``groups`` if found by ``until`` (z3's work), else a minimal one."""
    core = entail.minimal(groups, pair, yes)
    least = smallest(entail, groups, pair, yes, core, until)
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
    until = entail.work() + WORK
    pair = (holder, item)
    for yes in (True, False):
        if not entail.proves(every, pair, yes):
            continue
        shortest = worded(record, fewest(every, pair, yes, entail, until))
        since = firsts(entail, {pair}, yes)[pair]
        if since >= max(shortest.groups):
            return shortest, None
        earlier = fewest(every[: since + 1], pair, yes, entail, until)
        return shortest, worded(record, earlier)
    return None
