"""Goldraub commands: start a record, record a search or a guess, weigh a guess.

No ``from __future__ import annotations`` here: the options are built on the command line's
shared ones (``cli``), so Typer must see the annotations as objects.
"""

from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console

from sleuth.errors import InputError
from sleuth.games.goldraub.rules import sector as parse_sector

CHECK_HELP = ("the owner", "the sector")  # what ``check FIRST SECOND`` takes


def commands(cli: Any) -> list[Callable]:
    """``new goldraub``, ``search`` and ``guess``, with the shared ``--file`` and ``--budget``."""

    def goldraub(
        players: cli.PlayersOpt,
        me: cli.WatchOpt = None,
        hand: Annotated[str | None, typer.Option(help="My three sectors: 22,45,63")] = None,
        rounds: Annotated[int | None, typer.Option(help="The round counter's start.")] = None,
        force: cli.ForceOpt = False,
        file: cli.FileOpt = None,
    ) -> None:
        """Start a new Goldraub in London record."""
        more = {} if rounds is None else {"rounds": rounds}
        cli.start(file, force, "goldraub", players, me, hand, lambda table: more)

    def search(
        by: Annotated[str, cli.player("Who searched (a unique prefix will do).")],
        row: Annotated[str, typer.Argument(help="The row, by its end sectors: 31-36")],
        gold: Annotated[int, typer.Option(help="GOLD BARS cards announced.")],
        saw: Annotated[int | None, typer.Option(help="GOLD BARS cards I saw in the pass.")] = None,
        at: Annotated[
            int | None, typer.Option(help="The route space the searcher moved to.")
        ] = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Goldraub: record a search and its answer."""
        fields = {"by": by, "row": row, "gold": gold, "saw": saw, "at": at}
        fields = {k: v for k, v in fields.items() if v is not None}
        cli.record_event(file, "sleuth search", "search", fields, budget, before)

    def guess(
        by: Annotated[str, cli.player("Who guessed.")],
        owner: Annotated[str, cli.player("Who was said to hold the sector.")],
        sector: Annotated[str, typer.Argument(help="The sector.")],
        correct: Annotated[bool, typer.Option("--correct/--wrong", help="The guess's outcome.")],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Goldraub: record a guess and whether it was right."""
        fields = {"by": by, "owner": owner, "sector": sector, "correct": correct}
        cli.record_event(file, "sleuth guess", "guess", fields, budget, before)

    return [goldraub, search, guess]


def target(record: Any, owner: str | None, sector: str | None) -> tuple[str, str]:
    """The owner and the sector of the guess to weigh, checked against the record."""
    if sector is None:
        raise InputError("sleuth check", "sector", "give an owner and a sector, or --best")
    who = record.table.prefix(owner, "owner")
    return who, parse_sector(sector, record.start.city, "sector")


def check(out: Console, report: Any, guess: tuple[str, str] | None, deadline: Any) -> None:
    """Weigh one guess, or list the best ones (from the report's counts: no count of its own)."""
    from sleuth.games.goldraub.advice import best_guesses, check_guess  # not needed by --help
    from sleuth.games.goldraub.picture import show_best, show_check

    if guess is None:
        show_best(out, best_guesses(report))
        return
    show_check(out, check_guess(report, *guess))


def check_json(report: Any, guess: tuple[str, str], deadline: Any) -> dict:
    """The check of one guess as the JSON object of the contract."""
    from sleuth.games.goldraub.advice import check_guess  # not needed by --help
    from sleuth.games.goldraub.picture import check_json as as_json

    return as_json(check_guess(report, *guess))
