"""The current tree against a git revision: one measured set, timed in both in the same run.

Usage: ``.venv/bin/python benchmarks/compare.py --against REV [--set NAME] [--rounds N]
[--games N] [--markdown]``.

REV is checked out in a temporary ``git worktree``. Every measurement runs in its own process
with ``PYTHONPATH`` set to one tree or the other, on the same record files (written once, by
the current tree); a timing inside one process is the current tree's ``benchmarks/measure.py``
in both (each tree's own copy timed different work when the API changed under it: 395cbad's
report made Lima's treasure pairs unless told not to, 9162813's harness never read them).
The two trees alternate, in turn first, for ``--rounds`` rounds, so that both see the same load
of this shared machine, after a round that is not counted (numba compiles each tree's kernels
into its cache the first time). A measurement's value in a tree is its median over the rounds.

The sets (``--set``; the records are ``states.py``'s):

- ``quick``: what ``run.py --quick`` times of sleuth itself: reports in process and as a
  command, check, a report after every event, ``sleuth --help``;
- ``tail``: the slowest surveyed states, in process and as a command;
- ``table``: states met at a table, each a ``report --json`` process (``--games`` Goldraub games
  of 5 and of 6 players, 20 by default, and half as many Lima games), then ``--tolerate 1``,
  then ``--budget 1`` on the three 6-player states slowest in either tree;
- ``next``: ``sleuth next --json`` on three states of each of ``--games`` games (2);
- ``route``: ``sleuth next --json`` on table Goldraub games of 6 and 5 players (``--games``,
  20), each after 6, 12, 18 and 24 events;
- ``replay``: ``sleuth replay --json`` of whole games, ``why`` of a certain and an open fact;
- ``play``: entries typed into ``sleuth play``, one session in each tree;
- ``startup``, ``budget``, ``tolerate``: as the sections of ``run.py``;
- ``cold``: one-off reports of 5-player table states after 24 events (``--games``, 5), plain
  and with ``--tolerate 1``, then ``--tolerate 1`` within budgets of 1, 3 and 15 s on the
  table states slowest to count so (``states.cold_commands``).

Two rows per group of measurements, one per tree: how many, the spread of their values, the
median CPU time of the processes (steadier than wall time when other work shares the machine),
the group's target and whether it is met, and on the current tree's row the median ratio
new/old (under 1: faster now) of wall and CPU time. **same** counts the measurements whose
answers agree in both trees, of those exact in both (a sample is never compared): every value
of the JSON found in both, floats within 1e-9; worlds and exactness in process.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import tempfile
from collections.abc import Callable
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import states
from bench import (
    MEASURE,
    PYTHON,
    ROOT,
    RUNS,
    SLEUTH,
    SPEND,
    Play,
    partial,
    progress,
    quantile,
    run_child,
)
from states import Case, Command
from tables import render


@dataclass(frozen=True)
class Taken:
    """One measurement in one tree: seconds, CPU seconds (None in process), its answer."""

    seconds: float
    cpu: float | None
    answer: object  # None: nothing to compare (text, or not exact)


@dataclass(frozen=True)
class Row:
    """One measurement of a set: its group, its name, and how to take it in a given tree."""

    group: str
    label: str
    take: Callable[[Path], Taken]
    argv: tuple[str, ...] = ()  # a whole command's

    def name(self) -> str:
        """Its group and label, the label left out when the group says it."""
        return self.group if self.label in self.group else f"{self.group} {self.label}"


@contextmanager
def worktree(rev: str):
    """A temporary detached worktree of ``rev``, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="sleuth-compare-") as tmp:
        path = Path(tmp) / "tree"
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", "-q", str(path), rev], check=True)
        try:
            yield path
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(path)], check=True)


def imports_from(tree: Path) -> None:
    """Make sure a child given ``tree`` imports sleuth from it; SystemExit if not."""
    where = finished([PYTHON, "-c", "import sleuth; print(sleuth.__file__)"], tree).out
    if not Path(where.strip()).is_relative_to(tree):
        raise SystemExit(f"a child given {tree} imports sleuth from {where.strip()}")


def finished(argv: list[str], tree: Path):
    """A child that ran to its end in ``tree``; SystemExit when it failed (no lying row)."""
    child = run_child(argv, 3600, tree)
    if child.code not in (0, 3):
        raise SystemExit(f"{' '.join(argv[:4])}: exit {child.code}\n{child.err[-2000:]}")
    return child


def command(argv: tuple[str, ...]) -> Callable[[Path], Taken]:
    """A whole command: its wall and CPU time, and its JSON answer when it is exact."""

    def take(tree: Path) -> Taken:
        child = finished(list(argv), tree)
        try:
            answer = json.loads(child.out)
        except ValueError:
            answer = None
        return Taken(child.wall, child.cpu, None if partial(answer) else answer)

    return take


