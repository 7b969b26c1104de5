"""Loot of Lima: its rules core (``sleuth.games.Game``) and the parts it brings."""

from __future__ import annotations

from sleuth.games.lima import rules, turns

PACKAGE = __name__


class Lima:
    """Loot of Lima (rulebook sections: Setup, Constructing A Question, End of Game)."""

    name = "lima"
    title = "Loot of Lima"
    setup_keys = ("hand", "known", "public")
    events = rules.EVENTS
    reserved = (rules.TREASURE, rules.PUBLIC)
    solitaire = False
    parts = {
        "deal": f"{PACKAGE}.rules:setup",
        "watched": f"{PACKAGE}.rules:watched",
        "details": f"{PACKAGE}.advice:treasure_pairs",
        "best": f"{PACKAGE}.advice:best_pair",
        "advice_options": f"{PACKAGE}.choices:OPTIONS",
        "check_options": f"{PACKAGE}.next:wanted",
        "advise": f"{PACKAGE}.next:advise",
        "judge": f"{PACKAGE}.replay:judge",
        "show_report": f"{PACKAGE}.picture:show_report",
        "show_update": f"{PACKAGE}.picture:show_top_pairs",
        "json_extras": f"{PACKAGE}.picture:json_extras",
        "show_advice": f"{PACKAGE}.next:show_advice",
        "advice_json": f"{PACKAGE}.next:advice_json",
        "plainly": f"{PACKAGE}.why:plainly",
        "commands": f"{PACKAGE}.commands:commands",
        "target": f"{PACKAGE}.commands:target",
        "check": f"{PACKAGE}.commands:check",
        "check_json": f"{PACKAGE}.commands:check_json",
        "check_help": f"{PACKAGE}.commands:CHECK_HELP",
        "short_forms": f"{PACKAGE}.table:SHORT_FORMS",
        "expand": f"{PACKAGE}.table:expand",
        "complete": f"{PACKAGE}.table:complete",
        "vocabulary": f"{PACKAGE}.table:vocabulary",
    }

    parse_start = staticmethod(rules.parse_start)
    start_fields = staticmethod(rules.start_fields)
    forbidden = staticmethod(turns.forbidden)
    turn_note = staticmethod(turns.turn_note)
    status = staticmethod(turns.status)


GAME = Lima()
