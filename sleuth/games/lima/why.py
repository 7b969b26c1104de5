"""Loot of Lima in plain words for ``sleuth why``: what the setup or one event states.

Each sentence restates the event's tallies (``rules.Ask.tallies`` and the others) and nothing
more, so that a reason built from them is as true as the events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.games.lima.rules import Accuse, Ask, Secret

if TYPE_CHECKING:
    from sleuth.record import Record


def listed(words: list[str]) -> str:
    """Words joined as a list is said: "a", "a and b", "a, b and c"."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def setup(record: Record) -> str:
    """My hand, the tokens I passed on, the face-up tokens."""
    start = record.start
    parts = [f"my hand is {listed(list(start.hand))}"] if start.hand else []
    parts += [f"I passed {listed(list(t))} to {p}" for p, t in start.known.items()]
    if start.public:
        parts.append(f"{listed(list(start.public))} lie face up")
    return ", ".join(parts)


def answered(record: Record, index: int, event: Ask | Secret) -> str:
    """A question: how many of the asked range's locations the target holds, or none heard."""
    if event.range is None:
        return f"{event.by} asked {event.to} a Pistol question I did not hear (event {index})"
    terrain = event.terrain if isinstance(event, Ask) else None
    where = event.range + (f" {terrain}" if terrain else "")
    mine = event.to == record.table.me
    who, has, their = ("I", "hold", "my") if mine else (event.to, "holds", f"{event.to}'s")
    size = record.start.hand_size
    if event.answer == 0:
        told = f"{who} {has} none of {where}"
    elif event.answer == size:
        told = f"all {size} of {their} tokens lie in {where}"
    else:
        told = f"{who} {has} {event.answer} of {where}"
    return f"{told} (event {index})"


def accused(record: Record, index: int, accuse: Accuse) -> str:
    """An accusation: the treasure is the pair (right) or not both (wrong); what I saw."""
    a, b = accuse.locations
    told = f"the treasure is {a} and {b}"
    if not accuse.correct:
        told = f"the treasure is not the pair {a} and {b}"
    if accuse.treasure:
        told += f", and I saw {listed(list(accuse.treasure))} in it"
    return f"{told} (event {index}, {accuse.by}'s accusation)"


def plainly(record: Record, index: int) -> str:
    """What the setup (index 0) or event ``index`` states, as a clause of a sentence."""
    if index == 0:
        return setup(record)
    event = record.events[index - 1]
    if isinstance(event, Accuse):
        return accused(record, index, event)
    assert isinstance(event, (Ask, Secret))  # Lima's events: questions and accusations
    return answered(record, index, event)
