"""Goldraub on screen: the hexagonal city, certain facts, likely sectors, guesses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sleuth.games.goldraub.advice import GuessCheck, Timing
from sleuth.games.goldraub.rules import ASIDE
from sleuth.model import Item
from sleuth.render.common import (
    Fitting,
    Phrases,
    certain_holder,
    facts,
    fitted,
    legend,
    pct,
    shaded,
    show_trouble,
    signed,
    status_words,
    tags,
    whole_pct,
    worlds_line,
)

if TYPE_CHECKING:
    from sleuth.analysis import Report

LEGEND = "%: chance that a player holds the sector\nname: its certain holder"


def city_picture(report: Report, cell: int = 6) -> Text:
    """The 37 sectors as a hexagon, shaded by the chance of gold, owners marked when certain.

    ``cell``: the width of a sector; below 6 the chances are whole percents.
    """
    text = Text()
    rows = _city_rows(report)
    middle = (min(rows) + max(rows)) / 2
    for r in sorted(rows):
        indent = " " * int(abs(r - middle) * cell / 2)
        top, bottom = Text(indent), Text(indent)
        for s in rows[r]:
            label, style, owned = _sector(report, s, whole=cell < 6)
            top.append(f"{s:^{cell}}", style=style)
            bottom.append(f"{label:^{cell}}", style=style + (" bold" if owned else ""))
        text.append_text(top)
        text.append("\n")
        text.append_text(bottom)
        text.append("\n")
    return text


def _city_rows(report: Report) -> dict[int, list[Item]]:
    """The city's sectors by row of the hexagon (the tens digit)."""
    rows: dict[int, list[Item]] = {}
    for s in report.record.start.city.sectors:
        rows.setdefault(int(s) // 10, []).append(s)
    return rows


def _sector(report: Report, sector: Item, whole: bool = False) -> tuple[str, str, bool]:
    """A sector's mark (its certain owner's tag, else its chance of gold), shade, and if owned."""
    players = report.record.table.players
    aside = report.odds.probability(ASIDE, sector)
    gold = None if aside is None else 1 - aside
    owner = certain_holder(report, sector, players)
    style = shaded(float(gold or 0)) if gold is not None else ""
    if owner:
        return tags(players)[owner], style, True
    return (whole_pct(gold) if whole else pct(gold).replace(".0%", "%")), style, False


def sector_list(report: Report) -> Columns:
    """The board at its narrowest: each sector and its mark, row by row, as many as fit a line."""
    cells = []
    for row in _city_rows(report).values():
        for s in row:
            label, style, owned = _sector(report, s, whole=True)
            cells.append(Text(f"{s} {label:>4}", style=style + (" bold" if owned else "")))
    return Columns(cells, padding=(0, 1))


def board(report: Report) -> Fitting:
    """The city where it fits: full, then with narrower sectors, then as a list of sectors."""
    return Fitting(city_picture(report), city_picture(report, cell=4), sector_list(report))


def likely_table(report: Report, top: int = 5, wrap: bool = False) -> Table:
    """For each other player, the ``top`` most likely sectors with their probabilities.

    ``wrap``: each player's list may take several lines (else it counts as one).
    """
    whose = "each player" if report.record.table.me is None else "each other player"
    table = Table(title=f"Most likely sectors of {whose}", title_justify="left")
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
        chances = [f"{s} ({pct(p)})" for p, s in odds[:top] if p] or ["?"]
        table.add_row(player, Phrases(chances) if wrap else ", ".join(chances))
    return table


def likely(report: Report) -> Fitting:
    """The five likeliest sectors of each player, fewer where they do not fit, else five wrapped."""
    one_line = (likely_table(report, top) for top in (5, 4, 3))
    return Fitting(*one_line, likely_table(report, wrap=True))


def scores(report: Report) -> Phrases:
    """Everyone's score from the recorded guesses: "scores: Anton +55, ..." ("final scores")."""
    board = [f"{p} {s:+d}" for p, s in report.details.scores.items()]
    final = "final " if report.record.rules.status(report.record).over else ""
    return Phrases([f"{final}scores: {board[0]}", *board[1:]])


def show_end(console: Console, report: Report) -> None:
    """After an update: nothing, or that the game is over, why, and the final scores."""
    over = report.record.rules.status(report.record).over
    if over:
        console.print(Text(f"  the game is over: {over}"))
        console.print(scores(report))


def show_report(console: Console, report: Report) -> None:
    """The full Goldraub report."""
    if not show_trouble(console, report):
        return
    picture = Group(board(report), legend(console, LEGEND))
    console.print(Panel(picture, title="Chance of gold per sector", expand=False))
    console.print(facts(report, "sector"))
    console.print(likely(report))
    console.print(Text(worlds_line(report)))
    console.print(Text(status_words(report.record.rules.status(report.record))))
    console.print(scores(report))


def show_check(console: Console, check: GuessCheck) -> None:
    """The answer to 'should I guess that owner holds sector now' (points only if I may)."""
    lines = [
        f"{check.owner} holds {check.sector}: probability {pct(check.probability)}"
        + ("" if check.exact else " (ESTIMATE)"),
    ]
    if check.allowed:
        lines.append(
            f"round value {check.value}: right +{10 * check.value}, wrong -{5 * check.value}; "
            f"expected {signed(float(check.expected or 0))} points"
        )
    lines.append(f"may I guess now: {'yes' if check.allowed else 'no'} ({check.why})")
    lines.append(f"verdict: {check.verdict}")
    if check.timing is not None:
        t = check.timing
        lines.append(
            f"now {signed(float(t.now))} or wait a round {waiting(t)} "
            f"(taken first {pct(t.taken)}): {t.verdict}"
        )
    console.print(Group(*(Text(line) for line in lines)))


def waiting(timing: Timing) -> str:
    """What waiting a round brings, at least and at best: "+12.0 to +35.0", or one number."""
    least, best = signed(float(timing.least)), signed(float(timing.wait))
    return best if least == best else f"{least} to {best}"


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
            c.owner, c.sector, pct(c.probability), signed(float(c.expected or 0)), c.verdict
        )
    console.print(fitted(table))
    if checks:
        allowed = "yes" if checks[0].allowed else "no"
        console.print(Text(f"may I guess now: {allowed} ({checks[0].why})"))


def json_extras(report: Report) -> dict:
    """Goldraub's optional report fields: the round value and the scores."""
    return {"round": report.details.value, "scores": report.details.scores}
