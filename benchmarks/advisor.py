"""Does ``sleuth next`` help? Whole simulated games, my questions chosen four ways, the same games.

Usage: ``.venv/bin/python benchmarks/advisor.py [--game goldraub lima] [--players 3 4 5]
[--games 200] [--first-seed 0] [--cap S] [--markdown]``, or ``--from-logs FILE...`` to make the
tables again from the progress lines runs wrote to stderr (runs over different seeds add up;
a seed seen twice counts once; ``s/turn`` is not in the lines).

Each seed is one game: the same deal, the same starting player and spaces, and for every player
the same dice (a stream of its own per player, so my choices never move the others' dice). I am
the first player; the others ask uniformly at random among their legal questions (Goldraub:
move by a die roll along the route, occupied spaces skipped, then a random row offered there;
Loot of Lima: roll the three dice, then a random way to build a question from them). My
questions come from one of the policies:

- ``random``: as the others.
- ``heuristic``: the legal question over the most items whose holder I do not know for certain
  (Goldraub: sectors of the row; Lima: locations of the range that the asked player may or may
  not hold); ties at random.
- ``next bits`` (both games) / ``next value`` (Goldraub): ``sleuth next``'s first option (most
  information; Lima: most pair information), or its option of the highest expected value. The
  advisor may move me 1 to 6 spaces as the rules allow; the others and ``random`` take the die.

Nobody guesses or accuses: the games compare questions alone. Measured, after every event:
**turns**, how many turns I had taken when I first could guess with certainty (Goldraub: a
holding of another player certain by the exact count; Lima: the treasure pair certain), and in
Goldraub **points**, what guessing the certain holdings at that moment would score: 10 x the
round value then for each, two at most (the rules allow two guesses a round). A game in which
that never happens (Goldraub: 10 rounds; Lima: ``LIMA_TURNS`` of my turns) scores 0 points and
counts as its limit + 1 turns in the means and the paired differences; ``never`` counts them.

Every policy is paired with ``random`` on the same seeds: ``faster/same/slower`` counts the
games in which it reached certainty in fewer, equal, more turns; ``sign p`` is the two-sided
sign test on those (ties dropped); ``d turns`` and ``d points`` are the mean paired differences
(random minus policy for turns, policy minus random for points) and their standard errors.
``s/turn`` is the mean time of one of my choices. Progress goes to stderr, tables to stdout.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import NamedTuple

from paired import sign_p
from tables import render

from sleuth.games.goldraub import next as gnext
from sleuth.games.goldraub.rules import round_value
from sleuth.games.goldraub.simulate import NAMES as GOLDRAUB_NAMES
from sleuth.games.goldraub.simulate import START, random_search, search_event
from sleuth.games.goldraub.simulate import deal as goldraub_deal
from sleuth.games.lima import next as lnext
from sleuth.games.lima.board import island
from sleuth.games.lima.rules import TREASURE
from sleuth.games.lima.simulate import NAMES as LIMA_NAMES
from sleuth.games.lima.simulate import ask_event, opening, questions, roll_faces
from sleuth.odds import Odds
from sleuth.record import parse
from sleuth.solve import count

ROUNDS = 10  # a Goldraub game: the round counter starts at 10
LIMA_TURNS = 30  # my turns at most in a Lima game


class Outcome(NamedTuple):
    """One game's result for me: turns until certain (None: never), points, seconds choosing."""

    turns: int | None
    points: int
    seconds: float
    choices: int


def seat_streams(seed: int, players, kind: str) -> dict[str, random.Random]:
    """One random stream per player, the same whatever the other players do."""
    return {p: random.Random(f"{seed} {kind} {p}") for p in players}


def advised(record):
    """What ``Game.advise`` reads of a report: the record and its exact counts (as ``next``'s)."""
    counts = count(record.model())
    return SimpleNamespace(record=record, odds=Odds(counts.total, True, counts.held, counts.total))


# Goldraub.


def unknown_sectors(record, row: str, base) -> int:
    """How many sectors of ``row`` have no holder certain for me."""
    holders = record.model().space.holders
    return sum(
        all(base.held[h, s] != base.total for h in holders) for s in record.start.city.rows[row]
    )


def g_random(record, at, occupied, die, rng):
    """As the others: move by the die, search a random row offered there."""
    return random_search(at, die, occupied, rng)


def g_heuristic(record, at, occupied, die, rng):
    """The legal search over the most sectors whose holder I do not know; ties at random."""
    base = count(record.model())
    options = gnext.legal(record.start.city, at, occupied)
    score = {row: unknown_sectors(record, row, base) for _, row in options}
    top = max(score.values())
    return rng.choice([o for o in options if score[o[1]] == top])


def g_bits(record, at, occupied, die, rng):
    """``sleuth next``'s first option: the most information."""
    best = gnext.advise(advised(record), {"at": at, "occupied": sorted(occupied)}).options[0]
    return best.space, best.row


def g_value(record, at, occupied, die, rng):
    """``sleuth next``'s option of the highest expected points (ties: the most information)."""
    options = gnext.advise(advised(record), {"at": at, "occupied": sorted(occupied)}).options
    best = max(options, key=lambda o: o.value)
    return best.space, best.row


