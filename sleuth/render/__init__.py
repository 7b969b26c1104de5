"""Results to the screen and the JSON report of the contract; each game draws its own picture."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.render.common import report_json as common_json

if TYPE_CHECKING:
    from rich.console import Console

    from sleuth.analysis import Report


def show_report(console: Console, report: Report) -> None:
    """The full report, as the record's game draws it."""
    report.record.rules.show_report(console, report)


def report_json(report: Report) -> dict:
    """The JSON report: the contract's keys, then the game's own."""
    out = common_json(report)
    out.update(report.record.rules.json_extras(report))
    return out
