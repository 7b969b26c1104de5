"""The commands that every game shares (undo, edit, report, check), and each game's own.

A game's commands (its ``commands`` part) are built on the shared options and actions of
``sleuth.cli.app`` handed to them as ``KIT``, and installed here, once per registered game;
a game without them gets ``sleuth.cli.generic``'s. Its ``check`` is its parts ``target``,
``check`` and ``check_json``, or the shared ones below: the chance of one holding.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Annotated

import typer
from typer.core import TyperGroup

from sleuth.cli import editing as _editing  # noqa: F401 - registers log and delete
from sleuth.cli import replay as _replay  # noqa: F401 - registers replay and why
from sleuth.cli.app import (
    ADVICE_HELP,
    BUDGET,
    BeforeOpt,
    BudgetOpt,
    ExitStatus,
    FileOpt,
    ForceOpt,
    JsonOpt,
    MeOpt,
    PlayersOpt,
    PublicOpt,
    TolerateOpt,
    UptoOpt,
    WatchOpt,
    analysable,
    analyse,
    answer_due,
    app,
    begin,
    env,
    fail,
    number,
    player,
    record_event,
    record_path,
    show_json,
    split,
    start,
    starting,
    warn,
)
from sleuth.errors import InputError, nearest
from sleuth.games import Game, part
from sleuth.games.shipped import GAMES
from sleuth.session import seated

if TYPE_CHECKING:
    from rich.console import Console

    from sleuth.belief import Belief
    from sleuth.budget import Deadline
    from sleuth.record import Record


@app.command("help")
def help_command(
    ctx: typer.Context,
    command: Annotated[str | None, typer.Argument(help="A command, e.g. search.")] = None,
) -> None:
    """Every command, or one command's arguments and options: 'sleuth help search'."""
    root = ctx.find_root()
    if command is None:
        env().out.print(root.get_help(), markup=False, highlight=False, end="")
        return
    assert isinstance(root.command, TyperGroup)  # the root is the app's command group
    found = root.command.get_command(root, command)
    if found is None:
        known = sorted(root.command.list_commands(root))
        hint = nearest(command, known)
        raise fail(InputError("sleuth help", "command", f"{command!r} is not a command{hint}"))
    inner = typer.Context(found, info_name=command, parent=root)
    env().out.print(found.get_help(inner), markup=False, highlight=False, end="")


@app.command()
def undo(file: FileOpt = None) -> None:
    """Remove the last recorded event."""
    from sleuth.store import remove_last

    try:
        event = remove_last(record_path(file), "sleuth undo", warn)
    except InputError as error:
        raise fail(error, "sleuth undo") from None
    env().recorded = record_path(file)
    env().out.print(f"removed: {event.text()}", markup=False)


@app.command(context_settings={"ignore_unknown_options": True})  # -1: no event, not an option
def edit(
    event: Annotated[
        int,
        typer.Argument(parser=number, help="The event's number (1 is the first)."),
    ],
    changes: Annotated[
        list[str],
        typer.Argument(
            metavar="FIELD=VALUE...",
            help="The fields to change, as in the record: gold=1, answer=2, correct=false, "
            "by=Ben; an empty value (saw=) removes an optional field.",
        ),
    ],
    file: FileOpt = None,
    budget: BudgetOpt = BUDGET,
) -> None:
    """Change one recorded event in place, e.g. 'sleuth edit 7 gold=1'."""
    from sleuth.render.common import show_edit

    path = record_path(file)
    try:
        fields = {}
        for text in changes:
            key, equals, value = text.partition("=")
            if not equals or not key.strip():
                raise InputError("sleuth edit", "", f"{text!r} is not FIELD=VALUE, e.g. gold=1")
            fields[key.strip()] = value.strip() or None
        session = env().session(path)
        record, old, new = session.change(event, fields, "sleuth edit", warn)
    except InputError as error:
        raise fail(error, "sleuth edit") from None
    if new.fields() == old.fields():  # nothing to write, and the file was left as it was
        env().out.print(f"nothing changed: event {event} already says {old.text()}", markup=False)
        return
    env().recorded = path
    done = session.edited(record, event, old, answer_due(budget))
    show_edit(env().out, done.report, event, (old.text(), new.text()), done.changed)
    if not done.report.consistent:
        raise typer.Exit(ExitStatus.INCONSISTENT)


@app.command("report")
def report_command(
    file: FileOpt = None,
    json_: JsonOpt = False,
    budget: BudgetOpt = BUDGET,
    tolerate: TolerateOpt = 0,
    upto: UptoOpt = None,
    public: PublicOpt = False,
) -> None:
    """Show what is certain, every probability, and the worlds left."""
    from sleuth.render import report_json, show_report

    result = analyse(file, budget, "sleuth report", tolerate, upto, public=public)
    if json_:
        show_json(report_json(result))
    else:
        show_report(env().out, result)
    if not result.fits:
        raise typer.Exit(ExitStatus.INCONSISTENT)


