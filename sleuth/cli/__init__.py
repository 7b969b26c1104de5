"""The command line: parse, call the core, render. No game logic lives here."""

from __future__ import annotations

import errno
import os
import signal
import sys

from sleuth.budget import process_start
from sleuth.cli import commands as _commands  # noqa: F401 - registers every command
from sleuth.cli.app import ENV, ExitStatus, Interrupted, app
from sleuth.cli.output import prepare

OUTPUT_FAULTS = {errno.ENOSPC, errno.EIO, errno.EBADF, errno.EDQUOT}


def main() -> None:
    """The console script: run the app, turning unexpected errors into one line.

    A closed output pipe (``sleuth report | head``) ends the process quietly, by SIGPIPE, as it
    does other Unix tools; Click would otherwise exit 1, which here means an internal error.
    Records are written to files, never to a pipe, so this cannot cut a write short. What the
    output's encoding cannot show is replaced, and a terminal width below 20 is unknown.
    The ``--budget`` of the command counts from the process's start.
    """
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    prepare()
    ENV.born = process_start()  # the budget counts the start-up too
    try:
        app()
    except SystemExit:
        raise
    except Interrupted:  # Ctrl-C: every write is atomic, so nothing is left half done
        sys.exit(ExitStatus.INTERRUPTED)
    except OSError as error:
        if error.errno not in OUTPUT_FAULTS or os.environ.get("SLEUTH_DEBUG"):
            raise
        # The record's own reads and writes raise FileFault (exit 2 already); what is left is
        # text that Typer prints itself, such as --help, to a full or broken stdout.
        print(f"sleuth: cannot write the output ({error.strerror})", file=sys.stderr)
        sys.exit(ExitStatus.BAD_INPUT)
    except Exception as error:  # a bug, not bad input: say so in one line
        if os.environ.get("SLEUTH_DEBUG"):
            raise
        print(
            f"sleuth: internal error: {type(error).__name__}: {error} "
            "(set SLEUTH_DEBUG=1 for details)",
            file=sys.stderr,
        )
        sys.exit(ExitStatus.INTERNAL)
