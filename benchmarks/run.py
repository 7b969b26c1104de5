"""The benchmark harness: sleuth's speed and memory against the issues' targets, in one run.

Usage: ``.venv/bin/python benchmarks/run.py [--quick] [--only SECTION ...] [--markdown]
[--budget S] [--z3-limit S] [--brute-limit S] [--cap S]``.

The sections (``--only`` names them): ``startup``; ``goldraub`` and ``lima``, simulated games
cut at several points, in process and as a command, with brute force and plain z3 as
baselines; ``tail``, the slowest states ``survey.py`` found; ``check``; ``events``, a report
after every event of a game; ``play``, entries typed into ``sleuth play``; ``next``;
``replay`` and ``why``; ``scotland``, every Scotland Yard command; ``budget``, answers within
``--budget``; ``tolerate``, ``--tolerate 1``.
Every measurement runs in its own process (``bench.py``); times are medians. The records are
``states.py``'s. See benchmarks/README.md for the columns.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import states
from bench import (
    CLI_RUNS,
    ROOT,
    RUNS,
    SPEND,
    Bench,
    Clock,
    Play,
    median,
    partial,
    progress,
    quantile,
    seconds,
)
from rich.console import Console
from states import Case, Command

# The sections measured in process (and as the command): the games, the tail, check, events.

GAME_COLUMNS = [
    "players",
    "after",
    "events",
    "worlds",
    "exact",
    "report",
    "CLI --json",
    "peak RSS",
    "brute force",
    "brute/report",
    "z3 enumeration",
]


def game_row(bench: Bench, case: Case, brute: bool) -> list[str]:
    """Measure one record: report, CLI, brute force (when asked), z3 enumeration."""
    progress(f"{case.game} {case.players}p after {case.point}")
    rep = bench.measure("report", case, runs=RUNS, spend=SPEND)
    if "skipped" in rep:
        return [str(case.players), case.point, "", "", "", rep["skipped"]] + [""] * 5
    cli = bench.cli(["report", "--json", "-f", str(case.path), "--budget", str(bench.budget)])
    base = bench.measure("brute", case, bench.brute_limit, runs=3, spend=SPEND) if brute else {}
    z3 = bench.measure("z3", case, bench.z3_limit + 10, limit=bench.z3_limit, runs=3, spend=SPEND)
    return [
        str(case.players),
        case.point,
        str(rep["events"]),
        worlds(rep),
        "yes" if rep["exact"] else "NO: estimate",
        seconds(median(rep)),
        cli_cell(cli, rep),
        f"{rep['rss_mib']:.0f} MiB",
        brute_cell(base, rep, brute),
        ratio(median(base), median(rep)),
        z3_cell(z3, bench.z3_limit, rep),
    ]


def worlds(rep: dict) -> str:
    """The number of worlds; marked when it is an estimate or the record is inconsistent."""
    if not rep["consistent"]:
        return "0 (inconsistent)"
    if rep["exact"]:
        return f"{rep['worlds']:,}"
    low, high = rep["interval"] or ("?", "?")
    return f"~{rep['worlds']:,} (95%: {low:.2g}-{high:.2g})"


def cli_cell(cli: dict, rep: dict) -> str:
    """The CLI's median time, flagged when its JSON disagrees with the in-process report."""
    if "skipped" in cli:
        return cli["skipped"]
    data = json.loads(cli["out"])
    agree = data["exact"] == rep["exact"] and (not rep["exact"] or data["worlds"] == rep["worlds"])
    return seconds(cli["time"]) + ("" if agree else " (differs!)")


def brute_cell(base: dict, rep: dict, asked: bool) -> str:
    """Brute force's median time, flagged when its count differs from the exact count."""
    if not asked:
        return "n/a"
    if "skipped" in base:
        return base["skipped"]
    wrong = rep["exact"] and base["worlds"] != rep["worlds"]
    return seconds(median(base)) + (f" (counts {base['worlds']:,}!)" if wrong else "")


def ratio(slow: float | None, fast: float | None) -> str:
    """How many times longer ``slow`` took than ``fast``."""
    if slow is None or not fast:
        return "-"
    return f"{slow / fast:.1f}x" if slow >= fast else f"{slow / fast:.2f}x"


def z3_cell(z3: dict, limit: float, rep: dict) -> str:
    """z3 enumeration's median time, or how far it got."""
    if "skipped" in z3:
        return z3["skipped"]
    if not z3["finished"]:
        return f"did not finish in {limit:g} s ({z3['worlds']:,} found)"
    wrong = rep["exact"] and z3["worlds"] != rep["worlds"]
    return seconds(median(z3)) + (f" (counts {z3['worlds']:,}!)" if wrong else "")


