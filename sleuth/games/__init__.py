"""The games sleuth knows: the rules core every game has, its optional parts, and the registry.

A game is one package under ``sleuth/games``. What the record needs of it is its rules core,
the ``Game`` protocol below: its name and setup fields, its events, the rules at entry and
where the game stands. Nothing in it touches a screen or the command line, so reading a record
loads neither Rich nor Typer.

Everything else a game may bring is an optional *part*, named in ``Game.parts`` as
``"module:attribute"`` and found at run time by the layer that uses it (``part``), which also
holds the part's shared default; e.g. ``"details": "sleuth.games.goldraub.advice:standing"``
gives the report's details, and a game without a ``"details"`` part gets
``sleuth.analysis.no_details``. The parts, by the layer that calls them:

- the belief (``sleuth.beliefs``): ``believe(record, deadline) -> Belief`` (``sleuth.belief``),
  a game's own; without it, the exact count of the deals (``sleuth.analysis``), for which the
  game names its ``deal(start, table) -> Setup``: the deal's space and the facts known at the
  start;
- the record (``sleuth.record``): ``watched(start) -> start``, the setup as a spectator knows
  it (nothing from a hand of one's own): a game with it admits a record without ``me``, a
  game watched, and gives every record its public view (``Record.public``);
- analyses (``sleuth.analysis``, ``sleuth.beliefs``, ``sleuth.session``, ``sleuth.replay``):
  ``details``, ``best``, ``check_options``, ``advise``, ``judge``;
- screens (``sleuth.render``): ``show_report``, ``show_update``, ``json_extras``,
  ``show_advice``, ``advice_json``, ``plainly``, ``short`` (an event in a few words);
- the command line (``sleuth.cli``): ``commands``, ``target``, ``check``, ``check_json``,
  ``check_help``, ``advice_help``, ``advice_options`` (``next``'s, ``base.Choice``),
  ``advice_budget`` (``next``'s default seconds, for a search that improves with time), and
  ``play``'s ``short_forms``, ``expand``, ``complete``
  and ``vocabulary``.

A part is never imported by a module below its layer, so the layers go one way;
``tests/conformance/test_parts.py`` checks that every named part exists and takes what its
default takes.
Games are registered explicitly, by ``sleuth.games.shipped``.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sleuth.games.base import Event, Status, Table

if TYPE_CHECKING:
    from sleuth.errors import InputError

T = TypeVar("T")


class Played(Protocol):
    """A record as its game's rules core reads it: the table, the setup and the events."""

    @property
    def table(self) -> Table: ...

    @property
    def start(self) -> Any: ...

    @property
    def events(self) -> Sequence[Event]: ...


class Game(Protocol):
    """One game's rules core: what the record needs of it (its belief is a part)."""

    @property
    def name(self) -> str:
        """e.g. "goldraub": the record's ``game``."""

    @property
    def title(self) -> str:
        """e.g. "Goldraub in London"."""

    @property
    def setup_keys(self) -> tuple[str, ...]:
        """The record's setup fields, e.g. ("hand", "rounds")."""

    @property
    def events(self) -> dict[str, type[Event]]:
        """Event kind -> its class."""

    @property
    def reserved(self) -> tuple[str, ...]:
        """Holders that are not players, e.g. ("aside",)."""

    @property
    def solitaire(self) -> bool:
        """Whether one plays alone: the record's ``players`` and ``me`` may be left out."""

    @property
    def parts(self) -> dict[str, str]:
        """The game's optional parts: name -> "module:attribute" (see the module's text)."""

    def parse_start(self, doc: dict, table: Table) -> Any:
        """The typed setup (``Record.start``) from the record's setup fields."""

    def start_fields(self, start: Any) -> dict:
        """The setup fields as the record writes them."""

    def forbidden(self, events: list[Event], table: Table, start: Any) -> InputError | None:
        """The first event the rules forbid at its place in ``events``, as an error, or None."""

    def turn_note(self, record: Played, index: int) -> str | None:
        """A note when event ``index`` (1-based) is a turn taken out of order, else None."""

    def status(self, record: Played) -> Status:
        """Where the game stands: the round, whose turn it is, the round value, who is out."""


PARTS = (
    *("deal", "believe", "watched"),
    *("details", "best", "advice_options", "check_options", "advise", "judge"),
    *("show_report", "show_update", "json_extras", "show_advice", "advice_json", "plainly"),
    "short",
    *("commands", "target", "check", "check_json", "check_help", "advice_help", "advice_budget"),
    *("short_forms", "expand", "complete", "vocabulary"),
)  # every part a game may bring, by name

GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` known by its name (the shipped games register in ``sleuth.games.shipped``)."""
    GAMES[game.name] = game
    return game


def part(game: Game, name: str, default: T) -> T:
    """The game's part ``name`` (``Game.parts``), imported now, or ``default`` if it has none.

    e.g. ``part(game, "details", no_details)(report, deadline)``.
    """
    if name not in PARTS:
        raise KeyError(f"{name!r} is no part a game may bring")
    where = game.parts.get(name)
    if where is None:
        return default
    module, _, attribute = where.partition(":")
    return getattr(importlib.import_module(module), attribute)


def reserved() -> set[str]:
    """Names no player may take, in any game: the holders that are not players."""
    return {name.casefold() for game in GAMES.values() for name in game.reserved}
