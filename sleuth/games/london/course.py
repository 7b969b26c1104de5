"""Looting London: the course of play, as I see it from my seat.

``follow`` walks the record event by event and keeps what the table shows (the columns of
tiles, the face-up row, the deck's size, the discard pile, the tiles taken and destroyed, the
bonus disks, whose turn it is) and what I know of each hand (the cards I saw go in, my own
whole hand, how many cards each opponent drew unseen); it refuses the first event the rules do
not allow where it stands. For the belief (``sleuth.games.london.hands``) it also logs where
the hidden cards come from: each pool the deck was made from (the cards left after the deal,
then the discard pile at each reshuffle), the cards I saw turned up from each, and each
opponent's unseen draws and the cards their melds showed.

Readings where the rulebook is silent (each in ``docs/london.md``):

- A turn is: a destroy and the meld it calls for, or a meld, or neither; then any clears;
  then the draw, which ends it. No other player acts until it ends.
- A meld pays the tile's number exactly (``cards.shortfall``).
- The deck is remade from the discard pile as soon as it is empty and the pile is not,
  also between the four cards a clear turns up; with both empty, a row card taken is not
  replaced, and no one can draw from the deck.
- A case none of whose tiles anyone took is a tie at 0: its disk is discarded.
- The game ends the moment the fourth disk is awarded or discarded: no draw follows.
- A destroy must leave a tile in its column, and may not end the game; when I destroy, I must
  hold the cards for the meld that follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sleuth.errors import InputError
from sleuth.games.base import Event, Status, Table, refused
from sleuth.games.london.cards import (
    BOX,
    DISKS,
    Box,
    Counts,
    Tile,
    add,
    shortfall,
    take,
    within,
    worth,
)
from sleuth.games.london.rules import Clear, Destroy, Draw, Meld, Start
from sleuth.model import Holder

Op = tuple[str, Any]  # an opponent's hidden step: ("draw", pool) or ("reveal", Counts)


@dataclass(frozen=True)
class Disk:
    """A bonus disk decided: its colour, its points, who won it (None: a tie, discarded)."""

    colour: str
    points: int
    winner: Holder | None


@dataclass(frozen=True)
class Course:
    """The game after some events, from my seat.

    e.g. columns ((tile, ...), ...) top to bottom, row ("waif", "dame", ...), deck 44.
    ``known``: the cards I know each player holds (my whole hand, the row cards the others
    took and still hold); ``blind``: how many cards each opponent drew unseen and still holds.
    ``turn``: the player whose turn is under way (None between turns); ``melded`` whether
    they melded in it; ``pending``: the column whose meld a destroy calls for.
    ``pools``: the make-up of each deck (0: the cards not seen at the setup; then the discard
    pile at each reshuffle); ``seen``: per pool, the cards I saw come from it; ``ops``: per
    opponent, their unseen draws and what their melds showed, in order.
    """

    columns: tuple[tuple[Tile, ...], ...]
    row: tuple[str, ...]
    deck: int
    discard: Counts
    known: dict[Holder, Counts]
    blind: dict[Holder, int]
    pools: tuple[Counts, ...]
    seen: tuple[Counts, ...]
    ops: dict[Holder, tuple[Op, ...]]
    taken: dict[Holder, tuple[Tile, ...]] = field(default_factory=dict)
    destroyed: tuple[Tile, ...] = ()
    disks: tuple[Disk, ...] = ()
    turn: Holder | None = None
    melded: bool = False
    pending: int | None = None
    turns: tuple[Holder, ...] = ()  # who ended each turn so far, in order
    over: str | None = None

    @property
    def pool(self) -> int:
        """The pool the deck is made from now (0 until the first reshuffle)."""
        return len(self.pools) - 1

    def hand(self, player: Holder) -> int:
        """How many cards ``player`` holds."""
        return sum(self.known[player]) + self.blind[player]

    def bottom(self, column: int) -> Tile | None:
        """The tile a meld in ``column`` (1-based) takes, or None when the column is empty."""
        tiles = self.columns[column - 1]
        return tiles[-1] if tiles else None

    def unseen(self, box: Box = BOX) -> Counts:
        """The cards I have not seen where they are now: in the deck or drawn unseen."""
        visible = self.discard
        for counts in self.known.values():
            visible = add(visible, counts)
        return take(take(box.full, visible), box.counts(self.row, "row"))

    def solved(self) -> tuple[str, ...]:
        """The colours whose cases are solved, in the order their disks were decided."""
        return tuple(d.colour for d in self.disks)

    def points(self, player: Holder, start: Start) -> int:
        """``player``'s score now: tiles (not of the unsolved colour, once over) and disks."""
        unsolved = (set(start.bonus) - set(self.solved())) if self.over else set()
        tiles = sum(t.number for t in self.taken[player] if t.colour not in unsolved)
        return tiles + sum(d.points for d in self.disks if d.winner == player)


