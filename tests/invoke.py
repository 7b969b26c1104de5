"""The app invoked in process, as the CLI tests do: one helper instead of a copy per file."""

from __future__ import annotations

import importlib

from rich.console import Console
from typer.testing import CliRunner

import sleuth.cli  # noqa: F401 - registers the commands

cli_app = importlib.import_module("sleuth.cli.app")


def plain_env(width: int = 200, err_width: int | None = None) -> cli_app.Env:
    """An environment with no variables set and colourless consoles of ``width`` columns."""
    return cli_app.Env(
        out=Console(width=width, color_system=None, highlight=False),
        err=Console(stderr=True, width=err_width or width, color_system=None, highlight=False),
        environ={},
    )


def invoker(monkeypatch, tmp_path, width: int = 200, err_width: int | None = None):
    """``run(*args, input=None)``: the app in ``tmp_path``, colourless consoles of ``width``."""
    monkeypatch.chdir(tmp_path)
    env = plain_env(width, err_width)
    runner = CliRunner()
    return lambda *args, input=None: runner.invoke(
        cli_app.app, [str(a) for a in args], input=input, obj=env
    )
