"""Scotland Yard's events in a few words, for the replay's timeline and ``why`` (its ``short``).

e.g. "Dee 17b on 2: interrogates Cy, X found (discards 4r 74k 62y)", "Ann refreshes with 49y:
31k 46r 86b", "Cy 87k on 3: disappear, I got 54k, gave X".
"""

from __future__ import annotations

from sleuth.games.base import Event
from sleuth.games.scotland.rules import Pass, Refresh, Turn


def cards(listed) -> str:
    """Cards separated by spaces."""
    return " ".join(str(c) for c in listed)


def short(event: Event) -> str:
    """A turn, a refresh or a pass in a few words (the card drawn first is left to the log)."""
    if isinstance(event, Pass):
        return f"{event.by} passes"
    if isinstance(event, Refresh):
        return f"{event.by} refreshes with {event.ticket}: {cards(event.field)}"
    assert isinstance(event, Turn)  # Scotland Yard's events: turns, refreshes and passes
    return f"{event.by} {event.ticket} on {event.pile}: {action(event)}"


def action(turn: Turn) -> str:
    """What the turn's action did, as the record says it."""
    kind = turn.action
    if kind in ("draw", "buy"):
        drew = "" if turn.drew is None else f", I drew {cards(turn.drew)}"
        return ("draw" if kind == "draw" else "buys equipment") + drew
    if kind == "interrogation":
        if turn.target is None:
            return "interrogation (a glass)"
        if not turn.found:
            return f"interrogates {turn.target}, innocent"
        gone = "" if turn.discarded is None else f" (discards {cards(turn.discarded)})"
        return f"interrogates {turn.target}, X found{gone}"
    if kind == "manhunt":
        took = "X" if turn.found else cards(turn.took or ()) or "nothing"
        return f"manhunt of {turn.target}, took {took}"
    if kind == "feint":
        dropped = ", ".join(f"{p} {cards(ts)}" for p, ts in turn.discards or ())
        return f"feint: {dropped}" if dropped else "feint"
    got = "" if turn.got is None else f", I got {turn.got}"
    gave = "" if turn.gave is None else f", gave {turn.gave}"
    return f"disappear{got}{gave}"
