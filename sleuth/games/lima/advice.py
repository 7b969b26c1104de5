"""Should I accuse now? The treasure pair's exact odds, and the risk of a wrong accusation.

The odds are ``pairs.TreasureOdds``'s: P(a) x P(b | a), the second factor from the report's
record with "the treasure holds a" added, counted as the report counts (``analysis.given``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from sleuth.budget import DEFAULT_BUDGET, Deadline, due
from sleuth.games.lima.pairs import TreasureOdds
from sleuth.games.lima.rules import TREASURE
from sleuth.games.lima.turns import game_over, out_of_game
from sleuth.model import Item, holds

if TYPE_CHECKING:
    from sleuth.analysis import Report
    from sleuth.odds import Odds


@dataclass(frozen=True)
class PairOdds:
    """A possible treasure pair and its probability; e.g. (("3F", "7M"), Fraction(1, 4), True)."""

    locations: tuple[Item, Item]
    probability: Fraction
    exact: bool


@dataclass(frozen=True)
class AccuseCheck:
    """Whether accusing ``locations`` now is safe; ``out`` is the event that put me out, if any.

    ``alone`` is each location's own chance of being one of the two treasures; ``over`` the
    event of the right accusation that ended the game, if any.
    """

    locations: tuple[Item, Item]
    probability: Fraction | None
    exact: bool
    out: int | None
    alone: tuple[Fraction | None, Fraction | None] = (None, None)
    over: int | None = None

    @property
    def verdict(self) -> str:
        """Whether I may and should accuse (rulebook: End of Game).

        Not allowed once the game is over or I am out; else certain, impossible, or the risk
        of being put out; unknown when inconsistent.
        """
        if self.over is not None:
            return "not allowed: the game is over"
        if self.out is not None:
            return "not allowed: I am out of the game"
        if self.probability is None:
            return "unknown"
        if self.probability == 1 and self.exact:
            return "certain: accuse now"
        if self.probability == 0 and self.exact:
            return "impossible: this is not the treasure"
        wrong = 1 - self.probability
        return (
            f"risky: wrong with probability {float(wrong):.1%}, and a wrong accusation puts me out"
        )


class Pairs(list[PairOdds]):
    """Treasure pairs, most likely first; ``uncounted`` are the locations the budget left out.

    A pair is counted from its first location's count, so a pair whose first location is
    uncounted is missing from the list.
    """

    uncounted: tuple[Item, ...] = ()


def _given(report: Report, item: Item, budget: float | Deadline) -> Odds:
    """The odds of the record with the fact that the treasure holds ``item`` added."""
    from sleuth.analysis import given  # the count behind it, loaded only when a check asks

    return given(report, (holds(TREASURE, item),), budget)


def treasure_odds(report: Report) -> TreasureOdds:
    """The report's pair odds, each location's count as the report counts."""
    return TreasureOdds(report.odds, lambda item, budget: _given(report, item, budget))


def treasure_pairs(report: Report, budget: float | Deadline = DEFAULT_BUDGET) -> Pairs:
    """Every pair with a chance of being the treasure, most likely first, until the deadline.

    Each location with a chance takes an even share of the time left; once the deadline has
    passed, the locations left are not counted (``Pairs.uncounted``).
    """
    pairs = Pairs()
    if not report.consistent:
        return pairs
    deadline = due(budget)
    items = report.record.model().space.items
    chances = treasure_odds(report)
    firsts = [(k, x) for k, x in enumerate(items) if chances.first(x)]
    uncounted = []
    for n, (k, first) in enumerate(firsts):
        if deadline.passed():
            uncounted.append(first)
            continue
        left = deadline.share(len(firsts) - n)
        exact = report.odds.exact and chances.conditional(first, left).exact
        for second in items[k + 1 :]:
            p = chances.pair(first, second, left)
            if p:
                pairs.append(PairOdds((first, second), p, exact))
    order = {item: k for k, item in enumerate(items)}
    pairs.sort(key=lambda o: (-o.probability, [order[x] for x in o.locations]))
    pairs.uncounted = tuple(uncounted)
    return pairs


def check_accusation(
    report: Report, first: Item, second: Item, budget: float | Deadline = DEFAULT_BUDGET
) -> AccuseCheck:
    """The chance that {first, second} is the treasure, for me, now."""
    out = out_of_game(report.record.events, report.record.table.me)
    over = game_over(report.record.events)
    if not report.consistent:
        return AccuseCheck((first, second), None, False, out, over=over)
    chances = treasure_odds(report)
    alone = (chances.first(first), chances.first(second))
    p = chances.pair(first, second, budget)
    return AccuseCheck((first, second), p, chances.exact, out, alone, over)


def best_accusation(report: Report, pairs: list[PairOdds]) -> AccuseCheck | None:
    """The check of the most likely of ``pairs`` (from ``treasure_pairs``), or None if none."""
    if not pairs:
        return None
    out = out_of_game(report.record.events, report.record.table.me)
    best = pairs[0]
    chance, (a, b) = report.odds.probability, best.locations
    alone = (chance(TREASURE, a), chance(TREASURE, b))
    over = game_over(report.record.events)
    return AccuseCheck(best.locations, best.probability, best.exact, out, alone, over)


def best_pair(report: Report) -> tuple[str, Fraction] | None:
    """The likeliest treasure pair now, e.g. ("3F+7M", 1/4), or None when there is none."""
    pairs = report.details if report.consistent else []
    return ("+".join(pairs[0].locations), pairs[0].probability) if pairs else None