def game_section(bench: Bench, game: str, quick: bool) -> None:
    """One game's table."""
    table = bench.table(GAME_TITLES[game], GAME_COLUMNS)
    for case, brute in states.game_cases(bench.folder, game, quick):
        table.add_row(*game_row(bench, case, brute))
    bench.show(table, GAME_NOTES)


GAME_TITLES = {
    "goldraub": "Goldraub in London (simulated 10-round games)",
    "lima": "Loot of Lima (simulated games)",
}
GAME_NOTES = [
    "report: median in-process sleuth.analysis.report on a parsed record; CLI --json: median "
    "wall time of the `sleuth report --json` process (Lima's JSON adds the treasure pairs); "
    "peak RSS: the report process; brute/report: brute force time over report time.",
]


TAIL_COLUMNS = ["players", "state", "worlds", "exact", "report", "CLI --json", "peak RSS"]


def tail_section(bench: Bench, quick: bool) -> None:
    """The slowest states the survey found, in process and as a fresh ``sleuth`` process."""
    table = bench.table("Goldraub in London: the slowest surveyed states", TAIL_COLUMNS)
    for case in states.tail_cases(bench.folder, quick):
        progress(f"slowest: {case.point}")
        rep = bench.measure("report", case, runs=3, spend=SPEND)
        if "skipped" in rep:
            table.add_row(str(case.players), case.point, "", "", rep["skipped"], "", "")
            continue
        cli = bench.cli(["report", "--json", "-f", str(case.path), "--budget", str(bench.budget)])
        table.add_row(
            str(case.players),
            case.point,
            worlds(rep),
            "yes" if rep["exact"] else "NO: estimate",
            seconds(median(rep)),
            cli_cell(cli, rep),
            f"{max(rep['rss_mib'], cli.get('rss_mib', 0)):.0f} MiB",
        )
    bench.show(table, TAIL_NOTES)


TAIL_NOTES = [
    "state: the first `events` events of simulate(6, 60, seed), as in benchmarks/survey.py. "
    "report: median of 3 in one process (a count with a step of a million successors loads "
    "numba in its first run, about 0.35 s, which the median leaves out); CLI --json: median "
    "wall time of 3 fresh `sleuth` processes, which pay Python's start, the imports and that "
    "load every time.",
]


def check_section(bench: Bench, quick: bool) -> None:
    """`sleuth check` in both games: in-process (report + advice) and the command."""
    table = bench.table(
        "sleuth check", ["record", "events", "command", "exact", "in-process", "CLI", "peak RSS"]
    )
    for case, what in states.check_cases(bench.folder, quick):
        progress(f"check {case.path.stem} {' '.join(what) or '--best'}")
        argv = ["check", *(what or ["--best"]), "-f", str(case.path), "--budget", str(bench.budget)]
        spec = {"what": what or "best", "runs": RUNS, "spend": SPEND}
        inside = bench.measure("check", case, **spec)
        cli = bench.cli(argv)
        if "skipped" in inside:
            table.add_row(case.path.stem, "", " ".join(argv[:-4]), "", inside["skipped"], "", "")
            continue
        table.add_row(
            case.path.stem,
            str(inside["events"]),
            "sleuth " + " ".join(argv[:-4]),
            "yes" if inside["exact"] else "NO: estimate",
            seconds(median(inside)),
            cli.get("skipped") or seconds(cli["time"]),
            f"{inside['rss_mib']:.0f} MiB",
        )
    bench.show(
        table,
        [
            "in-process: report, then check_guess / best_guesses (Goldraub) or "
            "check_accusation / treasure_pairs (Lima); CLI: the whole command."
        ],
    )


def events_section(bench: Bench, quick: bool, runs: int = 3) -> None:
    """A whole game replayed event by event, with a report after every event."""
    case = states.events_case(bench.folder, quick)
    progress(f"a report after every event of {case.path.stem}, {runs} runs")
    result = bench.measure("replay", case, runs=runs, spend=bench.clock.left() - 2)
    table = bench.table(
        "A report after every event",
        [
            "record",
            "events",
            "runs",
            "total",
            "per event",
            "slowest event",
            "fallbacks",
            "peak RSS",
        ],
    )
    if "skipped" in result:
        table.add_row(case.path.stem, "", str(runs), result["skipped"], "", "", "", "")
    else:
        fallbacks = result["fallbacks"]
        table.add_row(
            case.path.stem,
            str(result["events"]),
            str(runs),
            seconds(median(result, "totals")),
            seconds(median(result, "per_event")),
            seconds(max(result["per_event"])),
            f"{len(fallbacks)}: after events {fallbacks}" if fallbacks else "none",
            f"{result['rss_mib']:.0f} MiB",
        )
    bench.show(
        table,
        [
            "total: median over runs of the whole replay; per event: median over "
            "every event of every run; fallbacks: events whose report was an "
            "estimate."
        ],
    )


