"""``next --barrel`` inside ``sleuth play`` against the same command run alone, in the same run
(issue 28, item 9: 18-21 s as a command, 28-61 s inside play).

Usage: ``python benchmarks/play_next.py [--runs N] [--events E] [--markdown]``.

The record is a simulated 5-player Loot of Lima game (``simulate(5, E, 0)``, 10 events by
default), the line ``next --roll SW-beach,N-wild,E-beach --barrel``. Each round runs it once as
a whole ``sleuth`` process (the baseline) and once typed into one ``sleuth play`` session in a
pseudo-terminal of 24 x 80, timed from Enter to the next prompt (``benchmarks/play.py``); the
two alternate, so that the machine's load falls on both alike. No remembered orders
(``SLEUTH_CACHE=off``). ``--budget`` (60 s by default) is passed to ``next``, so that the whole
Barrel is counted in both and the two do the same work: under the default 15 s both would stop
at the budget and look alike whatever their speed. The table gives each one's median and the
ratio to the baseline's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pexpect  # noqa: E402
from play import Session, one_shot, percentile  # noqa: E402
from tables import render  # noqa: E402

from sleuth.document import document, dump  # noqa: E402
from sleuth.games.lima.simulate import simulate  # noqa: E402
from sleuth.record import parse  # noqa: E402

ROLL = "SW-beach,N-wild,E-beach"
LINE = ["next", "--roll", ROLL, "--barrel"]
MARKER = "Barrel:"


def measure(runs: int, events: int, budget: float) -> dict[str, list[float]]:
    """Seconds of the command alone and inside play, ``runs`` times each, alternating."""
    line = [*LINE, "--budget", str(budget)]
    times: dict[str, list[float]] = {"command alone": [], "inside play": []}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        base = folder / "base.yaml"
        base.write_text(dump(document(parse(simulate(5, events, 0)[0], "sim"))))
        (folder / "game.yaml").write_bytes(base.read_bytes())
        session = Session(folder)
        session.child.timeout = 600
        for _ in range(runs):
            times["command alone"].append(one_shot(line, base, folder))
            times["inside play"].append(session.entry(" ".join(line), MARKER))
        session.child.sendcontrol("d")
        session.child.expect(pexpect.EOF)
    return times


def table(times: dict[str, list[float]], markdown: bool) -> str:
    """Median, 90th percentile and the median's ratio to the command alone's."""
    baseline = statistics.median(times["command alone"])
    head = ("next --barrel", "median s", "p90 s", "ratio", "runs")
    rows = [
        (label, f"{statistics.median(v):.2f}", f"{percentile(v, 0.9):.2f}",
         f"{statistics.median(v) / baseline:.2f}", str(len(v)))
        for label, v in times.items()
    ]
    return render(head, rows, markdown)


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds of the two")
    parser.add_argument("--events", type=int, default=10, help="events of the simulated game")
    parser.add_argument("--budget", type=float, default=60.0, help="next's --budget, seconds")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    print(table(measure(max(args.runs, 1), args.events, args.budget), args.markdown))


if __name__ == "__main__":
    main()
