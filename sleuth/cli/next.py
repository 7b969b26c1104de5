"""``sleuth next``: the questions of my next turn, best first, each split exactly by its answer.

Its options are those the registered games take (their ``advice_options`` parts, each a
``sleuth.games.base.Choice``), made into one command; a game checks the options it was given
(its ``check_options`` part), and a game without an ``advise`` part has no advice to give.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import typer

from sleuth.cli.app import (
    ADVICE_HELP,
    BUDGET,
    ExitStatus,
    FileOpt,
    JsonOpt,
    UptoOpt,
    analysable,
    answer_due,
    app,
    env,
    fail,
    number,
    record_path,
    seconds,
    show_json,
)
from sleuth.cli.spinner import spinner
from sleuth.errors import InputError
from sleuth.games import part
from sleuth.games.base import Choice
from sleuth.games.shipped import GAMES


def choices() -> dict[str, Choice]:
    """Every registered game's ``next`` options by name, in the games' order; one kind a name."""
    out: dict[str, Choice] = {}
    for game in GAMES.values():
        taken: tuple[Choice, ...] = part(game, "advice_options", ())
        for choice in taken:
            known = out.setdefault(choice.name, choice)
            if known.kind != choice.kind:
                raise TypeError(f"--{choice.name} is a {known.kind} and a {choice.kind}")
    return out


def option(choice: Choice) -> inspect.Parameter:
    """The command's parameter for ``choice``: a typer option of its kind, with its help."""
    annotation: Any
    default: Any = None
    if choice.kind == "flag":
        annotation, default = Annotated[bool, typer.Option(help=choice.help)], False
    elif choice.kind == "number":
        annotation = Annotated[int | None, typer.Option(help=choice.help, parser=number)]
    else:
        annotation = Annotated[str | None, typer.Option(help=choice.help)]
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Parameter(choice.name, keyword, default=default, annotation=annotation)


NextBudgetOpt = Annotated[
    float | None,
    typer.Option(
        "--budget",
        min=0.0,
        callback=lambda value: value if value is None else seconds(value),
        help=f"Seconds for the answer (default {BUDGET:g}, or the game's own: a game whose "
        "search improves with time names a shorter one).",
        show_default=False,
    ),
]


def given(values: dict[str, Any]) -> dict[str, Any]:
    """The options that were given, by name (``--at 0`` too; a flag only when set)."""
    return {k: v for k, v in values.items() if v is not None and v is not False}


def next_command(
    file: FileOpt = None,
    json_: JsonOpt = False,
    budget: NextBudgetOpt = None,
    upto: UptoOpt = None,
    **options: Any,
) -> None:
    """Which question to ask next: every legal one, its answer's odds and what it teaches."""
    from sleuth.render import advice_data, advice_lines

    record = analysable(file, "sleuth next", upto)
    game = record.rules
    if budget is None:  # a game that searches as long as it is given says how long by default
        budget = part(game, "advice_budget", BUDGET)
    session = env().session(record_path(file))
    try:
        with spinner(env().err, "weighing every option..."):
            advised = session.advise(record, given(options), answer_due(budget))
    except InputError as error:
        raise fail(error) from None
    if advised.advice is None:
        contradiction(advised.report, json_)
    if json_:
        show_json(part(game, "advice_json", advice_data)(advised.advice))
    else:
        part(game, "show_advice", advice_lines)(env().out, advised.advice)
    if not advised.report.fits:
        raise typer.Exit(ExitStatus.INCONSISTENT)


def contradiction(result, json_: bool) -> None:
    """A record no deal fits: the conflict, on screen or as JSON with no options; exit 3."""
    from sleuth.render.common import contradiction_json, show_trouble

    if json_:
        show_json({**contradiction_json(result), "options": []})
    else:
        show_trouble(env().out, result)
    raise typer.Exit(ExitStatus.INCONSISTENT)


def install() -> None:
    """``sleuth next``, with the options of every registered game before the shared ones."""
    shared = inspect.signature(next_command, eval_str=True).parameters.values()
    listed = [
        *(option(c) for c in choices().values()),
        *(
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
            for p in shared
            if p.kind is not inspect.Parameter.VAR_KEYWORD
        ),
    ]

    def command(**values: Any) -> None:
        next_command(**values)

    command.__doc__ = next_command.__doc__
    command.__signature__ = inspect.Signature(listed)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in listed}
    app.command("next", epilog=ADVICE_HELP)(command)


install()
