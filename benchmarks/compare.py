"""The current tree against a git revision, on the quick set of ``run.py``, in the same run.

Usage: ``.venv/bin/python benchmarks/compare.py --against REV [--rounds N] [--set quick|tail]``.

REV is checked out in a temporary ``git worktree``; each measurement then runs in its own
process with ``PYTHONPATH`` set to one tree or the other (``PYTHONPATH`` comes before the
editable install), using that tree's own ``benchmarks/measure.py`` on the same record files
(written once, by the current tree). The two trees alternate, in turn first, for ``--rounds``
rounds, so that both see the same load of this shared machine, after a round that is not
counted (numba compiles each tree's kernels into its cache the first time). Each row prints
the median over the rounds of each tree (a round's value is what ``run.py`` reports: the
median of a measurement's runs in one process, or one command's wall time) and the ratio
new/old: under 1 is faster now. Commands also get the ratio of their process's CPU time,
steadier than wall time when other work shares the machine. Counts are checked to agree
(worlds, exact or not), so a ratio compares the same work.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # noqa: E402

ROOT = run.ROOT
BUDGET = 15.0


@dataclass(frozen=True)
class Row:
    """One measurement of the table: its label, and how to take it in a given tree."""

    label: str
    take: Callable[[Path], tuple[float, float | None, object]]  # tree -> (s, CPU s, to agree)


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


@contextmanager
def python_path(tree: Path):
    """Children started meanwhile import sleuth from ``tree``."""
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(tree)
    try:
        yield
    finally:
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before


def _child(argv: list[str]) -> tuple[str, float, float]:
    """(stdout, wall seconds, CPU seconds) of a child; SystemExit when it fails (no lying row)."""
    env = dict(os.environ, SLEUTH_CACHE="off")  # as run.py: every command cold
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = proc.communicate()
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(argv[:4])}: exit {proc.returncode}\n{err.decode()[-2000:]}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # all children so far: see timed
    return out.decode(), wall, usage.ru_utime + usage.ru_stime


def timed(argv: list[str]) -> tuple[str, float, float]:
    """``_child``, with the CPU seconds of this child alone."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out, wall, total = _child(argv)
    return out, wall, total - (before.ru_utime + before.ru_stime)


def _measured(kind: str, case: run.Case, **spec) -> Callable:
    """A ``measure.py`` measurement of the tree's own harness: (median seconds, its counts)."""

    def take(tree: Path) -> tuple[float, float | None, object]:
        job = {"kind": kind, "file": str(case.path), "budget": BUDGET} | spec
        harness = str(tree / "benchmarks" / "measure.py")
        out = json.loads(timed([run.PYTHON, harness, json.dumps(job)])[0])
        times = out.get("times") or out["totals"]
        return statistics.median(times), None, (out.get("worlds"), out.get("exact"), out["events"])

    return take


def _command(argv: list[str]) -> Callable:
    """The wall time of one ``sleuth`` command, and its output when it is JSON."""

    def take(tree: Path) -> tuple[float, float | None, object]:
        out, wall, cpu = timed([run.SLEUTH, *argv])
        data = json.loads(out) if argv[-1:] != ["--help"] else {}
        return wall, cpu, (data.get("worlds"), data.get("exact"))

    return take


def rows(folder: Path, which: str) -> list[Row]:
    """The measurements of ``run.py --quick`` that time sleuth itself (no baselines)."""
    jobs = run.plan(folder, quick=True)
    out = [Row("sleuth --help", _command(["--help"]))]
    cases = [case for case, _ in jobs["goldraub"] + jobs["lima"]] + jobs["tail"]
    if which == "tail":
        cases = [run.state_case(folder, *state) for state in run.SLOWEST]
    for case in cases:
        name = case.path.stem
        out.append(Row(f"report {name}", _measured("report", case, runs=run.RUNS, spend=run.SPEND)))
        argv = ["report", "--json", "-f", str(case.path), "--budget", str(BUDGET)]
        out.append(Row(f"CLI report --json {name}", _command(argv)))
    if which == "quick":
        for case, what in jobs["checks"]:
            spec = {"what": what or "best", "runs": run.RUNS, "spend": run.SPEND}
            label = f"check {case.path.stem} {' '.join(what) or '--best'}"
            out.append(Row(label, _measured("check", case, **spec)))
        case, runs = jobs["replay"]
        out.append(Row(f"replay {case.path.stem}", _measured("replay", case, runs=1, spend=0)))
    return out


def compare(rev: str, rounds: int, which: str) -> None:
    """Measure every row in both trees, alternated, and print the table."""
    with worktree(rev) as old, tempfile.TemporaryDirectory(prefix="sleuth-bench-") as tmp:
        table = rows(Path(tmp), which)
        trees = {"old": old, "new": ROOT}
        times: dict[tuple[str, str], list[float]] = {}
        cpus: dict[tuple[str, str], list[float]] = {}
        for r in range(-1, rounds):  # round -1 warms both trees up
            for i, row in enumerate(table):
                seen = {}
                for name in ("old", "new") if (r + i) % 2 == 0 else ("new", "old"):
                    run.progress(f"round {r + 1}/{rounds}, {name}: {row.label}")  # 0: warm-up
                    with python_path(trees[name]):
                        seconds, cpu, result = row.take(trees[name])
                    if r >= 0:
                        times.setdefault((row.label, name), []).append(seconds)
                        if cpu is not None:
                            cpus.setdefault((row.label, name), []).append(cpu)
                    seen[name] = result
                if seen["old"] != seen["new"]:
                    raise SystemExit(f"{row.label}: old {seen['old']} != new {seen['new']}")
        head = f"measurement (median of {rounds} rounds) | {rev} | current | new/old | CPU new/old"
        print(f"| {head} |")
        print("|---|---|---|---|---|")
        ratios, cpu_ratios = [], []
        for row in table:
            old_t = statistics.median(times[row.label, "old"])
            new_t = statistics.median(times[row.label, "new"])
            ratios.append(new_t / old_t)
            cells = [run.seconds(old_t), run.seconds(new_t), f"{new_t / old_t:.2f}", "-"]
            if (row.label, "old") in cpus:
                cpu = statistics.median(cpus[row.label, "new"]) / statistics.median(
                    cpus[row.label, "old"]
                )
                cpu_ratios.append(cpu)
                cells[-1] = f"{cpu:.2f}"
            print(f"| {row.label} | " + " | ".join(cells) + " |")
        means = [f"{statistics.geometric_mean(r):.2f}" for r in (ratios, cpu_ratios)]
        print("| geometric mean of the ratios | | | " + " | ".join(means) + " |")


def main(argv: list[str] | None = None) -> None:
    """Parse the options and run the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the git revision to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds (3)")
    parser.add_argument(
        "--set", default="quick", choices=["quick", "tail"], help="run.py's quick set, or SLOWEST"
    )
    args = parser.parse_args(argv)
    compare(args.against, args.rounds, args.set)


if __name__ == "__main__":
    main()
