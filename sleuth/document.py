"""The record as YAML text: read it safely, write it back keeping a hand-written file's comments."""

from __future__ import annotations

import contextlib
import re
from functools import cache
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sleuth.errors import FileFault, InputError
from sleuth.files import head
from sleuth.games.base import Event
from sleuth.quick import DECLINED, WORD, read
from sleuth.record import Record

if TYPE_CHECKING:  # ruamel.yaml is loaded when a record is written or read the slow way
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

MAX_BYTES = 1 << 20
MAX_DEPTH = 64


# Words that YAML 1.1 or 1.2 reads as a boolean or a null, in any case: written quoted.
KEYWORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def plain(text: str) -> bool:
    """Whether ``text`` reads back as this very string, unquoted, in YAML 1.1 and 1.2 alike.

    That is a word starting with a letter, more words after single spaces, none of them a
    keyword; or a row (31-36) or a location (3F): ``sleuth.quick.WORD``.
    """
    return WORD.fullmatch(text) is not None and text.casefold() not in KEYWORDS


@cache
def _representer() -> type:
    """The round-trip writer's class, made once, when a record is first written or read."""
    from ruamel.yaml.representer import RoundTripRepresenter

    class Representer(RoundTripRepresenter):
        """The round-trip writer, quoting every string that ``plain`` does not vouch for."""

        def represent_str(self, data: str) -> Any:
            """A string scalar: plain when safe, else quoted (double quotes for escapes)."""
            style = None if plain(data) else "'"
            return self.represent_scalar("tag:yaml.org,2002:str", data, style=style)

    Representer.add_representer(str, Representer.represent_str)
    return Representer


def _yaml() -> YAML:
    """The round-trip YAML reader and writer (keeps comments)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.Representer = _representer()
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def read_text(path: Path) -> str:
    """The record file's text; an InputError naming the file if it cannot be read."""
    try:
        data, size = head(path, MAX_BYTES)
    except FileNotFoundError:
        raise InputError(str(path), "", "no such record (start one with 'sleuth new')") from None
    except OSError as error:
        raise FileFault(str(path), "cannot read", error) from None
    if max(size, len(data)) > MAX_BYTES:
        raise InputError(str(path), "", f"too large for a record ({max(size, len(data))} bytes)")
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


def parse_yaml(text: str, source: str, keep: bool = True) -> Any:
    """The YAML document in ``text``; an InputError naming the source if it is malformed.

    ``keep``: the round-trip document, with its comments, to write back; else plain data, read
    fast (``sleuth.quick``) when the text is in the form sleuth writes.
    """
    if depth(text) > MAX_DEPTH:
        raise InputError(source, "", f"malformed YAML: brackets nested over {MAX_DEPTH} deep")
    data = DECLINED if keep else read(text)
    if data is not DECLINED:
        return data
    from ruamel.yaml.error import YAMLError

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


def _flow(data: dict | list) -> CommentedMap | CommentedSeq:
    """A YAML node written on one line."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    node = CommentedMap(data) if isinstance(data, dict) else CommentedSeq(data)
    node.fa.set_flow_style()
    return node


def event_node(event: Event) -> CommentedMap:
    """An event as a YAML item: ``- search: {by: Anton, row: 31-36, gold: 2}``."""
    from ruamel.yaml.comments import CommentedMap

    body = event.body()
    return CommentedMap({event.kind: _flow(body) if isinstance(body, dict | list) else body})


def document(record: Record, doc: Any = None) -> Any:
    """The YAML document of ``record``, reusing ``doc`` (and its comments) where it matches."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

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
    return isinstance(node, dict) and node.get(event.kind) == event.body()


def _replaced(node: Any, event: Event) -> CommentedMap:
    """A new YAML item for ``event`` that keeps the comment after the old item, if any."""
    from ruamel.yaml.comments import CommentedMap

    new = event_node(event)
    inner = node.get(event.kind) if isinstance(node, CommentedMap) else None
    if isinstance(inner, CommentedMap) and inner.ca.comment:
        new[event.kind].ca.comment = inner.ca.comment
    if isinstance(node, CommentedMap) and event.kind in node.ca.items:
        new.ca.items[event.kind] = node.ca.items[event.kind]
    return new


def comments(text: str) -> list[str]:
    """Every comment line in a YAML text, e.g. ["# game night", "# misheard?"]."""
    from ruamel.yaml.error import YAMLError

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
