"""Issue 19, item 6: what keeping a count's work between consecutive prefixes of a game buys.

Usage: ``.venv/bin/python benchmarks/reuse.py [--games 5] [--runs 3] [--markdown]``.

For every prefix of 6 to 24 events of 6-player Goldraub games as played at a table
(``table_game(6, 10, seed)``, seeds 0 to ``--games`` - 1), in one process, three counts
(``sleuth.solve.count``, medians of ``--runs``):

- **cold**: no remembered order;
- **remembered**: the order the previous prefix's count left in its ``Remembered`` (what the
  record's cache file carries from one command to the next);
- **new last**: that order with the new event's items (a search's row, a guess's sector) moved
  to its end, so that every layer before them could be the previous count's.

For the states whose count is hard (an order was remembered), the forward pass in the "new
last" order is stepped one item at a time: **before new** is the share of its time spent before
the first new item, the most that reusing the previous count's layers could save, and
**same layers** says whether those layers have the same sizes as the previous prefix's in that
order (so could be reused at all: the new event's propagation may change earlier items too).
"""

from __future__ import annotations

import argparse
import statistics
import time

from tables import render

from sleuth.games.goldraub.board import city
from sleuth.games.goldraub.simulate import table_game
from sleuth.record import Record, parse
from sleuth.solve import Remembered, count
from sleuth.solve.merge import Kernels
from sleuth.solve.plan import plan, with_order
from sleuth.solve.simplify import reduce
from sleuth.solve.vector import VectorRun

FIRST, LAST = 6, 24
BUDGET = 60.0


def new_items(event: dict) -> list[str]:
    """The items an event's constraint names: a search's row, a guess's sector."""
    if "search" in event:
        return list(city().rows[event["search"]["row"]])
    return [str(event["guess"]["sector"])]


def timed(model, memory: Remembered | None, runs: int) -> tuple[float, Remembered | None]:
    """Median seconds of a count, each run from a copy of ``memory``; the memory it left."""
    times, left = [], None
    for _ in range(runs):
        left = None if memory is None else Remembered(list(memory.order))
        started = time.perf_counter()
        count(model, BUDGET, left)
        times.append(time.perf_counter() - started)
    return statistics.median(times), left


def layers(model, order: list[str], upto: int, kernels: Kernels) -> tuple[list[int], float, float]:
    """Layer sizes before item ``upto`` of a forward pass in ``order``, and its seconds to
    there and in all."""
    reduced = reduce(model)
    p = plan(model, reduced)
    run = VectorRun(with_order(p, [i for i in order if i in set(p.tracked)], reduced), kernels)
    run.most = run.limit = 1 << 40
    sizes, started, before = [], time.perf_counter(), None
    while not run.done:
        run.advance(run.size, None)
        if before is None and len(run.layers) - 1 >= upto:
            before = time.perf_counter() - started
            sizes = [len(layer) for layer in run.layers[: upto + 1]]
    total = time.perf_counter() - started
    return sizes, before if before is not None else total, total


def game(seed: int, runs: int, kernels: Kernels) -> list[dict]:
    """The three counts at every prefix of one game, and the profile of the hard ones."""
    doc, _ = table_game(6, 10, seed)
    record = parse(doc, f"table_game(6, 10, {seed})")
    memory, out = Remembered(), []
    for k in range(FIRST, min(LAST, len(record.events)) + 1):
        model = Record(record.game, record.table, record.start, record.events[:k]).model()
        fresh = [i for i in new_items(doc["events"][k - 1]) if i in memory.order]
        last = Remembered([i for i in memory.order if i not in fresh] + fresh)
        line = {"seed": seed, "events": k, "hard": bool(memory.order)}
        line["cold"], _ = timed(model, None, runs)
        line["last"], _ = timed(model, last, runs)
        line["remembered"], memory = timed(model, memory, runs)
        if line["hard"] and fresh:
            upto = len(last.order) - len(fresh)
            before = Record(record.game, record.table, record.start, record.events[: k - 1])
            old, _, _ = layers(before.model(), last.order, upto, kernels)
            now, pre, total = layers(model, last.order, upto, kernels)
            line |= {"before new": pre / total, "same layers": old == now}
        out.append(line)
    return out


def ratio(a: list[float], b: list[float]) -> str:
    """The median of the ratios a/b."""
    return f"{statistics.median(x / y for x, y in zip(a, b, strict=True)):.2f}"


def table(lines: list[dict], markdown: bool) -> str:
    """Medians over all states and over the hard ones."""
    head = ["states", "n", "cold s", "remembered s", "new last s", "remembered/cold"]
    head += ["new last/remembered", "before new", "same layers"]
    body = []
    for name, rows in (("all", lines), ("hard", [x for x in lines if x["hard"]])):
        if not rows:
            continue
        med = {k: statistics.median(x[k] for x in rows) for k in ("cold", "remembered", "last")}
        shares = [x["before new"] for x in rows if "before new" in x]
        same = [x["same layers"] for x in rows if "same layers" in x]
        body.append(
            [name, str(len(rows))]
            + [f"{med[k]:.3f}" for k in ("cold", "remembered", "last")]
            + [ratio([x["remembered"] for x in rows], [x["cold"] for x in rows])]
            + [ratio([x["last"] for x in rows], [x["remembered"] for x in rows])]
            + [f"{statistics.median(shares):.0%}" if shares else "-"]
            + [f"{sum(same)}/{len(same)}"]
        )
    return render(head, body, markdown)


def main() -> None:
    """Measure every prefix of every game and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    kernels = Kernels()
    kernels.turn()
    lines = []
    for seed in range(args.games):
        lines += game(seed, args.runs, kernels)
    print(table(lines, args.markdown))
    slow = sorted(lines, key=lambda x: -x["cold"])[:5]
    print("\nslowest states (seed @events: cold, remembered, new last seconds):")
    for x in slow:
        times = ", ".join(f"{x[k]:.2f}" for k in ("cold", "remembered", "last"))
        print(f"  {x['seed']} @{x['events']}: {times}")


if __name__ == "__main__":
    main()
