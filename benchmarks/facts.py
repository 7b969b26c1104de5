"""Certain facts from z3 against facts from the exact count, on the same states in one run.

Usage: ``.venv/bin/python benchmarks/facts.py [--runs 5] [--seeds 6] [--markdown]``.

**old** is the z3 path the report took before issue 19, still in the package for the
cross-check: z3 loaded with the record, its backbone (``consequences``) for the facts and for
the sharpened model the counter gets, and its facts dated in the joint bisection
(``sleuth.solve.since``; before issue 29 a bisection per fact). **new** is
``sleuth.analysis.report`` without the game's details: the count on the plain model, the facts
read off its counts, and every fact dated in one pass (``sleuth.solve.since``). Both run in
this process, each state warmed once, then alternately ``--runs`` times; times are medians.
**facts** times only the certain facts and their events, given the count (old:
``forced_facts``; new: ``dated`` on the counted holdings). **same** says whether both give the
same facts, events, worlds and counts.

The states: 5-player Goldraub games (``simulate(5, 20, seed, guesses=0.3)``, the first 24
events: searches and right and wrong guesses), the rulebook record (``examples/``) cut at 24
events, and 5-player Loot of Lima games (``simulate(5, 30, seed)``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from tables import render

from sleuth.analysis import _report, counted, dated, forced_facts
from sleuth.document import parse_yaml, read_text
from sleuth.games.goldraub.simulate import simulate as goldraub
from sleuth.games.lima.simulate import simulate as lima
from sleuth.odds import odds
from sleuth.record import Record, parse
from sleuth.solve import Entailment

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 15.0


def states(seeds: int) -> list[tuple[str, Record]]:
    """The measured records, named."""
    out = []
    for seed in range(seeds):
        doc, _ = goldraub(5, 20, seed, guesses=0.3)
        doc["events"] = doc["events"][:24]
        out.append((f"goldraub 5p seed {seed}", parse(doc, "simulated")))
    book = parse_yaml(read_text(ROOT / "examples" / "goldraub-rulebook.yaml"), "rulebook")
    book["events"] = book["events"][:24]
    out.append(("goldraub rulebook, 24 events", parse(book, "rulebook")))
    for seed in range(max(seeds // 2, 1)):
        doc, _ = lima(5, 30, seed)
        out.append((f"lima 5p seed {seed}", parse(doc, "simulated")))
    return out


def old_report(record: Record) -> tuple:
    """The report's facts and odds as computed before issue 19 (z3 facts, sharpened count)."""
    model = record.model()
    entail = Entailment(model)
    entail.consistent()
    facts = forced_facts(entail)
    return facts, odds(model, BUDGET, entail)


def new_report(record: Record) -> tuple:
    """The report's facts and odds as computed now."""
    found = _report(record, BUDGET, 0, None)
    return found.forced, found.odds


def old_facts(record: Record) -> list:
    """The z3 facts alone, on a fresh solver (the count excluded)."""
    entail = Entailment(record.model())
    entail.consistent()
    started = time.perf_counter()
    forced_facts(entail)
    return [time.perf_counter() - started]


def new_facts(record: Record) -> list:
    """The counted facts alone, dated: the count excluded."""
    model = record.model()
    entail = Entailment(model)
    entail.consistent()
    result = odds(model, BUDGET, entail, plain=True)
    started = time.perf_counter()
    dated(entail, counted(result))
    return [time.perf_counter() - started]


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call takes."""
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def measure(record: Record, runs: int) -> dict:
    """Median times of old and new, report and facts, and whether they agree."""
    old, new = old_report(record), new_report(record)
    same = old[0] == new[0] and old[1] == new[1]
    times: dict[str, list[float]] = {k: [] for k in ("old", "new", "old facts", "new facts")}
    for _ in range(runs):
        times["old"].append(timed(lambda: old_report(record)))
        times["new"].append(timed(lambda: new_report(record)))
        times["old facts"] += old_facts(record)
        times["new facts"] += new_facts(record)
    medians = {k: statistics.median(v) for k, v in times.items()}
    return medians | {"same": same, "facts": len(new[0]), "worlds": new[1].worlds}


def table(rows: list[tuple[str, dict]], markdown: bool) -> str:
    """The results as aligned text or Markdown."""
    head = ["state", "facts", "worlds", "old", "new", "old/new", "old facts", "new facts"]
    head += ["old/new", "same"]
    body = []
    for name, m in rows:
        body.append(
            [name, str(m["facts"]), str(m["worlds"])]
            + [f"{m['old']:.3f} s", f"{m['new']:.3f} s", f"{m['old'] / m['new']:.1f}x"]
            + [f"{m['old facts']:.3f} s", f"{m['new facts']:.3f} s"]
            + [f"{m['old facts'] / m['new facts']:.1f}x", "yes" if m["same"] else "NO"]
        )
    return render(head, body, markdown)


def main() -> None:
    """Measure every state and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = [(name, measure(record, args.runs)) for name, record in states(args.seeds)]
    print(table(rows, args.markdown))
    mid = {k: statistics.median(m[k] for _, m in rows) for k in ("old", "new")}
    print(f"\nmedian report over the states: old {mid['old']:.3f} s, new {mid['new']:.3f} s")


if __name__ == "__main__":
    main()
