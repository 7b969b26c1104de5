"""A made-up game that lives only here, to show that a game is one place.

Tiny: two or three players, six cards numbered 1 to 6, two cards each, the rest face down in
the pile. On a turn a player asks another "how many of these cards do you hold?" and is
answered aloud. It registers through ``sleuth.games.Game`` and nothing outside this file
names it.
"""

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table as Grid

from sleuth.errors import InputError, shown
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
        cards = data["cards"] if isinstance(data["cards"], list) else [data["cards"]]
        named = tuple(sorted({card(c, "cards") for c in cards}))
        return cls(by, to, named, integer(data["answer"], "answer", 0, min(HAND, len(named))))

    def tallies(self, table: Table, start: Start) -> tuple[Tally, ...]:
        """``to`` holds exactly ``answer`` of the cards."""
        return (Tally((Term(self.to, frozenset(self.cards)),), frozenset({self.answer})),)

    def fields(self) -> dict:
        """As written in the record."""
        cards = [int(c) for c in self.cards]
        return {"by": self.by, "to": self.to, "cards": cards, "answer": self.answer}

    def answerer(self, field: str) -> Holder | None:
        """``to`` answered."""
        return self.to if field == "answer" else None


def parse_start(doc: dict, table: Table) -> Start:
    """My two cards."""
    if not 2 <= len(table.players) <= 3:
        raise InputError("", "players", "Tiny is for 2 or 3 players")
    hand = doc.get("hand")
    if not isinstance(hand, list) or len(hand) != HAND:
        raise InputError("", "hand", f"expected a list of {HAND} cards, got {shown(hand)}")
    cards = tuple(card(c, "hand") for c in hand)
    if len(set(cards)) != HAND:
        raise InputError("", "hand", "a card is listed twice")
    return Start(cards)


def setup(start: Start, table: Table) -> Setup:
    """Two cards each, the rest in the pile; I hold mine."""
    sizes = dict.fromkeys(table.players, HAND) | {PILE: len(CARDS) - HAND * len(table.players)}
    space = Space(table.players + (PILE,), sizes, CARDS)
    return Setup(space, tuple(holds(table.me, c) for c in start.hand))


def show_report(console: Console, report: Any) -> None:
    """One row per card: each holder's chance."""
    holders = report.record.table.players + (PILE,)
    grid = Grid(title="Tiny")
    for column in ("card", *holders):
        grid.add_column(column)
    for item in CARDS:
        chances = [report.odds.probability(h, item) for h in holders]
        grid.add_row(item, *(f"{float(p):.3f}" if p is not None else "?" for p in chances))
    console.print(grid)
    console.print(f"{report.worlds} deals fit the record")


def commands(cli: Any) -> list[Callable]:
    """``new tiny`` and ``query``."""

    def tiny(
        players: cli.PlayersOpt,
        me: cli.MeOpt,
        hand: Annotated[str, typer.Option(help="My two cards: 1,4")],
        force: cli.ForceOpt = False,
        file: cli.FileOpt = None,
    ) -> None:
        """Start a new Tiny record."""
        cli.start(file, force, "tiny", players, me, hand, lambda table: {})

    def query(
        by: Annotated[str, typer.Argument(help="Who asked.")],
        to: Annotated[str, typer.Argument(help="Who was asked.")],
        cards: Annotated[str, typer.Argument(help="The cards asked about: 1,2,5")],
        answer: Annotated[int, typer.Option(help="How many of them they hold.")],
        file: cli.FileOpt = None,
        budget: cli.BudgetOpt = cli.BUDGET,
    ) -> None:
        """Tiny: record a question and its answer."""
        fields = {"by": by, "to": to, "cards": cli.split(cards), "answer": answer}
        cli.record_event(file, "sleuth query", "query", fields, budget)

    return [tiny, query]


def check_json(report: Any, target: Any, deadline: Any) -> dict:
    """The chance that the holder holds the card."""
    p = report.odds.probability(*target)
    return {"holder": target[0], "card": target[1], "probability": float(p or 0)}


def target(record: Any, first: str | None, second: str | None) -> tuple:
    """A holder and a card."""
    if second is None:
        raise InputError("sleuth check", "card", "give a holder and a card")
    return record.table.prefix(first, "holder"), card(second, "card")


def check(console: Console, report: Any, target: Any, deadline: Any) -> None:
    """The chance that the holder holds the card; without one, the likeliest card of another."""
    if target is None:
        others = [p for p in report.record.table.players if p != report.record.table.me]
        options = [(h, c) for h in others for c in CARDS]
        target = max(options, key=lambda t: report.odds.probability(*t))
    holder, item = target
    p = report.odds.probability(holder, item) or Fraction(0)
    console.print(f"{holder} holds {item}: probability {p}")


