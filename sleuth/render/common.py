"""Rendering shared by both games: percentages, colours, the update line, contradictions."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sleuth.games.base import yaml_word
from sleuth.model import Holder, Item

if TYPE_CHECKING:
    from sleuth.analysis import Report, Update
    from sleuth.mistakes import Repair


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
    """Certain holdings: item, holder, the event since which they are certain, robustness."""
    table = Table(title="Certain", title_justify="left")
    columns = [noun, "holder", "since event"]
    if report.tolerance:
        columns.append("robust (stays certain if any one answer is wrong)")
    for column in columns:
        table.add_column(column)
    for fact in report.forced:
        since = "-" if fact.since is None else f"{fact.since}: {report.labels[fact.since]}"
        robust = ["yes" if fact.robust else "no"] if report.tolerance else []
        table.add_row(fact.item, fact.holder, since, *robust)
    if not report.forced:
        table.add_row("-", "-", "nothing certain beyond the setup", *[""] * (len(columns) - 3))
    return table


def tolerance_line(report: Report) -> str:
    """What a report that tolerates one wrong answer counts."""
    tolerance = report.tolerance
    if tolerance is None:
        return ""
    line = (
        f"Tolerating one wrong answer: odds over the deals that contradict at most one of the "
        f"{tolerance.answers} recorded answers ({tolerance.strict.worlds:,} fit them all)"
    )
    if tolerance.skipped:
        events = ", ".join(map(str, tolerance.skipped))
        line += f"; NOT COUNTED in the budget: the deals wrong only at event {events} (too few)"
    return line


def worlds_line(report: Report) -> str:
    """How many deals fit, exact or estimated."""
    odds = report.odds
    one = odds.worlds == 1 and odds.exact
    fit = "contradict at most one answer" if report.tolerance else "fit the record"
    if one:
        fit = "contradicts at most one answer" if report.tolerance else "fits the record"
    if odds.exact:
        return f"{odds.worlds:,} {'deal' if one else 'deals'} {fit} (exact count)"
    if odds.interval is None:
        return f"ESTIMATE: about {odds.worlds:.3g} deals {fit} (some counts were sampled)"
    low, high = odds.interval
    if not odds.base:
        return (
            f"NO ESTIMATE: the exact count ran out of its budget and none of {odds.samples:,} "
            f"sampled deals fitted the record; z3 shows that at least one does (at most "
            f"{high:.3g}). Probabilities are unknown (?); try a larger --budget."
        )
    return (
        f"ESTIMATE by sampling: about {odds.worlds:.3g} deals {fit} "
        f"(95% interval {low:.3g} to {high:.3g}, {odds.samples:,} samples; a larger --budget "
        "may count exactly)"
    )


def repair_text(report: Report, repair: Repair) -> str:
    """One repair in words: "event 7: with gold 1 instead of 2, the record is consistent again"."""
    event = report.record.events[repair.event - 1]
    new, old = yaml_word(repair.value), yaml_word(repair.old)
    answerer = event.answerer(repair.field)
    if answerer is not None:
        change = f"if {answerer} answered {new}, not {old}"
    elif isinstance(repair.value, bool):
        change = f"if the {event.kind} was {_verdict(repair.value)}, not {_verdict(repair.old)}"
    else:
        change = f"with {repair.field} {new} instead of {old}"
    deals = f"{repair.worlds:,} deals"
    if not repair.exact:
        deals = f"about {repair.worlds:.3g} deals (ESTIMATE)"
    edit = f"sleuth edit {repair.event} {repair.field}={new}"
    return f"event {repair.event}: {change}, the record is consistent again: {deals} ({edit})"


def _verdict(correct: bool) -> str:
    """The word for a verdict: right or wrong."""
    return "right" if correct else "wrong"


SETUP = "the setup (my hand, and what I knew before the first event)"


def conflict_panel(report: Report, limit: int = 6) -> Panel:
    """The smallest set of events that cannot all hold, and the single changes that fix it."""
    lines = ["No deal fits the record. These cannot all hold together:"]
    lines += [f"  {i}: {report.labels[i] if i else SETUP}" for i in report.conflict]
    if report.repairs:
        lines.append("Most likely mistakes, most deals first (one change fixes the record):")
        lines += [f"  {repair_text(report, r)}" for r in report.repairs[:limit]]
        if len(report.repairs) > limit:
            lines.append(f"  ... and {len(report.repairs) - limit} more (see --json)")
    elif not report.repairs_cut:
        lines.append("No single changed answer makes it consistent: check these events.")
    if report.repairs_cut:
        lines.append("The search for single changes ran out of its budget: some may be missing.")
    return Panel(Text("\n".join(lines)), title="Contradiction", border_style="red")


def show_trouble(console: Console, report: Report) -> bool:
    """The contradiction and the tolerance, if any; whether there are deals left to show."""
    if not report.fits:
        console.print(conflict_panel(report))
    if report.tolerance:
        console.print(Text(tolerance_line(report)))
    return report.consistent


def show_edit(console: Console, report: Report, index: int, old: str, new: str) -> None:
    """The event before and after an edit, then whether the record fits now."""
    console.print(Text(f"event {index} was: {old}"))
    console.print(Text(f"event {index} now: {new}"))
    if show_trouble(console, report):
        exact = "" if report.odds.exact else " (ESTIMATE)"
        console.print(Text(f"  {report.odds.worlds:,} deals fit the record{exact}"))


def show_update(console: Console, update: Update, what: str, where: str = "") -> None:
    """The compact lines after recording an event (``where``: " as event 2 of 5", or nothing)."""
    report = update.report
    console.print(Text(f"recorded{where}: {what}"))
    if not report.consistent:
        console.print(conflict_panel(report))
        return
    for fact in update.new:
        console.print(Text(f"  now certain: {fact.holder} holds {fact.item}"))
    if not update.new:
        console.print("  nothing new is certain")
    exact = "" if report.odds.exact else " (ESTIMATE)"
    deals = "deal" if report.odds.worlds == 1 else "deals"
    console.print(f"  {report.odds.worlds:,} {deals} still possible{exact}")


def _share(p: Fraction | None) -> float | None:
    """A probability for JSON: null when unknown (no sampled deal fitted the record)."""
    return None if p is None else float(p)


def report_json(report: Report) -> dict:
    """The contract's keys common to both games, plus optional counts, since and interval."""
    odds = report.odds
    space = report.record.model().space
    out: dict = {"game": report.record.game, "consistent": report.fits}
    out["worlds"] = odds.worlds
    out["exact"] = odds.exact
    out["probability"] = {}
    if report.consistent:
        out["probability"] = {
            h: {i: _share(odds.probability(h, i)) for i in space.items} for h in space.holders
        }
        if not odds.base:
            out["estimate_failed"] = True
    certain = [f for f in report.forced if f.robust or not report.tolerance]
    out["forced"] = [[f.holder, f.item] for f in certain]
    out["since"] = [[f.holder, f.item, f.since] for f in certain]
    if not report.fits:
        out["conflict"] = report.conflict
        out["repairs"] = [repair_json(r) for r in report.repairs]
        if report.repairs_cut:
            out["repairs_complete"] = False
    if report.tolerance:
        out["tolerate"] = report.tolerance.wrong
        out["answers"] = report.tolerance.answers
        out["strict_worlds"] = report.tolerance.strict.worlds
        out["strict_forced"] = [[f.holder, f.item] for f in report.forced if f.since is not None]
        if report.tolerance.skipped:
            out["tolerate_skipped"] = list(report.tolerance.skipped)
    if report.consistent and odds.exact:
        out["counts"] = {h: {i: odds.held[h, i] for i in space.items} for h in space.holders}
    if not odds.exact:
        out["interval"] = list(odds.interval or (0, 0))
        out["samples"] = odds.samples
    return out


def repair_json(repair: Repair) -> dict:
    """A repair as the contract's object, plus whether its count of deals is exact."""
    keys = ("event", "field", "value", "worlds", "exact")
    return {key: getattr(repair, key) for key in keys}
