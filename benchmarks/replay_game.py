"""Replaying whole games: the issue's targets, and what sharing work between prefixes buys.

Usage::

    .venv/bin/python benchmarks/replay_game.py [--runs 3]

Whole process (``sleuth replay --json`` and ``sleuth why``, ``SLEUTH_CACHE=off``, median of
``--runs``): a 6-player and a 5-player Goldraub game of 60 events (the first 60 events of
``simulate(n, 60, 1)``), the shipped 5-player Loot of Lima game, and ``why`` of a fact that
became certain late in the 6-player game and of the likeliest fact left open in it. Then, in
this process, the steps of each game as the replay makes them (the prefixes over the cores,
the remembered item order, facts read off the counts) against the same steps without the
remembered order, and against a cold report of every prefix (``report(record.upto(k))``,
what a player did by hand before the replay).
This is not ``benchmarks/replay.py``, which is about the race of item orders.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLEUTH = ROOT / ".venv" / "bin" / "sleuth"
TARGETS = {"goldraub-6p": 20.0, "goldraub-5p": 8.0, "lima-5p": 5.0, "why": 1.0}


def goldraub(n: int, folder: Path) -> Path:
    """The first 60 events of a simulated n-player game, written as a record."""
    from sleuth.document import document, dump
    from sleuth.games.goldraub.simulate import simulate
    from sleuth.record import parse

    doc, _ = simulate(n, 60, 1)
    doc["events"] = doc["events"][:60]
    path = folder / f"goldraub-{n}p.yaml"
    path.write_text(dump(document(parse(doc, "simulated"))), encoding="utf-8")
    return path


def timed(args: list[str], runs: int) -> float:
    """The median wall time of a whole ``sleuth`` process."""
    env = dict(os.environ, SLEUTH_CACHE="off")
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        done = subprocess.run([str(SLEUTH), *args], capture_output=True, env=env, check=False)
        times.append(time.perf_counter() - began)
        if done.returncode not in (0, 3):
            sys.exit(f"{args}: exit {done.returncode}: {done.stderr.decode()}")
    return statistics.median(times)


def in_process(path: Path) -> tuple[float, float, float, tuple | None, tuple | None]:
    """Seconds for the replay's steps, the counts without the remembered order, cold reports;
    the fact that became certain last and the likeliest one left open (for ``why``)."""
    from sleuth.analysis import report
    from sleuth.replay import steps
    from sleuth.solve import Remembered
    from sleuth.store import load

    record = load(path, keep=False)[0]
    began = time.perf_counter()
    found = steps(record, memory=Remembered())
    shared = time.perf_counter() - began
    alone = sum(_alone(record, k) for k in range(len(record.events) + 1))
    began = time.perf_counter()
    for k in range(len(record.events) + 1):
        report(record.upto(k))
    cold = time.perf_counter() - began
    last = next((sorted(s.forced)[0] for s in reversed(found) if s.forced), None)
    end = found[-1].odds
    open_ = [(n, pair) for pair, n in end.held.items() if 0 < n < end.worlds]
    return shared, alone, cold, last, max(open_)[1] if open_ else None


def _alone(record, k: int) -> float:
    """Seconds to count prefix k with one solver but no remembered order (a fresh one)."""
    from sleuth.odds import odds

    began = time.perf_counter()
    odds(record.model().prefix(k), plain=True)
    return time.perf_counter() - began


def main() -> None:
    """Print the whole-process table, then the reuse table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = {
            "goldraub-6p": goldraub(6, folder),
            "goldraub-5p": goldraub(5, folder),
            "lima-5p": ROOT / "examples" / "lima-5p.yaml",
        }
        print(f"load average at start: {os.getloadavg()[0]:.2f}")
        reuse = {name: in_process(path) for name, path in paths.items()}
        print(f"{'command':<24} {'median s':>9} {'target s':>9}")
        for name, path in paths.items():
            seconds = timed(["replay", "--json", "--file", str(path)], runs)
            print(f"{'replay ' + name:<24} {seconds:>9.2f} {TARGETS[name]:>9.1f}")
        for pair, kind in ((reuse["goldraub-6p"][3], "certain"), (reuse["goldraub-6p"][4], "open")):
            holder, item = pair
            seconds = timed(["why", holder, item, "--file", str(paths["goldraub-6p"])], runs)
            label = f"why {holder} {item} ({kind})"
            print(f"{label:<24} {seconds:>9.2f} {TARGETS['why']:>9.1f}")
        print()
        print("in this process, the steps alone:")
        print(f"{'game':<14} {'replay s':>9} {'no memory s':>12} {'cold reports s':>15}")
        for name, (shared, alone, cold, _, _) in reuse.items():
            print(f"{name:<14} {shared:>9.2f} {alone:>12.2f} {cold:>15.2f}")
        print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
