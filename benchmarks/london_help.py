"""Does ``sleuth next`` help at Looting London? Simulated self-play, one seat advised, paired.

Usage: ``.venv/bin/python benchmarks/london_help.py [--players 2,3,4] [--games 1000]
[--first-seed 0] [--workers 2] [--destroy 0.2] [--markdown]``.

Each seed is one game of ``sleuth.games.london.simulate`` (written from the rulebook alone),
played twice from the same deal and tiles: once with every seat on the simulator's simple
policy (meld the highest bottom tile the hand pays for, now and then a destroy first, with
chance ``--destroy``; then a face-up card of a figure some bottom tile wants, else the deck),
and once with seat ``seed % players`` following ``sleuth next`` instead: its record so far (its
own seat's view) read by ``believe``, and ``advise``'s first option played (its destroy and
meld, then its draw). The two games agree until the advised seat first chooses differently.

The first table: per player count, the advised seat's win share (1 for a win alone, 1/k for a
tie of k at the top) under each policy with a 95% interval, the paired difference (next minus
simple) with its interval and the paired t test's p, the seeds won (a share above the other
game's) under one policy only and McNemar's exact p on them; the mean score under each and the
paired difference with its interval and p; ``ms/turn``, the CPU time of one advised turn. The
second checks ``next``'s chances: on each advised turn, the chances it stated that I could take
each column's bottom tile at my next turn, summed, against the tiles I then could take, and z,
their difference over its standard deviation (about -2 to 2 when the chances are right; with
``--destroy 0`` the opponents follow ``next``'s model exactly). Progress goes to stderr, tables
to stdout.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from typing import NamedTuple

from paired import mean_interval, paired_t_p, sign_p, wilson
from tables import render

from sleuth.games.london.advice import advise
from sleuth.games.london.cards import worth
from sleuth.games.london.course import Course
from sleuth.games.london.hands import believe
from sleuth.games.london.simulate import Choice, simulate
from sleuth.record import parse


class Outcome(NamedTuple):
    """The advised seat's result in one game: its win share and its score."""

    share: float
    score: int


class Stated(NamedTuple):
    """One advised turn's stated chances, summed, what came of them, and its CPU seconds."""

    chances: float
    spread: float  # the sum of p (1 - p): the variance of the count, the events independent
    taken: int
    seconds: float


class Advisor:
    """Seat ``me``'s turns by ``next``; each turn's stated chances checked at the next one."""

    def __init__(self) -> None:
        self.pending: tuple[dict, dict, dict] | None = None  # chances, tiles, column lengths
        self.log: list[Stated] = []
        self.seconds = 0.0

    def __call__(self, doc: dict) -> Choice:
        clock = time.process_time()
        found = believe(parse(doc, "sim"))
        self.settle(found.course, found.record.table.me, found.box)
        turn = advise(found, {}).options[0]
        self.pending = (turn.mine, turn.tiles, self.lengths_after(found.course, turn))
        self.seconds = time.process_time() - clock
        return {
            "destroy": None if turn.destroy is None else _step(turn.destroy.fields()),
            "meld": None if turn.meld is None else _step(turn.meld.fields()),
            "draw": turn.draw,
        }

    @staticmethod
    def lengths_after(now: Course, turn) -> dict[int, int]:
        """Each column's length after my step (a meld takes one tile, a destroy more)."""
        lengths = {c: len(tiles) for c, tiles in enumerate(now.columns, 1)}
        for event in (turn.destroy, turn.meld):
            if event is not None:
                lengths[event.column] -= getattr(event, "tiles", 1)
        return lengths

    def settle(self, now: Course, me: str, box) -> None:
        """The last turn's chances against what happened: the tiles I can take now."""
        if self.pending is None:
            return
        mine, tiles, lengths = self.pending
        hand = now.known[me]
        taken = sum(
            len(now.columns[c - 1]) == lengths[c] and worth(hand, tile, box) >= tile.number
            for c, tile in tiles.items()
        )
        chances = [float(p) for p in mine.values()]
        spread = sum(p * (1 - p) for p in chances)
        self.log.append(Stated(sum(chances), spread, taken, self.seconds))
        self.pending = None


def _step(fields: dict) -> dict:
    """A record event's fields without its player."""
    return {k: v for k, v in fields.items() if k != "by"}


def outcome(doc: dict, seat: int, scores: dict[str, int]) -> Outcome:
    """The seat's share of the win and its score."""
    name = doc["players"][seat]
    top = max(scores.values())
    leaders = [p for p, n in scores.items() if n == top]
    return Outcome(1 / len(leaders) if name in leaders else 0.0, scores[name])


def final_scores(doc: dict) -> dict[str, int]:
    """Every player's score at the end of the recorded game."""
    from sleuth.games.london.course import course

    record = parse(doc, "sim")
    now = course(record)
    return {p: now.points(p, record.start) for p in record.table.players}