class Tiny:
    """The made-up game, as the ``Game`` protocol wants it."""

    name = "tiny"
    title = "Tiny"
    setup_keys = ("hand",)
    events = {"query": Query}
    reserved = (PILE,)
    check_help = ("the holder", "the card")
    advice_help = ""
    short_forms = (("q ann bob 2,5 1", "query: q BY TO CARDS ANSWER"),)
    parse_start = staticmethod(parse_start)
    setup = staticmethod(setup)
    show_report = staticmethod(show_report)
    interface = __name__  # commands, target, check and check_json above

    def start_fields(self, start: Start) -> dict:
        """My hand as the record writes it."""
        return {"hand": [int(c) for c in start.hand]}

    def details(self, report: Any, deadline: Any) -> None:
        """Nothing beyond the common report."""

    def show_update(self, console: Console, report: Any) -> None:
        """Nothing beyond the common update."""

    def json_extras(self, report: Any) -> dict:
        """No keys of its own."""
        return {}

    def forbidden(self, events: list, table: Table, start: Start) -> None:
        """No rule forbids a question at any place."""

    def turn_note(self, events: list, table: Table, index: int) -> None:
        """Anyone may ask at any time."""

    def plainly(self, record: Any, index: int) -> str:
        """The setup or a query, as the record writes it."""
        return "the setup" if index == 0 else f"event {index}: {record.events[index - 1]}"

    def judge(self, record: Any, steps: list, budget: float, memory: Any, tick: Any) -> Any:
        """Each step's likeliest card of another player; no moves to judge."""
        from sleuth.replay import Best, Judged

        others = [p for p in record.table.players if p != record.table.me]
        best = []
        for step in steps:
            options = [(step.probability(h, c), h, c) for h in others for c in CARDS]
            p, h, c = max(options) if step.consistent else (None, None, None)
            data = {"holder": h, "card": c, "probability": None if p is None else float(p)}
            best.append(None if p is None else Best(f"{h} {c}", p, step.exact, data))
        return Judged(best, [], {}, [], {})

    def status(self, record: Any) -> Status:
        """The round (every player asked once) and who asks next, clockwise."""
        askers = [e.by for e in record.events]
        turn = record.table.offset(askers[-1], 1) if askers else None
        return Status(len(askers) // len(record.table.players) + 1, turn)

    def best(self, report: Any) -> tuple[str, Fraction] | None:
        """The likeliest card of another player, e.g. ("Bob 3", 1/2)."""
        if not report.consistent:
            return None
        others = [p for p in report.record.table.players if p != report.record.table.me]
        p, h, c = max((report.odds.probability(h, c), h, c) for h in others for c in CARDS)
        return f"{h} {c}", p

    def expand(self, record: Any, words: list[str]) -> list[str] | None:
        """``q BY TO CARDS ANSWER`` is ``query BY TO CARDS --answer ANSWER``."""
        if len(words) != 5 or words[0] != "q":
            return None
        return ["query", *words[1:4], "--answer", words[4]]

    def complete(self, record: Any, words: list[str]) -> tuple[str, ...]:
        """The short form's words: ``q``, then the players twice, then the cards."""
        if not words:
            return ("q",)
        if words[0] == "q" and len(words) in (1, 2):
            return record.table.players
        return CARDS if words[0] == "q" and len(words) == 3 else ()

    def vocabulary(self, record: Any, command: str, param: str) -> tuple[str, ...]:
        """Players for ``by`` and ``to``, the cards for ``cards``."""
        if param in ("by", "to"):
            return record.table.players
        return CARDS if param == "cards" else ()

    def check_options(self, record: Any, given: dict) -> None:
        """Tiny takes no ``next`` options."""
        if given:
            raise InputError("sleuth next", next(iter(given)), "Tiny takes no options")

    def advise(self, report: Any, given: dict, deadline: Any = None) -> list:
        """Each question to another player about one card: its answers' counts, exactly."""
        from sleuth.advisor import answer_counts, chances

        self.check_options(report.record, given)
        me, model = report.record.table.me, report.record.model()
        others = [p for p in report.record.table.players if p != me]
        questions = [(h, c) for h in others for c in CARDS]
        out = []
        for h, c in questions:
            split = answer_counts(model, (Term(h, frozenset({c}), False),))
            out.append((h, c, chances(split)))
        return out

    def show_advice(self, console: Console, advice: list) -> None:
        """One line per question."""
        for h, c, answers in advice:
            shown = ", ".join(f"{a}: {p}" for a, p in answers.items())
            console.print(f"ask {h} about {c}: {shown}")

    def advice_json(self, advice: list) -> dict:
        """The questions with their answers' chances."""
        options = [
            {"to": h, "card": c, "answers": {str(a): float(p) for a, p in answers.items()}}
            for h, c, answers in advice
        ]
        return {"game": "tiny", "options": options}


GAME = Tiny()
