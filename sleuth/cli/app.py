"""The Typer app: its environment, its one-line errors, the options and actions commands share."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any, cast

import typer
from rich.console import Console
from typer.core import TyperGroup

from sleuth.budget import COUNT_SHARE, DEFAULT_BUDGET, Deadline
from sleuth.cli.output import Stream, screen
from sleuth.cli.spinner import spinner
from sleuth.errors import InputError, nearest, printable
from sleuth.games import part
from sleuth.games.base import Table
from sleuth.games.shipped import GAMES

if TYPE_CHECKING:  # the installed Typer's own copy of Click
    from typer._click.exceptions import ClickException, UsageError

    from sleuth.session import Session
else:
    try:  # newer Typer carries its own copy of Click
        from typer._click.exceptions import ClickException, UsageError
    except ImportError:  # pragma: no cover - older Typer depends on Click
        from click.exceptions import ClickException, UsageError

DEFAULT_FILE = "game.yaml"
FILE_ENV = "SLEUTH_FILE"
CACHE_ENV = "SLEUTH_CACHE"  # a folder for remembered item orders; empty or "off": none


class ExitStatus(IntEnum):
    """What a command's exit status means."""

    OK = 0
    INTERNAL = 1
    BAD_INPUT = 2
    INCONSISTENT = 3
    INTERRUPTED = 130  # 128 + SIGINT: Ctrl-C ended the command


class Interrupted(BaseException):
    """Ctrl-C while a command ran, carried past Typer (which makes it a bare exit status 130)."""


@dataclass
class Env:
    """The outside world of a command: consoles and the environment (replaced in tests)."""

    out: Console = field(default_factory=lambda: console("stdout"))
    err: Console = field(default_factory=lambda: console("stderr"))
    environ: Any = field(default_factory=lambda: os.environ)
    recorded: Path | None = None  # the record this command has written, once it has
    started: float | None = None  # when this command started: its --budget counts from then
    born: float | None = None  # when the process started, for the one command of the script
    kept: dict = field(default_factory=dict)  # record path -> its memory, when no cache file
    wrap_errors: bool = False  # an error wrapped at words to the width (play at a terminal)
    sessions: dict = field(default_factory=dict)  # record path -> its ``Session``

    def session(self, record: Path) -> Session:
        """The application layer's session of this record file, made the first time it is asked.

        ``sleuth play`` runs every command in one environment: its status line reads the last
        belief a command's session made rather than counting the record a second time.
        """
        from sleuth.session import Session

        key = record.resolve()
        if key not in self.sessions:
            self.sessions[key] = Session(record, lambda: remembered(record))
        return self.sessions[key]

    def orders_file(self, record: Path) -> Path | None:
        """Where the remembered item order of this record lives (``sleuth.solve.memory``)."""
        return self.cache_file(record, "order", ".json")

    def cache_file(self, record: Path, kind: str, suffix: str = "") -> Path | None:
        """A file of the cache kept for this record, e.g. ``order-<key>.json`` or ``history-<key>``.

        ``$SLEUTH_CACHE``, else ``$XDG_CACHE_HOME/sleuth``, else ``~/.cache/sleuth``; None when
        the variable is set empty or to "off", or when the environment names no home.
        """
        chosen = self.environ.get(CACHE_ENV)
        if chosen is not None:
            folder = None if chosen.strip() in ("", "off") else Path(chosen)
        elif self.environ.get("XDG_CACHE_HOME"):
            folder = Path(self.environ["XDG_CACHE_HOME"]) / "sleuth"
        elif self.environ.get("HOME"):
            folder = Path(self.environ["HOME"]) / ".cache" / "sleuth"
        else:
            folder = None
        if folder is None:
            return None
        import hashlib  # not needed by --help

        key = hashlib.sha256(str(record.resolve()).encode()).hexdigest()[:20]
        return folder / f"{kind}-{key}{suffix}"


def console(name: str) -> Console:
    """A console on ``sys.<name>`` that never raises, for any terminal size the environment has."""
    file = cast("IO[str]", Stream(name))  # a text stream by its duck type: write, flush, isatty
    return Console(file=file, highlight=False, _environ=screen(os.environ))


ENV = Env()
CURRENT: ContextVar[Env] = ContextVar("environment")  # the running command's, if given


