"""Which row to search next: every search I may make, its answer split exactly, and its value.

The legal searches follow the route (rulebook: Course of Play): from my space I move 1 to 6
spaces clockwise, occupied spaces skipped and not counted, and search a row offered where I
land. Each search's answer is the number of GOLD BARS cards I would receive: how many other
players hold a sector of the row (``Search.tallies``, my own search).

Guessing now or later is weighed by the model ``check`` uses too (``advice.timing``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from sleuth.advisor import (
    Question,
    Split,
    answer_splits,
    best_holding,
    chances,
    information,
    shares,
)
from sleuth.errors import InputError
from sleuth.games.goldraub.advice import Timing
from sleuth.games.goldraub.advice import timing as weigh
from sleuth.games.goldraub.board import City
from sleuth.games.goldraub.picture import waiting
from sleuth.games.goldraub.rules import Guess, Search, may_guess
from sleuth.model import Holder, Item, Term
from sleuth.render.common import Phrases, bits, fitted, not_counted, pct, signed
from sleuth.solve import Counts

if TYPE_CHECKING:
    from sleuth.analysis import Report
    from sleuth.budget import Deadline
    from sleuth.record import Record

MOVE = range(1, 7)  # a die roll: 1 to 6 spaces


def landings(city: City, at: int, occupied: set[int]) -> list[int]:
    """The 1st to 6th free space clockwise of ``at``: occupied spaces skipped, not counted."""
    spaces = sorted(city.route)
    out, space = [], at
    free = [s for s in spaces if s not in occupied and s != at]
    for _ in MOVE:
        if not free:
            break
        space = spaces[(spaces.index(space) + 1) % len(spaces)]
        while space in occupied or space == at:
            space = spaces[(spaces.index(space) + 1) % len(spaces)]
        out.append(space)
    return out


def legal(city: City, at: int | None, occupied: set[int]) -> list[tuple[int | None, str]]:
    """Every (landing space, row) I may search next; with my space unknown, (None, row)."""
    if at is None:
        return [(None, row) for row in city.rows]
    return [(space, row) for space in landings(city, at, occupied) for row in city.route[space]]


def last_at(record: Record, player: Holder | None) -> int | None:
    """The ``at`` of ``player``'s last search, or None when that search has none (or no search)."""
    searches = [e for e in record.events if isinstance(e, Search) and e.by == player]
    return searches[-1].at if searches else None


def spaces(record: Record, at: int | None, occupied: list[int] | None):
    """My space and the other figures' spaces: the options, else the record's last searches."""
    mine = at if at is not None else last_at(record, record.table.me)
    if occupied is None:
        others = (last_at(record, p) for p in record.table.opponents())
        occupied = [s for s in others if s is not None]
    return mine, set(occupied)


def question(record: Record, row: str) -> Question:
    """My search of ``row``: one term per other player, 1 when he holds a sector of it."""
    items = frozenset(record.start.city.rows[row])
    return tuple(Term(p, items, True) for p in record.table.opponents())


def open_holdings(record: Record) -> list[tuple[Holder, Item]]:
    """Holdings of other players not yet revealed by a right guess."""
    revealed = {e.sector for e in record.events if isinstance(e, Guess) and e.correct}
    return [
        (p, s)
        for p in record.table.players
        if p != record.table.me
        for s in record.start.city.sectors
        if s not in revealed
    ]


