"""What every game shares: the table of players, recorded events, and field checks."""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations, product
from pathlib import Path
from typing import Any, ClassVar

from sleuth.errors import InputError, label, nearest, shown
from sleuth.model import Holder, Space, Tally


@dataclass(frozen=True)
class Table:
    """The players in seating order, clockwise, and whose knowledge the record holds.

    e.g. Table(("Anton", "Bert", "Christl", "Doris", "Elli"), "Christl"); ``me`` None for a
    game watched (a spectator's record: the table's public knowledge, no hand of one's own).
    """

    players: tuple[Holder, ...]
    me: Holder | None

    def seat(self, player: Holder) -> int:
        """The 0-based seat of ``player``."""
        return self.players.index(player)

    def offset(self, player: Holder, steps: int) -> Holder:
        """The player ``steps`` seats clockwise (to the left) of ``player``."""
        return self.players[(self.seat(player) + steps) % len(self.players)]

    def between(self, first: Holder, last: Holder) -> tuple[Holder, ...]:
        """The players strictly between ``first`` and ``last``, clockwise from ``first``."""
        n, a = len(self.players), self.seat(first)
        gap = (self.seat(last) - a) % n or n
        return tuple(self.players[(a + k) % n] for k in range(1, gap))

    def others(self, player: Holder) -> tuple[Holder, ...]:
        """Every player but ``player``, clockwise from the one after him."""
        return self.between(player, player)

    def myself(self) -> Holder:
        """Me, in a game never watched; a LookupError (a bug) for a record without ``me``."""
        if self.me is None:
            raise LookupError("the record has no 'me': a game watched")
        return self.me

    def opponents(self) -> tuple[Holder, ...]:
        """The players whose cards I do not see: all but me, or all of them when I watch."""
        return self.players if self.me is None else self.others(self.me)

    def player(self, value: Any, field: str) -> Holder:
        """The player named ``value`` (case-insensitive), or an InputError for ``field``."""
        if not isinstance(value, str):
            raise InputError("", field, f"{shown(value)} is not a player's name")
        for name in self.players:
            if name.casefold() == value.casefold():
                return name
        raise InputError("", field, f"{shown(value)} is not a player{nearest(value, self.players)}")

    def prefix(self, value: Any, field: str) -> Holder:
        """The player whose name starts with ``value`` (case-insensitive, unique): CLI input."""
        if not isinstance(value, str) or not value:
            return self.player(value, field)
        folded = value.casefold()
        matches = [p for p in self.players if p.casefold().startswith(folded)]
        exact = [p for p in matches if p.casefold() == folded]
        if len(exact) == 1 or len(matches) == 1:
            return (exact or matches)[0]
        if matches:
            raise InputError("", field, f"{value!r} could be {' or '.join(matches)}")
        return self.player(value, field)


class Event:
    """One recorded event: its fields, its constraint, its text, its YAML form.

    Subclasses name their ``kind`` (the record's key), declare ``fields`` (required first) and
    say in ``tallies`` what the event tells about the deal. ``answers`` names the fields that
    hold what someone answered or announced: those a mistake at the table is most likely in.
    ``names`` are the fields that name a player (a unique prefix will do on the command line).
    A repair (``changes``) may change the ``heard`` fields (default: the answers) in any
    combination, or one field of ``names`` or ``asked`` (what the question itself said) alone.
    """

    kind: ClassVar[str]
    required: ClassVar[tuple[str, ...]] = ()
    optional: ClassVar[tuple[str, ...]] = ()
    answers: ClassVar[tuple[str, ...]] = ()
    names: ClassVar[tuple[str, ...]] = ()
    heard: ClassVar[tuple[str, ...] | None] = None  # None: the answers
    asked: ClassVar[tuple[str, ...]] = ()
    bare: ClassVar[str | None] = None  # the one field written as the event's value, if any

    def body(self) -> Any:
        """The event as the record writes it under its kind.

        Its fields, or a ``bare`` event's one value alone (``look: [9H, 4C]``, ``explore: 4``).
        """
        fields = self.fields()
        return fields if self.bare is None else fields[self.bare]

    @classmethod
    def parse(cls, data: Any, table: Table, context: Any) -> Event:
        """The event from its record mapping; InputError naming the field when it is unusable.

        A ``bare`` event's value alone stands for its one field.
        """
        if cls.bare is not None and not isinstance(data, Mapping):
            data = {cls.bare: data}
        if not isinstance(data, Mapping):
            raise InputError("", cls.kind, f"expected a mapping of fields, got {shown(data)}")
        allowed = cls.required + cls.optional
        for key in data:
            if key not in allowed:
                hint = nearest(key, allowed) if isinstance(key, str) else ""
                raise InputError("", label(key), f"unknown field for {cls.kind}{hint}")
        data = cls.completed(dict(data), table, context)
        for key in cls.required:
            if key not in data or data[key] is None:
                raise InputError("", key, f"{cls.kind} needs '{key}'")
        return cls.build(dict(data), table, context)

    @classmethod
    def completed(cls, data: dict, table: Table, context: Any) -> dict:
        """The fields with an answer I gave myself filled in when left out (subclasses)."""
        return data

    @classmethod
    def build(cls, data: dict, table: Table, context: Any) -> Event:
        """The event from its checked fields (subclasses)."""
        raise NotImplementedError

    def tallies(self, table: Table, context: Any) -> tuple[Tally, ...]:
        """What the event tells about the deal, as tallies (subclasses)."""
        raise NotImplementedError

    def fields(self) -> dict:
        """The event's fields as written in the record (subclasses)."""
        raise NotImplementedError

    def answered(self) -> dict[str, Any]:
        """The answer fields this event has in the record, with their values."""
        return {k: v for k, v in self.fields().items() if k in self.answers}

    def options(self, field: str, table: Table, context: Any) -> tuple[Any, ...]:
        """The values ``field`` could hold, as the record writes them (games add their own)."""
        value = self.fields().get(field)
        if field in self.names:
            return table.players
        if isinstance(value, bool):
            return (True, False)
        if isinstance(value, int) and field in self.answers:
            return tuple(range(100))
        return (value,)

    def changes(self, table: Table, context: Any) -> Iterator[dict[str, Any]]:
        """Every change of this event a repair tries, as field -> new value (None: removed).

        Any combination of the ``heard`` fields (misheard answers), then one player's name or
        one field of the question alone; changes that are not valid input are weeded out later.
        """
        now = self.fields()
        heard = self.answers if self.heard is None else self.heard
        for size in range(1, len(heard) + 1):
            for fields in combinations(heard, size):
                others = [
                    [v for v in self.options(f, table, context) if v != now.get(f)] for f in fields
                ]
                for values in product(*others):
                    yield dict(zip(fields, values, strict=True))
        for field in self.names + self.asked:
            for value in self.options(field, table, context):
                if value != now.get(field):
                    yield {field: value}

    def public(self) -> Event:
        """The event as a spectator knows it: what only I saw left out (subclasses)."""
        return self

    def answerer(self, field: str) -> Holder | None:
        """The player who said the answer in ``field`` aloud, when it is not the asker."""
        return None

    def text(self) -> str:
        """The event in one short line, as the record would say it."""
        if self.bare is not None:
            return f"{self.kind} {yaml_word(self.body())}"
        inner = ", ".join(f"{k}: {yaml_word(v)}" for k, v in self.fields().items())
        return f"{self.kind} {{{inner}}}"


