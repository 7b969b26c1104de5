"""``why`` on screen: the events that prove a fact, or the events that moved its chance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.render.common import pct
from sleuth.replay import Pair, Step, moved

if TYPE_CHECKING:
    from rich.console import Console

    from sleuth.record import Record
    from sleuth.why import Proof


def reason(record: Record, proof: Proof) -> str:
    """One sentence on how the events prove the fact."""
    claim = f"{proof.holder} {'holds' if proof.holds else 'does not hold'} {proof.item}"
    events = [g for g in proof.groups if g]
    if not events:
        return f"The setup alone says that {claim}."
    if len(proof.groups) == 1:
        return f"Event {events[0]} alone says that {claim}."
    named = "the setup and " if 0 in proof.groups else ""
    count = f"{named}these {len(events)} event(s)"
    open_ = "without any one of them, it is open"
    return f"Together {count} leave no deal but those in which {claim}; {open_}."


def show_proof(console: Console, record: Record, proof: Proof) -> None:
    """The fact, the events that prove it, each by number and text, and the reasoning."""
    verb = "holds" if proof.holds else "does not hold"
    console.print(f"Certain: {proof.holder} {verb} {proof.item}. Proved by:", markup=False)
    labels = record.model().labels
    for g in proof.groups:
        console.print(f"  {g:>3}  {labels[g]}", markup=False)
    console.print(reason(record, proof), markup=False)


def show_moves(console: Console, record: Record, pair: Pair, found: list[Step]) -> None:
    """A fact not certain: its chance now, and before and after each event that moved it."""
    holder, item = pair
    console.print(
        f"Not certain: {holder} {item} at {pct(found[-1].probability(*pair))} now.", markup=False
    )
    labels = record.model().labels
    changes = moved(found, pair)
    if not changes:
        console.print("No event moved its chance by more than 5 points.", markup=False)
    for event, before, after in changes:
        console.print(f"  {event:>3}  {pct(before)} -> {pct(after)}  {labels[event]}", markup=False)
