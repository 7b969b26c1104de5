"""What the record implies, as plain data: the report, the update after an event, guess checks.

Every deal of the cards is equally likely before the game, so the probability of a holding is
the number of worlds (deals that fit the record) in which it holds, over the number of worlds.
Certain facts come from z3; probabilities from the exact counter, or, when it runs out of
time, from a sampled estimate that is labelled as such.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from sleuth.errors import InputError
from sleuth.model import Holder, Item, Model, Tally
from sleuth.record import Record, parse_event
from sleuth.solve.count import BudgetExceeded, Counts, count
from sleuth.solve.entail import Entailment
from sleuth.solve.sample import estimate

DEFAULT_BUDGET = 10.0


@dataclass(frozen=True)
class Fact:
    """A holding true in every world, and the first event after which it was; e.g. Bert 32 @1.

    ``since`` is None for a fact certain only under the tolerance (the record itself fits no
    deal); ``robust`` marks a fact that stays certain if any one recorded answer is wrong.
    """

    holder: Holder
    item: Item
    since: int | None
    robust: bool = False


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
class Repair:
    """One changed answer that makes the record consistent; e.g. event 7, gold 1 (was 2), 120.

    ``worlds`` is the number of deals the changed record leaves (an estimate when not exact).
    """

    event: int
    field: str
    value: Any
    old: Any
    worlds: int
    exact: bool = True


@dataclass(frozen=True)
class Tolerance:
    """How many recorded answers may be wrong, how many there are, and the deals fitting all.

    ``parts`` keeps, for each answer that was left out, its event and the odds without it.
    """

    wrong: int
    answers: int
    strict: Odds
    parts: tuple[tuple[int, Odds], ...] = ()


@dataclass(frozen=True)
class Report:
    """Everything ``sleuth report`` shows, as data.

    ``consistent`` says whether some deal is analysed: one that fits the record, or under a
    ``tolerance``, one that contradicts at most one recorded answer. ``conflict`` and
    ``repairs`` are filled whenever the record itself fits no deal.
    """

    record: Record
    consistent: bool
    odds: Odds
    forced: list[Fact]
    conflict: list[int] = field(default_factory=list)
    labels: tuple[str, ...] = ()
    repairs: list[Repair] = field(default_factory=list)
    tolerance: Tolerance | None = None

    @property
    def worlds(self) -> int:
        """The number of worlds (an estimate when not exact)."""
        return self.odds.worlds

    @property
    def fits(self) -> bool:
        """Whether the record itself, every answer right, fits some deal."""
        return not self.conflict


def odds(model: Model, budget: float = DEFAULT_BUDGET, entail: Entailment | None = None) -> Odds:
    """Exact counts within ``budget`` seconds, else a sampled estimate over the time left.

    z3 first states every impossible holding as a fact: the worlds are the same, and the
    counter has far fewer states to visit.
    """
    started = time.monotonic()
    sharp = (entail or Entailment(model)).sharpened()
    budget = max(budget - (time.monotonic() - started), 0.1)
    try:
        counts: Counts = count(sharp, budget)
        return Odds(counts.total, True, counts.held, counts.total)
    except BudgetExceeded:
        left = max(budget - (time.monotonic() - started), 1.0)
        guess = estimate(sharp, left)
        return Odds(
            guess.worlds, False, guess.held, guess.kept, (guess.low, guess.high), guess.samples
        )


def scaled(result: Odds) -> dict[tuple[Holder, Item], int]:
    """Per-holding counts on the scale of worlds (estimates scaled from their kept draws)."""
    if result.exact or not result.base:
        return dict(result.held)
    return {k: round(n * result.worlds / result.base) for k, n in result.held.items()}


NO_DEAL = Odds(0, True, {}, 0)


def forced_facts(entail: Entailment, groups: range | None = None) -> list[Fact]:
    """Forced holdings not known at the setup, each with the event that first forced it."""
    known = entail.forced(range(1))
    facts = []
    for holder, item in entail.forced(groups) - known:
        facts.append(Fact(holder, item, entail.since((holder, item))))
    return sorted(facts, key=lambda f: (f.since, f.holder, f.item))


def _changed(record: Record, index: int, name: str, value: Any) -> tuple[Tally, ...] | None:
    """The tallies of event ``index`` with ``name`` set to ``value``; None if not valid input."""
    event = record.events[index - 1]
    data = dict(event.fields(), **{name: value})
    try:
        changed = parse_event({event.kind: data}, record.rules, record.table, record.start)
    except InputError:
        return None
    return changed.tallies(record.table, record.start)


def alternatives(value: Any) -> list[Any]:
    """The other values an answer could have had: the other truth value, or another count."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [n for n in range(100) if n != value]
    return []


def repairs(record: Record, model: Model, conflict: list[int], budget: float) -> list[Repair]:
    """Every single changed answer of a conflicting event that fits, most deals first."""
    found = [fix for index in conflict if index > 0 for fix in _fixes(record, model, index, budget)]
    return sorted(found, key=lambda r: (-r.worlds, r.event, r.field, str(r.value)))


def _fixes(record: Record, model: Model, index: int, budget: float) -> Iterator[Repair]:
    """Each other value of an answer of event ``index`` with which the record fits some deal."""
    for name, old in record.events[index - 1].answered().items():
        for value in alternatives(old):
            tallies = _changed(record, index, name, value)
            changed = None if tallies is None else model.with_group(index, tallies)
            if changed is not None and Entailment(changed).consistent():
                result = odds(changed, budget)
                yield Repair(index, name, value, old, result.worlds, result.exact)


