"""The games sleuth knows: the ``Game`` protocol and the registry of games, by name.

A game is one package under ``sleuth/games``, holding everything particular to it: its board
data, its setup and events, scoring, its terminal picture, its guess or accusation check and
its commands. The rest of sleuth reaches a game only through the ``Game`` protocol below,
found by name in ``GAMES``; e.g. ``GAMES["goldraub"].events["search"]`` is the class of a
recorded search. The shipped games register once, when ``sleuth.games.shipped`` is imported
(as ``sleuth.record`` does); this module imports none of them, so that a game's own modules
may use the shared ones (``sleuth.render.common``) without a cycle.

A game's commands and its ``check`` are its ``interface`` module, named by the game and
imported by the command line alone (``interface``), so that reading a record loads neither
Typer nor Rich. The module holds:

- ``commands(cli) -> list[Callable]``: the game's commands, built on the command line's
  shared options and actions (``cli`` is ``sleuth.cli.commands.KIT``); the first is its
  ``new``;
- ``target(record, first, second)``: the guess or accusation ``check FIRST SECOND`` names,
  checked (an InputError if it is none);
- ``check(console, report, target, deadline)``: weigh ``target`` now (given None, the best
  moves) and show the verdict;
- ``check_json(report, target, deadline) -> dict``: the same as the contract's
  ``check --json`` object.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from sleuth.games.base import Event, Setup, Status, Table

if TYPE_CHECKING:
    from fractions import Fraction

    from rich.console import Console

    from sleuth.analysis import Report
    from sleuth.budget import Deadline
    from sleuth.errors import InputError
    from sleuth.record import Record
    from sleuth.replay import Judged, Step
    from sleuth.solve import Remembered


@runtime_checkable
class Game(Protocol):
    """One game as the record, the analyses and the command line need it."""

    name: str  # e.g. "goldraub": the record's ``game``
    title: str  # e.g. "Goldraub in London"
    setup_keys: tuple[str, ...]  # the record's setup fields, e.g. ("hand", "rounds")
    events: dict[str, type[Event]]  # event kind -> its class
    reserved: tuple[str, ...]  # holders that are not players, e.g. ("aside",)
    check_help: tuple[str, str]  # what ``check`` takes, e.g. ("the owner", "the sector")
    short_forms: tuple[tuple[str, str], ...]  # ``sleuth play``'s short forms: (form, its meaning)
    advice_help: str  # how ``next`` and ``check`` weigh a move now against later, or ""
    interface: str  # the module of its commands and checks, which only the command line imports

    def parse_start(self, doc: dict, table: Table) -> Any:
        """The typed setup (``Record.start``) from the record's setup fields."""

    def setup(self, start: Any, table: Table) -> Setup:
        """The deal's space and the facts known at the start."""

    def start_fields(self, start: Any) -> dict:
        """The setup fields as the record writes them."""

    def forbidden(self, events: list[Event], table: Table, start: Any) -> InputError | None:
        """The first event the rules forbid at its place in ``events``, as an error, or None."""

    def turn_note(self, events: list[Event], table: Table, index: int) -> str | None:
        """A note when event ``index`` (1-based) is a turn taken out of order, else None."""

    def details(self, report: Report, deadline: Deadline) -> Any:
        """What the game's screens show beyond the common report, computed once (or None)."""

    def show_report(self, console: Console, report: Report) -> None:
        """The full report on screen."""

    def show_update(self, console: Console, report: Report) -> None:
        """Lines of the game's own after the compact update of a recorded event."""

    def json_extras(self, report: Report) -> dict:
        """The game's own keys of the JSON report."""

    def check_options(self, record: Record, given: dict) -> None:
        """Refuse a bad ``next`` option (``given`` as ``advise`` takes it) before any count."""

    def advise(self, report: Report, given: dict, deadline: Deadline | None = None) -> Any:
        """The questions of my next turn; ``given``: the ``next`` options that were given.

        With a ``deadline``, a question not counted by then is left out and named.
        """

    def show_advice(self, console: Console, advice: Any) -> None:
        """The advice on screen."""

    def advice_json(self, advice: Any) -> dict:
        """The advice as ``next --json`` prints it."""

    def judge(
        self, record: Record, steps: list[Step], budget: float, memory: Remembered, tick: Any
    ) -> Judged:
        """A replay's steps judged: best moves, the recorded moves, marks, summary, JSON keys.

        ``budget``: seconds for each count the game makes; ``tick()`` once per step judged.
        """

    def plainly(self, record: Record, index: int) -> str:
        """What the setup (index 0) or event ``index`` states, as a clause in plain words.

        ``sleuth why`` joins these into its reason, e.g. "Anton searched 13-57 at event 1: no
        other player holds a sector of it", so each must say exactly what its tallies say.
        """

    def status(self, record: Record) -> Status:
        """Where the game stands: the round, whose turn it is, the round value, who is out."""

    def best(self, report: Report) -> tuple[str, Fraction] | None:
        """My best guess or accusation now and its probability, e.g. ("Bert 33", 2/5), or None."""

    def expand(self, record: Record, words: list[str]) -> list[str] | None:
        """The full command a short form of ``sleuth play`` stands for, or None if it is none."""

    def complete(self, record: Record, words: list[str]) -> tuple[str, ...]:
        """Words that may come next in a short form begun with ``words`` (the first: [])."""

    def vocabulary(self, record: Record, command: str, param: str) -> tuple[str, ...]:
        """Words that fill parameter ``param`` of ``command`` (e.g. "row": the 21 rows)."""


GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` known by its name (the built-in games register below)."""
    GAMES[game.name] = game
    return game


def interface(game: Game) -> Any:
    """The module of ``game``'s commands and checks (``Game.interface``), imported now."""
    return importlib.import_module(game.interface)


def reserved() -> set[str]:
    """Names no player may take, in any game: the holders that are not players."""
    return {name.casefold() for game in GAMES.values() for name in game.reserved}
