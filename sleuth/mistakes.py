"""Mistakes at the table: repairs of an inconsistent record, odds that survive a wrong answer.

A repair is one changed event (any of its answers, or its row or a player's name) with which
the record fits some deal; the tolerant odds count
the deals that contradict at most one recorded answer, each once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sleuth.budget import COUNT_SHARE, DEFAULT_BUDGET, Deadline, due
from sleuth.errors import InputError
from sleuth.model import Holder, Item, Model, Tally
from sleuth.odds import LEAST, NO_DEAL, Odds, odds
from sleuth.solve import BudgetExceeded, count_tolerant

REPAIR_SHARE = 0.15  # of the time left, for the repair search: about 2 s of the default budget
Tried = tuple[int, tuple, tuple[Tally, ...]]  # a change tried: event index, changes, tallies

if TYPE_CHECKING:
    from sleuth.record import Record
    from sleuth.solve import Entailment


@dataclass(frozen=True)
class Repair:
    """One changed event that makes the record consistent; e.g. event 7, gold 1 (was 2), 120.

    ``changes`` are (field, new value, old value), one for each field changed (a value None: the
    field left out); ``worlds`` is the number of deals the changed record leaves (an estimate
    when not exact).
    """

    event: int
    changes: tuple[tuple[str, Any, Any], ...]
    worlds: int
    exact: bool = True

    @property
    def field(self) -> str:
        """The changed fields, joined by commas: "gold" or "gold,saw"."""
        return ",".join(name for name, _, _ in self.changes)

    @property
    def value(self) -> Any:
        """The new value, or a tuple of them (in ``field``'s order) when several fields changed."""
        values = tuple(new for _, new, _ in self.changes)
        return values[0] if len(values) == 1 else values

    @property
    def old(self) -> Any:
        """The recorded value, or a tuple of them when several fields changed."""
        values = tuple(old for _, _, old in self.changes)
        return values[0] if len(values) == 1 else values

    def rank(self) -> tuple:
        """The order of plausibility: fewer fields changed first, then the most deals left.

        Every deal is equally likely, so a changed record is as likely as the deals it leaves;
        each misheard field is one more mistake, far less likely than a deal count is large.
        """
        return (len(self.changes), -self.worlds)


@dataclass(frozen=True)
class Tolerance:
    """Odds over the deals that contradict at most ``wrong`` of the ``answers`` recorded ones.

    ``strict`` are the odds of the deals fitting every answer; ``odds`` count every deal that
    breaks at most one answer, once; ``robust`` are the holdings certain in all of those
    deals: exactly the holdings certain in every part (the record without one answer) that
    has a deal, since each such deal lies in one part at least and each part in the union.
    Counted in one pass (``sleuth.solve.count_tolerant``): the screens read the strict worlds,
    the union and the robust facts, never one part on its own, so no part is counted apart
    (``oracles.tolerance`` in ``tests/`` still counts them, to check the pass against).
    ``skipped``: the answers the deadline left uncounted (every one: the pass did not finish;
    then ``odds`` are the strict ones, a lower bound, not exact, and ``robust`` is empty).
    """

    wrong: int
    answers: int
    strict: Odds
    odds: Odds
    robust: frozenset[tuple[Holder, Item]]
    skipped: tuple[int, ...] = ()  # the answers whose deals the budget left uncounted


def candidates(record: Record, index: int) -> list[tuple[tuple, tuple[Tally, ...]]]:
    """Each valid change of event ``index`` that says something else: (changes, its tallies)."""
    event = record.events[index - 1]
    now = event.fields()
    same = event.tallies(record.table, record.start)
    out = []
    for change in event.changes(record.table, record.start):
        data = {k: v for k, v in dict(now, **change).items() if v is not None}
        try:
            tallies = record.event(event.kind, data).tallies(record.table, record.start)
        except InputError:
            continue
        if tallies != same:
            out.append((tuple((k, v, now.get(k)) for k, v in change.items()), tallies))
    return out


def repairs(
    record: Record, model: Model, conflict: list[int], budget: float | Deadline
) -> tuple[list[Repair], bool]:
    """Every change of one conflicting event that fits, the most plausible first (``rank``).

    z3 first weeds out the changes that still fit no deal, all in one solver; then the rest are
    counted, those of fewer fields first, within ``REPAIR_SHARE`` of the time left (a player at
    the table waits a second or two, not the whole budget). Also says whether every change was
    counted (False: the search was cut short, and a repair may be missing).
    """
    deadline = due(budget)
    deadline = Deadline(REPAIR_SHARE * deadline.left(), deadline.clock)
    tried = [(i, c, t) for i in conflict if i > 0 for c, t in candidates(record, i)]
    fitting, checked = _fitting(model, tried, deadline)
    found = []
    for index, changes, tallies in sorted(fitting, key=lambda f: (len(f[1]), f[0])):
        if deadline.passed():
            break
        result = odds(model.with_group(index, tallies), deadline, plain=True)
        if not result.exact and deadline.passed():
            break  # an estimate with no time left to sample is no count
        found.append(Repair(index, changes, result.worlds, result.exact))
    found.sort(key=Repair.rank)  # stable: at equal rank, by event, then as the event lists them
    return found, checked and len(found) == len(fitting)


def _fitting(model: Model, tried: list[Tried], deadline: Deadline) -> tuple[list[Tried], bool]:
    """The tried changes with which some deal fits, asked of one z3 solver; and whether all were.

    Each change's tallies are one more group, switched on in place of its event's own.
    """
    if deadline.passed():
        return [], not tried
    from sleuth.solve import Entailment  # z3: for an inconsistent record only

    n = len(model.groups)
    entail = Entailment(Model(model.space, model.groups + tuple(t for _, _, t in tried)))
    fitting: list[Tried] = []
    for k, (index, changes, tallies) in enumerate(tried):
        if deadline.passed():
            return fitting, False
        if entail.consistent([g for g in range(n) if g != index] + [n + k]):
            fitting.append((index, changes, tallies))
    return fitting, True


def tolerant(
    model: Model, entail: Entailment, budget: float | Deadline = DEFAULT_BUDGET
) -> Tolerance:
    """The deals contradicting at most one answer (an event's tallies), each counted once.

    When the record fits no deal, only the answers in its conflict can be the wrong one: a
    deal that breaks another breaks the conflict too. z3 first states what holds in every such
    deal (``Entailment.loosened``), then one exact count takes them all, within 85% of the time
    left; past it, no answer is tolerated: the odds are the strict ones, marked not exact, and
    every answer is ``skipped``.
    """
    deadline = due(budget)
    answers = [g for g in range(1, len(model.groups)) if model.groups[g]]
    fits = entail.consistent()
    dropped = answers if fits else [g for g in entail.conflict() if g > 0]
    try:
        sharp = entail.loosened(dropped, deadline.left() / 4)
        left = max(COUNT_SHARE * deadline.left(), LEAST)
        union, strict = count_tolerant(sharp, frozenset(dropped), left)
    except BudgetExceeded:
        pass  # count the strict odds outside the handler (its traceback keeps the layers)
    else:
        loose = Odds(union.total, True, union.held, union.total)
        robust = {k for k, n in union.held.items() if n == union.total} if union.total else ()
        strict_odds = Odds(strict.total, True, strict.held, strict.total)
        return Tolerance(1, len(answers), strict_odds, loose, frozenset(robust))
    result = _strict(model, entail, deadline) if fits else NO_DEAL
    cut = Odds(result.worlds, False, result.held, result.base, result.interval, result.samples)
    return Tolerance(1, len(answers), result, cut, frozenset(), tuple(dropped))


def _strict(model: Model, entail: Entailment, deadline: Deadline) -> Odds:
    """The record's own odds when the tolerant count ran out of time: in what is left of it.

    The solver already loaded sharpens the model within a quarter of that time (cut short, the
    model as it is: the same worlds), so nothing here waits on z3 past the deadline.
    """
    sharp = entail.sharpened(seconds=deadline.left() / 4)
    return odds(model, deadline, entail, sharp)
