"""Looting London, played out from the rulebook with the true cards, for tests and examples.

``simulate`` deals a shuffled box, plays whole turns (a meld of the best tile the player can
pay, now and then a destroy first, a clear when the row allows it, then a draw: a face-up card
of a figure some bottom tile wants, else the deck) until the game ends or ``turns`` run out,
and writes the record from one player's seat, with the true hands after every event. The box
is a parameter: a few cards make games small enough to count by brute force.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from sleuth.games.london.cards import BOX, COLOURS, COLUMNS, DEALT, DEPTH, DISKS, Box, Tile

Choice = dict  # a turn: {"destroy": fields or None, "meld": fields or None, "draw": figure|deck}
Advisor = Callable[[dict], Choice]  # the record so far, from the advised seat -> its turn


@dataclass
class Game:
    """A simulated game: the record (``doc``), and the true hands after each event (0: setup)."""

    doc: dict
    hands: list[dict[str, Counter]] = field(default_factory=list)
    reshuffles: int = 0


@dataclass
class Table:
    """The true state of a simulated game: the deck top first."""

    columns: list[list[Tile]]
    row: list[str]
    deck: list[str]
    discard: list[str]
    hands: dict[str, Counter]
    taken: dict[str, list[Tile]]
    solved: list[str] = field(default_factory=list)
    reshuffles: int = 0


def tiles(rng: random.Random, box: Box, numbers: int) -> list[list[Tile]]:
    """Five random columns of five tiles: each colour five times, figures and numbers at random."""
    made = [
        Tile(colour, rng.choice(box.figures), rng.randint(1, numbers))
        for colour in COLOURS
        for _ in range(DEPTH)
    ]
    rng.shuffle(made)
    return [made[c * DEPTH : (c + 1) * DEPTH] for c in range(COLUMNS)]


def simulate(
    players: int,
    seed: int,
    me: int = 0,
    box: Box = BOX,
    dealt: int = DEALT,
    turns: int = 400,
    numbers: int = 4,
    destroy: float = 0.2,
    advisor: Advisor | None = None,
) -> Game:
    """A game of ``players`` from seat ``me``, seeded; at most ``turns`` turns.

    ``advisor``: when given, it plays seat ``me``'s turns instead of the simple policy: it is
    shown the record so far (from that seat) and names a turn (``Choice``).
    """
    rng = random.Random(seed)
    names = ["Ann", "Ben", "Cy", "Dee", "Eve"][:players]
    cards = [f for f in box.figures for _ in range(box.copies)]
    rng.shuffle(cards)
    hands = {p: Counter(cards[k * dealt : (k + 1) * dealt]) for k, p in enumerate(names)}
    rest = cards[dealt * players :]
    grid = tiles(rng, box, numbers)
    table = Table(grid, rest[: box.row], rest[box.row :], [], hands, {p: [] for p in names})
    doc: dict = {
        "game": "looting-london",
        "players": names,
        "me": names[me],
        "tiles": [[t.fields() for t in column] for column in grid],
        "bonus": [{"colour": c, "points": n} for c, n in COLOURS.items()],
        "row": list(table.row),
        "dealt": dealt,
        "hand": sorted(hands[names[me]].elements(), key=box.figures.index),
        "events": [],
    }
    game = Game(doc, [_copy(table.hands)])
    for turn in range(turns):
        by = names[turn % players]
        if advisor is not None and by == names[me]:
            going = _advised(table, by, advisor(game.doc), rng, game)
        else:
            going = _turn(table, by, names[me], rng, box, game, destroy)
        if not going:
            break
    game.reshuffles = table.reshuffles
    return game


def _copy(hands: dict[str, Counter]) -> dict[str, Counter]:
    return {p: Counter(h) for p, h in hands.items()}


def _log(game: Game, table: Table, event: dict) -> None:
    game.doc["events"].append(event)
    game.hands.append(_copy(table.hands))


def _turn(
    table: Table, by: str, me: str, rng: random.Random, box: Box, game: Game, destroy: float
) -> bool:
    """One whole turn; False when the game is over (or no card can be drawn)."""
    if rng.random() < destroy and _destroy(table, by, rng, game):
        if len(table.solved) >= DISKS:
            return False
    elif _meld(table, by, rng, game) and len(table.solved) >= DISKS:
        return False
    for _ in range(3):  # a row that comes up alike again may be cleared again, a few times
        if len(table.row) != box.row or len(set(table.row)) != 1 or not _refill(table, rng):
            break
        table.discard += table.row
        table.row = []
        while len(table.row) < box.row and _refill(table, rng):
            table.row.append(table.deck.pop(0))
        _log(game, table, {"clear": {"by": by, "new": list(table.row)}})
    return _draw(table, by, me, rng, game)


def _refill(table: Table, rng: random.Random) -> bool:
    """Whether a card can be drawn, the deck remade from the discard pile when empty."""
    if not table.deck and table.discard:
        table.deck = table.discard
        table.discard = []
        rng.shuffle(table.deck)
        table.reshuffles += 1
    return bool(table.deck)


def _draw(table: Table, by: str, me: str, rng: random.Random, game: Game) -> bool:
    """A face-up card of a figure some bottom tile wants, else (or by chance) the deck's top."""
    wanted = {c[-1].figure for c in table.columns if c}
    choices = [f for f in table.row if f in wanted]
    if choices and rng.random() < 0.7:
        return _take(table, by, rng.choice(choices), rng, game)
    return _top(table, by, me, rng, game)