def play(job: tuple[int, int, float]) -> tuple[int, int, Outcome, Outcome, list[Stated]]:
    """One seed's two games: (players, seed, simple, next, the advised turns' log)."""
    players, seed, destroy = job
    seat = seed % players
    plain = simulate(players, seed, me=seat, destroy=destroy).doc
    advisor = Advisor()
    advised = simulate(players, seed, me=seat, destroy=destroy, advisor=advisor).doc
    simple = outcome(plain, seat, final_scores(plain))
    helped = outcome(advised, seat, final_scores(advised))
    return players, seed, simple, helped, advisor.log


def cell(low: float, mid: float, high: float, scale: float = 1.0, signed: bool = False) -> str:
    """``mid [low, high]`` scaled."""
    sign = "+" if signed else ""
    return f"{mid * scale:{sign}.1f} [{low * scale:{sign}.1f}, {high * scale:{sign}.1f}]"


def outcome_row(players: int, runs: list[tuple[Outcome, Outcome, list[Stated]]]) -> list[str]:
    """One player count: win shares, scores, paired differences, the time of a turn."""
    n = len(runs)
    shares = [(a.share, b.share) for a, b, _ in runs]
    rows = []
    for k in (0, 1):
        low, high = wilson(round(sum(s[k] for s in shares)), n)
        rows.append(
            f"{100 * sum(s[k] for s in shares) / n:.1f} [{100 * low:.1f}, {100 * high:.1f}]"
        )
    diff = [b - a for a, b in shares]
    only_simple = sum(a > b for a, b in shares)
    only_next = sum(b > a for a, b in shares)
    scores = [(a.score, b.score) for a, b, _ in runs]
    turns = [s.seconds for _, _, log in runs for s in log]
    return [
        str(players),
        str(n),
        *rows,
        cell(*_ordered(mean_interval(diff)), 100, True),
        f"{paired_t_p(diff):.3g}",
        f"{only_simple}/{only_next}",
        f"{sign_p(only_simple, only_next):.3g}",
        f"{statistics.fmean(a for a, _ in scores):.2f}",
        f"{statistics.fmean(b for _, b in scores):.2f}",
        cell(*_ordered(mean_interval([b - a for a, b in scores])), 1, True),
        f"{paired_t_p([b - a for a, b in scores]):.3g}",
        f"{1000 * statistics.median(turns):.0f}" if turns else "-",
    ]


def _ordered(interval: tuple[float, float, float]) -> tuple[float, float, float]:
    """(low, mean, high) from ``mean_interval``'s (mean, low, high)."""
    mean, low, high = interval
    return low, mean, high


def calibration_row(players: int, runs: list[tuple[Outcome, Outcome, list[Stated]]]) -> list:
    """The chances ``next`` stated against the tiles taken, summed over the advised turns."""
    log = [s for _, _, turns in runs for s in turns]
    stated = sum(s.chances for s in log)
    taken = sum(s.taken for s in log)
    spread = sum(s.spread for s in log)
    z = (taken - stated) / math.sqrt(spread) if spread else 0.0
    return [str(players), str(len(log)), f"{stated:.1f}", str(taken), f"{z:+.2f}"]


HEAD = [
    "players",
    "games",
    "win % simple",
    "win % next",
    "next - simple (points)",
    "p (t)",
    "won only simple/next",
    "p (McNemar)",
    "score simple",
    "score next",
    "next - simple",
    "p (t)",
    "ms/turn",
]
CALIBRATION = ["players", "advised turns", "stated (sum)", "taken", "z"]


def run(counts: list[int], seeds: range, workers: int, destroy: float) -> dict[int, list]:
    """Every seed's games at every player count, by player count."""
    jobs = [(n, seed, destroy) for n in counts for seed in seeds]
    out: dict[int, list] = {n: [] for n in counts}
    started = time.monotonic()
    with multiprocessing.Pool(workers) as pool:
        for k, (n, _seed, simple, helped, log) in enumerate(pool.imap_unordered(play, jobs), 1):
            out[n].append((simple, helped, log))
            if k % 50 == 0 or k == len(jobs):
                elapsed = time.monotonic() - started
                print(f"{k}/{len(jobs)} games, {elapsed:.0f} s", file=sys.stderr, flush=True)
    return out


def main() -> None:
    """Play the games asked for and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--games", type=int, default=1000, help="seeds per player count")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--destroy", type=float, default=0.2, help="the simple policy's destroys")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    counts = [int(n) for n in args.players.split(",")]
    seeds = range(args.first_seed, args.first_seed + args.games)
    started = time.monotonic()
    results = run(counts, seeds, args.workers, args.destroy)
    print(render(HEAD, [outcome_row(n, results[n]) for n in counts], args.markdown))
    print()
    print(render(CALIBRATION, [calibration_row(n, results[n]) for n in counts], args.markdown))
    print()
    print(
        f"seeds {seeds.start}-{seeds.stop - 1}, destroy {args.destroy}; "
        f"{sum(len(r) for r in results.values())} seeds in {time.monotonic() - started:.0f} s "
        f"on {args.workers} worker(s)"
    )


if __name__ == "__main__":
    main()
