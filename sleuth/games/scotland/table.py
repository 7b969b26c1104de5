"""Scotland Yard at the table: the short forms of ``sleuth play`` and the words it completes.

``ann 15y 1`` is ``turn Ann 15y 1`` (a ticket on a pile, the pile's general action; on my own
draw, ``cy 15y 1 4y,9b`` adds the cards I drew);
``m ann 66r ben 5y,40k`` a manhunt that took two tickets (``x`` in place of them: X was found);
``i dee 24b ann n`` an interrogation, the target innocent (``y`` and the discards: found;
then the special black ticket, when I was found);
``f ben 17k ann=8y dee=9b`` a feint, ``b ben 44k`` buy equipment (``b cy 44k 1y,2b,3r,4k``
mine, with the cards I drew), ``dis ben 70k 65r`` a
disappear (the card I got); ``rf ann 3y 12b,40k,77r`` a refresh; ``p ann`` a pass. On my own
turn, ``+4y`` anywhere after the player is the card I drew at its start.
"""

from __future__ import annotations

from typing import Any

from sleuth.errors import InputError
from sleuth.games.scotland.course import course
from sleuth.games.scotland.rules import GENERAL, MISTER_X
from sleuth.games.scotland.tickets import Ticket
from sleuth.games.shorthand import VERDICT, Form, malformed, named, next_words, verdict

SHORT_FORMS = (
    ("ann 15y 1", "turn: BY TICKET PILE (the pile's general action) [DREW] [+DRAWN]"),
    ("m ann 66r ben 5y,40k", "manhunt: m BY TICKET TARGET TOOK|x (x: X found)"),
    ("i dee 24b ann n", "interrogation: i BY TICKET [TARGET y|n [DISCARDED [SPECIAL]]]"),
    ("f ben 17k ann=8y dee=9b", "feint: f BY TICKET PLAYER=TICKETS..."),
    ("b ben 44k", "buy equipment: b BY TICKET [DREW]"),
    ("dis ben 70k 65r", "disappear: dis BY TICKET [GOT [GAVE]]"),
    ("rf ann 3y 12b,40k,77r", "refresh: rf BY TICKET FIELD"),
    ("p ann", "pass: p BY (no ticket fits)"),
)
FORMS: tuple[Form, ...] = (
    ("", ("by", "ticket", "pile", "drew")),
    ("m", ("by", "ticket", "target", "took")),
    ("i", ("by", "ticket", "target", "verdict", "discarded", "special")),
    ("f", ("by", "ticket", "discards")),
    ("b", ("by", "ticket", "drew")),
    ("dis", ("by", "ticket", "got", "gave")),
    ("rf", ("by", "ticket", "field")),
    ("p", ("by",)),
)
FIRST = {first for first, _ in FORMS if first}


def expand(record: Any, words: list[str]) -> list[str] | None:
    """The command a short form stands for; None when the words are no short form."""
    drawn = [w[1:] for w in words[1:] if w.startswith("+")]
    words = [words[0], *(w for w in words[1:] if not w.startswith("+"))] if words else []
    first = words[0].casefold() if words else ""
    if first in FIRST:
        full = SHAPES[first](record, words[1:])
    elif len(words) in (3, 4) and words[2] in ("1", "2", "3") and _ticket_like(words[1]):
        full = ["turn", named(record, words[0]), words[1], words[2]]
        full += ["--drew", words[3]] if len(words) == 4 else []
    else:
        return None
    return full + (["--drawn", drawn[0]] if len(drawn) == 1 else [])


def _ticket_like(word: str) -> bool:
    """A word that reads as a ticket: digits and a colour letter."""
    return len(word) >= 2 and word[:-1].isdigit() and word[-1].lower() in "ybrk"


def _manhunt(record: Any, words: list[str]) -> list[str]:
    if len(words) not in (3, 4):
        raise malformed("m BY TICKET TARGET TOOK|x", "m ann 66r ben 5y,40k")
    by, ticket, target, *rest = words
    full = ["manhunt", named(record, by), ticket, named(record, target)]
    if rest and rest[0].casefold() == "x":
        return [*full, "--found"]
    return full + (["--took", rest[0]] if rest else ["--took", ""])


def _interrogation(record: Any, words: list[str]) -> list[str]:
    said = verdict(words[3]) if len(words) >= 4 else None
    if len(words) not in (2, 4, 5, 6) or (len(words) >= 4 and said is None):
        raise malformed("i BY TICKET [TARGET y|n [DISCARDED [SPECIAL]]]", "i dee 24b ann n")
    full = ["interrogate", named(record, words[0]), words[1]]
    if len(words) == 2:
        return full
    full += [named(record, words[2]), "--found" if said == "--correct" else "--innocent"]
    full += ["--discarded", words[4]] if len(words) >= 5 else []
    return full + (["--special", words[5]] if len(words) == 6 else [])


def _feint(record: Any, words: list[str]) -> list[str]:
    if len(words) < 3:
        raise malformed("f BY TICKET PLAYER=TICKETS...", "f ben 17k ann=8y dee=9b")
    by, ticket, *given = words
    return ["feint", named(record, by), ticket, *(f"--discards={g}" for g in given)]


def _buy(record: Any, words: list[str]) -> list[str]:
    if len(words) not in (2, 3):
        raise malformed("b BY TICKET [DREW]", "b ben 44k")
    full = ["buy", named(record, words[0]), words[1]]
    return full + (["--drew", words[2]] if len(words) == 3 else [])


def _disappear(record: Any, words: list[str]) -> list[str]:
    if len(words) not in (2, 3, 4):
        raise malformed("dis BY TICKET [GOT [GAVE]]", "dis ben 70k 65r")
    full = ["disappear", named(record, words[0]), words[1]]
    full += ["--got", words[2]] if len(words) >= 3 else []
    return full + (["--gave", words[3]] if len(words) == 4 else [])


def _refresh(record: Any, words: list[str]) -> list[str]:
    if len(words) != 3:
        raise malformed("rf BY TICKET FIELD", "rf ann 3y 12b,40k,77r")
    return ["refresh", named(record, words[0]), words[1], words[2]]


def _pass(record: Any, words: list[str]) -> list[str]:
    if len(words) != 1:
        raise malformed("p BY", "p ann")
    return ["pass", named(record, words[0])]


SHAPES = {
    "m": _manhunt,
    "i": _interrogation,
    "f": _feint,
    "b": _buy,
    "dis": _disappear,
    "rf": _refresh,
    "p": _pass,
}


def complete(record: Any, words: list[str]) -> tuple[str, ...]:
    """The words that may come next in a short form begun with ``words``."""
    return next_words(FORMS, words, lambda param: vocabulary(record, "", param))


def vocabulary(record: Any, command: str, param: str) -> tuple[str, ...]:
    """Players, my tickets, piles or actions, for ``param`` of ``command``."""
    try:
        mine = tuple(str(c) for c in course(record).mine if isinstance(c, Ticket))
    except InputError:  # a record the rules refuse: no hand to offer
        mine = ()
    words = {
        "by": record.table.players,
        "target": record.table.players,
        "ticket": mine,
        "gave": mine,
        "pile": tuple(str(p) for p in GENERAL),
        "action": (*GENERAL.values(), *MISTER_X.values()),
        "verdict": VERDICT,
    }
    return words.get(param.rstrip("_"), ())
