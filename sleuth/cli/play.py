"""Table mode: ``sleuth play``, one warm sitting for a whole game on one record.

Each line is a command of the app with its usual words and options, without ``sleuth`` and
``--file`` (which the sitting adds), or a short form of the record's game (its ``expand``),
or one of the aliases below; it runs in this process, through the app's own command group, so
every command the app has works here, with the same output, errors and exit statuses. After
each line the sitting rereads the record if a command changed it, and states where the game
stands (``status_line``). The prompt itself (prompt_toolkit) is in ``sleuth.cli.prompt``; with
stdin not a terminal, ``script`` reads the lines from it instead.
"""

from __future__ import annotations

import shlex
import textwrap
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from sleuth.cli import forms
from sleuth.cli.app import (
    ClickException,
    ExitStatus,
    FileOpt,
    Interrupted,
    app,
    delivered,
    env,
    fail,
    loaded,
    record_path,
)
from sleuth.cli.completion import ALIASES, HELP, LEAVE, REFUSED
from sleuth.cli.status import Part, status_parts
from sleuth.errors import InputError, nearest, printable
from sleuth.games.shipped import GAMES
from sleuth.games.shorthand import SOURCE

STATUS_BUDGET = 5.0  # seconds for the status line's own count, when no command made one
LONGEST_LINE = 1000  # characters in one entry: a longer one is refused before it is split
INTERRUPTED = "sleuth: interrupted; the record is as last written"


class Leave(Exception):
    """The player asked to leave the sitting (quit, exit)."""


def _forms() -> str:
    """Each game's short forms, for ``sleuth play --help``."""
    lines = []
    for game in GAMES.values():
        said = "; ".join(f"'{form}' ({meaning})" for form, meaning in forms.short_forms(game))
        if said:
            lines.append(f"{game.title}: {said}.")
    return "\n\n".join(lines)


PLAY_HELP = f"""Table mode: one prompt for a whole game on this record.

Type any command as on the command line, without --file ('sleuth' may be left out or kept,
as a suggested 'sleuth edit 3 gold=1' shows it): 'search an 31-36 --gold 2
--saw 1', 'report', 'check bert 32', 'undo', 'edit 3 gold=1'. A short form is shown expanded
before its answer; options after it go to its command ('an 31-36 2 1 --before 4'). 'help'
lists the commands, the short forms and the keys.

{_forms()}

Aliases: {", ".join(f"{short} {long}" for short, long in ALIASES.items())}.

Tab completes commands, options, players, rows, sectors, ranges, locations and terrains; the
history of each record is kept in the cache folder. A rejected line comes back for editing.
Every entry that changes the record has written it before the next prompt. Ctrl-C drops the
line; Ctrl-D, quit or exit leaves (exit status 0).

With stdin not a terminal, the commands are read from it line by line, with no prompt, and
their output printed as they run; the exit status is then the highest of theirs."""


def reflowed(text: str) -> str:
    """Each paragraph of a help text on one line, for the help screen to wrap at its width.

    Square brackets are escaped: the help is Rich markup, where ``[@SPACE]`` would vanish.
    """
    return "\n\n".join(escape(" ".join(part.split())) for part in text.split("\n\n"))


@app.command(help=reflowed(PLAY_HELP))
def play(file: FileOpt = None) -> None:
    """Table mode: one prompt for a whole game on this record."""
    path = record_path(file)
    sitting = Sitting(path, typer.main.get_command(app), loaded(file, "sleuth play"))
    sitting.refresh(force=True)
    if not _terminal():
        status = script(sitting, _lines())
    else:
        from sleuth.cli.prompt import reader  # prompt_toolkit: for this command alone

        env().wrap_errors = True  # a person reads them, at the terminal's width
        status = interactive(sitting, reader(sitting))
    raise typer.Exit(status)


def _terminal() -> bool:
    """Whether stdin and stdout are both terminals (else no prompt is drawn)."""
    import sys

    return sys.stdin.isatty() and sys.stdout.isatty()


def _lines() -> Iterator[str]:
    """The lines of stdin, as they come."""
    import sys

    yield from sys.stdin


def script(sitting: Sitting, lines: Iterable[str]) -> int:
    """Run each line as an entry until the end or quit; the highest exit status of them.

    Ctrl-C ends the sitting at once (exit status 130): no line after it is run.
    """
    worst: int = ExitStatus.OK
    try:
        for line in lines:
            worst = max(worst, sitting.enter(line))
    except Leave:
        pass
    except KeyboardInterrupt:
        env().err.print(INTERRUPTED, markup=False)
        return ExitStatus.INTERRUPTED
    return int(worst)


