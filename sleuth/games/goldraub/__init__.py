"""Goldraub in London: the game as ``sleuth.games.Game`` offers it to the rest of sleuth."""

from __future__ import annotations

from typing import Any

from sleuth.games.goldraub import moves, rules, table, turns


class Goldraub:
    """Goldraub in London (rulebook sections: Setup, Course of Play, Discovering a Hiding Place)."""

    name = "goldraub"
    title = "Goldraub in London"
    setup_keys = ("hand", "rounds")
    events = rules.EVENTS
    reserved = (rules.ASIDE,)
    check_help = ("the owner", "the sector")
    interface = "sleuth.games.goldraub.commands"  # imported by the command line alone
    advice_help = rules.TIMING

    parse_start = staticmethod(rules.parse_start)
    setup = staticmethod(rules.setup)
    start_fields = staticmethod(rules.start_fields)
    forbidden = staticmethod(moves.forbidden)
    turn_note = staticmethod(turns.turn_note)
    status = staticmethod(turns.status)
    short_forms = table.SHORT_FORMS
    expand = staticmethod(table.expand)
    complete = staticmethod(table.complete)
    vocabulary = staticmethod(table.vocabulary)

    def best(self, report: Any) -> Any:
        """My likeliest guess and its probability, for the status line."""
        from sleuth.games.goldraub.advice import best_guess

        return best_guess(report)

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

    def plainly(self, record: Any, index: int) -> str:
        """What the setup or one event states, in plain words (loaded when ``why`` asks)."""
        from sleuth.games.goldraub.why import plainly

        return plainly(record, index)

    def show_update(self, console: Any, report: Any) -> None:
        """Once the event ended the game: that it is over, why, and the final scores."""
        from sleuth.games.goldraub.picture import show_end

        show_end(console, report)

    def check_options(self, record: Any, given: dict) -> None:
        """Refuse a bad ``next`` option, with an InputError, before any count."""
        from sleuth.games.goldraub.next import wanted

        wanted(record, given)

    def advise(self, report: Any, given: dict, deadline: Any = None) -> Any:
        """The questions of my next turn (``sleuth next``), each split exactly by its answer."""
        from sleuth.games.goldraub.next import advise

        return advise(report, given, deadline)

    def show_advice(self, console: Any, advice: Any) -> None:
        """The advice on screen."""
        from sleuth.games.goldraub.next import show_advice

        show_advice(console, advice)

    def advice_json(self, advice: Any) -> dict:
        """The advice as the contract's ``next --json`` object."""
        from sleuth.games.goldraub.next import advice_json

        return advice_json(advice)


GAME = Goldraub()
