"""Exact treasure odds against the average of the first 100 solutions a solver finds.

Usage: ``.venv/bin/python benchmarks/ip_average.py [--seed 1] [--events 10] [--no-survey]``

A public Loot of Lima solver draws up to 100 solutions of an integer program and reports how
often each treasure pair appears among them. This script emulates that on simulated 3-player
records (sleuth.games.lima.simulate): z3 finds solutions one by one, each blocked once found, and
python-constraint yields them in its search order; each stops at 100, and the share of each
treasure pair among them is set beside sleuth's exact probability. For contrast, 100 distinct
worlds drawn uniformly at random (from a full enumeration) show what 100 solutions can give at
best. A survey then repeats the z3 emulation over several seeds and cut points.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter
from fractions import Fraction
from itertools import islice

import z3
from rich.console import Console
from rich.table import Table

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from oracles.csp import worlds  # noqa: E402

from sleuth.analysis import report  # noqa: E402
from sleuth.games.lima import simulate as simulate_lima  # noqa: E402
from sleuth.games.lima.advice import treasure_pairs  # noqa: E402
from sleuth.games.lima.rules import TREASURE  # noqa: E402
from sleuth.model import Deal, Model  # noqa: E402
from sleuth.record import Record, parse  # noqa: E402
from sleuth.solve.entail import Entailment  # noqa: E402

SOLUTIONS = 100
PLAYERS = 3
Pair = tuple[str, ...]  # e.g. ("4M", "7B")


def z3_solutions(model: Model, limit: int = SOLUTIONS) -> list[Deal]:
    """The first ``limit`` distinct worlds z3 finds, each blocked once found."""
    entail = Entailment(model)
    found = []
    while len(found) < limit and entail.solver.check(entail.guards) == z3.sat:
        m = entail.solver.model()
        held = [(pair, var) for pair, var in entail.x.items() if z3.is_true(m.eval(var))]
        found.append({item: holder for (holder, item), _ in held})
        entail.solver.add(z3.Not(z3.And([var for _, var in held])))
    return found


def constraint_solutions(model: Model, limit: int = SOLUTIONS) -> list[Deal]:
    """The first ``limit`` worlds in python-constraint's search order."""
    return list(islice(worlds(model), limit))


def uniform_solutions(model: Model, seed: int, limit: int = SOLUTIONS) -> list[Deal]:
    """``limit`` distinct worlds drawn uniformly at random from all of them."""
    every = list(worlds(model))
    return random.Random(seed).sample(every, min(limit, len(every)))


def pair_shares(deals: list[Deal]) -> dict[Pair, Fraction]:
    """The share of each treasure pair among ``deals``."""
    pairs = Counter(tuple(sorted(i for i, h in deal.items() if h == TREASURE)) for deal in deals)
    return {pair: Fraction(n, len(deals)) for pair, n in pairs.items()}


def record(seed: int, events: int) -> Record:
    """A simulated 3-player Loot of Lima record cut after ``events`` events."""
    doc, _ = simulate_lima.simulate(PLAYERS, 30, seed)
    return parse(doc | {"events": doc["events"][:events]}, "simulation")


def exact_pairs(rec: Record) -> tuple[int, dict[Pair, Fraction]]:
    """The number of worlds and sleuth's exact probability of every treasure pair."""
    result = report(rec)
    if not result.odds.exact:
        raise SystemExit("the exact counter fell back to an estimate; nothing to compare")
    return result.worlds, {p.locations: p.probability for p in treasure_pairs(result)}


def gap(exact: dict[Pair, Fraction], shares: dict[Pair, Fraction]) -> tuple[Fraction, Pair]:
    """The largest difference between two pair distributions, and where it is."""
    pair = max(exact.keys() | shares.keys(), key=lambda p: abs(exact.get(p, 0) - shares.get(p, 0)))
    return abs(exact.get(pair, 0) - shares.get(pair, 0)), pair


def example(seed: int, events: int, console: Console, top: int = 8) -> None:
    """One record: every method's share of the likeliest pairs, and its largest gap."""
    rec = record(seed, events)
    total, exact = exact_pairs(rec)
    model = rec.model()
    methods = {
        f"z3: first {SOLUTIONS}": pair_shares(z3_solutions(model)),
        f"python-constraint: first {SOLUTIONS}": pair_shares(constraint_solutions(model)),
        f"{SOLUTIONS} uniform draws": pair_shares(uniform_solutions(model, seed)),
    }
    console.print(
        f"Loot of Lima, {PLAYERS} players, simulated (seed {seed}), after {events} events: "
        f"{total:,} worlds, {len(exact)} possible treasure pairs.",
        markup=False,
    )
    table = Table(title_justify="left")
    for name in ["pair", "exact (sleuth)", *methods]:
        table.add_column(name, justify="left" if name == "pair" else "right")
    shown = sorted(exact, key=lambda p: (-exact[p], p))[:top]
    for shares in methods.values():
        shown += [p for p in sorted(shares, key=lambda p: (-shares[p], p))[:2] if p not in shown]
    for pair in shown:
        cells = [pct(exact.get(pair, 0))] + [pct(s.get(pair, 0)) for s in methods.values()]
        table.add_row(" ".join(pair), *cells)
    table.add_row("pairs seen", str(len(exact)), *(str(len(s)) for s in methods.values()))
    gaps = [gap(exact, s) for s in methods.values()]
    table.add_row("largest gap", "", *(f"{pct(g)} ({' '.join(p)})" for g, p in gaps))
    console.print(table)


def survey(seeds: range, cuts: tuple[int, ...], console: Console) -> None:
    """The z3 emulation against the exact odds over several simulated records."""
    table = Table(title=f"z3's first {SOLUTIONS} solutions over several records")
    columns = [
        "seed",
        "events",
        "worlds",
        "pairs",
        "exact best",
        "z3 best (its share)",
        "exact p of z3 best",
        "largest gap",
    ]
    for name in columns:
        table.add_column(name, justify="right")
    for seed in seeds:
        for events in cuts:
            rec = record(seed, events)
            total, exact = exact_pairs(rec)
            shares = pair_shares(z3_solutions(rec.model()))
            top = max(shares, key=lambda p: (shares[p], p))
            table.add_row(
                str(seed),
                str(events),
                f"{total:,}",
                str(len(exact)),
                likeliest(exact),
                f"{' '.join(top)} {pct(shares[top])}",
                pct(exact.get(top, 0)),
                pct(gap(exact, shares)[0]),
            )
    console.print(table)


def likeliest(odds: dict[Pair, Fraction]) -> str:
    """The likeliest pair and its probability, and how many pairs share it."""
    best = max(odds.values())
    tied = sorted(p for p, v in odds.items() if v == best)
    more = f" (and {len(tied) - 1} more)" if len(tied) > 1 else ""
    return f"{' '.join(tied[0])} {pct(best)}{more}"


def pct(p) -> str:
    """A probability as a percentage with one decimal."""
    return f"{float(p):.1%}"


def main() -> None:
    """Parse the options, show the example, then the survey."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], os.environ | {"PYTHONHASHSEED": "0"})
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the example's simulation seed")
    parser.add_argument("--events", type=int, default=10, help="the example's cut point")
    parser.add_argument("--no-survey", action="store_true", help="only the example")
    args = parser.parse_args()
    console = Console(highlight=False, width=140)
    example(args.seed, args.events, console)
    if not args.no_survey:
        console.print()
        survey(range(1, 9), (6, 10, 14), console)


if __name__ == "__main__":
    main()
