"""Looting London: the setup and the four recorded events, each checked alone.

What an event may do where it stands (the bottom tile of a column, one meld a turn, a meld
after a destroy, cards a player can hold, the deck) is checked by
``sleuth.games.london.course``; here, what it may say at all. Sections cited are the
rulebook's: Setup, Game Play (Melding, Jokers, Destroying Evidence, Draw), Game End & Scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sleuth.errors import InputError, shown
from sleuth.games.base import Event, Table, integer
from sleuth.games.london.cards import (
    BOX,
    COLOURS,
    COLUMNS,
    DEALT,
    DEPTH,
    MOST_DESTROYED,
    PLAYERS,
    Tile,
    cards,
    destroys,
    figure,
    figures,
)
from sleuth.model import Holder, Tally


@dataclass(frozen=True)
class Start:
    """The setup: the tiles, the bonus disks, the face-up row, the deal, my hand.

    ``tiles``: five columns, each top (by its bonus disk) to bottom; ``bonus``: colour ->
    points, in the row's order; ``dealt``: cards dealt to each player (not in the rulebook's
    text: 4, the published game's, by default); ``hand``: my cards as dealt.
    e.g. Start(((Tile("green", "waif", 3), ...), ...), {"green": 2, ...}, ("waif", ...), 4, ...)
    """

    tiles: tuple[tuple[Tile, ...], ...]
    bonus: dict[str, int]
    row: tuple[str, ...]
    dealt: int
    hand: tuple[str, ...]


def parse_start(doc: dict, table: Table) -> Start:
    """The setup fields (rulebook: Setup), each checked alone and against the box."""
    low, high = PLAYERS
    if not low <= len(table.players) <= high:
        many = len(table.players)
        raise InputError("", "players", f"Looting London is played by {low} to {high}, not {many}")
    bonus = _bonus(doc.get("bonus"))
    tiles = parse_tiles(doc.get("tiles"), bonus)
    row = figures(doc.get("row"), "row")
    if len(row) != BOX.row:
        raise InputError("", "row", f"expected the {BOX.row} face-up cards, got {len(row)}")
    dealt = integer(doc.get("dealt", DEALT), "dealt", 0, BOX.copies)
    if BOX.row + dealt * len(table.players) > BOX.copies * len(BOX.figures):
        raise InputError("", "dealt", f"{dealt} cards each is more than the box holds")
    hand = figures(doc.get("hand"), "hand")
    if len(hand) != dealt:
        raise InputError("", "hand", f"expected my {dealt} dealt cards, got {len(hand)}")
    seen = BOX.counts(row + hand, "hand")
    if max(seen) > BOX.copies:
        name = BOX.figures[seen.index(max(seen))]
        raise InputError("", "hand", f"more than {BOX.copies} {name} cards with the row")
    return Start(tiles, bonus, row, dealt, tuple(sorted(hand, key=BOX.figures.index)))


def _bonus(value: Any) -> dict[str, int]:
    """The bonus disks in their row: [{colour, points}, ...]; default the box's."""
    if value is None:
        return dict(COLOURS)
    if not isinstance(value, list) or len(value) != len(COLOURS):
        raise InputError("", "bonus", f"expected the {len(COLOURS)} disks, got {shown(value)}")
    out: dict[str, int] = {}
    for disk in value:
        if not isinstance(disk, dict) or set(disk) != {"colour", "points"}:
            raise InputError("", "bonus", f"a disk is {{colour, points}}, not {shown(disk)}")
        colour = _colour(disk["colour"], "bonus")
        if colour in out:
            raise InputError("", "bonus", f"two disks are {colour}")
        out[colour] = integer(disk["points"], "bonus", 0, 99)
    return out


def _colour(value: Any, field: str) -> str:
    """A colour from its name or a unique start of it: "g" -> "green"."""
    text = value.strip().lower() if isinstance(value, str) else ""
    found = [c for c in COLOURS if text and c.startswith(text)]
    if len(found) != 1:
        raise InputError("", field, f"{shown(value)} is not a colour: {', '.join(COLOURS)}")
    return found[0]


def parse_tiles(value: Any, bonus: dict[str, int]) -> tuple[tuple[Tile, ...], ...]:
    """The 5x5 tiles: five columns, each five ``{colour, figure, number}`` from the top.

    Every colour has a bonus disk and at least one tile (a case to solve).
    """
    if not isinstance(value, list) or len(value) != COLUMNS:
        raise InputError("", "tiles", f"expected {COLUMNS} columns of tiles, got {shown(value)}")
    columns = []
    for c, column in enumerate(value, 1):
        if not isinstance(column, list) or len(column) != DEPTH:
            raise InputError(
                "", "tiles", f"column {c}: expected {DEPTH} tiles, got {shown(column)}"
            )
        columns.append(tuple(tile(t, f"tiles column {c}") for t in column))
    colours = {t.colour for column in columns for t in column}
    missing = [c for c in bonus if c not in colours]
    if missing:
        raise InputError("", "tiles", f"no tile is {missing[0]}: every case has tiles")
    return tuple(columns)


