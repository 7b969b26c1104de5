"""Loot of Lima commands: start a record; record a question, a Pistol question or an accusation.

No ``from __future__ import annotations`` here: the options are built on the command line's
shared ones (``cli``), so Typer must see the annotations as objects.
"""

from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console

from sleuth.errors import InputError
from sleuth.games.base import Table
from sleuth.games.lima.rules import two_locations

CHECK_HELP = ("a location", "the other location")  # what ``check FIRST SECOND`` takes


def commands(cli: Any) -> list[Callable]:
    """``new lima``, ``ask``, ``secret`` and ``accuse``, with the shared options."""

    def lima(
        players: cli.PlayersOpt,
        me: cli.WatchOpt = None,
        hand: Annotated[
            str | None, typer.Option(help="My tokens after the passing: 2F,3B,8M")
        ] = None,
        known: Annotated[
            list[str] | None, typer.Option(help="PLAYER=LOC,LOC looked at while passing.")
        ] = None,
        public: Annotated[str | None, typer.Option(help="The face-up tokens: 4F,6B")] = None,
        force: cli.ForceOpt = False,
        file: cli.FileOpt = None,
    ) -> None:
        """Start a new Loot of Lima record."""

        def more(table: Table) -> dict:
            out: dict = {}
            if known:
                out["known"] = {}
                for entry in known:
                    who, _, where = entry.partition("=")
                    out["known"][table.prefix(who, "known")] = cli.split(where)
            if public is not None:
                out["public"] = cli.split(public)
            return out

        cli.start(file, force, "lima", players, me, hand, more)

    def ask(
        by: Annotated[str, cli.player("Who asked (a unique prefix will do).")],
        to: Annotated[str, cli.player("Who was asked.")],
        range_: Annotated[str, typer.Argument(metavar="RANGE", help="Clockwise: SE-NW")],
        answer: Annotated[
            int | None,
            typer.Option(help="The number of tokens answered aloud (asked of me: my count)."),
        ] = None,
        terrain: Annotated[str | None, typer.Option(help="beach, forest or mountain.")] = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Loot of Lima: record a question and its answer."""
        fields = {"by": by, "to": to, "range": range_, "terrain": terrain, "answer": answer}
        cli.record_event(file, "sleuth ask", "ask", fields, budget, before)

    def secret(
        by: Annotated[str, cli.player("Who used the Pistol.")],
        to: Annotated[str, cli.player("Who answered on paper.")],
        range_: Annotated[
            str | None, typer.Argument(metavar="RANGE", help="When I asked or was asked: SE-NW")
        ] = None,
        answer: Annotated[
            int | None, typer.Option(help="When I asked: the answer (asked of me: my count).")
        ] = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Loot of Lima: record a Pistol question (range and answer only when I asked)."""
        fields = {"by": by, "to": to, "range": range_, "answer": answer}
        cli.record_event(file, "sleuth secret", "secret", fields, budget, before)

    def accuse(
        by: Annotated[str, cli.player("Who accused.")],
        first: Annotated[str, typer.Argument(metavar="LOC", help="One location named: 3F")],
        second: Annotated[str, typer.Argument(metavar="LOC", help="The other location.")],
        correct: Annotated[
            bool, typer.Option("--correct/--wrong", help="The accusation's outcome.")
        ],
        treasure: Annotated[
            str | None, typer.Option(help="When I accused: the two tokens I saw, 3F,7M")
        ] = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Loot of Lima: record an accusation and whether it was right."""
        seen = None if treasure is None else cli.split(treasure)
        fields = {"by": by, "locations": [first, second], "correct": correct, "treasure": seen}
        cli.record_event(file, "sleuth accuse", "accuse", fields, budget, before)

    return [lima, ask, secret, accuse]


def target(record: Any, first: str | None, second: str | None) -> tuple[str, str]:
    """The two locations of the accusation to weigh, checked against the record."""
    if second is None:
        raise InputError("sleuth check", "locations", "give two locations, or --best")
    return two_locations([first, second], record.start.island, "locations")


def check(out: Console, report: Any, pair: tuple[str, str] | None, deadline: Any) -> None:
    """Weigh one accusation, or name the most likely pair."""
    from sleuth.games.lima.advice import best_accusation, check_accusation  # not for --help
    from sleuth.games.lima.picture import show_best, show_check

    if pair is None:
        pairs = report.details
        show_best(out, report, pairs, best_accusation(report, pairs))
        return
    show_check(out, check_accusation(report, *pair, deadline))


def check_json(report: Any, pair: tuple[str, str], deadline: Any) -> dict:
    """The check of one accusation as the JSON object of the contract."""
    from sleuth.games.lima.advice import check_accusation  # not for --help
    from sleuth.games.lima.picture import check_json as as_json

    return as_json(check_accusation(report, *pair, deadline))
