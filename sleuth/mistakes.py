"""Mistakes at the table: repairs of an inconsistent record, odds that survive a wrong answer.

A repair is one changed answer with which the record fits some deal; the tolerant odds count
the deals that contradict at most one recorded answer, each once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sleuth.budget import COUNT_SHARE, DEFAULT_BUDGET, Deadline, due
from sleuth.errors import InputError
from sleuth.model import Holder, Item, Model, Tally
from sleuth.odds import LEAST, NO_DEAL, Odds, odds
from sleuth.solve import BudgetExceeded, Entailment, count_tolerant

if TYPE_CHECKING:
    from sleuth.record import Record


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
    """Odds over the deals that contradict at most ``wrong`` of the ``answers`` recorded ones.

    ``strict`` are the odds of the deals fitting every answer; ``odds`` count every deal that
    breaks at most one answer, once; ``robust`` are the holdings certain in all of those
    deals: exactly the holdings certain in every part (the record without one answer) that
    has a deal, since each such deal lies in one part at least and each part in the union.
    Counted in one pass (``sleuth.solve.count_tolerant``): the screens read the strict worlds,
    the union and the robust facts, never one part on its own, so no part is counted apart
    (``sleuth.testing.tolerance`` still counts them, to check the pass against).
    ``skipped``: the answers the deadline left uncounted (every one: the pass did not finish;
    then ``odds`` are the strict ones, a lower bound, not exact, and ``robust`` is empty).
    """

    wrong: int
    answers: int
    strict: Odds
    odds: Odds
    robust: frozenset[tuple[Holder, Item]]
    skipped: tuple[int, ...] = ()  # the answers whose deals the budget left uncounted


def _changed(record: Record, index: int, name: str, value: Any) -> tuple[Tally, ...] | None:
    """The tallies of event ``index`` with ``name`` set to ``value``; None if not valid input."""
    event = record.events[index - 1]
    data = dict(event.fields(), **{name: value})
    try:
        changed = record.event(event.kind, data)
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


def repairs(
    record: Record, model: Model, conflict: list[int], budget: float | Deadline
) -> tuple[list[Repair], bool]:
    """Every single changed answer of a conflicting event that fits, most deals first.

    Tried until the deadline: also says whether every changed answer was tried (False: the
    search was cut short, and a repair may be missing).
    """
    deadline = due(budget)
    found, whole = [], True
    for index in conflict:
        if index > 0:
            whole = whole and _fixes(record, model, index, deadline, found)
    found.sort(key=lambda r: (-r.worlds, r.event, r.field, str(r.value)))
    return found, whole


def _fixes(record: Record, model: Model, index: int, deadline: Deadline, found: list) -> bool:
    """Add each other value of an answer of event ``index`` that fits; False if out of time."""
    for name, old in record.events[index - 1].answered().items():
        for value in alternatives(old):
            if deadline.passed():
                return False
            tallies = _changed(record, index, name, value)
            changed = None if tallies is None else model.with_group(index, tallies)
            if changed is not None and Entailment(changed).consistent():
                result = odds(changed, deadline)
                found.append(Repair(index, name, value, old, result.worlds, result.exact))
    return True


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
    result = odds(model, deadline) if fits else NO_DEAL
    cut = Odds(result.worlds, False, result.held, result.base, result.interval, result.samples)
    return Tolerance(1, len(answers), result, cut, frozenset(), tuple(dropped))
