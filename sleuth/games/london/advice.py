"""My turn in Looting London, weighed: each meld or destroy now, each draw, and what follows.

A turn of mine (``Turn``) is a first step (nothing, a meld, or a destroy and the meld it calls
for; Game Play, steps 1 and 2) and then a draw (a face-up card or the deck's top). Each turn is
weighed by what it leaves for my next turn: per column, the chance that I can still take the
tile that is its bottom after my step (no opponent took it, and my hand then pays for it), the
chance that each opponent takes it first, and the expected number of the best tile I can meld
at my next turn. Its ``value`` is the points the step scores now plus that expectation.

The opponents' turns in between are counted by ``race`` under its model (``race.MODEL``:
each melds the highest bottom tile their hand pays for, and never destroys), exactly over
every arrangement of the hidden cards, their hands as the belief weighs them, jointly.

My payment for a tile is one of many: the tile's own figure first, then pairs of the figures I
hold most of (``payment``); a destroy pays with one figure's cards first, each figure tried.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from typing import Any

from sleuth.chance import pct
from sleuth.errors import InputError
from sleuth.games.london.cards import MOST_DESTROYED, Box, Counts, Tile, add, take, worth
from sleuth.games.london.course import Course, next_player, step
from sleuth.games.london.hands import Hands
from sleuth.games.london.race import MODEL, Race, race
from sleuth.games.london.rules import Destroy, Meld
from sleuth.model import Holder

DECK = "deck"  # the draw of the deck's top card


@dataclass(frozen=True)
class Turn:
    """One turn of mine: e.g. meld column 3 paying {"dame": 4}, then draw "waif".

    ``points``: what the first step scores now (tiles and disks); ``mine[c]``: the chance I
    can take the tile that is column c's bottom after the step at my next turn; ``before[c]``:
    per opponent, the chance they take that tile first; ``best``: the expected number of the
    best tile I can meld at my next turn; ``value``: points + best.
    """

    draw: str
    meld: Meld | None = None
    destroy: Destroy | None = None
    points: int = 0
    mine: dict[int, Fraction] = field(default_factory=dict)
    before: dict[int, dict[Holder, Fraction]] = field(default_factory=dict)
    best: Fraction = Fraction(0)
    tiles: dict[int, Tile] = field(default_factory=dict)  # column -> its bottom after the step
    race: str = ""  # the case of the tile my step takes: e.g. "orange: me 5, Ann 3"
    later: dict[int, Fraction] = field(default_factory=dict)  # column -> number expected there
    ready: Fraction = Fraction(0)  # the chance I can meld some tile at my next turn

    @property
    def value(self) -> Fraction:
        """The points now and the expected best meld next turn."""
        return self.points + self.best

    def threat(self, column: int) -> str:
        """The opponent likeliest to take ``column``'s tile first: ", Ann takes it first 12%"."""
        first = max(self.before[column].items(), key=lambda kv: kv[1], default=None)
        return f", {first[0]} takes it first {pct(first[1])}" if first and first[1] else ""


@dataclass(frozen=True)
class Advice:
    """Every turn open to me, best first, and the model of the opponents it assumes."""

    options: list[Turn]
    order: tuple[Holder, ...]  # the opponents who play before my next turn, in turn
    model: str = MODEL


def advise(found: Hands, given: dict[str, Any], deadline: Any = None) -> Advice:
    """Each turn of mine weighed (the ``advise`` part); an InputError when it is not my turn."""
    now, table = found.course, found.record.table
    due = next_player(now, table)
    if due not in (None, table.me):
        raise InputError(
            "sleuth next", "", f"it is {due}'s turn: my turns are weighed when they come"
        )
    order = table.others(table.me)
    races: dict[tuple, Race] = {}  # the race after a step, by the columns it leaves
    options = []
    for first, after in steps(now, table, found.record.start, found.box):
        if after.columns not in races:
            races[after.columns] = race(after, order, found.box)
        for card in draws(after, found.box):
            options.append(turn_of(found, first, after, card, races[after.columns]))
    options.sort(key=lambda t: (-t.value, -t.points))
    return Advice(options, order)


def weigh_turn(found: Hands, first: tuple, draw: str) -> Turn:
    """A turn of mine as played: its ``first`` events (a destroy, a meld) and then ``draw``."""
    record, after = found.record, found.course
    for event in first:
        after = step(after, event, record.table, record.start, found.box)
    if draw not in draws(after, found.box):
        raise InputError("", "card", f"no {draw} to draw: the row is {', '.join(after.row)}")
    return turn_of(
        found, first, after, draw, race(after, record.table.others(record.table.me), found.box)
    )


