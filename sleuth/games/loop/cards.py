"""Loot the Loop: the 53 cards, named as the players see them (rulebook: Components).

A card is its rank and suit, ``AS``, ``7H``, ``10D``, ``QC``, or the ``joker``. Aces are jewels,
2 to 10 trinkets (worth their rank in an explore), J, Q and K traps, the joker the exit.
"""

from __future__ import annotations

from typing import Any

from sleuth.errors import InputError, shown
from sleuth.games.base import board_data

BOX = board_data(__file__)  # the deck and the table (board.toml)
RANKS: tuple[str, ...] = tuple(BOX["ranks"])
SUITS: tuple[str, ...] = tuple(BOX["suits"])
JOKER: str = BOX["joker"]
DECK: tuple[str, ...] = (*(f"{r}{s}" for s in SUITS for r in RANKS), JOKER)  # the 53 cards
JEWEL, TRINKET, TRAP, EXIT = "jewel", "trinket", "trap", "exit"
KINDS = (TRAP, JEWEL, TRINKET, EXIT)  # the contract's order of a look's chances
JEWELS = len(SUITS) * len(BOX["jewels"])  # jewels to score before the exit lets me out
NOTES: int = BOX["notes"]  # at most this many marked paths


def card(value: Any, field: str) -> str:
    """``value`` ("7h", "10D", "Joker") as a card's name, or an InputError for ``field``."""
    readable = isinstance(value, str | int) and not isinstance(value, bool)
    text = str(value).strip() if readable else ""
    if text.casefold() == JOKER:
        return JOKER
    named = text[:-1].upper() + text[-1:].upper()
    if named not in DECK:
        form = "a rank A, 2-10, J, Q, K and a suit S, H, D, C (e.g. 7H, 10D, AS), or joker"
        raise InputError("", field, f"{shown(value)} is not a card: {form}")
    return named


def kind(name: str) -> str:
    """What a card is in the temple: jewel, trinket, trap or exit."""
    if name == JOKER:
        return EXIT
    rank = name[:-1]
    return JEWEL if rank in BOX["jewels"] else TRAP if rank in BOX["traps"] else TRINKET


def value(name: str) -> int | None:
    """A trinket's value (how far an explore by it goes); None for any other card."""
    return int(name[:-1]) if kind(name) == TRINKET else None


def order(name: str) -> tuple[int, int]:
    """Sort key: by suit, then rank, the joker last."""
    if name == JOKER:
        return (len(SUITS), 0)
    return (SUITS.index(name[-1]), RANKS.index(name[:-1]))
