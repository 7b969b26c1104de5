"""Looting London: the words of the game, and the rules of paying with cards.

A card is a witness named by its figure: ``waif``, ``grinder`` (organ grinder), ``bobby``,
``dame``. Cards of one figure are alike, so a set of cards is a count per figure, ``Counts``,
in the box's order of figures: e.g. (3, 0, 0, 2) is three waifs and two dames. An evidence tile
has a colour, a figure and a number (``Tile("green", "waif", 3)``). The sections cited are the
rulebook's: Components, Setup, Game Play (Melding, Jokers, Destroying Evidence, Draw), Game End
& Scoring.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sleuth.errors import InputError, nearest, shown
from sleuth.games.base import board_data

BOARD = board_data(__file__)  # the box and the table (board.toml)
FIGURES: tuple[str, ...] = tuple(BOARD["figures"])
COLOURS: dict[str, int] = dict(BOARD["colours"])  # colour -> its bonus disk's default points
PLAYERS: tuple[int, ...] = tuple(BOARD["players"])  # the fewest and the most players
COLUMNS: int = BOARD["columns"]
DEPTH: int = BOARD["depth"]
DEALT: int = BOARD["dealt"]
MOST_DESTROYED: int = BOARD["destroy"]
DISKS: int = BOARD["disks"]
Counts = tuple[int, ...]  # cards per figure, in the order of FIGURES; e.g. (3, 0, 0, 2)


@dataclass(frozen=True)
class Box:
    """The witness cards and the face-up row: e.g. Box(("waif", "dame"), 3, 2), a small test box.

    The belief and the course take it as a parameter, so that tests can play with a few cards;
    a record is always played with ``BOX``, the board's (4 figures x 18, a row of 4).
    """

    figures: tuple[str, ...]
    copies: int
    row: int

    @property
    def full(self) -> Counts:
        """Every card of the box, per figure."""
        return (self.copies,) * len(self.figures)

    def index(self, figure: str, field: str) -> int:
        """The place of ``figure`` in the box's order, or an InputError for ``field``."""
        if figure not in self.figures:
            raise InputError("", field, f"{figure} is not in this box: {', '.join(self.figures)}")
        return self.figures.index(figure)

    def counts(self, figures: Mapping[str, int] | tuple[str, ...], field: str) -> Counts:
        """Per figure, the cards named (a list of figures or a figure -> count mapping)."""
        out = [0] * len(self.figures)
        pairs = figures.items() if isinstance(figures, Mapping) else ((f, 1) for f in figures)
        for figure, n in pairs:
            out[self.index(figure, field)] += n
        return tuple(out)

    def named(self, counts: Counts) -> dict[str, int]:
        """``counts`` as a figure -> count mapping, the figures held only: {"waif": 3}."""
        return {f: n for f, n in zip(self.figures, counts, strict=True) if n}


BOX = Box(FIGURES, BOARD["copies"], BOARD["row"])


@dataclass(frozen=True)
class Tile:
    """An evidence tile: e.g. Tile("green", "waif", 3), taken by a meld of three waifs."""

    colour: str
    figure: str
    number: int

    def __str__(self) -> str:
        return f"{self.colour} {self.figure} {self.number}"

    def fields(self) -> dict:
        """As the record writes it."""
        return {"colour": self.colour, "figure": self.figure, "number": self.number}


def add(a: Counts, b: Counts) -> Counts:
    """Two sets of cards together."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def take(a: Counts, b: Counts) -> Counts:
    """``a`` less ``b`` (each count may go below 0: the caller checks)."""
    return tuple(x - y for x, y in zip(a, b, strict=True))


def within(a: Counts, b: Counts) -> bool:
    """Whether every card of ``a`` is among ``b``."""
    return all(x <= y for x, y in zip(a, b, strict=True))


def figure(value: Any, field: str) -> str:
    """A figure's name from its name or a unique start of it, any case: "W" -> "waif"."""
    text = value.strip().lower() if isinstance(value, str) else ""
    if text in ("organ", "organ grinder", "organ-grinder"):
        return "grinder"
    found = [f for f in FIGURES if text and f.startswith(text)]
    if len(found) != 1:
        hint = nearest(text, FIGURES) if text else ""
        raise InputError("", field, f"{shown(value)} is not a figure: {', '.join(FIGURES)}{hint}")
    return found[0]


