"""A replay on screen: the timeline, the judged moves, the summary, a chart; its JSON; a PNG."""

from __future__ import annotations

import io
import math
import re
import textwrap
from typing import TYPE_CHECKING

from sleuth.games import part
from sleuth.games.base import Event, yaml_word
from sleuth.render.common import pct

if TYPE_CHECKING:
    from rich.console import Console

    from sleuth.record import Record
    from sleuth.replay import Replay, Step

BAR = 8  # characters of the deals bar
BLOCKS = " ▁▂▃▄▅▆▇█"
HEIGHT = 4  # rows of each series of the terminal chart


def short(event: Event) -> str:
    """An event in a few words: "Anton search 13-57 gold 2", "Bert guess Anton 46 not correct".

    Names and the first other field go bare, the rest with their key; a flag as its key or "not".
    """
    fields = event.fields()
    who = fields.pop("by", None)
    words, bare = [event.kind], True
    for key, value in fields.items():
        if isinstance(value, bool):
            words.append(key if value else f"not {key}")
        elif key in event.names or bare:
            words.append(yaml_word(value))
            bare = bare and key in event.names
        else:
            words.append(f"{key} {yaml_word(value)}")
    return " ".join(([who] if who else []) + words)


def worded(record: Record, index: int) -> str:
    """Event ``index`` (1-based) in a few words: the game's ``short`` part, else ``short``."""
    return part(record.rules, "short", short)(record.events[index - 1])


def log_worlds(step: Step) -> float | None:
    """log10 of the step's deals; None with no deal."""
    return math.log10(step.worlds) if step.consistent and step.worlds else None


