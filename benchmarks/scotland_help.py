"""Does ``sleuth next`` help the detectives of Scotland Yard? Simulated games, two ways to hunt.

Usage: ``.venv/bin/python benchmarks/scotland_help.py [--players 3,4,5] [--games 2000]
[--first-seed 0] [--workers 2] [--bold 0.15] [--markdown]``.

Each seed is one game of ``sleuth.games.scotland.simulate`` (written from the rulebook alone),
played twice: the same deal and colour table, and the same chance and choices as long as the
two games agree. Everything but the detectives' targets is the simulator's policy (its module
docstring): a player plays uniformly among their legal plays, refreshes included; Mister X
plays a winning feint or an emptying buy when he can, else a random Mister X action with chance
0.15 (``mister_x_bold``, ``--bold``), else as a detective; his targets are uniform; in a
disappear he hands in X (``keep`` 0) and the detectives random tickets; a feint costs players -
1 tickets, its discards random; seat 0 is dealt first and plays first. The detectives (every
seat but the one holding X at the time) choose the target of a manhunt, or of an interrogation
they complete, by one of two policies:

- ``random``: uniformly among the targets the rules allow (a manhunt: those with cards).
- ``next``: what ``sleuth next`` names: their own record (their hand, draws and disappears; the
  rest public) read by ``believe``, and ``plan.targets(found, action, colour)``'s best target
  among the allowed ones (``none`` counts hunts where no listed target was allowed: the first
  allowed is taken).

The first table compares the outcomes on the same seeds: Mister X's win rate under each policy
with Wilson 95% intervals, the difference (next minus random) with its paired 95% interval,
the discordant seeds (X won under random only / under next only) and McNemar's exact p on them;
the mean number of turns (events, passes included) with Student 95% intervals, the mean paired
difference (next minus random) with its interval, and the paired t test's p. The second says
why: per game, the detectives' hunts (manhunts and interrogations completed), the share of those
whose target truly held X, and the games the detectives won by a manhunt and by an
interrogation; and, on the ``next`` games, per hunt, the chance the advised target differs from
a uniform one (1 - 1/targets), the share of hunts where the hunter's chances differ between
targets at all, and the catch (my chance the hunt takes X: manhunt; finds X: interrogation) of
the advised target beside the mean over the allowed ones, which a uniform pick would get;
``ms/game``, the CPU time of one game in a worker. The third checks ``next``'s chances on the
``next`` games: the catches and finds it stated for the advised targets, summed, against the
manhunts that took X and the interrogations whose target held it, and z, their difference over
its standard deviation (about -2 to 2 when the chances are right). ``--bold`` sets Mister X's
``mister_x_bold``. Progress goes to stderr, tables to stdout.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from fractions import Fraction
from typing import NamedTuple

from paired import mean_interval, paired_share, paired_t_p, sign_p, wilson
from tables import render

from sleuth.games.scotland.plan import targets
from sleuth.games.scotland.simulate import Game, View, colour, simulate
from sleuth.games.scotland.suspicion import believe
from sleuth.record import parse

HUNTS = ("manhunt", "interrogation")


class Advice(NamedTuple):
    """One hunt of the ``next`` policy: the action, the targets allowed, the catches by my view."""

    action: str
    allowed: int
    advised: Fraction
    uniform: Fraction
    choice: bool  # the catches differ between the allowed targets
    none: bool  # no listed target was allowed
    happened: bool = False  # the manhunt took X; the interrogation's target held it


class Outcome(NamedTuple):
    """One game: who won, turns, the detectives' hunts and hits, how it ended, seconds to play."""

    winner: str | None
    turns: int
    hunts: Counter
    hits: Counter
    ending: str
    seconds: float = 0.0


def advise(view: View, log: list[Advice]) -> str:
    """The ``next`` policy: the best listed target of the hunter's own record that is allowed."""
    found = believe(parse(view.own, "simulated"), None)
    ranked = targets(found, view.action, colour(view.ticket))
    catch = dict(ranked)
    allowed = [(p, c) for p, c in ranked if p in view.targets]
    chances = [catch.get(p, Fraction(0)) for p in view.targets]
    uniform = sum(chances, Fraction(0)) / len(chances)
    best = allowed[0] if allowed else (view.targets[0], chances[0])
    log.append(
        Advice(view.action, len(view.targets), best[1], uniform, len(set(chances)) > 1, not allowed)
    )
    return best[0]


def detective_hunts(game: Game) -> list[tuple[int, dict]]:
    """The detectives' hunts with a target: (event index, fields), in order."""
    bodies = [next(iter(event.values())) for event in game.doc["events"]]
    return [
        (i, body)
        for i, body in enumerate(bodies)
        if body.get("action") in HUNTS and "target" in body and body["by"] != game.holders[i]
    ]