def setup(table: Table, start: Start, box: Box = BOX) -> Course:
    """The table after the deal (rulebook: Setup): the row face up, each hand dealt unseen."""
    me, players = table.me, table.players
    mine = box.counts(start.hand, "hand")
    pool = take(take(box.full, mine), box.counts(start.row, "row"))
    none = (0,) * len(box.figures)
    deck = sum(pool) - start.dealt * (len(players) - 1)
    if deck < 0 or min(pool) < 0:
        raise InputError("", "dealt", "the box holds too few cards for this deal")
    return Course(
        columns=start.tiles,
        row=start.row,
        deck=deck,
        discard=none,
        known={p: mine if p == me else none for p in players},
        blind={p: 0 if p == me else start.dealt for p in players},
        pools=(pool,),
        seen=(none,),
        ops={p: (("draw", 0),) * start.dealt for p in players if p != me},
        taken={p: () for p in players},
    )


def follow(events: Sequence[Event], table: Table, start: Start, box: Box = BOX) -> list[Course]:
    """The course after the setup and after each event; an InputError at the first refused."""
    now = setup(table, start, box)
    out = [now]
    for index, event in enumerate(events, 1):
        try:
            now = step(now, event, table, start, box)
        except InputError as error:
            raise error.located(event=index) from None
        out.append(now)
    return out


def step(now: Course, event: Event, table: Table, start: Start, box: Box = BOX) -> Course:
    """The course after one more event, or an InputError naming the rule it breaks."""
    assert isinstance(event, Draw | Meld | Destroy | Clear)
    if now.over:
        raise InputError("", "", f"the game is over: {now.over}")
    if now.turn is not None and event.by != now.turn:
        raise InputError("", "by", f"{now.turn}'s turn is under way: their draw ends it first")
    if isinstance(event, Draw):
        now = _draw(now, event, table, box)
    elif isinstance(event, Meld):
        now = _meld(now, event, table, start, box)
    elif isinstance(event, Destroy):
        now = _destroy(now, event, table, start, box)
    else:
        now = _clear(now, event, box)
    return _refill(now, box)


def _refill(now: Course, box: Box) -> Course:
    """An empty deck is remade from the discard pile, when there is one (our reading of Draw)."""
    if now.deck or not sum(now.discard):
        return now
    none = (0,) * len(box.figures)
    pools, seen = (*now.pools, now.discard), (*now.seen, none)
    return replace(now, deck=sum(now.discard), discard=none, pools=pools, seen=seen)


def _turn(now: Course, by: Holder) -> Course:
    """``by``'s turn, begun now if none is under way."""
    return now if now.turn == by else replace(now, turn=by, melded=False, pending=None)


def _turn_up(now: Course, card: str | None, box: Box, field: str) -> Course:
    """The deck's top card turned up (``card``: what it showed), the deck refilled if need be."""
    now = _refill(now, box)
    if not now.deck:
        raise InputError("", field, "no card is left in the deck or the discard pile")
    if card is not None:
        k = box.index(card, field)
        left = take(now.pools[-1], now.seen[-1])[k]
        if left < 1 or now.unseen(box)[k] < 1:
            raise InputError("", field, f"no {card} card can be left in the deck")
        bump = tuple(n + (i == k) for i, n in enumerate(now.seen[-1]))
        now = replace(now, seen=(*now.seen[:-1], bump))
    return replace(now, deck=now.deck - 1)


