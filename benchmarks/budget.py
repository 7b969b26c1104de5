"""Budgets that hold: ``sleuth report|next --budget B`` on slow states, whole process.

Usage: ``.venv/bin/python benchmarks/budget.py [--runs 3] [--command next] [--markdown]``

Each row is one command on one state, run ``--runs`` times in its own process
(``SLEUTH_CACHE=off``), median wall time kept: with the default budget (15 s: "unbudgeted"),
then with ``--budget 5``, ``--budget 1`` and ``--budget 0.2``. The promise is an answer
within B + 0.5 s, exact when the count finished, else a labelled estimate; the last column
says which, and what a stage left out (repairs cut short, tolerance parts or treasure pairs
not counted). The states: the slowest simulated 6-player Goldraub ones known, a 5-player record with
``--tolerate 1``, a 5-player record with one altered answer (repairs), and a 5-player Loot of
Lima record (treasure pairs). ``--command next`` times ``sleuth next`` on the slow 6-player
states and the Lima one (with ``--barrel``): exact where the splits finish, the rest named.
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
from pathlib import Path

from ruamel.yaml import YAML
from tables import render

from sleuth.games.goldraub.simulate import simulate
from sleuth.games.lima.simulate import simulate as simulate_lima
from sleuth.record import parse
from sleuth.solve import Entailment

SLEUTH = [sys.executable, "-m", "sleuth"]
BUDGETS = (None, 5.0, 1.0, 0.2)


def goldraub(players: int, seed: int, events: int, altered: bool = False) -> dict:
    """The first ``events`` events of ``simulate(players, 60, seed)``.

    ``altered``: the first search whose gold, one off, makes the record fit no deal, so altered.
    """
    doc, _ = simulate(players, 60, seed)
    doc["events"] = doc["events"][:events]
    for search in [e["search"] for e in doc["events"] if "search" in e] if altered else []:
        gold = search["gold"]
        search["gold"] = gold + 1 if gold == 0 else gold - 1
        if not Entailment(parse(doc, "simulation").model()).consistent():
            break
        search["gold"] = gold
    return doc


def lima(seed: int, events: int) -> dict:
    """A 5-player Loot of Lima record of ``events`` events."""
    doc, _ = simulate_lima(5, events, seed)
    return doc


STATES = [
    ("goldraub 6p seed 38 @21", lambda: goldraub(6, 38, 21), ()),
    ("goldraub 6p seed 29 @16", lambda: goldraub(6, 29, 16), ()),
    ("goldraub 5p seed 7 @24 --tolerate 1", lambda: goldraub(5, 7, 24), ("--tolerate", "1")),
    ("goldraub 5p seed 7 @24 altered", lambda: goldraub(5, 7, 24, True), ()),
    ("lima 5p seed 1 @12", lambda: lima(1, 12), ()),
]
ROLL = "SW-beach,N-wild,E-beach"  # each face on its own die, as --barrel needs
NEXT_STATES = [
    ("goldraub 6p seed 38 @21", lambda: goldraub(6, 38, 21), ()),
    ("goldraub 6p seed 29 @16", lambda: goldraub(6, 29, 16), ()),
    ("goldraub 6p seed 29 @19", lambda: goldraub(6, 29, 19), ()),
    ("lima 5p seed 1 @12 --barrel", lambda: lima(1, 12), ("--roll", ROLL, "--barrel")),
]


def run(
    path: Path, budget: float | None, extra: tuple[str, ...], command: str = "report"
) -> tuple[float, dict]:
    """Wall time and JSON output of one ``sleuth report`` (or ``next``) process."""
    args = [*SLEUTH, command, "--json", "-f", str(path), *extra]
    if budget is not None:
        args += ["--budget", str(budget)]
    env = dict(os.environ, SLEUTH_CACHE="off")
    started = time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    took = time.monotonic() - started
    if done.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return took, json.loads(done.stdout)


def answer(out: dict) -> str:
    """What the report gave: exact or estimate, and what a stage left out (``next``: advised)."""
    if "options" in out:
        if out.get("worlds", 0) is None:
            return "no advice: the record not counted"
        left = len(out.get("uncounted", []))
        cut = ", Barrel not counted" if out.get("barrel_counted") is False else ""
        return f"{len(out['options'])} options exact, {left} not counted{cut}"
    words = ["exact" if out["exact"] else "estimate"]
    if out.get("repairs_complete") is False:
        words.append(f"repairs cut short ({len(out['repairs'])} found)")
    elif "repairs" in out:
        words.append(f"{len(out['repairs'])} repairs")
    if out.get("tolerate_skipped"):
        words.append(f"{len(out['tolerate_skipped'])} tolerance parts not counted")
    if out.get("treasure_uncounted"):
        words.append(f"pairs of {len(out['treasure_uncounted'])} locations not counted")
    return ", ".join(words)


def rows(runs: int, command: str) -> list[list[str]]:
    """One row per state and budget."""
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for name, make, extra in STATES if command == "report" else NEXT_STATES:
            path = Path(folder) / "state.yaml"
            with path.open("w") as f:
                YAML().dump(make(), f)
            for budget in BUDGETS:
                results = [run(path, budget, extra, command) for _ in range(runs)]
                wall = statistics.median(t for t, _ in results)
                limit = "15 (default)" if budget is None else f"{budget:g}"
                over = wall - (15.0 if budget is None else budget)
                out.append([name, limit, f"{wall:.2f}", f"{over:+.2f}", answer(results[-1][1])])
                print(" | ".join(out[-1]), file=sys.stderr, flush=True)
    return out


HEAD = ["state", "budget (s)", "wall, median (s)", "wall - budget (s)", "answer"]


def main() -> None:
    """Parse the options, run every row, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--command", choices=("report", "next"), default="report")
    parser.add_argument("--markdown", action="store_true")
    options = parser.parse_args()
    print(render(HEAD, rows(options.runs, options.command), options.markdown))


if __name__ == "__main__":
    main()
