"""What each opponent holds: the exact chance of every make-up of the cards they drew unseen.

The model, stated once (and in ``docs/london.md``): each deck is shuffled fair, so every
order of its cards is equally likely (the first deck: the cards I did not see at the setup;
each later one: the discard pile when the deck ran out); and what a player does tells only what
it shows: a meld shows that the player held the cards turned in, and nothing else (not why
they chose it, nor what they drew when they could have taken a face-up card).

Counting, exactly. Give every unseen draw of an opponent, and every card still in a deck, a
place; the hidden state is the figure at each place. Each deck's places take its cards, every
arrangement alike, whatever I saw turned up from it (a card seen comes off its pool). So a
state's chance is proportional to the number of arrangements, and the count factors:

    sum over the opponents' draws per pool A_p of  prod_p W_p(A_p)  x  prod_j C(d_j; L_j)

where W_p counts the figure sequences of p's unseen draws (in order) that hold every meld's
reveal when it came (``ops``): a reveal R is the cards turned in beyond those I saw p take, so
p's unseen cards then held R. ``C(d_j; L_j)`` counts the orders of the ``d_j`` cards left in
deck j (0 once it ran out), ``L_j`` being its pool less the cards I saw from it and the
opponents' draws from it. The chance of p's unseen hand B is then the sum of the terms with
B, over the sum of all: per opponent a forward pass over (B, A), then one sum over the other
opponents' A (their convolution). Integers inside; Fractions out.

``Box`` (``cards.Box``) gives the figures and copies, so that tests can count small decks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from math import factorial, prod
from typing import Any

import numpy as np

from sleuth.belief import Fact, Left
from sleuth.games.london.cards import BOX, Box, Counts, Tile, add, take, within, worth
from sleuth.games.london.course import Course, Op, follow
from sleuth.games.london.weights import (
    Weights,
    convolve,
    distinct,
    gathered,
    multinomials,
    objects,
    pairs,
)
from sleuth.model import Holder, Item

State = tuple[Counts, tuple[Counts, ...]]  # (unseen hand B, unseen draws per pool A)


@lru_cache(maxsize=64)  # the belief and next's races ask for the same opponents' draws
def passes(
    ops: tuple[Op, ...], pools: int, limits: tuple[Counts, ...], loose: frozenset = frozenset()
) -> dict:
    """W: state (B, A) -> the number of figure sequences of the draws ``ops`` leading there.

    ``limits``: per pool, the most of each figure the opponents can have drawn from it.
    ``loose``: the indices of reveals taken as unseen cards of any figures (``conflict``).
    """
    width = len(limits[0])
    none = (0,) * width
    now: dict[State, int] = {(none, (none,) * pools): 1}
    for k, (kind, what) in enumerate(ops):
        after: dict[State, int] = defaultdict(int)
        for (hand, drawn), w in now.items():
            if kind == "draw":
                old, most = drawn[what], limits[what]
                for f in range(width):
                    if old[f] < most[f]:
                        pool = (*old[:f], old[f] + 1, *old[f + 1 :])
                        moved = (*drawn[:what], pool, *drawn[what + 1 :])
                        after[(*hand[:f], hand[f] + 1, *hand[f + 1 :]), moved] += w
            elif k in loose:
                for gone in _parts(hand, sum(what)):
                    after[take(hand, gone), drawn] += w
            elif within(what, hand):
                after[take(hand, what), drawn] += w
        now = after
    return dict(now)


def _parts(hand: Counts, n: int) -> Iterator[Counts]:
    """Every make-up of ``n`` of the cards of ``hand``."""
    if not hand:
        if n == 0:
            yield ()
        return
    for k in range(min(hand[0], n) + 1):
        for rest in _parts(hand[1:], n - k):
            yield (k, *rest)


def flat(drawn: tuple[Counts, ...]) -> tuple[int, ...]:
    """The draws per pool as one tuple."""
    return tuple(n for counts in drawn for n in counts)


@dataclass(frozen=True)
class Decks:
    """The pools of the decks as the belief counts them, e.g. Decks(((10, 9), ), (0, ), 6).

    ``left``: per pool, its cards less those I saw come from it; ``deck``: the cards in the
    last deck now (every earlier deck ran out).
    """

    left: tuple[Counts, ...]
    deck: int

    def orders(self, drawn: tuple[int, ...]) -> int:
        """The orders of the cards still in the decks, given the opponents' draws per pool."""
        width = len(self.left[0])
        total = 1
        for j, pool in enumerate(self.left):
            rest = tuple(p - drawn[j * width + i] for i, p in enumerate(pool))
            wanted = self.deck if j == len(self.left) - 1 else 0
            total *= _arrangements(rest, wanted)
        return total


