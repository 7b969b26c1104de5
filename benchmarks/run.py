"""Benchmarks of sleuth on simulated games, with brute force and plain z3 as baselines.

Usage: ``.venv/bin/python benchmarks/run.py [--quick] [--budget S] [--z3-limit S] [--cap S]``.
Every measurement runs in its own process (``benchmarks/measure.py``, or the ``sleuth`` command
itself); its peak memory is that process's maximum resident set size, read with ``os.wait4``.
Times are medians of at least three runs. See benchmarks/README.md for the columns.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent

from sleuth.document import document, dump  # noqa: E402
from sleuth.games.goldraub import simulate  # noqa: E402
from sleuth.games.lima import simulate as simulate_lima  # noqa: E402
from sleuth.record import parse  # noqa: E402

PYTHON = sys.executable
SLEUTH = str(Path(sys.executable).parent / "sleuth")
MEASURE = str(ROOT / "benchmarks" / "measure.py")
SEED = 1
RUNS = 5  # at most, while a measurement's runs take under SPEND seconds; never fewer than 3
SPEND = 2.0
CLI_RUNS = 3


@dataclass(frozen=True)
class Case:
    """One record to measure; e.g. Goldraub, 5 players, "3 rounds", its YAML file."""

    game: str
    players: int
    point: str
    path: Path
    truth: dict = field(compare=False, repr=False)


@dataclass
class Child:
    """A finished (or killed) child process: exit code, output, wall time, peak memory."""

    code: int | None
    out: str
    err: str
    wall: float
    rss_mib: float


class Clock:
    """The global time cap of the whole run, and the share of it the current section may use."""

    def __init__(self, cap: float):
        self.deadline = time.monotonic() + cap
        self.stop = self.deadline

    def section(self, share: float) -> None:
        """Let the next section use ``share`` of the time left (what it leaves rolls over)."""
        now = time.monotonic()
        self.stop = min(self.deadline, now + share * (self.deadline - now))

    def left(self) -> float:
        """Seconds left for the current section."""
        return self.stop - time.monotonic()


def run_child(argv: list[str], timeout: float) -> Child:
    """Run ``argv``, killing it after ``timeout`` s; its exit code is None when killed."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        env = dict(os.environ, SLEUTH_CACHE="off")  # every command cold: no remembered order
        proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=ROOT, env=env)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            os.kill(proc.pid, signal.SIGKILL)

        timer = threading.Timer(max(timeout, 0.1), kill)
        timer.start()
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        wall = time.perf_counter() - started
        timer.cancel()
        timer.join()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        code = None if killed.is_set() else proc.returncode
        return Child(code, out.read().decode(), err.read().decode(), wall, usage.ru_maxrss / 1024)


@dataclass
class Bench:
    """The settings of a run, its clock, and the console the tables go to."""

    budget: float
    z3_limit: float
    brute_limit: float
    clock: Clock
    console: Console
    folder: Path
    markdown: bool

    def measure(self, kind: str, case: Case, timeout: float | None = None, **spec) -> dict:
        """One measurement in a child process; {"skipped": why} when it could not finish."""
        left = self.clock.left()
        if left < 1:
            return {"skipped": "time cap"}
        limit = left if timeout is None else min(timeout, left)
        spec = {"kind": kind, "file": str(case.path), "budget": self.budget} | spec
        child = run_child([PYTHON, MEASURE, json.dumps(spec)], limit)
        if child.code is None:
            return {"skipped": "time cap" if limit == left else f"killed at {limit:.0f} s"}
        if child.code != 0:
            return {"skipped": "error: " + (child.err.strip().splitlines() or ["?"])[-1]}
        return json.loads(child.out) | {"rss_mib": child.rss_mib}

    def cli(self, argv: list[str], runs: int = CLI_RUNS) -> dict:
        """Median wall time of a ``sleuth`` command over ``runs`` runs, its output and memory."""
        walls, rss, last = [], 0.0, None
        for _ in range(runs):
            left = self.clock.left()
            if left < 1:
                return {"skipped": "time cap"}
            last = run_child([SLEUTH, *argv], left)
            if last.code is None:
                return {"skipped": "time cap"}
            if last.code not in (0, 3):
                return {"skipped": "error: " + (last.err.strip().splitlines() or ["?"])[-1]}
            walls.append(last.wall)
            rss = max(rss, last.rss_mib)
        return {"time": statistics.median(walls), "out": last.out, "rss_mib": rss, "runs": runs}

    def table(self, title: str, columns: list[str]) -> Table:
        """An empty table in the run's style."""
        if self.markdown:
            table = Table(box=box.MARKDOWN)
            table.caption = title  # printed as a heading by ``show``
        else:
            table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
        for name in columns:
            table.add_column(name, justify="left" if name in LEFT else "right")
        return table

    def show(self, table: Table, notes: list[str] = ()) -> None:
        """Print a table and its notes."""
        if self.markdown:
            self.console.print(f"### {table.caption}\n", markup=False)
            table.caption = None
            with self.console.capture() as captured:
                self.console.print(table)
            lines = [line.rstrip() for line in captured.get().splitlines() if line.strip()]
            self.console.print("\n".join(lines) + "\n", markup=False, soft_wrap=True)
        else:
            self.console.print(table)
        for note in notes:
            self.console.print(note, markup=False, soft_wrap=True)
        self.console.print()


