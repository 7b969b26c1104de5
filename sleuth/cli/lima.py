"""Loot of Lima commands: record a question, a Pistol question or an accusation; weigh one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from sleuth.cli.app import BUDGET, ENV, BudgetOpt, FileOpt, app, record_event, split
from sleuth.errors import InputError

if TYPE_CHECKING:
    from sleuth.analysis import Report
    from sleuth.record import Record


def _recorded(file, command: str, kind: str, fields: dict, names, budget: float) -> None:
    """Record the event, then name the most likely treasure pairs."""
    from sleuth.render.lima import show_top_pairs

    fields = {k: v for k, v in fields.items() if v is not None}
    update = record_event(file, command, kind, fields, names, budget)
    show_top_pairs(ENV.out, update.report, budget)


@app.command()
def ask(
    by: Annotated[str, typer.Argument(help="Who asked (a unique prefix will do).")],
    to: Annotated[str, typer.Argument(help="Who was asked.")],
    range_: Annotated[str, typer.Argument(metavar="RANGE", help="Clockwise: SE-NW")],
    answer: Annotated[int, typer.Option(help="The number of tokens answered aloud.")],
    terrain: Annotated[str | None, typer.Option(help="beach, forest or mountain.")] = None,
    file: FileOpt = None,
    budget: BudgetOpt = BUDGET,
) -> None:
    """Loot of Lima: record a question and its answer."""
    fields = {"by": by, "to": to, "range": range_, "terrain": terrain, "answer": answer}
    _recorded(file, "sleuth ask", "ask", fields, ("by", "to"), budget)


@app.command()
def secret(
    by: Annotated[str, typer.Argument(help="Who used the Pistol.")],
    to: Annotated[str, typer.Argument(help="Who answered on paper.")],
    range_: Annotated[
        str | None, typer.Argument(metavar="RANGE", help="When I asked: SE-NW")
    ] = None,
    answer: Annotated[int | None, typer.Option(help="When I asked: the answer.")] = None,
    file: FileOpt = None,
    budget: BudgetOpt = BUDGET,
) -> None:
    """Loot of Lima: record a Pistol question (range and answer only when I asked)."""
    fields = {"by": by, "to": to, "range": range_, "answer": answer}
    _recorded(file, "sleuth secret", "secret", fields, ("by", "to"), budget)


@app.command()
def accuse(
    by: Annotated[str, typer.Argument(help="Who accused.")],
    first: Annotated[str, typer.Argument(metavar="LOC", help="One location named: 3F")],
    second: Annotated[str, typer.Argument(metavar="LOC", help="The other location.")],
    correct: Annotated[bool, typer.Option("--correct/--wrong", help="The accusation's outcome.")],
    treasure: Annotated[
        str | None, typer.Option(help="When I accused: the two tokens I saw, 3F,7M")
    ] = None,
    file: FileOpt = None,
    budget: BudgetOpt = BUDGET,
) -> None:
    """Loot of Lima: record an accusation and whether it was right."""
    seen = None if treasure is None else split(treasure)
    fields = {"by": by, "locations": [first, second], "correct": correct, "treasure": seen}
    _recorded(file, "sleuth accuse", "accuse", fields, ("by",), budget)


def target(record: Record, first: str | None, second: str | None) -> tuple[str, str]:
    """The two locations of the accusation to weigh, checked against the record."""
    from sleuth.games.lima import locations

    if second is None:
        raise InputError("sleuth check", "locations", "give two locations, or --best")
    return locations([first, second], record.start.island, "locations")


def check(out: Console, report: Report, pair: tuple[str, str] | None):
    """Weigh one accusation, or name the most likely pair."""
    from sleuth.advice.lima import best_accusation, check_accusation, treasure_pairs
    from sleuth.render.lima import show_best, show_check

    if pair is None:
        pairs = treasure_pairs(report)
        show_best(out, report, pairs, best_accusation(report, pairs))
        return
    show_check(out, check_accusation(report, *pair))
