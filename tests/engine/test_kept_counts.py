"""Exact counts kept with the record's memory: a model counted once is never counted again.

``Remembered`` keeps the counts of the models counted last under each model's digest
(``sleuth.solve.memory``). A game entered one event at a time has every prefix counted by its
reports, so the replay and ``why`` afterwards read them; a cached count equals a fresh one, a
saved file gives them back, and a file whose counts were changed gives none.
"""

import json

import pytest

from sleuth.analysis import report
from sleuth.games.goldraub import simulate
from sleuth.record import parse
from sleuth.replay import steps
from sleuth.solve import Remembered, count, exact
from sleuth.solve.memory import KEPT, digest


def game(events: int = 12, seed: int = 3):
    """A simulated 4-player Goldraub record of ``events`` events."""
    doc = simulate.simulate(4, 40, seed)[0]
    return parse({**doc, "events": doc["events"][:events]}, "sim")


def never(*_args, **_kwargs):
    """A count that must not be made."""
    raise AssertionError("counted again")


def test_a_prefix_and_the_record_cut_there_have_one_digest():
    record = game()
    model = record.model()
    for k in range(len(record.events) + 1):
        assert digest(model.prefix(k)) == digest(record.upto(k).model())
    assert len({digest(model.prefix(k)) for k in range(len(record.events) + 1)}) > 1


def test_a_remembered_count_equals_a_fresh_one_and_is_not_made_again(monkeypatch):
    model = game().model()
    memory = Remembered()
    fresh = count(model, memory=memory)
    monkeypatch.setattr(exact, "_count", never)
    assert count(model, memory=memory) == fresh


def test_a_game_entered_event_by_event_is_replayed_without_counting(monkeypatch):
    record = game()
    memory = Remembered()
    for k in range(len(record.events) + 1):  # the report after each event, as play makes it
        report(record.upto(k), memory=memory)
    want = steps(record, memory=Remembered())
    monkeypatch.setattr(exact, "_count", never)
    got = steps(record, memory=memory)
    assert [(s.event, s.consistent, s.odds, s.forced) for s in got] == [
        (s.event, s.consistent, s.odds, s.forced) for s in want
    ]


def test_the_counts_of_a_replay_are_kept_for_the_next_one(monkeypatch):
    record = game(8)
    memory = Remembered()
    first = steps(record, memory=memory)
    monkeypatch.setattr(exact, "_count", never)
    assert [s.odds for s in steps(record, memory=memory)] == [s.odds for s in first]
    assert report(record.upto(5), memory=memory).odds == first[5].odds


def test_saved_counts_load_back_and_changed_ones_load_as_none(tmp_path):
    model = game().model()
    memory = Remembered(["11", "12"])
    fresh = count(model, memory=memory)
    path = tmp_path / "memory.json"
    memory.save(path)
    assert Remembered.load(path).counted(model) == fresh
    data = json.loads(path.read_text())
    entries = data["counts"]["entries"]
    entries[0][1][0] += 1  # one more world, in a valid shape
    path.write_text(json.dumps(data))
    loaded = Remembered.load(path)
    assert loaded.counted(model) is None and loaded.order == memory.order


@pytest.mark.parametrize(
    "entries",
    [
        [["abc", [5, [["Anton", "11", 6]]]]],  # a holding in more worlds than there are
        [["abc", [5, [["Anton", "11", 0]]]]],  # a holding in none (never kept)
        [["abc", [-1, []]]],
        [["abc", [5, [["Anton", "11", 2], ["Anton", "11", 3]]]]],
        [["abc", [5.0, []]]],
        [[1, [5, []]]],
    ],
)
def test_counts_out_of_shape_or_range_are_not_read(tmp_path, entries):
    from sleuth.solve.memory import _check_counts

    path = tmp_path / "memory.json"
    check = _check_counts(entries)
    path.write_text(json.dumps({"order": [], "counts": {"entries": entries, "check": check}}))
    assert Remembered.load(path).known == {}


def test_only_the_newest_counts_are_kept():
    record = simulate.simulate(4, 200, 5)[0]
    model = parse(record, "sim").model()
    memory = Remembered()
    for k in range(KEPT + 5):
        memory.keep(model.prefix(k % len(model.groups)), k, {})
    assert len(memory.known) <= KEPT
