"""A fast reader for the plain YAML that sleuth writes: one line per setup field and event.

The round-trip YAML reader is pure Python and keeps comments: a 10,000-event record takes it
seconds. The records sleuth writes use a small part of YAML: top-level ``key: value`` lines,
``- kind: {field: value, ...}`` event lines, flow lists and mappings on one line, plain words,
whole numbers, booleans and quoted strings without escapes. ``read`` parses exactly that, line
by line, and gives the same data as the round-trip reader; for any other text it gives up
(returns ``DECLINED``) and the full reader decides. So a hand-written record with block lists,
anchors, escapes or anything else unusual reads exactly as before, just no faster.
"""

from __future__ import annotations

import functools
import re
from typing import Any

DECLINED = object()
NOTHING = object()

TOP = re.compile(r"([a-z_]+):(?: +(.*))?")
ITEM = re.compile(r"( *)- +([a-z_]+): +(.*)")
SKIP = re.compile(r" *(?:#.*)?")
# Anything the YAML reader refuses or reads as a line break, and tabs: left to the full reader.
UNUSUAL = re.compile(
    "[^\n\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\x85\u2028\u2029\ufeff]"
)
TOKEN = re.compile(
    r"""(?:\ *)(?:
      (?P<open>[\[{])
    | (?P<close>[\]}])
    | (?P<comma>,)
    | (?P<key>[a-z_]+):(?=\ )
    | '(?P<single>(?:[^']|'')*)'
    | "(?P<double>[^"\\]*)"
    | (?P<plain>[\w.'-]+(?:\ [\w.'-]+)*)
    | (?P<comment>(?<=\ )\#.*)
    | (?P<end>$))""",
    re.X,
)
# The usual event: a flow mapping of words, e.g. {by: Anton, row: 31-36, gold: 2}.
SIMPLE = re.compile(r" *\{([a-z_]+: [\w.-]+(?:, [a-z_]+: [\w.-]+)*)\} *")
NUMBER = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
WORD = re.compile(r"[^\W\d_][\w.'-]*(?: [\w.'-]+)*|[1-9][0-9]*(?:-[1-9][0-9]*|[A-DF-Za-df-z])")
CONSTANTS: dict[str, bool | None] = {"true": True, "True": True, "TRUE": True, "false": False}
CONSTANTS |= {"False": False, "FALSE": False, "null": None, "Null": None, "NULL": None}
RESERVED_KEYS = {"true", "false", "null"}


class _Declined(Exception):  # noqa: N818 - a signal, not an error
    """The text is outside what ``read`` parses."""


def read(text: str) -> Any:
    """The data of a record's YAML text, or DECLINED when it is not in the plain form."""
    if UNUSUAL.search(text):
        return DECLINED
    try:
        return _document(text.split("\n")) or DECLINED
    except _Declined:
        return DECLINED


def _document(lines: list[str]) -> dict:
    """The top-level mapping: ``key: value`` lines; a key without a value may own ``- items``."""
    doc: dict = {}
    owner = indent = None  # the key that the following items belong to, their indentation
    for line in lines:
        if SKIP.fullmatch(line):
            continue
        top = TOP.fullmatch(line)
        if top:
            if top[1] in doc or top[1] in RESERVED_KEYS:
                raise _Declined
            value = _value(line, top.end(1) + 1)
            doc[top[1]] = None if value is NOTHING else value
            owner, indent = (top[1] if value is NOTHING else None), None
            continue
        item = ITEM.fullmatch(line)
        if item is None or owner is None or indent not in (None, item[1]):
            raise _Declined
        value = _value(line, item.start(3))
        if item[2] in RESERVED_KEYS or value is NOTHING:
            raise _Declined
        indent = item[1]
        if doc[owner] is None:
            doc[owner] = []
        doc[owner].append({item[2]: value})
    return doc


def _value(line: str, at: int) -> Any:
    """The value in ``line`` from ``at`` on (NOTHING when there is only a comment or nothing)."""
    simple = SIMPLE.fullmatch(line, at)
    if simple:
        pairs = [pair.split(": ") for pair in simple[1].split(", ")]
        out = {key: _scalar(value) for key, value in pairs}
        if len(out) < len(pairs) or not RESERVED_KEYS.isdisjoint(out):
            raise _Declined
        return out
    tokens: list[tuple[str, str]] = []
    while True:
        match = TOKEN.match(line, at)
        if match is None:
            raise _Declined
        kind = match.lastgroup
        assert kind is not None  # every alternative of TOKEN is a named group
        if kind in ("end", "comment"):
            break
        tokens.append((kind, match[kind]))
        at = match.end()
    if not tokens:
        return NOTHING
    tokens.append(("end", ""))
    value, after = _flow(tokens, 0)
    if after != len(tokens) - 1:
        raise _Declined
    return value


def _flow(tokens: list[tuple[str, str]], at: int) -> tuple[Any, int]:
    """The value starting at token ``at`` and the index of the token after it."""
    kind, text = tokens[at]
    if kind == "open":
        return (_mapping if text == "{" else _sequence)(tokens, at + 1)
    if kind == "single":
        return text.replace("''", "'"), at + 1
    if kind == "double":
        return text, at + 1
    if kind == "plain":
        return _scalar(text), at + 1
    raise _Declined


def _sequence(tokens: list[tuple[str, str]], at: int) -> tuple[list, int]:
    """A flow list after its ``[``."""
    out: list = []
    if tokens[at] == ("close", "]"):
        return out, at + 1
    while True:
        value, at = _flow(tokens, at)
        out.append(value)
        if tokens[at] == ("close", "]"):
            return out, at + 1
        if tokens[at][0] != "comma":
            raise _Declined
        at += 1


def _mapping(tokens: list[tuple[str, str]], at: int) -> tuple[dict, int]:
    """A flow mapping after its ``{``: ``key: value`` pairs with plain word keys."""
    out: dict = {}
    if tokens[at] == ("close", "}"):
        return out, at + 1
    while True:
        kind, key = tokens[at]
        if kind != "key" or key in out or key in RESERVED_KEYS:
            raise _Declined
        out[key], at = _flow(tokens, at + 1)
        if tokens[at] == ("close", "}"):
            return out, at + 1
        if tokens[at][0] != "comma":
            raise _Declined
        at += 1


@functools.lru_cache(maxsize=4096)
def _scalar(text: str) -> Any:
    """A plain scalar as YAML 1.2 reads it: a whole number, a constant or a word."""
    if NUMBER.fullmatch(text):
        return int(text)
    if text in CONSTANTS:
        return CONSTANTS[text]
    if WORD.fullmatch(text):
        return text
    raise _Declined