def measured(kind: str, case: Case, **spec) -> Callable[[Path], Taken]:
    """A timing inside one process by the current ``measure.py``, importing sleuth from ``tree``:
    its median, its counts."""

    def take(tree: Path) -> Taken:
        job = {"kind": kind, "file": str(case.path), "budget": 15.0} | spec
        out = json.loads(finished([PYTHON, MEASURE, json.dumps(job)], tree).out)
        times = out.get("times") or out["totals"]
        answer = {k: out.get(k) for k in ("worlds", "exact", "events")}
        return Taken(statistics.median(times), None, answer if out.get("exact", True) else None)

    return take


def report_rows(cases: list[Case]) -> list[Row]:
    """A report of each case in process and as a ``report --json`` command."""
    rows = []
    for case in cases:
        name = case.path.stem
        rows.append(Row(f"report {name}", name, measured("report", case, runs=RUNS, spend=SPEND)))
        argv = (SLEUTH, "report", "--json", "-f", str(case.path), "--budget", "15")
        rows.append(Row(f"CLI report --json {name}", name, command(argv)))
    return rows


def quick_rows(folder: Path) -> list[Row]:
    """What ``run.py --quick`` times of sleuth itself (the baselines left out)."""
    cases = [case for game in states.GAMES for case, _ in states.game_cases(folder, game, True)]
    rows = [Row("sleuth --help", "sleuth --help", command((SLEUTH, "--help")))]
    rows += report_rows(cases + states.tail_cases(folder, True))
    for case, what in states.check_cases(folder, True):
        label = f"check {case.path.stem} {' '.join(what)}"
        spec = {"what": what, "runs": RUNS, "spend": SPEND}
        rows.append(Row(label, label, measured("check", case, **spec)))
    case = states.events_case(folder, True)
    label = f"a report after every event of {case.path.stem}"
    rows.append(Row(label, label, measured("replay", case, runs=1, spend=0)))
    return rows


def play_rows(folder: Path, stack: ExitStack) -> list[Row]:
    """Entries typed into ``sleuth play``, in a session of each tree (started when first used)."""
    sessions: dict[Path, Play] = {}

    def session(tree: Path) -> Play:
        if tree not in sessions:
            place = folder / f"play-{len(sessions)}"
            place.mkdir()
            states.play_game(place)
            sessions[tree] = Play(place, tree)
            stack.callback(sessions[tree].close)
        return sessions[tree]

    def entry(line: str, marker: str) -> Callable[[Path], Taken]:
        def take(tree: Path) -> Taken:
            seconds = session(tree).entry(line, marker)
            if marker == "recorded:":
                session(tree).entry("undo", "removed:")
            return Taken(seconds, None, None)

        return take

    place = folder / "play-entries"
    place.mkdir()
    entries = states.play_game(place)
    return [Row(group, "", entry(line, marker)) for group, line, marker in entries]


def commands(made: list[Command]) -> list[Row]:
    """Rows of whole commands."""
    return [Row(c.group, c.label, command(c.argv), c.argv) for c in made]


