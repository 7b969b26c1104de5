"""Goldraub's board data: load ``board.toml`` and derive the rows and the route from it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sleuth.games.base import board_data
from sleuth.model import Item


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
    data = board_data(__file__)
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
