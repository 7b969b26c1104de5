"""The prompt of ``sleuth play`` on a terminal: prompt_toolkit's line editor around a sitting.

Loaded by the ``play`` command alone, so that no other command pays for prompt_toolkit.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from sleuth.cli.app import env
from sleuth.cli.completion import candidates
from sleuth.cli.status import fit

if TYPE_CHECKING:
    from sleuth.cli.completion import Sitting


class Words(Completer):
    """Tab completion from the sitting: commands, options, and the game's words."""

    def __init__(self, sitting: Sitting) -> None:
        """Complete for ``sitting``, whose record may change between lines."""
        self.sitting = sitting

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterator[Completion]:
        """The words that may replace the one before the cursor."""
        text = document.text_before_cursor
        try:
            words = shlex.split(text)
        except ValueError:  # an open quote: nothing to offer
            return
        current = words.pop() if words and not text[-1:].isspace() else ""
        for word in candidates(self.sitting, words, current):
            yield Completion(word, start_position=-len(current))


def history(sitting: Sitting) -> History:
    """The lines typed on this record before, from the cache folder (in memory if none)."""
    where = env().cache_file(sitting.path, "history")
    if where is None:
        return InMemoryHistory()
    try:
        where.parent.mkdir(parents=True, exist_ok=True)
        where.touch()
    except OSError:
        return InMemoryHistory()
    return FileHistory(str(where))


def reader(sitting: Sitting) -> Callable[[str, str], str]:
    """A line editor for ``sitting``: ``read(prompt, default)`` gives the next line typed.

    Ctrl-C raises KeyboardInterrupt and Ctrl-D EOFError, as ``sleuth.cli.play.interactive``
    expects; the bottom toolbar is the sitting's status line.
    """
    prompt: Any = PromptSession(
        history=history(sitting),
        completer=Words(sitting),
        complete_while_typing=False,
        bottom_toolbar=lambda: fit(sitting.status, get_app().output.get_size().columns - 1),
    )
    return lambda message, default: prompt.prompt(message, default=default)
