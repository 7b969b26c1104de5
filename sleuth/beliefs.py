"""A record's belief, whichever kind its game has: the one place that tells the kinds apart.

A game with a ``believe`` part brings its own belief (``sleuth.belief``); any other counts the
deals that fit (``sleuth.analysis``: the counting engine, z3 for the rest), which is imported
only for such a game, so that a game with its own belief loads neither. Everything the
application layer asks of a belief goes through here: the belief itself, its details for the
screens, the holdings certain in it, and what an edit or a new event changed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from sleuth.belief import Belief, Fact
from sleuth.budget import DEFAULT_BUDGET, Deadline, due
from sleuth.errors import InputError
from sleuth.games import part
from sleuth.model import Holder, Item

if TYPE_CHECKING:
    from fractions import Fraction

    from sleuth.games.base import Event
    from sleuth.record import Record
    from sleuth.solve import Remembered

B = TypeVar("B")  # a belief: ``detailed`` gives back what it takes


def own(record: Record) -> bool:
    """Whether the record's game brings its own belief (else its deals are counted)."""
    return part(record.rules, "believe", None) is not None


def counted(found: Belief) -> bool:
    """Whether ``found`` is a deal count (``sleuth.analysis.Report``), not a game's own belief."""
    return not own(found.record)


def belief(
    record: Record,
    budget: float | Deadline = DEFAULT_BUDGET,
    tolerate: int = 0,
    memory: Remembered | None = None,
    dating: bool = True,
    estimating: bool = True,
    details: bool = True,
) -> Belief:
    """What the record's game believes of its hidden state.

    Its own ``believe`` part when it has one, else the deal count (``analysis.report``, which
    takes the other arguments).
    """
    believe = part(record.rules, "believe", None)
    if believe is None:
        from sleuth import analysis  # the deal count: loaded only for a game that counts deals

        return analysis.report(record, budget, tolerate, memory, dating, estimating, details)
    if tolerate:
        raise InputError("", "tolerate", f"{record.rules.title} tolerates no wrong answer")
    return believe(record, due(budget))


def detailed(found: B) -> B:
    """``found`` with the game's details for its screens made (a deal count's); else as is."""
    if own(found.record):  # type: ignore[attr-defined]
        return found
    from sleuth import analysis

    return analysis.detailed(found)


def likeliest(found: Belief) -> tuple[str, Fraction] | None:
    """A game's ``best`` part when it has none: another player's likeliest open holding.

    e.g. ("Bob 3", 1/2); None when nothing fits or every holding is certain or impossible.
    """
    if not found.consistent:
        return None
    table = found.record.table
    _, items = found.holdings()
    options = []
    for holder in table.opponents():
        for item in items:
            p = found.chance(holder, item)
            if p is not None and 0 < p < 1:
                options.append((p, holder, item))
    if not options:
        return None
    p, holder, item = max(options, key=lambda o: o[0])
    return f"{holder} {item}", p


def certain(found: Belief) -> set[tuple[Holder, Item]] | None:
    """Every holding true in all the states that fit the belief's record; None when none fits.

    A game's own belief's: the holdings whose chance is 1; a deal count's: from its exact count
    when there is one, else from z3, the setup's own facts included.
    """
    if counted(found):
        from sleuth import analysis

        return analysis.certain(found)  # type: ignore[arg-type]
    if not found.consistent:
        return None
    holders, items = found.holdings()
    return {(h, i) for h in holders for i in items if found.chance(h, i) == 1}


def edited(
    record: Record, index: int, old: Event, budget: float | Deadline, memory: Remembered | None
) -> tuple[Belief, tuple[list[tuple[Holder, Item]], list[tuple[Holder, Item]]] | None]:
    """The belief of ``record`` after its event ``index`` (1-based) was edited from ``old``.

    With the holdings the edit made certain and those it made no longer certain (None when
    either record fits no state: there is nothing to compare). The record before the edit is
    believed first, with a share of the budget (the last report most likely remembers it). No
    game's details: ``sleuth edit`` shows none.
    """
    deadline = due(budget)
    events = [*record.events[: index - 1], old, *record.events[index:]]
    before_edit = replace(record, events=events)
    believed_before = belief(
        before_edit, deadline.share(2), memory=memory, dating=False, estimating=False, details=False
    )  # its certain holdings alone: no dates, no sampled estimate, no details
    before = certain(believed_before)
    found = belief(record, deadline, memory=memory, details=False)
    after = certain(found)
    if before is None or after is None:
        return found, None
    return found, (sorted(after - before), sorted(before - after))


@dataclass(frozen=True)
class Update:
    """What one new event changed: facts it made certain, and the worlds left."""

    report: Any  # the belief after the event
    new: list[Fact]


def update(
    record: Record,
    budget: float | Deadline = DEFAULT_BUDGET,
    memory: Remembered | None = None,
    at: int | None = None,
) -> Update:
    """The belief after a new event, and the facts that event made certain.

    ``at``: the new event's number (default: the last). A fact it made certain is one the
    record without it does not force: for the last event, a fact first forced by it.
    """
    full = belief(record, budget, memory=memory)
    last = len(record.events)
    if at is None or at == last:
        return Update(full, [f for f in full.forced if f.since == last])
    if counted(full):
        from sleuth import analysis

        return Update(full, analysis.made_by(full, at))  # type: ignore[arg-type]
    rest = replace(record, events=record.events[: at - 1] + record.events[at:])
    held = {(f.holder, f.item) for f in belief(rest, budget).forced}
    return Update(full, [f for f in full.forced if (f.holder, f.item) not in held])
