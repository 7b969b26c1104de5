"""The games sleuth knows, each a board file and a module of setup rules and events."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sleuth.games import goldraub, lima
from sleuth.games.base import Event, Setup, Table


@dataclass(frozen=True)
class Rules:
    """One game's rules as the record and the model need them."""

    name: str
    setup_keys: tuple[str, ...]
    events: dict[str, type[Event]]
    parse_start: Callable[[dict, Table], Any]
    setup: Callable[[Any, Table], Setup]
    start_fields: Callable[[Any], dict]


GAMES: dict[str, Rules] = {
    "goldraub": Rules(
        "goldraub",
        ("hand", "rounds"),
        goldraub.EVENTS,
        goldraub.parse_start,
        goldraub.setup,
        goldraub.start_fields,
    ),
    "lima": Rules(
        "lima",
        ("hand", "known", "public"),
        lima.EVENTS,
        lima.parse_start,
        lima.setup,
        lima.start_fields,
    ),
}
