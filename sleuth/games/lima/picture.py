"""Loot of Lima on screen: the island, the treasure pairs, each opponent's tokens, accusations."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sleuth.games.lima.advice import AccuseCheck, PairOdds, Pairs
from sleuth.games.lima.rules import PUBLIC, TREASURE, game_over
from sleuth.model import Holder, Item
from sleuth.render.common import (
    certain_holder,
    facts_table,
    pct,
    shaded,
    show_trouble,
    tags,
    worlds_line,
)

if TYPE_CHECKING:
    from sleuth.analysis import Report

LEGEND = "shade, %: chance of treasure\nname: certain holder\n(pub: face up, TRE: treasure)"


def _ring(points: int) -> list[tuple[int, int]]:
    """The border cells of a square grid, clockwise from the top middle: point, region, ..."""
    side = points // 2 + 1
    last, middle = side - 1, side // 2
    top = [(0, c) for c in range(middle, last)]
    right = [(r, last) for r in range(last)]
    bottom = [(last, c) for c in range(last, 0, -1)]
    left = [(r, 0) for r in range(last, 0, -1)]
    rest = [(0, c) for c in range(middle)]
    return top + right + bottom + left + rest


def _label(report: Report, item: Item, tag: dict[Holder, str]) -> tuple[str, bool]:
    """A location's mark: its certain holder, else its chance of holding a treasure."""
    owner = certain_holder(report, item, report.record.table.players + (TREASURE, PUBLIC))
    if owner is not None:
        return tag.get(owner, {TREASURE: "TRE", PUBLIC: "pub"}.get(owner, owner)), True
    return pct(report.odds.probability(TREASURE, item)).replace(".0%", "%"), False


def _region(report: Report, region: int, tag: dict[Holder, str]) -> Text:
    """One region's three locations, one line each, shaded by the chance of treasure."""
    board = report.record.start.island
    text = Text()
    for k, letter in enumerate(board.terrains):
        item = f"{region}{letter}"
        label, certain = _label(report, item, tag)
        chance = float(report.odds.probability(TREASURE, item) or 0)
        style = shaded(chance) + (" bold" if certain else "")
        text.append(f" {item} {label:>6} ", style=style)
        if k < len(board.terrains) - 1:
            text.append("\n")
    return text