@cache
def _arrangements(rest: Counts, wanted: int) -> int:
    """The orders of a deck of ``wanted`` cards made of ``rest``; 0 when they do not match."""
    if min(rest) < 0 or sum(rest) != wanted:
        return 0
    return factorial(wanted) // prod(factorial(r) for r in rest)


def decks(now: Course) -> Decks:
    """The pools, less the cards I saw from each, and the last deck's size."""
    return Decks(tuple(take(p, s) for p, s in zip(now.pools, now.seen, strict=True)), now.deck)


def unseen_hands(now: Course, loose: frozenset[tuple[Holder, int]] = frozenset()) -> dict:
    """Each opponent's unseen hand B -> its exact chance; {} when no hidden state fits.

    ``loose``: (opponent, reveal index) pairs counted as unseen cards of any figures.
    """
    return counts(now, loose)[0]


def counts(now: Course, loose: frozenset[tuple[Holder, int]] = frozenset()) -> tuple[dict, int]:
    """``unseen_hands``, and the number of arrangements of the hidden cards that fit (0: none).

    With no opponent drawing unseen, the arrangements are the decks' orders alone.
    """
    counted = decks(now)
    top = np.array(flat(counted.left), np.int64)
    weights = {
        player: passes(
            ops, len(now.pools), counted.left, frozenset(k for p, k in loose if p == player)
        )
        for player, ops in now.ops.items()
    }
    players = list(weights)
    spent = len(top) - len(counted.left[-1])
    rests = others([drawn(weights[p], len(top)) for p in players], top, spent)
    out: dict[Holder, dict[Counts, Fraction]] = {}
    total = counted.orders((0,) * len(top)) if not players else 0
    for player, rest in zip(players, rests, strict=True):
        ws = weights[player]
        if not ws:
            return {}, 0
        hands = np.array([hand for hand, _ in ws], np.int64)
        draws = np.array([flat(a) for _, a in ws], np.int64)
        paired = completed(Weights(draws, objects(ws.values())), rest, top, counted)
        chance = gathered(hands, paired).dict()
        total = sum(chance.values())
        if not total:
            return {}, 0
        out[player] = {hand: Fraction(n, total) for hand, n in chance.items() if n}
    return out, total


def drawn(ws: dict[State, int], width: int) -> Weights:
    """An opponent's weights with the unseen hand summed out: flat draws per pool -> weight."""
    if not ws:
        return Weights(np.zeros((0, width), np.int64), objects([]))
    keys = np.array([flat(a) for _, a in ws], np.int64)
    return gathered(keys, objects(ws.values()))


def others(tallies: list[Weights], top: np.ndarray, spent: int = 0) -> list[Weights]:
    """Per tally, the convolution of all the others.

    The products of the tallies before and after each are shared; each last convolution keeps
    only the sums whose first ``spent`` counts (the decks that ran out, which every hidden
    state uses up exactly) its own tally can complete.
    """
    n, width = len(tallies), len(top)
    if n == 1:
        return [Weights.one(width)]
    before = [Weights.one(width)]
    for t in tallies[: n - 2]:
        before.append(convolve(before[-1], t, top))
    after = {n: Weights.one(width)}
    for k in range(n - 1, 1, -1):
        after[k] = convolve(after[k + 1], tallies[k], top)

    def wanted(k: int) -> np.ndarray | None:
        return top[:spent] - tallies[k].keys[:, :spent] if spent else None

    out = [convolve(after[2], tallies[1], top, wanted(0))]
    out += [convolve(before[k], after[k + 1], top, wanted(k)) for k in range(1, n - 1)]
    return [*out, convolve(before[n - 2], tallies[n - 2], top, wanted(n - 1))]


def completed(mine: Weights, rest: Weights, top: np.ndarray, counted: Decks) -> np.ndarray:
    """Per row of ``mine``, its weight times every completion by ``rest`` and the decks' orders.

    A completion is a row of ``rest`` (the other opponents' draws) that uses up every deck
    that ran out exactly and leaves the last deck's cards, in any order: ``counted.orders``.
    The rows are paired by their spent part only where it adds up (a join, not every pair).
    """
    spent = len(top) - len(counted.left[-1])
    out = np.empty(len(mine), object)
    out[:] = 0
    i, j = pairs(top[:spent] - mine.keys[:, :spent], rest.keys[:, :spent])
    if not len(i):
        return out
    left = top[spent:] - mine.keys[i, spent:] - rest.keys[j, spent:]
    decks_, where = distinct(np.maximum(left, 0))
    n = multinomials(decks_)[where]  # once per distinct deck
    n[(left < 0).any(axis=1) | (left.sum(axis=1) != counted.deck)] = 0
    terms = mine.weights[i] * rest.weights[j] * n  # i in order (``pairs``)
    firsts = np.flatnonzero(np.r_[True, i[1:] != i[:-1]])
    out[i[firsts]] = np.add.reduceat(terms, firsts)
    return out