@dataclass(frozen=True)
class Tolerant:
    """Odds over the deals that contradict at most one answer, and the holdings certain in all."""

    odds: Odds
    robust: set[tuple[Holder, Item]]
    answers: int
    strict: Odds
    parts: tuple[tuple[int, Odds], ...]


def _certain(result: Odds, keys: list, entail: Entailment, groups: set[int]) -> set:
    """The holdings true in every world: read off exact counts, else asked of z3."""
    if result.exact:
        return {k for k in keys if result.held[k] == result.worlds}
    return entail.forced(groups)


def union(model: Model, strict: Odds, parts: list[Odds]) -> Odds:
    """Odds over the union of the parts' worlds: W = W(strict) + sum of (W(part) - W(strict)).

    This holds when every part contains the strict worlds and no two share any other world.
    """
    keys = [(h, i) for h in model.space.holders for i in model.space.items]
    base = scaled(strict)
    held = {k: base.get(k, 0) for k in keys}
    total, exact = strict.worlds, strict.exact
    for part in parts:
        counts = scaled(part)
        total += part.worlds - strict.worlds
        exact = exact and part.exact
        for k in keys:
            held[k] += counts[k] - base.get(k, 0)
    return Odds(total, exact, held, total)


def tolerant(model: Model, entail: Entailment, budget: float = DEFAULT_BUDGET) -> Tolerant:
    """The deals contradicting at most one answer (an event's tallies), each counted once.

    They are the union over answers e of the worlds of the record without e; a deal that
    contradicts e alone is in that part only, so the union adds up as in ``union``. When the
    record fits no deal, only the answers in its conflict can matter.
    """
    groups = set(range(len(model.groups)))
    answers = [g for g in range(1, len(model.groups)) if model.groups[g]]
    fits = entail.consistent()
    strict = odds(model, budget) if fits else NO_DEAL
    dropped = answers if fits else [g for g in entail.conflict() if g > 0]
    keys = [(h, i) for h in model.space.holders for i in model.space.items]
    certain = [_certain(strict, keys, entail, groups)] if fits else []
    parts = []
    for e in dropped:
        if entail.consistent(groups - {e}):
            parts.append((e, odds(model.restrict(groups - {e}), budget)))
            certain.append(_certain(parts[-1][1], keys, entail, groups - {e}))
    robust = set.intersection(*certain) if certain else set()
    loose = union(model, strict, [part for _, part in parts])
    return Tolerant(loose, robust, len(answers), strict, tuple(parts))


def report(record: Record, budget: float = DEFAULT_BUDGET, tolerate: int = 0) -> Report:
    """The full analysis of a record; with ``tolerate`` 1, over deals off by at most one answer."""
    model = record.model()
    entail = Entailment(model)
    fits = entail.consistent()
    conflict = [] if fits else entail.conflict()
    fixes = [] if fits else repairs(record, model, conflict, budget)
    facts = forced_facts(entail) if fits else []
    if tolerate:
        loose = _tolerant_report(record, model, entail, facts, budget)
        return replace(loose, conflict=conflict, repairs=fixes)
    if not fits:
        return Report(record, False, NO_DEAL, [], conflict, model.labels, fixes)
    result = odds(model, budget, entail)
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


def _tolerant_report(
    record: Record, model: Model, entail: Entailment, facts: list[Fact], budget: float
) -> Report:
    """The report over deals contradicting at most one answer, robust facts marked."""
    result = tolerant(model, entail, budget)
    marked = [Fact(f.holder, f.item, f.since, (f.holder, f.item) in result.robust) for f in facts]
    extra = result.robust - entail.forced(range(1)) - {(f.holder, f.item) for f in facts}
    marked += [Fact(h, i, None, True) for h, i in sorted(extra)]
    tolerance = Tolerance(1, result.answers, result.strict, result.parts)
    usable = result.odds.worlds > 0
    return Report(record, usable, result.odds, marked, [], model.labels, [], tolerance)


def given(report: Report, tallies: tuple[Tally, ...], budget: float = DEFAULT_BUDGET) -> Odds:
    """The odds of the report's record with ``tallies`` added to the setup, as the report reads.

    Under a tolerance, a part whose worlds with a single added holding are exactly the strict
    ones (as many of them hold it) adds nothing, and is not counted again.
    """
    model = report.record.model()
    model = model.with_group(0, model.groups[0] + tallies)
    tolerance = report.tolerance
    if tolerance is None:
        return odds(model, budget)
    strict = odds(model, budget) if tolerance.strict.worlds else NO_DEAL
    pair = _holding(tallies)
    parts = []
    for e, part in tolerance.parts:
        same = part.exact and tolerance.strict.exact and pair is not None
        if not same or part.held[pair] != tolerance.strict.held.get(pair, 0):
            everything = set(range(len(model.groups)))
            parts.append(odds(model.restrict(everything - {e}), budget))
    return union(model, strict, parts)


def _holding(tallies: tuple[Tally, ...]) -> tuple[Holder, Item] | None:
    """The (holder, item) of tallies that say just "holder holds item", else None."""
    if len(tallies) != 1 or tallies[0].values != {1} or len(tallies[0].terms) != 1:
        return None
    term = tallies[0].terms[0]
    return (term.holder, next(iter(term.items))) if len(term.items) == 1 else None


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