def turn_of(found: Hands, first: tuple, after: Course, card: str, odds: Race) -> Turn:
    """My turn: ``first`` (leaving ``after``), then ``card`` drawn, weighed on ``odds``."""
    table, start = found.record.table, found.record.start
    gained = after.points(table.me, start) - found.course.points(table.me, start)
    hand = after.known[table.me]
    turn = weigh(first, after, hand, card, gained, odds, table.others(table.me), found.box)
    return replace(turn, race=standing(after, first, table.players))


def standing(after: Course, first: tuple, players: tuple[Holder, ...]) -> str:
    """The case of the tile my step took, after it: e.g. "orange: me 5, Ann 3" ("" for none)."""
    meld = next((e for e in first if isinstance(e, Meld)), None)
    if meld is None:
        return ""
    colour = after.taken[meld.by][-1].colour
    sums = {p: sum(t.number for t in after.taken[p] if t.colour == colour) for p in players}
    rivals = sorted((p for p in players if p != meld.by), key=lambda p: -sums[p])
    shown = ", ".join(f"{p} {sums[p]}" for p in rivals if sums[p]) or "no one else"
    disk = next((d for d in after.disks if d.colour == colour), None)
    won = "" if disk is None else f" (solved: {disk.winner or 'a tie'} takes the disk)"
    return f"{colour}: me {sums[meld.by]}, {shown}{won}"


def reason(turn: Turn) -> str:
    """One line: what the step takes, and the tile the draw brings within reach next turn."""
    words = []
    if turn.destroy is not None:
        n = turn.destroy.tiles
        words.append(f"destroys {n} tile{'s' * (n > 1)} of column {turn.destroy.column}")
    if turn.meld is not None:
        words.append(f"+{turn.points} now ({turn.race})")
    reach = [(p * turn.tiles[c].number, c) for c, p in turn.mine.items() if p]
    if reach:
        _, c = max(reach)
        words.append(f"{pct(turn.mine[c])} to meld {turn.tiles[c]} next turn{turn.threat(c)}")
    elif turn.best:
        words.append(f"only a tile an opponent uncovers: {float(turn.best):.2f} expected")
    else:
        words.append("no tile within reach next turn")
    return "; ".join(words)


def steps(now: Course, table: Any, start: Any, box: Box):
    """My first steps open now, each with the course after it: nothing, melds, destroys."""
    me = table.me
    hand = now.known[me]
    if now.pending is None:
        yield (), now
    if now.melded:
        return
    for c in range(1, len(now.columns) + 1):
        if now.pending is not None and c != now.pending:
            continue
        tile = now.bottom(c)
        paid = None if tile is None else payment(hand, tile, box)
        if paid is not None:
            meld = Meld(me, c, tuple(box.named(paid).items()))
            yield (meld,), step(now, meld, table, start, box)
    if now.pending is not None:
        return
    for c, tiles in enumerate(now.columns, 1):
        for n in range(1, min(MOST_DESTROYED, len(tiles) - 1) + 1):
            prices = (payment(hand, Tile("", f, 2 * n), box) for f in box.figures)
            costs = {cost for cost in prices if cost is not None}
            for cost in sorted(costs, reverse=True):
                yield from _destroy(now, table, start, box, c, n, cost)


def _destroy(now: Course, table: Any, start: Any, box: Box, column: int, n: int, cost: Counts):
    """A destroy of ``n`` tiles of ``column`` paying ``cost``, and the meld it calls for."""
    me = table.me
    rest = take(now.known[me], cost)
    paid = payment(rest, now.columns[column - 1][-n - 1], box)
    if paid is None:
        return
    destroy = Destroy(me, column, n, tuple(box.named(cost).items()))
    meld = Meld(me, column, tuple(box.named(paid).items()))
    try:
        after = step(step(now, destroy, table, start, box), meld, table, start, box)
    except InputError:  # it would end the game: no meld could follow (Destroying Evidence)
        return
    yield (destroy, meld), after


