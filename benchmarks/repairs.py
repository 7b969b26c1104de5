"""Repairs of a whole event: on simulated records with one event altered, is the truth ranked first?

Usage: ``.venv/bin/python benchmarks/repairs.py [--seeds 8] [--markdown]``.

Each simulated game (4-player Goldraub, ``simulate(4, 10, seed)``; 4-player Loot of Lima,
``simulate(4, 10, seed)``) gets one event altered, in one of these ways:

- **one field**: one answer (gold, saw, answer, correct) set to another valid value, each
  equally likely (the mistake the ranking assumes);
- **one field +-1**: one count answer off by one (a typical slip of a count);
- **two fields**: a search's gold and saw, or an ask's answer and terrain, both changed;
- **misheard row**: a search's row changed to the other row offered at its space (``at`` kept).

An altered record that still fits some deal gives no repair and is only counted (**fits**).
For the others: **found** says how often the true event (the altered fields set back, nothing
else changed) is among the repairs, **first** how often it is ranked first (fewer fields first,
then most deals), **top 3** within the first three, **deals first** how often it would be first
if repairs were ranked by deals alone, **cut** how often the search stopped at its time limit,
and **median s** the median time of the whole report.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from tables import render

from sleuth.analysis import report
from sleuth.errors import InputError
from sleuth.games.goldraub.board import city
from sleuth.games.goldraub.simulate import simulate as goldraub
from sleuth.games.lima.simulate import simulate as lima
from sleuth.record import parse

COUNTS = {"gold": range(0, 4), "saw": range(0, 3), "answer": range(0, 5)}
TERRAINS = (None, "beach", "forest", "mountain")


def _other(rng: random.Random, values, old):
    """A value among ``values`` other than ``old``, each equally likely."""
    return rng.choice([v for v in values if v != old])


def one_field(kind: str, fields: dict, rng: random.Random) -> dict | None:
    """One answer set to another value, uniformly."""
    names = [f for f in ("gold", "saw", "answer", "correct") if fields.get(f) is not None]
    if not names or "treasure" in fields:
        return None
    name = rng.choice(names)
    values = (True, False) if name == "correct" else COUNTS[name]
    return {name: _other(rng, values, fields[name])}


def off_by_one(kind: str, fields: dict, rng: random.Random) -> dict | None:
    """One count answer one more or one less."""
    names = [f for f in ("gold", "saw", "answer") if fields.get(f) is not None]
    if not names:
        return None
    name = rng.choice(names)
    return {name: fields[name] + rng.choice([-1, 1])}


def two_fields(kind: str, fields: dict, rng: random.Random) -> dict | None:
    """A search's gold and saw, or an ask's answer and terrain, both changed."""
    if kind == "search" and fields.get("saw") is not None:
        return {f: _other(rng, COUNTS[f], fields[f]) for f in ("gold", "saw")}
    if kind == "ask":
        terrain = _other(rng, TERRAINS, fields.get("terrain"))
        return {"answer": _other(rng, COUNTS["answer"], fields["answer"]), "terrain": terrain}
    return None


def misheard_row(kind: str, fields: dict, rng: random.Random) -> dict | None:
    """A search's row changed to another row offered at its space."""
    if kind != "search" or fields.get("at") is None:
        return None
    offered = [r for r in city().route[fields["at"]] if r != fields["row"]]
    return {"row": rng.choice(offered)} if offered else None


ALTERATIONS: dict[str, Callable] = {
    "one field": one_field,
    "one field +-1": off_by_one,
    "two fields": two_fields,
    "misheard row": misheard_row,
}
GAMES = {"goldraub": lambda seed: goldraub(4, 10, seed), "lima": lambda seed: lima(4, 10, seed)}


def altered(doc: dict, how: Callable, rng: random.Random):
    """The record with one event altered, the event's number and its true fields; or None."""
    choices = []
    for k, item in enumerate(doc["events"]):
        ((kind, fields),) = item.items()
        change = how(kind, fields, random.Random(rng.random()))
        if change:
            choices.append((k, kind, fields, change))
    if not choices:
        return None
    k, kind, fields, change = rng.choice(choices)
    events = list(doc["events"])
    events[k] = {kind: {f: v for f, v in dict(fields, **change).items() if v is not None}}
    truth = {f: fields.get(f) for f in change}
    return dict(doc, events=events), k + 1, truth


def trial(game: str, how: Callable, seed: int) -> dict | None:
    """One altered record's report: where the true event ranks, or None if not usable."""
    doc, _ = GAMES[game](seed)
    made = altered(doc, how, random.Random(seed))
    if made is None:
        return None
    changed, index, truth = made
    try:
        record = parse(changed, "sim")
    except InputError:
        return None  # the altered value is not valid on its own (e.g. saw above gold)
    start = time.perf_counter()
    result = report(record)
    seconds = time.perf_counter() - start
    if result.fits:
        return {"fits": True}
    keys = [_key(r) for r in result.repairs]
    rank = keys.index((index, truth)) if (index, truth) in keys else None
    by_deals = sorted(result.repairs, key=lambda r: -r.worlds)
    first = bool(by_deals) and _key(by_deals[0]) == (index, truth)
    return {"fits": False, "rank": rank, "deals": first, "cut": result.repairs_cut, "s": seconds}


def _key(repair) -> tuple[int, dict]:
    """A repair as (event, field -> new value), to compare with the truth."""
    return repair.event, {f: v for f, v, _ in repair.changes}


def share(rows: list[dict], test: Callable) -> str:
    """How many rows pass ``test``, of all, as "n/N (p%)"."""
    n = sum(bool(test(r)) for r in rows)
    return f"{n}/{len(rows)} ({100 * n / len(rows):.0f}%)" if rows else "-"


def main() -> None:
    """Run every game and alteration over the seeds and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    head = ["game", "altered", "fits", "found", "first", "top 3", "deals first", "cut", "median s"]
    table = []
    for game in GAMES:
        for name, how in ALTERATIONS.items():
            if game == "lima" and name == "misheard row":
                continue
            done = [t for t in (trial(game, how, s) for s in range(args.seeds)) if t]
            rows = [t for t in done if not t["fits"]]
            seconds = statistics.median(t["s"] for t in rows) if rows else 0.0
            table.append(
                [
                    game,
                    name,
                    str(len(done) - len(rows)),
                    share(rows, lambda r: r["rank"] is not None),
                    share(rows, lambda r: r["rank"] == 0),
                    share(rows, lambda r: r["rank"] is not None and r["rank"] < 3),
                    share(rows, lambda r: r["deals"]),
                    share(rows, lambda r: r["cut"]),
                    f"{seconds:.2f}",
                ]
            )
            print(f"{game} {name}: done", file=sys.stderr)
    print(render(head, table, args.markdown))


if __name__ == "__main__":
    main()