def outcome(game: Game) -> Outcome:
    """Who won, the turns, the detectives' hunts and their true hits, and the ending's kind."""
    hunts, hits, ending = Counter[str](), Counter[str](), "cut"
    for i, body in detective_hunts(game):
        hunts[body["action"]] += 1
        hits[body["action"]] += body["target"] == game.holders[i]
    if game.winner is not None:
        ending = ending_of(game, next(iter(game.doc["events"][-1].values())))
    return Outcome(game.winner, len(game.doc["events"]), hunts, hits, ending)


def happened(game: Game, log: list[Advice]) -> list[Advice]:
    """Each advised hunt with what it did: took X (a manhunt), or its target held X."""
    hunts = detective_hunts(game)
    assert [body["action"] for _, body in hunts] == [a.action for a in log]
    return [
        a._replace(
            happened=bool(body.get("found"))
            if a.action == "manhunt"
            else body["target"] == game.holders[i]
        )
        for (i, body), a in zip(hunts, log, strict=True)
    ]


def ending_of(game: Game, last: dict) -> str:
    """How the game ended: the detectives by a manhunt or an interrogation; X by a feint or deck."""
    if game.winner == "detectives":
        return str(last.get("action"))
    emptied = not any(hand for p, hand in game.hands[-1].items() if p != last["by"])
    return "feint" if last.get("action") == "feint" and emptied else "deck"


def play(job: tuple[int, int, float]) -> tuple[int, int, Outcome, Outcome, list[Advice]]:
    """Both policies on one seed (players, seed, Mister X's boldness), each timed."""
    players, seed, bold = job
    log: list[Advice] = []
    clock = time.process_time()
    plain = outcome(simulate(players, seed, mister_x_bold=bold))
    middle = time.process_time()
    game = simulate(players, seed, mister_x_bold=bold, hunt=lambda view: advise(view, log))
    advised = outcome(game)
    end = time.process_time()
    return (
        players,
        seed,
        plain._replace(seconds=middle - clock),
        advised._replace(seconds=end - middle),
        happened(game, log),
    )


# The tables.


def pct(x: float) -> str:
    """A share as a percentage with one decimal."""
    return f"{100 * x:.1f}%"


def share_cell(k: int, n: int) -> str:
    """A share with its Wilson interval, e.g. "81.2% (79.4-82.9)"."""
    low, high = wilson(k, n)
    return f"{pct(k / n)} ({100 * low:.1f}-{100 * high:.1f})"


def mean_cell(values: list[float], signed: bool = False) -> str:
    """A mean with its 95% interval, e.g. "17.03 (16.85-17.21)"."""
    mean, low, high = mean_interval(values)
    sign = "+" if signed else ""
    return f"{mean:{sign}.2f} ({low:{sign}.2f} to {high:{sign}.2f})"


def p_cell(p: float) -> str:
    """A p value, two significant digits."""
    return f"{p:.2g}"


HEAD = [
    "players",
    "games",
    "X wins random",
    "X wins next",
    "d X wins (points)",
    "random only/next only",
    "McNemar p",
    "turns random",
    "turns next",
    "d turns",
    "paired t p",
]


def outcome_row(players: int, runs: list[tuple[Outcome, Outcome]]) -> list[str]:
    """The first table's row: win rates and turns, paired."""
    n = len(runs)
    x = [(a.winner == "mister_x", b.winner == "mister_x") for a, b in runs]
    only_random = sum(a and not b for a, b in x)
    only_next = sum(b and not a for a, b in x)
    d, low, high = paired_share(only_random, only_next, n)
    turns = [(a.turns, b.turns) for a, b in runs]
    differences = [float(b - a) for a, b in turns]
    return [
        str(players),
        str(n),
        share_cell(sum(a for a, _ in x), n),
        share_cell(sum(b for _, b in x), n),
        f"{100 * d:+.1f} ({100 * low:+.1f} to {100 * high:+.1f})",
        f"{only_random}/{only_next}",
        p_cell(sign_p(only_random, only_next)),
        mean_cell([float(a) for a, _ in turns]),
        mean_cell([float(b) for _, b in turns]),
        mean_cell(differences, signed=True),
        p_cell(paired_t_p(differences)),
    ]


WHY = [
    "players",
    "policy",
    "hunts/game",
    "manhunts/game",
    "games without a hunt",
    "hit: manhunt",
    "hit: interrogation",
    "won by manhunt",
    "won by interrogation",
    "X by feint",
    "advised != uniform",
    "hunts with a choice",
    "manhunt catch: advised vs uniform",
    "interrogation find: advised vs uniform",
    "none",
    "ms/game",
]


