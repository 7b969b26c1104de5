"""Mistakes at the table: repairs of an inconsistent record, odds that survive a wrong answer.

A repair is one changed answer with which the record fits some deal; the tolerant odds count
the deals that contradict at most one recorded answer, each once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sleuth.budget import DEFAULT_BUDGET
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
    """

    wrong: int
    answers: int
    strict: Odds
    parts: tuple[tuple[int, Odds], ...]
    odds: Odds
    robust: frozenset[tuple[Holder, Item]]


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


def tolerant(model: Model, entail: Entailment, budget: float = DEFAULT_BUDGET) -> Tolerance:
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
    robust = frozenset(set.intersection(*certain)) if certain else frozenset()
    loose = union(model, strict, [part for _, part in parts])
    return Tolerance(1, len(answers), strict, tuple(parts), loose, robust)
