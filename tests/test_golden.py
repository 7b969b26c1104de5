"""The report's text and JSON, byte for byte, on every example and a few simulated records.

The expected outputs in ``tests/golden`` were captured from the code before the layout of issue
18 changed (a refactor must not change a character). When a change of output is intended,
rewrite them with ``python tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
RECORDS = sorted((ROOT / "examples").glob("*.yaml")) + sorted(GOLDEN.glob("*.yaml"))
VIEWS = {"txt": (), "json": ("--json",)}


def output(record: Path, *extra: str) -> tuple[int, str]:
    """What ``sleuth report`` prints for ``record`` at 80 columns, with its exit status.

    A budget of 200 s gives the repair search (a share of it) time to finish on a busy machine.
    """
    environ = dict(os.environ, COLUMNS="80", SLEUTH_CACHE="off", TERM="dumb")
    environ.pop("SLEUTH_FILE", None)
    done = subprocess.run(
        [sys.executable, "-m", "sleuth", "report", "-f", str(record), "--budget", "200", *extra],
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
        timeout=120,
    )
    return done.returncode, done.stdout


def expected(record: Path, view: str) -> Path:
    """Where the expected output of one view of ``record`` is kept."""
    return GOLDEN / f"{record.stem}.report.{view}"


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_the_report_is_unchanged(record, view):
    status, text = output(record, *VIEWS[view])
    kept = expected(record, view).read_text(encoding="utf-8")
    first, _, rest = kept.partition("\n")
    assert status == int(first.removeprefix("exit "))
    assert text == rest


if __name__ == "__main__":
    for record in RECORDS:
        for view, extra in VIEWS.items():
            status, text = output(record, *extra)
            expected(record, view).write_text(f"exit {status}\n{text}", encoding="utf-8")
