"""The plan of a count: the items to visit, the trackers and tallies over them, the free rest.

After propagation (``simplify.reduce``) every item has a domain of possible holders and the
record is a list of residual tallies. Each distinct residual term is a *tracker*: how many of
its items its holder got so far (capped at 1 for an "at least one" term). Items in no tally
with a full domain are *free*: interchangeable, dealt at the end in one multinomial; items with
one possible holder and no tally are dealt before the count and only shrink that hand.

A plan may leave one tally *asked* (``Plan.asked``): a question whose answer is not known yet.
It is tracked like any tally but never checked, and stays in the state to the end, so that the
final states say the answer each deal would give (``exact.split``). Items ``visited`` on
request are visited even when free or fixed (``pairs.py`` needs every item of one holder).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from sleuth.model import Holder, Item, Model, Tally
from sleuth.solve.counts import Counts
from sleuth.solve.simplify import Contradiction, Reduced


class Tracker(NamedTuple):
    """A distinct residual term; e.g. Tracker(2, frozenset({"31", "32"}), True)."""

    holder: int  # index into ``Plan.holders``
    items: frozenset[Item]
    any: bool  # "at least one" (a bit) rather than "how many"


class Tallied(NamedTuple):
    """A residual tally over trackers; e.g. Tallied([0, 3], frozenset({1}))."""

    refs: list[int]  # indices into ``Plan.trackers``
    values: frozenset[int]


@dataclass(frozen=True)
class Plan:
    """The items to visit in order, the trackers and tallies over them, and the hands' room."""

    holders: list[Holder]  # holders with a hand, by index
    derived: int  # the holder whose room is not kept in a state (what the others leave)
    order: list[Item]  # the items visited: the tracked ones in order, then the loose ones
    domains: list[list[int]]  # per visited item: the indices of its possible holders
    trackers: list[Tracker]
    tallies: list[Tallied]
    free: list[Item]  # dealt at the end in one multinomial
    caps: list[int]  # each hand's room once the fixed untracked items are dealt
    loose: list[Item]  # visited but in no tally (their domain is not full)
    groups: tuple[int, ...] = ()  # each tally's tolerable group, 0 if strict (``reduce``)
    asked: int | None = None  # the tally left open to the end, its value never checked

    def group(self, c: int) -> int:
        """The tolerable group of tally c: 0 when it must hold."""
        return self.groups[c] if self.groups else 0

    @property
    def tracked(self) -> list[Item]:
        """The visited items that some tally tracks, in order."""
        loose = set(self.loose)
        return [i for i in self.order if i not in loose]

    def counts(self, reduced: Reduced, held: dict, total: int, free_held: list[int]) -> Counts:
        """The counts, with the free items and the items fixed before the program filled in."""
        for item in self.free:
            for h, n in enumerate(free_held):
                held[self.holders[h], item] = n
        for item, domain in reduced.domains.items():
            if len(domain) == 1 and item not in self.order and item not in self.free:
                held[next(iter(domain)), item] = total
        return Counts(total, held)


def _trackers(tallies: tuple[Tally, ...], index: dict[Holder, int]):
    """Distinct terms as trackers and tallies as tracker lists."""
    ids: dict[Tracker, int] = {}
    out = []
    for tally in tallies:
        refs = []
        for term in tally.terms:
            key = Tracker(index[term.holder], term.items, term.any)
            refs.append(ids.setdefault(key, len(ids)))
        out.append(Tallied(refs, tally.values))
    return list(ids), out


def plan(
    model: Model,
    reduced: Reduced,
    asked: int | None = None,
    visited: frozenset[Item] = frozenset(),
) -> Plan:
    """Choose the items to visit, their order, and the trackers and tallies over them.

    ``asked``: the index of the reduced tally left open (``Plan.asked``); ``visited``: items
    visited whatever their domain.
    """
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
        if len(domain) == 1 and item not in tracked and item not in visited:
            caps[index[next(iter(domain))]] -= 1
        elif item in tracked or domain != full or item in visited:
            visit.append(item)
        else:
            free.append(item)
    if min(caps, default=0) < 0:
        raise Contradiction
    with_trackers = {h for h, _, _ in trackers}
    derived = max(range(len(holders)), key=lambda k: (k not in with_trackers, caps[k]))
    loose = [i for i in visit if i not in tracked]
    domains = [sorted(index[h] for h in reduced.domains[i]) for i in visit]
    return Plan(
        holders,
        derived,
        visit,
        domains,
        trackers,
        tallies,
        free,
        caps,
        loose,
        reduced.groups,
        asked,
    )


def with_order(p: Plan, tracked: list[Item], reduced: Reduced) -> Plan:
    """The plan visiting ``tracked`` items in this order, then the loose ones."""
    order = list(tracked) + p.loose
    index = {h: k for k, h in enumerate(p.holders)}
    domains = [sorted(index[h] for h in reduced.domains[i]) for i in order]
    return replace(p, order=order, domains=domains)
