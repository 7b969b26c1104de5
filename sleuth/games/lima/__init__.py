"""Loot of Lima: the game as ``sleuth.games.Game`` offers it to the rest of sleuth."""

from __future__ import annotations

from typing import Any

from sleuth.games.lima import picture, rules
from sleuth.games.lima.advice import treasure_pairs
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
    details = staticmethod(treasure_pairs)
    show_report = staticmethod(picture.show_report)
    json_extras = staticmethod(picture.json_extras)
    check_target = staticmethod(target)
    check = staticmethod(check)
    commands = staticmethod(commands)

    def show_update(self, console: Any, report: Any) -> None:
        """The most likely treasure pairs after each recorded event."""
        picture.show_top_pairs(console, report)


GAME = Lima()
