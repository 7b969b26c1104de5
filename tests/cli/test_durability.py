"""Never lose a record: the lock serialises writers, a killed writer leaves the old file or the
new one, and comments written by hand survive sleuth's writes (or sleuth says first that not).
"""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from records import HEAD as RULEBOOK
from records import SEARCH_LINE
from typer.testing import CliRunner

from sleuth.cli import app
from sleuth.files import locked
from sleuth.store import append, load, remove_last

HEAD = RULEBOOK + "events:\n" + SEARCH_LINE
ROWS = ("11-14", "21-25", "41-47", "52-57", "63-67", "74-77", "11-77", "14-74")
FORK = multiprocessing.get_context("fork")


def _append_after(path: Path, barrier, row: str) -> None:
    """A writer: wait for the others, then append one search (gold 1: some rows hold mine)."""
    barrier.wait()
    append(path, "search", {"by": "Bert", "row": row, "gold": 1}, "test")


def test_writers_at_once_lose_no_event(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD)
    for _ in range(3):
        barrier = FORK.Barrier(len(ROWS))
        workers = [FORK.Process(target=_append_after, args=(path, barrier, r)) for r in ROWS]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
            assert worker.exitcode == 0
    rows = [e.row for e in load(path)[0].events[1:]]
    assert sorted(rows) == sorted(ROWS * 3)