# The sections that time whole commands: a row per group of commands, against its target.

COMMAND_COLUMNS = ["measured", "n", "median", "p90", "max", "peak RSS", "answers", "target", "met"]


def commands_section(bench: Bench, title: str, commands: list[Command], runs: int) -> None:
    """Time each command (the median of ``runs``), then one row per group."""
    groups: dict[str, list[dict]] = {}
    for command in commands:
        progress(f"{command.group}: {command.label}")
        groups.setdefault(command.group, []).append(bench.command(list(command.argv), runs))
    table = bench.table(title, COMMAND_COLUMNS)
    for group, results in groups.items():
        done = [r for r in results if "skipped" not in r]
        if not done:
            table.add_row(group, "0", results[0]["skipped"], *[""] * 6)
            continue
        count = str(len(done)) + (f" of {len(results)}" if len(done) < len(results) else "")
        rss = max(r["rss_mib"] for r in done)
        table.add_row(*summary(group, count, [r["time"] for r in done], rss, answers(done)))
    bench.show(table, [f"n: commands, each timed as the median of {runs} runs; " + NOTE])


NOTE = "median, p90, max: over the group; answers: the JSON answers neither sampled nor cut short."


def summary(group: str, count: str, times: list[float], rss: float | None, said: str) -> list:
    """A group's row: its times' spread, memory, answers, target and whether it is met."""
    goal = states.target(group)
    return [
        group,
        count,
        seconds(statistics.median(times)),
        seconds(quantile(times, 0.9)),
        seconds(max(times)),
        "-" if rss is None else f"{rss:.0f} MiB",
        said,
        goal.text() if goal else "-",
        ("yes" if goal.met(times) else "NO") if goal else "-",
    ]


def answers(results: list[dict]) -> str:
    """How many of the commands' JSON answers were exact, e.g. "3/4 exact"; "-" for text."""
    said = [partial_text(r["out"]) for r in results]
    return "-" if None in said else f"{said.count(False)}/{len(said)} exact"


def partial_text(out: str) -> bool | None:
    """Whether a JSON answer is not all exact; None when the output is not JSON."""
    try:
        return partial(json.loads(out))
    except ValueError:
        return None


def startup_section(bench: Bench, quick: bool) -> None:
    """Python's own start, then small commands."""
    commands = states.startup(bench.folder)
    commands_section(bench, "Start-up", commands, 5)


def play_section(bench: Bench, quick: bool) -> None:
    """Entries typed into ``sleuth play``: seconds from Enter to the next prompt."""
    folder = bench.folder / "play"
    folder.mkdir()
    entries = states.play_game(folder)
    session = Play(folder)
    times: dict[str, list[float]] = {group: [] for group, _, _ in entries}
    for _ in range(2 if quick else 7):
        if bench.clock.left() < 5:
            break
        for group, line, marker in entries:
            progress(f"{group}, round {len(times[group]) + 1}")
            times[group].append(session.entry(line, marker))
            if "search" in group:
                session.entry("undo", "removed:")
    session.close()
    times["play: every entry"] = [t for entry in list(times.values()) for t in entry]
    table = bench.table("sleuth play: an entry to the next prompt", COMMAND_COLUMNS)
    for group, entry in times.items():
        table.add_row(*summary(group, str(len(entry)), entry, None, "-"))
    bench.show(table, ["A 5-player Goldraub record of 20 events; n: entries; " + NOTE])


def next_section(bench: Bench, quick: bool) -> None:
    """``sleuth next --json`` on states through Goldraub and Lima games."""
    commands = states.next_commands(bench.folder, 1 if quick else 2, 1 if quick else 3)
    commands_section(bench, "sleuth next", commands, 1)


def replay_section(bench: Bench, quick: bool) -> None:
    """``sleuth replay --json`` of whole games, ``why`` of a certain fact and an open one."""
    commands = states.replay_commands(bench.folder, quick)
    commands_section(bench, "sleuth replay and why", commands, 1 if quick else CLI_RUNS)


def scotland_section(bench: Bench, quick: bool) -> None:
    """Every Scotland Yard command on the longest simulated games."""
    commands = states.scotland_commands(bench.folder, quick)
    commands_section(bench, "Scotland Yard commands", commands, 3 if quick else CLI_RUNS)


