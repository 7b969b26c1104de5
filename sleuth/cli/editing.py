"""The record's events by number: list them (``log``) and remove any one (``delete``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sleuth.cli.app import FileOpt, app, env, fail, number, record_path, show_json, warn
from sleuth.errors import InputError

if TYPE_CHECKING:
    from sleuth.record import Record

LogJsonOpt = Annotated[
    bool, typer.Option("--json", help="A JSON list: each event as in the file, with its index.")
]


@app.command()
def log(file: FileOpt = None, json_: LogJsonOpt = False) -> None:
    """List the recorded events, numbered as in reports, edit and delete."""
    from sleuth.store import load

    path = record_path(file)
    try:
        record, doc = load(path, keep=False)
    except InputError as error:
        raise fail(error, "sleuth log") from None
    if json_:
        items = [{"index": n, **item} for n, item in enumerate(doc.get("events") or [], 1)]
        show_json(items)
        return
    show_log(path, record)


def show_log(path: Path, record: Record) -> None:
    """A line per event, its number first; a long one wraps under its text, not its number."""
    import textwrap

    count = len(record.events)
    kept = f"{count} event{'' if count == 1 else 's'}" if count else "no events yet"
    env().out.print(f"{path}: {kept}", markup=False)
    room, width = len(str(count)), max(env().out.width, 40)
    for index, event in enumerate(record.events, 1):
        first, rest = f"{index:>{room}} ", " " * (room + 1)
        lines = textwrap.TextWrapper(width, first, rest, break_on_hyphens=False)
        line = lines.fill(event.text())
        env().out.print(line, markup=False, soft_wrap=True)


@app.command(context_settings={"ignore_unknown_options": True})  # -1: no event, not an option
def delete(
    event: Annotated[
        int,
        typer.Argument(parser=number, help="The event's number, as 'sleuth log' shows it."),
    ],
    file: FileOpt = None,
) -> None:
    """Remove one recorded event; the later ones move up by one."""
    from sleuth.store import remove

    path = record_path(file)
    try:
        record, removed = remove(path, event, "sleuth delete", warn)
    except InputError as error:
        raise fail(error, "sleuth delete") from None
    env().recorded = path
    env().out.print(f"removed event {event}: {removed.text()}", markup=False)
    last = len(record.events)
    if event <= last:
        moved = f"event {last + 1} is" if event == last else f"events {event + 1}-{last + 1} are"
        now = f"{event}" if event == last else f"{event}-{last}"
        env().out.print(f"  the old {moved} now {now}", markup=False)
