"""``python -m sleuth`` and the console script ``sleuth``.

Nothing is imported before ``run`` starts, so that Ctrl-C while the command line loads (Typer,
Rich, the commands: a few tenths of a second) ends the process as quietly as Ctrl-C later on.
"""

import os
import sys

INTERRUPTED = 130  # 128 + SIGINT, as the shell reports a process Ctrl-C ended


def run() -> None:
    """Load the command line and run it; Ctrl-C at any point exits 130 without a traceback."""
    try:
        from sleuth.cli import main

        main()
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)
    except SystemExit as end:
        leave(end)
    leave(SystemExit(0))


def leave(end: SystemExit) -> None:
    """Exit with ``end``'s status at once, the output flushed, without the interpreter's teardown.

    The teardown frees every object the command made, one by one: after a large count that is
    half a second or more past the answer, which a ``--budget`` must not pay. Every write of the
    record is already whole (atomic), no handler waits at exit, and a worker never outlives
    its batch, so nothing is lost. A status that is not a number, or output that cannot be
    flushed, takes the usual way out, which reports it.
    """
    code = 0 if end.code is None else end.code
    if not isinstance(code, int):
        raise end
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None: the descriptor was closed when the process began
                stream.flush()
    except (OSError, ValueError):
        raise end from None
    os._exit(code)


if __name__ == "__main__":
    run()
