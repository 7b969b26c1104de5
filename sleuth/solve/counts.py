"""What an exact count returns, how it fails, and the multinomial that deals the free items."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from sleuth.model import Holder, Item


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

    def probability(self, holder: Holder, item: Item) -> Fraction | None:
        """The probability that ``holder`` holds ``item``; None with no world (as ``Odds``)."""
        return Fraction(self.held[holder, item], self.total) if self.total else None


class Loose(NamedTuple):
    """Counts tolerating one wrong answer: over the deals breaking at most one, and none."""

    union: Counts  # every deal that breaks at most one tolerable group, once
    strict: Counts  # the deals that break none


def multinomial(parts: list[int]) -> int:
    """The number of ways to deal sum(parts) distinct items into hands of these sizes."""
    if min(parts) < 0:
        return 0
    ways, n = 1, 0
    for part in parts:
        n += part
        ways *= math.comb(n, part)
    return ways
