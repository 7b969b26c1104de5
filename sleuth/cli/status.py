"""The status line of ``sleuth play``: where the game stands, fitted to the terminal's width.

e.g. "round 3, value 8 | Doris to play | 1,024 deals | best Bert 33 4%"; at 80 columns and six
players it takes its short forms ("r3 v8", "2 out") and leaves out the deals before it cuts
the best guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sleuth.games import part


@dataclass(frozen=True)
class Part:
    """A part of the status line, with the shorter form it takes when the line is too wide."""

    text: str
    short: str | None = None  # None: it has none
    spare: bool = False  # left out when even the short forms are too wide


def status_line(record: Any, report: Any, width: int | None = None) -> str:
    """Where the game stands: "round 3, value 8 | Doris to play | 1,024 deals | best Bert 33 4%".

    Within ``width`` characters when given (``fit``).
    """
    return fit(status_parts(record, report), width)


def status_parts(record: Any, report: Any) -> list[Part]:
    """The parts of the status line, whose best guess and turn are kept whatever the width.

    Once the game is over no guess is left to take: the line says so and shows none.
    """
    from sleuth.beliefs import likeliest
    from sleuth.render.common import pct

    status = record.rules.status(record)
    value = "" if status.value is None else f", value {status.value}"
    short = "" if status.value is None else f" v{status.value}"
    counted = f"{status.counting} {status.round}{value}"
    parts = [Part(counted, f"{status.counting[0]}{status.round}{short}")]
    if status.over:
        parts.append(Part(f"over: {status.over}"))
    elif status.turn:
        parts.append(Part(f"{status.turn} to play"))
    parts += [Part(note) for note in status.notes]
    if status.out:
        parts.append(Part(f"out: {', '.join(status.out)}", f"{len(status.out)} out", spare=True))
    if not report.fits:
        return [*parts, Part("no deal fits: undo or edit")]
    left = report.left
    if left is None:
        parts.append(Part("count unknown", spare=True))
    else:
        plural = "" if left.number == 1 else "s"
        words = f"{'' if left.exact else '~'}{about(left.number)} {left.noun}{plural}"
        parts.append(Part(words, spare=True))
    best = None if status.over else part(record.rules, "best", likeliest)(report)
    if best is not None:  # the game's, or the shared; none to take once the game is over
        label, chance = best
        shown = chance if chance is None or isinstance(chance, Fraction) else Fraction(chance)
        parts.append(Part(f"best {label} {pct(shown)}"))
    return parts


def fit(parts: list[Part], width: int | None) -> str:
    """The parts joined by " | ", within ``width``: short forms first, then spare parts left out.

    A line still too wide is cut with "…" (a name of a hundred letters).
    """
    line = " | ".join(part.text for part in parts)
    if width is None or len(line) <= width:
        return line
    parts = [Part(part.short or part.text, None, part.spare) for part in parts]
    while len(line := " | ".join(part.text for part in parts)) > width:
        spare = next((part for part in parts if part.spare), None)
        if spare is None:
            return line[: max(width - 1, 0)] + "…"
        parts.remove(spare)
    return line


SCALE = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"))


def about(count: float) -> str:
    """A count of deals short enough for the status line: 48,192, 9.3 trillion or 3.1e+17."""
    if count >= 1000 * SCALE[0][0]:  # a thousand trillion and more: no word reads better
        return f"{count:.2e}"
    for size, word in SCALE:
        if count >= size:
            return f"{count / size:.3g} {word}"
    return f"{count:,.0f}"