def interactive(sitting: Sitting, read: Callable[[str, str], str]) -> int:
    """Prompt for lines until Ctrl-D or quit; a rejected line comes back for editing.

    ``read(prompt, default)`` gives the next line; it raises KeyboardInterrupt on Ctrl-C (the
    line is dropped) and EOFError on Ctrl-D (the sitting ends, exit status 0).
    """
    again = ""
    while True:
        try:
            line = read(sitting.prompt(), again)
        except KeyboardInterrupt:
            again = ""
            continue
        except EOFError:
            return ExitStatus.OK
        try:
            status = sitting.enter(line)
        except Leave:
            return ExitStatus.OK
        except KeyboardInterrupt:  # Ctrl-C while a command runs: every write is atomic
            env().err.print(INTERRUPTED, markup=False)
            with suppress(KeyboardInterrupt):  # a second Ctrl-C: the next entry rereads it
                sitting.refresh()
            status = ExitStatus.OK
        again = line if status == ExitStatus.BAD_INPUT and len(line) <= LONGEST_LINE else ""


@dataclass
class Sitting:
    """A sitting at the table: one record, the app's command group, what the status line shows.

    e.g. Sitting(Path("game.yaml"), typer.main.get_command(app), record); ``stamp`` is the
    file's identity when ``record`` was read, ``status`` the status line's parts for it.
    """

    path: Path
    group: Any
    record: Any
    stamp: tuple = ()
    status: list[Part] = field(default_factory=list)

    @property
    def commands(self) -> dict[str, Any]:
        """The app's commands by name."""
        return self.group.commands

    def offered(self) -> list[str]:
        """The commands help and completion offer: not ``new`` and ``play``, nor another game's.

        Another game's: its events' (the shared recording commands) and those its own package
        defines (its ``commands`` part).
        """
        rules = self.record.rules
        foreign = {kind for g in GAMES.values() if g is not rules for kind in g.events}
        foreign -= set(rules.events)  # a kind two games share is this one's too
        mine = type(rules).__module__ + "."

        def theirs(name: str) -> bool:
            module = getattr(self.commands[name].callback, "__module__", "") or ""
            return module.startswith("sleuth.games.") and not module.startswith(mine)

        return [
            name
            for name in self.commands
            if name not in foreign and name not in REFUSED and not theirs(name)
        ]

    def prompt(self) -> str:
        """The prompt: the record's file name."""
        return f"{self.path.name}> "

    def enter(self, line: str) -> int:
        """Run one line; its exit status (2: rejected, or its output lost). Leave: quit.

        Output lost by the sitting's own lines (``help``) is noted here, as each command notes
        its own (``delivered``): an entry that records nothing and lost its output is exit 2.
        """
        env().recorded = None
        return delivered(self.run(line))

    def run(self, line: str) -> int:
        """Run one line as ``enter`` does, its lost output not yet noted."""
        length = len(line.rstrip("\r\n"))
        if length > LONGEST_LINE:  # shlex takes time quadratic in a line's length
            message = f"a line of {length:,} characters is too long (at most {LONGEST_LINE:,})"
            return self.refuse(InputError(SOURCE, "", message))
        try:
            words = shlex.split(line)
        except ValueError as error:
            return self.refuse(InputError(SOURCE, "", f"{error} in {line.strip()!r}"))
        if not words:
            return ExitStatus.OK
        if words[0] in LEAVE:
            raise Leave
        if words[0] in HELP:
            return self.help(words[1:])
        try:
            args = self.expand(words)
        except InputError as error:
            return self.refuse(error)
        if args[: len(words)] != words:
            env().out.print(f"= {shlex.join(args)}", style="dim", markup=False, highlight=False)
        status = self.dispatch(self.with_file(args))
        self.refresh()
        env().out.file.flush()  # the answer out before the next line's, on a pipe too
        return status

    def refuse(self, error: InputError) -> int:
        """Show a refused line's one-line error; exit status 2."""
        fail(error)
        return ExitStatus.BAD_INPUT

    def expand(self, words: list[str]) -> list[str]:
        """The full command a line stands for: itself, a short form's, or an alias's.

        A leading ``sleuth`` is dropped, so that a command the screens suggest (a repair's
        ``sleuth edit 23 gold=2``) can be typed as shown.
        """
        if words[0] == "sleuth" and len(words) > 1:
            words = words[1:]
        first = words[0]
        if first in REFUSED:
            message = f"'{first}' is not for inside a session: quit, then run 'sleuth {first}'"
            raise InputError(SOURCE, "", message)
        known = first in self.commands
        args = words if known else self.short_form(words)
        if args is None and ALIASES.get(first) in self.commands:
            args = [ALIASES[first], *words[1:]]
        if args is None:
            hint = nearest(first, self.offered())
            message = f"{first!r} is not a command or a short form{hint}; 'help' lists them"
            raise InputError(SOURCE, "", message)
        if self.names_file(args):
            raise InputError(SOURCE, "file", f"the session keeps to {self.path}: no --file here")
        return args

    def short_form(self, words: list[str]) -> list[str] | None:
        """The command a short form stands for, its options (``--before 5``) passed on after it.

        The form is the words before the first option; None when they are no short form.
        """
        cut = next((k for k, word in enumerate(words) if word.startswith("--")), len(words))
        args = forms.expand(self.record, words[:cut])
        return None if args is None else [*args, *words[cut:]]

    def command(self, args: list[str]) -> tuple[Any, int, bool]:
        """The command ``args`` name, how many words name it, and whether it takes ``--file``."""
        command, depth = self.group, 0
        while depth < len(args) and args[depth] in getattr(command, "commands", {}):
            command, depth = command.commands[args[depth]], depth + 1
        takes = any("--file" in getattr(p, "opts", ()) for p in getattr(command, "params", ()))
        return command, depth, bool(depth) and takes

    def names_file(self, args: list[str]) -> bool:
        """Whether ``args`` give the file option, in any spelling (-fX, -f=X, --file=X, -1fX).

        Click itself reads the line, as the command will (without running anything), so no
        spelling it takes for the option escapes; a line it cannot read runs nothing anyway.
        """
        command, depth, takes = self.command(args)
        if not takes:
            return any(word == "-f" or word.startswith("--file") for word in args)
        try:
            context = command.make_context(args[0], args[depth:], resilient_parsing=True)
        except ClickException:
            return False
        return context.params.get("file") is not None

    def with_file(self, args: list[str]) -> list[str]:
        """``args`` with ``--file PATH`` after the command's name, if the command takes it."""
        _, depth, takes = self.command(args)
        if not takes:
            return args
        return [*args[:depth], "--file", str(self.path), *args[depth:]]

    def dispatch(self, args: list[str]) -> int:
        """Run one command line of the app in process; its exit status (1: a bug, shown)."""
        try:
            self.group.main(args=args, prog_name="sleuth", standalone_mode=True)
        except Interrupted:
            raise KeyboardInterrupt from None
        except SystemExit as done:
            code = done.code
            return code if isinstance(code, int) else ExitStatus.OK if code is None else 1
        except Exception as error:  # a bug in a command: say so, and keep the sitting
            if env().environ.get("SLEUTH_DEBUG"):
                traceback.print_exc()
            env().err.print(bug_line(error), markup=False, emoji=False, soft_wrap=True)
            return ExitStatus.INTERNAL
        return ExitStatus.OK

    def help(self, words: list[str]) -> int:
        """``help``: the commands, the short forms, the keys; ``help COMMAND``: its options."""
        if words:
            return self.dispatch([*words, "--help"])
        env().out.print(sitting_help(self), markup=False, highlight=False)
        return ExitStatus.OK

    def refresh(self, force: bool = False) -> None:
        """Reread the record if its file changed, and restate the status line."""
        try:
            stat = self.path.stat()
        except OSError as error:
            self.status = [Part(f"{self.path}: {error.strerror}")]
            return
        stamp = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        if stamp == self.stamp and not force:
            return
        try:
            self.record = env().session(self.path).load()
        except InputError as error:
            self.stamp, self.status = stamp, [Part(printable(error.line()))]
            return
        self.stamp = stamp
        self.status = status_parts(self.record, self.report())

    def report(self) -> Any:
        """The belief of the record as it stands: the last command's, else one made now."""
        session = env().session(self.path)
        last = session.latest(self.record)
        if last is not None:
            return last
        from sleuth.budget import due

        return session.believe(self.record, due(STATUS_BUDGET))