def _take(table: Table, by: str, card: str, rng: random.Random, game: Game) -> bool:
    """``by`` takes the face-up ``card``; the deck's top turns up in its place."""
    place = table.row.index(card)
    table.row.pop(place)
    table.hands[by][card] += 1
    event: dict = {"by": by, "card": card}
    if _refill(table, rng):
        new = table.deck.pop(0)
        table.row.insert(place, new)
        event["new"] = new
    _refill(table, rng)
    _log(game, table, {"draw": event})
    return True


def _top(table: Table, by: str, me: str, rng: random.Random, game: Game) -> bool:
    """``by`` draws the deck's top card; False when no card is left to draw."""
    if not _refill(table, rng):
        return False
    card = table.deck.pop(0)
    table.hands[by][card] += 1
    _refill(table, rng)
    event = {"by": by, "from": "deck"} | ({"card": card} if by == me else {})
    _log(game, table, {"draw": event})
    return True


def _advised(table: Table, by: str, choice: Choice, rng: random.Random, game: Game) -> bool:
    """The advisor's turn: its destroy and meld as named, then its draw; False when over."""
    for kind in ("destroy", "meld"):
        step = choice.get(kind)
        if step is None:
            continue
        paid = Counter(step["cards"])
        table.hands[by] -= paid
        table.discard += list(paid.elements())
        column = table.columns[step["column"] - 1]
        gone = [column.pop() for _ in range(step.get("tiles", 1))]
        if kind == "meld":
            table.taken[by].extend(gone)
        _solve(table)
        _log(game, table, {kind: {"by": by, **step}})
        _refill(table, rng)
        if len(table.solved) >= DISKS:
            return False
    if choice["draw"] == "deck" or choice["draw"] not in table.row:
        return _top(table, by, by, rng, game)
    return _take(table, by, choice["draw"], rng, game)


def payment(hand: Counter, tile: Tile) -> dict[str, int] | None:
    """Cards of ``hand`` paying ``tile`` exactly: its figure first, then pairs; None if short."""
    need = tile.number
    own = min(hand[tile.figure], need)
    paid = {tile.figure: own} if own else {}
    need -= own
    for f in sorted(hand, key=lambda f: -hand[f]):
        if f == tile.figure or not need:
            continue
        pairs = min(hand[f] // 2, need)
        if pairs:
            paid[f] = 2 * pairs
            need -= pairs
    return None if need else paid


def _meld(table: Table, by: str, rng: random.Random, game: Game, only: int | None = None) -> bool:
    """Meld the highest bottom tile ``by`` can pay (in column ``only`` when given)."""
    options = []
    for c, column in enumerate(table.columns, 1):
        if column and (only is None or c == only):
            paid = payment(table.hands[by], column[-1])
            if paid is not None:
                options.append((column[-1].number, c, paid))
    if not options:
        return False
    _, c, paid = max(options, key=lambda o: (o[0], -o[1]))
    table.hands[by] -= Counter(paid)
    table.discard += list(Counter(paid).elements())
    tile = table.columns[c - 1].pop()
    table.taken[by].append(tile)
    _solve(table)
    _log(game, table, {"meld": {"by": by, "column": c, "cards": paid}})
    _refill(table, rng)
    return True


def _destroy(table: Table, by: str, rng: random.Random, game: Game) -> bool:
    """Destroy one tile (a pair of one figure) where the meld after it is payable."""
    hand = table.hands[by]
    pairs = [f for f in hand if hand[f] >= 2]
    columns = [c for c, column in enumerate(table.columns, 1) if len(column) >= 2]
    rng.shuffle(columns)
    for f in pairs:
        for c in columns:
            after = hand - Counter({f: 2})
            column = table.columns[c - 1]
            if payment(after, column[-2]) is None or _ends(table, column[-1]):
                continue
            table.hands[by] = after
            table.discard += [f, f]
            table.columns[c - 1].pop()
            _solve(table)
            _log(game, table, {"destroy": {"by": by, "column": c, "tiles": 1, "cards": {f: 2}}})
            _refill(table, rng)  # the deck is remade at once when empty (the course's reading)
            return _meld(table, by, rng, game, only=c) or True
    return False


def _ends(table: Table, tile: Tile) -> bool:
    """Whether losing ``tile`` would decide the last disk."""
    left = [t for column in table.columns for t in column if t.colour == tile.colour]
    return len(left) == 1 and len(table.solved) == DISKS - 1


def _solve(table: Table) -> None:
    """Mark each case with no tile left as solved."""
    left = {t.colour for column in table.columns for t in column}
    for colour in COLOURS:
        if colour not in left and colour not in table.solved:
            table.solved.append(colour)
