"""How long an answer may take: one default for the command line and the analyses alike.

A light module (no solver imports), so that the command line can name the default at start-up.
A ``Deadline`` is the one moment a whole answer is due: every stage of an analysis takes its
time from what is left of it, so the stages together keep the budget.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

DEFAULT_BUDGET = 15.0  # seconds for an answer: the --budget default
COUNT_SHARE = 0.85  # of the budget, for the exact count; an estimate gets at least the rest


class Deadline:
    """The moment an answer is due: ``seconds`` after ``start`` (default: now) on ``clock``."""

    def __init__(
        self,
        seconds: float,
        clock: Callable[[], float] = time.monotonic,
        start: float | None = None,
    ):
        self.clock = clock
        self.end = (clock() if start is None else start) + seconds

    def left(self) -> float:
        """Seconds left before the deadline (0 once it has passed)."""
        return max(self.end - self.clock(), 0.0)

    def passed(self) -> bool:
        """Whether the deadline has passed."""
        return self.clock() >= self.end

    def share(self, parts: int) -> Deadline:
        """A sooner deadline: an even share of the time left among ``parts`` stages to come."""
        return Deadline(self.left() / max(parts, 1), self.clock)


def due(budget: float | Deadline) -> Deadline:
    """The deadline of a budget: given as one, or ``budget`` seconds from now."""
    return budget if isinstance(budget, Deadline) else Deadline(budget)


def process_start() -> float:
    """When this process started, on the monotonic clock: from /proc on Linux, else now.

    The console script's budget counts from here, so that it bounds the whole command,
    start-up included.
    """
    now = time.monotonic()
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        ticks = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: start, after boot
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - min(max(age, 0.0), 60.0)  # a start a minute back is no start-up to count
