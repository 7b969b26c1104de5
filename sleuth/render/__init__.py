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

from sleuth.games import part
from sleuth.render.common import facts, pct, show_trouble, status_words, worlds_line
from sleuth.render.common import report_json as common_json

if TYPE_CHECKING:
    from rich.console import Console

    from sleuth.analysis import Report
    from sleuth.record import Record


def chances(console: Console, report: Report) -> None:
    """The shared full report: what is certain, then one row per item, a column per holder."""
    if not show_trouble(console, report):
        return
    space = report.record.model().space
    grid = Table(title=f"{report.record.rules.title}: chance of each holding")
    for column in ("item", *space.holders):
        grid.add_column(column, justify="right")
    for item in space.items:
        grid.add_row(item, *(pct(report.odds.probability(h, item)) for h in space.holders))
    console.print(grid)
    console.print(facts(report, "item"))
    console.print(Text(worlds_line(report)))
    console.print(Text(status_words(report.record.rules.status(report.record))))


def no_update(console: Console, report: Report) -> None:
    """The shared ``show_update``: nothing beyond the common update line."""


def no_extras(report: Report) -> dict:
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


def show_report(console: Console, report: Report) -> None:
    """The full report, as the record's game draws it."""
    part(report.record.rules, "show_report", chances)(console, report)


def show_update(console: Console, report: Report) -> None:
    """The game's own lines after the compact update of a recorded event."""
    part(report.record.rules, "show_update", no_update)(console, report)


def plainly(record: Record, index: int) -> str:
    """What the setup (index 0) or event ``index`` states, as a clause in the game's words."""
    return part(record.rules, "plainly", as_recorded)(record, index)


def report_json(report: Report) -> dict:
    """The JSON report: the contract's keys, then the game's own."""
    out = common_json(report)
    out.update(part(report.record.rules, "json_extras", no_extras)(report))
    return out