def refused(
    follow: Callable[..., Any], events: list[Event], table: Table, start: Any
) -> InputError | None:
    """The first event ``follow`` (a game's walk through its record) refuses, as the error.

    None when it takes them all: a game's ``forbidden``, from the walk that checks its rules.
    """
    try:
        follow(events, table, start)
    except InputError as error:
        return error
    return None


def board_data(module: str) -> dict:
    """The parsed ``board.toml`` beside a game's module (``board_data(__file__)``)."""
    return tomllib.loads((Path(module).parent / "board.toml").read_text("utf-8"))


def yaml_word(value: Any) -> str:
    """A field's value as YAML writes it (true, not True)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(yaml_word(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {yaml_word(v)}" for k, v in value.items()) + "}"
    return str(value)


def integer(value: Any, field: str, low: int, high: int) -> int:
    """``value`` as an int within [low, high], or an InputError for ``field``."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InputError("", field, f"{shown(value)} is not a whole number")
    try:
        number = int(value)
    except ValueError:
        raise InputError("", field, f"{shown(value)} is not a whole number") from None
    if not low <= number <= high:
        raise InputError("", field, f"{number} is outside {low}..{high}")
    return number


def boolean(value: Any, field: str) -> bool:
    """``value`` as a bool, or an InputError for ``field``."""
    if not isinstance(value, bool):
        raise InputError("", field, f"{shown(value)} is not true or false")
    return value


@dataclass(frozen=True)
class Choice:
    """An option of ``sleuth next`` that a game takes (its ``advice_options`` part).

    ``kind``: "flag" (given or not), "number" (ASCII digits) or "text". e.g.
    Choice("at", "number", "My route space (else the record's)."). The command line makes one
    option of each name the games take; two games that take a name take it of one kind.
    """

    name: str
    kind: str  # "flag", "number" or "text"
    help: str


PUBLIC = "Also what each answer tells one who knows only the public record."  # next --public


@dataclass(frozen=True)
class Setup:
    """A game's setup as the model needs it: the space and the facts known at the start."""

    space: Space
    facts: tuple[Tally, ...]


@dataclass(frozen=True)
class Status:
    """Where a game stands after its record, for a status line.

    e.g. Status(round=3, turn="Doris", value=8) (Goldraub), or Status(round=2, turn="Cy",
    out=("Ben",)) (Lima). ``turn`` is None when the record does not tell (no question yet);
    ``value`` is the round value of a game that has one; ``over`` says why the game has ended;
    ``notes`` what else a game shows of where it stands (e.g. the cards left in a deck).
    """

    round: int
    turn: Holder | None
    value: int | None = None
    out: tuple[Holder, ...] = ()
    over: str | None = None
    notes: tuple[str, ...] = ()  # what else the game shows of where it stands, e.g. "deck 30"
    counting: str = "round"  # what ``round`` counts, in words: "round", or "action" (solitaire)
