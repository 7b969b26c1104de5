"""What ``report``, ``next``, ``replay`` and ``why`` print, byte for byte, on chosen records.

Each case is one command on one record, at 80 columns, as text and (where the command has it)
as ``--json``: ``report`` of every example and of the simulated records kept here; ``next`` at a
few points of a Goldraub and a Lima record, with each game's options; ``replay`` of whole
records; ``why`` of facts certain from different events, of facts not certain, and of targets
it refuses. Its expected output is kept in ``tests/golden`` under the case's name, e.g.
``lima-4p.next-upto-9-roll-wild.json``: the exit status on the first line (``exit 0``), then
stdout; stderr, when the command writes any, in the same name followed by ``.stderr``.

No output may depend on the machine's speed: budgets are far above what the counts need, and
the ``why`` cases are facts whose smallest proof z3 finds in about a third of the 0.3 s of
processor time ``why`` gives that search (past it, ``why`` says "a smaller set may exist").
The slowest cases (Lima's ``--barrel``, ``--public``) are kept in one view only.

The expected files were captured from the code before the layouts of issues 18 and 29 changed
(a refactor must not change a character). When a change of output is intended, rewrite them
all with ``python tests/cli/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
RECORDS = sorted((ROOT / "examples").glob("*.yaml")) + sorted(GOLDEN.glob("*.yaml"))
VIEWS = {"txt": (), "json": ("--json",)}
BUDGET = ("--budget", "200")
STEP_BUDGET = ("--step-budget", "100")
WILD_ROLL = ("--roll", "SW-beach,N-wild,E-beach")
TWO_WILDS = ("--roll", "NW-mountain,N-wild,S-wild")
FOREST_ROLL = ("--roll", "SE-forest,S-forest,W-forest")


class Case(NamedTuple):
    """One command on one record, e.g. ``Case("lima-4p", "why-di-7f", ("why", "Di", "7F"))``."""

    record: str
    name: str
    command: tuple[str, ...]
    views: tuple[str, ...] = ("txt", "json")


REPORTS = [Case(path.stem, "report", ("report", *BUDGET)) for path in RECORDS] + [
    Case("goldraub-rulebook", "report-public", ("report", "--public", *BUDGET)),
    Case("lima-4p", "report-public-upto-20", ("report", "--public", "--upto", "20", *BUDGET)),
]

NEXT = [
    Case("goldraub-5p-table-1", "next-upto-0", ("next", "--upto", "0", *BUDGET)),
    Case("goldraub-5p-table-1", "next-upto-12", ("next", "--upto", "12", *BUDGET)),
    Case(
        "goldraub-5p-table-1",
        "next-upto-12-at-20-occupied",
        ("next", "--upto", "12", "--at", "20", "--occupied", "21,22,1,3", *BUDGET),
    ),
    Case("goldraub-5p-table-1", "next", ("next", *BUDGET)),
    Case("goldraub-4p-seed3", "next-public", ("next", "--public", *BUDGET)),
    Case("goldraub-rulebook", "next", ("next", *BUDGET), ("txt",)),
    Case("lima-4p", "next-upto-9-roll-wild", ("next", "--upto", "9", *WILD_ROLL, *BUDGET)),
    Case(
        "lima-4p",
        "next-upto-9-roll-two-wilds-shovel",
        ("next", "--upto", "9", *TWO_WILDS, "--shovel", *BUDGET),
    ),
    Case(
        "lima-4p",
        "next-upto-9-roll-forest-pistol",
        ("next", "--upto", "9", *FOREST_ROLL, "--pistol", *BUDGET),
    ),
    Case(
        "lima-4p",
        "next-upto-9-roll-forest-public",
        ("next", "--upto", "9", *FOREST_ROLL, "--public", *BUDGET),
        ("json",),
    ),
    Case(
        "lima-4p",
        "next-upto-30-roll-forest-barrel",
        ("next", "--upto", "30", *FOREST_ROLL, "--barrel", *BUDGET),
        ("txt",),
    ),
    Case("lima-4p", "next-no-roll", ("next", "--upto", "9", *BUDGET), ("txt",)),
    Case("lima-4p", "next-roll-forest", ("next", *FOREST_ROLL, *BUDGET), ("txt",)),
    Case("scotland-yard-4p", "next-upto-2-drawn", ("next", "--upto", "2", "--drawn", "67y")),
    Case("loot-the-loop", "next-upto-12", ("next", "--upto", "12", "--budget", "0")),
    Case("looting-london-4p", "next-upto-15", ("next", "--upto", "15")),
    Case("looting-london-4p", "next-upto-22", ("next", "--upto", "22")),
    Case("looting-london-4p", "check-1-upto-22", ("check", "1", "--upto", "22")),
    Case("looting-london-4p", "check-1-upto-15", ("check", "1", "--upto", "15")),
]

REPLAYS = [
    Case(record, "replay", ("replay", *STEP_BUDGET))
    for record in (
        "goldraub-5p-table-1",
        "goldraub-rulebook",
        "goldraub-5p-altered",
        "lima-4p",
        "lima-4p-seed5",
        "scotland-yard-4p",
        "loot-the-loop",
        "looting-london-4p",
    )
]


def why(record: str, name: str, *target: str) -> Case:
    """``sleuth why`` of ``target`` on ``record``, as text (it has no ``--json``)."""
    return Case(record, f"why-{name}", ("why", *target, *STEP_BUDGET), ("txt",))


WHYS = [
    why("goldraub-5p-table-1", "bert-12", "Bert", "12"),
    why("goldraub-5p-table-1", "elli-22", "Elli", "22"),
    why("goldraub-5p-table-1", "aside-11", "aside", "11"),
    why("goldraub-5p-table-1", "elli-13", "Elli", "13"),
    why("goldraub-5p-table-1", "elli-22-upto-20", "Elli", "22", "--upto", "20"),
    why("goldraub-5p-table-1", "aside-46-all", "aside", "46", "--all"),
    why("goldraub-5p-table-1", "zed-11", "Zed", "11"),
    why("goldraub-5p-altered", "bert-12", "Bert", "12"),
    why("lima-4p", "di-7f-upto-20", "Di", "7F", "--upto", "20"),
    why("lima-4p", "ben-5f-upto-25", "Ben", "5F", "--upto", "25"),
    why("lima-4p", "di-3m-upto-27", "Di", "3M", "--upto", "27"),
    why("lima-4p", "cy-2f", "Cy", "2F"),
    why("lima-4p", "treasure-8b", "treasure", "8B"),
    why("lima-4p", "treasure-6b-upto-40", "treasure", "6B", "--upto", "40"),
]

CASES = REPORTS + NEXT + REPLAYS + WHYS
VIEWED = [(case, view) for case in CASES for view in case.views]


def record_path(stem: str) -> Path:
    """The record named ``stem``, among the examples or the simulated records."""
    return next(path for path in RECORDS if path.stem == stem)


def output(case: Case, view: str) -> tuple[int, str, str]:
    """What ``case`` prints in ``view`` at 80 columns: its exit status, stdout and stderr."""
    environ = dict(os.environ, COLUMNS="80", SLEUTH_CACHE="off", TERM="dumb")
    environ.pop("SLEUTH_FILE", None)
    name, *rest = case.command
    done = subprocess.run(
        [sys.executable, "-m", "sleuth", name, "-f", str(record_path(case.record))]
        + rest
        + list(VIEWS[view]),
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
        timeout=180,
    )
    return done.returncode, done.stdout, done.stderr


def expected(case: Case, view: str) -> Path:
    """Where the expected output of ``case`` in ``view`` is kept."""
    return GOLDEN / f"{case.record}.{case.name}.{view}"


def expected_stderr(case: Case, view: str) -> Path:
    """Where what ``case`` writes on stderr in ``view`` is kept, when it writes anything."""
    return GOLDEN / f"{case.record}.{case.name}.{view}.stderr"


def label(case_view: tuple[Case, str]) -> str:
    """A test's id, the name of its expected file: ``lima-4p.next-upto-9-roll-wild.json``."""
    return expected(*case_view).name


@pytest.mark.parametrize(("case", "view"), VIEWED, ids=[label(item) for item in VIEWED])
def test_the_output_is_unchanged(case, view):
    status, text, errors = output(case, view)
    kept = expected(case, view).read_text(encoding="utf-8")
    first, _, rest = kept.partition("\n")
    stderr = expected_stderr(case, view)
    assert status == int(first.removeprefix("exit "))
    assert text == rest
    assert errors == (stderr.read_text(encoding="utf-8") if stderr.exists() else "")


if __name__ == "__main__":
    for stale in GOLDEN.glob("*.stderr"):
        stale.unlink()
    for case, view in VIEWED:
        status, text, errors = output(case, view)
        expected(case, view).write_text(f"exit {status}\n{text}", encoding="utf-8")
        if errors:
            expected_stderr(case, view).write_text(errors, encoding="utf-8")