def budget_section(bench: Bench, quick: bool) -> None:
    """``report`` and ``next`` with a budget: back within B + 0.5 s."""
    commands = states.budget_commands(bench.folder, (1.0,) if quick else (1.0, 0.2), quick)
    commands_section(bench, "--budget on slow states", commands, 1 if quick else CLI_RUNS)


def tolerate_section(bench: Bench, quick: bool) -> None:
    """``report --tolerate 1`` on 5-player Goldraub records."""
    commands = states.tolerate_commands(bench.folder, quick)
    commands_section(bench, "--tolerate 1", commands, 1 if quick else CLI_RUNS)


# The machine, and the sections of a run.


def machine(bench: Bench, baseline: dict) -> list[str]:
    """Lines naming the machine, the date, the software and the settings."""
    info = {}
    for line in Path("/proc/meminfo").read_text().splitlines():
        key, _, value = line.partition(":")
        info[key] = value.strip()
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "?",
    )
    mem = int(info.get("MemTotal", "0 kB").split()[0]) / 1024 / 1024
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    idle = f"{baseline['rss_mib']:.0f} MiB" if "rss_mib" in baseline else "?"
    return [
        f"date: {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"machine: {os.cpu_count()} cores ({cpu}), {mem:.1f} GiB memory, {platform.system()} "
        f"{platform.release()}",
        f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        f"python: {platform.python_version()} ({sys.executable}); sleuth at {commit or '?'}",
        f"settings: budget {bench.budget:g} s per report, z3 enumeration limit "
        f"{bench.z3_limit:g} s, brute force limit {bench.brute_limit:g} s; "
        f"seed {states.SEED}; memory baseline (import sleuth, parse a record): {idle}",
    ]


SECTIONS = {  # name: how to measure it, and roughly the seconds it takes (full run, quick)
    "startup": (startup_section, 10, 8),
    "goldraub": (lambda bench, quick: game_section(bench, "goldraub", quick), 90, 10),
    "lima": (lambda bench, quick: game_section(bench, "lima", quick), 60, 10),
    "tail": (tail_section, 60, 15),
    "check": (check_section, 15, 6),
    "events": (events_section, 25, 3),
    "play": (play_section, 10, 4),
    "next": (next_section, 60, 8),
    "replay": (replay_section, 40, 8),
    "scotland": (scotland_section, 30, 8),
    "budget": (budget_section, 70, 3),
    "tolerate": (tolerate_section, 50, 4),
}


def main(argv: list[str] | None = None) -> None:
    """Run the sections asked for and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small subset, about a minute")
    parser.add_argument("--only", nargs="+", choices=list(SECTIONS), help="these sections")
    parser.add_argument(
        "--budget",
        type=float,
        default=15.0,
        help="seconds per report before the exact counter falls back (15, as sleuth's default)",
    )
    parser.add_argument("--z3-limit", type=float, help="seconds per z3 enumeration (3; quick 1)")
    parser.add_argument(
        "--brute-limit", type=float, default=60.0, help="seconds per brute-force measurement (60)"
    )
    parser.add_argument("--cap", type=float, help="seconds for the whole run (900; quick 120)")
    parser.add_argument("--markdown", action="store_true", help="tables as Markdown")
    args = parser.parse_args(argv)
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=180)
    cap = args.cap or (120.0 if args.quick else 900.0)
    z3_limit = args.z3_limit or (1.0 if args.quick else 3.0)
    chosen = [name for name in SECTIONS if name in (args.only or SECTIONS)]
    with tempfile.TemporaryDirectory(prefix="sleuth-bench-") as tmp:
        folder = Path(tmp)
        bench = Bench(
            args.budget, z3_limit, args.brute_limit, Clock(cap), console, folder, args.markdown
        )
        idle = bench.measure("idle", states.goldraub_cases(folder, 3, (1,))[0])
        for line in machine(bench, idle):
            console.print("- " * args.markdown + line, markup=False, soft_wrap=True)
        console.print()
        started = time.monotonic()
        expected = {name: SECTIONS[name][2 if args.quick else 1] for name in chosen}
        for k, name in enumerate(chosen):
            rest = sum(expected[later] for later in chosen[k:])
            bench.clock.section(min(1.0, 2 * expected[name] / rest))  # twice its part, at most
            SECTIONS[name][0](bench, args.quick)
        console.print(f"whole run: {time.monotonic() - started:.0f} s (cap {cap:g} s)")


if __name__ == "__main__":
    main()
