"""Loot of Lima's board data: load ``board.toml``: compass points, terrains, deal, dice."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sleuth.games.base import board_data
from sleuth.model import Item

Face = tuple[str, str]  # a die's face: (compass point, terrain or "wild"), e.g. ("SW", "beach")


def face_of(text: str) -> Face:
    """A die's face as written in ``board.toml``: "SW-beach" is ("SW", "beach")."""
    point, kind = text.split("-")
    return point, kind


@dataclass(frozen=True)
class Island:
    """Lima's island: compass points, regions between them, terrains, dice.

    e.g. locations[0] == "1B" (the beach of the region from N to NE); terrains["F"] == "forest"
    """

    name: str
    players: tuple[int, int]
    treasure: int
    points: tuple[str, ...]
    terrains: dict[str, str]
    deal: dict[int, tuple[int, int]]
    passing: dict[int, tuple[int, ...]]
    numbers: dict[str, int]
    dice: dict[int, tuple[str, ...]]

    @property
    def locations(self) -> tuple[Item, ...]:
        """Every location, region by region, terrains in board-file order."""
        return tuple(
            f"{region}{letter}"
            for region in range(1, len(self.points) + 1)
            for letter in self.terrains
        )

    def regions_between(self, start: str, end: str) -> tuple[int, ...]:
        """The regions clockwise from point ``start`` to point ``end``; same point: all."""
        n = len(self.points)
        a, b = self.points.index(start), self.points.index(end)
        span = (b - a) % n or n
        return tuple((a + k) % n + 1 for k in range(span))

    def range_items(self, start: str, end: str, terrain: str | None = None) -> frozenset[Item]:
        """The locations in a question's range, optionally of one terrain (a name)."""
        letters = [k for k, v in self.terrains.items() if terrain in (None, v)]
        return frozenset(
            f"{region}{letter}" for region in self.regions_between(start, end) for letter in letters
        )


@cache
def island() -> Island:
    """The Loot of Lima board from its data file."""
    data = board_data(__file__)
    return Island(
        name=data["name"],
        players=tuple(data["players"]),
        treasure=data["treasure"],
        points=tuple(data["points"]),
        terrains=dict(data["terrains"]),
        deal={int(k): tuple(v) for k, v in data["deal"].items()},
        passing={int(k): tuple(v) for k, v in data["passing"].items()},
        numbers=dict(data.get("numbers", {})),
        dice={int(k): tuple(v) for k, v in data["dice"].items()},
    )
