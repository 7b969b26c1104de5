"""A spinner on stderr for work that takes longer than about half a second."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from rich.console import Console

DELAY = 0.5


@contextlib.contextmanager
def spinner(console: Console, message: str, delay: float = DELAY) -> Iterator[None]:
    """Show ``message`` with a spinner once the block has run ``delay`` seconds.

    Only on a terminal: never when stderr is a file or a pipe, so JSON and logs stay clean.
    """
    if not console.is_terminal:
        yield
        return
    status = console.status(message)
    lock = threading.Lock()
    state = {"shown": False, "done": False}

    def show() -> None:
        with lock:
            if not state["done"]:
                status.start()
                state["shown"] = True

    timer = threading.Timer(delay, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["shown"]:
                status.stop()
