"""Output faults, through a real process: a stdout that cannot take the text, a full disk, a
closed stdout, odd terminal sizes.

Exit status 0 if and only if the event was recorded: a recording command whose event was
written keeps its status and notes the lost output on stderr; a reading command whose output
is lost exits 2 with one line on stderr. Never exit 1, never a traceback.
"""

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import sleuth.cli  # noqa: F401 - registers the game commands

cli_app = importlib.import_module("sleuth.cli.app")  # sleuth.cli.app is also the Typer app

NAMES = "Anton,bé,ä,Łu"  # é and ä are Latin-1, Ł is not; none is ASCII
NEW = ["new", "goldraub", "--players", NAMES, "--me", "Anton", "--hand", "22,45,63"]
GUESS = ["guess", "bé", "Łu", "11", "--wrong"]
GUESS_LINE = "  - guess: {by: bé, owner: Łu, sector: 11, correct: false}\n"
FULL = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")


def sub(cwd: Path, *args: str, stdout=subprocess.PIPE, **extra: str) -> subprocess.CompletedProcess:
    """``python -m sleuth`` in ``cwd``; stdout as given (a pipe, a file, or None for closed)."""
    env = {k: v for k, v in os.environ.items() if k not in ("SLEUTH_FILE", "COLUMNS", "LINES")}
    env.update({"NO_COLOR": "1", "PYTHONIOENCODING": "utf-8", **extra})
    command = [sys.executable, "-m", "sleuth", *args]
    if stdout is None:  # the shell's >&-: the child starts with descriptor 1 closed
        command = ["sh", "-c", 'exec "$@" >&-', "sh", *command]
        stdout = subprocess.PIPE
    return subprocess.run(
        command, cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE, timeout=120
    )


@pytest.fixture
def game(tmp_path) -> Path:
    """A Goldraub record with non-ASCII names and one search, in tmp_path (the cwd of sub)."""
    return written(tmp_path)


def written(folder: Path) -> Path:
    """The record of ``game``, written in-process (quicker than two processes)."""
    path = folder / "game.yaml"
    runner = CliRunner()
    assert runner.invoke(cli_app.app, [*NEW, "--file", str(path)]).exit_code == 0
    search = ["search", "ä", "31-36", "--gold", "1", "--file", str(path)]
    assert runner.invoke(cli_app.app, search).exit_code == 0
    return path


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> dict:
    """What ``report --json``, ``report`` and ``--help`` print at the default width of 80."""
    folder = written(tmp_path_factory.mktemp("plain")).parent
    commands = [("report", "--json"), ("report",), ("--help",)]
    return {args: sub(folder, *args, COLUMNS="80").stdout for args in commands}


def note(result: subprocess.CompletedProcess, *parts: str) -> str:
    """The one line on stderr, checked to contain every one of ``parts`` and no traceback."""
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sleuth: "), result.stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_recording_to_an_unencodable_stdout_records_once_and_exits_0(game, encoding):
    before = game.read_text()
    result = sub(game.parent, *GUESS, PYTHONIOENCODING=encoding)
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    assert "recorded: guess {by: b" in result.stdout.decode(encoding)
    assert "owner: ?u, sector: 11" in result.stdout.decode(encoding)
    assert game.read_text() == before + GUESS_LINE


def test_new_with_an_ascii_stdout_exits_0(tmp_path):
    result = sub(tmp_path, *NEW, PYTHONIOENCODING="ascii")
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    assert b"Anton, b?, ?, ?u; me: Anton" in result.stdout
    assert "players: [Anton, bé, ä, Łu]" in (tmp_path / "game.yaml").read_text()


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("args", [["report"], ["check", "Łu", "12"]])
def test_reading_with_an_unencodable_stdout_prints_what_it_can(game, encoding, args):
    result = sub(game.parent, *args, PYTHONIOENCODING=encoding)
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    assert result.stdout.decode(encoding).strip()


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_json_with_an_unencodable_stdout_is_valid_and_exact(game, encoding):
    result = sub(game.parent, "report", "--json", PYTHONIOENCODING=encoding)
    assert result.returncode == 0 and result.stderr == b"", result.stderr
    exact = sub(game.parent, "report", "--json")
    assert json.loads(result.stdout.decode(encoding)) == json.loads(exact.stdout)
    assert "Łu" in exact.stdout.decode()