def figures(value: Any, field: str) -> tuple[str, ...]:
    """A list of figures: ``[waif, dame]`` or "waif,dame" (one card each)."""
    listed = value if isinstance(value, list) else [] if value in (None, "") else [value]
    if isinstance(value, str):
        listed = [v for v in value.split(",") if v.strip()]
    return tuple(figure(v, field) for v in listed)


def cards(value: Any, field: str) -> dict[str, int]:
    """Cards turned in, as figure -> count: a mapping, or "waif=3,dame=2", "w3,d2", "w,w,w".

    Each count a whole number from 1 to the copies of a figure; the figures in the box's order.
    """
    pairs: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, str | list):
        words = value.split(",") if isinstance(value, str) else value
        pairs = [_word(w, field) for w in words if not isinstance(w, str) or w.strip()]
    else:
        raise InputError("", field, f"expected figure: count, got {shown(value)}")
    out: dict[str, int] = {}
    for name, count in pairs:
        fig = figure(name, field)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= BOX.copies:
            raise InputError("", field, f"{shown(count)} {fig}: a count is 1 to {BOX.copies}")
        out[fig] = out.get(fig, 0) + count
    if not out:
        raise InputError("", field, "no cards named")
    return {f: out[f] for f in FIGURES if f in out}


def _word(word: Any, field: str) -> tuple[Any, Any]:
    """One word of a list of cards: "waif=3", "waif:3", "w3" or "waif" (one)."""
    if not isinstance(word, str):
        raise InputError("", field, f"{shown(word)} is not a figure")
    match = re.fullmatch(r"\s*([A-Za-z][A-Za-z -]*?)\s*[=:]?\s*(\d*)\s*", word)
    if match is None:
        raise InputError("", field, f"{shown(word)} is not a figure and a count, e.g. waif=3")
    name, digits = match.groups()
    return name, int(digits) if digits else 1


def shortfall(tile: Tile, paid: Mapping[str, int]) -> str | None:
    """Why ``paid`` does not take ``tile``, or None when it does (Melding, Jokers).

    The tile's number in cards of its figure, each of them replaceable by a pair of identical
    cards of another figure; our reading: exactly the number, no card more.
    """
    odd = [f for f, n in paid.items() if f != tile.figure and n % 2]
    if odd:
        return f"{paid[odd[0]]} {odd[0]}: cards of another figure go in pairs (Jokers)"
    worth = paid.get(tile.figure, 0) + sum(n // 2 for f, n in paid.items() if f != tile.figure)
    if worth != tile.number:
        return f"the cards are worth {worth}, the tile {tile} needs {tile.number} (Melding)"
    return None


def destroys(tiles: int, paid: Mapping[str, int]) -> bool:
    """Whether ``paid`` destroys ``tiles`` tiles (Destroying Evidence).

    2 x ``tiles`` identical cards of one figure, any of them replaceable by a pair of identical
    cards of another: some figure G with G's cards plus the others' pairs worth 2 x ``tiles``.
    """
    for main in FIGURES:
        others = [n for f, n in paid.items() if f != main]
        if all(n % 2 == 0 for n in others) and paid.get(main, 0) + sum(others) // 2 == 2 * tiles:
            return True
    return False


def worth(hand: Counts, tile: Tile, box: Box = BOX) -> int:
    """What ``hand`` can pay towards ``tile``: its figure's cards, one per pair of another."""
    k = box.figures.index(tile.figure) if tile.figure in box.figures else -1
    return sum(n if i == k else n // 2 for i, n in enumerate(hand))
