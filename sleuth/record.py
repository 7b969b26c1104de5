"""The game record: read and check the YAML file, build the model, write it back atomically."""

from __future__ import annotations

import contextlib
import fcntl
import glob
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from sleuth.errors import InputError, label, nearest, shown
from sleuth.games import GAMES, Rules
from sleuth.games.base import Event, Table
from sleuth.model import Model

COMMON_KEYS = ("game", "players", "me", "events")
MAX_BYTES = 1 << 20
MAX_DEPTH = 64


@dataclass
class Record:
    """A parsed record: the game, the table, the setup as the game reads it, the events."""

    game: str
    table: Table
    start: Any
    events: list[Event]

    @property
    def rules(self) -> Rules:
        """The rules of this record's game."""
        return GAMES[self.game]

    def model(self) -> Model:
        """The record as a model: setup facts in group 0, then one group per event."""
        setup = self.rules.setup(self.start, self.table)
        groups = [setup.facts] + [e.tallies(self.table, self.start) for e in self.events]
        labels = ["setup"] + [e.text() for e in self.events]
        return Model(setup.space, tuple(groups), tuple(labels))

    def fields(self) -> dict:
        """The record as plain YAML-ready data, in the contract's key order."""
        out = {"game": self.game, "players": list(self.table.players), "me": self.table.me}
        out.update(self.rules.start_fields(self.start))
        out["events"] = [{e.kind: e.fields()} for e in self.events]
        return out


def _players(value: Any) -> tuple[str, ...]:
    """The players list, checked: names, no repeats (ignoring case)."""
    if not isinstance(value, list) or not value:
        raise InputError("", "players", f"expected a list of names, got {shown(value)}")
    names = []
    for name in value:
        if not isinstance(name, str) or not name.strip():
            raise InputError("", "players", f"{shown(name)} is not a name")
        if name.strip().casefold() in {n.casefold() for n in names}:
            raise InputError("", "players", f"{shown(name)} is listed twice")
        if name.strip().casefold() in {"aside", "treasure", "public"}:
            raise InputError("", "players", f"{shown(name)} is reserved for cards no one holds")
        names.append(name.strip())
    return tuple(names)


def parse_event(data: Any, rules: Rules, table: Table, start: Any) -> Event:
    """One event from its record item: a mapping with one key, the event's kind."""
    if not isinstance(data, dict) or len(data) != 1:
        raise InputError("", "kind", f"expected a mapping with one key, got {shown(data)}")
    ((kind, fields),) = data.items()
    if kind not in rules.events:
        hint = nearest(str(kind), rules.events)
        raise InputError("", "kind", f"unknown event kind {shown(kind)}{hint}")
    return rules.events[kind].parse(fields, table, start)


def parse(doc: Any, source: str) -> Record:
    """A record from parsed YAML; an InputError naming the source, event and field if unusable."""
    try:
        return _parse(doc)
    except InputError as error:
        raise error.located(source=source) from None


def _parse(doc: Any) -> Record:
    """``parse`` without the source filled in."""
    if not isinstance(doc, dict):
        raise InputError("", "", f"expected a mapping at the top, got {shown(doc)}")
    game = doc.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise InputError("", "game", f"{shown(game)} is not a game: {', '.join(GAMES)}")
    rules = GAMES[game]
    for key in doc:
        if key not in COMMON_KEYS + rules.setup_keys:
            hint = nearest(key, COMMON_KEYS + rules.setup_keys) if isinstance(key, str) else ""
            raise InputError("", label(key), f"unknown top-level key{hint}")
    players = _players(doc.get("players"))
    me = doc.get("me")
    table = Table(players, players[0])
    table = Table(players, table.player(me, "me"))
    try:
        start = rules.parse_start(doc, table)
    except InputError as error:
        raise error.located(event=0) from None
    items = doc.get("events") or []
    if not isinstance(items, list):
        raise InputError("", "events", f"expected a list of events, got {shown(items)}")
    events = []
    for index, item in enumerate(items, 1):
        try:
            events.append(parse_event(item, rules, table, start))
        except InputError as error:
            raise error.located(event=index) from None
    return Record(game, table, start, events)


