"""The replay of a record (``replay``) and why a fact is certain (``why``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from sleuth.cli.app import (
    ExitStatus,
    FileOpt,
    JsonOpt,
    PublicOpt,
    UptoOpt,
    analysable,
    app,
    env,
    fail,
    record_path,
    seconds,
    show_json,
)
from sleuth.errors import InputError

STEP_BUDGET = 5.0  # as sleuth.replay.STEP_BUDGET, which --help does not load
StepBudgetOpt = Annotated[
    float,
    typer.Option(
        "--step-budget",
        min=0.0,
        callback=seconds,
        help="Seconds for each step's count; past it, a labelled estimate.",
    ),
]
PngOpt = Annotated[
    Path | None,
    typer.Option(help="Also draw the chart as a PNG image (needs: pip install 'sleuth[plot]')."),
]
PngForceOpt = Annotated[
    bool, typer.Option("--force", help="Let --png overwrite a file that is not a PNG image.")
]
PLOT_MISSING = "--png needs matplotlib, which is not installed: pip install 'sleuth[plot]'"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"  # the first bytes of every PNG file


@contextmanager
def progress(steps: int, show: bool) -> Iterator:
    """A Rich progress bar on stderr for ``steps`` ticks; nothing off a terminal."""
    if not show or not env().err.is_terminal:
        yield None
        return
    from rich.progress import Progress

    with Progress(console=env().err, transient=True, auto_refresh=False) as bar:
        task = bar.add_task("replaying the record", total=steps)  # no thread: counts may fork
        yield lambda: bar.update(task, advance=1, refresh=True)


def plotting() -> None:
    """Exit 2 with one line when matplotlib is missing, before any count."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise fail(InputError("sleuth replay", "png", PLOT_MISSING)) from None


def image_target(png: Path, record: Path, force: bool) -> None:
    """Exit 2 with one line, before any count, unless the image can go to ``png``.

    Not the record itself (links resolved), nor an existing file that is not a PNG image unless
    ``force``, nor a path that cannot be replaced atomically (a directory, a device, a missing
    folder, a folder that cannot be written to).
    """
    from sleuth.errors import FileFault
    from sleuth.files import writable

    try:
        real = writable(png)
        if real == Path(os.path.realpath(record)) or _same(real, record):
            raise InputError("sleuth replay", "png", f"{png} is the record itself")
        if real.exists() and not force:
            try:
                with open(real, "rb") as image:
                    signature = image.read(len(PNG_SIGNATURE))
            except OSError as error:
                raise FileFault(str(png), "cannot read", error) from None
            if signature != PNG_SIGNATURE:
                message = f"{png} exists and is not a PNG image (--force overwrites it)"
                raise InputError("sleuth replay", "png", message)
    except InputError as error:
        raise fail(error, "sleuth replay") from None


def _same(one: Path, other: Path) -> bool:
    """Whether two paths name one file (a hard link too); False when either is missing."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


@app.command("replay")
def replay_command(
    file: FileOpt = None,
    json_: JsonOpt = False,
    png: PngOpt = None,
    force: PngForceOpt = False,
    budget: StepBudgetOpt = STEP_BUDGET,
    public: PublicOpt = False,
) -> None:
    """The game as a timeline: deals left, what became certain, my best move, the moves judged."""
    if png is not None:
        plotting()
        image_target(png, record_path(file), force)
    record = analysable(file, "sleuth replay", public=public)
    from sleuth.render.replay import png_image, replay_json, show_replay

    ticks = 2 * (len(record.events) + 1)
    with progress(ticks, not json_) as tick:
        result = env().session(record_path(file)).replay(record, budget, tick)
    if json_:
        show_json(replay_json(result))
    else:
        show_replay(env().out, result)
    if png is not None:
        from sleuth.files import write_atomic

        try:
            write_atomic(png, png_image(result))
        except InputError as error:
            raise fail(error, "sleuth replay") from None
    if not result.fits:
        raise typer.Exit(ExitStatus.INCONSISTENT)


@app.command()
def why(
    holder: Annotated[str, typer.Argument(help="A player (a unique prefix), or aside, treasure.")],
    item: Annotated[str, typer.Argument(help="A sector or a location.")],
    file: FileOpt = None,
    budget: StepBudgetOpt = STEP_BUDGET,
    upto: UptoOpt = None,
    every: Annotated[
        bool, typer.Option("--all", help="For a fact not certain: every event, not only big moves.")
    ] = False,
    public: PublicOpt = False,
) -> None:
    """Why a fact is certain: the fewest events that prove it; else how its chance moved."""
    record = analysable(file, "sleuth why", upto, public)
    try:
        found = env().session(record_path(file)).why(record, holder, item, budget)
    except InputError as error:
        raise fail(error, "sleuth why") from None
    from sleuth.render.why import show_moves, show_proof

    if not found.fits:
        env().out.print(f"No {found.noun} fits the record: 'sleuth report' shows the conflict.")
        raise typer.Exit(ExitStatus.INCONSISTENT)
    if found.proof is not None:
        show_proof(env().out, record, *found.proof)
        return
    assert found.steps is not None  # a fact with no proof has its chance's moves
    show_moves(env().out, record, found.pair, found.steps, every)
