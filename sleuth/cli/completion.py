"""Tab completion in ``sleuth play``: the words that may come next on a sitting's line.

Commands, aliases and short forms first; then a command's options, or the game's words for the
argument or option being typed (the game's ``vocabulary``: players, rows, compass points, ...).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sleuth.cli import forms

if TYPE_CHECKING:
    from sleuth.cli.status import Part
    from sleuth.record import Record


class Sitting(Protocol):
    """What completion and the prompt read of a ``sleuth play`` sitting (``sleuth.cli.play``)."""

    path: Path
    record: Record
    status: list[Part]

    @property
    def commands(self) -> dict[str, Any]:
        """The app's commands by name."""

    def offered(self) -> list[str]:
        """The commands a sitting offers, in order."""


# The sitting's own words, beside the app's commands and the game's short forms.
ALIASES = {"r": "report", "c": "check", "u": "undo", "e": "edit", "l": "log", "n": "next"}
REFUSED = ("new", "play")  # another record, another sitting: not from inside one
LEAVE = ("quit", "exit")
HELP = ("help", "?")
MANY = 16  # more matches than this: complete up to the next "-" first (ranges, rows)


def candidates(sitting: Sitting, words: list[str], current: str) -> list[str]:
    """The words that may replace ``current``, the word being typed after ``words``."""
    record = sitting.record
    if not words:
        aliases = [a for a, name in ALIASES.items() if name in sitting.commands]
        pool = [*sitting.offered(), *aliases, *HELP[:1], *LEAVE, *forms.complete(record, [])]
    elif words[0] in HELP:
        pool = sitting.offered() if len(words) == 1 else []
    elif words[0] in sitting.commands:
        pool = arguments(sitting, words[0], words[1:], current)
    else:
        pool = list(forms.complete(record, words))
        if ALIASES.get(words[0]) in sitting.commands:
            pool += arguments(sitting, ALIASES[words[0]], words[1:], current)
    return matching(pool, current)


def arguments(sitting: Sitting, name: str, words: list[str], current: str) -> list[str]:
    """Options or values for the command ``name``, after its words ``words``."""
    command = sitting.commands[name]
    options = [p for p in command.params if p.param_type_name == "option"]
    if current.startswith("-"):
        return [o for p in options for o in p.opts + p.secondary_opts if o not in FILE_OPTS]
    takes = {o: p for p in options if not p.is_flag and not p.count for o in p.opts}
    if words and words[-1] in takes:
        return list(forms.vocabulary(sitting.record, name, takes[words[-1]].name))
    free = [
        word
        for k, word in enumerate(words)
        if not word.startswith("-") and (k == 0 or words[k - 1] not in takes)
    ]
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    if name == "edit" and free:
        return fields(sitting, free[0])
    if len(free) < len(arguments):
        param = arguments[len(free)].name
        return list(forms.vocabulary(sitting.record, name, param))
    return []


def fields(sitting: Sitting, number: str) -> list[str]:
    """``FIELD=`` for each field event ``number`` may have (``edit N``)."""
    events = sitting.record.events
    if not number.isdigit() or not 1 <= int(number) <= len(events):
        return []
    event = events[int(number) - 1]
    return [f"{key}=" for key in (*event.required, *event.optional)]


FILE_OPTS = ("--file", "-f")


def matching(pool: Iterable[str], current: str) -> list[str]:
    """The words of ``pool`` that ``current`` begins (any case), each once.

    Within a list (``3F,7M``) the word after the last comma is matched. When more than
    ``MANY`` match, each is cut after its next "-", so that a range or a row comes end by end.
    """
    head, _, tail = current.rpartition(",")
    head = head + "," if _ else ""
    folded = tail.casefold()
    found = [w for w in dict.fromkeys(pool) if w.casefold().startswith(folded)]
    if len(found) > MANY:
        cut = [w[: w.find("-", len(tail)) + 1] if "-" in w[len(tail) :] else w for w in found]
        found = list(dict.fromkeys(cut))
    return [head + word for word in found]