def _draw(now: Course, draw: Draw, table: Table, box: Box) -> Course:
    """Draw (mandatory): a face-up card replaced from the deck, or the deck's top card."""
    by = draw.by
    now = _turn(now, by)
    if now.pending is not None:
        raise InputError("", "by", f"the destroy calls for a meld in column {now.pending} first")
    if draw.deck:
        if not now.deck and not sum(now.discard):
            raise InputError("", "from", "no card is left in the deck or the discard pile")
        now = _turn_up(now, draw.card, box, "card")
        if by == table.me:
            assert draw.card is not None  # rules.Draw asks for my card
            now = _gain(now, by, box.counts((draw.card,), "card"))
        else:
            ops = {**now.ops, by: (*now.ops[by], ("draw", now.pool))}
            now = replace(now, ops=ops, blind={**now.blind, by: now.blind[by] + 1})
    else:
        assert draw.card is not None  # rules.Draw asks for the card taken
        if draw.card not in now.row:
            shown = ", ".join(now.row) or "nothing"
            raise InputError("", "card", f"no {draw.card} is face up (the row: {shown})")
        place = now.row.index(draw.card)
        now = _gain(now, by, box.counts((draw.card,), "card"))
        row = now.row[:place] + now.row[place + 1 :]
        if draw.new is None:
            if now.deck or sum(now.discard):
                raise InputError("", "new", "which card was turned up in its place?")
        else:
            now = _turn_up(replace(now, row=row), draw.new, box, "new")
            row = row[:place] + (draw.new,) + row[place:]
        now = replace(now, row=row)
    return replace(now, turn=None, melded=False, turns=(*now.turns, by))


def _gain(now: Course, player: Holder, cards: Counts) -> Course:
    """``player`` holds ``cards`` more, seen by me."""
    return replace(now, known={**now.known, player: add(now.known[player], cards)})


def _turn_in(now: Course, by: Holder, paid: dict[str, int], table: Table, box: Box) -> Course:
    """``by`` turns in ``paid`` to the discard pile; what it shows of their unseen cards.

    My own cards must be in my hand; an opponent's are first the cards I saw them take, and
    the rest (the reveal) come from their unseen cards: no more than they hold unseen, nor
    than the cards I have not seen.
    """
    cards = box.counts(paid, "cards")
    known = now.known[by]
    if by == table.me:
        if not within(cards, known):
            held = ", ".join(f"{n} {f}" for f, n in box.named(known).items()) or "nothing"
            raise InputError("", "cards", f"I do not hold these cards (I hold {held})")
        return replace(
            _gain(now, by, take((0,) * len(cards), cards)), discard=add(now.discard, cards)
        )
    if sum(cards) > now.hand(by):
        raise InputError("", "cards", f"{by} holds {now.hand(by)} cards, not {sum(cards)}")
    reveal = tuple(max(0, m - k) for m, k in zip(cards, known, strict=True))
    unseen = now.unseen(box)
    for k, n in enumerate(reveal):
        if n > unseen[k]:
            name = box.figures[k]
            raise InputError("", "cards", f"{by} cannot hold {n} more {name}: {unseen[k]} unseen")
    kept = take(known, tuple(min(m, k) for m, k in zip(cards, known, strict=True)))
    now = replace(
        now,
        known={**now.known, by: kept},
        blind={**now.blind, by: now.blind[by] - sum(reveal)},
        discard=add(now.discard, cards),
    )
    if sum(reveal):
        now = replace(now, ops={**now.ops, by: (*now.ops[by], ("reveal", reveal))})
    return now


def _meld(now: Course, meld: Meld, table: Table, start: Start, box: Box) -> Course:
    """Melding: the bottom tile of the column, paid exactly; one meld a turn, at its start."""
    now = _turn(now, meld.by)
    if now.melded:
        raise InputError("", "by", f"{meld.by} melded this turn already: one meld a turn")
    if now.pending is not None and meld.column != now.pending:
        raise InputError("", "column", f"after the destroy the meld is in column {now.pending}")
    tile = now.bottom(meld.column)
    if tile is None:
        raise InputError("", "column", f"column {meld.column} has no tile left")
    why = shortfall(tile, meld.paid)
    if why:
        raise InputError("", "cards", why)
    now = _turn_in(now, meld.by, meld.paid, table, box)
    columns = _without(now.columns, meld.column, 1)
    taken = {**now.taken, meld.by: (*now.taken[meld.by], tile)}
    now = replace(now, columns=columns, taken=taken, melded=True, pending=None)
    return _decide(now, table, start)


