"""Goldraub on screen: the hexagonal city, certain facts, likely sectors, guesses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sleuth.games.goldraub.advice import GuessCheck
from sleuth.games.goldraub.rules import ASIDE
from sleuth.model import Item
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

LEGEND = "shade, %: chance that a player holds the sector\nname: its certain holder"


def city_picture(report: Report) -> Text:
    """The 37 sectors as a hexagon, shaded by the chance of gold, owners marked when certain."""
    city = report.record.start.city
    players = report.record.table.players
    tag = tags(players)
    rows: dict[int, list[Item]] = {}
    for s in city.sectors:
        rows.setdefault(int(s) // 10, []).append(s)
    middle = (min(rows) + max(rows)) / 2
    text = Text()
    for r in sorted(rows):
        indent = " " * int(abs(r - middle) * 3)
        top, bottom = Text(indent), Text(indent)
        for s in rows[r]:
            aside = report.odds.probability(ASIDE, s)
            gold = None if aside is None else 1 - aside
            owner = certain_holder(report, s, players)
            label = tag[owner] if owner else pct(gold).replace(".0%", "%")
            style = shaded(float(gold or 0)) if gold is not None else ""
            top.append(f"{s:^6}", style=style)
            bottom.append(f"{label:^6}", style=style + (" bold" if owner else ""))
        text.append_text(top)
        text.append("\n")
        text.append_text(bottom)
        text.append("\n")
    return text


def likely_table(report: Report, top: int = 5) -> Table:
    """For each other player, the most likely sectors with their probabilities."""
    table = Table(title="Most likely sectors of each other player", title_justify="left")
    table.add_column("player")
    table.add_column("sectors (probability)")
    record = report.record
    for player in record.table.players:
        if player == record.table.me:
            continue
        odds = sorted(
            ((report.odds.probability(player, s), s) for s in record.start.city.sectors),
            key=lambda pair: (-(pair[0] or 0), int(pair[1])),
        )
        table.add_row(player, ", ".join(f"{s} ({pct(p)})" for p, s in odds[:top] if p))
    return table


def status_line(report: Report) -> str:
    """The round value and everyone's score from the recorded guesses."""
    standing = report.details
    board = ", ".join(f"{p} {s:+d}" for p, s in standing.scores.items())
    return f"round value {standing.value}; scores: {board}"


def show_report(console: Console, report: Report) -> None:
    """The full Goldraub report."""
    if not show_trouble(console, report):
        return
    picture = Group(city_picture(report), Text(LEGEND, style="dim"))
    console.print(Panel(picture, title="Chance of gold per sector", expand=False))
    console.print(facts_table(report, "sector"))
    console.print(likely_table(report))
    console.print(Text(worlds_line(report)))
    console.print(Text(status_line(report)))


def show_check(console: Console, check: GuessCheck) -> None:
    """The answer to 'should I guess that owner holds sector now' (points only if I may)."""
    lines = [
        f"{check.owner} holds {check.sector}: probability {pct(check.probability)}"
        + ("" if check.exact else " (ESTIMATE)"),
    ]
    if check.allowed:
        lines.append(
            f"round value {check.value}: right +{10 * check.value}, wrong -{5 * check.value}; "
            f"expected {float(check.expected or 0):+.1f} points"
        )
    lines.append(f"may I guess now: {'yes' if check.allowed else 'no'} ({check.why})")
    lines.append(f"verdict: {check.verdict}")
    console.print(Group(*(Text(line) for line in lines)))


def check_json(check: GuessCheck) -> dict:
    """The check as ``check --json`` prints it (the contract's keys)."""
    number = None if check.probability is None else float(check.probability)
    return {
        "owner": check.owner,
        "sector": check.sector,
        "probability": number,
        "exact": check.exact,
        "value": check.value,
        "expected": None if check.expected is None else float(check.expected),
        "allowed": check.allowed,
        "verdict": check.verdict,
    }


def show_best(console: Console, checks: list[GuessCheck]) -> None:
    """The best guesses available now."""
    table = Table(title="Best guesses now", title_justify="left")
    for column in ("owner", "sector", "probability", "expected points", "verdict"):
        table.add_column(column)
    for c in checks:
        table.add_row(
            c.owner, c.sector, pct(c.probability), f"{float(c.expected or 0):+.1f}", c.verdict
        )
    console.print(table)
    if checks:
        allowed = "yes" if checks[0].allowed else "no"
        console.print(Text(f"may I guess now: {allowed} ({checks[0].why})"))


def json_extras(report: Report) -> dict:
    """Goldraub's optional report fields: the round value and the scores."""
    return {"round": report.details.value, "scores": report.details.scores}
