"""How far does the exact search reach at Loot the Loop? Late states of the full deck, timed.

Usage: ``.venv/bin/python benchmarks/loop_exact.py [--games 30] [--budget 1.0]
[--unseen 0 2 4 6 8 10 12] [--markdown]``.

Each seed is a game of the simulator's greedy policy (``simulate(seed, "greedy")``, followed by
``temple.follow``); from the last third of its states with a legal action, every third is
taken. Those states have 14 or more unseen cards, so each is also taken with fewer: for each
``--unseen`` u below its own count, face-down places below the top two, chosen at random
(seeded), are shown as they truly lie until u cards remain unseen. Each state is given to
``exact.solve`` with a ``Deadline`` of ``--budget`` seconds of CPU time (this process's: steady
on a shared machine).

One row a count of unseen cards: the states, those solved within the budget, of them the doomed
(chance 0) and the sure (chance 1), the median and the largest time of the solved ones, and the
median number of spots (the public states the search went through, solved or not: how far the
player can roam between looks matters as much as the unseen cards).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator

from tables import render

from sleuth.budget import Deadline
from sleuth.games.loop import exact
from sleuth.games.loop.simulate import State, simulate
from sleuth.games.loop.temple import PLAYING, Temple, follow
from sleuth.record import parse


def late(games: int) -> Iterator[tuple[Temple, State]]:
    """Late states of greedy games: the temple, and the true state under it."""
    for seed in range(games):
        game = simulate(seed, "greedy")
        record = parse(game.doc, "simulated")
        temples = follow(record.events, record.table, record.start)
        playing = [k for k, t in enumerate(temples) if t.status == PLAYING and t.actions()]
        for k in playing[len(playing) * 2 // 3 :: 3]:
            yield temples[k], game.states[k]


def shown(temple: Temple, truth: State, unseen: int, rng: random.Random) -> Temple | None:
    """The temple with face-down places below the top two shown until ``unseen`` are left."""
    down = [k for k, place in enumerate(temple.deck) if place is None and k >= 2]
    extra = len(temple.unseen) - unseen
    if extra < 0 or extra > len(down):
        return None
    deck = list(temple.deck)
    for k in rng.sample(down, extra):
        deck[k] = truth.deck[k][0]
    seen = temple.seen | {c for c in deck if c}
    return Temple(tuple(deck), temple.notes, temple.score, frozenset(seen))


def timed(temple: Temple, budget: float) -> tuple[exact.Solved | None, float, int]:
    """The search's answer, its CPU seconds, and the spots it went through."""
    search = exact.Search()
    start = time.process_time()
    solved = exact.solve(temple, Deadline(budget, time.process_time), search=search)
    return solved, time.process_time() - start, search.spots


def main(argv: list[str]) -> None:
    """Measure, then print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--unseen", type=int, nargs="+", default=[0, 2, 4, 6, 8, 10, 12])
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    rng = random.Random(0)
    rows: defaultdict[int, list[tuple[exact.Solved | None, float, int]]] = defaultdict(list)
    for temple, truth in late(args.games):
        for unseen in args.unseen:
            if (now := shown(temple, truth, unseen, rng)) is not None:
                rows[unseen].append(timed(now, args.budget))
        print(f"{sum(map(len, rows.values()))} states", end="\r", file=sys.stderr)
    table = []
    for unseen in sorted(rows):
        done = [(s, t, n) for s, t, n in rows[unseen] if s is not None]
        times = [t for _, t, _ in done] or [0.0]
        cells = [
            unseen,
            len(rows[unseen]),
            len(done),
            sum(s.win == 0 for s, _, _ in done),
            sum(s.win == 1 for s, _, _ in done),
            f"{statistics.median(times):.3f}",
            f"{max(times):.3f}",
            int(statistics.median(n for _, _, n in rows[unseen])),
        ]
        table.append([str(c) for c in cells])
    heads = ["unseen", "states", "solved", "doomed", "sure", "median s", "max s", "spots"]
    print(render(heads, table, args.markdown))


if __name__ == "__main__":
    main(sys.argv[1:])
