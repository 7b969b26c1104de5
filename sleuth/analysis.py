"""What the record implies, as plain data: the report, the update after an event, guess checks.

Every deal of the cards is equally likely before the game, so the probability of a holding is
the number of worlds (deals that fit the record) in which it holds, over the number of worlds.
Certain facts come from z3; probabilities from the exact counter, or, when it runs out of
time, from a sampled estimate that is labelled as such.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

from sleuth.model import Holder, Item, Model
from sleuth.record import Record
from sleuth.solve.count import BudgetExceeded, Counts, count
from sleuth.solve.entail import Entailment
from sleuth.solve.sample import estimate

DEFAULT_BUDGET = 10.0


@dataclass(frozen=True)
class Fact:
    """A holding true in every world, and the first event after which it was; e.g. Bert 32 @1."""

    holder: Holder
    item: Item
    since: int


@dataclass(frozen=True)
class Odds:
    """Worlds and per-holding counts: exact, or a sampled estimate with a 95% interval."""

    worlds: int
    exact: bool
    held: dict[tuple[Holder, Item], int]
    base: int
    interval: tuple[int, int] | None = None
    samples: int = 0

    def probability(self, holder: Holder, item: Item) -> Fraction | None:
        """The (exact or estimated) probability that ``holder`` holds ``item``."""
        return Fraction(self.held[holder, item], self.base) if self.base else None


@dataclass(frozen=True)
class Report:
    """Everything ``sleuth report`` shows, as data."""

    record: Record
    consistent: bool
    odds: Odds
    forced: list[Fact]
    conflict: list[int] = field(default_factory=list)
    labels: tuple[str, ...] = ()

    @property
    def worlds(self) -> int:
        """The number of worlds (an estimate when not exact)."""
        return self.odds.worlds


def odds(model: Model, budget: float = DEFAULT_BUDGET) -> Odds:
    """Exact counts within ``budget`` seconds, else a sampled estimate over the time left."""
    started = time.monotonic()
    try:
        counts: Counts = count(model, budget)
        return Odds(counts.total, True, counts.held, counts.total)
    except BudgetExceeded:
        left = max(budget - (time.monotonic() - started), 1.0)
        guess = estimate(model, left)
        return Odds(
            guess.worlds, False, guess.held, guess.kept, (guess.low, guess.high), guess.samples
        )


def forced_facts(entail: Entailment, groups: range | None = None) -> list[Fact]:
    """Forced holdings not known at the setup, each with the event that first forced it."""
    known = entail.forced(range(1))
    facts = []
    for holder, item in entail.forced(groups) - known:
        facts.append(Fact(holder, item, entail.since((holder, item))))
    return sorted(facts, key=lambda f: (f.since, f.holder, f.item))


def report(record: Record, budget: float = DEFAULT_BUDGET) -> Report:
    """The full analysis of a record."""
    model = record.model()
    entail = Entailment(model)
    if not entail.consistent():
        none = Odds(0, True, {}, 0)
        return Report(record, False, none, [], entail.conflict(), model.labels)
    facts = forced_facts(entail)
    result = odds(model, budget)
    if not result.exact and result.interval is not None:
        result = Odds(
            result.worlds,
            False,
            result.held,
            result.base,
            (max(result.interval[0], 1), result.interval[1]),
            result.samples,
        )
    return Report(record, True, result, facts, [], model.labels)


@dataclass(frozen=True)
class Update:
    """What one new event changed: facts it made certain, and the worlds left."""

    report: Report
    new: list[Fact]


def update(record: Record, budget: float = DEFAULT_BUDGET) -> Update:
    """The report after the record's last event, and the facts that event made certain."""
    full = report(record, budget)
    last = len(record.events)
    return Update(full, [f for f in full.forced if f.since == last])
