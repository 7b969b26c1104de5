"""Goldraub in London: its rules core (``sleuth.games.Game``) and the parts it brings."""

from __future__ import annotations

from sleuth.games.goldraub import moves, rules, turns

PACKAGE = __name__


class Goldraub:
    """Goldraub in London (rulebook sections: Setup, Course of Play, Discovering a Hiding Place)."""

    name = "goldraub"
    title = "Goldraub in London"
    setup_keys = ("hand", "rounds")
    events = rules.EVENTS
    reserved = (rules.ASIDE,)
    solitaire = False
    parts = {
        "deal": f"{PACKAGE}.rules:setup",
        "watched": f"{PACKAGE}.rules:watched",
        "details": f"{PACKAGE}.advice:standing",
        "best": f"{PACKAGE}.advice:best_guess",
        "advice_options": f"{PACKAGE}.choices:OPTIONS",
        "check_options": f"{PACKAGE}.next:wanted",
        "advise": f"{PACKAGE}.next:advise",
        "judge": f"{PACKAGE}.replay:judge",
        "show_report": f"{PACKAGE}.picture:show_report",
        "show_update": f"{PACKAGE}.picture:show_end",
        "json_extras": f"{PACKAGE}.picture:json_extras",
        "show_advice": f"{PACKAGE}.next:show_advice",
        "advice_json": f"{PACKAGE}.next:advice_json",
        "plainly": f"{PACKAGE}.why:plainly",
        "commands": f"{PACKAGE}.commands:commands",
        "target": f"{PACKAGE}.commands:target",
        "check": f"{PACKAGE}.commands:check",
        "check_json": f"{PACKAGE}.commands:check_json",
        "check_help": f"{PACKAGE}.commands:CHECK_HELP",
        "advice_help": f"{PACKAGE}.rules:TIMING",
        "short_forms": f"{PACKAGE}.table:SHORT_FORMS",
        "expand": f"{PACKAGE}.table:expand",
        "complete": f"{PACKAGE}.table:complete",
        "vocabulary": f"{PACKAGE}.table:vocabulary",
    }

    parse_start = staticmethod(rules.parse_start)
    start_fields = staticmethod(rules.start_fields)
    forbidden = staticmethod(moves.forbidden)
    turn_note = staticmethod(turns.turn_note)
    status = staticmethod(turns.status)


GAME = Goldraub()
