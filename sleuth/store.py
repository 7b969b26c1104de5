"""The record on disk: load it, and change it atomically under a lock (append, undo, edit, new)."""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import re
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sleuth.document import document, dump, head, lost_comments, parse_yaml, read_text, regular
from sleuth.errors import FileFault, InputError
from sleuth.games.base import Event
from sleuth.record import Record, parse, parse_event


def load(path: Path, keep: bool = True) -> tuple[Record, Any]:
    """The record at ``path`` and its YAML document (``keep``: the one to write comments back)."""
    source = str(path)
    doc = parse_yaml(read_text(path), source, keep)
    try:
        return parse(doc, source), doc
    except RecursionError:
        raise InputError(source, "", "nested too deeply") from None


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``: a temporary file beside its target, fsync, rename.

    A symlink stays a link: the file it names is replaced. A new file gets the mode the umask
    leaves, a rewritten one keeps its own.
    """
    real = target(path)
    try:
        _replace(real, text)
    except OSError as error:
        raise FileFault(str(path), "cannot write", error) from None
    with contextlib.suppress(OSError):
        dirfd = os.open(real.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to a new temporary file, locked until it is renamed over ``path``."""
    temp = path.parent / f".{path.name}.{secrets.token_hex(TAG // 2)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            fcntl.flock(out, fcntl.LOCK_EX)
            with contextlib.suppress(FileNotFoundError):
                os.fchmod(out.fileno(), path.stat().st_mode & 0o777)
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
            os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


TAG = 16  # hex digits in a temporary file's name: .game.yaml.0123456789abcdef.tmp


def target(path: Path) -> Path:
    """The file ``path`` names, symlinks followed; an InputError if it is not a regular file."""
    real = Path(os.path.realpath(path))
    try:
        regular(os.stat(real), str(path))
    except FileNotFoundError:
        pass
    except OSError as error:
        raise FileFault(str(path), "cannot read", error) from None
    return real


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the record's lock file while reading, changing and writing it.

    The lock lives beside the file that ``path`` names, so two symlinks to one record share it.
    Every write happens under the lock, so a temporary file of this record that no writer holds
    any more was left by a writer killed before its rename: it is removed.
    """
    real = target(path)
    lock = real.parent / f".{real.name}.lock"
    try:
        handle = open(lock, "a")  # noqa: SIM115 - held for the block
        fcntl.flock(handle, fcntl.LOCK_EX)
    except OSError as error:
        raise FileFault(str(path), "cannot lock", error) from None
    with handle:
        try:
            _sweep(real)
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _sweep(path: Path) -> None:
    """Remove the temporary files that killed writers of ``path`` left (no other record's)."""
    own = re.compile(rf"\.{re.escape(path.name)}\.[0-9a-f]{{{TAG}}}\.tmp")
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        if own.fullmatch(stale.name) and not _held(stale):
            with contextlib.suppress(OSError):
                stale.unlink()


def _held(temp: Path) -> bool:
    """Whether a live writer holds the temporary file ``temp`` (or it cannot be told)."""
    try:
        fd = os.open(temp, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


Warn = Callable[[str], None]


def save(path: Path, record: Record, doc: Any = None, warn: Warn | None = None) -> None:
    """Write ``record`` to ``path`` atomically, keeping the comments of ``doc``.

    Should a comment of the file on disk be lost (it belonged to a removed or changed event),
    ``warn`` is told so before the file is replaced.
    """
    text = dump(document(record, doc))
    if warn is not None and path.exists():
        try:
            before = head(path)[0].decode("utf-8", errors="replace")
        except OSError as error:
            raise FileFault(str(path), "cannot read", error) from None
        lost = lost_comments(before, text)
        if lost:
            listed = "; ".join(lost)
            warn(f"rewriting {path} without {len(lost)} of its comments: {listed}")
    write_atomic(path, text)


def _edit(path: Path, source: str, change, warn: Warn | None = None) -> tuple[Record, Any]:
    """Under the lock: load the record, apply ``change`` to it, check it, write it atomically."""
    with locked(path):
        record, doc = load(path)
        result = change(record)
        save(path, record, doc, warn)
    return record, result


def append(
    path: Path,
    kind: str,
    fields: dict,
    source: str,
    warn: Warn | None = None,
) -> Record:
    """Check one new event (player fields may be unique prefixes) and append it to the record."""

    def add(record: Record) -> None:
        index = len(record.events) + 1
        try:
            data = dict(fields)
            for key in record.rules.events.get(kind, Event).names:
                data[key] = record.table.prefix(data[key], key)
            event = parse_event({kind: data}, record.rules, record.table, record.start)
        except InputError as error:
            raise error.located(source=source, event=index) from None
        record.events.append(event)

    return _edit(path, source, add, warn)[0]


def remove_last(path: Path, source: str, warn: Warn | None = None) -> Event:
    """Remove the record's last event and return it."""

    def drop(record: Record) -> Event:
        if not record.events:
            raise InputError(source, "events", "the record has no event to undo")
        return record.events.pop()

    return _edit(path, source, drop, warn)[1]


def _typed(value: Any, old: Any) -> Any:
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
                data[key] = _typed(value, data.get(key))
                if key in old.names and data[key] is not None:
                    data[key] = record.table.prefix(data[key], key)
            data = {k: v for k, v in data.items() if v is not None}
            new = parse_event({old.kind: data}, record.rules, record.table, record.start)
        except InputError as error:
            raise error.located(source=source, event=index) from None
        record.events[index - 1] = new
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
