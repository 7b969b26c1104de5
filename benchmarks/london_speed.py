"""Looting London's speed: the report's belief and ``next`` on every state of simulated games.

Usage: ``.venv/bin/python benchmarks/london_speed.py [--players 4] [--games 20]
[--first-seed 0] [--slowest 3] [--markdown]``.

Each seed is one whole game of ``sleuth.games.london.simulate`` (reshuffles included), from
seat ``seed % players``. After every event, in this process: the belief (``hands.believe``, the
report's work) and, when the turn to come is that seat's, ``advise`` (``next``'s work). The
first table gives, per kind, the states measured, the median, the 90th percentile and the
slowest time, and how many took over the 0.3 s target. The second runs the slowest states as
commands, each three times in its own process (``sleuth report`` and ``sleuth next`` with
``--upto``), beside ``sleuth --version`` (the start-up, the baseline): medians, and the work
beyond start-up (the command's median less the start-up's).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tables import render

from sleuth.games.london.advice import advise
from sleuth.games.london.course import next_player
from sleuth.games.london.hands import believe
from sleuth.games.london.simulate import simulate
from sleuth.record import parse
from sleuth.store import save

TARGET = 0.3  # seconds of work beyond start-up (issue: report and next on any 4-player state)
RUNS = 3


def states(players: int, seeds: range):
    """(seed, events, doc) for every prefix of every seed's game."""
    for seed in seeds:
        doc = simulate(players, seed, me=seed % players).doc
        for k in range(len(doc["events"]) + 1):
            yield seed, k, doc


def measure(players: int, seeds: range) -> dict[str, list[tuple[float, int, int, dict]]]:
    """Per kind ("report", "next"), each state's seconds, seed, events and record."""
    out: dict[str, list] = {"report": [], "next": []}
    for seed, k, doc in states(players, seeds):
        cut = {**doc, "events": doc["events"][:k]}
        record = parse(cut, "sim")
        clock = time.perf_counter()
        found = believe(record)
        out["report"].append((time.perf_counter() - clock, seed, k, cut))
        now = found.course
        mine = next_player(now, record.table) in (None, record.table.me)
        if not now.over and now.turn is None and mine and found.consistent:
            clock = time.perf_counter()
            advise(found, {})
            out["next"].append((time.perf_counter() - clock, seed, k, cut))
    return out


def summary(kind: str, timed: list) -> list[str]:
    """One row: states, median, 90th percentile, slowest, over the target."""
    seconds = sorted(t for t, *_ in timed)
    p90 = seconds[int(0.9 * (len(seconds) - 1))]
    slowest = max(timed, key=lambda x: x[0])
    over = sum(t > TARGET for t in seconds)
    where = f"seed {slowest[1]}, {slowest[2]} events"
    return [
        kind,
        str(len(seconds)),
        f"{1000 * statistics.median(seconds):.0f}",
        f"{1000 * p90:.0f}",
        f"{1000 * slowest[0]:.0f} ({where})",
        str(over),
    ]


def process(args: list[str]) -> float:
    """The median wall time of ``sleuth ARGS`` over ``RUNS`` processes."""
    times = []
    for _ in range(RUNS):
        clock = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sleuth", *args], capture_output=True, check=False)
        times.append(time.perf_counter() - clock)
    return statistics.median(times)


def commands(timed: dict[str, list], slowest: int) -> list[list[str]]:
    """The slowest states as commands, beside the start-up."""
    start = process(["--version"])
    rows = [["--version (start-up)", "", f"{1000 * start:.0f}", ""]]
    with tempfile.TemporaryDirectory() as folder:
        for kind in ("report", "next"):
            for _, seed, k, cut in sorted(timed[kind], key=lambda x: -x[0])[:slowest]:
                path = Path(folder) / f"{kind}-{seed}-{k}.yaml"
                save(path, parse(cut, "sim"))  # as sleuth writes a record
                took = process([kind, "-f", str(path)])
                work = took - start
                rows.append(
                    [kind, f"seed {seed}, {k} events", f"{1000 * took:.0f}", f"{1000 * work:.0f}"]
                )
    return rows


def main() -> None:
    """Measure and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--slowest", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    timed = measure(args.players, seeds)
    head = ["kind", "states", "median ms", "p90 ms", "slowest ms", f"over {TARGET} s"]
    print(render(head, [summary(k, timed[k]) for k in ("report", "next")], args.markdown))
    print()
    head = ["command", "state", "median ms", "beyond start-up ms"]
    print(render(head, commands(timed, args.slowest), args.markdown))
    print()
    seen = f"seeds {seeds.start}-{seeds.stop - 1}"
    print(f"{args.players} players, {seen}, in process; commands {RUNS} times each")


if __name__ == "__main__":
    main()
