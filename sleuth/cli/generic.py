"""The commands a game gets when it brings none of its own: ``new GAME`` and one per event.

``sleuth new GAME --players A,B,C --me A hand=1,4`` starts a record with the game's setup
fields given as FIELD=VALUE; ``sleuth KIND by=Ann to=Bob cards=2,5 answer=1`` records an
event of kind KIND with its fields as the record writes them. A value with a comma is a list;
true/false (or yes/no, right/wrong) is a verdict; the game's parse checks every field.

No ``from __future__ import annotations`` here: the options are the command line's shared ones
(``cli``), so Typer must see the annotations as objects.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sleuth.errors import InputError
from sleuth.store import VERDICTS, typed

if TYPE_CHECKING:
    from sleuth.games import Game

FieldsArg = Annotated[
    list[str] | None,
    typer.Argument(metavar="FIELD=VALUE...", help="The fields as in the record: by=Ann cards=2,5"),
]


def fields(pairs: list[str] | None, command: str) -> dict[str, Any]:
    """FIELD=VALUE words as a record's mapping: {"by": "Ann", "cards": ["2", "5"]}."""
    out: dict[str, Any] = {}
    for text in pairs or []:
        key, equals, value = text.partition("=")
        if not equals or not key.strip():
            raise InputError(command, "", f"{text!r} is not FIELD=VALUE, e.g. by=Ann")
        value = value.strip()
        out[key.strip()] = VERDICTS.get(value.casefold(), typed(value, None))
    return out


def commands(cli: Any, game: "Game") -> list[Callable]:
    """``new GAME`` with the setup as FIELD=VALUE, then one command per kind of event."""

    def new(
        players: cli.PlayersOpt,
        me: cli.MeOpt,
        setup: FieldsArg = None,
        force: cli.ForceOpt = False,
        file: cli.FileOpt = None,
    ) -> None:
        try:
            given = fields(setup, "sleuth new")
        except InputError as error:
            raise cli.fail(error) from None
        cli.begin(file, force, game.name, players, me, lambda table: given)

    new.__doc__ = f"Start a new {game.title} record: setup fields {', '.join(game.setup_keys)}."
    return [new, *(_recording(cli, game, kind) for kind in game.events)]


def _recording(cli: Any, game: "Game", kind: str) -> Callable:
    """The command that records an event of ``kind``, its fields given as FIELD=VALUE."""
    event = game.events[kind]
    command = f"sleuth {kind}"

    def record(
        given: FieldsArg = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        try:
            data = fields(given, command)
        except InputError as error:
            raise cli.fail(error) from None
        cli.record_event(file, command, kind, data, budget, before)

    record.__name__ = kind
    wanted = " ".join(f"{f}=..." for f in event.required)
    more = f" [{' '.join(f'{f}=...' for f in event.optional)}]" if event.optional else ""
    record.__doc__ = f"{game.title}: record a {kind}: {wanted}{more}."
    return record