class OneLineErrors(TyperGroup):
    """The command group, with a bad command line reported on one line like any bad input."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        """Run a command; a usage error becomes one line on stderr and exit status 2.

        ``obj``: the command's ``Env`` (else the process's, ``ENV``), which ``env()`` gives
        while it runs; e.g. ``app(args, obj=Env(environ={}))`` in a test.
        """
        given = extra.get("obj")
        token = CURRENT.set(given) if isinstance(given, Env) else None
        try:
            return self._main(
                args, prog_name, complete_var, standalone_mode, windows_expand_args, extra
            )
        finally:
            if token is not None:
                CURRENT.reset(token)

    def _main(
        self,
        args: Sequence[str] | None,
        prog_name: str | None,
        complete_var: str | None,
        standalone_mode: bool,
        windows_expand_args: bool,
        extra: dict[str, Any],
    ) -> Any:
        """``main`` within the command's environment."""
        env().recorded, env().started = None, env().born or time.monotonic()
        env().born = None
        try:
            status = super().main(
                args, prog_name, complete_var, False, windows_expand_args, **extra
            )
        except ClickException as error:
            if not standalone_mode:
                raise
            if type(error).__name__ == "NoArgsIsHelpError":
                error.show()
                sys.exit(ExitStatus.BAD_INPUT)
            env().err.print(usage_line(error), markup=False, emoji=False, soft_wrap=True)
            sys.exit(ExitStatus.BAD_INPUT)
        if not standalone_mode:
            return status
        sys.exit(delivered(status if isinstance(status, int) else ExitStatus.OK))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """``sleuth`` alone: a short usage on stderr, exit status 2 (``sleuth help``: all)."""
        if not args and not ctx.resilient_parsing:
            env().err.print(USAGE, markup=False, emoji=False, highlight=False, soft_wrap=True)
            raise typer.Exit(ExitStatus.BAD_INPUT)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        """Run the command; Ctrl-C while it runs raises Interrupted, for the caller to end it."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted from None


USAGE = f"""\
usage: sleuth new GAME --players A,B,C --me A --hand ...: a new record
           GAME: {", ".join(GAMES)}
       sleuth play
           one prompt for the whole game at the table
       sleuth help [COMMAND]
           every command, or one command's arguments and options"""


def delivered(status: int) -> int:
    """The exit status once the output is out: exit 2 if it was lost, unless a record was written.

    A command that has written the record keeps its status (0, or 3 when the record no longer
    fits a deal) and notes the lost output on stderr.
    """
    out = env().out.file
    fault = out.taken() if isinstance(out, Stream) else None
    if fault is None:
        return status
    if env().recorded:
        warn(f"recorded in {env().recorded}, but the output is lost ({fault})")
        return status
    line = f"sleuth: cannot write the output ({fault})"
    env().err.print(line, markup=False, emoji=False, soft_wrap=True)
    return ExitStatus.BAD_INPUT


def usage_line(error: ClickException) -> str:
    """A bad command line in one line: "sleuth: sleuth search: Missing argument 'ROW'. (...)"."""
    where = getattr(getattr(error, "ctx", None), "command_path", None) or "sleuth"
    command = "" if where == "sleuth" else f"{where}: "
    message = " ".join(error.format_message().split())
    return printable(f"sleuth: {command}{message} (see {where} --help)")


ADVICE_HELP = " ".join(
    f"{g.title}, {words}" for g in GAMES.values() if (words := part(g, "advice_help", ""))
)

app = typer.Typer(
    cls=OneLineErrors,
    help=f"A deduction assistant for {' and '.join(g.title for g in GAMES.values())}.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)


def show_version(wanted: bool) -> None:
    """``--version``: print "sleuth X.Y.Z" (the installed package's version) and stop."""
    if wanted:
        from importlib.metadata import version

        env().out.print(f"sleuth {version('sleuth')}", markup=False)
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=show_version, help="Print the version."),
    ] = False,
) -> None:
    """The options before any command (their callbacks act)."""


class Games(TyperGroup):
    """The ``new`` group: one command per registered game, a game it does not know named so."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """The game's ``new`` command; a usage error naming the games for an unknown one."""
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            known = ", ".join(sorted(self.commands))
            hint = nearest(args[0].casefold(), self.commands)
            raise UsageError(f"{args[0]!r} is not a game: {known}{hint}", ctx)
        return super().resolve_command(ctx, args)


starting = typer.Typer(
    cls=Games,
    help="Start a new record: 'sleuth new GAME --players A,B,C --me A --hand ...'; a solitaire "
    "game needs none of them.",
    no_args_is_help=True,
)
app.add_typer(starting, name="new")

FileOpt = Annotated[
    Path | None,
    typer.Option(
        "--file",
        "-f",
        help=f"The game record (default: ${FILE_ENV}, else ./{DEFAULT_FILE}).",
        show_default=False,
    ),
]
BUDGET = DEFAULT_BUDGET


def seconds(value: float) -> float:
    """A time option's value: a number of seconds, 0 or more (``inf``: no limit; ``nan``: no)."""
    if value != value:  # nan passes every comparison min= makes
        raise typer.BadParameter("nan is not a number of seconds")
    return value


