"""Brute force for Looting London: every order of the hidden cards, played out card by card.

Written from the rulebook and the record contract, independent of sleuth's belief: a world is
one order of the cards I did not see at the setup (the opponents' deals first, one hand after
another clockwise from my left, then the deck top first), and, at each reshuffle, one order of
the discard pile. Every distinct order of a pool is equally likely. Each event is then played
on the true cards: a card drawn comes off the deck's top; a card I saw turned up, or drew
myself, must be the one on top; a player's meld or destroy must be in their hand. A world
that breaks any of these is dropped; nothing is merged or filtered forward.

The deck is remade from the discard pile as soon as it is empty and the pile is not (the
reading of ``docs/london.md``), also between the cards a clear turns up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from math import factorial, prod


def orders(pool: Counter) -> Iterator[tuple[str, ...]]:
    """Every distinct order of the cards of ``pool``, in sorted order of their sequences."""
    cards = sorted(c for c, n in pool.items() if n > 0)
    left = [pool[c] for c in cards]
    order: list[str] = []
    size = sum(left)

    def rest() -> Iterator[tuple[str, ...]]:
        if len(order) == size:
            yield tuple(order)
            return
        for k, card in enumerate(cards):
            if left[k]:
                left[k] -= 1
                order.append(card)
                yield from rest()
                order.pop()
                left[k] += 1

    yield from rest()


def count(pool: Counter) -> int:
    """How many distinct orders ``pool`` has."""
    return factorial(sum(pool.values())) // prod(factorial(n) for n in pool.values())


class World:
    """The true cards of one world: hands, row, deck (top first), discard pile."""

    def __init__(self, hands: dict, row: list, deck: list) -> None:
        self.hands = hands
        self.row = row
        self.deck = deck
        self.discard: Counter = Counter.__new__(Counter)

    def copy(self) -> World:
        twin = World({p: copied(h) for p, h in self.hands.items()}, list(self.row), list(self.deck))
        twin.discard = copied(self.discard)
        return twin


def copied(cards: Counter) -> Counter:
    """A copy of ``cards``, made as a dict's (``Counter()`` and its copy run Python code)."""
    twin: Counter = Counter.__new__(Counter)
    dict.update(twin, cards)
    return twin


def refills(world: World) -> Iterator[tuple[World, Fraction]]:
    """The world with its empty deck remade from the discard pile, each order alike."""
    if world.deck or not any(n > 0 for n in world.discard.values()):
        yield world, Fraction(1)
        return
    share = Fraction(1, count(world.discard))
    for order in orders(world.discard):
        twin = world.copy()
        twin.deck, twin.discard = list(order), Counter()
        yield twin, share


def pull(world: World, seen: str | None) -> Iterator[tuple[World, Fraction, str]]:
    """The deck's top card taken (it must be ``seen`` when given), the deck remade if need be."""
    for now, p in refills(world):
        if not now.deck or (seen is not None and now.deck[0] != seen):
            continue
        twin = now.copy()
        yield twin, p, twin.deck.pop(0)


def play(world: World, event: dict, me: str) -> Iterator[tuple[World, Fraction]]:
    """The worlds after one event, each with its chance given the world before."""
    ((kind, body),) = event.items()
    by = body["by"]
    if kind == "draw" and body.get("from") == "deck":
        for now, p, card in pull(world, body.get("card") if by == me else None):
            now.hands[by][card] += 1
            yield from ((w, p * q) for w, q in refills(now))
    elif kind == "draw":
        twin = world.copy()
        place = twin.row.index(body["card"])
        twin.row.pop(place)
        twin.hands[by][body["card"]] += 1
        if body.get("new") is None:
            yield from refills(twin)
            return
        for now, p, card in pull(twin, body["new"]):
            now.row.insert(place, card)
            yield from ((w, p * q) for w, q in refills(now))
    elif kind in ("meld", "destroy"):
        paid = Counter(body["cards"])
        if paid - world.hands[by]:
            return
        twin = world.copy()
        twin.hands[by] -= paid
        twin.discard += paid
        yield from refills(twin)
    else:
        twin = world.copy()
        twin.discard += Counter(twin.row)
        twin.row = []
        yield from turn_up(twin, list(body["new"]), Fraction(1))


def turn_up(world: World, cards: list, p: Fraction) -> Iterator[tuple[World, Fraction]]:
    """A clear's new cards turned up one by one."""
    if not cards:
        yield from ((w, p * q) for w, q in refills(world))
        return
    for now, q, card in pull(world, cards[0]):
        now.row.append(card)
        yield from turn_up(now, cards[1:], p * q)


class TooMany(Exception):
    """More worlds than the caller wants counted."""


def worlds(
    doc: dict, figures: tuple[str, ...], copies: int, upto: int, limit: int = 100_000
) -> list[tuple[World, Fraction]]:
    """Every world after ``upto`` events with its chance (not yet divided by their sum).

    TooMany when more than ``limit`` worlds would be listed at some event.
    """
    players, me = doc["players"], doc["me"]
    seat = players.index(me)
    others = [players[(seat + k) % len(players)] for k in range(1, len(players))]
    box = Counter({f: copies for f in figures})
    pool = box - Counter(doc["hand"]) - Counter(doc["row"])
    dealt = doc["dealt"]
    listed: list[tuple[World, Fraction]] = []
    share = Fraction(1, count(pool))
    for order in orders(pool):
        hands = {p: Counter(order[k * dealt : (k + 1) * dealt]) for k, p in enumerate(others)}
        hands[me] = Counter(doc["hand"])
        listed.append((World(hands, list(doc["row"]), list(order[dealt * len(others) :])), share))
    for event in doc["events"][:upto]:
        listed = _after(listed, event, me, limit)
    return listed


