"""Tolerance in one pass: ``--tolerate 1`` against the old per-event way, whole process.

Usage: ``.venv/bin/python benchmarks/tolerance.py [--runs 3] [--markdown]``

Each row is one 5-player Goldraub record (``budget.goldraub``: the simulator, with guesses),
run ``--runs`` times in its own process (``SLEUTH_CACHE=off``), median wall time kept, both
ways in the same run: ``sleuth report --tolerate 1 --json`` (one pass), and a process that
loads the record and counts the tolerance the old way (``per_event`` of ``tests/oracles``:
a count per answer left out, each with its own z3 solver; the report's other work left out, so
a lower bound of the old command). The last column says whether both gave the same numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from budget import goldraub
from ruamel.yaml import YAML
from tables import render

TESTS = Path(__file__).resolve().parent.parent / "tests"
STATES = [(5, 7, 24), (5, 3, 24), (5, 11, 20)]  # players, seed, events
OLD = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])  # the tests' folder, which holds the oracles
from sleuth.store import load
from oracles.tolerance import per_event
model = load(Path(sys.argv[1]))[0].model()
old = per_event(model)
held = {f"{h}|{i}": [n, old.odds.worlds] for (h, i), n in old.odds.held.items()}
print(json.dumps({"worlds": old.odds.worlds, "held": held}))
"""


def timed(args: list[str]) -> tuple[float, dict]:
    """Wall time and JSON output of one process."""
    env = dict(os.environ, SLEUTH_CACHE="off")
    started = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    took = time.monotonic() - started
    if done.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return took, json.loads(done.stdout)


def same(new: dict, old: dict) -> bool:
    """Whether the one pass gave the old way's worlds and every probability."""
    if new["worlds"] != old["worlds"]:
        return False
    for key, (n, total) in old["held"].items():
        holder, item = key.split("|")
        if Fraction(new["counts"][holder][item], new["worlds"]) != Fraction(n, total):
            return False
    return True


def rows(runs: int) -> list[list[str]]:
    """One row per state: the median of each way, their ratio, and whether they agree."""
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for players, seed, events in STATES:
            path = Path(folder) / "state.yaml"
            with path.open("w") as f:
                YAML().dump(goldraub(players, seed, events), f)
            new_args = [sys.executable, "-m", "sleuth", "report", "--json", "--tolerate", "1"]
            new_args += ["-f", str(path)]
            old_args = [sys.executable, "-c", OLD, str(path), str(TESTS)]
            new = [timed(new_args) for _ in range(runs)]
            old = [timed(old_args) for _ in range(runs)]
            a, b = statistics.median(t for t, _ in old), statistics.median(t for t, _ in new)
            name = f"goldraub {players}p seed {seed} @{events}"
            agree = "yes" if same(new[-1][1], old[-1][1]) else "NO"
            out.append([name, f"{a:.2f}", f"{b:.2f}", f"{a / b:.1f}x", agree])
            print(" | ".join(out[-1]), file=sys.stderr, flush=True)
    return out


HEAD = ["state", "per event, median (s)", "one pass, median (s)", "speed-up", "same numbers"]


def main() -> None:
    """Parse the options, run every row, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    options = parser.parse_args()
    print(render(HEAD, rows(options.runs), options.markdown))


if __name__ == "__main__":
    main()
