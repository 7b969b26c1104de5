"""Every state of many simulated games: how long `report` takes, and the slowest states.

Usage: ``.venv/bin/python benchmarks/survey.py [--game goldraub|lima] [--players 5 6]
[--games 10] [--first-seed 0] [--budget S] [--remember] [--markdown]``.

The targets are about *any* state of a game, so this measures all of them: for each player
count, ``--games`` simulated games (Goldraub: 10 rounds, ``sleuth.games.goldraub.simulate``;
Loot of Lima: up to 40 turns, ``sleuth.games.lima.simulate``; seeds 0, 1, ... or from
``--first-seed``), and a report after every event of each (the replay a player would see at the
table). Each game runs in its own child process, whose peak memory is read with ``os.wait4``. A
state that takes over half a second is measured twice more and its median kept, so that one
noisy run does not make a tail. The first table gives the spread over all states; the second
names every state over its target (at least the five slowest), so that each can be reproduced:
the record is the first ``events`` events of ``simulate(players, players * 10, seed)``.

With ``--remember``, each game carries the order of its last hard count from state to state, as
the command line does for a record by default (``sleuth.solve.memory``); every measurement of
a state starts from the memory as the state before left it. Without it, every state is
measured cold, as a first command on a record would be.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RETRY = 0.5  # seconds: slower states are measured three times, median kept


TURNS = {"goldraub": lambda players: players * 10, "lima": lambda players: 40}
TARGET = {("goldraub", 5): 0.5, ("goldraub", 6): 1.0, ("lima", 5): 0.3}


def child(game: str, players: int, seed: int, budget: float, cold: bool) -> None:
    """Report after every event of one simulated game; print one JSON line per state."""
    from sleuth.analysis import report
    from sleuth.games.goldraub import simulate
    from sleuth.games.lima import simulate as simulate_lima
    from sleuth.record import Record, parse
    from sleuth.solve.memory import Remembered

    sim = simulate if game == "goldraub" else simulate_lima
    turns = TURNS[game](players)
    doc, _ = sim.simulate(players, turns, seed)
    record = parse(doc, f"simulate({players}, {turns}, {seed})")
    questions = 0
    memory = None if cold else Remembered()
    for k in range(1, len(record.events) + 1):
        questions += next(iter(doc["events"][k - 1])) in ("search", "ask", "secret")
        prefix = Record(record.game, record.table, record.start, record.events[:k])
        times, before = [], None if cold else list(memory.order)
        while len(times) < (3 if times and times[0] > RETRY else 1):
            memory = None if cold else Remembered(list(before))
            started = time.perf_counter()
            result = report(prefix, budget, memory=memory)
            times.append(time.perf_counter() - started)
        line = {
            "events": k,
            "questions": questions,
            "seconds": statistics.median(times),
            "exact": result.odds.exact,
            "worlds": result.worlds,
        }
        print(json.dumps(line), flush=True)


def run_game(
    game: str, players: int, seed: int, budget: float, cold: bool
) -> tuple[list[dict], float]:
    """The states of one game (from a child process) and the child's peak memory in MiB."""
    argv = [sys.executable, __file__, "--game", game, "--budget", str(budget)]
    argv += ["--child", str(players), str(seed)] + ([] if cold else ["--remember"])
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"survey: the child for {players} players, seed {seed} failed")
    return [json.loads(line) for line in out.splitlines()], usage.ru_maxrss / 1024


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    """Run the survey and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["goldraub", "lima"], default="goldraub")
    parser.add_argument("--players", type=int, nargs="+", default=[5, 6])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--budget", type=float, default=15.0)
    parser.add_argument("--remember", action="store_true", help="carry orders between states")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--child", type=int, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.game, *args.child, args.budget, not args.remember)
        return

    from rich import box
    from rich.console import Console
    from rich.table import Table

    style = box.MARKDOWN if args.markdown else box.SIMPLE
    title = {"goldraub": "10-round Goldraub games", "lima": "Loot of Lima games"}[args.game]
    spread = Table(title=f"report at every state of simulated {title}", box=style)
    for name in ("players", "games", "states", "exact", "median", "p90", "p99", "max"):
        spread.add_column(name, justify="right")
    spread.add_column("over target", justify="right")
    spread.add_column("peak memory", justify="right")
    slow = Table(title="every state over its target (at least the five slowest)", box=style)
    for name in ("players", "seed", "questions", "events", "worlds", "report"):
        slow.add_column(name, justify="right")
    for players in args.players:
        states, peak = [], 0.0
        for seed in range(args.first_seed, args.first_seed + args.games):
            print(f"survey: {players} players, seed {seed}", file=sys.stderr, flush=True)
            lines, rss = run_game(args.game, players, seed, args.budget, not args.remember)
            states += [dict(line, seed=seed) for line in lines]
            peak = max(peak, rss)
        times = [s["seconds"] for s in states]
        limit = TARGET.get((args.game, players), 1.0)
        spread.add_row(
            str(players),
            str(args.games),
            str(len(states)),
            f"{sum(s['exact'] for s in states)}/{len(states)}",
            f"{statistics.median(times):.3f} s",
            f"{quantile(times, 0.9):.3f} s",
            f"{quantile(times, 0.99):.3f} s",
            f"{max(times):.3f} s",
            f"{sum(t > limit for t in times)} over {limit} s",
            f"{peak:.0f} MiB",
        )
        ranked = sorted(states, key=lambda s: -s["seconds"])
        for s in ranked[: max(5, sum(t > limit for t in times))]:
            slow.add_row(
                str(players),
                str(s["seed"]),
                str(s["questions"]),
                str(s["events"]),
                f"{s['worlds']:,}" + ("" if s["exact"] else " (estimate)"),
                f"{s['seconds']:.3f} s",
            )
    console = Console(width=120)
    memory = "each game remembers its last hard order" if args.remember else "no order remembered"
    day = time.strftime("%Y-%m-%d")
    console.print(f"{day}, {os.cpu_count()} cores, budget {args.budget} s, {memory}")
    console.print(spread)
    console.print(slow)


if __name__ == "__main__":
    main()
