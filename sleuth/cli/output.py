"""The standard streams as the consoles see them: faults are noted, never raised.

A stdout that cannot take the text (a full disk, a closed descriptor) must not turn a recorded
event into exit status 1: the command finishes, and its exit status says what was lost.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

LEAST = {"COLUMNS": 20, "LINES": 2}  # a smaller size is unknown: Rich asks the terminal, else 80


def prepare() -> None:
    """Ready the process's output for whatever terminal it has.

    Stdout replaces what its encoding cannot show and stderr escapes it; a terminal size too
    small to use leaves the environment, for Typer's help (sleuth's own consoles use screen).
    """
    for stream, errors in ((sys.stdout, "replace"), (sys.stderr, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=errors)
    for key in LEAST:
        if key in os.environ and not usable(key, os.environ[key]):
            del os.environ[key]


def usable(key: str, value: str) -> bool:
    """Whether a console may see this variable: COLUMNS and LINES only when large enough."""
    return key not in LEAST or (value.isdigit() and int(value) >= LEAST[key])


def screen(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment for a console, without a COLUMNS or LINES too small to use."""
    return {key: value for key, value in environ.items() if usable(key, value)}


class Stream:
    """``sys.stdout`` or ``sys.stderr``, looked up at each write, that never raises.

    The first fault ends the output for good (``broken``): the descriptor then points at the
    null device, so that the interpreter's last flush cannot fail again, and every later write
    is dropped and noted again in ``fault``, for the command whose output it was (each entry of
    ``sleuth play``). A pipe closed by its reader drops the output quietly (where SIGPIPE does
    not end the process).
    """

    def __init__(self, name: str) -> None:
        """The stream ``sys.<name>``."""
        self.name = name
        self.fault: str | None = None  # the fault that lost output since the last ``taken``
        self.broken: str | None = None  # the fault that ended the output
        self.gone = False

    def target(self) -> Any:
        """The stream itself, past Rich's proxy while a spinner runs; None when closed."""
        stream = getattr(sys, self.name)
        return getattr(stream, "rich_proxied_file", stream)

    @property
    def encoding(self) -> str:
        """The stream's encoding, for Rich's choice of characters."""
        return getattr(self.target(), "encoding", None) or "utf-8"

    def isatty(self) -> bool:
        """Whether the stream is a terminal."""
        stream = self.target()
        try:
            return stream is not None and stream.isatty()
        except (OSError, ValueError):
            return False

    def write(self, text: str) -> int:
        """Write the text, unless the stream has failed; text for a closed stream is lost."""
        if self.target() is None and not self.fault:
            self.fault = f"{self.name} is closed"
        elif self.broken and text:
            self.fault = self.broken
        self._attempt(lambda stream: stream.write(text))
        return len(text)

    def flush(self) -> None:
        """Flush the stream, unless it has failed."""
        self._attempt(lambda stream: stream.flush())

    def taken(self) -> str | None:
        """Flush; the fault that lost output since the last call, if any (then forgotten)."""
        self.flush()
        fault, self.fault, self.gone = self.fault, None, False
        return fault

    def _attempt(self, action: Callable[[Any], object]) -> None:
        """Do one thing to the stream; a failure is noted and ends the output."""
        stream = self.target()
        if self.fault or self.broken or self.gone or stream is None:
            return
        try:
            action(stream)
        except BrokenPipeError:
            self.gone = True
            self._silence(stream)
        except (OSError, ValueError) as error:
            self.fault = self.broken = f"{self.name}: {error}"
            self._silence(stream)

    @staticmethod
    def _silence(stream: Any) -> None:
        """Point the stream's descriptor at the null device, dropping what it still holds.

        A stream with no descriptor (a test's) is not flushed at exit, and is left alone.
        """
        with contextlib.suppress(AttributeError, OSError, ValueError):
            descriptor = stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, descriptor)
            os.close(null)
