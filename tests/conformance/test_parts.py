"""Every shipped game conforms: its rules core has each member of ``Game``, and each part it
names exists and takes what the shared default of that part takes."""

from __future__ import annotations

import importlib
import inspect

import pytest
import tinygame
import typer

from sleuth import analysis, beliefs, replay, session
from sleuth.cli import commands, forms, generic
from sleuth.games import GAMES, PARTS, Game, part
from sleuth.games.base import Choice
from sleuth.games.shipped import GAMES as SHIPPED

render = importlib.import_module("sleuth.render")
cli_app = importlib.import_module("sleuth.cli.app")
next_module = importlib.import_module("sleuth.cli.next")
render_replay = importlib.import_module("sleuth.render.replay")

DEFAULTS = {  # part -> its shared default (a game's own must take the same arguments)
    "details": analysis.no_details,
    "best": beliefs.likeliest,
    "advice_options": (),
    "check_options": session.no_options,
    "judge": replay.unjudged,
    "show_report": render.chances,
    "show_update": render.no_update,
    "json_extras": render.no_extras,
    "show_advice": render.advice_lines,
    "advice_json": render.advice_data,
    "plainly": render.as_recorded,
    "short": render_replay.short,
    "target": commands.holding,
    "check": commands.show_holding,
    "check_json": commands.holding_json,
    "check_help": commands.HOLDING_HELP,
    "advice_help": "",
    "advice_budget": cli_app.BUDGET,
    "short_forms": (),
    "expand": forms.expand,
    "complete": forms.complete,
    "vocabulary": forms.vocabulary,
}
OWN = {  # parts with no shared default: the arguments the layers pass
    "deal": ("start", "table"),
    "watched": ("start",),
    "believe": ("record", "deadline"),
    "advise": ("report", "given", "deadline"),
    "commands": ("cli",),  # the shared ones also take the game
}


def arity(function) -> tuple[int, int]:
    """The fewest and the most positional arguments ``function`` takes."""
    parameters = inspect.signature(function).parameters.values()
    fewest = sum(p.default is inspect.Parameter.empty for p in parameters)
    return fewest, len(parameters)


def wanted(name: str) -> int:
    """How many arguments the layers pass to part ``name``."""
    if name in OWN:
        return len(OWN[name])
    return len(inspect.signature(DEFAULTS[name]).parameters)


@pytest.mark.parametrize("game", [*SHIPPED.values(), tinygame.GAME], ids=lambda g: g.name)
def test_every_game_has_its_rules_core(game: Game):
    members = [m for m in dir(Game) if not m.startswith("_")]
    assert members and all(hasattr(game, m) for m in members), members
    assert set(game.events) and all(kind == cls.kind for kind, cls in game.events.items())
    assert set(game.parts) <= set(PARTS), set(game.parts) - set(PARTS)  # a typo is no default


@pytest.mark.parametrize("game", [*SHIPPED.values(), tinygame.GAME], ids=lambda g: g.name)
def test_every_part_a_game_names_exists_and_takes_what_its_default_takes(game: Game):
    for name in game.parts:
        found = part(game, name, None)
        assert found is not None, name
        if name in ("check_help", "advice_help", "short_forms", "advice_options", "advice_budget"):
            assert isinstance(found, type(DEFAULTS[name])), name
            continue
        fewest, most = arity(found)
        assert fewest <= wanted(name) <= most, (name, fewest, most)


def test_the_defaults_cover_every_part_but_the_belief_advice_and_commands():
    assert set(DEFAULTS) | {"deal", "believe", "watched", "advise", "commands"} == set(PARTS)
    assert arity(generic.commands) == (2, 2)
    assert "tiny" not in GAMES and set(tinygame.GAME.parts) == {"deal"}


def test_next_takes_every_games_options_each_of_one_kind():
    taken = [c for g in SHIPPED.values() for c in part(g, "advice_options", ())]
    assert all(isinstance(c, Choice) and c.kind in ("flag", "number", "text") for c in taken)
    kinds = {c.name: c.kind for c in taken}
    assert all(kinds[c.name] == c.kind for c in taken)
    assert set(next_module.choices()) == set(kinds) >= {"at", "roll", "public"}
    params = {p.name for p in typer.main.get_command(cli_app.app).commands["next"].params}
    assert set(kinds) <= params


def test_a_part_that_is_no_part_is_refused():
    with pytest.raises(KeyError):
        part(tinygame.GAME, "picture", None)