def island_picture(report: Report) -> Table:
    """The island: compass points around a square, each region on the edge between its points."""
    board = report.record.start.island
    tag = tags(report.record.table.players)
    side = len(board.points) // 2 + 1
    cells: dict[tuple[int, int], Text] = {}
    for k, cell in enumerate(_ring(len(board.points))):
        if k % 2 == 0:
            cells[cell] = Text(board.points[k // 2], style="bold")
        else:
            cells[cell] = _region(report, k // 2 + 1, tag)
    grid = Table.grid(padding=(0, 1))
    for _ in range(side):
        grid.add_column(justify="center", vertical="middle")
    for r in range(side):
        grid.add_row(*(cells.get((r, c), Text("")) for c in range(side)))
    return grid


def pairs_table(report: Report, pairs: Pairs, limit: int = 10) -> Table:
    """The possible treasure pairs, most likely first, with their counted deals when exact."""
    table = Table(title="Possible treasure pairs", title_justify="left")
    for column in ("#", "pair", "probability", "deals"):
        table.add_column(column, justify="right" if column != "pair" else "left")
    for rank, pair in enumerate(pairs[:limit], 1):
        deals = f"{int(pair.probability * report.worlds):,}" if pair.exact else "?"
        label = pct(pair.probability) + ("" if pair.exact else " (ESTIMATE)")
        table.add_row(str(rank), " + ".join(pair.locations), label, deals)
    if len(pairs) > limit:
        rest = f"{len(pairs) - limit} more pairs, each at most {pct(pairs[limit].probability)}"
        table.caption = rest
    if pairs.uncounted:
        first = " ".join(pairs.uncounted)
        cut = f"not counted in the budget (try a larger --budget): pairs from {first}"
        table.caption = f"{table.caption}; {cut}" if table.caption else cut
    return table


def _grouped(chances: list[tuple[Fraction, Item]]) -> str:
    """Locations grouped by probability, most likely first: "20.2%: 1F 1M; 15.4%: 5F"."""
    groups: dict[Fraction, list[Item]] = {}
    for p, item in sorted(chances, key=lambda pair: -pair[0]):
        groups.setdefault(p, []).append(item)
    return "; ".join(f"{pct(p)}: {' '.join(items)}" for p, items in groups.items())


def opponents_table(report: Report) -> Table:
    """For each other player: the locations they must hold and those they may hold."""
    table = Table(title="Other players' tokens", title_justify="left")
    for column in ("player", "tokens", "must hold", "may hold (probability: locations)"):
        table.add_column(column)
    record = report.record
    for player in record.table.players:
        if player == record.table.me:
            continue
        chances = [
            (report.odds.probability(player, x) or 0, x) for x in record.start.island.locations
        ]
        must = " ".join(x for p, x in chances if p == 1)
        may = _grouped([(p, x) for p, x in chances if 0 < p < 1])
        table.add_row(player, str(record.start.hand_size), must or "-", may or "-")
    return table


def show_report(console: Console, report: Report) -> None:
    """The full Loot of Lima report."""
    if not show_trouble(console, report):
        return
    picture = Group(island_picture(report), Text(LEGEND, style="dim"))
    console.print(Panel(picture, title="Chance of treasure per location", expand=False))
    console.print(pairs_table(report, report.details))
    console.print(opponents_table(report))
    console.print(facts_table(report, "location"))
    console.print(Text(worlds_line(report)))


def show_top_pairs(console: Console, report: Report, limit: int = 3) -> None:
    """One line after an update: the most likely treasure pairs, or that the game is over."""
    events = report.record.events
    over = game_over(events)
    if over is not None:
        won = events[over - 1]
        pair = " + ".join(won.locations)
        console.print(Text(f"  the game is over: {won.by} found the treasure, {pair}"))
        return
    pairs = report.details[:limit]
    listed = ", ".join(f"{'+'.join(p.locations)} {pct(p.probability)}" for p in pairs)
    console.print(Text(f"  top treasure pairs: {listed}"))


def show_check(console: Console, check: AccuseCheck) -> None:
    """The answer to 'should I accuse these two locations now'."""
    a, b = check.locations
    each = ", ".join(f"{x} {pct(p)}" for x, p in zip(check.locations, check.alone, strict=True))
    lines = [
        f"treasure = {a} + {b}: probability {pct(check.probability)}"
        + (" (exact)" if check.exact else " (ESTIMATE)"),
        f"each a treasure on its own: {each}",
        f"verdict: {check.verdict}",
    ]
    if check.out is not None:
        lines.append(f"note: I am already out, by my wrong accusation at event {check.out}")
    if check.over is not None:
        lines.append(f"note: the game is over: the accusation at event {check.over} was right")
    console.print(Group(*(Text(line) for line in lines)))


def show_best(
    console: Console, report: Report, pairs: list[PairOdds], check: AccuseCheck | None
) -> None:
    """The most likely pairs and the verdict on the best one."""
    if check is None:
        console.print(Text("no treasure pair fits the record"))
        return
    console.print(pairs_table(report, pairs, limit=5))
    console.print(Text("best accusation:"))
    show_check(console, check)


def check_json(check: AccuseCheck) -> dict:
    """The check as ``check --json`` prints it (the contract's keys)."""
    number = None if check.probability is None else float(check.probability)
    return {
        "pair": list(check.locations),
        "probability": number,
        "exact": check.exact,
        "verdict": check.verdict,
    }


def json_extras(report: Report) -> dict:
    """Loot of Lima's report field: every possible treasure pair, most likely first."""
    pairs = report.details
    out: dict = {"treasure": [[list(p.locations), float(p.probability)] for p in pairs]}
    if pairs.uncounted:
        out["treasure_uncounted"] = list(pairs.uncounted)
    return out
