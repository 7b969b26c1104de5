"""Loot the Loop: the setup and the four recorded actions, each checked alone.

What an action may do where it stands (a look only onto a face-down top, an explore by a
face-up trinket among the top two, a mark of a face-up trinket, a return of a note) is checked
by ``sleuth.games.loop.temple``; here, what it may say at all. The sections cited are the
rulebook's: Setup, Gameplay (1 Look Around, 2 Explore, 3 Mark a Path, 4 Return), Game End.
Each action is written as its one value (``look: [9H, 4C]``, ``explore: 4``, ``mark: 7C``,
``return: 7C``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.errors import InputError, shown
from sleuth.games.base import Event, Table
from sleuth.games.loop.cards import card
from sleuth.model import Tally


@dataclass(frozen=True)
class Start:
    """The setup: the 53 cards shuffled face down (nothing to record)."""


def parse_start(doc: dict, table: Table) -> Start:
    """The setup (rulebook: Setup): one player, nothing else to say."""
    if len(table.players) != 1:
        many = len(table.players)
        raise InputError("", "players", f"Loot the Loop is played alone, not by {many}")
    return Start()


def start_fields(start: Start) -> dict:
    """The setup as the record writes it: nothing."""
    return {}


@dataclass(frozen=True)
class Look(Event):
    """Look Around: the cards turned face up, top first (one when the second was face up)."""

    cards: tuple[str, ...]

    kind = "look"
    required = ("cards",)
    bare = "cards"

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Look:
        """One or two distinct cards."""
        value = data["cards"]
        listed = value if isinstance(value, list) else [value]
        if isinstance(value, str):
            listed = [v for v in value.split(",") if v.strip()]
        if not 1 <= len(listed) <= 2:
            raise InputError("", "cards", f"a look turns up 1 or 2 cards, not {shown(value)}")
        cards = tuple(card(v, "cards") for v in listed)
        if len(set(cards)) < len(cards):
            raise InputError("", "cards", f"{cards[0]} is listed twice")
        return cls(cards)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal: the belief is the game's own."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"cards": list(self.cards)}


@dataclass(frozen=True)
class Explore(Event):
    """Explore: N cards moved from the top to the bottom, N a face-up trinket's value."""

    n: int

    kind = "explore"
    required = ("n",)
    bare = "n"

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Explore:
        """A trinket's value, 2 to 10."""
        value = data["n"]
        if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).isdigit():
            raise InputError("", "n", f"{shown(value)} is not a number of cards (2 to 10)")
        n = int(value)
        if not 2 <= n <= 10:
            raise InputError("", "n", f"{n} is no trinket's value: an explore goes 2 to 10 cards")
        return cls(n)

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"n": self.n}


@dataclass(frozen=True)
class Moved(Event):
    """An action that names one card (a mark, a return)."""

    card: str

    required = ("card",)
    bare = "card"

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> Moved:
        """A card."""
        return cls(card(data["card"], "card"))

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"card": self.card}


@dataclass(frozen=True)
class Mark(Moved):
    """Mark a Path: the top card, a face-up trinket, goes to my notes."""

    kind = "mark"


@dataclass(frozen=True)
class Return(Moved):
    """Return to a Marked Path: a card of my notes goes back on top, face up."""

    kind = "return"


EVENTS: dict[str, type[Event]] = {"look": Look, "explore": Explore, "mark": Mark, "return": Return}