def _yaml() -> YAML:
    """The round-trip YAML reader and writer (keeps comments)."""
    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def read_text(path: Path) -> str:
    """The record file's text; an InputError naming the file if it cannot be read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(str(path), "", "no such record (start one with 'sleuth new')") from None
    except OSError as error:
        raise InputError(str(path), "", f"cannot read: {error.strerror}") from None
    if len(data) > MAX_BYTES:
        raise InputError(str(path), "", f"too large for a record ({len(data)} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(str(path), "", "not a text file (not UTF-8)") from None


def depth(text: str) -> int:
    """How deep brackets nest in ``text`` (a record needs 3; the YAML scanner is slow on 1000)."""
    deepest = level = 0
    for bracket in re.findall(r"[\[\]{}]", text):
        level = level + 1 if bracket in "[{" else max(level - 1, 0)
        deepest = max(deepest, level)
    return deepest


def parse_yaml(text: str, source: str) -> Any:
    """The YAML document in ``text``; an InputError naming the source if it is malformed."""
    if depth(text) > MAX_DEPTH:
        raise InputError(source, "", f"malformed YAML: brackets nested over {MAX_DEPTH} deep")
    try:
        return _yaml().load(text)
    except YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "not valid YAML"
        raise InputError(source, "", f"malformed YAML{where}: {problem}") from None
    except RecursionError:
        raise InputError(source, "", "malformed YAML: nested too deeply") from None
    except Exception as error:  # the YAML parser raises bare errors on some inputs
        raise InputError(source, "", f"malformed YAML: {type(error).__name__}") from None


def load(path: Path) -> tuple[Record, Any]:
    """The record at ``path`` and its YAML document (kept to write comments back)."""
    source = str(path)
    doc = parse_yaml(read_text(path), source)
    try:
        return parse(doc, source), doc
    except RecursionError:
        raise InputError(source, "", "nested too deeply") from None


def _flow(data: dict | list) -> CommentedMap | CommentedSeq:
    """A YAML node written on one line."""
    node = CommentedMap(data) if isinstance(data, dict) else CommentedSeq(data)
    node.fa.set_flow_style()
    return node


def event_node(event: Event) -> CommentedMap:
    """An event as a YAML item: ``- search: {by: Anton, row: 31-36, gold: 2}``."""
    return CommentedMap({event.kind: _flow(event.fields())})


def document(record: Record, doc: Any = None) -> Any:
    """The YAML document of ``record``, reusing ``doc`` (and its comments) where it matches."""
    fresh = record.fields()
    if not isinstance(doc, CommentedMap):
        doc = CommentedMap()
    for key, value in fresh.items():
        if key == "events":
            continue
        if isinstance(value, list | dict):
            value = _flow(value)
        if doc.get(key) != fresh[key]:
            doc[key] = value
    events = doc.get("events")
    if not isinstance(events, CommentedSeq):
        events = CommentedSeq()
    del events[len(record.events) :]
    for index, event in enumerate(record.events):
        if index == len(events):
            events.append(event_node(event))
        elif not _matches(events[index], event):
            events[index] = _replaced(events[index], event)
    doc["events"] = events
    return doc


def _matches(node: Any, event: Event) -> bool:
    """Whether a YAML event item already says what ``event`` says."""
    return isinstance(node, dict) and node.get(event.kind) == event.fields()


def _replaced(node: Any, event: Event) -> CommentedMap:
    """A new YAML item for ``event`` that keeps the comment after the old item, if any."""
    new = event_node(event)
    inner = node.get(event.kind) if isinstance(node, CommentedMap) else None
    if isinstance(inner, CommentedMap) and inner.ca.comment:
        new[event.kind].ca.comment = inner.ca.comment
    if isinstance(node, CommentedMap) and event.kind in node.ca.items:
        new.ca.items[event.kind] = node.ca.items[event.kind]
    return new


def comments(text: str) -> list[str]:
    """Every comment line in a YAML text, e.g. ["# game night", "# misheard?"]."""
    found = []
    with contextlib.suppress(YAMLError, RecursionError):
        for token in _yaml().scan(text):
            for part in getattr(token, "comment", None) or ():
                for item in part if isinstance(part, list) else [part]:
                    value = getattr(item, "value", "")
                    found += [c.strip() for c in value.splitlines() if c.strip()]
    return found


def lost_comments(before: str, after: str) -> list[str]:
    """The comments of ``before`` that ``after`` no longer has."""
    left = list(comments(after))
    lost = []
    for comment in comments(before):
        if comment in left:
            left.remove(comment)
        else:
            lost.append(comment)
    return lost


def dump(doc: Any) -> str:
    """The YAML text of a document."""
    out = StringIO()
    _yaml().dump(doc, out)
    return out.getvalue()


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``: a temporary file in the same folder, fsync, rename."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            os.chmod(temp, path.stat().st_mode & 0o777)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    with contextlib.suppress(OSError):
        dirfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the record's lock file while reading, changing and writing it.

    Every write happens under the lock, so a temporary file found on taking it was left by a
    writer that was killed before its rename: it is removed.
    """
    lock = path.parent / f".{path.name}.lock"
    try:
        handle = open(lock, "a")  # noqa: SIM115 - held for the block
    except OSError as error:
        raise InputError(str(path), "", f"cannot lock: {error.strerror}") from None
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
                with contextlib.suppress(OSError):
                    stale.unlink()
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


Warn = Callable[[str], None]


def save(path: Path, record: Record, doc: Any = None, warn: Warn | None = None) -> None:
    """Write ``record`` to ``path`` atomically, keeping the comments of ``doc``.

    Should a comment of the file on disk be lost (it belonged to a removed or changed event),
    ``warn`` is told so before the file is replaced.
    """
    text = dump(document(record, doc))
    if warn is not None and path.exists():
        lost = lost_comments(path.read_text(encoding="utf-8", errors="replace"), text)
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
    names: tuple[str, ...] = (),
    warn: Warn | None = None,
) -> Record:
    """Check one new event (player fields may be unique prefixes) and append it to the record."""

    def add(record: Record) -> None:
        index = len(record.events) + 1
        try:
            data = dict(fields)
            for key in names:
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
    names: tuple[str, ...] = (),
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
                if key in names and data[key] is not None:
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
