"""What a deal-counting game's record implies, as plain data: the report.

``sleuth.beliefs`` is the one place that tells a deal count from a game's own belief, and loads
this module only for the first.

Certain facts come from the exact count when it finishes (a holding counted in every world),
else from z3; probabilities from ``sleuth.odds`` (exact counts, or a labelled
estimate); contradictions are explained by ``sleuth.mistakes``.

The count comes first: an exact count with a deal proves the record consistent, and its facts
are dated from the last report's (``Remembered``) when the record is that one, a prefix of it
or it with one more event, or at the setup when its propagation alone fixes each of them; z3 is
loaded only for the rest (a contradiction, an estimate, facts to date afresh, a tolerance).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sleuth.belief import Fact, Left
from sleuth.budget import DEFAULT_BUDGET, Deadline, due
from sleuth.games import part
from sleuth.mistakes import Repair, Tolerance, repairs, tolerant
from sleuth.model import Holder, Item, Model, Tally
from sleuth.odds import NO_DEAL, UNCOUNTED, Odds, estimated, exactly, odds
from sleuth.solve import Remembered, fixed

if TYPE_CHECKING:
    from fractions import Fraction

    from sleuth.record import Record
    from sleuth.solve import Entailment


B = TypeVar("B")  # a belief: ``detailed`` gives back what it takes
UNMADE = object()  # a report's details before ``detailed`` makes them


@dataclass(frozen=True)
class Report:
    """Everything ``sleuth report`` shows, as data.

    ``consistent`` says whether some deal is analysed: one that fits the record, or under a
    ``tolerance``, one that contradicts at most one recorded answer. ``conflict`` and
    ``repairs`` are filled whenever the record itself fits no deal. ``details`` is what the
    game's screens show beyond these (``Game.details``; Lima: the treasure pairs), made by
    ``detailed`` within the report's ``deadline`` when the command's screens need them (a check
    of one accusation needs no list of every pair); no screen counts.
    """

    record: Record
    consistent: bool
    odds: Odds
    forced: list[Fact]
    conflict: list[int] = field(default_factory=list)
    labels: tuple[str, ...] = ()
    repairs: list[Repair] = field(default_factory=list)
    tolerance: Tolerance | None = None
    repairs_cut: bool = False  # the budget cut the repair search short: a repair may be missing
    solver: Entailment | None = field(default=None, repr=False, compare=False)
    deadline: Deadline | None = field(default=None, repr=False, compare=False)
    made: Any = field(default=UNMADE, repr=False, compare=False)  # the details, once made

    @property
    def details(self) -> Any:
        """The game's own results for its screens (``Game.details``), made by ``detailed``.

        A LookupError (a bug: the command did not ask for them) when they were not made.
        """
        if self.made is UNMADE:
            raise LookupError("the report's details were not made (analysis.detailed)")
        return self.made

    @property
    def worlds(self) -> int:
        """The number of worlds (an estimate when not exact)."""
        return self.odds.worlds

    @cached_property
    def entailment(self) -> Entailment:
        """z3 loaded with the record: the report's own solver, kept to answer more questions."""
        from sleuth.solve import Entailment

        return self.solver or Entailment(self.record.model())

    @property
    def fits(self) -> bool:
        """Whether the record itself, every answer right, fits some deal."""
        return not self.conflict

    @property
    def exact(self) -> bool:
        """Whether every probability is an exact ratio of counted deals."""
        return self.odds.exact

    @property
    def ended(self) -> list[Fact]:
        """No fact ends: in a static deal a certain fact stays certain."""
        return []

    @property
    def left(self) -> Left | None:
        """The deals that fit, counted or estimated; None when not counted."""
        return Left(self.odds.worlds, self.odds.exact, "deal") if self.odds.known else None

    def holdings(self) -> tuple[tuple[Holder, ...], tuple[Item, ...]]:
        """The holders and the items of the deal."""
        space = self.record.model().space
        return space.holders, space.items

    def chance(self, holder: Holder, item: Item) -> Fraction | None:
        """The probability that ``holder`` holds ``item`` (``Odds.probability``)."""
        return self.odds.probability(holder, item)


