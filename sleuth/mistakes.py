"""Mistakes at the table: repairs of an inconsistent record, odds that survive a wrong answer.

A repair is one changed answer with which the record fits some deal; the tolerant odds count
the deals that contradict at most one recorded answer, each once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sleuth.budget import DEFAULT_BUDGET, Deadline, due
from sleuth.errors import InputError
from sleuth.model import Holder, Item, Model, Tally
from sleuth.odds import NO_DEAL, Odds, odds, scaled
from sleuth.solve import Entailment

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

    ``strict`` are the odds of the deals fitting every answer; ``parts`` keeps, for each answer
    left out, its event and the odds without it; ``odds`` counts their union, each deal once;
    ``robust`` are the holdings certain in every part (and in the strict worlds, if any).
    ``skipped``: the events of the parts the deadline left uncounted (then ``odds`` is a
    lower bound, not exact, and ``robust`` is empty).
    """

    wrong: int
    answers: int
    strict: Odds
    parts: tuple[tuple[int, Odds], ...]
    odds: Odds
    robust: frozenset[tuple[Holder, Item]]
    skipped: tuple[int, ...] = ()  # the answers whose parts the budget left uncounted


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


def tolerant(
    model: Model, entail: Entailment, budget: float | Deadline = DEFAULT_BUDGET
) -> Tolerance:
    """The deals contradicting at most one answer (an event's tallies), each counted once.

    They are the union over answers e of the worlds of the record without e; a deal that
    contradicts e alone is in that part only, so the union adds up as in ``union``. When the
    record fits no deal, only the answers in its conflict can matter. Each part takes an even
    share of the time left; once the deadline has passed, the parts left are not counted: they
    are ``skipped``, the odds are not exact, and no fact is called robust.
    """
    deadline = due(budget)
    groups = set(range(len(model.groups)))
    answers = [g for g in range(1, len(model.groups)) if model.groups[g]]
    fits = entail.consistent()
    dropped = answers if fits else [g for g in entail.conflict() if g > 0]
    strict = odds(model, deadline.share(len(dropped) + 1)) if fits else NO_DEAL
    keys = [(h, i) for h in model.space.holders for i in model.space.items]
    certain = [_certain(strict, keys, entail, groups)] if fits else []
    parts, skipped = [], []
    for k, e in enumerate(dropped):
        if deadline.passed():
            skipped.append(e)
        elif entail.consistent(groups - {e}):
            part = odds(model.restrict(groups - {e}), deadline.share(len(dropped) - k))
            parts.append((e, part))
            certain.append(_certain(part, keys, entail, groups - {e}))
    robust = frozenset(set.intersection(*certain)) if certain and not skipped else frozenset()
    loose = union(model, strict, [part for _, part in parts])
    if skipped:
        loose = Odds(loose.worlds, False, loose.held, loose.base)
    return Tolerance(1, len(answers), strict, tuple(parts), loose, robust, tuple(skipped))
