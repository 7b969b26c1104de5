import io
import time

from rich.console import Console

from sleuth.cli.spinner import spinner


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=terminal, width=80), out


def test_no_spinner_when_stderr_is_not_a_terminal():
    console, out = _console(False)
    with spinner(console, "counting", delay=0.0):
        time.sleep(0.2)
    assert out.getvalue() == ""


def test_no_spinner_for_quick_work_on_a_terminal():
    console, out = _console(True)
    with spinner(console, "counting", delay=0.5):
        pass
    assert "counting" not in out.getvalue()


def test_spinner_for_slow_work_on_a_terminal():
    console, out = _console(True)
    with spinner(console, "counting", delay=0.05):
        time.sleep(0.4)
    assert "counting" in out.getvalue()
