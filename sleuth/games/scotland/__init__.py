"""Scotland Yard: Das Kartenspiel: its rules core (``sleuth.games.Game``) and its parts."""

from __future__ import annotations

from sleuth.games.scotland import course, rules

PACKAGE = __name__


class ScotlandYard:
    """Scotland Yard: Das Kartenspiel (rulebook sections: Setup, Gameplay, Winning the Game)."""

    name = "scotland-yard"
    title = "Scotland Yard: Das Kartenspiel"
    setup_keys = ("hand", "field", "first_dealt", "keep", "feint")
    events = rules.EVENTS
    reserved: tuple[str, ...] = ()
    solitaire = False
    parts = {
        "believe": f"{PACKAGE}.suspicion:believe",
        "best": f"{PACKAGE}.advice:likeliest",
        "judge": f"{PACKAGE}.replay:judge",
        "show_report": f"{PACKAGE}.picture:show_report",
        "show_update": f"{PACKAGE}.picture:show_update",
        "json_extras": f"{PACKAGE}.picture:json_extras",
        "advice_options": f"{PACKAGE}.choices:OPTIONS",
        "check_options": f"{PACKAGE}.plan:check_options",
        "advise": f"{PACKAGE}.plan:advise",
        "show_advice": f"{PACKAGE}.picture:show_advice",
        "advice_json": f"{PACKAGE}.picture:advice_json",
        "short": f"{PACKAGE}.words:short",
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


GAME = ScotlandYard()
