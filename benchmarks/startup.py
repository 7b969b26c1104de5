"""Start-up: whole-process times of small commands, against Python's own start in the same run.

Usage: ``python benchmarks/startup.py [--runs N] [--imports K] [--markdown]``.

Every command runs ``--runs`` times (at least 5), the commands taken in turn so that a busy
spell of the machine falls on all of them alike; the table gives the median and the fastest run
of each, and the median less that of ``python -c pass``. The small record is a simulated
3-player Goldraub game of a few events (``simulate(3, 4, 1)``), written into a temporary
folder; the rulebook example is the 5-player record of ``examples``. ``--imports K`` adds, for
each sleuth command, the K packages whose import took longest (``python -X importtime``,
cumulative: a package's time includes what it imports, so nested ones count in both).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tables import render  # noqa: E402

from sleuth.document import document, dump  # noqa: E402
from sleuth.games.goldraub.simulate import simulate  # noqa: E402
from sleuth.record import parse  # noqa: E402

MIN_RUNS = 5
TARGETS = {"sleuth --help": 0.2, "sleuth report (small)": 0.35}  # issue 19, item 5


def commands(small: Path) -> dict[str, list[str]]:
    """Each measured command line, by its row name: the baselines first."""
    python, rulebook = sys.executable, ROOT / "examples" / "goldraub-rulebook.yaml"
    sleuth = [python, "-m", "sleuth"]
    return {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import typer'": [python, "-c", "import typer"],
        "python -c 'import typer, numpy, z3'": [python, "-c", "import typer, numpy, z3"],
        "sleuth --help": [*sleuth, "--help"],
        "sleuth report --help": [*sleuth, "report", "--help"],
        "sleuth report (small)": [*sleuth, "report", "--file", str(small)],
        "sleuth check (small)": [*sleuth, "check", "--file", str(small)],
        "sleuth report (rulebook)": [*sleuth, "report", "--file", str(rulebook)],
    }


def environment() -> dict[str, str]:
    """The commands' environment: no remembered orders, 80 columns, no colour."""
    environ = dict(os.environ, SLEUTH_CACHE="off", COLUMNS="80", TERM="dumb")
    environ.pop("SLEUTH_FILE", None)
    return environ


def small_record(folder: Path) -> Path:
    """A 3-player Goldraub record of four searches and a guess, consistent and exact."""
    doc, _ = simulate(3, 4, 1)
    path = folder / "small.yaml"
    path.write_text(dump(document(parse(doc, str(path)))), encoding="utf-8")
    return path


def timed(argv: list[str], environ: dict[str, str]) -> float:
    """Seconds one whole process takes, output dropped."""
    started = time.perf_counter()
    subprocess.run(argv, env=environ, cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def measure(lines: dict[str, list[str]], runs: int) -> dict[str, list[float]]:
    """Each command's times over ``runs`` rounds, the commands taken in turn in every round."""
    environ = environment()
    for argv in lines.values():  # warm the file cache and the bytecode once
        timed(argv, environ)
    times: dict[str, list[float]] = {name: [] for name in lines}
    for _ in range(runs):
        for name, argv in lines.items():
            times[name].append(timed(argv, environ))
    return times


def table(times: dict[str, list[float]], markdown: bool) -> str:
    """The medians, fastest runs, medians over ``python -c pass`` and the targets."""
    base = statistics.median(times["python -c pass"])
    head = ("command", "median s", "fastest s", "over python s", "target s")
    rows = []
    for name, runs in times.items():
        median = statistics.median(runs)
        target = TARGETS.get(name)
        rows.append(
            (
                name,
                f"{median:.3f}",
                f"{min(runs):.3f}",
                f"{median - base:+.3f}",
                f"{target:.2f}" if target else "",
            )
        )
    return render(head, rows, markdown)


def imports(argv: list[str], top: int) -> list[tuple[str, float]]:
    """The ``top`` packages whose import took longest (seconds, cumulative) in one run."""
    done = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]],
        env=environment(),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    totals: dict[str, float] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|")
        if cumulative.strip().isdigit():
            package = name.strip().split(".")[0]
            totals[package] = max(totals.get(package, 0.0), int(cumulative) / 1e6)
    return sorted(totals.items(), key=lambda pair: -pair[1])[:top]


def main() -> None:
    """Measure and print the table (and, with ``--imports``, the slowest imports)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each command (at least 5)")
    parser.add_argument("--imports", type=int, default=0, help="slowest imports to list")
    parser.add_argument("--markdown", action="store_true", help="Markdown tables")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        lines = commands(small_record(Path(folder)))
        times = measure(lines, max(args.runs, MIN_RUNS))
        print(table(times, args.markdown))
        for name, argv in lines.items():
            if args.imports and name.startswith("sleuth"):
                rows = [(p, f"{s:.3f}") for p, s in imports(argv, args.imports)]
                print(f"\n{name}: slowest imports (-X importtime, cumulative)")
                print(render(("package", "import s"), rows, args.markdown))


if __name__ == "__main__":
    main()
