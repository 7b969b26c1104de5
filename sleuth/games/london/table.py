"""Looting London at the table: the short forms of ``sleuth play`` and the words it completes.

A line that starts with a player is their event: ``ann dame bobby`` takes a face-up dame (a
bobby turned up in its place), ``ann deck`` draws from the deck (``ben deck waif``: my card),
``ann 3 w3,d2`` melds column 3. ``x ann 2 1 d2`` destroys one tile of column 2 with two dames;
``cl ann w,w,d,b`` clears the row (the four new cards).
"""

from __future__ import annotations

from typing import Any

from sleuth.errors import InputError
from sleuth.games.london.cards import FIGURES, figure
from sleuth.games.london.course import course
from sleuth.games.shorthand import Form, malformed, named, next_words, reads

SHORT_FORMS = (
    ("ann dame bobby", "take: BY CARD NEW (a face-up card, the one turned up in its place)"),
    ("ann deck", "take from the deck: BY deck [CARD] (CARD: the one I got)"),
    ("ann 3 w3,d2", "meld: BY COLUMN CARDS (pairs of another figure are jokers)"),
    ("x ann 2 1 d2", "destroy: x BY COLUMN TILES CARDS (a meld in that column follows)"),
    ("cl ann w,w,d,b", "clear: cl BY NEW (the four cards turned up)"),
)
FORMS: tuple[Form, ...] = (
    ("", ("by", "card", "new")),
    ("", ("by", "column", "cards")),
    ("x", ("by", "column", "tiles", "cards")),
    ("cl", ("by", "new")),
)
DECK = "deck"


def expand(record: Any, words: list[str]) -> list[str] | None:
    """The command a short form stands for; None when the words are no short form."""
    if not words:
        return None
    first = words[0].casefold()
    if first == "x":
        if len(words) != 5:
            raise malformed("x BY COLUMN TILES CARDS", "x ann 2 1 d2")
        return ["destroy", named(record, words[1]), *words[2:]]
    if first == "cl":
        if len(words) != 3:
            raise malformed("cl BY NEW", "cl ann w,w,d,b")
        return ["clear", named(record, words[1]), words[2]]
    by = named(record, words[0])
    if by not in record.table.players or len(words) < 2:
        return None
    second = words[1].casefold()
    if second.isdigit():
        if len(words) == 2:
            return None  # no cards: not a meld ("c 3" is the alias of check 3)
        if len(words) != 3:
            raise malformed("BY COLUMN CARDS", "ann 3 w3,d2")
        return ["meld", by, *words[1:]]
    if second == DECK or reads(figure, second):
        if len(words) > 3:
            raise malformed("BY CARD NEW, or BY deck [CARD]", "ann dame bobby")
        return ["take", by, DECK if second == DECK else second, *words[2:]]
    return None


def complete(record: Any, words: list[str]) -> tuple[str, ...]:
    """The words that may come next in a short form begun with ``words``."""
    return next_words(FORMS, words, lambda param: vocabulary(record, "", param))


def vocabulary(record: Any, command: str, param: str) -> tuple[str, ...]:
    """Players, the face-up cards (and the deck), the columns with a tile, figures."""
    try:
        now = course(record)
    except InputError:  # a record the rules refuse: only the players to offer
        return record.table.players if param == "by" else ()
    columns = tuple(str(c) for c, tiles in enumerate(now.columns, 1) if tiles)
    words = {
        "by": record.table.players,
        "card": (*dict.fromkeys(now.row), DECK),
        "new": FIGURES,
        "column": columns,
        "first": columns if command == "check" else (),
        "tiles": ("1", "2", "3", "4"),
    }
    return words.get(param, ())
