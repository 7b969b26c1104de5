"""``sleuth next``: the questions of my next turn, best first, each split exactly by its answer.

The options of every game are here; the game takes those it knows and refuses the others
(its ``check_options`` part), and a game without an ``advise`` part has no advice to give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from sleuth.cli.app import (
    ADVICE_HELP,
    BUDGET,
    BudgetOpt,
    ExitStatus,
    FileOpt,
    JsonOpt,
    UptoOpt,
    analysable,
    app,
    counted,
    env,
    fail,
    number,
    show_json,
    split,
)
from sleuth.cli.spinner import spinner
from sleuth.errors import InputError
from sleuth.games import part

if TYPE_CHECKING:
    from sleuth.record import Record

AtOpt = Annotated[
    int | None, typer.Option(parser=number, help="My route space (else the record's).")
]
OccupiedOpt = Annotated[
    str | None, typer.Option(help="The others' spaces, S,S,... (else the record's).")
]
RollOpt = Annotated[
    str | None, typer.Option(help="The dice as rolled, SW-beach,N-wild,E-beach")
]
ShovelOpt = Annotated[bool, typer.Option(help="Add what my Shovel allows.")]
PistolOpt = Annotated[bool, typer.Option(help="Add my Pistol's secret questions.")]
PublicOpt = Annotated[
    bool, typer.Option(help="Also what each answer tells one who knows only the public record.")
]
BarrelOpt = Annotated[
    bool,
    typer.Option(
        help="Also whether my Barrel's re-roll of 1-3 dice pays (each --roll face must be on"
        " its own die). Give it only while my Barrel is unused: the record does not say."
    ),
]


def given(at, occupied, roll, shovel, pistol, public, barrel) -> dict:
    """The options that were given, by name (``--at 0`` too); an InputError for a bad --occupied."""
    out = {"at": at, "roll": roll, "shovel": shovel, "pistol": pistol, "public": public}
    out["barrel"] = barrel
    if occupied is not None:
        try:
            out["occupied"] = [number(s) for s in split(occupied)]
        except typer.BadParameter:
            message = f"{occupied!r} is not route spaces S,S,..."
            raise InputError("sleuth next", "occupied", message) from None
    return {k: v for k, v in out.items() if v is not None and v is not False}


def no_turn(record: Record) -> None:
    """An InputError when I have no next turn: the game is over, or I am out of it."""
    status = record.rules.status(record)
    if status.over:
        raise InputError("sleuth next", "", f"the game is over ({status.over}): no turn to plan")
    if record.table.me in status.out:
        raise InputError("sleuth next", "", "I am out of the game: no turn to plan")


@app.command("next", epilog=ADVICE_HELP)
def next_command(
    at: AtOpt = None,
    occupied: OccupiedOpt = None,
    roll: RollOpt = None,
    shovel: ShovelOpt = False,
    pistol: PistolOpt = False,
    public: PublicOpt = False,
    barrel: BarrelOpt = False,
    file: FileOpt = None,
    json_: JsonOpt = False,
    budget: BudgetOpt = BUDGET,
    upto: UptoOpt = None,
) -> None:
    """Which question to ask next: every legal one, its answer's odds and what it teaches."""
    from sleuth.advisor import no_options
    from sleuth.render import advice_data, advice_lines

    record = analysable(file, "sleuth next", upto)
    game = record.rules
    advise = part(game, "advise", None)
    try:
        if advise is None:
            raise InputError("sleuth next", "", f"{game.title} has no advice")
        options = given(at, occupied, roll, shovel, pistol, public, barrel)
        part(game, "check_options", no_options)(record, options)  # a bad option is exit 2 now
    except InputError as error:
        raise fail(error) from None
    result = counted(record, file, budget, dating=False, estimating=False, command="sleuth next")
    if not result.consistent:
        contradiction(result, json_)
    try:
        no_turn(result.record)
        with spinner(env().err, "splitting the deals by every answer..."):
            advice = advise(result, options, result.deadline)
    except InputError as error:
        raise fail(error) from None
    if json_:
        show_json(part(game, "advice_json", advice_data)(advice))
    else:
        part(game, "show_advice", advice_lines)(env().out, advice)
    if not result.fits:
        raise typer.Exit(ExitStatus.INCONSISTENT)


def contradiction(result, json_: bool) -> None:
    """A record no deal fits: the conflict, on screen or as JSON with no options; exit 3."""
    from sleuth.render.common import contradiction_json, show_trouble

    if json_:
        show_json({**contradiction_json(result), "options": []})
    else:
        show_trouble(env().out, result)
    raise typer.Exit(ExitStatus.INCONSISTENT)