def tile(value: Any, field: str) -> Tile:
    """One tile: ``{colour, figure, number}``, or "gw3" (colour letter, figure letter, number)."""
    if isinstance(value, str):
        text = value.strip().lower()
        if len(text) < 3 or not text[2:].isdigit():
            raise InputError("", field, f"{shown(value)} is not a tile such as gw3 (green waif 3)")
        value = {"colour": text[0], "figure": text[1], "number": int(text[2:])}
    if not isinstance(value, dict) or set(value) != {"colour", "figure", "number"}:
        raise InputError("", field, f"a tile is {{colour, figure, number}}, not {shown(value)}")
    number = integer(value["number"], field, 1, BOX.copies)
    return Tile(_colour(value["colour"], field), figure(value["figure"], field), number)


def start_fields(start: Start) -> dict:
    """The setup as the record writes it (``bonus`` and ``dealt`` always, explicit)."""
    return {
        "tiles": [[t.fields() for t in column] for column in start.tiles],
        "bonus": [{"colour": c, "points": p} for c, p in start.bonus.items()],
        "row": list(start.row),
        "dealt": start.dealt,
        "hand": list(start.hand),
    }


def _column(value: Any) -> int:
    """A column, 1 to 5 from the left."""
    return integer(value, "column", 1, COLUMNS)


@dataclass(frozen=True)
class Draw(Event):
    """Draw (mandatory, ending the turn): a face-up card, replaced from the deck, or the top card.

    From the row: ``card`` taken, ``new`` turned up in its place (absent only when no card is
    left to turn). From the deck (``from: deck``): ``card`` only when ``by`` is me.
    """

    by: Holder
    card: str | None = None
    new: str | None = None
    deck: bool = False

    kind = "draw"
    required = ("by",)
    optional = ("card", "new", "from")
    names = ("by",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Draw:
        """A row draw names its card; a deck draw names one only when it is mine."""
        by = table.player(data["by"], "by")
        source = data.get("from", "row")
        if source not in ("row", "deck"):
            raise InputError("", "from", f"{shown(source)}: a card comes from the row or the deck")
        card = None if data.get("card") is None else figure(data["card"], "card")
        new = None if data.get("new") is None else figure(data["new"], "new")
        if source == "deck":
            if new is not None:
                raise InputError("", "new", "a draw from the deck turns up no new card")
            if by == table.me and card is None:
                raise InputError("", "card", "my draw from the deck: which card did I get?")
            if by != table.me and card is not None:
                raise InputError("", "card", f"{by}'s draw from the deck is not seen")
        elif card is None:
            raise InputError("", "card", "a draw from the row names the card taken")
        return cls(by, card, new, source == "deck")

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal: the game's belief is its own (``london.hands``)."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        if self.deck:
            return {"by": self.by, "from": "deck"} | (
                {} if self.card is None else {"card": self.card}
            )
        return {"by": self.by, "card": self.card} | ({} if self.new is None else {"new": self.new})


@dataclass(frozen=True)
class Meld(Event):
    """Melding: ``cards`` turned in for the bottom tile of ``column`` (Melding, Jokers).

    The tile's number in cards of its figure, a pair of identical other cards for any of them.
    """

    by: Holder
    column: int
    cards: tuple[tuple[str, int], ...]

    kind = "meld"
    required = ("by", "column", "cards")
    names = ("by",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Meld:
        """The player, the column and the cards (what they pay is checked at its place)."""
        by = table.player(data["by"], "by")
        return cls(by, _column(data["column"]), tuple(cards(data["cards"], "cards").items()))

    @property
    def paid(self) -> dict[str, int]:
        """The cards turned in, figure -> count."""
        return dict(self.cards)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"by": self.by, "column": self.column, "cards": self.paid}


@dataclass(frozen=True)
class Destroy(Event):
    """Destroying Evidence: 2 identical cards a tile, ``tiles`` from the bottom of ``column``.

    A pair of identical other cards may stand for any one of them; a meld in that column
    follows in the same turn.
    """

    by: Holder
    column: int
    tiles: int
    cards: tuple[tuple[str, int], ...]

    kind = "destroy"
    required = ("by", "column", "tiles", "cards")
    names = ("by",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Destroy:
        """1 to 4 tiles, paid by 2 identical cards each (pairs as jokers)."""
        by = table.player(data["by"], "by")
        tiles = integer(data["tiles"], "tiles", 1, MOST_DESTROYED)
        paid = cards(data["cards"], "cards")
        if not destroys(tiles, paid):
            said = ", ".join(f"{n} {f}" for f, n in paid.items())
            raise InputError(
                "", "cards", f"{said} is not {2 * tiles} identical cards (Destroying Evidence)"
            )
        return cls(by, _column(data["column"]), tiles, tuple(paid.items()))

    @property
    def paid(self) -> dict[str, int]:
        """The cards discarded, figure -> count."""
        return dict(self.cards)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"by": self.by, "column": self.column, "tiles": self.tiles, "cards": self.paid}


@dataclass(frozen=True)
class Clear(Event):
    """Draw: the four identical face-up cards discarded, and ``new`` turned up instead."""

    by: Holder
    new: tuple[str, ...]

    kind = "clear"
    required = ("by", "new")
    names = ("by",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Clear:
        """The player and the new cards (as many as the row holds, fewer only at the end)."""
        by = table.player(data["by"], "by")
        new = figures(data["new"], "new")
        if not 1 <= len(new) <= BOX.row:
            raise InputError("", "new", f"a clear turns up {BOX.row} cards, not {len(new)}")
        return cls(by, new)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"by": self.by, "new": list(self.new)}


EVENTS: dict[str, type[Event]] = {"draw": Draw, "meld": Meld, "destroy": Destroy, "clear": Clear}
