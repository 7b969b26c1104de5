"""Goldraub in London: the game as ``sleuth.games.Game`` offers it to the rest of sleuth."""

from __future__ import annotations

from typing import Any

from sleuth.games.goldraub import rules
from sleuth.games.goldraub.commands import check, commands, target


class Goldraub:
    """Goldraub in London (rulebook sections: Setup, Course of Play, Discovering a Hiding Place)."""

    name = "goldraub"
    title = "Goldraub in London"
    setup_keys = ("hand", "rounds")
    events = rules.EVENTS
    reserved = (rules.ASIDE,)
    check_help = ("the owner", "the sector")

    parse_start = staticmethod(rules.parse_start)
    setup = staticmethod(rules.setup)
    start_fields = staticmethod(rules.start_fields)
    check_target = staticmethod(target)
    check = staticmethod(check)
    commands = staticmethod(commands)

    def details(self, report: Any, deadline: Any) -> Any:
        """The round value and the scores (the advice is loaded when a report asks)."""
        from sleuth.games.goldraub.advice import standing

        return standing(report, deadline)

    def show_report(self, console: Any, report: Any) -> None:
        """The full Goldraub report (the picture is loaded when a report asks)."""
        from sleuth.games.goldraub.picture import show_report

        show_report(console, report)

    def json_extras(self, report: Any) -> dict:
        """The round value and the scores of the JSON report."""
        from sleuth.games.goldraub.picture import json_extras

        return json_extras(report)

    def judge(self, record: Any, steps: Any, budget: float, memory: Any, tick: Any) -> Any:
        """The replay's steps judged (loaded when a replay asks)."""
        from sleuth.games.goldraub.replay import judge

        return judge(record, steps, tick)

    def show_update(self, console: Any, report: Any) -> None:
        """Nothing beyond the common update lines."""


GAME = Goldraub()