def certain_holdings(record) -> list:
    """The other players' holdings certain for me by the exact count."""
    base = count(record.model())
    return [h for h in gnext.open_holdings(record) if base.held[h] == base.total]


def goldraub_game(n: int, seed: int, policy: Callable) -> Outcome:
    """One game of ``n`` players, my searches by ``policy``, until a holding is certain."""
    rng = random.Random(seed)
    players = GOLDRAUB_NAMES[:n]
    me = players[0]
    truth = goldraub_deal(players, rng)
    where = dict(zip(players, rng.sample(START, n), strict=True))
    first = rng.randrange(n)
    dice, picks = seat_streams(seed, players, "dice"), seat_streams(seed, players, "picks")
    hand = sorted(int(s) for s, h in truth.items() if h == me)
    doc = {"game": "goldraub", "players": list(players), "me": me, "rounds": ROUNDS}
    doc |= {"hand": hand, "events": []}
    record, turns, seconds = parse(doc, "benchmark"), 0, 0.0
    for number in range(ROUNDS * n):
        by = players[(first + number) % n]
        occupied = set(where.values()) - {where[by]}
        die = dice[by].randint(1, 6)
        if by == me:
            clock = time.perf_counter()
            space, row = policy(record, where[by], occupied, die, picks[me])
            seconds, turns = seconds + time.perf_counter() - clock, turns + 1
        else:
            space, row = random_search(where[by], die, occupied, picks[by])
        where[by] = space
        doc["events"].append(search_event(truth, players, me, by, row, space))
        record = parse(doc, "benchmark")
        sure = certain_holdings(record)
        value = round_value(record.events, n, ROUNDS)
        if sure and value:
            return Outcome(turns, 10 * value * min(len(sure), 2), seconds, turns)
    return Outcome(None, 0, seconds, turns)


# Loot of Lima.


def l_random(record, faces, rng):
    """As the others: a random way to build a question from the dice."""
    return rng.choice(questions(faces, record.table.others(record.table.me)))


def l_heuristic(record, faces, rng):
    """The question over the most locations the asked player may or may not hold; ties random."""
    base = count(record.model())
    options = questions(faces, record.table.others(record.table.me))

    def unknown(question) -> int:
        to, start, end, terrain = question
        covered = island().range_items(start, end, terrain)
        return sum(0 < base.held[to, x] < base.total for x in covered)

    score = {q: unknown(q) for q in options}
    top = max(score.values())
    return rng.choice([q for q in options if score[q] == top])


def l_bits(record, faces, rng):
    """``sleuth next``'s first option: the most expected fall of the treasure pair's entropy."""
    roll = ",".join(f"{point}-{kind}" for point, kind in faces)
    best = lnext.advise(advised(record), {"roll": roll}).options[0].question
    start, end = best.range.split("-")
    return best.to, start, end, best.terrain


def pair_certain(record) -> bool:
    """Whether the treasure pair is certain for me."""
    base = count(record.model())
    return sum(base.held[TREASURE, x] == base.total for x in record.model().space.items) == 2


def lima_game(n: int, seed: int, policy: Callable) -> Outcome:
    """One game of ``n`` players, my questions by ``policy``, until the treasure is certain."""
    rng = random.Random(seed)
    players = LIMA_NAMES[:n]
    me = players[0]
    doc, truth = opening(players, me, rng)
    first = rng.randrange(n)
    dice, picks = seat_streams(seed, players, "dice"), seat_streams(seed, players, "picks")
    record, turns, seconds = parse(doc, "benchmark"), 0, 0.0
    for number in range(LIMA_TURNS * n):
        by = players[(first + number) % n]
        faces = roll_faces(dice[by])
        if by == me:
            if turns == LIMA_TURNS:
                break
            clock = time.perf_counter()
            question = policy(record, faces, picks[me])
            seconds, turns = seconds + time.perf_counter() - clock, turns + 1
        else:
            question = picks[by].choice(questions(faces, [p for p in players if p != by]))
        doc["events"].append(ask_event(truth, by, question))
        record = parse(doc, "benchmark")
        if pair_certain(record):
            return Outcome(turns, 0, seconds, turns)
    return Outcome(None, 0, seconds, turns)


GAMES = {
    "goldraub": (
        goldraub_game,
        ROUNDS,
        {"random": g_random, "heuristic": g_heuristic, "next bits": g_bits, "next value": g_value},
    ),
    "lima": (
        lima_game,
        LIMA_TURNS,
        {"random": l_random, "heuristic": l_heuristic, "next bits": l_bits},
    ),
}


# The statistics.


def mean_se(values: list[float]) -> str:
    """The mean and its standard error, e.g. "+1.20 +- 0.31"."""
    if len(values) < 2:
        return f"{statistics.fmean(values):+.2f}" if values else "-"
    se = statistics.stdev(values) / math.sqrt(len(values))
    return f"{statistics.fmean(values):+.2f} +- {se:.2f}"