def rows(name: str, folder: Path, games: int | None, stack: ExitStack) -> list[Row]:
    """The rows of a set."""
    if name == "quick":
        return quick_rows(folder)
    if name == "tail":
        return report_rows(states.tail_cases(folder, False))
    if name == "table":
        games = 20 if games is None else games
        return commands(states.table_commands(folder, games, (games + 1) // 2))
    if name == "next":
        return commands(states.next_commands(folder, 2 if games is None else games, 3))
    if name == "route":
        return commands(states.route_next_commands(folder, 20 if games is None else games))
    if name == "play":
        return play_rows(folder, stack)
    made = {
        "replay": lambda: states.replay_commands(folder, False),
        "startup": lambda: states.startup(folder),
        "budget": lambda: states.budget_commands(folder, (1.0, 0.2), False),
        "tolerate": lambda: states.tolerate_commands(folder, False),
        "cold": lambda: states.cold_commands(folder, 5 if games is None else games),
    }
    return commands(made[name]())


SETS = ["quick", "tail", "table", "next", "route", "replay", "play", "startup", "budget"]
SETS += ["tolerate", "cold"]

Results = dict[tuple[Row, str], list[Taken]]


def measure(trees: dict[str, Path], todo: list[Row], rounds: int) -> Results:
    """Every row in both trees, alternated, after a round that is not counted."""
    results: Results = {}
    for r in range(-1, rounds):
        for i, row in enumerate(todo):
            names = list(trees) if (r + i) % 2 == 0 else list(trees)[::-1]
            for name in names:
                progress(f"round {r + 1}/{rounds}, {name}: {row.name()}")  # round 0: warm-up
                taken = row.take(trees[name])
                if r >= 0:
                    results.setdefault((row, name), []).append(taken)
    return results


def value(results: Results, row: Row, tree: str) -> float:
    """A row's median seconds in a tree."""
    return statistics.median(t.seconds for t in results[row, tree])


def cpu(results: Results, row: Row, tree: str) -> float | None:
    """A row's median CPU seconds in a tree (None in process)."""
    times = [t.cpu for t in results[row, tree] if t.cpu is not None]
    return statistics.median(times) if times else None


def same(a, b) -> bool:
    """Whether two answers agree: the keys of both, floats within 1e-9."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, int | float) and isinstance(b, int | float) and abs(a - b) < 1e-9
    if isinstance(a, dict) and isinstance(b, dict):
        return all(same(a[k], b[k]) for k in a.keys() & b.keys())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def table(results: Results, todo: list[Row], trees: dict[str, Path], rev: str) -> list[list[str]]:
    """Two rows per group, one per tree."""
    out = []
    for group in dict.fromkeys(row.group for row in todo):
        mine = [row for row in todo if row.group == group]
        answers = [[results[row, name][-1].answer for name in trees] for row in mine]
        compared = [pair for pair in answers if None not in pair]
        agree = sum(same(*pair) for pair in compared)
        goal = states.target(group)
        for name in trees:
            times = [value(results, row, name) for row in mine]
            cpus = [c for row in mine if (c := cpu(results, row, name)) is not None]
            ratios = ["", ""]
            if name == "new":
                wall = [value(results, row, "new") / value(results, row, "old") for row in mine]
                ratios[0] = f"{statistics.median(wall):.2f}"
                if cpus:
                    each = [cpu(results, row, "new") / cpu(results, row, "old") for row in mine]
                    ratios[1] = f"{statistics.median(each):.2f}"
            out.append(
                [group, rev if name == "old" else "current", str(len(mine))]
                + [f"{x:.3f}" for x in (statistics.median(times), quantile(times, 0.9), max(times))]
                + [f"{statistics.median(cpus):.3f}" if cpus else "-", *ratios]
                + [goal.text() if goal else "-", f"{goal.under(times):.0%}" if goal else "-"]
                + [("yes" if goal.met(times) else "NO") if goal else "-"]
                + [f"{agree}/{len(compared)}" if compared else "-"]
            )
    return out


HEAD = ["measured", "tree", "n", "p50 s", "p90 s", "max s", "CPU p50 s", "new/old", "CPU new/old"]
HEAD += ["target", "under", "met", "same"]


def slowest_budget(results: Results, todo: list[Row], count: int = 3) -> list[Row]:
    """``--budget 1`` on the ``count`` 6-player table states slowest in either tree."""
    six = [row for row in todo if row.group == "goldraub 6p"]
    worst = sorted(six, key=lambda r: -max(value(results, r, "old"), value(results, r, "new")))
    made = [Command("slowest --budget 1", row.label, (*row.argv, "--budget", "1")) for row in worst]
    return commands(made[:count])


def header(rev: str) -> list[str]:
    """The date, the machine's load, and the two trees."""
    head = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        f"{datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}, {os.cpu_count()} cores, "
        f"load average at the start {load}",
        f"current: the tree ({head}); against: {rev}",
    ]


def main(argv: list[str] | None = None) -> None:
    """Parse the options, measure the set in both trees, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the git revision to compare with")
    parser.add_argument("--set", default="quick", choices=SETS, help="what to measure (quick)")
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds (3)")
    parser.add_argument("--games", type=int, help="games: table 20, next 2, route 20, cold 5")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args(argv)
    lines = header(args.against)
    with (
        worktree(args.against) as old,
        tempfile.TemporaryDirectory(prefix="sleuth-bench-") as tmp,
        ExitStack() as stack,
    ):
        trees = {"old": old, "new": ROOT}
        for tree in trees.values():
            imports_from(tree)
        todo = rows(args.set, Path(tmp), args.games, stack)
        results = measure(trees, todo, args.rounds)
        if args.set == "table":
            extra = slowest_budget(results, todo)
            results |= measure(trees, extra, args.rounds)
            todo += extra
    print("\n".join(lines) + "\n")
    print(render(HEAD, table(results, todo, trees, args.against), args.markdown))
    ratios = [value(results, row, "new") / value(results, row, "old") for row in todo]
    print(f"\ngeometric mean of the ratios new/old: {statistics.geometric_mean(ratios):.2f}")
    worst = sorted(todo, key=lambda row: -value(results, row, "new"))[:5]
    print("slowest now (current, against seconds):")
    for row in worst:
        new, old = value(results, row, "new"), value(results, row, "old")
        print(f"  {row.name()}: {new:.2f}, {old:.2f}")


if __name__ == "__main__":
    main()
