"""Loot of Lima at the table: the short forms of ``sleuth play`` and the words it completes.

``b c E-W forest 2`` is ``ask Ben Cy E-W --terrain forest --answer 2``: who asked, who answered,
the range, the terrain if the question had one (a name or its letter) and the answer, which may
be left out when the question was to me. ``p cy ben SE-NW 1`` is ``secret Cy Ben SE-NW --answer
1``, a Pistol question (range and answer only when I asked). ``a ben 3F 7M n`` is ``accuse Ben
3F 7M --wrong``; when I accused, the two tokens I saw follow: ``a cy 3F 7M n 2B 5M``.
"""

from __future__ import annotations

import re
from typing import Any

from sleuth.games.lima.board import island
from sleuth.games.shorthand import VERDICT, Form, malformed, named, next_words, verdict

RANGE = re.compile(r"[A-Za-z]{1,3}-[A-Za-z]{1,3}")
ASK = "BY TO RANGE [TERRAIN] [ANSWER]"
SECRET = "p BY TO [RANGE ANSWER]"
ACCUSE = "a BY LOC LOC y|n [SEEN SEEN]"
SHORT_FORMS = (
    ("b c E-W forest 2", f"ask: {ASK}"),
    ("p cy ben SE-NW 1", f"secret (Pistol): {SECRET}"),
    ("a ben 3F 7M n", f"accuse: {ACCUSE} (y: right, n: wrong; SEEN when I accused)"),
)
FORMS: tuple[Form, ...] = (
    ("", ("by", "to", "range", "terrain")),
    ("p", ("by", "to", "range")),
    ("a", ("by", "first", "second", "verdict", "treasure", "treasure")),
)


def expand(record: Any, words: list[str]) -> list[str] | None:
    """The ``ask``, ``secret`` or ``accuse`` a short form stands for; None when it is none."""
    if len(words) >= 3 and RANGE.fullmatch(words[2]):
        return _ask(record, words)
    first = words[0].casefold() if words else ""
    if first == "p":
        return _secret(record, words)
    if first == "a":
        return _accuse(record, words)
    return None


def _ask(record: Any, words: list[str]) -> list[str]:
    """``b c E-W forest 2`` as ``ask Ben Cy E-W --terrain forest --answer 2``."""
    by, to, where, *rest = words
    answers = [word for word in rest if word.isdigit()]
    kinds = [word for word in rest if not word.isdigit()]
    if len(answers) > 1 or len(kinds) > 1:
        raise malformed(ASK, "b c E-W forest 2")
    full = ["ask", named(record, by), named(record, to), where.upper()]
    if kinds:
        full += ["--terrain", island().terrains.get(kinds[0].upper(), kinds[0])]
    return full + (["--answer", answers[0]] if answers else [])


def _secret(record: Any, words: list[str]) -> list[str]:
    """``p cy ben SE-NW 1`` as ``secret Cy Ben SE-NW --answer 1``."""
    if len(words) not in (3, 4, 5):
        raise malformed(SECRET, "p cy ben SE-NW 1")
    _, by, to, *rest = words
    full = ["secret", named(record, by), named(record, to)]
    if rest:
        full.append(rest[0].upper())
    return full + (["--answer", rest[1]] if len(rest) == 2 else [])


def _accuse(record: Any, words: list[str]) -> list[str]:
    """``a cy 3F 7M n 2B 5M`` as ``accuse Cy 3F 7M --wrong --treasure 2B,5M``."""
    flag = verdict(words[4]) if len(words) in (5, 6, 7) else None
    if flag is None:
        raise malformed(ACCUSE, "a ben 3F 7M n")
    _, by, first, second, _said, *seen = words
    full = ["accuse", named(record, by), first.upper(), second.upper(), flag]
    return full + (["--treasure", ",".join(seen).upper()] if seen else [])


def complete(record: Any, words: list[str]) -> tuple[str, ...]:
    """The words that may come next in a short form begun with ``words``."""
    return next_words(FORMS, words, lambda param: vocabulary(record, "", param))


def vocabulary(record: Any, command: str, param: str) -> tuple[str, ...]:
    """Players, ranges, terrains, locations or dice faces, for ``param`` of ``command``."""
    board = island()
    faces = tuple(dict.fromkeys(face for die in board.dice.values() for face in die))
    words = {
        "by": record.table.players,
        "to": record.table.players,
        "range": tuple(f"{a}-{b}" for a in board.points for b in board.points),
        "terrain": tuple(board.terrains.values()),
        "first": board.locations,
        "second": board.locations,
        "treasure": board.locations,
        "roll": faces,
        "verdict": VERDICT,
    }
    return words.get(param.rstrip("_"), ())
