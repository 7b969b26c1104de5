"""Scotland Yard: Das Kartenspiel: the cards, named as the players see them.

A ticket is a number and a colour, ``34y`` (taxi, yellow), ``12b`` (bus, blue), ``57r``
(subway, red), ``80k`` (black); the Mister X card is ``X``. The rulebook (Contents of the Box)
gives 90 tickets and how many of each colour, but not which number is which colour, so every
ticket is typed with its colour and a record keeps each number to one colour. With fewer than
five players some numbers leave the box (Setup): those with a 0 (4 players), those with a 0 or a
9 (3 players).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sleuth.errors import InputError, shown
from sleuth.games.base import board_data

BOX = board_data(__file__)  # the box and the table (board.toml)
X = "X"  # the Mister X card
COLOURS: dict[str, str] = {letter: c["kind"] for letter, c in BOX["colours"].items()}
HIGHEST: int = BOX["highest"]  # tickets are numbered 1 to HIGHEST
DEALT: int = BOX["dealt"]  # cards each player is dealt (Setup)
SPECIAL: int = BOX["special"]  # black tickets set aside as the special deck (Setup)
FIELD: int = BOX["field"]  # piles in the ticket field
TOP: int = BOX["top"]  # the X card is shuffled into this many cards on top of the deck (Setup)
GLASSES: int = BOX["glasses"]  # the last one face up brings an interrogation
DRAW: int = BOX["draw"]  # cards the draw action takes (a taxi ticket: one more)
BUY: int = BOX["buy"]  # cards Buy Equipment takes
PLAYERS: tuple[int, ...] = tuple(BOX["players"])  # the fewest and the most players


@dataclass(frozen=True, order=True)
class Ticket:
    """A ticket, e.g. Ticket(34, "y"): 34y, a taxi ticket. Ordered by number, as on the piles."""

    number: int
    colour: str

    def __str__(self) -> str:
        return f"{self.number}{self.colour}"

    @property
    def black(self) -> bool:
        """A black ticket: the only kind that buys a Mister X action."""
        return self.colour == "k"


Card = Ticket | str  # a ticket, or X


def in_box(number: int, players: int) -> bool:
    """Whether ticket ``number`` is in play with ``players`` players (Setup)."""
    digits = str(number)
    gone = BOX["removed"][str(players)]
    return 1 <= number <= HIGHEST and not any(d in digits for d in gone)


def tickets_in_box(players: int) -> int:
    """How many tickets are in play: 90, 81 or 72 for 5, 4 or 3 players."""
    return sum(in_box(n, players) for n in range(1, HIGHEST + 1))


def main_deck(players: int) -> int:
    """The main deck's size once the special deck, the deal and the field are out (Setup)."""
    return tickets_in_box(players) - SPECIAL - (DEALT * players - 1) - FIELD


def ticket(value: Any, field: str, players: int) -> Ticket:
    """``value`` ("34y", any case) as a ticket in play, or an InputError for ``field``."""
    text = str(value).strip().lower() if isinstance(value, int | str) else ""
    number, colour = text[:-1], text[-1:]
    if isinstance(value, bool) or not number.isdigit() or not number.isascii():
        form = "a number and a colour letter y, b, r or k, e.g. 34y"
        raise InputError("", field, f"{shown(value)} is not a ticket ({form})")
    if colour not in COLOURS:
        raise InputError("", field, f"{shown(value)}: the colour letter is y, b, r or k")
    found = Ticket(int(number), colour)
    if not in_box(found.number, players):
        why = (
            "tickets are 1 to 90"
            if not 1 <= found.number <= HIGHEST
            else (f"not in play with {players} players (Setup)")
        )
        raise InputError("", field, f"{found}: {why}")
    return found


def card(value: Any, field: str, players: int) -> Card:
    """A ticket, or the Mister X card (``X``)."""
    if isinstance(value, str) and value.strip().upper() == X:
        return X
    return ticket(value, field, players)


def cards(value: Any, field: str, players: int, tickets_only: bool = False) -> tuple[Card, ...]:
    """A list of distinct cards ("12y,X"); ``tickets_only``: no X among them."""
    listed = value if isinstance(value, list) else [] if value in (None, "") else [value]
    if isinstance(value, str):
        listed = [v for v in value.split(",") if v.strip()]
    read = ticket if tickets_only else card
    out = tuple(read(v, field, players) for v in listed)
    twice = [c for k, c in enumerate(out) if c in out[:k]]
    if twice:
        raise InputError("", field, f"{twice[0]} is listed twice")
    return out


def written(found: Card) -> str:
    """A card as the record writes it: "34y" or "X"."""
    return str(found)