BudgetOpt = Annotated[
    float,
    typer.Option(
        min=0.0,
        callback=seconds,
        help=f"Seconds for the answer: an exact count may take {COUNT_SHARE:.0%}, an estimate "
        "the rest.",
    ),
]
TolerateOpt = Annotated[
    int,
    typer.Option(
        min=0,
        max=1,
        help="1: count the deals that contradict at most one recorded answer, and mark the "
        "facts that stay certain if any one answer is wrong.",
    ),
]
DIGITS = 9  # the most digits a number typed on the command line may have


def number(text: str | int) -> int:
    """A number as typed: ASCII digits, a minus allowed; not 1_0, a full-width １ or 9e9.

    e.g. number("12") == 12, number("-1") == -1 (the command then says there is no event -1).
    """
    if isinstance(text, int):
        return text
    if not (text.removeprefix("-").isascii() and text.removeprefix("-").isdigit()):
        raise typer.BadParameter(f"{text!r} is not a number (the digits 0-9)")
    if len(text.removeprefix("-")) > DIGITS:
        raise typer.BadParameter(f"{text!r} is too large (at most {DIGITS} digits)")
    return int(text)


BeforeOpt = Annotated[
    int | None,
    typer.Option(
        metavar="N", parser=number, help="Put the event before event N instead of at the end."
    ),
]
UptoOpt = Annotated[
    int | None,
    typer.Option(
        metavar="N",
        parser=number,
        help="As if the record ended after event N (0: the setup alone).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the JSON report of the contract.")]
PublicOpt = Annotated[
    bool,
    typer.Option(
        "--public", help="What the table alone tells: as a spectator, with no cards, sees it."
    ),
]
PlayersOpt = Annotated[str, typer.Option(help="Names in seating order, clockwise: A,B,C")]
MeOpt = Annotated[str, typer.Option(help="Whose knowledge the record holds.")]
WatchOpt = Annotated[
    str | None,
    typer.Option("--me", help="Whose knowledge the record holds; left out, with --hand, to watch."),
]
ForceOpt = Annotated[bool, typer.Option(help="Overwrite an existing record.")]


def answer_due(budget: float) -> Deadline:
    """The deadline of the command's answer: ``budget`` seconds after the command started."""
    return Deadline(budget, start=env().started)


def warn(message: str) -> None:
    """A note on stderr, before the record is rewritten."""
    line = f"sleuth: note: {printable(message)}"
    env().err.print(line, markup=False, emoji=False, soft_wrap=True)


def record_path(given: Path | None) -> Path:
    """The record's path: the option, else the environment variable, else ./game.yaml."""
    return given or Path(env().environ.get(FILE_ENV) or DEFAULT_FILE)


def fail(error: InputError, command: str | None = None) -> typer.Exit:
    """Print a one-line input error on stderr and give the exit to raise.

    One line for scripts; a person at ``sleuth play``'s prompt gets it wrapped at words.
    """
    if command and not error.source:
        error = error.located(source=command)
    text = f"sleuth: {error.line()}"
    env().err.print(text, markup=False, emoji=False, soft_wrap=not env().wrap_errors)
    return typer.Exit(ExitStatus.BAD_INPUT)


def split(value: str) -> list[str]:
    """A comma-separated option as a list."""
    return [part.strip() for part in value.split(",") if part.strip()]


@contextmanager
def remembered(path: Path) -> Iterator[Any]:
    """The record's remembered order and facts, for one command's counts; saved back after.

    With no cache folder, they are kept in the process (``sleuth play``'s next entry).
    """
    from sleuth.solve.memory import Remembered

    where = env().orders_file(path)
    if where is None:
        yield env().kept.setdefault(path.resolve(), Remembered())
        return
    memory = Remembered.load(where)
    yield memory
    memory.save(where)


def record_event(
    file: Path | None,
    command: str,
    kind: str,
    fields: dict,
    budget: float = BUDGET,
    before: int | None = None,
):
    """Record one event: check it, add it atomically, print the update and return it.

    ``before``: the number of the event to put it before, instead of at the end.
    """
    from sleuth.render.common import show_update

    path = record_path(file)
    session = env().session(path)
    try:
        record = session.append(kind, fields, command, warn, before)
    except InputError as error:
        raise fail(error, command) from None
    env().recorded = path
    at = len(record.events) if before is None else before
    with spinner(env().err, "counting the deals that fit the record..."):
        result = session.update(record, answer_due(budget), at)
    where = "" if before is None else f" as event {at} of {len(record.events)}"
    show_update(env().out, result, record.events[at - 1].text(), where)
    if not result.report.consistent:
        raise typer.Exit(ExitStatus.INCONSISTENT)
    from sleuth.render import show_update as game_update

    game_update(env().out, result.report)
    return result


