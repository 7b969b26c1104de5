"""A light start: each command loads only the packages it needs (issue 19, item 5).

Each case runs the command line in a fresh interpreter, in process, and names the heavy
packages it left loaded. Timing is the harness's (``benchmarks/run.py --only startup``); this
only checks the imports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("z3", "numpy", "numba", "ruamel", "constraint", "pydantic")
SCRIPT = """
import json, sys
sys.argv = ["sleuth", *sys.argv[1:]]
import sleuth.cli
try:
    sleuth.cli.main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def modules(*args: str, cache: str = "off") -> set[str]:
    """The modules loaded once ``sleuth ARGS`` has run (its output is dropped)."""
    environ = dict(os.environ, SLEUTH_CACHE=cache, COLUMNS="80")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args],
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
        timeout=120,
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def loaded(*args: str, cache: str = "off") -> set[str]:
    """The heavy packages loaded once ``sleuth ARGS`` has run."""
    return {name.split(".")[0] for name in modules(*args, cache=cache)} & set(HEAVY)


def test_help_and_version_load_no_solver_array_or_yaml_package():
    assert loaded("--help") == set()
    assert loaded("report", "--help") == set()
    assert loaded("--version") == set()


def test_help_and_version_load_neither_the_analysis_nor_a_game_s_pictures():
    for args in (("--help",), ("--version",)):
        names = modules(*args)
        assert "sleuth.analysis" not in names and "sleuth.render" not in names
        assert not [name for name in names if name.endswith((".picture", ".advice"))]
        assert "sleuth.games.goldraub.commands" in names  # the test sees the games' commands


def test_a_small_report_loads_no_compiled_kernels_and_no_yaml_writer():
    found = loaded("report", "--file", str(ROOT / "examples" / "goldraub-rulebook.yaml"))
    assert "numba" not in found and "ruamel" not in found
    assert "constraint" not in found  # the tests' independent counter, never a command's
    assert "pydantic" not in found  # Typer before 0.29 parses options without it
    assert {"z3", "numpy"} <= found  # the consistency check and the count: the test sees them


def test_only_play_loads_the_line_editor():
    assert not [n for n in modules("--help") if n.startswith("prompt_toolkit")]
    assert not [n for n in modules("play", "--help") if n.startswith("prompt_toolkit")]
    assert not [n for n in modules("report", "--help") if n.startswith("prompt_toolkit")]


def test_a_report_dated_from_the_cache_loads_no_solver(tmp_path):
    record = tmp_path / "game.yaml"
    record.write_bytes((ROOT / "examples" / "goldraub-rulebook.yaml").read_bytes())
    cache = str(tmp_path / "cache")
    assert "z3" in loaded("report", "--file", str(record), "--upto", "40", cache=cache)
    for upto in ("41", "12"):  # one event more, then a prefix: dated from the cache
        found = loaded("report", "--file", str(record), "--upto", upto, cache=cache)
        assert not {"z3", "numba", "ruamel", "pydantic"} & found, upto


def test_reading_a_record_loads_neither_the_command_line_nor_its_screens():
    """``sleuth.record`` and the games' rules come without Typer and Rich (each game's commands
    and checks are its ``interface`` module, which the command line alone imports)."""
    code = "import sys, sleuth.record; print(sorted({m.split('.')[0] for m in sys.modules}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout.replace("'", '"')))
    assert not {"typer", "rich", "click", "z3", "numba"} & loaded