def why_rows(players: int, runs: list[tuple[Outcome, Outcome]], log: list[Advice]) -> list:
    """The second table's rows: how often the detectives hunt, hit, win, and what advice adds."""
    rows = []
    for k, policy in enumerate(("random", "next")):
        games = [pair[k] for pair in runs]
        n = len(games)
        hunts = sum((g.hunts for g in games), Counter[str]())
        hits = sum((g.hits for g in games), Counter[str]())
        endings = Counter(g.ending for g in games)
        row = [
            str(players),
            policy,
            f"{hunts.total() / n:.2f}",
            f"{hunts['manhunt'] / n:.2f}",
            pct(sum(not g.hunts for g in games) / n),
            pct(hits["manhunt"] / max(hunts["manhunt"], 1)),
            pct(hits["interrogation"] / max(hunts["interrogation"], 1)),
            pct(endings["manhunt"] / n),
            pct(endings["interrogation"] / n),
            pct(endings["feint"] / n),
        ]
        cells = advice_cells(log) if policy == "next" else ["-"] * 5
        rows.append(row + cells + [f"{1000 * statistics.fmean(g.seconds for g in games):.1f}"])
    return rows


def advice_cells(log: list[Advice]) -> list[str]:
    """Per hunt of the ``next`` games: differs from uniform, has a choice, catch gained, none."""
    if not log:
        return ["-"] * 5
    differs = statistics.fmean(1 - 1 / a.allowed for a in log)
    choice = statistics.fmean(a.choice for a in log)
    cells = [pct(differs), pct(choice)]
    for action in HUNTS:
        some = [a for a in log if a.action == action]
        advised = statistics.fmean(float(a.advised) for a in some) if some else 0.0
        uniform = statistics.fmean(float(a.uniform) for a in some) if some else 0.0
        cells.append(f"{pct(advised)} vs {pct(uniform)}")
    return cells + [str(sum(a.none for a in log))]


def calibration_row(players: int, log: list[Advice]) -> list[str]:
    """The third table's row: the chances ``next`` stated for its hunts against what happened."""
    row = [str(players)]
    for action in HUNTS:
        some = [a for a in log if a.action == action]
        stated = sum(float(a.advised) for a in some)
        spread = math.sqrt(sum(float(a.advised * (1 - a.advised)) for a in some))
        done = sum(a.happened for a in some)
        z = (done - stated) / spread if spread else 0.0
        row += [str(len(some)), f"{stated:.1f}", str(done), f"{z:+.1f}"]
    return row


CALIBRATION = [
    "players",
    "manhunts",
    "stated catches",
    "took X",
    "z",
    "interrogations",
    "stated finds",
    "target held X",
    "z",
]


def run(
    players: list[int], seeds: range, workers: int, bold: float
) -> tuple[list, list, list, list[str]]:
    """Play every seed for every player count: the three tables' rows, and notes on time."""
    jobs = [(n, seed, bold) for n in players for seed in seeds]
    results: dict[int, list] = {n: [] for n in players}
    started, notes = time.monotonic(), []
    with multiprocessing.Pool(workers) as pool:
        for done, result in enumerate(pool.imap(play, jobs, chunksize=20), 1):
            results[result[0]].append(result)
            if done % 200 == 0 or done == len(jobs):
                elapsed = time.monotonic() - started
                print(f"{done}/{len(jobs)} seeds, {elapsed:.0f} s", file=sys.stderr, flush=True)
    elapsed = time.monotonic() - started
    notes.append(f"{2 * len(jobs)} games in {elapsed:.0f} s on {workers} worker(s)")
    first, second, third = [], [], []
    for n in players:
        runs = [(plain, advised) for _, _, plain, advised, _ in results[n]]
        log = [a for *_, advice in results[n] for a in advice]
        first.append(outcome_row(n, runs))
        second += why_rows(n, runs, log)
        third.append(calibration_row(n, log))
    return first, second, third, notes


def main() -> None:
    """Play the games asked for and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="3,4,5", help="player counts, e.g. 3,4,5")
    parser.add_argument("--games", type=int, default=2000, help="seeds per player count")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bold", type=float, default=0.15, help="Mister X's mister_x_bold")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    players = [int(n) for n in args.players.split(",")]
    seeds = range(args.first_seed, args.first_seed + args.games)
    first, second, third, notes = run(players, seeds, args.workers, args.bold)
    for head, rows in ((HEAD, first), (WHY, second), (CALIBRATION, third)):
        print(render(head, rows, args.markdown))
        print()
    print(f"seeds {seeds.start}-{seeds.stop - 1}, bold {args.bold:g}; " + "; ".join(notes))


if __name__ == "__main__":
    main()
