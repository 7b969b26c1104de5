"""Goldraub at the table: the short forms of ``sleuth play`` and the words it completes.

``an 31-36 2 1`` is ``search Anton 31-36 --gold 2 --saw 1``: who searched, the row, the GOLD
BARS cards announced and, when I sat between, those I saw; ``@22`` anywhere after the row adds
``--at 22``. ``g dor bert 32 y`` is ``guess Doris Bert 32 --correct``: who guessed, the owner
named, the sector, and y (right) or n (wrong). Players are named by unique prefixes.
"""

from __future__ import annotations

import re
from typing import Any

from sleuth.games.goldraub.board import city
from sleuth.games.shorthand import VERDICT, Form, malformed, named, next_words, verdict

ROW = re.compile(r"\d+-\d+")
SEARCH = "BY ROW GOLD [SAW] [@SPACE]"
GUESS = "g BY OWNER SECTOR y|n"
SHORT_FORMS = (
    ("an 31-36 2 1", f"search: {SEARCH}"),
    ("g dor bert 32 y", f"guess: {GUESS} (y: right, n: wrong)"),
)
FORMS: tuple[Form, ...] = (("", ("by", "row")), ("g", ("by", "owner", "sector", "verdict")))


def expand(record: Any, words: list[str]) -> list[str] | None:
    """The ``search`` or ``guess`` a short form stands for; None when the line is neither."""
    if len(words) >= 2 and ROW.fullmatch(words[1]):
        return _search(record, words)
    if words and words[0].casefold() == "g":
        return _guess(record, words)
    return None


def _search(record: Any, words: list[str]) -> list[str]:
    """``an 31-36 2 1 @22`` as ``search Anton 31-36 --gold 2 --saw 1 --at 22``."""
    by, row, *rest = words
    spaces = [word[1:] for word in rest if word.startswith("@")]
    counts = [word for word in rest if not word.startswith("@")]
    if not 1 <= len(counts) <= 2 or len(spaces) > 1:
        raise malformed(SEARCH, "an 31-36 2 1")
    full = ["search", named(record, by), city().row_name(row) or row, "--gold", counts[0]]
    if len(counts) == 2:
        full += ["--saw", counts[1]]
    return full + (["--at", spaces[0]] if spaces else [])


def _guess(record: Any, words: list[str]) -> list[str]:
    """``g dor bert 32 y`` as ``guess Doris Bert 32 --correct``."""
    flag = verdict(words[4]) if len(words) == 5 else None
    if flag is None:
        raise malformed(GUESS, "g dor bert 32 y")
    _, by, owner, sector, _said = words
    return ["guess", named(record, by), named(record, owner), sector, flag]


def complete(record: Any, words: list[str]) -> tuple[str, ...]:
    """The words that may come next in a short form begun with ``words``."""
    return next_words(FORMS, words, lambda param: vocabulary(record, "", param))


def vocabulary(record: Any, command: str, param: str) -> tuple[str, ...]:
    """Players, rows, sectors or route spaces, for the parameter ``param`` of ``command``."""
    board, table = city(), record.table
    if command == "check":  # check OWNER SECTOR: another player's card
        others = tuple(p for p in table.players if p != table.me)
        return {"first": others, "second": board.sectors}.get(param, ())
    spaces = tuple(str(space) for space in board.route)
    words = {
        "by": table.players,
        "owner": table.players,
        "row": tuple(board.rows),
        "sector": board.sectors,
        "at": spaces,
        "occupied": spaces,
        "verdict": VERDICT,
    }
    return words.get(param, ())