def bar(value: float | None, top: float, width: int = BAR) -> str:
    """A bar of ``value`` out of ``top`` in eighths of a character."""
    if value is None or top <= 0:
        return ""
    eighths = round(8 * width * min(value / top, 1.0))
    return "█" * (eighths // 8) + (BLOCKS[eighths % 8] if eighths % 8 else "")


def deals(step: Step) -> str:
    """The step's deals, "~" before an estimate, "none" with no deal.

    Up to 9 digits in full, with thousands separators ("540,028,809"); more to 3 digits, as
    "3.12e17" (the exact number is in the JSON replay).
    """
    if not step.consistent:
        return "none"
    n = step.worlds
    text = f"{n:,}" if n < 10**9 else f"{n:.2e}".replace("e+", "e")
    return text if step.exact else f"~{text}"


def rows(replay: Replay) -> list[tuple[str, str, str, str, str, list[str]]]:
    """Per step: number, event, deals, bar, best move, and the notes under it."""
    top = max((v for v in map(log_worlds, replay.steps) if v is not None), default=0.0)
    moves = {m.event: m.line for m in replay.judged.moves}
    out = []
    for step, best in zip(replay.steps, replay.judged.best, strict=True):
        k = step.event
        what = "setup" if k == 0 else worded(replay.record, k)
        guess = "-" if best is None else f"{best.words} {pct(best.probability)}"
        guess += "" if best is None or best.exact else " ~"
        notes = []
        if step.forced:
            notes.append("certain: " + ", ".join(f"{h} {i}" for h, i in sorted(step.forced)))
        if step.ended:
            notes.append(
                "no longer certain: " + ", ".join(f"{h} {i}" for h, i in sorted(step.ended))
            )
        notes += [n for n in (moves.get(k), replay.judged.marks.get(k)) if n]
        out.append((str(k), what, deals(step), bar(log_worlds(step), top), guess, notes))
    return out


def holdings(pairs: frozenset) -> str:
    """Holdings in order, e.g. "Bert 32, Doris 12"."""
    return ", ".join(f"{h} {i}" for h, i in sorted(pairs))


BOUND = "\xa0"  # a space the timeline does not fold at (textwrap folds at ASCII ones)


def bound(text: str) -> str:
    """The text with each number kept beside the word before it ("at 15", "gold 2")."""
    return re.sub(r" (?=[0-9])", BOUND, text)


def timeline(replay: Replay, width: int) -> list[str]:
    """The timeline as lines of at most ``width`` characters (the event text folds)."""
    table = rows(replay)
    counted = f"{replay.noun}s"
    dw = max(len(counted), *(len(r[2]) for r in table))
    bw = max(len("best"), *(len(r[4]) for r in table))
    ew = max(width - (3 + 1 + 1 + dw + 1 + BAR + 1 + bw), 12)
    lines = [f"{'#':>3} {'event':<{ew}} {counted:>{dw}} {'':<{BAR}} {'best':<{bw}}".rstrip()]
    for number, what, count, drawn, guess, notes in table:
        parts = [p.replace(BOUND, " ") for p in textwrap.wrap(bound(what), ew)] or [""]
        lines.append(f"{number:>3} {parts[0]:<{ew}} {count:>{dw}} {drawn:<{BAR}} {guess}")
        lines += [f"{'':>3} {part}" for part in parts[1:]]
        for note in notes:
            lines += textwrap.wrap(note, width, initial_indent="    > ", subsequent_indent="      ")
    return lines


def sampled(values: list[float | None], width: int) -> list[float | None]:
    """At most ``width`` values: the last of each run when there are more."""
    if len(values) <= width:
        return values
    return [values[min(len(values) - 1, (c + 1) * len(values) // width - 1)] for c in range(width)]


def series(values: list[float | None], top: float, height: int = HEIGHT) -> list[str]:
    """Rows of a block chart of ``values`` (0 to ``top``), top row first."""
    rows = []
    for r in range(height - 1, -1, -1):
        line = ""
        for v in values:
            level = 0 if v is None or top <= 0 else round(8 * height * min(v / top, 1.0))
            line += BLOCKS[max(0, min(8, level - 8 * r))]
        rows.append(line)
    return rows


def chart(replay: Replay, width: int) -> list[str]:
    """Two block charts, log10(deals) and the best move's chance, one column per step."""
    logs = [log_worlds(s) for s in replay.steps]
    best = [None if b is None else float(b.probability) for b in replay.judged.best]
    top = max((v for v in logs if v is not None), default=0.0)
    counted = f"{replay.noun}s"
    lw = max(6, len(counted))  # the labels' column
    room = max(width - lw - 2, 10)
    heading = f"log10({counted}), 0 to {top:.1f}, and the best move's chance, 0 to 100%, per event:"
    lines = textwrap.wrap(heading, width)
    for label, values, high in ((counted, logs, top), ("best", best, 1.0)):
        rows = series(sampled(values, room), high)
        lines += [f"{label if k == 0 else '':>{lw}} |{row}" for k, row in enumerate(rows)]
    last = len(replay.steps) - 1
    count = len(sampled(logs, room))
    lines.append(f"{'':>{lw}} +{'0':<{max(count - len(str(last)), 1)}}{last}")
    return lines


def show_replay(console: Console, replay: Replay) -> None:
    """The timeline, the moves judged, the summary and the chart."""
    for line in timeline(replay, console.width):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    console.print()
    for line in replay.judged.summary:
        console.print(line, markup=False)
    estimated = [s.event for s in replay.steps if s.consistent and not s.exact]
    if estimated:
        words = ", ".join(map(str, estimated))
        console.print(f"Estimates (~): the count of step(s) {words} ran out of time.", markup=False)
    if not replay.fits:
        first = next(s.event for s in replay.steps if not s.consistent)
        console.print(f"No {replay.noun} fits the record from event {first} on.", markup=False)
    console.print()
    for line in chart(replay, console.width):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def step_json(step: Step, best, ends: bool = False) -> dict:
    """One step as the contract has it; with ``ends``, also the facts that stopped being certain."""
    out = {
        "event": step.event,
        "consistent": step.consistent,
        "worlds": step.worlds,
        "exact": step.exact,
        "forced": [[h, i] for h, i in sorted(step.forced)],
        "best": None if best is None else best.data,
    }
    if ends:
        out["ended"] = [[h, i] for h, i in sorted(step.ended)]
    return out


def replay_json(replay: Replay) -> dict:
    """The JSON replay of the contract: the game, the steps, the game's judged moves."""
    steps = [
        step_json(s, b, replay.ends) for s, b in zip(replay.steps, replay.judged.best, strict=True)
    ]
    return {"game": replay.record.game, "steps": steps, **replay.judged.extras}


def png_image(replay: Replay) -> bytes:
    """The chart as a PNG image (matplotlib, the optional extra 'plot'): ImportError without it."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    events = [s.event for s in replay.steps]
    logs = [log_worlds(s) for s in replay.steps]
    best = [None if b is None else float(b.probability) for b in replay.judged.best]
    figure, (top, low) = pyplot.subplots(2, 1, sharex=True, figsize=(8, 5), dpi=100)
    top.step(events, [math.nan if v is None else v for v in logs], where="post")
    top.set_ylabel(f"log10({replay.noun}s)")
    low.step(events, [math.nan if v is None else 100 * v for v in best], where="post", color="C1")
    low.set_ylabel("best move's chance (%)")
    low.set_ylim(0, 105)
    low.set_xlabel("event")
    for move in replay.judged.moves:
        for axes in (top, low):
            axes.axvline(move.event, color="grey", linestyle=":", linewidth=1)
    title = f"{replay.record.rules.title}: {len(events) - 1} events"
    top.set_title(f"{title} (dotted: the recorded moves)")
    figure.tight_layout()
    image = io.BytesIO()
    figure.savefig(image, format="png")
    pyplot.close(figure)
    return image.getvalue()
