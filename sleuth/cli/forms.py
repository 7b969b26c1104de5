"""A game's words at the table (``sleuth play``): its short forms and its completion words.

They are the game's parts ``short_forms``, ``expand``, ``complete`` and ``vocabulary``
(``sleuth.games.part``); a game without them has no short form and completes only the
commands, the options and the players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.games import part

if TYPE_CHECKING:
    from sleuth.games import Game
    from sleuth.record import Record


def short_forms(game: Game) -> tuple[tuple[str, str], ...]:
    """The game's short forms, each (form, its meaning), e.g. ("g BY OWNER SECTOR y|n", "...")."""
    return part(game, "short_forms", ())


def expand(record: Record, words: list[str]) -> list[str] | None:
    """The full command a short form stands for, or None if ``words`` are no short form."""
    return part(record.rules, "expand", _none)(record, words)


def complete(record: Record, words: list[str]) -> tuple[str, ...]:
    """Words that may come next in a short form begun with ``words`` (the first: [])."""
    return part(record.rules, "complete", _nothing)(record, words)


def vocabulary(record: Record, command: str, param: str) -> tuple[str, ...]:
    """Words that fill parameter ``param`` of ``command`` (e.g. "row": the 21 rows)."""
    return part(record.rules, "vocabulary", _no_words)(record, command, param)


def _none(record: Record, words: list[str]) -> None:
    """No short form."""


def _nothing(record: Record, words: list[str]) -> tuple[str, ...]:
    """No word of a short form."""
    return ()


def _no_words(record: Record, command: str, param: str) -> tuple[str, ...]:
    """No word of the game's own for a parameter."""
    return ()