def row(game: str, players: int, name: str, runs: dict[str, list[Outcome]], limit: int):
    """One policy's line: its turns and points, and the paired comparison with random."""
    mine, base = runs[name], runs["random"]
    turns = [limit + 1 if o.turns is None else o.turns for o in mine]
    against = [limit + 1 if o.turns is None else o.turns for o in base]
    median = statistics.median(turns)
    shown = f">{limit}" if median > limit else f"{median:g}"
    faster = sum(a > t for a, t in zip(against, turns, strict=True))
    slower = sum(a < t for a, t in zip(against, turns, strict=True))
    same = len(turns) - faster - slower
    paired = name != "random"
    points = [o.points for o in mine]
    choices = sum(o.choices for o in mine)
    cells = [
        game,
        str(players),
        name,
        str(len(mine)),
        shown,
        f"{statistics.fmean(turns):.2f}",
        str(sum(o.turns is None for o in mine)),
        f"{faster}/{same}/{slower}" if paired else "-",
        f"{sign_p(faster, slower):.2g}" if paired else "-",
        mean_se([a - t for a, t in zip(against, turns, strict=True)]) if paired else "-",
    ]
    if game == "goldraub":
        gain = [o.points - b.points for o, b in zip(mine, base, strict=True)]
        cells += [f"{statistics.median(points):g}", f"{statistics.fmean(points):.1f}"]
        cells += [mean_se(gain) if paired else "-"]
    else:
        cells += ["-", "-", "-"]
    seconds = sum(o.seconds for o in mine) / max(choices, 1)
    return cells + [f"{seconds:.3f}" if choices else "-"]


HEAD = [
    "game",
    "players",
    "policy",
    "games",
    "median turns",
    "mean turns",
    "never",
    "faster/same/slower",
    "sign p",
    "d turns",
    "median points",
    "mean points",
    "d points",
    "s/turn",
]


def bench(game: str, players: int, seeds: range, deadline: float) -> tuple[list, int]:
    """Play every seed with every policy until the deadline: the table's rows and games played."""
    play, limit, policies = GAMES[game]
    runs = {name: [] for name in policies}
    for seed in seeds:
        if time.monotonic() > deadline:
            break
        results = {name: play(players, seed, policy) for name, policy in policies.items()}
        for name, outcome in results.items():
            runs[name].append(outcome)
        line = " ".join(f"{k}={o.turns}/{o.points}" for k, o in results.items())
        print(f"{game} {players}p seed {seed}: {line}", file=sys.stderr, flush=True)
    rows = [row(game, players, name, runs, limit) for name in policies] if runs["random"] else []
    return rows, len(runs["random"])


LINE = re.compile(r"^(\w+) (\d+)p seed (\d+): (.*)$")
RESULT = re.compile(r"([a-z ]+?)=(None|\d+)/(\d+)")


def from_logs(paths: list[str]) -> dict[tuple[str, int], dict[int, dict[str, Outcome]]]:
    """The games in progress lines: (game, players) -> seed -> policy -> outcome."""
    found: dict = {}
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                match = LINE.match(line.strip())
                if match is None:
                    continue
                game, players, seed, rest = match.groups()
                outcomes = {}
                for name, turns, points in RESULT.findall(rest):
                    turns = None if turns == "None" else int(turns)
                    outcomes[name.strip()] = Outcome(turns, int(points), 0.0, 0)
                found.setdefault((game, int(players)), {})[int(seed)] = outcomes
    return found


def logged_rows(paths: list[str]) -> tuple[list, list[str]]:
    """The table's rows from progress lines, and a note of the seeds each count covers."""
    rows, notes = [], []
    for (game, players), seeds in sorted(from_logs(paths).items()):
        _, limit, policies = GAMES[game]
        runs = {name: [seeds[k][name] for k in sorted(seeds)] for name in policies}
        rows += [row(game, players, name, runs, limit) for name in policies]
        notes.append(f"{game} {players} players: {len(seeds)} games, seeds {describe(seeds)}")
    return rows, notes


def describe(seeds) -> str:
    """Seeds as ranges: "0-199" or "0-149, 160-199"."""
    ordered, spans = sorted(seeds), []
    for k in ordered:
        if spans and k == spans[-1][1] + 1:
            spans[-1][1] = k
        else:
            spans.append([k, k])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans)


def main() -> None:
    """Run the games asked for and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", nargs="+", choices=sorted(GAMES), default=sorted(GAMES))
    parser.add_argument("--players", nargs="+", type=int, default=[3])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--cap", type=float, default=None, help="seconds for each game and count")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--from-logs", nargs="+", metavar="FILE", help="tables from stderr lines")
    args = parser.parse_args()
    if args.from_logs:
        rows, notes = logged_rows(args.from_logs)
        print(render(HEAD, rows, args.markdown))
        print("\n".join(notes))
        return
    rows, notes = [], []
    seeds = range(args.first_seed, args.first_seed + args.games)
    for game in args.game:
        for n in args.players:
            deadline = time.monotonic() + (args.cap if args.cap else math.inf)
            found, played = bench(game, n, seeds, deadline)
            rows += found
            if played < args.games:
                notes.append(f"{game} {n} players: {played} of {args.games} games (--cap)")
    print(render(HEAD, rows, args.markdown))
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
