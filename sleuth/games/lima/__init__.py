"""Loot of Lima: the game as ``sleuth.games.Game`` offers it to the rest of sleuth."""

from __future__ import annotations

from typing import Any

from sleuth.games.lima import rules, table, turns


class Lima:
    """Loot of Lima (rulebook sections: Setup, Constructing A Question, End of Game)."""

    name = "lima"
    title = "Loot of Lima"
    setup_keys = ("hand", "known", "public")
    events = rules.EVENTS
    reserved = (rules.TREASURE, rules.PUBLIC)
    check_help = ("a location", "the other location")
    interface = "sleuth.games.lima.commands"  # imported by the command line alone
    advice_help = ""

    parse_start = staticmethod(rules.parse_start)
    setup = staticmethod(rules.setup)
    start_fields = staticmethod(rules.start_fields)
    forbidden = staticmethod(turns.forbidden)
    turn_note = staticmethod(turns.turn_note)
    status = staticmethod(turns.status)
    short_forms = table.SHORT_FORMS
    expand = staticmethod(table.expand)
    complete = staticmethod(table.complete)
    vocabulary = staticmethod(table.vocabulary)

    def best(self, report: Any) -> Any:
        """My likeliest treasure pair and its probability, for the status line."""
        from sleuth.games.lima.advice import best_pair

        return best_pair(report)

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

    def plainly(self, record: Any, index: int) -> str:
        """What the setup or one event states, in plain words (loaded when ``why`` asks)."""
        from sleuth.games.lima.why import plainly

        return plainly(record, index)

    def show_update(self, console: Any, report: Any) -> None:
        """The most likely treasure pairs after each recorded event."""
        from sleuth.games.lima.picture import show_top_pairs

        show_top_pairs(console, report)

    def check_options(self, record: Any, given: dict) -> None:
        """Refuse a bad ``next`` option, with an InputError, before any count."""
        from sleuth.games.lima.next import wanted

        wanted(record, given)

    def advise(self, report: Any, given: dict, deadline: Any = None) -> Any:
        """The questions of my next turn (``sleuth next``), each split exactly by its answer."""
        from sleuth.games.lima.next import advise

        return advise(report, given, deadline)

    def show_advice(self, console: Any, advice: Any) -> None:
        """The advice on screen."""
        from sleuth.games.lima.next import show_advice

        show_advice(console, advice)

    def advice_json(self, advice: Any) -> dict:
        """The advice as the contract's ``next --json`` object."""
        from sleuth.games.lima.next import advice_json

        return advice_json(advice)


GAME = Lima()
