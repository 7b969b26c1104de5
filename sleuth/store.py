"""The record on disk: load it, and change it atomically under a lock (append, undo, edit, new)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sleuth.document import MAX_BYTES, document, dump, lost_comments, parse_yaml, read_text
from sleuth.errors import FileFault, InputError
from sleuth.files import head, locked, write_atomic
from sleuth.games.base import Event
from sleuth.record import Record, foreign, parse, parse_event


def load(path: Path, keep: bool = True) -> tuple[Record, Any]:
    """The record at ``path`` and its YAML document (``keep``: the one to write comments back)."""
    source = str(path)
    doc = parse_yaml(read_text(path), source, keep)
    try:
        return parse(doc, source), doc
    except RecursionError:
        raise InputError(source, "", "nested too deeply") from None


Warn = Callable[[str], None]


def save(path: Path, record: Record, doc: Any = None, warn: Warn | None = None) -> None:
    """Write ``record`` to ``path`` atomically, keeping the comments of ``doc``.

    Should a comment of the file on disk be lost (it belonged to a removed or changed event),
    ``warn`` is told so before the file is replaced.
    """
    text = dump(document(record, doc))
    if warn is not None and path.exists():
        try:
            before = head(path, MAX_BYTES)[0].decode("utf-8", errors="replace")
        except OSError as error:
            raise FileFault(str(path), "cannot read", error) from None
        lost = lost_comments(before, text)
        if lost:
            listed = "; ".join(lost)
            warn(f"rewriting {path} without {len(lost)} of its comments: {listed}")
    write_atomic(path, text)


def _edit(path: Path, source: str, change, warn: Warn | None = None) -> tuple[Record, Any]:
    """Under the lock: load the record, apply ``change`` to it, check it, write it atomically.

    A change that leaves the record as it was writes nothing: the file stays byte for byte.
    """
    with locked(path):
        record, doc = load(path)
        before = record.fields()
        result = change(record)
        if record.fields() != before:
            save(path, record, doc, warn)
    return record, result


def lawful(record: Record, source: str) -> None:
    """An InputError naming the source and the event when the rules forbid an event of the record.

    Checked on the whole event list as it would be written, so that an event put in the middle
    is checked at its place and every later event after it.
    """
    error = record.forbidden()
    if error is not None:
        raise error.located(source=source)


def append(
    path: Path,
    kind: str,
    fields: dict,
    source: str,
    warn: Warn | None = None,
    before: int | None = None,
) -> Record:
    """Check one new event (player fields may be unique prefixes) and append it to the record.

    ``before``: the 1-based number of the event to put it before, instead of at the end.
    """

    def add(record: Record) -> str | None:
        other = foreign(kind, record.rules)
        if other is not None:
            game = f"{path} is a {record.rules.title} record"
            raise InputError(source, "", f"{kind} is a {other.title} command; {game}")
        index = len(record.events) + 1 if before is None else _number(record, before, "before")
        try:
            data = dict(fields)
            for key in record.rules.events.get(kind, Event).names:
                if data.get(key) is not None:
                    data[key] = record.table.prefix(data[key], key)
            event = parse_event({kind: data}, record.rules, record.table, record.start)
        except InputError as error:
            raise error.located(source=source, event=index) from None
        record.events.insert(index - 1, event)
        lawful(record, source)
        return record.turn_note(index)

    record, note = _edit(path, source, add, warn)
    if note and warn is not None:  # once the event is written
        warn(note)
    return record


def _number(record: Record, index: int, field: str) -> int:
    """``index`` checked as the number of one of the record's events (1 is the first)."""
    if not 1 <= index <= len(record.events):
        count = len(record.events)
        span = f"1 to {count}" if count else "the record has none"
        raise InputError("", field, f"no event {index}: {span}")
    return index


def remove(path: Path, index: int, source: str, warn: Warn | None = None) -> tuple[Record, Event]:
    """Remove event ``index`` (1-based; the later ones move up by one).

    Refused when it would leave a lawful record with an event the rules forbid (a record that
    is already unlawful may be repaired by deleting). Returns the record as written and the
    removed event.
    """

    def drop(record: Record) -> Event:
        try:
            lawful_before = record.forbidden() is None
            removed = record.events.pop(_number(record, index, "event") - 1)
        except InputError as error:
            raise error.located(source=source) from None
        if lawful_before:
            _still_lawful(record, index, source)
        return removed

    return _edit(path, source, drop, warn)


def _still_lawful(record: Record, removed: int, source: str) -> None:
    """An InputError when the rules forbid an event once event ``removed`` is gone.

    The event is named by its number before the removal, as the user sees it in ``log``.
    """
    error = record.forbidden()
    if error is not None:
        event = error.event
        if event is not None and event >= removed:
            event += 1
        message = f"{error.message} (with event {removed} deleted)"
        raise InputError(source, error.field, message, event)


def remove_last(path: Path, source: str, warn: Warn | None = None) -> Event:
    """Remove the record's last event and return it."""

    def drop(record: Record) -> Event:
        if not record.events:
            raise InputError(source, "events", "the record has no event to undo")
        return record.events.pop()

    return _edit(path, source, drop, warn)[1]


def typed(value: Any, old: Any) -> Any:
    """A field's new value from the command line: words for a verdict, commas for a list."""
    if not isinstance(value, str):
        return value
    if isinstance(old, bool):
        return VERDICTS.get(value.strip().casefold(), value)
    if isinstance(old, list) or "," in value:
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


VERDICTS = {"true": True, "right": True, "yes": True, "false": False, "wrong": False, "no": False}


def change(
    path: Path,
    index: int,
    changes: dict[str, Any],
    source: str,
    warn: Warn | None = None,
) -> tuple[Record, Event, Event]:
    """Change fields of event ``index`` (1-based) in place; a None value removes a field.

    Returns the record as written, the old event and the new one.
    """

    def edit(record: Record) -> tuple[Event, Event]:
        if not 1 <= index <= len(record.events):
            count = len(record.events)
            raise InputError(source, "events", f"no event {index}: the record has {count}")
        old = record.events[index - 1]
        data = old.fields()
        try:
            for key, value in changes.items():
                data[key] = typed(value, data.get(key))
                if key in old.names and data[key] is not None:
                    data[key] = record.table.prefix(data[key], key)
            data = {k: v for k, v in data.items() if v is not None}
            new = parse_event({old.kind: data}, record.rules, record.table, record.start)
        except InputError as error:
            raise error.located(source=source, event=index) from None
        record.events[index - 1] = new
        lawful(record, source)
        return old, new

    record, (old, new) = _edit(path, source, edit, warn)
    return record, old, new


def create(
    path: Path, doc: dict, source: str, force: bool = False, warn: Warn | None = None
) -> Record:
    """Start a record at ``path`` from setup fields, refusing to overwrite one unless forced."""
    record = parse(dict(doc, events=[]), source)
    with locked(path):
        if path.exists() and not force:
            raise InputError(source, "file", f"{path} exists (use --force to overwrite it)")
        save(path, record, None, warn)
    return record
