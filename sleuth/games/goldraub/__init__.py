"""Goldraub in London: the game as ``sleuth.games.Game`` offers it to the rest of sleuth."""

from __future__ import annotations

from typing import Any

from sleuth.games.goldraub import picture, rules
from sleuth.games.goldraub.advice import standing
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
    details = staticmethod(standing)
    show_report = staticmethod(picture.show_report)
    json_extras = staticmethod(picture.json_extras)
    check_target = staticmethod(target)
    check = staticmethod(check)
    commands = staticmethod(commands)

    def show_update(self, console: Any, report: Any) -> None:
        """Nothing beyond the common update lines."""


GAME = Goldraub()
