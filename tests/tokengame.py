"""A made-up game whose hidden state moves and whose evidence has likelihoods: a rules core and
a belief (``sleuth.belief.filtered``), nothing more.

Token: 2 to 5 players; one token, dealt first to the player ``first`` with chance 1/2 (the
rest share the other half). ``shuffle``: the token goes to a player chosen at random, each
1/P. ``draw``: ``by`` draws one of the ``hand`` cards of ``of`` at random; if ``of`` holds the
token it is found with chance 1/hand (and ``by`` holds it from then on), so a draw that misses
weighs ``of`` by (hand - 1) / hand.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sleuth.belief import Filtered, Kernel, filtered
from sleuth.errors import InputError
from sleuth.games import Played
from sleuth.games.base import Event, Status, Table, boolean, integer
from sleuth.model import Holder, Tally

TOKEN = "token"


@dataclass(frozen=True)
class Start:
    """Who was dealt the token first (likeliest), and how many cards each hand holds."""

    first: Holder
    hand: int


@dataclass(frozen=True)
class Shuffle(Event):
    """``by`` shuffled: the token went to a player chosen at random."""

    by: Holder
    kind = "shuffle"
    required = ("by",)
    names = ("by",)

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> "Shuffle":
        """Check the player."""
        return cls(table.player(data["by"], "by"))

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal: the game has none."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"by": self.by}


@dataclass(frozen=True)
class Draw(Event):
    """``by`` drew a card of ``of``'s hand; ``found``: it was the token."""

    by: Holder
    of: Holder
    found: bool
    kind = "draw"
    required = ("by", "of", "found")
    answers = ("found",)
    names = ("by", "of")

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> "Draw":
        """Check the players and the outcome."""
        by, of = table.player(data["by"], "by"), table.player(data["of"], "of")
        if by == of:
            raise InputError("", "of", "a player does not draw from himself")
        return cls(by, of, boolean(data["found"], "found"))

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """Nothing about a deal: the game has none."""
        return ()

    def fields(self) -> dict:
        """As written in the record."""
        return {"by": self.by, "of": self.of, "found": self.found}


def prior(table: Table, start: Start) -> dict[Holder, Fraction]:
    """``first`` 1/2, every other player an equal share of the other half."""
    rest = Fraction(1, 2 * (len(table.players) - 1))
    return {p: Fraction(1, 2) if p == start.first else rest for p in table.players}


def kernel(event: Event, table: Table, start: Start) -> Kernel:
    """Where the token goes at ``event``, from each holder, with the weight of what was seen."""
    if isinstance(event, Shuffle):
        share = Fraction(1, len(table.players))
        return lambda holder: [(p, share) for p in table.players]
    assert isinstance(event, Draw)
    hit = Fraction(1, start.hand)

    def draw(holder: Any) -> list[tuple[Any, Fraction]]:
        if holder != event.of:
            return [] if event.found else [(holder, Fraction(1))]
        return [(event.by, hit)] if event.found else [(holder, 1 - hit)]

    return draw


def believe(record: Any, deadline: Any) -> Filtered:
    """The exact chance of each holder of the token, through every event."""
    table, start = record.table, record.start
    kernels = [kernel(e, table, start) for e in record.events]
    held = lambda holder: frozenset({(holder, TOKEN)})  # noqa: E731
    return filtered(record, prior(table, start), kernels, held, (table.players, (TOKEN,)), "holder")


class Token:
    """The made-up game's rules core; its one part is its belief."""

    name = "token"
    title = "Token"
    setup_keys = ("first", "hand")
    events: dict[str, type[Event]] = {"shuffle": Shuffle, "draw": Draw}
    reserved: tuple[str, ...] = ()
    solitaire = False
    parts = {"believe": f"{__name__}:believe"}

    def parse_start(self, doc: dict, table: Table) -> Start:
        """``first`` (default: the first player) and ``hand`` (default 3)."""
        if not 2 <= len(table.players) <= 5:
            raise InputError("", "players", "Token is for 2 to 5 players")
        first = table.player(doc.get("first", table.players[0]), "first")
        return Start(first, integer(doc.get("hand", 3), "hand", 1, 20))

    def start_fields(self, start: Start) -> dict:
        """The setup as the record writes it."""
        return {"first": start.first, "hand": start.hand}

    def forbidden(self, events: list, table: Table, start: Start) -> None:
        """Any event may come at any place."""

    def turn_note(self, record: Played, index: int) -> None:
        """There are no turns."""

    def status(self, record: Played) -> Status:
        """The number of events so far, as the round."""
        return Status(len(record.events) + 1, None)


GAME = Token()
