"""``sleuth next``: the questions of my next turn, best first, each split exactly by its answer.

The options of every game are here; the game takes those it knows and refuses the others
(``Game.advise``).
"""

from __future__ import annotations

from typing import Annotated

import typer

from sleuth.cli.app import (
    ADVICE_HELP,
    BUDGET,
    BudgetOpt,
    ExitStatus,
    FileOpt,
    JsonOpt,
    UptoOpt,
    analyse,
    app,
    env,
    fail,
    show_json,
    split,
)
from sleuth.cli.spinner import spinner
from sleuth.errors import InputError

AtOpt = Annotated[int | None, typer.Option(help="My route space (else the record's).")]
OccupiedOpt = Annotated[
    str | None, typer.Option(help="The others' spaces, S,S,... (else the record's).")
]
RollOpt = Annotated[
    str | None, typer.Option(help="The dice as rolled, SW-beach,N-wild,E-forest")
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
    """The options that were given, by name; an InputError for a bad --occupied."""
    out = {"at": at, "roll": roll, "shovel": shovel, "pistol": pistol, "public": public}
    out["barrel"] = barrel
    if occupied is not None:
        try:
            out["occupied"] = [int(s) for s in split(occupied)]
        except ValueError:
            message = f"{occupied!r} is not route spaces S,S,..."
            raise InputError("sleuth next", "occupied", message) from None
    return {k: v for k, v in out.items() if v not in (None, False)}


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
    from sleuth.render.common import show_trouble

    try:
        options = given(at, occupied, roll, shovel, pistol, public, barrel)
    except InputError as error:
        raise fail(error) from None
    result = analyse(file, budget, "sleuth next", upto=upto, dating=False)  # no facts shown
    if not result.consistent:
        show_trouble(env().out, result)
        raise typer.Exit(ExitStatus.INCONSISTENT)
    game = result.record.rules
    try:
        with spinner(env().err, "splitting the deals by every answer..."):
            advice = game.advise(result, options)
    except InputError as error:
        raise fail(error) from None
    if json_:
        show_json(game.advice_json(advice))
    else:
        game.show_advice(env().out, advice)
    if not result.fits:
        raise typer.Exit(ExitStatus.INCONSISTENT)
