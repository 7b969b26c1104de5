"""The vocabulary of sleuth: who holds what, and what a record says about it.

A game hands out *items* (Goldraub: sector cards; Lima: location tokens) to *holders* (the
players, and the places cards go that no player holds: ``aside``, ``treasure``, ``public``).
Every holder holds an exact number of items. A *deal* says which holder holds each item.
What the record tells is a list of *tallies*: a count over the deal that must take one of a few
values. A *world* is a deal that satisfies every tally of the record.

All deals are equally likely before the game; every probability is a ratio of counted worlds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

Player: TypeAlias = str  # e.g. "Bert": a name from the record's `players`
Holder: TypeAlias = str  # e.g. "Bert", "aside", "treasure": a player, or a place no one holds
Item: TypeAlias = str  # e.g. "32" (a sector), "3F" (a location)
Deal: TypeAlias = dict  # Item -> Holder, e.g. {"32": "Bert", "11": "aside", ...}
World: TypeAlias = Deal  # a deal that satisfies every tally of the record
Pair: TypeAlias = tuple[Holder, Item]  # e.g. ("Bert", "32"): Bert holds sector 32


@dataclass(frozen=True)
class Term:
    """One holder's share of a set of items; e.g. Term("Bert", frozenset({"31", "32"}), True).

    With ``any`` the term counts 1 when the holder holds at least one of the items, else 0;
    without it the term counts how many of the items the holder holds.
    """

    holder: Holder
    items: frozenset[Item]
    any: bool = False

    def value(self, deal: Deal) -> int:
        """The term's count in a deal."""
        held = sum(deal[item] == self.holder for item in self.items)
        return min(held, 1) if self.any else held


@dataclass(frozen=True)
class Tally:
    """The sum of some terms takes one of ``values``; e.g. Tally((Term(...),), frozenset({2}))."""

    terms: tuple[Term, ...]
    values: frozenset[int]

    def holds(self, deal: Deal) -> bool:
        """Whether a deal satisfies this tally."""
        return sum(term.value(deal) for term in self.terms) in self.values

    @property
    def items(self) -> frozenset[Item]:
        """Every item the tally looks at."""
        return frozenset().union(*(term.items for term in self.terms))


def holds(holder: Holder, item: Item, yes: bool = True) -> Tally:
    """The fact that ``holder`` holds ``item`` (or, with ``yes=False``, does not)."""
    return Tally((Term(holder, frozenset({item})),), frozenset({1 if yes else 0}))


@dataclass(frozen=True)
class Space:
    """Who may hold what: the holders, their exact hand sizes, and the items dealt.

    e.g. Space(("Anton", ..., "aside"), {"Anton": 3, ..., "aside": 22}, ("11", ..., "77"))
    """

    holders: tuple[Holder, ...]
    sizes: dict[Holder, int]
    items: tuple[Item, ...]

    def __post_init__(self) -> None:
        """Check that the hand sizes add up to the number of items."""
        if sum(self.sizes[h] for h in self.holders) != len(self.items):
            raise ValueError("hand sizes must add up to the number of items")


@dataclass(frozen=True)
class Model:
    """A game's space and the record's tallies, grouped by event.

    ``groups[0]`` holds the setup facts (my hand, what I saw); ``groups[i]`` the tallies of the
    i-th recorded event (1-based, as in the record's report). ``labels[i]`` names the group.
    """

    space: Space
    groups: tuple[tuple[Tally, ...], ...]
    labels: tuple[str, ...] = field(default=())

    @property
    def tallies(self) -> tuple[Tally, ...]:
        """Every tally of every group."""
        return tuple(t for group in self.groups for t in group)

    def restrict(self, keep: set[int]) -> Model:
        """The model with only the groups whose index is in ``keep`` (others left empty)."""
        groups = tuple(g if i in keep else () for i, g in enumerate(self.groups))
        return Model(self.space, groups, self.labels)

    def prefix(self, n: int) -> Model:
        """The model after the setup and the first ``n`` events."""
        return self.restrict(set(range(n + 1)))

    def with_group(self, index: int, tallies: tuple[Tally, ...]) -> Model:
        """The model with group ``index`` replaced."""
        groups = list(self.groups)
        groups[index] = tallies
        return Model(self.space, tuple(groups), self.labels)
