"""Goldraub commands: record a search or a guess, and weigh a guess."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from sleuth.cli.app import BUDGET, BudgetOpt, FileOpt, app, record_event
from sleuth.errors import InputError

if TYPE_CHECKING:
    from sleuth.analysis import Report
    from sleuth.record import Record


@app.command()
def search(
    by: Annotated[str, typer.Argument(help="Who searched (a unique prefix will do).")],
    row: Annotated[str, typer.Argument(help="The row, by its end sectors: 31-36")],
    gold: Annotated[int, typer.Option(help="GOLD BARS cards announced.")],
    saw: Annotated[int | None, typer.Option(help="GOLD BARS cards I saw in the pass.")] = None,
    at: Annotated[int | None, typer.Option(help="The route space the searcher moved to.")] = None,
    file: FileOpt = None,
    budget: BudgetOpt = BUDGET,
) -> None:
    """Goldraub: record a search and its answer."""
    fields = {"by": by, "row": row, "gold": gold, "saw": saw, "at": at}
    fields = {k: v for k, v in fields.items() if v is not None}
    record_event(file, "sleuth search", "search", fields, ("by",), budget)


@app.command()
def guess(
    by: Annotated[str, typer.Argument(help="Who guessed.")],
    owner: Annotated[str, typer.Argument(help="Who was said to hold the sector.")],
    sector: Annotated[str, typer.Argument(help="The sector.")],
    correct: Annotated[bool, typer.Option("--correct/--wrong", help="The guess's outcome.")],
    file: FileOpt = None,
    budget: BudgetOpt = BUDGET,
) -> None:
    """Goldraub: record a guess and whether it was right."""
    fields = {"by": by, "owner": owner, "sector": sector, "correct": correct}
    record_event(file, "sleuth guess", "guess", fields, ("by", "owner"), budget)


def target(record: Record, owner: str | None, sector: str | None) -> tuple[str, str]:
    """The owner and the sector of the guess to weigh, checked against the record."""
    from sleuth.games.goldraub import sector as parse_sector

    if sector is None:
        raise InputError("sleuth check", "sector", "give an owner and a sector, or --best")
    who = record.table.prefix(owner, "owner")
    return who, parse_sector(sector, record.start.city, "sector")


def check(out: Console, report: Report, guess: tuple[str, str] | None):
    """Weigh one guess, or list the best ones."""
    from sleuth.advice.goldraub import best_guesses, check_guess
    from sleuth.render.goldraub import show_best, show_check

    if guess is None:
        show_best(out, best_guesses(report))
        return
    show_check(out, check_guess(report, *guess))