LEFT = {"after", "exact", "z3 enumeration", "command", "record", "fallbacks", "brute force"}


def progress(text: str) -> None:
    """A line on stderr, so a long run shows where it is."""
    print(f"... {text}", file=sys.stderr, flush=True)


def seconds(t: float | None) -> str:
    """A duration, in ms below a second."""
    if t is None:
        return "-"
    return f"{t * 1000:.0f} ms" if t < 1 else f"{t:.2f} s"


def median(result: dict, key: str = "times") -> float | None:
    """The median of a measurement's runs, None when it was skipped."""
    return statistics.median(result[key]) if key in result else None


# The records: simulated games, cut at several points.


def write(folder: Path, name: str, doc: dict) -> Path:
    """Write a record as the CLI would, and return its path."""
    path = folder / f"{name}.yaml"
    path.write_text(dump(document(parse(doc, name))))
    return path


def goldraub_cases(folder: Path, players: int, rounds: tuple[int, ...], seed=SEED) -> list[Case]:
    """One simulated 10-round game, cut after each of ``rounds`` rounds (and its guesses)."""
    doc, truth = simulate.simulate(players, 10 * players, seed)
    cases = []
    for r in rounds:
        events, searches = [], 0
        for event in doc["events"]:
            searches += "search" in event
            if searches > r * players:
                break
            events.append(event)
        path = write(folder, f"goldraub-{players}p-{r}r", doc | {"events": events})
        label = f"{r} round" + "s" * (r > 1)
        cases.append(Case("goldraub", players, label, path, truth))
    return cases


def state_case(folder: Path, players: int, seed: int, events: int) -> Case:
    """The first ``events`` events of a simulated 10-round game (as the survey names states)."""
    doc, truth = simulate.simulate(players, 10 * players, seed)
    name = f"goldraub-{players}p-seed{seed}-{events}e"
    path = write(folder, name, doc | {"events": doc["events"][:events]})
    return Case("goldraub", players, f"seed {seed}, {events} events", path, truth)


def lima_cases(folder: Path, players: int, points: tuple[int, ...], seed=SEED) -> list[Case]:
    """One simulated game of up to 30 turns, cut after each of ``points`` events."""
    doc, truth = simulate_lima.simulate(players, 30, seed)
    cases = []
    for k in points:
        events = doc["events"][:k]
        path = write(folder, f"lima-{players}p-{len(events)}e", doc | {"events": events})
        cases.append(Case("lima", players, f"{len(events)} events", path, truth))
    return cases


# The sections of the output.

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


def game_section(bench: Bench, title: str, rows: list[tuple[Case, bool]]) -> None:
    """One game's table."""
    table = bench.table(title, GAME_COLUMNS)
    for case, brute in rows:
        table.add_row(*game_row(bench, case, brute))
    bench.show(table, GAME_NOTES)


GAME_NOTES = [
    "report: median in-process sleuth.analysis.report on a parsed record; CLI --json: median "
    "wall time of the `sleuth report --json` process (Lima's JSON adds the treasure pairs); "
    "peak RSS: the report process; brute/report: brute force time over report time.",
]


TAIL_COLUMNS = ["players", "state", "worlds", "exact", "report", "CLI --json", "peak RSS"]


def tail_section(bench: Bench, cases: list[Case]) -> None:
    """The slowest states the survey found, in process and as a fresh ``sleuth`` process."""
    table = bench.table("Goldraub in London: the slowest surveyed states", TAIL_COLUMNS)
    for case in cases:
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


def check_section(bench: Bench, cases: list[tuple[Case, list[str]]]) -> None:
    """`sleuth check` in both games: in-process (report + advice) and the command."""
    table = bench.table(
        "sleuth check", ["record", "events", "command", "exact", "in-process", "CLI", "peak RSS"]
    )
    for case, what in cases:
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


def replay_section(bench: Bench, case: Case, runs: int) -> None:
    """A whole game replayed event by event, with a report after every event."""
    progress(f"replay {case.path.stem}, {runs} runs")
    result = bench.measure("replay", case, runs=runs, spend=bench.clock.left() - 2)
    table = bench.table(
        "Replay: a report after every event",
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


def startup_section(bench: Bench, runs: int = 5) -> None:
    """Start-up time of the command."""
    progress("sleuth --help")
    result = bench.cli(["--help"], runs)
    table = bench.table("Start-up", ["command", "runs", "median", "peak RSS"])
    if "skipped" in result:
        table.add_row("sleuth --help", str(runs), result["skipped"], "")
    else:
        table.add_row(
            "sleuth --help", str(runs), seconds(result["time"]), f"{result['rss_mib']:.0f} MiB"
        )
    bench.show(table)


# The machine, and the plan of a full or quick run.


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
        f"seed {SEED}; memory baseline (import sleuth, parse a record): {idle}",
    ]


