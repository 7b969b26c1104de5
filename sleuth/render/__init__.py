"""Results to the screen and the JSON report of the contract, each game's screens or the shared.

A game's screens are its parts (``sleuth.games.part``): ``show_report``, ``show_update``,
``json_extras``, ``plainly``, and with advice ``show_advice`` and ``advice_json``. A game
without one gets the shared default below: a grid of every holder's chance of every item, no
line after an update, no JSON keys of its own, an event said as the record writes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from sleuth.beliefs import counted
from sleuth.games import part
from sleuth.render.common import amount, pct, show_trouble, status_json, status_words
from sleuth.render.common import report_json as common_json

if TYPE_CHECKING:
    from rich.console import Console

    from sleuth.belief import Belief
    from sleuth.record import Record


def chances(console: Console, report: Belief) -> None:
    """The shared full report: a row per item, a column per holder; what is and was certain."""
    if not show_trouble(console, report):
        return
    holders, items = report.holdings()
    grid = Table(title=f"{report.record.rules.title}: chance of each holding")
    for column in ("item", *holders):
        grid.add_column(column, justify="right")
    for item in items:
        grid.add_row(item, *(pct(report.chance(h, item)) for h in holders))
    console.print(grid)
    console.print(facts_table(report))
    left = report.left
    what = "" if left is None else f"{amount(left)} {'fits' if left.number == 1 else 'fit'}"
    exactly = "exact" if report.exact else "ESTIMATE"
    console.print(Text(f"{what} the record ({exactly})" if what else "not counted"))
    console.print(Text(status_words(report.record.rules.status(report.record))))


def facts_table(report: Belief) -> Table:
    """What is certain now, by the event since which it is, and what was certain and ended."""
    table = Table(title="Certain", title_justify="left")
    for column in ("holder", "item", "since event", "until event"):
        table.add_column(column)
    for fact in [*report.forced, *report.ended]:
        until = "-" if fact.until is None else str(fact.until)
        table.add_row(fact.holder, fact.item, str(fact.since), until)
    if not report.forced and not report.ended:
        table.add_row("-", "-", "nothing certain beyond the setup", "")
    return table


def belief_json(report: Belief) -> dict:
    """The shared JSON report of a game's own belief: the chances and the facts, when and until."""
    holders, items = report.holdings()
    out: dict = {"game": report.record.game, "consistent": report.fits, "exact": report.exact}
    left = report.left
    out["left"] = None if left is None else left.number
    out["probability"] = {}
    if report.consistent:
        out["probability"] = {
            h: {i: float(p) if (p := report.chance(h, i)) is not None else None for i in items}
            for h in holders
        }
    out["forced"] = [[f.holder, f.item] for f in report.forced]
    out["since"] = [[f.holder, f.item, f.since] for f in report.forced]
    out["ended"] = [[f.holder, f.item, f.since, f.until] for f in report.ended]
    if not report.fits:
        out["conflict"] = report.conflict
    out["status"] = status_json(report.record.rules.status(report.record))
    return out


def no_update(console: Console, report: Belief) -> None:
    """The shared ``show_update``: nothing beyond the common update line."""


def no_extras(report: Belief) -> dict:
    """The shared ``json_extras``: no keys of the game's own."""
    return {}


def as_recorded(record: Record, index: int) -> str:
    """The shared ``plainly``: the setup, or event ``index`` as the record writes it."""
    return "the setup" if index == 0 else f"event {index} ({record.events[index - 1].text()})"


def advice_lines(console: Console, advice: Any) -> None:
    """The shared ``show_advice``: each of the advice's options on a line of its own."""
    for option in advice:
        console.print(Text(str(option)))


def advice_data(advice: Any) -> dict:
    """The shared ``advice_json``: the options, each a JSON object if it is one, else its text."""
    return {"options": [o if isinstance(o, dict) else str(o) for o in advice]}


def show_report(console: Console, report: Belief) -> None:
    """The full report, as the record's game draws it."""
    part(report.record.rules, "show_report", chances)(console, report)


def show_update(console: Console, report: Belief) -> None:
    """The game's own lines after the compact update of a recorded event."""
    part(report.record.rules, "show_update", no_update)(console, report)


def plainly(record: Record, index: int) -> str:
    """What the setup (index 0) or event ``index`` states, as a clause in the game's words."""
    return part(record.rules, "plainly", as_recorded)(record, index)


def report_json(report: Belief) -> dict:
    """The JSON report: the contract's keys (a deal count's, or any belief's), then the game's."""
    out = common_json(report) if counted(report) else belief_json(report)  # type: ignore[arg-type]
    out.update(part(report.record.rules, "json_extras", no_extras)(report))
    return out