def detailed(found: B) -> B:
    """``found`` with the game's details made (``Report.details``), once; another belief as is."""
    if not isinstance(found, Report) or found.made is not UNMADE:
        return found
    details = part(found.record.rules, "details", no_details)
    made = details(found, found.deadline or due(DEFAULT_BUDGET))
    solver = found.__dict__.get("entailment", found.solver)  # z3, if the details loaded it
    return cast("B", replace(found, made=made, solver=solver))


def no_details(report: Report, deadline: Deadline) -> None:
    """A game's ``details`` part when it has none: nothing beyond the common report."""


def forced_facts(entail: Entailment) -> list[Fact]:
    """Forced holdings not known at the setup, each with the event that first forced it.

    z3's own: the backbone of the record, then ``dated``.
    """
    return dated(entail, entail.forced())


def dated(entail: Entailment, forced: set[tuple[Holder, Item]]) -> list[Fact]:
    """``forced_facts`` for holdings known forced by the whole record, dated in one pass."""
    from sleuth.solve import firsts

    return _facts(firsts(entail, forced))


def _facts(since: dict[tuple[Holder, Item], int]) -> list[Fact]:
    """The facts not known at the setup, by event (first forcing prefix), holder and item."""
    facts = [Fact(h, i, k) for (h, i), k in since.items() if k]
    return sorted(facts, key=lambda f: (f.since, f.holder, f.item))


def counted(result: Odds) -> set[tuple[Holder, Item]]:
    """The holdings of an exact count that hold in every world."""
    return {pair for pair, n in result.held.items() if n == result.worlds}


def report(
    record: Record,
    budget: float | Deadline = DEFAULT_BUDGET,
    tolerate: int = 0,
    memory: Remembered | None = None,
    dating: bool = True,
    estimating: bool = True,
    details: bool = True,
) -> Report:
    """The full analysis of a record; with ``tolerate`` 1, over deals off by at most one answer.

    ``budget``: seconds (from now) or a ``Deadline`` for the whole analysis, the game's details
    included; each stage takes its time from what is left. ``memory``: the order of the game's
    last hard count and the last report's dated facts (``sleuth.solve.memory``), for speed;
    the facts of this report are remembered in it. An exact count that finds a deal gives no
    facts when not ``dating`` (for ``next``: it reads only the record and the count); without
    ``estimating``, a count that does not finish leaves the odds ``UNCOUNTED`` (``next``
    advises from exact counts alone). The game's ``details`` for its screens are made last,
    unless not wanted (``detailed`` makes them later).
    """
    deadline = due(budget)
    found = replace(
        _report(record, deadline, tolerate, memory, dating, estimating), deadline=deadline
    )
    return detailed(found) if details else found


def _report(
    record: Record,
    deadline: Deadline,
    tolerate: int,
    memory: Remembered | None,
    dating: bool,
    estimating: bool = True,
) -> Report:
    """``report``, before the report keeps its deadline (for the game's details)."""
    model = record.model()
    result = None if tolerate else exactly(model, deadline, memory)
    if result is not None and result.worlds and not dating:
        return Report(record, True, result, [], [], model.labels)
    if result is not None and result.worlds:  # a deal fits: consistent, and z3 not needed
        facts, solver = _dated_exact(record, model, counted(result), memory)
        return Report(record, True, result, facts, [], model.labels, solver=solver)
    from sleuth.solve import Entailment

    entail = Entailment(model)
    fits = entail.consistent()
    conflict = [] if fits else entail.conflict()
    fixes, whole = ([], True) if fits else repairs(record, model, conflict, deadline)
    if tolerate:
        loose = _tolerant_report(record, model, entail, fits, deadline)
        return replace(loose, conflict=conflict, repairs=fixes, repairs_cut=not whole)
    if not fits:
        return Report(
            record, False, NO_DEAL, [], conflict, model.labels, fixes, repairs_cut=not whole
        )
    if result is None and not estimating:
        return Report(record, True, UNCOUNTED, [], [], model.labels, solver=entail)
    result = result or estimated(model, deadline, entail)
    facts = dated(entail, counted(result) if result.exact else entail.forced())
    if not result.exact and result.interval is not None:
        result = Odds(
            max(result.worlds, 1),  # z3 found a deal that fits: there is at least one
            False,
            result.held,
            result.base,
            (max(result.interval[0], 1), result.interval[1]),
            result.samples,
        )
    return Report(record, True, result, facts, [], model.labels, solver=entail)


