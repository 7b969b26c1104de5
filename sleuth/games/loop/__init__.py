"""Loot the Loop: its rules core (``sleuth.games.Game``) and its parts."""

from __future__ import annotations

from sleuth.games.loop import rules, temple

PACKAGE = __name__


class LootTheLoop:
    """Loot the Loop, a solitaire game (rulebook: Setup, Gameplay, Game End)."""

    name = "loot-the-loop"
    title = "Loot the Loop"
    setup_keys: tuple[str, ...] = ()
    events = rules.EVENTS
    reserved: tuple[str, ...] = ()
    solitaire = True
    parts = {
        "believe": f"{PACKAGE}.tracker:believe",
        "show_report": f"{PACKAGE}.picture:show_report",
        "show_update": f"{PACKAGE}.picture:show_update",
        "json_extras": f"{PACKAGE}.picture:json_extras",
        "advise": f"{PACKAGE}.plan:advise",
        "advice_budget": f"{PACKAGE}.plan:BUDGET",
        "judge": f"{PACKAGE}.replay:judge",
        "show_advice": f"{PACKAGE}.picture:show_advice",
        "advice_json": f"{PACKAGE}.picture:advice_json",
        "commands": f"{PACKAGE}.commands:commands",
        "short_forms": f"{PACKAGE}.table:SHORT_FORMS",
        "expand": f"{PACKAGE}.table:expand",
        "complete": f"{PACKAGE}.table:complete",
        "vocabulary": f"{PACKAGE}.table:vocabulary",
    }

    parse_start = staticmethod(rules.parse_start)
    start_fields = staticmethod(rules.start_fields)
    forbidden = staticmethod(temple.forbidden)
    turn_note = staticmethod(temple.turn_note)
    status = staticmethod(temple.status)


GAME = LootTheLoop()
