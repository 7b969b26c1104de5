"""Unusable input: one error type that names where the problem is (and one for file faults)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


class InputError(Exception):
    """Input that no analysis can use; e.g. InputError("game.yaml", "row", "'31-37' ...", 3).

    ``source`` is the file or command, ``event`` the 1-based event index (0: the setup, None:
    not about an event), ``field`` the field's name.
    """

    def __init__(self, source: str, field: str, message: str, event: int | None = None):
        self.source, self.field, self.message, self.event = source, field, message, event
        super().__init__(self.line())

    def line(self) -> str:
        """The error as one line: source, event, field, message."""
        where = [self.source]
        if self.event is not None:
            where.append("setup" if self.event == 0 else f"event {self.event}")
        if self.field:
            where.append(f"field '{self.field}'")
        return printable(": ".join([", ".join(where), self.message]))

    def located(self, source: str | None = None, event: int | None = None) -> InputError:
        """The same error with the source or event filled in."""
        return InputError(
            source or self.source,
            self.field,
            self.message,
            self.event if event is None else event,
        )


class FileFault(InputError):
    """A fault of the environment with a file; e.g. FileFault("game.yaml", "cannot write", error).

    Exit status 2 like unusable input, and one line: "game.yaml: cannot write: No space left on
    device"; the record is left as it was.
    """

    def __init__(self, source: str, doing: str, error: OSError):
        super().__init__(source, "", f"{doing}: {error.strerror or error}")


def nearest(text: str, choices: Iterable[str]) -> str:
    """A hint naming the valid choice closest to ``text``, or an empty string."""
    choices = [str(c) for c in choices]
    close = difflib.get_close_matches(str(text), choices, n=1, cutoff=0.5)
    return f" (did you mean {close[0]}?)" if close else ""


def shown(value: object, limit: int = 40) -> str:
    """A short, safe rendering of any parsed value for an error message."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list | tuple | set):
        return f"a list of {len(value)} items"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def label(key: object) -> str:
    """A mapping key as a field name in an error: the name itself, or a short rendering."""
    return key if isinstance(key, str) and len(key) <= 40 else shown(key)


LONGEST = 200  # the most characters of one word a message repeats whole (a path fits)
KEPT = (40, 20)  # of a longer word, e.g. a 5,000-digit number typed: its first and last ones


def printable(text: str) -> str:
    """``text`` on one line: control characters as escapes, a word too long to repeat cut short.

    e.g. "'999...9' is not a number" with 5,000 nines becomes "'999...[5,002 characters in
    all]...999' is not a number": no error repeats a huge input whole.
    """
    escaped = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return re.sub(rf"\S{{{LONGEST + 1},}}", _shortened, escaped)


def _shortened(word: re.Match) -> str:
    """One word too long to repeat, as its first and last characters and its length."""
    text, (first, last) = word.group(), KEPT
    return f"{text[:first]}...[{len(text):,} characters in all]...{text[-last:]}"
