"""The opponents' turns before my next one, counted exactly over the hidden cards.

The model (``MODEL``, printed under ``next``): each opponent, at their turn before mine, melds
the bottom tile with the highest number that their hand pays for (the leftmost of equal
ones), and never destroys. ``race`` counts, for every way the opponents' takes can go, the
arrangements of the hidden cards that lead there (jointly, not one opponent at a time), with
the figure of the deck's top card now apart: the card a draw from the deck gives me.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sleuth.games.london.cards import DISKS, Box, Tile, add
from sleuth.games.london.course import Course
from sleuth.games.london.hands import decks, flat, passes
from sleuth.games.london.weights import distinct, fitting, gathered, multinomials, objects, pairs
from sleuth.model import Holder

MODEL = (
    "each opponent melds the highest bottom tile their hand pays for (the leftmost of equal "
    "ones) and never destroys"
)

Takes = tuple[int, ...]  # per opponent in turn, the column whose bottom tile they took (0: none)


@dataclass(frozen=True)
class Race:
    """What the opponents take before my next turn, counted: e.g. counts[((3, 0), None)] = 120.

    ``counts[(takes, figure)]``: the arrangements of the hidden cards in which the opponents,
    in turn, take ``takes`` and the deck's top card now (the card a draw from the deck gives
    me) is ``figure``; None sums over it. ``total``: every arrangement.
    """

    counts: dict[tuple[Takes, int | None], int]
    total: int
    tiles: dict[Takes, tuple[tuple[int, Tile], ...] | None] = field(default_factory=dict)

    def bottoms(self, now: Course, takes: Takes) -> tuple[tuple[int, Tile], ...] | None:
        """The bottom tiles after ``takes`` (column, tile), or None when the game is over."""
        if takes not in self.tiles:
            columns = taken(now.columns, takes)
            ended = now.over or over(columns, now)
            listed = tuple((c, t[-1]) for c, t in enumerate(columns, 1) if t)
            self.tiles[takes] = None if ended else listed
        return self.tiles[takes]


def race(now: Course, order: tuple[Holder, ...], box: Box) -> Race:
    """The opponents' takes under the model, jointly over the hidden cards (``Race``).

    The opponents' unseen draws are weighed as the belief weighs them (``hands.passes``), one
    opponent after another: each one's choice depends on their whole hand and on the tiles
    the ones before them took; the decks' orders complete the count. The states are one
    table, each row labelled by the takes so far (``labels``), grown by each opponent's
    draws in one pass of pairs.
    """
    counted = decks(now)
    top = np.array(flat(counted.left), np.int64)
    width, figures = len(top), len(box.figures)
    spent = width - figures  # the draws from the decks that ran out
    labels: list[Takes] = [()]
    rows = np.zeros((1, width + 1), np.int64)  # the label, then the draws so far
    weights = objects([1])
    tables = []
    for player in order:
        ws = passes(now.ops.get(player, ()), len(now.pools), counted.left, frozenset())
        hands = np.array([add(now.known[player], b) for b, _ in ws], np.int64).reshape(-1, figures)
        draws = np.array([flat(a) for _, a in ws], np.int64).reshape(-1, width)
        tables.append((hands, draws, objects(ws.values())))
    for k, (hands, draws, drawn) in enumerate(tables):
        choices = np.array([choice(hands, taken(now.columns, t), now, box) for t in labels])
        last = k == len(tables) - 1
        # the one before the last keeps only what the last one's draws can use up
        wanted = top[:spent] - tables[-1][1][:, :spent] if spent and k == len(tables) - 2 else None
        rows, weights, labels = grown(
            rows, weights, labels, choices, draws, drawn, top, spent * last, wanted
        )
    return completed(labels, rows, weights, top, counted.deck, figures)


def choice(hands: np.ndarray, columns: tuple, now: Course, box: Box) -> np.ndarray:
    """Per hand, the column its holder takes with these columns (0: none, or the game over)."""
    if over(columns, now):
        return np.zeros(len(hands), np.int64)
    return chosen(hands, columns, box)


def grown(rows, weights, labels, choices, draws, drawn, top, spent=0, wanted=None):
    """The states after one more opponent: every state with each of their draws, labelled.

    ``spent``: for the last opponent, the width of the decks that ran out, which every
    state must use up exactly: only the pairs that do are formed (a join on that part).
    ``wanted``: when given, only the sums whose first counts are a row of it are kept.
    """
    options = int(choices.max(initial=0)) + 1  # a label and a choice as one number
    if spent:
        i, j = pairs(top[:spent] - rows[:, 1 : 1 + spent], draws[:, :spent])
        sums = rows[i, 1:] + draws[j]
        fits = (sums <= top).all(axis=1)
        i, j, sums = i[fits], j[fits], sums[fits]
    else:
        i, j, sums = fitting(rows[:, 1:], draws, top, wanted)
    label = rows[i, 0] * options + choices[rows[i, 0], j]
    merged = gathered(np.column_stack([label, sums]), weights[i] * drawn[j])
    used, index = np.unique(merged.keys[:, 0], return_inverse=True)
    named = [(*labels[u // options], int(u % options)) for u in used.tolist()]
    relabelled = merged.keys.copy()
    relabelled[:, 0] = index
    return relabelled, merged.weights, named


def completed(labels, rows, weights, top: np.ndarray, deck: int, figures: int) -> Race:
    """Each takes' arrangements: its draws completed by the decks' orders, my card apart."""
    spent = len(top) - figures
    kept = (rows[:, 1 : 1 + spent] == top[:spent]).all(axis=1)
    rows, weights = rows[kept], weights[kept]
    group = rows[:, 0]
    left = top[spent:] - rows[:, 1 + spent :]
    decks_, where = distinct(left)
    orders = multinomials(decks_)  # once per distinct deck, not per takes
    orders[decks_.sum(axis=1) != deck] = 0
    terms = weights * orders[where]
    counts: dict[tuple[Takes, int | None], int] = {}
    for f in [None, *(range(figures) if deck else ())]:  # the deck's top is f; the rest any order
        # the orders with f on top: a share left_f / deck of them
        share = terms if f is None else terms * left[:, f] // deck
        sums = np.zeros(len(labels), object)
        np.add.at(sums, group, share)
        for takes, n in zip(labels, sums.tolist(), strict=True):
            if n:
                counts[takes, f] = int(n)
    total = sum(n for (_, f), n in counts.items() if f is None)
    return Race(counts, total)


def chosen(hands: np.ndarray, columns: tuple[tuple[Tile, ...], ...], box: Box) -> np.ndarray:
    """Per hand, the column of the highest bottom tile it pays for (the leftmost), else 0."""
    best = np.zeros(len(hands), np.int64)
    number = np.zeros(len(hands), np.int64)
    for c, tiles in enumerate(columns, 1):
        if not tiles:
            continue
        tile = tiles[-1]
        k = box.figures.index(tile.figure)
        pays = hands[:, k] + (hands // 2).sum(axis=1) - hands[:, k] // 2 >= tile.number
        better = pays & (tile.number > number)
        best[better], number[better] = c, tile.number
    return best


def taken(columns: tuple[tuple[Tile, ...], ...], takes: Takes) -> tuple:
    """The columns after each take (a column's bottom tile gone; 0 takes nothing)."""
    for c in takes:
        if c:
            columns = columns[: c - 1] + (columns[c - 1][:-1],) + columns[c:]
    return columns


def over(columns: tuple[tuple[Tile, ...], ...], now: Course) -> bool:
    """Whether the game has ended with these columns: a fourth case solved."""
    left = {t.colour for tiles in columns for t in tiles}
    gone = {t.colour for tiles in now.columns for t in tiles} | {d.colour for d in now.disks}
    return len(gone - left) >= DISKS
