"""Ctrl-C in table mode on a terminal: it stops the command and the session goes on, with every
worker of an interrupted batch reaped (on a pipe: ``tests/cli/test_play.py``).
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pexpect
from test_play import PROMPT, Terminal

from sleuth.document import document, dump
from sleuth.games.lima.simulate import simulate as lima_game
from sleuth.record import parse

HANG = 20  # seconds after which a prompt that has not come back is a hang


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, zombies included."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
        except (OSError, ValueError):
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def listening(folder: Path) -> Terminal:
    """A session that Ctrl-C reaches, even from a test process that ignores SIGINT (xdist's)."""
    ignored = signal.signal(signal.SIGINT, signal.default_int_handler)  # exec makes it SIG_DFL
    try:
        return Terminal(folder)
    finally:
        signal.signal(signal.SIGINT, ignored)


def test_ctrl_c_in_a_replay_at_the_table_comes_back_to_the_prompt(tmp_path):
    """Ctrl-C at many points of a replay's batch: "interrupted", the prompt, no worker left."""
    path = tmp_path / "game.yaml"
    path.write_text(dump(document(parse(lima_game(5, 20, 0)[0], "sim"))))
    before = path.read_text()
    terminal = listening(tmp_path)
    terminal.child.timeout = HANG
    interrupted = 0
    for delay in (0.05, 0.2, 0.4, 0.7, 1.0, 1.4, 1.9, 2.5, 3.2):
        terminal.child.send("replay\r")
        time.sleep(delay)
        terminal.child.sendintr()
        # a replay that ended before the Ctrl-C (a fast machine) leaves it to the prompt
        ended = r"\+0 +20"  # the chart's last line: the replay was over
        if terminal.child.expect(["sleuth: interrupted; the record is as last written", ended]):
            continue
        interrupted += 1
        terminal.expect(PROMPT)
        assert children(terminal.child.pid) == [], f"a worker left by Ctrl-C at {delay} s"
    assert interrupted >= 3, "too few Ctrl-Cs landed while the replay ran"
    terminal.child.sendcontrol("d")
    terminal.child.expect(pexpect.EOF)
    terminal.child.close()
    assert terminal.child.exitstatus == 0
    assert path.read_text() == before
