"""Looting London commands: start a record; one per event (take, meld, destroy, clear).

A draw is recorded by ``take`` (``draw`` is Scotland Yard's command word). No ``from
__future__ import annotations`` here: the options are built on the command line's shared ones
(``cli``), so Typer must see the annotations as objects.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from sleuth.errors import InputError
from sleuth.games.base import Table

CARDS = "The cards turned in: waif=3,dame=2 (or w3,d2; pairs of another figure are jokers)."
COLUMN = "The column, 1 to 5 from the left."


def commands(cli: Any) -> list[Callable]:
    """``new looting-london``, then ``take``, ``meld``, ``destroy`` and ``clear``."""

    def looting_london(
        players: cli.PlayersOpt,
        me: cli.MeOpt,
        tiles: Annotated[
            str,
            typer.Option(
                help="The 5x5 tiles: a YAML file of five columns, or inline, columns split by "
                "'/', each top to bottom: gw3,ob2,... (colour letter, figure letter, number)."
            ),
        ],
        row: Annotated[str, typer.Option(help="The four face-up cards: waif,dame,bobby,bobby")],
        hand: Annotated[str, typer.Option(help="My dealt cards: waif,waif,dame,grinder")],
        bonus: Annotated[
            str | None,
            typer.Option(help="The disks in their row: green=2,orange=3,... (default the box's)."),
        ] = None,
        dealt: Annotated[
            int | None, typer.Option(help="Cards dealt to each player (default 4).")
        ] = None,
        force: cli.ForceOpt = False,
        file: cli.FileOpt = None,
    ) -> None:
        """Start a new Looting London record."""

        def more(table: Table) -> dict:
            out: dict = {"tiles": grid(tiles), "row": cli.split(row)}
            if bonus is not None:
                out["bonus"] = disks(cli, bonus)
            if dealt is not None:
                out["dealt"] = dealt
            return out

        cli.start(file, force, "looting-london", players, me, hand, more)

    def take(
        by: Annotated[str, cli.player("Who drew (a unique prefix will do).")],
        card: Annotated[str, typer.Argument(help="The face-up card taken, or 'deck'.")],
        new: Annotated[
            str | None,
            typer.Argument(help="The card turned up in its place; after 'deck': the card I got."),
        ] = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Looting London: a draw: 'take ann dame bobby' (a bobby turned up), 'take ann deck'."""
        fields: dict[str, Any] = {"by": by}
        if card.strip().lower() == "deck":
            fields |= {"from": "deck", "card": new}
        else:
            fields |= {"card": card, "new": new}
        cli.record_event(file, "sleuth take", "draw", fields, budget, before)

    def meld(
        by: Annotated[str, cli.player("Who melded.")],
        column: Annotated[int, typer.Argument(help=COLUMN)],
        cards: Annotated[str, typer.Argument(help=CARDS)],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Looting London: cards turned in for the bottom tile of a column."""
        fields = {"by": by, "column": column, "cards": cards}
        cli.record_event(file, "sleuth meld", "meld", fields, budget, before)

    def destroy(
        by: Annotated[str, cli.player("Who destroyed.")],
        column: Annotated[int, typer.Argument(help=COLUMN)],
        tiles: Annotated[int, typer.Argument(help="How many tiles, 1 to 4, from the bottom.")],
        cards: Annotated[str, typer.Argument(help="The cards discarded: waif=2 (2 a tile).")],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Looting London: tiles destroyed from the bottom of a column; a meld there follows."""
        fields = {"by": by, "column": column, "tiles": tiles, "cards": cards}
        cli.record_event(file, "sleuth destroy", "destroy", fields, budget, before)

    def clear(
        by: Annotated[str, cli.player("Who cleared the row.")],
        new: Annotated[str, typer.Argument(help="The four cards turned up: waif,dame,dame,bobby")],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Looting London: the four identical face-up cards discarded, four new turned up."""
        fields = {"by": by, "new": cli.split(new)}
        cli.record_event(file, "sleuth clear", "clear", fields, budget, before)

    return [looting_london, take, meld, destroy, clear]


def grid(text: str) -> Any:
    """The tiles from a YAML file (its ``tiles``, or the list itself), or inline."""
    path = Path(text)
    if "/" not in text.strip("/") or path.is_file():
        if not path.is_file():
            raise InputError("sleuth new", "tiles", f"{text!r} is no file and no inline tiles")
        from ruamel.yaml import YAML, YAMLError

        try:
            loaded = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, YAMLError) as error:
            raise InputError("sleuth new", "tiles", f"cannot read {text}: {error}") from None
        return loaded.get("tiles") if isinstance(loaded, dict) else loaded
    return [[t.strip() for t in column.split(",") if t.strip()] for column in text.split("/")]


def disks(cli: Any, text: str) -> list[dict]:
    """``green=2,orange=3,...`` as the record's disks."""
    out = []
    for word in cli.split(text):
        colour, equals, points = word.partition("=")
        if not equals or not points.strip().isdigit():
            raise InputError("sleuth new", "bonus", f"{word!r} is not COLOUR=POINTS, e.g. green=2")
        out.append({"colour": colour.strip(), "points": int(points)})
    return out


CHECK_HELP = ("the column, 1 to 5", "nothing")  # what ``check FIRST SECOND`` takes


def target(record: Any, first: str | None, second: str | None) -> int:
    """The column to check, 1 to the number of columns."""
    columns = len(record.start.tiles)
    if first is None or second is not None:
        raise InputError("sleuth check", "column", f"give one column, 1 to {columns}")
    if not first.isdigit() or not 1 <= int(first) <= columns:
        raise InputError("sleuth check", "column", f"{first!r} is not a column, 1 to {columns}")
    return int(first)


def check(out: Any, found: Any, column: int | None, deadline: Any) -> None:
    """Take the column's bottom tile now, destroy for one above, or wait (``check COLUMN``)."""
    from sleuth.games.london.advice import hold
    from sleuth.games.london.picture import show_hold

    if column is None:
        raise InputError("sleuth check", "column", "give a column: check 3")
    show_hold(out, hold(found, column))


def check_json(found: Any, column: int, deadline: Any) -> dict:
    """The check of one column as a JSON object."""
    from sleuth.games.london.advice import hold
    from sleuth.games.london.picture import hold_json

    return hold_json(hold(found, column))