def bug_line(error: BaseException) -> str:
    """A bug in one line: the error and where it was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    text = f"sleuth: internal error: {type(error).__name__}: {error}{where} (a bug in sleuth; "
    return printable(text + "set SLEUTH_DEBUG=1 for the traceback)")


def sitting_help(sitting: Sitting) -> str:
    """The help of ``help`` inside a sitting: commands, this game's short forms, the keys."""
    rules = sitting.record.rules
    names = sitting.offered()
    own = forms.short_forms(rules)
    width = max((len(form) for form, _ in own), default=0)
    listed = [
        line
        for form, meaning in own
        for line in textwrap.wrap(
            f"  {form.ljust(width)}  {meaning}", 79, subsequent_indent=" " * (width + 4)
        )
    ]
    aliases = [f"{a} {name}" for a, name in ALIASES.items() if name in sitting.commands]
    return "\n".join(
        [
            f"{rules.title} on {sitting.path}. Type a command as on the command line,",
            "without 'sleuth' and --file (help COMMAND shows its options):",
            *_wrapped(", ".join(names)),
            *textwrap.wrap(
                "Short forms ("
                + ("" if rules.solitaire else "players by unique prefixes; ")
                + "each is shown expanded; options such as --before N go after the form):",
                80,
            ),
            *listed,
            f"Aliases: {', '.join(aliases)}.",
            "Tab completes; Up and Down walk the history, Ctrl-R searches it; a rejected",
            "line comes back for editing. Ctrl-C drops the line; Ctrl-D, quit or exit leaves.",
        ]
    )


def _wrapped(text: str, width: int = 76) -> list[str]:
    """``text`` in indented lines of at most ``width`` characters."""
    return textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="  ")