def player_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """The shell's completion of a player's name, from the record (read only when asked).

    Names match in any case, and keep the case typed so far (the shell drops the others).
    """
    from sleuth.store import load

    try:
        players = load(record_path(ctx.params.get("file")), keep=False)[0].table.players
    except InputError:
        return []
    wanted = incomplete.casefold()
    chosen = [name for name in players if name.casefold().startswith(wanted)]
    return [incomplete + name[len(incomplete) :] for name in chosen]


def player(text: str) -> Any:
    """A command's argument naming a player, its help ``text``, completed from the record."""
    return typer.Argument(help=text, autocompletion=player_names)


def loaded(file: Path | None, command: str):
    """The record at the given path; exit 2 on unusable input."""
    try:
        return env().session(record_path(file)).load()
    except InputError as error:
        raise fail(error, command) from None


def analysable(file: Path | None, command: str, upto: int | None = None, public: bool = False):
    """The record for an analysis (``upto``: its first N events); exit 2 if a rule forbids one.

    The rules are checked on the whole record, whatever ``upto`` keeps (``Session.analysable``).
    Every analysis loads its record so; listing and repairing it (``loaded``) do not ask.
    ``public``: the record as a spectator knows it.
    """
    try:
        return env().session(record_path(file)).analysable(upto, public)
    except InputError as error:
        raise fail(error, command) from None


def analyse(
    file: Path | None,
    budget: float,
    command: str,
    tolerate: int = 0,
    upto: int | None = None,
    dating: bool = True,
    estimating: bool = True,
    public: bool = False,
):
    """Load the record (``upto``: its first N events) and analyse it; exit 2 on unusable input.

    ``public``: as a spectator knows the record (``Record.public``).
    """
    record = analysable(file, command, upto, public)  # before the analysis loads: quick refusals
    return counted(record, file, budget, tolerate, dating, estimating, command)


def counted(
    record,
    file: Path | None,
    budget: float,
    tolerate: int = 0,
    dating: bool = True,
    estimating: bool = True,
    command: str = "sleuth",
):
    """The belief of a loaded record (``analysable``), made within ``budget``, with a spinner.

    ``dating``, ``estimating``: as ``analysis.report``. One the game refuses (``--tolerate``)
    is exit 2, naming ``command``.
    """
    session = env().session(record_path(file))
    counting = spinner(env().err, "counting the deals that fit the record...")
    try:
        with counting:
            return session.believe(record, answer_due(budget), tolerate, dating, estimating)
    except InputError as error:
        raise fail(error, command) from None


def start(
    file: Path | None, force: bool, game: str, players: str, me: str | None, hand: str | None, more
):
    """Start a record of ``game`` (``new GAME``); ``more(table)`` gives the game's setup fields.

    Without ``me`` and ``hand``: a game watched, where the game admits one.
    """
    mine = {} if hand is None else {"hand": split(hand)}
    begin(file, force, game, players, me, lambda table: mine | more(table))


def begin(
    file: Path | None, force: bool, game: str, players: str | None, me: str | None, setup
) -> None:
    """Start a record of ``game``: the players, me, then ``setup(table)``, its setup fields.

    A solitaire game's record names no players (``players`` None), a game watched no ``me``.
    """
    from sleuth.record import SOLO
    from sleuth.store import create

    path = record_path(file)
    names = [SOLO] if players is None else split(players)
    try:
        table = Table(tuple(names), names[0] if names else "")
        doc: dict = {"game": game}
        if players is not None:
            doc["players"] = names
        if players is not None and me is not None:
            doc["me"] = table.prefix(me, "me")
        doc.update(setup(table))
        record = create(path, doc, "sleuth new", force, warn)
    except InputError as error:
        raise fail(error, "sleuth new") from None
    env().recorded = path
    listed = ", ".join(record.table.players)
    seat = "watched" if record.table.me is None else f"me: {record.table.me}"
    who = "" if players is None else f", {listed}; {seat}"
    env().out.print(f"started {path}: {record.game}{who}", markup=False, soft_wrap=True)


def show_json(data: Any) -> None:
    """``data`` as JSON on stdout, indented by two: coloured on a terminal, else plain text.

    Plain, it is the text Rich would print without colour, in a sixth of the time (Rich
    highlights every token). Names are escaped where stdout's encoding is not UTF.
    """
    import json

    out = env().out
    ascii_only = not out.encoding.startswith("utf")  # escapes keep every name exact
    text = json.dumps(data, indent=2, ensure_ascii=ascii_only)
    if out.is_terminal:
        out.print_json(text, ensure_ascii=ascii_only)
    else:
        out.print(text, markup=False, highlight=False, soft_wrap=True)


def env() -> Env:
    """The running command's environment: the ``Env`` it was given, else the process's."""
    return CURRENT.get(ENV)
