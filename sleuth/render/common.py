"""Rendering shared by both games: percentages, colours, the update line, contradictions."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sleuth.analysis import Report, Update
from sleuth.model import Holder, Item


def pct(p: Fraction | None) -> str:
    """A probability as a short percentage: 45.2%, <0.1%, >99.9%, 100%."""
    if p is None:
        return "?"
    if p == 0 or p == 1:
        return f"{int(p) * 100}%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


def tags(players: tuple[Holder, ...]) -> dict[Holder, str]:
    """The shortest unique prefix (at most 3 letters) naming each player on the board."""
    out = {}
    for name in players:
        for n in range(1, 4):
            tag = name[:n]
            if sum(p.casefold().startswith(tag.casefold()) for p in players) == 1 or n == 3:
                out[name] = tag
                break
    return out


def shade(p: float) -> str:
    """A background colour from dark (no chance) to gold (certain)."""
    r, g, b = (int(40 + (c - 40) * p) for c in (255, 200, 0))
    return f"rgb({r},{g},{b})"


def certain_holder(report: Report, item: Item, holders: tuple[Holder, ...]) -> Holder | None:
    """The holder among ``holders`` certain to hold ``item`` (exact counts only)."""
    if not report.odds.exact:
        return None
    for holder in holders:
        if report.odds.held.get((holder, item)) == report.odds.base:
            return holder
    return None


def facts_table(report: Report, noun: str) -> Table:
    """Certain holdings: item, holder, and the event since which they are certain."""
    table = Table(title="Certain", title_justify="left")
    for column in (noun, "holder", "since event"):
        table.add_column(column)
    for fact in report.forced:
        label = report.labels[fact.since] if fact.since < len(report.labels) else ""
        table.add_row(fact.item, fact.holder, f"{fact.since}: {label}")
    if not report.forced:
        table.add_row("-", "-", "nothing certain beyond the setup")
    return table


def worlds_line(report: Report) -> str:
    """How many deals fit, exact or estimated."""
    odds = report.odds
    if odds.exact:
        return f"{odds.worlds:,} deals fit the record (exact count)"
    low, high = odds.interval or (0, 0)
    return (
        f"ESTIMATE by sampling: about {odds.worlds:.3g} deals fit the record "
        f"(95% interval {low:.3g} to {high:.3g}, {odds.samples:,} samples)"
    )


def conflict_panel(report: Report) -> Panel:
    """The smallest set of events that cannot all hold."""
    lines = [f"  {i}: {report.labels[i]}" for i in report.conflict]
    body = "No deal fits the record. These cannot all hold together:\n" + "\n".join(lines)
    return Panel(body, title="Contradiction", border_style="red")


def show_update(console: Console, update: Update, what: str) -> None:
    """The compact lines after recording an event."""
    report = update.report
    console.print(f"recorded: {what}")
    if not report.consistent:
        console.print(conflict_panel(report))
        return
    for fact in update.new:
        console.print(f"  now certain: {fact.holder} holds {fact.item}")
    if not update.new:
        console.print("  nothing new is certain")
    exact = "" if report.odds.exact else " (ESTIMATE)"
    console.print(f"  {report.odds.worlds:,} deals still possible{exact}")


def report_json(report: Report) -> dict:
    """The contract's keys common to both games, plus optional counts, since and interval."""
    odds = report.odds
    space = report.record.model().space
    out: dict = {"game": report.record.game, "consistent": report.consistent}
    out["worlds"] = odds.worlds
    out["exact"] = odds.exact
    out["probability"] = {}
    if report.consistent:
        out["probability"] = {
            h: {i: float(odds.probability(h, i) or 0) for i in space.items} for h in space.holders
        }
    out["forced"] = [[f.holder, f.item] for f in report.forced]
    out["since"] = [[f.holder, f.item, f.since] for f in report.forced]
    if not report.consistent:
        out["conflict"] = report.conflict
        out["repairs"] = []
    if report.consistent and odds.exact:
        out["counts"] = {h: {i: odds.held[h, i] for i in space.items} for h in space.holders}
    if not odds.exact:
        out["interval"] = list(odds.interval or (0, 0))
        out["samples"] = odds.samples
    return out


def summary(text: str) -> Text:
    """Plain text, never read as markup."""
    return Text(text)