@dataclass(frozen=True)
class Hands:
    """My belief in Looting London (``sleuth.belief.Belief``): the course and each hand's odds.

    ``unseen``: per opponent, the make-up of the cards they drew unseen -> its chance; empty
    when no hidden state fits the record, and then ``conflict`` names the events.
    """

    record: Any
    course: Course
    unseen: dict[Holder, dict[Counts, Fraction]]
    conflict: list[int] = field(default_factory=list)
    box: Box = BOX
    arrangements: int = 0  # of the hidden cards, that fit the record

    exact = True

    @property
    def consistent(self) -> bool:
        """Whether some hidden state fits the record."""
        return bool(self.unseen)

    @property
    def fits(self) -> bool:
        """As ``consistent``: nothing is tolerated."""
        return self.consistent

    @property
    def forced(self) -> list[Fact]:
        """No holding is named: the screens say what each hand holds."""
        return []

    @property
    def ended(self) -> list[Fact]:
        """None."""
        return []

    @property
    def left(self) -> Left | None:
        """The arrangements of the hidden cards that fit (every order of each deck counted)."""
        return Left(self.arrangements, True, "arrangement") if self.consistent else None

    def holdings(self) -> tuple[tuple[Holder, ...], tuple[Item, ...]]:
        """None named."""
        return (), ()

    def chance(self, holder: Holder, item: Item) -> Fraction | None:
        """No holding is named."""
        return None

    def hand(self, player: Holder) -> dict[Counts, Fraction]:
        """``player``'s whole hand -> its chance: the cards I saw plus the unseen ones."""
        known = self.course.known[player]
        if player not in self.unseen:
            return {known: Fraction(1)} if self.consistent else {}
        return {add(known, b): p for b, p in self.unseen[player].items()}

    def spread(self, player: Holder) -> list[list[Fraction]]:
        """Per figure f, the chance that ``player`` holds j cards of f, for j = 0, 1, ..."""
        hands = self.hand(player)
        most = max((max(h) for h in hands), default=0)
        out = [[Fraction(0)] * (most + 1) for _ in self.box.figures]
        for h, p in hands.items():
            for f, n in enumerate(h):
                out[f][n] += p
        return out

    def can_take(self, player: Holder, tile: Tile) -> Fraction:
        """The chance that ``player``'s hand pays for ``tile`` now (pairs as jokers)."""
        hands = self.hand(player)
        return sum(
            (p for h, p in hands.items() if worth(h, tile, self.box) >= tile.number), Fraction(0)
        )


def conflict(courses: list[Course]) -> list[int]:
    """The first event after which no hidden state fits, and the reveals before it it needs.

    A reveal is left out (by deletion, in order) when counting its cards as unseen cards of
    any figures still leaves no state fitting. [] when the record fits.
    """
    first = next((k for k, now in enumerate(courses) if not unseen_hands(now)), None)
    if first is None:
        return []
    now = courses[first]
    reveals = [
        (p, k, at)
        for p, ops in now.ops.items()
        for k, (kind, _) in enumerate(ops)
        if kind == "reveal"
        for at in [_event_of(courses[: first + 1], p, k)]
    ]
    loose: set[tuple[Holder, int]] = set()
    kept = []
    for p, k, at in sorted(reveals, key=lambda r: r[2]):
        if at == first:
            continue
        trial = frozenset(loose | {(p, k)})
        if unseen_hands(now, trial):
            kept.append(at)
        else:
            loose |= {(p, k)}
    return sorted({*kept, first})


def _event_of(courses: list[Course], player: Holder, k: int) -> int:
    """The event (1-based) that added ``player``'s op ``k``."""
    return next(i for i, now in enumerate(courses) if len(now.ops.get(player, ())) > k)


def believe(record: Any, deadline: Any = None, box: Box = BOX) -> Hands:
    """The belief after the record (the ``believe`` part): every chance exact."""
    courses = follow(record.events, record.table, record.start, box)
    now = courses[-1]
    unseen, arrangements = counts(now)
    blamed = [] if unseen or not now.ops else conflict(courses)
    return Hands(record, now, unseen, blamed, box, arrangements)
