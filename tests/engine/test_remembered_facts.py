"""Facts dated from the last report's (``Remembered.facts``), against z3's bisection.

A game is reported prefix by prefix, as ``sleuth play`` and separate commands do: the memory
goes through its cache file between reports. Every report's facts, each with its event, must
be those that z3 dates afresh (``analysis.dated``), and a report whose facts could be dated
from the memory must not have loaded z3 for them; a stale, foreign or damaged cache changes
nothing but the time.
"""

from __future__ import annotations

import json

import pytest

from sleuth.analysis import dated, digests, report
from sleuth.games.goldraub import simulate as goldraub
from sleuth.games.lima import simulate as lima
from sleuth.record import parse
from sleuth.solve import Entailment, Remembered
from sleuth.solve.memory import Dated


def zs_facts(record):
    """The record's facts as z3 finds and dates them (the report before facts were kept)."""
    entail = Entailment(record.model())
    return dated(entail, entail.forced())


def played(record, path):
    """Each prefix's report, in order, the memory saved to and loaded from ``path`` between.

    Without the game's details: Lima's treasure pairs may ask z3; the facts never do.
    """
    found = []
    for n in range(len(record.events) + 1):
        memory = Remembered.load(path)
        found.append(report(record.upto(n), memory=memory, details=False))
        memory.save(path)
    return found


GAMES = {
    "goldraub 4p": lambda: goldraub.simulate(4, 14, 5, 1, guesses=0.3)[0],
    "goldraub 5p table": lambda: goldraub.table_game(5, 3, 2, 2)[0],
    "lima 4p": lambda: lima.simulate(4, 16, 3, me=1)[0],
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_prefix_reported_in_order_has_z3s_facts_and_asks_z3_nothing(name, tmp_path):
    record = parse(GAMES[name](), name)
    reports = played(record, tmp_path / "memory.json")
    for n, found in enumerate(reports):
        assert found.odds.exact
        assert found.forced == zs_facts(record.upto(n)), n
        assert found.solver is None, n  # dated from the memory: no z3 loaded
    assert any(found.forced for found in reports)


def test_an_undo_or_an_earlier_cut_is_dated_from_the_longer_record(tmp_path):
    record = parse(goldraub.simulate(5, 12, 7, 2, guesses=0.3)[0], "simulated")
    path = tmp_path / "memory.json"
    played(record, path)
    kept = path.read_text()
    for n in (len(record.events) - 1, 5, 0):
        memory = Remembered.load(path)
        found = report(record.upto(n), memory=memory)
        memory.save(path)
        assert found.forced == zs_facts(record.upto(n)) and found.solver is None
    assert path.read_text() == kept  # a prefix's facts add nothing to the memory


def _edited(doc: dict) -> dict:
    """The record with its first search's gold answer told differently (still consistent)."""
    events = [dict(e) for e in doc["events"]]
    first = next(k for k, e in enumerate(events) if "search" in e)
    search = dict(events[first]["search"])
    search["gold"] = 1 - min(search["gold"], 1)
    events[first] = {"search": search}
    return dict(doc, events=events)


def _caches(path, record) -> list[str]:
    """Cache texts that must not change the report of ``record``: stale, foreign, damaged."""
    data = json.loads(path.read_text())
    since = data["facts"]["since"]
    shifted = [[h, i, k + 1] for h, i, k in since]
    return [
        json.dumps(dict(data, facts=dict(data["facts"], since=since[1:]))),  # a fact missing
        json.dumps(dict(data, facts=dict(data["facts"], since=[*since, ["Anton", "99", 1]]))),
        json.dumps(dict(data, facts=dict(data["facts"], since=shifted))),  # past its record
        json.dumps(dict(data, facts=dict(data["facts"], digests=["0" * 64]))),
        json.dumps(dict(data, facts={"digests": "abc", "since": since})),
        json.dumps(dict(data, facts=dict(data["facts"], since=[*since, since[0]]))),
        json.dumps(dict(data, facts=dict(data["facts"], since=[[1, 2, 3]]))),
        path.read_text()[:-7],  # truncated
        "\x00garbage\xff",
    ]


def test_a_stale_foreign_or_damaged_cache_changes_nothing(tmp_path):
    doc = goldraub.simulate(5, 14, 11, 0, guesses=0.3)[0]
    record = parse(doc, "simulated")
    expected = zs_facts(record)
    path = tmp_path / "memory.json"
    for other in (parse(_edited(doc), "edited"), parse(lima.simulate(5, 12, 1)[0], "lima")):
        played(other, path)  # the memory of an edited record, then of another game
        found = report(record, memory=Remembered.load(path))
        assert found.forced == expected
    played(record.upto(len(record.events) - 1), path)
    for text in _caches(path, record):
        path.write_text(text)
        assert report(record, memory=Remembered.load(path)).forced == expected, text[:80]


def test_a_cut_record_is_remembered_by_the_digests_of_its_prefixes():
    record = parse(goldraub.simulate(4, 6, 3)[0], "simulated")
    chain = digests(record)
    assert len(chain) == len(record.events) + 1 and len(set(chain)) == len(chain)
    assert digests(record.upto(3)) == chain[:4]
    assert digests(parse(_edited(record.fields()), "edited"))[0] == chain[0]


def test_remembered_facts_serve_only_the_record_its_prefixes_and_one_event_more():
    known = Dated(("s", "e1"), {("Bert", "32"): 1, ("Anton", "11"): 0})
    both = {("Bert", "32"), ("Anton", "11")}
    assert known.dates(both, ["s", "e1"]) == known.since
    assert known.dates({("Anton", "11")}, ["s"]) == {("Anton", "11"): 0}
    assert known.dates(both | {("Doris", "45")}, ["s", "e1", "e2"]) == {
        **known.since,
        ("Doris", "45"): 2,
    }
    assert known.dates(both | {("Doris", "45")}, ["s", "e1"]) is None  # not the count's facts
    assert known.dates({("Bert", "32")}, ["s", "e1", "e2"]) is None  # a fact lost
    assert known.dates(both, ["s"]) is None
    assert known.dates(both, ["s", "x1", "e2"]) is None  # another record
    assert known.dates(both, ["s", "e1", "e2", "e3"]) is None  # two events more
