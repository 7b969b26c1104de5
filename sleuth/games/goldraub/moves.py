"""Goldraub in London's moves: a figure goes 1 to 6 free spaces along the route (Course of Play).

"He moves his figure up to six spaces further along the Manhunt Route, clockwise ... Occupied
spaces are skipped and do NOT count." A search's ``at`` is where its figure landed; a figure's
space is known while its last search gives ``at``. A move is refused only when no placing of
the figures whose space is unknown (each could stand on one space passed) makes it legal.
"""

from __future__ import annotations

from sleuth.errors import InputError
from sleuth.games.base import Event, Table
from sleuth.games.goldraub import turns
from sleuth.games.goldraub.rules import Search, Start
from sleuth.model import Holder

MOST = 6  # a figure moves 1 to 6 spaces


def forbidden(events: list[Event], table: Table, start: Start) -> InputError | None:
    """The first event the rules forbid at its place: a long move, or what ``turns`` forbids."""
    found = [e for e in (turns.forbidden(events, table, start), too_far(events, table, start)) if e]
    return min(found, key=lambda e: e.event or 0) if found else None  # each names its event


def too_far(events: list[Event], table: Table, start: Start) -> InputError | None:
    """The first search whose ``at`` lies more than 6 free spaces on from its figure's space."""
    spaces = len(start.city.route)  # numbered 1 to 24 clockwise
    where: dict[Holder, int | None] = dict.fromkeys(table.players)
    for index, event in enumerate(events, 1):
        if not isinstance(event, Search):
            continue
        last = where[event.by]
        if last is not None and event.at is not None:
            others = {p: s for p, s in where.items() if p != event.by}
            known = {s for s in others.values() if s is not None}
            unknown = sum(s is None for s in others.values())
            steps = free_steps(last, event.at, known, spaces)
            if steps - unknown > MOST:
                message = (
                    f"{event.by} moved from space {last} to {event.at}: {steps} free spaces on, "
                    f"but a figure moves 1 to {MOST} (occupied spaces skipped)"
                )
                return InputError("", "at", message, index)
        where[event.by] = event.at
    return None


def free_steps(start: int, end: int, occupied: set[int], spaces: int) -> int:
    """How many spaces clockwise from ``start`` to ``end`` (``end`` counted) are not occupied."""
    passed = [(start + k - 1) % spaces + 1 for k in range(1, (end - start - 1) % spaces + 2)]
    return sum(space not in occupied for space in passed)
