"""Table mode: seconds from an entry to the next prompt in ``sleuth play``, against the one-shot
command in the same run.

Usage: ``python benchmarks/play.py [--runs N] [--markdown]``.

The record is a simulated 5-player Goldraub game of 20 events (``simulate(5, 20, 4, me=2,
guesses=0)``, its first 20). ``sleuth play`` runs in a pseudo-terminal of 24 x 80 (pexpect);
each entry is timed from its Enter to the next prompt, once the command's own output has
appeared. Each round types the search of the game's 21st event as a short form, then ``undo``
(not timed), ``report`` and a ``check``; the one-shot commands run the same, each as a whole
process on a fresh copy of the 20-event record. The table gives the median and the 90th
percentile of each (issue 20: the play median under 0.3 s).
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

import pexpect  # noqa: E402
from tables import render  # noqa: E402

from sleuth.document import document, dump  # noqa: E402
from sleuth.games.goldraub.simulate import simulate  # noqa: E402
from sleuth.record import parse  # noqa: E402

PROMPT, CPR = "game.yaml>", "\x1b[6n"
TARGET = 0.3


def game(folder: Path) -> tuple[Path, dict]:
    """The 20-event record in ``folder``, and the event that comes next."""
    doc, _ = simulate(5, 21, 4, me=2, guesses=0)
    following = doc["events"][20]["search"]
    doc["events"] = doc["events"][:20]
    path = folder / "base.yaml"
    path.write_text(dump(document(parse(doc, str(path)))), encoding="utf-8")
    return path, following


def entries(s: dict) -> dict[str, tuple[str, list[str], str]]:
    """Each timed entry: the line typed in play, the one-shot command, the output to wait for."""
    saw = [str(s["saw"])] if "saw" in s else []
    full = ["search", s["by"], s["row"], "--gold", str(s["gold"])]
    full += ["--saw", *saw] if saw else []
    short = " ".join([s["by"][:2].lower(), s["row"], str(s["gold"]), *saw])
    return {
        "search (short form)": (short, full, "recorded:"),
        "report": ("report", ["report"], "deals fit the record"),
        "check bert 11": ("check bert 11", ["check", "bert", "11"], "verdict"),
    }


def environment(folder: Path) -> dict[str, str]:
    """No colour, no remembered orders, 80 columns."""
    environ = dict(os.environ, TERM="xterm", NO_COLOR="1", SLEUTH_CACHE="off")
    for key in ("SLEUTH_FILE", "COLUMNS", "LINES"):
        environ.pop(key, None)
    return environ


class Session:
    """``sleuth play`` on ``game.yaml`` in a pseudo-terminal."""

    def __init__(self, folder: Path) -> None:
        """Start it and wait for the first prompt."""
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "sleuth", "play"],
            cwd=str(folder),
            env=environment(folder),
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=120,
        )
        self.child.delaybeforesend = None
        self.wait(PROMPT)

    def wait(self, text: str) -> None:
        """Wait for ``text``, answering cursor position requests."""
        while self.child.expect_exact([CPR, text]) == 0:
            self.child.send("\x1b[1;1R")

    def entry(self, line: str, marker: str) -> float:
        """Seconds from Enter to the prompt after ``marker``."""
        self.child.send(line)
        time.sleep(0.05)  # the line drawn before the clock starts
        started = time.perf_counter()
        self.child.send("\r")
        self.wait(marker)
        self.wait(PROMPT)
        return time.perf_counter() - started


def one_shot(argv: list[str], base: Path, folder: Path) -> float:
    """Seconds one whole ``sleuth`` process takes on a fresh copy of the record."""
    copy = folder / "copy.yaml"
    copy.write_bytes(base.read_bytes())
    command = [sys.executable, "-m", "sleuth", *argv, "--file", str(copy)]
    started = time.perf_counter()
    subprocess.run(command, env=environment(folder), stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def measure(runs: int) -> dict[str, list[float]]:
    """Each entry's times in play and one-shot, over ``runs`` rounds."""
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        base, following = game(folder)
        (folder / "game.yaml").write_bytes(base.read_bytes())
        session = Session(folder)
        for _ in range(runs):
            for label, (line, argv, marker) in entries(following).items():
                times.setdefault(f"play: {label}", []).append(session.entry(line, marker))
                if label.startswith("search"):
                    session.entry("undo", "removed:")
                times.setdefault(f"one-shot: {label}", []).append(one_shot(argv, base, folder))
        session.child.sendcontrol("d")
        session.child.expect(pexpect.EOF)
    return times


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def table(times: dict[str, list[float]], markdown: bool) -> str:
    """Median and 90th percentile of each entry, play and one-shot."""
    head = ("entry", "median s", "p90 s", "runs")
    rows = [
        (name, f"{statistics.median(v):.3f}", f"{percentile(v, 0.9):.3f}", str(len(v)))
        for name, v in sorted(times.items(), key=lambda item: (item[0].split(": ")[1], item[0]))
    ]
    everything = [t for name, v in times.items() if name.startswith("play") for t in v]
    rows.append(
        ("play: every entry", f"{statistics.median(everything):.3f}",
         f"{percentile(everything, 0.9):.3f}", str(len(everything)))
    )
    return render(head, rows, markdown) + f"\ntarget: play median under {TARGET} s"


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="rounds of the three entries")
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    print(table(measure(max(args.runs, 1)), args.markdown))


if __name__ == "__main__":
    main()
