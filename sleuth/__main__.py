"""``python -m sleuth`` and the console script ``sleuth``.

Nothing is imported before ``run`` starts, so that Ctrl-C while the command line loads (Typer,
Rich, the commands: a few tenths of a second) ends the process as quietly as Ctrl-C later on.
"""

import sys

INTERRUPTED = 130  # 128 + SIGINT, as the shell reports a process Ctrl-C ended


def run() -> None:
    """Load the command line and run it; Ctrl-C at any point exits 130 without a traceback."""
    try:
        from sleuth.cli import main

        main()
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)


if __name__ == "__main__":
    run()