def payment(hand: Counts, tile: Tile, box: Box) -> Counts | None:
    """Cards of ``hand`` worth ``tile.number`` for ``tile``, or None when it cannot pay.

    The tile's figure first, then pairs of the figures held most (e.g. a dame 4 from 2 dames,
    5 waifs: 2 dames, 4 waifs).
    """
    k = box.figures.index(tile.figure)
    need = tile.number
    paid = [0] * len(hand)
    paid[k] = min(hand[k], need)
    need -= paid[k]
    for f in sorted(range(len(hand)), key=lambda f: (-hand[f], f)):
        if f != k and need:
            pairs = min(hand[f] // 2, need)
            paid[f] = 2 * pairs
            need -= pairs
    return None if need else tuple(paid)


def draws(now: Course, box: Box) -> list[str]:
    """The draws open: each figure face up once, and the deck when it has a card."""
    out = list(dict.fromkeys(now.row))
    if now.deck or sum(now.discard):
        out.append(DECK)
    return out


def weigh(
    first: tuple,
    after: Course,
    hand: Counts,
    card: str,
    gained: int,
    odds: Race,
    order: tuple[Holder, ...],
    box: Box,
) -> Turn:
    """One turn: my first step (leaving ``hand``), then ``card`` drawn, over the opponents'."""
    bottoms = {c: tiles[-1] for c, tiles in enumerate(after.columns, 1) if tiles}
    mine = dict.fromkeys(bottoms, 0)
    later = dict.fromkeys(bottoms, 0)
    before = {c: dict.fromkeys(order, 0) for c in bottoms}
    best = ready = 0
    deck = card == DECK
    pays: dict[tuple[Counts, Tile], bool] = {}
    for (takes, f), n in odds.counts.items():
        if deck == (f is None):
            continue
        held = add(hand, _one(box.figures.index(card) if not deck else f, len(hand)))
        for k, (player, c) in enumerate(zip(order, takes, strict=True)):
            if c and c not in takes[:k]:
                before[c][player] += n
        tiles = odds.bottoms(after, takes)
        if tiles is None:
            continue
        payable = []
        for c, tile in tiles:
            if (held, tile) not in pays:
                pays[held, tile] = worth(held, tile, box) >= tile.number
            if pays[held, tile]:
                payable.append((c, tile.number))
        for c, number in payable:
            if c in later:
                later[c] += n * number
                mine[c] += n * (c not in takes)
        best += n * max((number for _, number in payable), default=0)
        ready += n * bool(payable)
    meld = next((e for e in first if isinstance(e, Meld)), None)
    destroy = next((e for e in first if isinstance(e, Destroy)), None)

    def chance(n: int) -> Fraction:
        return Fraction(n, odds.total)

    return Turn(
        card,
        meld,
        destroy,
        gained,
        {c: chance(n) for c, n in mine.items()},
        {c: {p: chance(n) for p, n in by.items()} for c, by in before.items()},
        chance(best),
        bottoms,
        later={c: chance(n) for c, n in later.items()},
        ready=chance(ready),
    )


@cache
def _one(f: int, width: int) -> Counts:
    """One card of figure ``f``."""
    return tuple(int(i == f) for i in range(width))


@dataclass(frozen=True)
class Hold:
    """``check COLUMN``: take its bottom tile now, destroy it for one above, or wait.

    ``now``: my best turn that melds the bottom tile (None when my hand cannot pay);
    ``destroy``: my best turn that destroys tiles of the column and melds the one left below;
    ``wait``: my best turn without a meld for the column's sake, by the expected number I meld
    in this column at my next turn (``Turn.later``).
    """

    column: int
    tile: Tile | None
    above: Tile | None
    now: Turn | None
    destroy: Turn | None
    wait: Turn | None
    melded: bool = False  # I melded this turn already: no meld is open until my next

    @property
    def later(self) -> Fraction:
        """What waiting is worth: the expected number I meld in this column next turn."""
        return self.wait.later.get(self.column, Fraction(0)) if self.wait else Fraction(0)

    @property
    def verdict(self) -> str:
        """The best of take, destroy and wait; none with no tile or nothing to gain."""
        worth_ = {
            "take": Fraction(self.now.points) if self.now else None,
            "destroy": Fraction(self.destroy.points) if self.destroy else None,
            "wait": self.later if self.later else None,
        }
        open_ = {k: v for k, v in worth_.items() if v is not None}
        return max(open_, key=lambda k: open_[k]) if open_ else "none"


def hold(found: Hands, column: int) -> Hold:
    """Weigh ``column``'s bottom tile for me now (``check``)."""
    now = found.course
    tiles = now.columns[column - 1]
    tile = tiles[-1] if tiles else None
    above = tiles[-2] if len(tiles) > 1 else None
    try:
        options = advise(found, {}).options if tile is not None else []
    except InputError as error:  # e.g. not my turn: the check's own words
        raise InputError("sleuth check", error.field, error.message) from None
    takes = [t for t in options if t.meld and t.meld.column == column]
    return Hold(
        column,
        tile,
        above,
        next((t for t in takes if t.destroy is None), None),
        next((t for t in takes if t.destroy is not None), None),
        max(
            (t for t in options if t.meld is None),
            key=lambda t: t.later.get(column, Fraction(0)),
            default=None,
        ),
        now.melded,
    )
