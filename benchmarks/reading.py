"""Reading long records: the fast reader against the round-trip reader, measured in one run.

Usage: ``python benchmarks/reading.py [--events 1000,10000] [--markdown]``.

For each size a simulated 5-player record (seed 1, searches only, ``rounds: 99``) is written
by sleuth into a temporary folder, once as it is and once with a bad field in its last event.
Each row times, in this process (median of 3): the round-trip YAML parse that every read used
before (the baseline), loading and checking the record as ``report`` and ``check`` do now, and
rejecting the broken copy the same way; ``ratio`` is the baseline over the load. The last
column, per event, shows whether the cost grows linearly with the record.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tables import render

from sleuth.document import document, dump, parse_yaml  # noqa: E402
from sleuth.errors import InputError  # noqa: E402
from sleuth.games.goldraub.simulate import simulate  # noqa: E402
from sleuth.record import parse  # noqa: E402
from sleuth.store import load  # noqa: E402


def median_time(fn) -> float:
    """The median of three timings of ``fn`` in seconds."""
    times = []
    for _ in range(3):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def record_text(events: int) -> str:
    """A record of ``events`` searches as sleuth writes it."""
    doc, _ = simulate(5, events, 1, guesses=0.0)
    doc["rounds"] = 99
    return dump(document(parse(doc, "benchmark")))


def refused(path: Path) -> None:
    """Load a record that must be refused."""
    try:
        load(path, keep=False)
    except InputError:
        return
    raise AssertionError(f"{path} was not refused")


def row(folder: Path, events: int) -> list[str]:
    """One table row: the timings for a record of ``events`` events."""
    text = record_text(events)
    good, bad = folder / f"good-{events}.yaml", folder / f"bad-{events}.yaml"
    good.write_text(text, encoding="utf-8")
    head, last = text.rstrip("\n").rsplit("\n", 1)
    bad.write_text(f"{head}\n{last.replace('gold:', 'gold: x, g:')}\n", encoding="utf-8")
    baseline = median_time(lambda: parse_yaml(text, "benchmark"))
    loaded = median_time(lambda: load(good, keep=False))
    rejected = median_time(lambda: refused(bad))
    per_event = 1e6 * loaded / events
    return [
        f"{events:,}",
        f"{len(text) // 1024:,} KiB",
        f"{baseline:.2f}",
        f"{loaded:.3f}",
        f"{rejected:.3f}",
        f"{baseline / loaded:.0f}x",
        f"{per_event:.0f}",
    ]


HEADER = ["events", "size", "round-trip parse s", "load s", "reject s", "ratio", "load µs/event"]


def main() -> None:
    """Measure every size asked for and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", default="1000,10000")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    sizes = [int(n) for n in args.events.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        rows = []
        for events in sizes:
            print(f"measuring {events} events...", file=sys.stderr)
            rows.append(row(Path(folder), events))
    print(render(HEADER, rows, args.markdown, right=True))


if __name__ == "__main__":
    main()
