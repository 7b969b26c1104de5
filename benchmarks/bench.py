"""How the benchmarks time things: child processes, a time cap, a ``sleuth play`` session, tables.

Every measurement runs in a fresh child process: ``benchmarks/measure.py`` for timings inside one
process, or a whole command. A child's peak memory (maximum resident set size) and CPU time
come from ``os.wait4``, for that child alone. Every child runs with ``SLEUTH_CACHE=off`` (no item
order remembered between commands) and, given a tree, ``PYTHONPATH`` set to it: a command of the
installed ``sleuth`` script then imports the package from that tree (``compare.py``).
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pexpect
from rich import box
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SLEUTH = str(Path(sys.executable).parent / "sleuth")  # not ``python -m``, which imports the cwd's
MEASURE = str(ROOT / "benchmarks" / "measure.py")
RUNS = 5  # at most, while a measurement's runs take under SPEND seconds; never fewer than 3
SPEND = 2.0
CLI_RUNS = 3


@dataclass
class Child:
    """A finished (or killed) child process: exit code, output, wall and CPU time, peak memory."""

    code: int | None
    out: str
    err: str
    wall: float
    cpu: float
    rss_mib: float


def environment(tree: Path | None = None) -> dict[str, str]:
    """A child's environment: no remembered orders, no colour; sleuth from ``tree`` if given."""
    env = dict(os.environ, SLEUTH_CACHE="off", NO_COLOR="1")
    env.pop("SLEUTH_FILE", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


def run_child(argv: list[str], timeout: float, tree: Path | None = None) -> Child:
    """Run ``argv``, killing it after ``timeout`` s; its exit code is None when killed."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        where = tree or ROOT  # ``python -c`` and ``-m`` import from the working directory first
        proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=where, env=environment(tree))
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
        cpu = usage.ru_utime + usage.ru_stime
        return Child(
            code, out.read().decode(), err.read().decode(), wall, cpu, usage.ru_maxrss / 1024
        )


def failure(child: Child) -> str:
    """The last line a failed child wrote to stderr."""
    return "error: " + (child.err.strip().splitlines() or ["?"])[-1]


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


@dataclass
class Bench:
    """The settings of a run, its clock, its folder of records, and the console of its tables."""

    budget: float
    z3_limit: float
    brute_limit: float
    clock: Clock
    console: Console
    folder: Path
    markdown: bool

    def measure(self, kind: str, case, timeout: float | None = None, **spec) -> dict:
        """One ``measure.py`` measurement of a case; {"skipped": why} when it could not finish."""
        left = self.clock.left()
        if left < 1:
            return {"skipped": "time cap"}
        limit = left if timeout is None else min(timeout, left)
        spec = {"kind": kind, "file": str(case.path), "budget": self.budget} | spec
        child = run_child([PYTHON, MEASURE, json.dumps(spec)], limit)
        if child.code is None:
            return {"skipped": "time cap" if limit == left else f"killed at {limit:.0f} s"}
        if child.code != 0:
            return {"skipped": failure(child)}
        return json.loads(child.out) | {"rss_mib": child.rss_mib}

    def command(self, argv: list[str], runs: int = CLI_RUNS) -> dict:
        """Median wall time of a whole command over ``runs`` runs, its last output, its memory."""
        walls, rss, last = [], 0.0, None
        for _ in range(runs):
            left = self.clock.left()
            if left < 1:
                return {"skipped": "time cap"}
            last = run_child(argv, left)
            if last.code is None:
                return {"skipped": "time cap"}
            if last.code not in (0, 3):
                return {"skipped": failure(last)}
            walls.append(last.wall)
            rss = max(rss, last.rss_mib)
        return {"time": statistics.median(walls), "out": last.out, "rss_mib": rss, "runs": runs}

    def cli(self, argv: list[str], runs: int = CLI_RUNS) -> dict:
        """``command`` of ``sleuth`` with these arguments."""
        return self.command([SLEUTH, *argv], runs)

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
LEFT |= {"measured", "answers"}


CUT = ("uncounted", "tolerate_skipped", "treasure_uncounted")  # what the budget left out
DONE = ("exact", "repairs_complete", "barrel_counted")  # false: sampled, or cut short


def partial(answer) -> bool:
    """Whether a command's JSON answer is not all exact: sampled, or cut short by the budget."""
    if isinstance(answer, list):
        return any(partial(value) for value in answer)
    if not isinstance(answer, dict):
        return False
    if any(answer.get(key) is False for key in DONE) or any(answer.get(key) for key in CUT):
        return True
    return answer.get("worlds", 0) is None or any(partial(v) for v in answer.values())


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


def quantile(values: list[float], q: float) -> float:
    """The q-quantile of values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


PROMPT, CPR = "game.yaml>", "\x1b[6n"


class Play:
    """``sleuth play`` on ``game.yaml`` of a folder, in a pseudo-terminal of 24 x 80 (pexpect)."""

    def __init__(self, folder: Path, tree: Path | None = None) -> None:
        """Start it (importing sleuth from ``tree`` if given) and wait for the first prompt."""
        env = environment(tree) | {"TERM": "xterm"}
        for key in ("COLUMNS", "LINES"):
            env.pop(key, None)
        self.child = pexpect.spawn(
            SLEUTH, ["play"], cwd=str(folder), env=env, dimensions=(24, 80), encoding="utf-8"
        )
        self.child.timeout = 600
        self.child.delaybeforesend = None
        self.wait(PROMPT)

    def wait(self, text: str) -> None:
        """Wait for ``text``, answering cursor position requests."""
        while self.child.expect_exact([CPR, text]) == 0:
            self.child.send("\x1b[1;1R")

    def entry(self, line: str, marker: str) -> float:
        """Seconds from Enter to the prompt after ``marker`` (the entry's own output)."""
        self.child.send(line)
        time.sleep(0.05)  # the line drawn before the clock starts
        started = time.perf_counter()
        self.child.send("\r")
        self.wait(marker)
        self.wait(PROMPT)
        return time.perf_counter() - started

    def close(self) -> None:
        """Leave play (Ctrl-D) and wait for it to end."""
        self.child.sendcontrol("d")
        self.child.expect(pexpect.EOF)
