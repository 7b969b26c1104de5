"""Reading a record: what `events` may be, and reading a long record fast and alike."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from records import HEAD
from ruamel.yaml import YAML

from sleuth import quick
from sleuth.document import document, dump
from sleuth.errors import InputError
from sleuth.games.goldraub.simulate import simulate
from sleuth.record import parse
from sleuth.store import load


@pytest.mark.parametrize("value", ["false", "0", "''", "{}", "no", "7", "Anton", "{a: 1}"])
def test_events_that_are_not_a_list_are_refused(tmp_path, value):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD + f"events: {value}\n")
    with pytest.raises(InputError, match="expected a list of events") as caught:
        load(path)
    assert caught.value.field == "events"


@pytest.mark.parametrize("tail", ["", "events:\n", "events: null\n", "events: ~\n", "events: []\n"])
def test_no_events_absent_null_or_empty(tmp_path, tail):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD + tail)
    assert load(path)[0].events == []


# The fast reader (sleuth.quick) against the round-trip reader: the same data, or it declines.

FRAGMENTS = st.sampled_from(
    [
        "game: goldraub", "players: [Anton, Bert, Christl]", "me: Christl", "hand: [22, 45, 63]",
        "rounds: 10", "events:", "events: []", "  - search: {by: Anton, row: 31-36, gold: 2}",
        "- guess: {by: Bert, owner: Anton, sector: 32, correct: true}", "# a comment", "",
        "  - search: {by: 'a: b', row: 31-36, gold: 1, saw: 0}  # misheard?", "known: {Ana: [7B]}",
        "    - x: 1", "events: ~", "me: yes", "me: 'it''s'", 'me: "q"', "me: 0x1F", "me: 12:30",
        "me: 007", "me: -3", "me: 1_000", "me: null", "me: True", "hand: [22, 45, 63,]",
        "  - ask: {}", "players: [a b, c]", "players: [[a]]", "me: a #b", "me: a#b", "- a: [b: c]",
        "  - search: {by: Anton, by: Bert}", "game: goldraub  ", "me: ", "players:", "  - Anton",
        "me: Zoë", "me: 3F", "me: 1e3", "me: .inf", "me: 2026-01-01", "  - s: {a: 1, b: 2}",
    ]
)  # fmt: skip
PIECES = st.sampled_from(list("abAZ09 -_:,#[]{}'\"?!&*|>%@.~\\é😀\t") + ["\x85", "\u2028"])


def plain_data(node):
    """Round-trip data as plain dicts and lists."""
    if isinstance(node, dict):
        return {k: plain_data(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain_data(v) for v in node]
    return node


def kind(value) -> type:
    """The plain type of a value (the round-trip reader reads 0 as an int subclass)."""
    return next(t for t in (bool, int, str, dict, list, type(None), object) if isinstance(value, t))


def same(a, b) -> bool:
    """Equal, and of the same plain types all the way down."""
    if kind(a) is not kind(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def agree(text: str) -> bool:
    """Whether the fast reader declines ``text`` or reads what the round-trip reader reads."""
    fast = quick.read(text)
    if fast is quick.DECLINED:
        return False
    full = plain_data(YAML(typ="rt").load(text))
    assert same(fast, full), (text, fast, full)
    return True


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(FRAGMENTS, min_size=1, max_size=8, unique=True)
    | st.lists(
        FRAGMENTS | st.lists(FRAGMENTS | PIECES, max_size=6).map("".join), min_size=1, max_size=8
    )
)
def test_the_fast_reader_reads_what_the_full_reader_reads_or_declines(lines):
    agree("\n".join(lines) + "\n")


GOOD = HEAD + "events:\n" + "  - search: {by: Anton, row: 31-36, gold: 2, saw: 1}  # x\n" * 2


@settings(max_examples=300, deadline=None)
@given(at=st.integers(0, len(GOOD)), piece=PIECES | FRAGMENTS, cut=st.integers(0, 3))
def test_the_fast_reader_on_a_record_with_one_change(at, piece, cut):
    agree(GOOD[:at] + piece + GOOD[at + cut :])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.text(st.characters(codec=None), max_size=6))
def test_the_fast_reader_takes_every_record_sleuth_writes(seed, name):
    doc, _ = simulate(5, 12, seed, guesses=0.3)
    name = name.strip() or "Elli"
    doc = json.loads(json.dumps(doc).replace('"Elli"', json.dumps(name)))
    try:
        record = parse(doc, "test")
    except InputError:
        return
    assert agree(dump(document(record)))


def test_upto_keeps_the_first_events_and_refuses_others():
    from pathlib import Path

    record = load(Path(__file__).resolve().parents[2] / "examples" / "lima-4p.yaml")[0]
    assert record.upto(2).events == record.events[:2]
    assert record.upto(0).events == []
    assert record.upto(len(record.events)).events == record.events
    for bad in (-1, len(record.events) + 1):
        with pytest.raises(InputError, match="upto"):
            record.upto(bad)
