"""Loot of Lima on screen: the island, the treasure pairs, each opponent's tokens, accusations."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sleuth.chance import certain
from sleuth.games.lima.advice import AccuseCheck, Pairs
from sleuth.games.lima.rules import PUBLIC, TREASURE, Accuse
from sleuth.games.lima.turns import game_over
from sleuth.model import Holder, Item
from sleuth.render.common import (
    Fitting,
    Phrases,
    certain_holder,
    facts,
    legend,
    pct,
    shaded,
    show_trouble,
    status_words,
    tags,
    whole_pct,
    worlds_line,
)

if TYPE_CHECKING:
    from sleuth.analysis import Report

LEGEND = "%: chance of treasure\nname: certain holder\n(pub: face up, TRE: treasure)"


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


def _label(
    report: Report, item: Item, tag: dict[Holder, str], whole: bool = False
) -> tuple[str, bool]:
    """A location's mark: its certain holder, else its chance of treasure (``whole``: 44%)."""
    owner = certain_holder(report, item, report.record.table.players + (TREASURE, PUBLIC))
    if owner is not None:
        return tag.get(owner, {TREASURE: "TRE", PUBLIC: "pub"}.get(owner, owner)), True
    chance = report.odds.probability(TREASURE, item)
    return (whole_pct(chance) if whole else pct(chance).replace(".0%", "%")), False


def _cell(report: Report, item: Item, tag: dict[Holder, str], width: int = 6) -> Text:
    """One location and its mark, shaded by its chance of treasure (``width``: of the mark)."""
    label, certain = _label(report, item, tag, whole=width < 6)
    chance = float(report.odds.probability(TREASURE, item) or 0)
    return Text(f" {item} {label:>{width}} ", style=shaded(chance) + (" bold" if certain else ""))


def _region(report: Report, region: int, tag: dict[Holder, str]) -> Text:
    """One region's three locations, one line each, shaded by the chance of treasure."""
    board = report.record.start.island
    text = Text()
    for k, letter in enumerate(board.terrains):
        text.append_text(_cell(report, f"{region}{letter}", tag))
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


def region_list(report: Report) -> Table:
    """The island, narrower: one line per region, clockwise, between its two compass points."""
    board = report.record.start.island
    tag = tags(report.record.table.players)
    points = board.points
    grid = Table.grid(padding=(0, 1))
    for _ in range(len(board.terrains) + 2):
        grid.add_column(justify="right")
    for region in range(1, len(points) + 1):
        cells = [_cell(report, f"{region}{letter}", tag, 4) for letter in board.terrains]
        ends = (points[region - 1], points[region % len(points)])
        grid.add_row(Text(ends[0], style="bold"), *cells, Text(ends[1], style="bold"))
    return grid


def location_list(report: Report) -> Columns:
    """The island at its narrowest: each location and its mark, as many as fit a line."""
    tag = tags(report.record.table.players)
    return Columns([_cell(report, x, tag, 4) for x in report.record.start.island.locations])


def island(report: Report) -> Fitting:
    """The island where it fits: as a square, then one region a line, then a list of locations."""
    return Fitting(island_picture(report), region_list(report), location_list(report))


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


def _grouped(chances: list[tuple[Fraction, Item]]) -> list[str]:
    """Locations grouped by probability, most likely first: ["20.2%: 1F 1M", "15.4%: 5F"]."""
    groups: dict[Fraction, list[Item]] = {}
    for p, item in sorted(chances, key=lambda pair: -pair[0]):
        groups.setdefault(p, []).append(item)
    return [f"{pct(p)}: {' '.join(items)}" for p, items in groups.items()]


def opponents_table(report: Report, narrow: bool = False) -> Table:
    """For each other player: the locations they must hold and those they may hold.

    ``narrow``: the hand size in the title rather than a column, a shorter heading.
    """
    record = report.record
    size = record.start.hand_size
    whose = "Players'" if record.table.me is None else "Other players'"
    title = f"{whose} tokens ({size} each)" if narrow else f"{whose} tokens"
    table = Table(title=title, title_justify="left")
    may = "may hold (chance: locations)" if narrow else "may hold (probability: locations)"
    for column in ("player", *(() if narrow else ("tokens",)), "must hold", may):
        table.add_column(column)
    for player in record.table.players:
        if player == record.table.me:
            continue
        chances = [
            (report.odds.probability(player, x) or Fraction(0), x)
            for x in record.start.island.locations
        ]
        must = [x for p, x in chances if certain(p)] or ["-"]
        maybe = _grouped([(p, x) for p, x in chances if p and not certain(p)]) or ["-"]
        tokens = () if narrow else (str(size),)
        table.add_row(player, *tokens, Phrases(must, " "), Phrases(maybe, "; "))
    return table


def opponents(report: Report) -> Fitting:
    """Each other player's tokens, in a narrower table where the full one does not fit."""
    return Fitting(opponents_table(report), opponents_table(report, narrow=True))


def show_report(console: Console, report: Report) -> None:
    """The full Loot of Lima report."""
    if not show_trouble(console, report):
        return
    picture = Group(island(report), legend(console, LEGEND))
    console.print(Panel(picture, title="Chance of treasure per location", expand=False))
    console.print(pairs_table(report, report.details))
    console.print(opponents(report))
    console.print(facts(report, "location"))
    console.print(Text(worlds_line(report)))
    console.print(Text(status_words(report.record.rules.status(report.record))))


def show_top_pairs(console: Console, report: Report, limit: int = 3) -> None:
    """One line after an update: the most likely treasure pairs, or that the game is over."""
    events = report.record.events
    over = game_over(events)
    if over is not None:
        won = events[over - 1]
        assert isinstance(won, Accuse)  # game_over is the index of a right accusation
        pair = " + ".join(won.locations)
        console.print(Text(f"  the game is over: {won.by} found the treasure, {pair}"))
        return
    found = report.details
    listed = ", ".join(f"{'+'.join(p.locations)} {pct(p.probability)}" for p in found[:limit])
    if not found:
        listed = "not counted within the budget (a larger --budget may count them)"
    elif found.uncounted:
        listed += f"; pairs of {len(found.uncounted)} locations not counted within the budget"
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


def show_best(console: Console, report: Report, pairs: Pairs, check: AccuseCheck | None) -> None:
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
