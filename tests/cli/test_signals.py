"""Signals from outside: a command killed while its workers count leaves no process behind, and
Ctrl-C at start-up ends it quietly. Each runs the real console script in its own process group.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sleuth.document import document, dump
from sleuth.games.lima.simulate import simulate as lima_game
from sleuth.record import parse

SLEUTH = os.path.join(os.path.dirname(sys.executable), "sleuth")
ROLL = "SW-beach,N-wild,E-beach"
PYTHON_START = ("Fatal Python error: init_", "Error processing line")  # Python's own start
PACKAGE = re.compile(r'File "[^"]*/sleuth/[^"/]+(/[^"/]+)*\.py"')  # a frame of the package
HANG = 30.0  # seconds after which a pipe still open or a process still there is a hang


@pytest.fixture(scope="module")
def lima(tmp_path_factory) -> Path:
    """A 5-player Lima record of 10 events, whose ``next --barrel`` forks workers for seconds."""
    path = tmp_path_factory.mktemp("signals") / "lima.yaml"
    path.write_text(dump(document(parse(lima_game(5, 10, 0)[0], "sim"))))
    return path


def started(args: list[str], **extra) -> subprocess.Popen:
    """The console script with ``args``, its stdout a pipe, leading a process group of its own."""
    environ = {**os.environ, "SLEUTH_CACHE": "off"}
    environ.pop("SLEUTH_WORKERS", None)
    return subprocess.Popen(
        [SLEUTH, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env=environ,
        **extra,
    )


def drained(pipe) -> bool:
    """Read ``pipe`` to its end; whether the end came before HANG seconds."""
    end = time.monotonic() + HANG
    while time.monotonic() < end:
        ready, _, _ = select.select([pipe], [], [], end - time.monotonic())
        if ready and not os.read(pipe.fileno(), 1 << 16):
            return True
    return False


def group_left(pgid: int) -> bool:
    """Whether any process of the group ``pgid`` is left (zombies of the dead parent included)."""
    for _ in range(100):  # the kernel reaps the orphans of a killed parent at once, or nearly
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("command", ["next", "replay"])
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["TERM", "KILL"])
def test_a_command_killed_while_its_workers_count_leaves_no_process(lima, command, how):
    """Killed at many points of its start and its batch: the pipe ends, no process is left."""
    args = ["next", "--roll", ROLL, "--barrel"] if command == "next" else ["replay"]
    for delay in (0.6, 0.8, 1.0, 1.4, 2.5):
        child = started([*args, "--file", str(lima)])
        try:
            time.sleep(delay)
            child.send_signal(how)
            assert drained(child.stdout), f"stdout still open {HANG} s after a kill at {delay} s"
            child.wait(HANG)
            assert not group_left(child.pid), f"a process outlived a kill at {delay} s"
        finally:
            with_group_killed(child)


def with_group_killed(child: subprocess.Popen) -> None:
    """Whatever the test leaves of ``child``'s group: killed, its pipes closed."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.stdout.close()
    child.stderr.close()
    child.wait()


def before_sleuth(err: str) -> bool:
    """Whether ``err`` is Python's own error at an interrupt before the package's code ran."""
    if err.startswith(PYTHON_START):
        return True
    return "KeyboardInterrupt" in err and not PACKAGE.search(err)  # e.g. "Could not import runpy"


@pytest.mark.parametrize("way", ["script", "module"])
def test_ctrl_c_during_start_up_ends_quietly(way):
    """``sleuth --version`` interrupted at any point of its start: exit 130 or 0, no traceback.

    Before Python has set its own handler, SIGINT ends the process itself (a shell shows 130).
    Before the package's first line runs (Python importing its ``site``, here with the editable
    install's finder; the console script pip writes importing ``sleuth.__main__``), Python
    prints its own error: those tries are not sleuth's, and no frame of the package is in them.
    """
    command = [SLEUTH] if way == "script" else [sys.executable, "-m", "sleuth"]
    ours = 0
    for delay in (0.01, 0.03, 0.05, 0.08, 0.1, 0.13, 0.16, 0.2, 0.25, 0.3):
        child = subprocess.Popen(
            [*command, "--version"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=HANG)
        if before_sleuth(err):
            continue
        assert child.returncode in (0, 130, -signal.SIGINT), (delay, child.returncode, err)
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, (delay, err)
        ours += child.returncode == 130
    assert ours, "no try was interrupted while sleuth loaded"