def test_two_commands_at_once_lose_no_event(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD)
    env = dict(os.environ, NO_COLOR="1")
    commands = [
        [sys.executable, "-m", "sleuth", "search", "bert", row, "--gold", "0", "-f", str(path)]
        for row in ("11-14", "74-77")
    ]
    running = [
        subprocess.Popen(c, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for c in commands
    ]
    for process in running:
        assert process.wait(60) == 0, process.stderr.read()
    assert sorted(e.row for e in load(path)[0].events[1:]) == ["11-14", "74-77"]


def _flip_forever(path: Path) -> None:
    """A writer that appends an event or removes it again, as fast as it can, until killed."""
    while True:
        if len(load(path)[0].events) > 1:
            remove_last(path, "t")
        else:
            append(
                path,
                "guess",
                {"by": "Doris", "owner": "Bert", "sector": "32", "correct": True},
                "t",
            )


def test_a_killed_writer_leaves_the_old_record_or_the_new(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD)
    old = HEAD
    new = HEAD + "  - guess: {by: Doris, owner: Bert, sector: 32, correct: true}\n"
    rng = random.Random(7)
    seen = set()
    started = time.monotonic()
    trials = 0
    while trials < 200 and (time.monotonic() - started < 4 or len(seen) < 2):
        writer = FORK.Process(target=_flip_forever, args=(path,))
        writer.start()
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(writer.pid, signal.SIGKILL)
        writer.join()
        text = path.read_text()
        assert text in (old, new), text
        load(path)
        seen.add(text)
        trials += 1
    assert seen == {old, new} and trials >= 20, f"{len(seen)} state(s) seen in {trials} kills"
    append(path, "search", {"by": "Bert", "row": "11-14", "gold": 0}, "t")
    assert not list(tmp_path.glob(".game.yaml.*.tmp")), "a killed writer's temporary file is left"


COMMENTED = """\
# Game night at Doris's, 12 May
game: goldraub
players: [Anton, Bert, Christl, Doris, Elli]   # clockwise from the window
me: Christl
hand: [22, 45, 63]
rounds: 10
events:
  # round 1
  - search: {by: Anton, row: 31-36, gold: 2, saw: 1}   # Anton was quick
  - guess: {by: Doris, owner: Bert, sector: 32, correct: true}
"""
COMMENTS = (
    "# Game night at Doris's, 12 May",
    "# clockwise from the window",
    "# round 1",
    "# Anton was quick",
)


def run(path: Path, *args: str):
    """Invoke the app on the record at ``path``."""
    return CliRunner().invoke(app, [*args, "--file", str(path)])


def test_comments_survive_append_edit_and_undo(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(COMMENTED)
    result = run(path, "search", "bert", "11-14", "--gold", "0")
    assert result.exit_code == 0 and result.stderr == ""
    assert path.read_text().startswith(COMMENTED)
    result = run(path, "edit", "1", "gold=1")
    assert result.exit_code == 0 and result.stderr == ""
    result = run(path, "undo")
    assert result.exit_code == 0 and result.stderr == ""
    text = path.read_text()
    assert text == COMMENTED.replace("gold: 2, saw: 1", "gold: 1, saw: 1")
    for comment in COMMENTS:
        assert comment in text


def test_losing_a_comment_is_announced_before_the_rewrite(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(COMMENTED + "  - search: {by: Bert, row: 11-14, gold: 0}   # misheard?\n")
    result = run(path, "undo")
    assert result.exit_code == 0
    assert "without 1 of its comments: # misheard?" in result.stderr
    assert path.read_text() == COMMENTED


@pytest.mark.parametrize(
    "command", [["undo"], ["edit", "1", "gold=1"], ["search", "bert", "11-14", "--gold", "0"]]
)
def test_writes_keep_the_file_mode(tmp_path, command):
    path = tmp_path / "game.yaml"
    path.write_text(COMMENTED)
    path.chmod(0o640)
    assert run(path, *command).exit_code == 0
    assert path.stat().st_mode & 0o777 == 0o640


def test_overwriting_a_commented_record_says_so(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(COMMENTED)
    new = ["new", "goldraub", "--players", "A,B,C", "--me", "A", "--hand", "11,12,13", "--force"]
    result = run(path, *new)
    assert result.exit_code == 0
    assert "without 4 of its comments" in result.stderr
    assert "#" not in path.read_text()


def _append_rows(path: Path, rows: int) -> None:
    """A writer: append ``rows`` searches, one after another (gold 1: some rows hold mine)."""
    for index in range(rows):
        append(path, "search", {"by": "Bert", "row": ROWS[index % len(ROWS)], "gold": 1}, "t")


def test_writers_of_two_records_with_like_names_lose_no_event(tmp_path):
    paths = [tmp_path / "g.yaml", tmp_path / "g.yaml.bak.yaml"]
    for path in paths:
        path.write_text(HEAD)
    workers = [FORK.Process(target=_append_rows, args=(path, 40)) for path in paths]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    assert [len(load(path)[0].events) for path in paths] == [41, 41]


def test_the_sweep_spares_another_records_temporary_file(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(HEAD)
    other = tmp_path / ".g.yaml.bak.yaml.0123456789abcdef.tmp"
    other.write_text("being written")
    append(path, "search", {"by": "Bert", "row": "11-14", "gold": 0}, "t")
    assert other.read_text() == "being written"


def test_the_sweep_spares_a_live_writers_temporary_file(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD)
    live, dead = (tmp_path / f".game.yaml.{tag * 16}.tmp" for tag in "ab")
    live.write_text("being written")
    dead.write_text("left by a kill")
    with open(live) as held:
        fcntl.flock(held, fcntl.LOCK_SH)
        append(path, "search", {"by": "Bert", "row": "11-14", "gold": 0}, "t")
        assert live.exists() and not dead.exists()


def links(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A record in real/ and two symlinks to it in links/."""
    (tmp_path / "real").mkdir()
    (tmp_path / "links").mkdir()
    real = tmp_path / "real" / "g.yaml"
    real.write_text(HEAD)
    first, second = tmp_path / "links" / "a.yaml", tmp_path / "links" / "b.yaml"
    first.symlink_to("../real/g.yaml")
    second.symlink_to("../real/g.yaml")
    return real, first, second


@pytest.mark.parametrize(
    "command",
    [
        ["search", "bert", "11-14", "--gold", "0"],
        ["undo"],
        ["edit", "1", "gold=1"],
        ["new", "goldraub", "--players", "A,B,C", "--me", "A", "--hand", "11,12,13", "--force"],
    ],
)
def test_writing_through_a_symlink_keeps_the_link(tmp_path, command):
    real, first, second = links(tmp_path)
    real.chmod(0o640)
    assert run(first, *command).exit_code == 0
    assert first.is_symlink() and second.is_symlink()
    assert second.read_text() == real.read_text() != HEAD
    assert real.stat().st_mode & 0o777 == 0o640
    assert not list(tmp_path.glob("*/.*.tmp"))


def test_two_links_to_one_record_lock_each_other(tmp_path):
    real, first, second = links(tmp_path)
    with locked(second):
        writer = FORK.Process(target=_append_rows, args=(first, 1))
        writer.start()
        writer.join(0.5)
        assert writer.is_alive(), "the writer through the other link did not wait for the lock"
    writer.join(30)
    assert writer.exitcode == 0
    assert len(load(real)[0].events) == 2


NEW = ["new", "goldraub", "--players", "A,B,C", "--me", "A", "--hand", "11,12,13"]


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_a_new_record_follows_the_umask(tmp_path, umask):
    path = tmp_path / "game.yaml"
    old = os.umask(umask)
    try:
        result = run(path, *NEW)
    finally:
        os.umask(old)
    assert result.exit_code == 0
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_record_started_again_keeps_its_mode(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD)
    path.chmod(0o604)
    assert run(path, *NEW, "--force").exit_code == 0
    assert path.stat().st_mode & 0o777 == 0o604
