"""What the short forms of ``sleuth play`` share across games: names, verdicts, forms as data.

A short form is a line typed at the table that stands for one full command; each game defines
its own (``sleuth.games.<game>.table``). A form is its first word (empty when the line starts
with the player who acted) and the parameter each following word fills, e.g.
``("g", ("by", "owner", "sector", "verdict"))`` for ``g dor bert 32 y``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sleuth.errors import InputError

SOURCE = "sleuth play"
RIGHT = ("y", "yes", "right", "r", "+")
WRONG = ("n", "no", "wrong", "w", "-")
VERDICT = ("y", "n")  # the words completed for a verdict

Form = tuple[str, tuple[str, ...]]  # e.g. ("", ("by", "row")): the first word, then parameters


def named(record: Any, word: str) -> str:
    """The player a unique prefix names, in full; the word itself when it names none or many."""
    try:
        return record.table.prefix(word, "by")
    except InputError:
        return word


def verdict(word: str) -> str | None:
    """The command-line option for a verdict word: y or yes -> --correct, n or no -> --wrong."""
    folded = word.casefold()
    return "--correct" if folded in RIGHT else "--wrong" if folded in WRONG else None


def reads(parse: Callable[[str, str], Any], word: str) -> bool:
    """Whether ``parse(word, field)`` reads ``word``, e.g. a card's name; an InputError: not."""
    try:
        parse(word, "")
    except InputError:
        return False
    return True


def malformed(usage: str, example: str) -> InputError:
    """The error for a short form with words missing or left over."""
    return InputError(SOURCE, "", f"the short form is {usage}, e.g. '{example}'")


def next_words(
    forms: tuple[Form, ...],
    words: list[str],
    vocabulary: Callable[[str], tuple[str, ...]],
) -> tuple[str, ...]:
    """The words that may follow ``words`` in any of ``forms`` (``vocabulary`` of a parameter)."""
    found: list[str] = []
    for first, slots in forms:
        if first and not words:
            found.append(first)
            continue
        if first and words[0].casefold() != first:
            continue
        if (
            not first
            and words
            and not any(w.casefold().startswith(words[0].casefold()) for w in vocabulary(slots[0]))
        ):
            continue  # a form that starts with a player, and this word names none
        place = len(words) - (1 if first else 0)
        if place < len(slots):
            found.extend(vocabulary(slots[place]))
    return tuple(dict.fromkeys(found))