def _after(listed: list, event: dict, me: str, limit: int) -> list:
    """The worlds after one more event."""
    out = []
    for world, p in listed:
        for w, q in play(world, event, me):
            out.append((w, p * q))
            if len(out) > limit:
                raise TooMany(limit)
    return out


def posterior(
    doc: dict, figures: tuple[str, ...], copies: int, upto: int, limit: int = 100_000
) -> dict:
    """Each opponent's whole hand (a count per figure) -> its chance after ``upto`` events.

    TooMany when more than ``limit`` worlds would be listed at some event.
    """
    players, me = doc["players"], doc["me"]
    listed = worlds(doc, figures, copies, upto, limit)
    total = sum((p for _, p in listed), Fraction(0))
    others = [p for p in players if p != me]
    out: dict = {p: Counter() for p in others}
    for world, p in listed:
        for player in others:
            out[player][tuple(world.hands[player][f] for f in figures)] += p / total
    return {p: dict(c) for p, c in out.items()}


def columns(doc: dict, events: list[dict]) -> list[list[dict]]:
    """The columns of tiles (top first) after ``events``: a meld takes one, a destroy some."""
    cols = [list(c) for c in doc["tiles"]]
    for event in events:
        ((kind, body),) = event.items()
        if kind in ("meld", "destroy"):
            gone = body.get("tiles", 1)
            del cols[body["column"] - 1][-gone:]
        # draws and clears leave the tiles alone
    return cols


def pays(hand: Counter, tile: dict) -> bool:
    """Whether ``hand`` pays for ``tile``: its figure's cards, one more per pair of another."""
    other = sum(n // 2 for f, n in hand.items() if f != tile["figure"])
    return hand[tile["figure"]] + other >= tile["number"]


def ended(cols: list[list[dict]], doc: dict) -> bool:
    """Whether four cases are solved: four colours have no tile left."""
    colours = {t["colour"] for c in doc["tiles"] for t in c}
    return len(colours - {t["colour"] for c in cols for t in c}) >= 4


def my_turn(
    doc: dict,
    figures: tuple[str, ...],
    copies: int,
    upto: int,
    first: list[dict],
    draw: str,
    limit: int = 100_000,
) -> dict:
    """My turn after ``upto`` events played on every world, and the opponents' turns after it.

    ``first``: my meld, or my destroy and meld, as record events; ``draw``: a face-up figure
    or "deck". Each opponent in turn then melds the highest bottom tile their true hand pays
    for (the leftmost of equal ones), never destroying, until the game ends. Returns per
    column (as after my first step) the chance I can take its bottom tile at my next turn
    (``mine``), per opponent the chance they take it first (``before``), and the expected
    number of the best tile I can meld then (``best``).
    """
    players, me = doc["players"], doc["me"]
    seat = players.index(me)
    order = [players[(seat + k) % len(players)] for k in range(1, len(players))]
    listed = worlds(doc, figures, copies, upto, limit)
    for event in first:
        listed = _after(listed, event, me, limit)
    drawn = []
    for world, p in listed:
        if draw == "deck":
            for now, q, card in pull(world, None):
                now.hands[me][card] += 1
                drawn.append((now, p * q))
        else:
            twin = world.copy()
            place = twin.row.index(draw)
            twin.row.pop(place)
            twin.hands[me][draw] += 1
            refilled = [(now, p * q) for now, q, _ in pull(twin, None)]
            drawn.extend(refilled or [(twin, p)])  # no card left to turn up in its place
    cols = columns(doc, doc["events"][:upto] + first)
    bottoms = {c: col[-1] for c, col in enumerate(cols, 1) if col}
    total = sum((p for _, p in drawn), Fraction(0))
    mine = dict.fromkeys(bottoms, Fraction(0))
    before = {c: dict.fromkeys(order, Fraction(0)) for c in bottoms}
    best = Fraction(0)
    for world, p in drawn:
        share = p / total
        now = [list(c) for c in cols]
        touched: set[int] = set()
        for player in order:
            if ended(now, doc):
                break
            options = [
                (-col[-1]["number"], c)
                for c, col in enumerate(now, 1)
                if col and pays(world.hands[player], col[-1])
            ]
            if not options:
                continue
            c = min(options)[1]
            if c not in touched:
                before[c][player] += share
            touched.add(c)
            now[c - 1].pop()
        if ended(now, doc):
            continue
        hand = world.hands[me]
        for c, tile in bottoms.items():
            if c not in touched and pays(hand, tile):
                mine[c] += share
        best += share * max(
            (col[-1]["number"] for col in now if col and pays(hand, col[-1])), default=0
        )
    return {"mine": mine, "before": before, "best": best}


def size(doc: dict, figures: tuple[str, ...], copies: int) -> int:
    """How many orders of the first pool there are (the reshuffles multiply them further)."""
    box = Counter({f: copies for f in figures})
    return count(box - Counter(doc["hand"]) - Counter(doc["row"]))