# The slowest 6-player states of benchmarks/survey.py (seeds 0-19): (players, seed, events).
SLOWEST = [(6, 11, 19), (6, 16, 13), (6, 11, 15), (6, 16, 12), (6, 2, 18), (6, 9, 21)]
SLOWEST += [(6, 29, 17)]  # the slowest of the held-out seeds 20-29 (never used for tuning)

FULL = {
    "goldraub": {3: (1, 3, 6, 10), 5: (1, 3, 6, 10), 6: (1, 3, 6, 10)},  # players: rounds
    "lima": {3: (3, 8, 15, 30), 4: (3, 8, 15, 30), 5: (3, 8, 15, 30)},  # players: events
    "check": ((5, 6), (4, 8), True),  # Goldraub (players, rounds), Lima (players, events), --best
    "replay": (6, 10, 3),  # players, rounds, runs
    "tail": SLOWEST,
}
QUICK = {
    "goldraub": {3: (3,), 5: (6,)},
    "lima": {3: (15,), 5: (28,)},
    "check": ((5, 6), (4, 8), False),
    "replay": (6, 1, 3),
    "tail": SLOWEST[:1],
}
SHARES = {"goldraub": 0.4, "lima": 0.4, "tail": 0.5, "check": 0.4, "replay": 0.97}  # of time left


def plan(folder: Path, quick: bool) -> dict:
    """The records of each section: (case, with brute force) rows, checks, the replay."""
    sizes = QUICK if quick else FULL
    gold = [
        (case, n == 3)
        for n, rounds in sizes["goldraub"].items()
        for case in goldraub_cases(folder, n, rounds)
    ]
    lima = [(case, True) for n, ks in sizes["lima"].items() for case in lima_cases(folder, n, ks)]
    (gn, gr), (ln, lk), best = sizes["check"]
    checks = _guess_check(goldraub_cases(folder, gn, (gr,))[0])
    checks += _accuse_check(lima_cases(folder, ln, (lk,))[0])
    checks = checks if best else [(case, what) for case, what in checks if what]
    players, rounds, runs = sizes["replay"]
    replay = goldraub_cases(folder, players, (rounds,))[0]
    tail = [state_case(folder, *state) for state in sizes["tail"]]
    return {
        "goldraub": gold,
        "lima": lima,
        "tail": tail,
        "checks": checks,
        "replay": (replay, runs),
    }


def _guess_check(case: Case) -> list[tuple[Case, list[str]]]:
    """A guess at one of the second player's true sectors, and --best."""
    owner = simulate.NAMES[1]
    sector = next(s for s, h in case.truth.items() if h == owner)
    return [(case, [owner, sector]), (case, [])]


def _accuse_check(case: Case) -> list[tuple[Case, list[str]]]:
    """An accusation of the true treasure pair, and --best."""
    pair = sorted(t for t, h in case.truth.items() if h == simulate_lima.TREASURE)
    return [(case, pair), (case, [])]


def main(argv: list[str] | None = None) -> None:
    """Run the benchmarks and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small subset, under a minute")
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
    parser.add_argument("--cap", type=float, help="seconds for the whole run (570; quick 55)")
    parser.add_argument("--markdown", action="store_true", help="tables as Markdown")
    args = parser.parse_args(argv)
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=180)
    cap = args.cap or (55.0 if args.quick else 570.0)
    z3_limit = args.z3_limit or (1.0 if args.quick else 3.0)
    with tempfile.TemporaryDirectory(prefix="sleuth-bench-") as tmp:
        folder = Path(tmp)
        bench = Bench(
            args.budget, z3_limit, args.brute_limit, Clock(cap), console, folder, args.markdown
        )
        jobs = plan(folder, args.quick)
        first = jobs["goldraub"][0][0]
        for line in machine(bench, bench.measure("idle", first)):
            console.print("- " * args.markdown + line, markup=False, soft_wrap=True)
        console.print()
        started = time.monotonic()
        startup_section(bench)
        bench.clock.section(SHARES["goldraub"])
        game_section(bench, "Goldraub in London (simulated 10-round games)", jobs["goldraub"])
        bench.clock.section(SHARES["lima"])
        game_section(bench, "Loot of Lima (simulated games)", jobs["lima"])
        bench.clock.section(SHARES["tail"])
        tail_section(bench, jobs["tail"])
        bench.clock.section(SHARES["check"])
        check_section(bench, jobs["checks"])
        bench.clock.section(SHARES["replay"])
        replay_section(bench, *jobs["replay"])
        console.print(f"whole run: {time.monotonic() - started:.0f} s (cap {cap:g} s)")


if __name__ == "__main__":
    main()