def _dated_exact(
    record: Record, model: Model, forced: set[tuple[Holder, Item]], memory: Remembered | None
) -> tuple[list[Fact], Entailment | None]:
    """The facts of an exact count, dated from the remembered ones or the setup, else by z3.

    Also the z3 solver, when one had to be loaded; the dates are remembered for the next report.
    """
    chain = digests(record)
    known = memory.facts if memory is not None else None
    since = known.dates(forced, chain) if known is not None else None
    entail = None
    if since is None and (not record.events or fixed(model.prefix(0), forced) == forced):
        since = dict.fromkeys(forced, 0)  # each one forced by the setup: z3 has nothing to date
    if since is None:
        from sleuth.solve import Entailment, firsts

        entail = Entailment(model)
        since = firsts(entail, forced)
    if memory is not None:
        memory.dated(chain, since)
    return _facts(since), entail


def digests(record: Record) -> list[str]:
    """The digest of each prefix of the record: [setup, setup and event 1, ...].

    The first is the sha256 of the setup's canonical JSON (``Record.fields`` without events),
    each next one that of the one before and the event's.
    """
    fields = record.fields()
    chain = [_digest(fields | {"events": []})]
    for event in fields["events"]:
        chain.append(_digest([chain[-1], event]))
    return chain


def _digest(data: Any) -> str:
    """The sha256 of ``data``'s canonical JSON, in hex."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _tolerant_report(
    record: Record, model: Model, entail: Entailment, fits: bool, deadline: Deadline
) -> Report:
    """The report over deals contradicting at most one answer, robust facts marked.

    The record's own facts (when it fits) come from the strict counts of the same pass.
    """
    result = tolerant(model, entail, deadline)
    facts = []
    if fits:
        strict = result.strict
        facts = dated(entail, counted(strict) if strict.exact else entail.forced())
    marked = [Fact(f.holder, f.item, f.since, (f.holder, f.item) in result.robust) for f in facts]
    extra = result.robust - entail.forced(range(1)) - {(f.holder, f.item) for f in facts}
    marked += [Fact(h, i, None, True) for h, i in sorted(extra)]
    usable = result.odds.worlds > 0
    return Report(record, usable, result.odds, marked, [], model.labels, [], result)


def given(
    report: Report, tallies: tuple[Tally, ...], budget: float | Deadline = DEFAULT_BUDGET
) -> Odds:
    """The odds of the report's record with ``tallies`` added to the setup, as the report reads.

    Under a tolerance, over the deals of the changed record that break at most one answer.
    """
    model = report.record.model()
    model = model.with_group(0, model.groups[0] + tallies)
    pair = _holding(tallies)
    if report.tolerance is not None:
        from sleuth.solve import Entailment

        return tolerant(model, Entailment(model), budget).odds
    if pair is not None:
        return odds(model, budget, sharp=report.entailment.sharpened((pair,)))
    return odds(model, budget)


def _holding(tallies: tuple[Tally, ...]) -> tuple[Holder, Item] | None:
    """The (holder, item) of tallies that say just "holder holds item", else None."""
    if len(tallies) != 1 or tallies[0].values != {1} or len(tallies[0].terms) != 1:
        return None
    term = tallies[0].terms[0]
    return (term.holder, next(iter(term.items))) if len(term.items) == 1 else None


def certain(found: Report) -> set[tuple[Holder, Item]] | None:
    """Every holding true in all the deals that fit the report's record; None when none fits.

    From the exact count when there is one, else from z3: the setup's own facts included.
    """
    if not found.consistent or found.tolerance is not None:
        return None
    return counted(found.odds) if found.odds.exact else found.entailment.forced()


def made_by(full: Report, at: int) -> list[Fact]:
    """The facts of ``full`` that event ``at`` made certain: not forced by the rest.

    For ``beliefs.update`` when the new event was put in before the last.
    """
    if not full.consistent:
        return []
    last = len(full.record.events)
    held = full.entailment.forced([g for g in range(last + 1) if g != at])
    return [f for f in full.forced if (f.holder, f.item) not in held]
