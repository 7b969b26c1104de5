"""``why`` on screen: the events that prove a fact, or the events that moved its chance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.render import plainly
from sleuth.render.common import pct
from sleuth.render.replay import worded
from sleuth.replay import MOVED, Pair, Step, moved

if TYPE_CHECKING:
    from rich.console import Console

    from sleuth.record import Record
    from sleuth.why import Proof

SAID = f"{MOVED * 100:.0f} points"  # the smallest move of a chance shown without --all


def reason(record: Record, proof: Proof) -> str:
    """One sentence on how the events prove the fact.

    In the game's plain words when the proof may be said so (``Proof.said``, from
    ``sleuth.why.worded``), else in general.
    """
    claim = f"{proof.holder} {'holds' if proof.holds else 'does not hold'} {proof.item}"
    if proof.said:
        said = "; ".join(plainly(record, g) for g in proof.groups)
        said = said[0].upper() + said[1:]
        return f"{said}." if proof.said == "stated" else f"{said}: so {claim}."
    events = [g for g in proof.groups if g]
    if not events:
        return f"The setup alone makes it certain that {claim}."
    if len(proof.groups) == 1:
        return f"Event {events[0]} alone makes it certain that {claim}."
    named = "event " if len(events) == 1 else f"these {len(events)} events"
    named = ("the setup and " if 0 in proof.groups else "") + named
    if len(events) == 1:
        named += str(events[0])
    return (
        f"Together, {named} leave no deal but those in which {claim}; "
        "without any one of them, it is open."
    )


def size_note(proof: Proof) -> str:
    """Whether no smaller set of events proves the fact, or the set is only minimal."""
    if proof.smallest:
        return "No smaller set of events proves it."
    return "None of these can be left out; a smaller set may exist (its search is kept short)."


def show_proof(console: Console, record: Record, proof: Proof, earlier: Proof | None) -> None:
    """The fact, the events that prove it, each by number and text, and the reasoning.

    ``earlier``: a proof by the events up to the first that made it certain, when the shortest
    proof leans on a later one.
    """
    verb = "holds" if proof.holds else "does not hold"
    console.print(f"Certain: {proof.holder} {verb} {proof.item}. Proved by:", markup=False)
    for line in proof_lines(record, proof):
        console.print(line, markup=False)
    console.print(reason(record, proof), markup=False)
    console.print(size_note(proof), markup=False)
    if earlier is not None:
        since = max(earlier.groups)
        console.print(f"It was already certain after event {since}, by:", markup=False)
        for line in proof_lines(record, earlier):
            console.print(line, markup=False)
        console.print(reason(record, earlier), markup=False)
        console.print(size_note(earlier), markup=False)


def proof_lines(record: Record, proof: Proof) -> list[str]:
    """Each group of a proof by number and short text."""
    return [f"  {g:>3}  {'setup' if g == 0 else worded(record, g)}" for g in proof.groups]


def show_moves(
    console: Console, record: Record, pair: Pair, found: list[Step], every: bool = False
) -> None:
    """A fact not certain: its chance now, and before and after each event that moved it.

    Only the moves of more than ``MOVED`` unless ``every``: then each event, moved or not.
    The events left out are counted, so that none is dropped silently.
    """
    holder, item = pair
    console.print(heading(pair, found), markup=False)
    changes = moved(found, pair, None if every else MOVED)
    if not every:
        console.print(f"The events that moved its chance by more than {SAID}:", markup=False)
    for event, before, after in changes:
        what = worded(record, event)
        line = f"  {event:>3}  {pct(before):>6} -> {pct(after):>6}  {what}"
        console.print(line, markup=False)
    if not changes:
        console.print("  none", markup=False)
    unknown = sum(
        a.probability(*pair) is None or b.probability(*pair) is None
        for a, b in zip(found, found[1:], strict=False)
    )
    smaller = len(found) - 1 - len(changes) - unknown
    if smaller:
        line = f"{events(smaller)} moved it by {SAID} or less (--all lists them)."
        console.print(line, markup=False)
    if unknown:
        line = f"{events(unknown)} could not be counted within the step budget."
        console.print(line, markup=False)


def heading(pair: Pair, found: list[Step]) -> str:
    """The fact's state: "Not certain: Bert X at 40% after event 12.", or certain since when.

    Certain only by a game's own belief, which has no proof by events (the deal count's
    certain facts have theirs, ``show_proof``).
    """
    holder, item = pair
    now = found[-1].probability(*pair)
    if now not in (0, 1) or not found[-1].exact:
        last = found[-1].event  # the record's last, or the --upto's
        after = "at the setup" if last == 0 else f"after event {last}"
        return f"Not certain: {holder} {item} at {pct(now)} {after}."
    since = len(found) - 1
    while since > 0 and found[since - 1].probability(*pair) == now:
        since -= 1
    verb = "holds" if now == 1 else "does not hold"
    when = "the setup" if since == 0 else f"event {found[since].event}"
    return f"Certain: {holder} {verb} {item}, since {when}."


def events(n: int) -> str:
    """A count of events in words: 1 event, 7 events."""
    return f"{n} event{'s' if n != 1 else ''}"
