"""Loot the Loop commands: start a record, and one per action (look, explore, mark, return).

No ``from __future__ import annotations`` here: the options are built on the command line's
shared ones (``cli``), so Typer must see the annotations as objects.
"""

from collections.abc import Callable
from typing import Annotated, Any

import typer

CARD = "A card as seen: AS, 7H, 10D, QC or joker."


def commands(cli: Any) -> list[Callable]:
    """``new loot-the-loop``, then ``look``, ``explore``, ``mark`` and ``return``."""

    def loot_the_loop(force: cli.ForceOpt = False, file: cli.FileOpt = None) -> None:
        """Start a new Loot the Loop record: the deck shuffled face down."""
        cli.begin(file, force, "loot-the-loop", None, None, lambda table: {})

    def look(
        cards: Annotated[list[str], typer.Argument(help="The cards turned up, top first.")],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Loot the Loop: Look Around: the top card, and the second if face down, turn up."""
        listed = [c for word in cards for c in cli.split(word)]
        cli.record_event(file, "sleuth look", "look", {"cards": listed}, budget, before)

    def explore(
        n: Annotated[str, typer.Argument(help="The face-up trinket's value: cards to move.")],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Loot the Loop: Explore: N cards from the top to the bottom, then land."""
        cli.record_event(file, "sleuth explore", "explore", {"n": n}, budget, before)

    def mark(
        card: Annotated[str, typer.Argument(help=CARD)],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Loot the Loop: Mark a Path: the top trinket goes to my notes."""
        cli.record_event(file, "sleuth mark", "mark", {"card": card}, budget, before)

    def return_(
        card: Annotated[str, typer.Argument(help=CARD)],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
        before: cli.BeforeOpt = None,
    ) -> None:
        """Loot the Loop: Return to a Marked Path: a note goes back on top, face up."""
        cli.record_event(file, "sleuth return", "return", {"card": card}, budget, before)

    return_.__name__ = "return"
    return [loot_the_loop, look, explore, mark, return_]