def _destroy(now: Course, destroy: Destroy, table: Table, start: Start, box: Box) -> Course:
    """Destroying Evidence: before the meld, some tiles of a column, never its last one."""
    now = _turn(now, destroy.by)
    if now.melded or now.pending is not None:
        raise InputError("", "by", "a destroy comes before the turn's meld, once")
    left = len(now.columns[destroy.column - 1])
    if destroy.tiles >= left:
        raise InputError(
            "", "tiles", f"column {destroy.column} has {left} tiles: its last one cannot go"
        )
    now = _turn_in(now, destroy.by, destroy.paid, table, box)
    gone = now.columns[destroy.column - 1][left - destroy.tiles :]
    columns = _without(now.columns, destroy.column, destroy.tiles)
    now = replace(now, columns=columns, destroyed=(*now.destroyed, *gone), pending=destroy.column)
    now = _decide(now, table, start)
    if now.over:
        raise InputError("", "tiles", "this destroy would end the game: no meld could follow")
    if destroy.by == table.me:
        tile = now.bottom(destroy.column)
        assert tile is not None  # a tile is left
        if worth(now.known[table.me], tile, box) < tile.number:
            raise InputError("", "tiles", f"I could not meld {tile} after it")
    return now


def _clear(now: Course, clear: Clear, box: Box) -> Course:
    """Draw: four identical face-up cards discarded, four new ones turned up."""
    now = _turn(now, clear.by)
    if now.pending is not None:
        raise InputError("", "by", f"the destroy calls for a meld in column {now.pending} first")
    if len(now.row) != box.row or len(set(now.row)) != 1:
        raise InputError(
            "", "new", f"the face-up cards are not {box.row} alike: {', '.join(now.row)}"
        )
    now = replace(now, discard=add(now.discard, box.counts(now.row, "row")), row=())
    for card in clear.new:
        now = _turn_up(now, card, box, "new")
    if len(clear.new) < box.row and (now.deck or sum(now.discard)):
        raise InputError("", "new", f"{box.row} cards were turned up, not {len(clear.new)}")
    return replace(now, row=clear.new)


def _without(columns: tuple[tuple[Tile, ...], ...], column: int, n: int) -> tuple:
    """The columns with the bottom ``n`` tiles of ``column`` gone."""
    tiles = columns[column - 1]
    return columns[: column - 1] + (tiles[: len(tiles) - n],) + columns[column:]


def _decide(now: Course, table: Table, start: Start) -> Course:
    """Each case solved by the last tile taken or destroyed: its disk won, or discarded on a tie.

    The game ends once the fourth disk is decided (Game End & Scoring).
    """
    left = {t.colour for column in now.columns for t in column}
    disks = now.disks
    for colour, points in start.bonus.items():
        if colour in left or colour in {d.colour for d in disks}:
            continue
        sums = {p: sum(t.number for t in now.taken[p] if t.colour == colour) for p in table.players}
        best = max(sums.values())
        leaders = [p for p, n in sums.items() if n == best]
        disks = (*disks, Disk(colour, points, leaders[0] if len(leaders) == 1 else None))
    now = replace(now, disks=disks)
    if len(disks) >= DISKS and not now.over:
        last = disks[-1]
        how = f"won by {last.winner}" if last.winner else "discarded on a tie"
        now = replace(now, over=f"the {last.colour} disk, the fourth, was {how}")
    return now


def forbidden(events: list[Event], table: Table, start: Start) -> InputError | None:
    """The first event the rules do not allow where it stands, as an error; None if none."""
    return refused(follow, events, table, start)


def course(record: Any) -> Course:
    """Where the record's game stands after all its events (a record the rules allow)."""
    return follow(record.events, record.table, record.start)[-1]


def next_player(now: Course, table: Table) -> Holder | None:
    """Whose turn it is: the one under way, else the next clockwise; None before the first."""
    if now.over:
        return None
    if now.turn is not None:
        return now.turn
    return table.offset(now.turns[-1], 1) if now.turns else None


def turn_note(record: Any, index: int) -> str | None:
    """A note when event ``index`` begins a turn out of the clockwise order, else None."""
    try:
        before = follow(record.events[: index - 1], record.table, record.start)[-1]
    except InputError:
        return None
    due = next_player(before, record.table)
    by = getattr(record.events[index - 1], "by", None)
    if due is None or by == due:
        return None
    return f"event {index}: {by} took a turn out of order ({due} was next, clockwise)"


def status(record: Any) -> Status:
    """The round, who plays next, the deck, the disks decided and how the game ended."""
    now = course(record)
    table = record.table
    rounds = 1
    if now.turns:
        first = table.seat(now.turns[0])
        seats = [(table.seat(p) - first) % len(table.players) for p in now.turns]
        rounds = 1 + sum(b <= a for a, b in zip(seats, seats[1:], strict=False))
    notes = (f"deck {now.deck}", f"discard {sum(now.discard)}", f"disks {len(now.disks)}/{DISKS}")
    return Status(rounds, next_player(now, table), over=now.over, notes=notes)
