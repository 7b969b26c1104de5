"""Scotland Yard commands: start a record; record a turn, by its action or in full; check a player.

No ``from __future__ import annotations`` here: the options are built on the command line's
shared ones (``cli``), so Typer must see the annotations as objects.
"""

from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console

from sleuth.errors import InputError
from sleuth.games.base import Table

CHECK_HELP = ("a player", "nothing")  # what ``check FIRST SECOND`` takes
TICKET = "The ticket played, as seen: 34y (yellow taxi), 12b bus, 57r subway, 80k black."
Cards = Annotated[str | None, typer.Option(help="Tickets as seen: 5y,40k")]
Special = Annotated[
    str | None, typer.Option(help="Found, and I am Mister X: the special black ticket I drew.")
]
Drawn = Annotated[
    str | None, typer.Option(help="My turn: the card I drew at its start (for my hand).")
]


def commands(cli: Any) -> list[Callable]:
    """``new scotland-yard``, ``turn`` and one command per action, ``refresh`` and ``pass``."""

    def scotland_yard(
        players: cli.PlayersOpt,
        me: cli.MeOpt,
        hand: Annotated[str, typer.Option(help="My 8 dealt cards: 12y,33b,...,X")],
        field: Annotated[str, typer.Option(help="The three tickets laid out: 14b,21y,55r")],
        first_dealt: Annotated[
            str | None, typer.Option(help="Who got the first card (default: the first player).")
        ] = None,
        keep: Annotated[
            str | None, typer.Option(help="Chance Mister X keeps X in a Disappear (default 0).")
        ] = None,
        feint: Annotated[
            int | None, typer.Option(help="Tickets the detectives discard in a Feint (card 1).")
        ] = None,
        force: cli.ForceOpt = False,
        file: cli.FileOpt = None,
    ) -> None:
        """Start a new Scotland Yard: Das Kartenspiel record."""

        def more(table: Table) -> dict:
            out: dict = {"field": cli.split(field)}
            if first_dealt is not None:
                out["first_dealt"] = table.prefix(first_dealt, "first_dealt")
            if keep is not None:
                out["keep"] = keep
            if feint is not None:
                out["feint"] = feint
            return out

        cli.start(file, force, "scotland-yard", players, me, hand, more)

    def turn(
        by: Annotated[str, cli.player("Who played (a unique prefix will do).")],
        ticket: Annotated[str, typer.Argument(help=TICKET)],
        pile: Annotated[int | None, typer.Argument(help="The pile, 1 to 3.")] = None,
        action: Annotated[
            str | None, typer.Option(help="feint, buy or disappear (else the pile's general one).")
        ] = None,
        target: Annotated[
            str | None, typer.Option(help="Whom a manhunt or interrogation hit.")
        ] = None,
        found: Annotated[
            bool | None, typer.Option("--found/--innocent", help="Whether X was found.")
        ] = None,
        took: Cards = None,
        discarded: Cards = None,
        discards: Annotated[
            list[str] | None, typer.Option(help="A feint: PLAYER=TICKETS, once a detective.")
        ] = None,
        drew: Cards = None,
        got: Annotated[str | None, typer.Option(help="A disappear: the card I got.")] = None,
        gave: Annotated[str | None, typer.Option(help="A disappear: the card I gave.")] = None,
        special: Special = None,
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: record a turn in full: a ticket on a pile and its action."""
        fields: dict[str, Any] = {"by": by, "ticket": ticket, "pile": pile, "action": action}
        fields["target"] = target
        fields |= {"found": found, "took": _listed(cli, took), "discarded": _listed(cli, discarded)}
        fields |= {"discards": _discards(cli, discards), "drew": _listed(cli, drew)}
        fields |= {"got": got, "gave": gave, "special": special, "drawn": drawn}
        cli.record_event(file, "sleuth turn", "turn", fields, budget, before)

    def draw(
        by: Annotated[str, cli.player("Who played.")],
        ticket: Annotated[str, typer.Argument(help=TICKET)],
        drew: Cards = None,
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: a ticket on pile 1: draw 1 (2 with a taxi ticket)."""
        fields = {"by": by, "ticket": ticket, "action": "draw", "drew": _listed(cli, drew)}
        cli.record_event(file, "sleuth draw", "turn", fields | {"drawn": drawn}, budget, before)

    def interrogate(
        by: Annotated[str, cli.player("Who played.")],
        ticket: Annotated[str, typer.Argument(help=TICKET)],
        target: Annotated[
            str | None, cli.player("Whom they interrogated (when the third glass turned).")
        ] = None,
        found: Annotated[
            bool | None, typer.Option("--found/--innocent", help="Whether X was found.")
        ] = None,
        discarded: Cards = None,
        special: Special = None,
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: a ticket on pile 2: turn a glass (2 with a bus), maybe interrogate."""
        fields: dict[str, Any] = {"by": by, "ticket": ticket, "action": "interrogation"}
        fields["target"] = target
        fields |= {"found": found, "discarded": _listed(cli, discarded), "drawn": drawn}
        fields["special"] = special
        cli.record_event(file, "sleuth interrogate", "turn", fields, budget, before)

    def manhunt(
        by: Annotated[str, cli.player("Who played.")],
        ticket: Annotated[str, typer.Argument(help=TICKET)],
        target: Annotated[str, cli.player("Whose hand they took from.")],
        took: Cards = None,
        found: Annotated[bool, typer.Option("--found", help="The X card was taken.")] = False,
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: a ticket on pile 3: take 1 card (2 with a subway) from a player."""
        fields: dict[str, Any] = {"by": by, "ticket": ticket, "action": "manhunt"}
        fields["target"] = target
        fields |= {"took": _listed(cli, took), "found": True if found else None, "drawn": drawn}
        cli.record_event(file, "sleuth manhunt", "turn", fields, budget, before)

    def feint(
        by: Annotated[str, cli.player("Mister X, who played a black ticket on pile 1.")],
        ticket: Annotated[str, typer.Argument(help=TICKET)],
        discards: Annotated[
            list[str], typer.Option(help="PLAYER=TICKETS a detective discarded, once each.")
        ],
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: Mister X's feint: the detectives discard tickets together."""
        fields: dict[str, Any] = {"by": by, "ticket": ticket, "action": "feint"}
        fields["drawn"] = drawn
        fields["discards"] = _discards(cli, discards)
        cli.record_event(file, "sleuth feint", "turn", fields, budget, before)

    def buy(
        by: Annotated[str, cli.player("Mister X, who played a black ticket on pile 2.")],
        ticket: Annotated[str, typer.Argument(help=TICKET)],
        drew: Cards = None,
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: Mister X buys equipment: draws 4."""
        fields = {"by": by, "ticket": ticket, "action": "buy", "drew": _listed(cli, drew)}
        cli.record_event(file, "sleuth buy", "turn", fields | {"drawn": drawn}, budget, before)

    def disappear(
        by: Annotated[str, cli.player("Mister X, who played a black ticket on pile 3.")],
        ticket: Annotated[str, typer.Argument(help=TICKET)],
        got: Annotated[str | None, typer.Option(help="The card I got back: 66y or X.")] = None,
        gave: Annotated[str | None, typer.Option(help="The card I handed in.")] = None,
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: Mister X disappears: everyone hands in a card and gets one back."""
        fields = {"by": by, "ticket": ticket, "action": "disappear", "got": got, "gave": gave}
        cli.record_event(
            file, "sleuth disappear", "turn", fields | {"drawn": drawn}, budget, before
        )

    def refresh(
        by: Annotated[str, cli.player("Who refreshed the field.")],
        ticket: Annotated[str, typer.Argument(help="The ticket discarded (below every top).")],
        field: Annotated[str, typer.Argument(help="The three new tickets: 3y,40b,77r")],
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: a turn spent refreshing the ticket field."""
        fields = {"by": by, "ticket": ticket, "field": cli.split(field), "drawn": drawn}
        cli.record_event(file, "sleuth refresh", "refresh", fields, budget, before)

    def pass_(
        by: Annotated[str, cli.player("Who could play nothing.")],
        drawn: Drawn = None,
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Scotland Yard: a turn with no ticket to play: drew, played nothing."""
        cli.record_event(file, "sleuth pass", "pass", {"by": by, "drawn": drawn}, budget, before)

    pass_.__name__ = "pass"
    return [scotland_yard, turn, draw, interrogate, manhunt, feint, buy, disappear, refresh, pass_]


def _listed(cli: Any, text: str | None) -> list[str] | None:
    """A comma-separated option as a list, or None when not given ("" is an empty list)."""
    return None if text is None else cli.split(text)


def _discards(cli: Any, given: list[str] | None) -> dict | None:
    """``--discards Ann=5y,40k`` options as the record's mapping."""
    if not given:
        return None
    out: dict = {}
    for entry in given:
        who, equals, tickets = entry.partition("=")
        if not equals:
            raise typer.BadParameter(f"{entry!r} is not PLAYER=TICKETS, e.g. Ann=5y,40k")
        out[who.strip()] = cli.split(tickets)
    return out


def target(record: Any, first: str | None, second: str | None) -> str:
    """The player to check, checked against the record."""
    if first is None:
        raise InputError("sleuth check", "player", "give a player")
    if second is not None:
        raise InputError("sleuth check", "player", f"check takes one player, not {second!r} too")
    return record.table.prefix(first, "player")


def check(out: Console, found: Any, player: str | None, deadline: Any) -> None:
    """Weigh a hunt of one player, or name the likeliest holder."""
    from sleuth.games.scotland.advice import hunt, likeliest
    from sleuth.games.scotland.picture import show_hunt
    from sleuth.render.common import pct

    if player is None:
        best = likeliest(found)
        out.print("I hold X" if best is None else f"likeliest: {best[0]} {pct(best[1])}")
        return
    show_hunt(out, hunt(found, player))


def check_json(found: Any, player: str, deadline: Any) -> dict:
    """The check of one player as a JSON object."""
    from sleuth.games.scotland.advice import hunt

    return hunt(found, player).data
