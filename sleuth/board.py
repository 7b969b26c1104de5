"""Board data: load a game's board file and derive its rows, ranges and locations."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sleuth.model import Item


def _load(name: str) -> dict:
    """The parsed board file ``boards/<name>.toml`` shipped in the package."""
    text = (Path(__file__).parent / "boards" / f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True)
class City:
    """Goldraub's city: sectors, the rows through them, and the route around them.

    e.g. rows["31-36"] == ("31", "32", "33", "34", "35", "36"); route[22] == ("31-36", "41-74")
    """

    name: str
    players: tuple[int, int]
    hand_size: int
    rounds: int
    sectors: tuple[Item, ...]
    rows: dict[str, tuple[Item, ...]]
    route: dict[int, tuple[str, ...]]

    def row_name(self, text: str) -> str | None:
        """The canonical name of the row written ``text`` (ends in either order), or None."""
        parts = text.replace(" ", "").split("-")
        if len(parts) != 2:
            return None
        a, b = parts
        for name in (f"{a}-{b}", f"{b}-{a}"):
            if name in self.rows:
                return name
        return None


def _row_members(start: int, end: int, sectors: set[int]) -> tuple[Item, ...]:
    """The sectors on the straight line from ``start`` to ``end``, ends included."""
    (r1, c1), (r2, c2) = divmod(start, 10), divmod(end, 10)
    dr, dc = r2 - r1, c2 - c1
    if not (dr == 0 or dc == 0 or dr == dc) or (dr, dc) == (0, 0):
        raise ValueError(f"row {start}-{end} is not a straight row")
    steps = max(abs(dr), abs(dc))
    line = [10 * (r1 + k * dr // steps) + c1 + k * dc // steps for k in range(steps + 1)]
    if not set(line) <= sectors:
        raise ValueError(f"row {start}-{end} leaves the board")
    return tuple(str(s) for s in line)


@cache
def city() -> City:
    """The Goldraub board from its data file."""
    data = _load("goldraub")
    sectors = set(data["sectors"])
    rows = {}
    for name in data["rows"]:
        a, b = (int(x) for x in name.split("-"))
        rows[name] = _row_members(a, b, sectors)
    route = {int(space): tuple(names) for space, names in data["route"].items()}
    unknown = {r for names in route.values() for r in names} - set(rows)
    if unknown:
        raise ValueError(f"route offers rows not on the board: {sorted(unknown)}")
    return City(
        name=data["name"],
        players=tuple(data["players"]),
        hand_size=data["hand_size"],
        rounds=data["rounds"],
        sectors=tuple(str(s) for s in data["sectors"]),
        rows=rows,
        route=route,
    )


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
    data = _load("lima")
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