HOLDING_HELP = ("the holder", "the item")  # what the shared check takes


def holding(record: Record, holder: str | None, item: str | None) -> tuple[str, str]:
    """The shared ``target``: a holder (a unique prefix will do) and an item of the game."""
    if holder is None or item is None:
        raise InputError("sleuth check", "item", "give a holder and an item")
    if part(record.rules, "deal", None) is not None:  # the items are the deal's
        items = record.model().space.items
        if item not in items:
            hint = nearest(item, items)
            raise InputError("sleuth check", "item", f"{item!r} is not an item{hint}")
    return record.table.prefix(holder, "holder"), item


def holding_json(report: Belief, target: tuple[str, str], deadline: Deadline) -> dict:
    """The shared ``check_json``: the chance that the holder holds the item."""
    p = report.chance(*target) if report.consistent else None
    return {"holder": target[0], "item": target[1], "probability": None if p is None else float(p)}


def show_holding(out: Console, report: Belief, target: tuple[str, str] | None, deadline) -> None:
    """The shared ``check``: the chance of the holding, or without one the likeliest open one."""
    from sleuth.beliefs import likeliest
    from sleuth.render.common import pct

    if target is None:
        best = likeliest(report)
        line = "nothing is left open" if best is None else f"likeliest: {best[0]} {pct(best[1])}"
    else:
        line = f"{target[0]} holds {target[1]}: {pct(report.chance(*target))}"
    out.print(line, markup=False, highlight=False)


def check_help(game: Game) -> tuple[str, str]:
    """What ``check FIRST SECOND`` takes in ``game``, e.g. ("the owner", "the sector")."""
    return part(game, "check_help", HOLDING_HELP)


CHECK_HELP = tuple(
    ". ".join(f"{g.title}: {check_help(g)[k]}" for g in GAMES.values()) for k in (0, 1)
)


@app.command(epilog=ADVICE_HELP)
def check(
    first: Annotated[str | None, typer.Argument(help=CHECK_HELP[0])] = None,
    second: Annotated[str | None, typer.Argument(help=CHECK_HELP[1])] = None,
    best: Annotated[bool, typer.Option(help="List the best moves available now.")] = False,
    file: FileOpt = None,
    json_: Annotated[
        bool, typer.Option("--json", help="Print the check of the contract as JSON.")
    ] = False,
    budget: BudgetOpt = BUDGET,
    tolerate: TolerateOpt = 0,
    upto: UptoOpt = None,
) -> None:
    """Should I guess or accuse now? Probability, points, the rules."""
    from sleuth.render.common import show_trouble

    record = analysable(file, "sleuth check", upto)
    game = record.rules
    try:
        seated(record, "sleuth check")
        if json_ and (best or first is None):
            wanted = " and ".join(check_help(game))
            raise InputError("sleuth check", "json", f"--json weighs one move: give {wanted}")
        target = (
            None if best or first is None else part(game, "target", holding)(record, first, second)
        )
    except InputError as error:
        raise fail(error, "sleuth check") from None
    deadline = answer_due(budget)
    try:
        session = env().session(record_path(file))  # one move weighed needs no details
        result = session.believe(record, deadline, tolerate, details=target is None)
    except InputError as error:
        raise fail(error, "sleuth check") from None
    if json_:
        assert target is not None  # --json without a move to weigh was refused above
        try:
            weighed = part(game, "check_json", holding_json)(result, target, deadline)
        except InputError as error:  # e.g. a move the game weighs only on my turn
            raise fail(error, "sleuth check") from None
        show_json(weighed)
        if not result.fits:
            raise typer.Exit(ExitStatus.INCONSISTENT)
        return
    if not show_trouble(env().out, result):
        raise typer.Exit(ExitStatus.INCONSISTENT)
    try:
        part(game, "check", show_holding)(env().out, result, target, deadline)
    except InputError as error:
        raise fail(error, "sleuth check") from None
    if not result.fits:
        raise typer.Exit(ExitStatus.INCONSISTENT)


KIT = SimpleNamespace(
    BUDGET=BUDGET,
    begin=begin,
    fail=fail,
    BeforeOpt=BeforeOpt,
    BudgetOpt=BudgetOpt,
    FileOpt=FileOpt,
    ForceOpt=ForceOpt,
    MeOpt=MeOpt,
    WatchOpt=WatchOpt,
    PlayersOpt=PlayersOpt,
    player=player,
    record_event=record_event,
    split=split,
    start=start,
)


def install(game: Game) -> None:
    """Add a game's commands to the app: its ``new GAME``, then its recording commands."""
    from sleuth.cli import generic

    own = part(game, "commands", None)
    first, *rest = own(KIT) if own is not None else generic.commands(KIT, game)
    starting.command(game.name)(first)
    for command in rest:
        app.command()(command)


for _game in GAMES.values():
    install(_game)
from sleuth.cli import next as _next  # noqa: F401,E402 - registers ``sleuth next``
from sleuth.cli import play as _play  # noqa: E402, F401 - registers play, after the rest
