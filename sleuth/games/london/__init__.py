"""Looting London: its rules core (``sleuth.games.Game``) and its parts."""

from __future__ import annotations

from sleuth.games.london import course, rules

PACKAGE = __name__


class LootingLondon:
    """Looting London (rulebook: Setup, Game Play, Game End & Scoring)."""

    name = "looting-london"
    title = "Looting London"
    setup_keys = ("tiles", "bonus", "row", "dealt", "hand")
    events = rules.EVENTS
    reserved: tuple[str, ...] = ()
    solitaire = False
    parts = {
        "believe": f"{PACKAGE}.hands:believe",
        "show_report": f"{PACKAGE}.picture:show_report",
        "show_update": f"{PACKAGE}.picture:show_update",
        "json_extras": f"{PACKAGE}.picture:json_extras",
        "advise": f"{PACKAGE}.advice:advise",
        "judge": f"{PACKAGE}.replay:judge",
        "short": f"{PACKAGE}.picture:short",
        "show_advice": f"{PACKAGE}.picture:show_advice",
        "advice_json": f"{PACKAGE}.picture:advice_json",
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
    forbidden = staticmethod(course.forbidden)
    turn_note = staticmethod(course.turn_note)
    status = staticmethod(course.status)


GAME = LootingLondon()
