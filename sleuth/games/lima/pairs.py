"""The treasure pair's odds, the one computation the report, ``check`` and the replay read.

P(treasure = {a, b}) = P(a in the treasure) x P(b in the treasure | a in it): the second
factor is read off one more count, of the record with the fact "the treasure holds a" added.
With exact counts the product is the number of worlds whose treasure is {a, b} over all worlds.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from sleuth.games.lima.rules import TREASURE
from sleuth.model import Holder, Item

if TYPE_CHECKING:
    from sleuth.budget import Deadline
    from sleuth.odds import Odds


class Chances(Protocol):
    """What the pair odds read of the state now: its chances, and whether they are exact."""

    @property
    def exact(self) -> bool: ...

    def probability(self, holder: Holder, item: Item) -> Fraction | None: ...


Given = Callable[[Item, "float | Deadline"], "Odds"]  # the odds with "the treasure holds a" added


class TreasureOdds:
    """The pair odds of one state: its chances now, and the odds given each location (once).

    ``twin``: each location and one that no tally tells apart from it, whose count serves for
    both (as ``replay.twins``); none by default. ``exact``: whether the chances now and every
    count made so far were exact.
    """

    def __init__(self, now: Chances, given: Given, twin: dict[Item, Item] | None = None):
        self.now, self.given, self.twin = now, given, twin or {}
        self.counted: dict[Item, Odds] = {}
        self.exact = now.exact

    def first(self, a: Item) -> Fraction:
        """P(the treasure holds a)."""
        return self.now.probability(TREASURE, a) or Fraction(0)

    def conditional(self, a: Item, budget: float | Deadline) -> Odds:
        """The odds with "the treasure holds a" added, counted once within ``budget``."""
        if a not in self.counted:
            self.counted[a] = self.given(a, budget)
            self.exact = self.exact and self.counted[a].exact
        return self.counted[a]

    def pair(self, a: Item, b: Item, budget: float | Deadline) -> Fraction:
        """P(the treasure is {a, b}), from the count given a's twin when a has one.

        Swapping a and its twin r maps the worlds with a in the treasure onto those with r,
        so P(b | a) is P(s(b) | r), s swapping a and r.
        """
        p = self.first(a)
        if not p:
            return Fraction(0)
        r = self.twin.get(a, a)
        b = r if b == a else a if b == r else b
        return p * (self.conditional(r, budget).probability(TREASURE, b) or 0)
