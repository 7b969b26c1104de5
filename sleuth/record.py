"""The game record: check the parsed YAML against a game's rules and build its model."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from sleuth.errors import InputError, label, nearest, shown
from sleuth.games import Game, part, reserved
from sleuth.games.base import Event, Table
from sleuth.games.shipped import GAMES
from sleuth.model import Model

COMMON_KEYS = ("game", "players", "me", "events")
UNWRITABLE = ("Cc", "Cs", "Zl", "Zp")  # control characters, lone surrogates, line breaks
SOLO = "me"  # the one player of a solitaire game whose record names none


@dataclass
class Record:
    """A parsed record: the game, the table, the setup as the game reads it, the events."""

    game: str
    table: Table
    start: Any
    events: list[Event]

    @property
    def rules(self) -> Game:
        """The game of this record, as the registry has it."""
        return GAMES[self.game]

    def event(self, kind: str, data: dict) -> Event:
        """A new event of this record's game from its fields, checked against the record."""
        return parse_event({kind: data}, self.rules, self.table, self.start)

    def upto(self, events: int) -> Record:
        """The record as it stood after its first ``events`` events (0: the setup alone)."""
        if not 0 <= events <= len(self.events):
            last = len(self.events)
            raise InputError("", "upto", f"{events} is not an event: 0 to {last}")
        return Record(self.game, self.table, self.start, self.events[:events])

    def forbidden(self) -> InputError | None:
        """The first event the rules forbid at its place, as an error naming it; None if none.

        Every analysis refuses such a record; loading it to list or repair it does not.
        """
        return self.rules.forbidden(self.events, self.table, self.start)

    def turn_note(self, index: int) -> str | None:
        """A note when event ``index`` (1-based) is a turn taken out of order, else None."""
        return self.rules.turn_note(self, index)

    def model(self) -> Model:
        """The record as a model of its deal: setup facts in group 0, then a group per event.

        For a game whose belief is the deal count (its ``deal`` part); LookupError for one
        that brings a belief of its own (``sleuth.belief``).
        """
        deal = part(self.rules, "deal", None)
        if deal is None:
            raise LookupError(f"{self.rules.title} has no deal: it brings its own belief")
        setup = deal(self.start, self.table)
        groups = [setup.facts] + [e.tallies(self.table, self.start) for e in self.events]
        labels = ["setup"] + [e.text() for e in self.events]
        return Model(setup.space, tuple(groups), tuple(labels))

    def public(self) -> Record:
        """The record as a spectator knows it: no ``me``, nothing that only I saw.

        The game's ``watched`` setup and each event's ``public`` form; an InputError for a
        game with no spectator's view.
        """
        watched = part(self.rules, "watched", None)
        if watched is None:
            raise InputError("", "public", f"{self.rules.title} has no spectator's view")
        table = Table(self.table.players, None)
        return Record(self.game, table, watched(self.start), [e.public() for e in self.events])

    def fields(self) -> dict:
        """The record as plain YAML-ready data, in the contract's key order."""
        out: dict[str, object] = {"game": self.game}
        if self.table.players != (SOLO,) or not self.rules.solitaire:
            out["players"] = list(self.table.players)
            out |= {} if self.table.me is None else {"me": self.table.me}
        out.update(self.rules.start_fields(self.start))
        out["events"] = [{e.kind: e.body()} for e in self.events]
        return out


def _players(value: Any) -> tuple[str, ...]:
    """The players list, checked: names, no repeats (ignoring case)."""
    if not isinstance(value, list) or not value:
        raise InputError("", "players", f"expected a list of names, got {shown(value)}")
    names: list[str] = []
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise InputError("", "players", f"{shown(name)} is not a name")
        broken = [c for c in name.strip() if unicodedata.category(c) in UNWRITABLE]
        if broken:
            code = f"U+{ord(broken[0]):04X}"
            message = f"{shown(name)} has a control character or line break ({code})"
            raise InputError("", "players", f"{message}: a name is one line of text")
        if name.strip().casefold() in {n.casefold() for n in names}:
            raise InputError("", "players", f"{shown(name)} is listed twice")
        if name.strip().casefold() in reserved():
            raise InputError("", "players", f"{shown(name)} is reserved for cards no one holds")
        names.append(name.strip())
    return tuple(names)


def _me(value: Any, players: tuple[str, ...], rules: Game) -> str | None:
    """The player whose knowledge the record holds; None (no ``me``) for a game watched."""
    if value is not None:
        return Table(players, None).player(value, "me")
    if part(rules, "watched", None) is None:
        message = f"{rules.title} is analysed from one player's seat: name that player"
        raise InputError("", "me", f"missing: {message}")
    return None


def parse_event(data: Any, rules: Game, table: Table, start: Any) -> Event:
    """One event from its record item: a mapping with one key, the event's kind."""
    if not isinstance(data, dict) or len(data) != 1:
        raise InputError("", "kind", f"expected a mapping with one key, got {shown(data)}")
    ((kind, fields),) = data.items()
    if kind not in rules.events:
        other = foreign(kind, rules)
        hint = nearest(str(kind), rules.events)
        if other is not None:
            hint = f": an event of {other.title}, not {rules.title}"
        raise InputError("", "kind", f"unknown event kind {shown(kind)}{hint}")
    return rules.events[kind].parse(fields, table, start)


def foreign(kind: Any, rules: Game) -> Game | None:
    """The other game whose event ``kind`` is, when ``rules`` has no such event; else None."""
    if kind in rules.events:
        return None
    return next((game for game in GAMES.values() if kind in game.events), None)


def parse(doc: Any, source: str) -> Record:
    """A record from parsed YAML; an InputError naming the source, event and field if unusable."""
    try:
        return _parse(doc)
    except InputError as error:
        raise error.located(source=source) from None


def _parse(doc: Any) -> Record:
    """``parse`` without the source filled in."""
    if not isinstance(doc, dict):
        raise InputError("", "", f"expected a mapping at the top, got {shown(doc)}")
    game = doc.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise InputError("", "game", f"{shown(game)} is not a game: {', '.join(GAMES)}")
    rules = GAMES[game]
    for key in doc:
        if key not in COMMON_KEYS + rules.setup_keys:
            hint = nearest(key, COMMON_KEYS + rules.setup_keys) if isinstance(key, str) else ""
            raise InputError("", label(key), f"unknown top-level key{hint}")
    alone = rules.solitaire and "players" not in doc
    players = (SOLO,) if alone else _players(doc.get("players"))
    table = Table(players, _me(doc.get("me", SOLO if alone else None), players, rules))
    try:
        start = rules.parse_start(doc, table)
    except InputError as error:
        raise error.located(event=0) from None
    items = doc.get("events")
    if items is None:  # absent, or `events:` with nothing after it: no events yet
        items = []
    if not isinstance(items, list):
        raise InputError("", "events", f"expected a list of events, got {shown(items)}")
    events = []
    for index, item in enumerate(items, 1):
        try:
            events.append(parse_event(item, rules, table, start))
        except InputError as error:
            raise error.located(event=index) from None
    return Record(game, table, start, events)
