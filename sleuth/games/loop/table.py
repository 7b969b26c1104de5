"""Loot the Loop at the table: the short forms of ``sleuth play`` and the words it completes.

``8h 4c`` is ``look 8H 4C`` (the cards a look turned up, top first; one card when only the top
was face down); ``5`` is ``explore 5``; ``m 7c`` marks the top trinket, ``ret 7c`` returns a
note to the top.
"""

from __future__ import annotations

from typing import Any

from sleuth.errors import InputError
from sleuth.games.loop.cards import card
from sleuth.games.loop.temple import temple
from sleuth.games.shorthand import Form, malformed, next_words, reads

SHORT_FORMS = (
    ("8h 4c", "look: the cards turned up, top first (one if the second was face up)"),
    ("5", "explore: the value of a face-up trinket among the top two"),
    ("m 7c", "mark: m CARD (the top trinket goes to my notes)"),
    ("ret 7c", "return: ret CARD (a note goes back on top)"),
)
FORMS: tuple[Form, ...] = (
    ("", ("n",)),
    ("m", ("mark",)),
    ("ret", ("note",)),
)


def expand(record: Any, words: list[str]) -> list[str] | None:
    """The command a short form stands for; None when the words are no short form."""
    if not words:
        return None
    first = words[0].casefold()
    if first in ("m", "ret"):
        if len(words) != 2:
            usage, example = ("m CARD", "m 7c") if first == "m" else ("ret CARD", "ret 7c")
            raise malformed(usage, example)
        return ["mark" if first == "m" else "return", words[1].upper()]
    if len(words) == 1 and words[0].isdigit():
        return ["explore", words[0]]
    if len(words) <= 2 and all(reads(card, w) for w in words):
        return ["look", *(card(w, "cards") for w in words)]
    return None


def complete(record: Any, words: list[str]) -> tuple[str, ...]:
    """The words that may come next in a short form begun with ``words``."""
    return next_words(FORMS, words, lambda param: vocabulary(record, "", param))


def vocabulary(record: Any, command: str, param: str) -> tuple[str, ...]:
    """Explore values, the top trinket to mark, my notes to return."""
    try:
        now = temple(record)
    except InputError:  # a record the rules refuse: nothing to offer
        return ()
    marks = tuple(str(a.what) for a in now.actions() if a.action == "mark")
    words = {
        "n": tuple(str(n) for n in now.explores()),
        "mark": marks,
        "card": marks if command == "mark" else now.notes,
        "note": now.notes,
    }
    return words.get(param, ())