def value_after(record: Record) -> int:
    """The round value once my search is made: v of the contract."""
    searches = sum(isinstance(e, Search) for e in record.events)
    n = len(record.table.players)
    return max(0, record.start.rounds - (searches + 1) // n)


def search_value(split: Split, holdings: list[tuple[Holder, Item]], v: int) -> Fraction:
    """Expected points of my best guess right after the answer: v x sum P(a) max(0, 15 q(a) - 5)."""
    total = sum(c.total for c in split.values())
    gain = sum(
        (
            Fraction(c.total, total) * max(Fraction(0), 15 * best_holding(c, holdings) - 5)
            for c in split.values()
        ),
        Fraction(0),
    )
    return v * gain


@dataclass(frozen=True)
class SearchOption:
    """One search I may make: where, which row, the answer's split and what it is worth."""

    space: int | None
    row: str
    answers: dict[int, Fraction]
    information: float
    value: Fraction
    public: float | None  # the answer's entropy for a player who knows only the public record
    reason: str


@dataclass(frozen=True)
class GuessTiming:
    """A likely holding: guessing it now against one round later (``advice.timing``)."""

    owner: Holder
    sector: Item
    probability: Fraction
    timing: Timing


@dataclass(frozen=True)
class SearchAdvice:
    """Every search I may make, best first, and the timing of my likely guesses.

    ``uncounted``: the searches (space, row) whose split was not counted within the budget;
    ``worlds`` is None when not even the record's deals were (then nothing is advised).
    """

    at: int | None
    worlds: int | None
    options: list[SearchOption]
    guesses: list[GuessTiming]
    uncounted: list[tuple[int | None, str]] = dataclasses.field(default_factory=list)


def reason(split: Split, holdings: list[tuple[Holder, Item]], base: Counts, best: bool) -> str:
    """One line: why the search ranks where it does, or what its likeliest answer would settle.

    The best search's reason is its rank's (it splits the deals most evenly); the likeliest
    answer that makes an open holding certain follows it, its chance beside it. A 0.3% answer
    is never the reason a search is best (a player at the table read it so).
    """
    occurring = [c.total for c in split.values() if c.total]
    if len(occurring) == 1:
        answer = next(a for a, c in split.items() if c.total)
        return f"the answer is certain: {answer}, it tells nothing"
    settles = settled(split, holdings, base)
    if best:
        ranked = f"splits the {base.total:,} deals most evenly"
        return ranked if settles is None else f"{ranked}; {settles}"
    if settles is not None:
        return settles
    largest = max(occurring) / base.total
    return f"{len(occurring)} answers; the likeliest covers {largest:.0%} of the deals"


def settled(split: Split, holdings: list[tuple[Holder, Item]], base: Counts) -> str | None:
    """The likeliest answer that makes an open holding certain, in words; None if none does."""
    uncertain = [h for h in holdings if base.held[h] < base.total]
    for answer, part in sorted(split.items(), key=lambda kv: -kv[1].total):
        sure = [h for h in uncertain if part.total and part.held[h] == part.total]
        if sure:
            owner, sector = min(sure, key=lambda h: (h[0], int(h[1])))
            likely = pct(Fraction(part.total, base.total))
            return f"an answer of {answer} ({likely} likely) would make {owner} {sector} certain"
    return None


def timing(record: Record, base: Counts, holdings: list[tuple[Holder, Item]], top: int):
    """The ``top`` likeliest open holdings, weighed now against one round later."""
    me, size = record.table.me, record.start.city.hand_size
    allowed = may_guess(record.events, record.table.players, record.start.rounds, me, size)[0]
    ranked = sorted(holdings, key=lambda h: (-base.held[h], h[0], int(h[1])))[:top]
    out = []
    for owner, sector in ranked:
        p = Fraction(base.held[owner, sector], base.total)
        if p:
            out.append(GuessTiming(owner, sector, p, weigh(record, p, allowed)))
    return out


def wanted(record: Record, given: dict[str, Any]) -> tuple[int | None, set[int]]:
    """My space and the other figures' from ``next``'s options, checked before any count.

    An InputError for an option this game does not take, a space off the route, and an
    ``--occupied`` that names a space twice, more spaces than the others have figures, or mine.
    """
    unknown = set(given) - {"at", "occupied", "public"}
    if unknown:
        name = sorted(unknown)[0]
        raise InputError("sleuth next", name, "this game takes --at, --occupied and --public")
    city, occupied = record.start.city, route_spaces(given.get("occupied"))
    named = [("at", given.get("at"))] + [("occupied", s) for s in occupied or []]
    for field, space in named:
        if space is not None and space not in city.route:
            route = f"{min(city.route)}-{max(city.route)}"
            raise InputError("sleuth next", field, f"{space} is not a route space ({route})")
    at, taken = spaces(record, given.get("at"), occupied)
    if occupied is not None:
        _figures(occupied, len(record.table.players) - 1, at)
    return at, taken


def route_spaces(text: str | list[int] | None) -> list[int] | None:
    """``--occupied`` as typed, "12,30,7", as route spaces; an InputError when it is not so.

    A list of spaces (a caller in Python) is taken as it is.
    """
    if text is None or isinstance(text, list):
        return text
    spaces = [t.strip() for t in text.split(",") if t.strip()]
    for space in spaces:
        digits = space.removeprefix("-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > DIGITS:
            message = f"{text!r} is not route spaces S,S,..."
            raise InputError("sleuth next", "occupied", message)
    return [int(space) for space in spaces]


DIGITS = 9  # the most digits a route space may be typed with, as any number on the command line


def _figures(occupied: list[int], others: int, mine: int | None) -> None:
    """An InputError unless ``occupied`` can be the other figures' spaces: one each, not mine."""
    twice = next((s for k, s in enumerate(occupied) if s in occupied[:k]), None)
    if twice is not None:
        message = f"space {twice} is named twice: two figures never share a space"
        raise InputError("sleuth next", "occupied", message)
    if len(occupied) > others:
        message = f"{len(occupied)} spaces for the {others} other figures"
        raise InputError("sleuth next", "occupied", message)
    if mine in occupied:
        message = f"space {mine} is my own figure's (--at, else my last search)"
        raise InputError("sleuth next", "occupied", message)


def advise(
    report: Report, given: dict[str, Any], deadline: Deadline | None = None, top: int = 5
) -> SearchAdvice:
    """The searches of my next turn, each split exactly; best first (by information).

    A search not counted by the ``deadline`` (if any) is left out and named (``uncounted``).
    """
    record = report.record
    city = record.start.city
    at, occupied = wanted(record, given)
    searches = legal(city, at, occupied)
    base = counted(report)
    if base is None:
        return SearchAdvice(at, None, [], [], searches)
    model, public = record.model(), record.public().model() if given.get("public") else None
    holdings = open_holdings(record)
    v = value_after(record)
    rows = list(dict.fromkeys(row for _, row in searches))
    asked = [question(record, row) for row in rows]
    splits = answer_splits(model, asked, deadline)
    heard = answer_splits(public, asked, deadline) if public is not None else [None] * len(rows)
    seen = {
        row: (split, None if said is None else information(said))
        for row, split, said in zip(rows, splits, heard, strict=True)
    }
    options, uncounted = [], []
    for space, row in searches:
        split, public_bits = seen[row]
        if split is None:
            uncounted.append((space, row))
            continue
        options.append(
            SearchOption(
                space,
                row,
                chances(split),
                information(split),
                search_value(split, holdings, v),
                public_bits,
                "",
            )
        )
    options.sort(key=lambda o: (-o.information, -o.value, o.space or 0, o.row))
    found = {row: split for row, (split, _) in seen.items() if split is not None}
    options = [_with_reason(o, found[o.row], holdings, base, k == 0) for k, o in enumerate(options)]
    guesses = timing(record, base, holdings, top)
    return SearchAdvice(at, base.total, options, guesses, uncounted)


def counted(report: Report) -> Counts | None:
    """The record's counts, when the report counted them exactly (else none in the budget)."""
    odds = report.odds
    return Counts(odds.worlds, odds.held) if odds.exact and odds.worlds else None


def _with_reason(option: SearchOption, split: Split, holdings, base: Counts, best: bool):
    """The option with its one-line reason filled in."""
    line = reason(split, holdings, base, best)
    return SearchOption(
        option.space,
        option.row,
        option.answers,
        option.information,
        option.value,
        option.public,
        line,
    )


def advice_json(advice: SearchAdvice) -> dict:
    """The contract's ``next --json`` object; ``public_information`` and ``guesses`` added."""
    return {
        "game": "goldraub",
        "at": advice.at,
        "options": [
            {
                "space": o.space,
                "row": o.row,
                "answers": {str(a): float(p) for a, p in o.answers.items()},
                "information": o.information,
                "value": float(o.value),
            }
            | ({} if o.public is None else {"public_information": o.public})
            for o in advice.options
        ],
        "guesses": [
            {
                "owner": g.owner,
                "sector": g.sector,
                "probability": float(g.probability),
                "now": float(g.timing.now),
                "wait": float(g.timing.wait),
                "wait_least": float(g.timing.least),
                "taken": float(g.timing.taken),
                "verdict": g.timing.verdict,
            }
            for g in advice.guesses
        ],
    } | uncounted_json(advice)


def uncounted_json(advice: SearchAdvice) -> dict:
    """The optional keys of searches left out: ``uncounted`` [{space, row}], null worlds."""
    if not advice.uncounted:
        return {}
    left = [{"space": space, "row": row} for space, row in advice.uncounted]
    return {"complete": False, "uncounted": left, "worlds": advice.worlds}


def show_advice(console: Console, advice: SearchAdvice, limit: int = 12) -> None:
    """The best searches of my next turn, then the timing of my likely guesses."""
    public = any(o.public is not None for o in advice.options)
    table = Table(title="Searches for my next turn, best first", title_justify="left")
    for column in ("space", "row", "answers %", "bits") + ("public",) * public + ("value",):
        table.add_column(column, justify="right" if column in ("bits", "value") else "left")
    for o in advice.options[:limit]:
        heard = (bits(o.public),) if public else ()
        where = "?" if o.space is None else str(o.space)
        told, value = f"{o.information:.2f}", f"{float(o.value):.1f}"
        table.add_row(where, o.row, Phrases(shares(o.answers).split(), " "), told, *heard, value)
    if advice.options:
        console.print(fitted(table))
    if advice.options and advice.at is None:
        console.print(Text("space ?: my figure's space is not known yet: every row (or --at)"))
    if advice.uncounted:
        rows = list(dict.fromkeys(row for _, row in advice.uncounted))
        console.print(Text(not_counted("searches of rows", rows, advice.worlds is None)))
    if advice.options:
        best = advice.options[0]
        console.print(Text(f"best: {best.row} ({best.reason})"))
    if advice.guesses:
        guesses = Table(title="Guess now or wait a round?", title_justify="left")
        for column in ("owner", "sector", "probability", "now", "wait", "verdict"):
            guesses.add_column(column)
        for g in advice.guesses:
            t = g.timing
            now = signed(float(t.now))
            guesses.add_row(g.owner, g.sector, pct(g.probability), now, waiting(t), t.verdict)
        console.print(fitted(guesses))
        taken = pct(advice.guesses[0].timing.taken)
        legend = f"wait: a round later, at least to at best (another guesses it first: {taken})"
        console.print(Text(legend))
        if any(g.timing.verdict == "close" for g in advice.guesses):
            console.print(Text("close: the next answers decide ('sleuth next --help': the model)"))
