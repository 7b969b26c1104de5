"""Loot of Lima: the game as ``sleuth.games.Game`` offers it to the rest of sleuth."""

from __future__ import annotations

from typing import Any

from sleuth.games.lima import rules
from sleuth.games.lima.commands import check, commands, target


class Lima:
    """Loot of Lima (rulebook sections: Setup, Constructing A Question, End of Game)."""

    name = "lima"
    title = "Loot of Lima"
    setup_keys = ("hand", "known", "public")
    events = rules.EVENTS
    reserved = (rules.TREASURE, rules.PUBLIC)
    check_help = ("a location", "the other location")

    parse_start = staticmethod(rules.parse_start)
    setup = staticmethod(rules.setup)
    start_fields = staticmethod(rules.start_fields)
    check_target = staticmethod(target)
    check = staticmethod(check)
    commands = staticmethod(commands)

    def details(self, report: Any, deadline: Any) -> Any:
        """The treasure pairs (the advice is loaded when a report asks)."""
        from sleuth.games.lima.advice import treasure_pairs

        return treasure_pairs(report, deadline)

    def show_report(self, console: Any, report: Any) -> None:
        """The full Lima report (the picture is loaded when a report asks)."""
        from sleuth.games.lima.picture import show_report

        show_report(console, report)

    def json_extras(self, report: Any) -> dict:
        """The treasure pairs of the JSON report."""
        from sleuth.games.lima.picture import json_extras

        return json_extras(report)

    def judge(self, record: Any, steps: Any, budget: float, memory: Any, tick: Any) -> Any:
        """The replay's steps judged (loaded when a replay asks)."""
        from sleuth.games.lima.replay import judge

        return judge(record, steps, budget, memory, tick)

    def show_update(self, console: Any, report: Any) -> None:
        """The most likely treasure pairs after each recorded event."""
        from sleuth.games.lima.picture import show_top_pairs

        show_top_pairs(console, report)


GAME = Lima()
