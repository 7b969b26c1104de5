"""A made-up game that lives only here: a rules core and nothing more, to show that a game is
one place and that the shared parts serve a game that brings none of its own.

Tiny: two or three players, six cards numbered 1 to 6, two cards each, the rest face down in
the pile. On a turn a player asks another "how many of these cards do you hold?" and is
answered aloud. Its screens, its commands (``new tiny hand=1,4``, ``query by=.. to=..
cards=.. answer=..``), its check and its replay are the shared defaults.
"""

from dataclasses import dataclass
from typing import Any

from sleuth.errors import InputError, shown
from sleuth.games import Played
from sleuth.games.base import Event, Setup, Status, Table, integer
from sleuth.model import Holder, Item, Space, Tally, Term, holds

CARDS = tuple(str(n) for n in range(1, 7))
HAND = 2
PILE = "pile"


def card(value: Any, field: str) -> Item:
    """``value`` as one of the six cards, or an InputError for ``field``."""
    text = str(value).strip() if isinstance(value, int | str) else ""
    if isinstance(value, bool) or text not in CARDS:
        raise InputError("", field, f"{shown(value)} is not a card 1-6")
    return text


def cards(value: Any, field: str) -> tuple[Item, ...]:
    """One card or a list of cards, each once, in order."""
    listed = value if isinstance(value, list) else [value]
    return tuple(sorted({card(c, field) for c in listed}))


@dataclass(frozen=True)
class Start:
    """My two cards."""

    hand: tuple[Item, ...]


@dataclass(frozen=True)
class Query(Event):
    """``by`` asked ``to`` how many of ``cards`` they hold; ``to`` answered ``answer``."""

    by: Holder
    to: Holder
    cards: tuple[Item, ...]
    answer: int

    kind = "query"
    required = ("by", "to", "cards", "answer")
    answers = ("answer",)
    names = ("by", "to")

    @classmethod
    def build(cls, data: dict, table: Table, start: Start) -> "Query":
        """Check the players, the cards and the answer."""
        by, to = table.player(data["by"], "by"), table.player(data["to"], "to")
        if by == to:
            raise InputError("", "to", "a player does not ask himself")
        named = cards(data["cards"], "cards")
        return cls(by, to, named, integer(data["answer"], "answer", 0, min(HAND, len(named))))

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """``to`` holds exactly ``answer`` of the cards."""
        return (Tally((Term(self.to, frozenset(self.cards)),), frozenset({self.answer})),)

    def fields(self) -> dict:
        """As written in the record."""
        named = [int(c) for c in self.cards]
        return {"by": self.by, "to": self.to, "cards": named, "answer": self.answer}

    def answerer(self, field: str) -> Holder | None:
        """``to`` answered."""
        return self.to if field == "answer" else None


def deal(start: Start, table: Table) -> Setup:
    """Two cards each, the rest in the pile; I hold mine: every such deal equally likely."""
    sizes = dict.fromkeys(table.players, HAND) | {PILE: len(CARDS) - HAND * len(table.players)}
    space = Space(table.players + (PILE,), sizes, CARDS)
    return Setup(space, tuple(holds(table.me, c) for c in start.hand))


class Tiny:
    """The made-up game's rules core (``sleuth.games.Game``); its one part is its deal."""

    name = "tiny"
    title = "Tiny"
    setup_keys = ("hand",)
    events: dict[str, type[Event]] = {"query": Query}
    reserved = (PILE,)
    solitaire = False
    parts = {"deal": f"{__name__}:deal"}  # the belief: every deal equally likely, counted

    def parse_start(self, doc: dict, table: Table) -> Start:
        """My two cards, for two or three players."""
        if not 2 <= len(table.players) <= 3:
            raise InputError("", "players", "Tiny is for 2 or 3 players")
        hand = cards(doc.get("hand"), "hand")
        if len(hand) != HAND:
            raise InputError("", "hand", f"expected {HAND} different cards, got {shown(hand)}")
        return Start(hand)

    def start_fields(self, start: Start) -> dict:
        """My hand as the record writes it."""
        return {"hand": [int(c) for c in start.hand]}

    def forbidden(self, events: list, table: Table, start: Start) -> None:
        """No rule forbids a question at any place."""

    def turn_note(self, record: Played, index: int) -> None:
        """Anyone may ask at any time."""

    def status(self, record: Played) -> Status:
        """The round (every player asked once) and who asks next, clockwise."""
        askers = [e.by for e in record.events if isinstance(e, Query)]
        turn = record.table.offset(askers[-1], 1) if askers else None
        return Status(len(askers) // len(record.table.players) + 1, turn)


GAME = Tiny()