@FULL
@pytest.mark.parametrize("args", [["report"], ["report", "--json"], ["check", "--best"]])
def test_reading_to_a_full_disk_exits_2_with_one_line(game, args):
    with open("/dev/full", "w") as full:
        result = sub(game.parent, *args, stdout=full)
    assert result.returncode == 2
    note(result, "cannot write the output", "stdout", "No space left")


@FULL
@pytest.mark.parametrize("args", [["--help"], ["new", "lima", "--help"], ["report", "--help"]])
def test_help_to_a_full_disk_exits_2_with_one_line(tmp_path, args):
    with open("/dev/full", "w") as full:
        result = sub(tmp_path, *args, stdout=full)
    assert result.returncode == 2
    note(result, "cannot write the output", "No space left")


@FULL
def test_recording_to_a_full_disk_records_notes_and_exits_0(game):
    before = game.read_text()
    with open("/dev/full", "w") as full:
        result = sub(game.parent, "search", "Łu", "31-36", "--gold", "1", stdout=full)
    assert result.returncode == 0
    note(result, "note:", "recorded", "output", "No space left")
    assert game.read_text() == before + "  - search: {by: Łu, row: 31-36, gold: 1}\n"


def test_reading_with_stdout_closed_exits_2_with_one_line(game):
    result = sub(game.parent, "report", stdout=None)
    assert result.returncode == 2
    note(result, "cannot write the output", "stdout is closed")


def test_recording_with_stdout_closed_records_notes_and_exits_0(game):
    before = game.read_text()
    result = sub(game.parent, *GUESS, stdout=None)
    assert result.returncode == 0
    note(result, "note:", "recorded", "stdout is closed")
    assert game.read_text() == before + GUESS_LINE


@FULL
def test_bad_input_with_stderr_full_still_exits_2(game):
    before = game.read_bytes()
    command = [sys.executable, "-m", "sleuth", "search", "Xaver", "31-36", "--gold", "1"]
    with open("/dev/full", "w") as full:
        result = subprocess.run(command, cwd=game.parent, stderr=full, timeout=120)
    assert result.returncode == 2 and game.read_bytes() == before


@pytest.mark.parametrize(
    "sizes",
    [
        {"COLUMNS": "0"},
        {"COLUMNS": "1"},
        {"COLUMNS": "19"},
        {"COLUMNS": "-5"},
        {"COLUMNS": "abc"},
        {"LINES": "0"},
        {"LINES": "-5", "COLUMNS": "0"},
    ],
    ids=str,
)
def test_odd_terminal_sizes_are_unknown_widths(game, plain, sizes):
    folder = game.parent
    for args, printed in plain.items():
        assert sub(folder, *args, **sizes).stdout == printed, args


def test_no_width_still_shows_errors_and_what_was_recorded(game):
    result = sub(game.parent, "search", "Xaver", "31-36", "--gold", "1", COLUMNS="0")
    assert result.returncode == 2
    note(result, "sleuth search", "'Xaver' is not a player")
    result = sub(game.parent, *GUESS, COLUMNS="0")
    assert result.returncode == 0 and b"recorded: guess" in result.stdout


def test_json_does_not_depend_on_the_width(game):
    wide = sub(game.parent, "report", "--json", COLUMNS="500").stdout
    assert sub(game.parent, "report", "--json", COLUMNS="20").stdout == wide


class ReaderGone:
    """A stdout whose reader has gone away (``| head`` where SIGPIPE is not delivered)."""

    encoding = "utf-8"

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_pipe_closed_by_the_reader_ends_quietly(monkeypatch, tmp_path):
    from sleuth.cli.output import Stream

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(cli_app.app, NEW).exit_code == 0
    gone = Stream("stdout")
    monkeypatch.setattr(gone, "target", ReaderGone)
    env = cli_app.Env(out=Console(file=gone), err=Console(stderr=True), environ={})
    result = runner.invoke(cli_app.app, ["report"], obj=env)
    assert result.exit_code == 0 and result.stderr == ""
