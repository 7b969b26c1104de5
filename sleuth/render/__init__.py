"""Results to the screen, one module per game, and the JSON report of the contract."""

from __future__ import annotations

from importlib import import_module

from rich.console import Console

from sleuth.analysis import Report
from sleuth.render.common import report_json as common_json


def game_module(game: str):
    """The rendering module of a game (``sleuth.render.goldraub``, ``sleuth.render.lima``)."""
    return import_module(f"sleuth.render.{game}")


def show_report(console: Console, report: Report) -> None:
    """The full report of the record's game."""
    game_module(report.record.game).show_report(console, report)


def report_json(report: Report) -> dict:
    """The JSON report: the contract's keys, then the game's own."""
    out = common_json(report)
    out.update(game_module(report.record.game).json_extras(report))
    return out
