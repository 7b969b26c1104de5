"""Issue 19, item 6: what keeping a count's work between consecutive prefixes of a game buys.

Usage: ``.venv/bin/python benchmarks/reuse.py [--games 5] [--runs 3] [--markdown]``.

For every prefix of 6 to 24 events of 6-player Goldraub games as played at a table
(``table_game(6, 10, seed)``, seeds 0 to ``--games`` - 1), in one process, three counts
(``sleuth.solve.count``, medians of ``--runs``):

- **cold**: no remembered order;
- **remembered**: the order the previous prefix's count left in its ``Remembered`` (what the
  record's cache file carries from one command to the next);
- **previous**: the order the previous prefix's count finished in, whatever its size (the
  shipped memory keeps only a hard count's order, over ``tuning.BIG`` states; here every count
  keeps one);
- **new last**: that order with the new event's items (a search's row, a guess's sector) moved
  to its end, so that every layer before them could be the previous count's.

For every state, the forward pass in the "new last" order is stepped one item at a time:
**before new** is the share of its time spent before the first new item, the most that reusing
the previous count's layers could save, and **same layers** says whether those layers have the
same sizes as the previous prefix's in that order (so could be reused at all: the new event's
propagation may change earlier items too).
"""

from __future__ import annotations

import argparse
import statistics
import time
from contextlib import contextmanager

from tables import render

from sleuth.games.goldraub.board import city
from sleuth.games.goldraub.simulate import table_game
from sleuth.record import Record, parse
from sleuth.solve import Remembered, count, tuning
from sleuth.solve.counts import TooBig
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


@contextmanager
def every_order():
    """Counts meanwhile remember their order whatever their size."""
    big, tuning.BIG = tuning.BIG, -1
    try:
        yield
    finally:
        tuning.BIG = big


def timed(model, memory: Remembered | None, runs: int) -> tuple[float, Remembered | None]:
    """Median seconds of a count, each run from a copy of ``memory``; the memory it left."""
    times, left = [], None
    for _ in range(runs):
        left = None if memory is None else Remembered(list(memory.order))
        started = time.perf_counter()
        count(model, BUDGET, left)
        times.append(time.perf_counter() - started)
    return statistics.median(times), left


def layers(model, order: list[str], fresh: list[str], kernels: Kernels) -> tuple:
    """Layer sizes before the ``fresh`` items of a forward pass in ``order`` (the rest of the
    tracked items before them), its seconds to there and in all."""
    reduced = reduce(model)
    p = plan(model, reduced)
    tracked = [i for i in order if i in p.tracked and i not in fresh]
    tracked += [i for i in p.tracked if i not in tracked and i not in fresh]
    upto = len(tracked)
    tracked += [i for i in p.tracked if i in fresh]
    run = VectorRun(with_order(p, tracked, reduced), kernels)
    run.limit = 1 << 40
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
    memory, previous, out = Remembered(), Remembered(), []
    for k in range(FIRST, min(LAST, len(record.events)) + 1):
        model = Record(record.game, record.table, record.start, record.events[:k]).model()
        fresh = [i for i in new_items(doc["events"][k - 1]) if i in previous.order]
        last = Remembered([i for i in previous.order if i not in fresh] + fresh)
        line = {"seed": seed, "events": k, "hard": bool(memory.order)}
        line["cold"], _ = timed(model, None, runs)
        line["remembered"], memory = timed(model, memory, runs)
        with every_order():
            line["last"], _ = timed(model, last, runs)
            line["previous"], previous = timed(model, previous, runs)
        if previous.order and fresh:
            before = Record(record.game, record.table, record.start, record.events[: k - 1])
            try:
                old, _, _ = layers(before.model(), last.order, fresh, kernels)
                now, pre, total = layers(model, last.order, fresh, kernels)
            except TooBig:  # this order's layers outgrow the engine: no profile
                pass
            else:
                line |= {"before new": pre / total, "same layers": old == now}
        out.append(line)
    return out


def ratio(a: list[float], b: list[float]) -> str:
    """The median of the ratios a/b."""
    return f"{statistics.median(x / y for x, y in zip(a, b, strict=True)):.2f}"


def table(lines: list[dict], markdown: bool) -> str:
    """Medians over all states and over the hard ones."""
    head = ["states", "n", "cold s", "remembered s", "previous s", "new last s"]
    head += ["remembered/cold", "previous/cold", "new last/previous", "before new", "same layers"]
    body = []
    slow = [x for x in lines if x["cold"] > 0.5]
    hard = [x for x in lines if x["hard"]]
    for name, rows in (("all", lines), ("cold > 0.5 s", slow), ("hard", hard)):
        if not rows:
            continue
        kinds = ("cold", "remembered", "previous", "last")
        med = {k: statistics.median(x[k] for x in rows) for k in kinds}
        shares = [x["before new"] for x in rows if "before new" in x]
        same = [x["same layers"] for x in rows if "same layers" in x]
        body.append(
            [name, str(len(rows))]
            + [f"{med[k]:.3f}" for k in kinds]
            + [ratio([x["remembered"] for x in rows], [x["cold"] for x in rows])]
            + [ratio([x["previous"] for x in rows], [x["cold"] for x in rows])]
            + [ratio([x["last"] for x in rows], [x["previous"] for x in rows])]
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
    print("\nslowest states (seed @events: cold, remembered, previous, new last seconds):")
    for x in slow:
        times = ", ".join(f"{x[k]:.2f}" for k in ("cold", "remembered", "previous", "last"))
        print(f"  {x['seed']} @{x['events']}: {times}")


if __name__ == "__main__":
    main()
