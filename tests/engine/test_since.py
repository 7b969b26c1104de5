"""Facts read off the exact count, dated in one pass, against z3's facts and its bisection.

The report takes its certain facts from the count when the count is exact (a holding counted
in every world) and dates them with ``sleuth.solve.firsts``, the one bisection of the package
(``why`` dates its facts with it too); z3's backbone stays for the estimate and for this
cross-check, which asks that both agree on every simulated state: the same facts, each with
the same event. The bisection is checked against a scan of every prefix, by z3 and by exact
counts, for holdings and for absences, at the edges too (a fact of the setup, a fact never
forced).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth import beliefs
from sleuth.analysis import forced_facts, report
from sleuth.belief import Fact
from sleuth.games.goldraub import simulate as goldraub
from sleuth.games.lima import simulate as lima
from sleuth.model import holds
from sleuth.record import parse
from sleuth.solve import BudgetExceeded, Entailment, count, firsts

TURNS = {3: 16, 4: 14, 5: 10}


def scanned(entail: Entailment, pair, holding: bool = True) -> int:
    """The first prefix that proves the holding (or its absence), by z3, prefix after prefix.

    The last prefix when none does (as ``firsts``).
    """
    last = len(entail.guards) - 1
    return next((k for k in range(last) if entail.proves(range(k + 1), pair, holding)), last)


def counted_first(model, pair, holding: bool = True) -> int:
    """The first prefix in whose every world the holding (or its absence) holds, by counting."""
    last = len(model.groups) - 1
    for k in range(last):
        part = model.prefix(k)
        contrary = part.with_group(0, part.groups[0] + (holds(*pair, not holding),))
        if count(part).total and not count(contrary).total:
            return k
    return last


def counted_firsts(model, pairs, holding: bool = True) -> dict:
    """``counted_first`` of every pair, from one count of each prefix: a holding holds in every
    world of a prefix when it is counted in all of them (its absence: in none)."""
    last, out = len(model.groups) - 1, {}
    for k in range(last):
        found = count(model.prefix(k))
        for pair in pairs - out.keys():
            held = found.held[pair]
            if found.total and held == (found.total if holding else 0):
                out[pair] = k
    return out | dict.fromkeys(pairs - out.keys(), last)


@st.composite
def goldraub_states(draw):
    """A simulated Goldraub record (searches and right and wrong guesses), cut anywhere."""
    players = draw(st.sampled_from(sorted(TURNS)))
    seed = draw(st.integers(0, 2**32 - 1))
    doc, _ = goldraub.simulate(players, TURNS[players], seed, seed % players, guesses=0.3)
    return dict(doc, events=doc["events"][: draw(st.integers(0, len(doc["events"])))])


@st.composite
def lima_states(draw):
    """A simulated Loot of Lima record of 3 to 5 players, cut anywhere."""
    players = draw(st.integers(3, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    doc, _ = lima.simulate(players, 30, seed, me=seed % players)
    return dict(doc, events=doc["events"][: draw(st.integers(0, len(doc["events"])))])


def assert_agree(doc: dict) -> None:
    """The report's facts are z3's, fact by fact and event by event; so are the impossible."""
    record = parse(doc, "simulated")
    found = report(record)
    assert found.consistent and found.odds.exact
    entail = Entailment(record.model())
    assert found.forced == forced_facts(entail)
    held = found.odds.held
    assert {p for p, n in held.items() if n == found.worlds} == entail.forced()
    assert {p for p, n in held.items() if n == 0} == entail.impossible()
    dates = firsts(entail, entail.forced())
    assert dates == {pair: scanned(entail, pair) for pair in entail.forced()}
    absent = firsts(entail, entail.impossible(), holding=False)
    assert absent == {pair: scanned(entail, pair, False) for pair in entail.impossible()}


@settings(max_examples=25, deadline=None)
@given(goldraub_states())
def test_goldraub_facts_from_the_count_equal_z3s(doc):
    assert_agree(doc)


@settings(max_examples=20, deadline=None)
@given(lima_states())
def test_lima_facts_from_the_count_equal_z3s(doc):
    assert_agree(doc)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_cold_report_dates_its_facts_as_a_scan_of_every_prefix_at_a_table(players):
    """Table games (seed 0: right and wrong guesses by event 24) cut every 8 events, reported
    with nothing remembered: the setup's propagation dates some facts, z3's bisection the
    others, and each date is the first prefix that z3 finds forcing the fact, one by one."""
    doc, _ = goldraub.table_game(players, 10, 0)
    guesses = [e["guess"] for e in doc["events"][:24] if "guess" in e]
    assert {g["correct"] for g in guesses} == {True, False}
    for events in (8, 16, 24):
        record = parse(dict(doc, events=doc["events"][:events]), "table")
        entail = Entailment(record.model())
        since = {pair: scanned(entail, pair) for pair in entail.forced()}
        assert report(record).forced == [
            Fact(h, i, k) for (h, i), k in sorted(since.items(), key=lambda x: (x[1], x[0])) if k
        ]


def test_facts_of_the_setup_alone_are_dated_without_z3(monkeypatch):
    """A record whose every certain holding the setup's propagation fixes (my hand, no new
    fact yet) dates them all at the setup and loads no solver."""
    doc, _ = goldraub.table_game(5, 10, 1)
    record = parse(dict(doc, events=doc["events"][:8]), "table")
    monkeypatch.setattr(Entailment, "__init__", refuse)
    found = report(record)
    assert found.odds.exact and found.forced == [] and found.solver is None


def refuse(*_args, **_kwargs):
    """Stand-in for a z3 question the exact report must not ask."""
    raise AssertionError("z3 asked for facts that the count gives")


def test_an_exact_report_asks_z3_for_no_backbone(monkeypatch):
    doc, _ = goldraub.simulate(5, 20, 1, guesses=0.3)
    record = parse(dict(doc, events=doc["events"][:24]), "simulated")
    expected = forced_facts(Entailment(record.model()))
    monkeypatch.setattr(Entailment, "backbone", refuse)
    found = report(record)
    assert found.odds.exact
    assert expected and found.forced == expected


def test_an_estimate_takes_its_facts_from_z3(monkeypatch):
    doc, _ = goldraub.simulate(5, 20, 3, guesses=0.3)
    record = parse(dict(doc, events=doc["events"][:24]), "simulated")
    expected = forced_facts(Entailment(record.model()))

    def give_up(*_args, **_kwargs):
        raise BudgetExceeded

    monkeypatch.setattr("sleuth.odds.count", give_up)
    found = report(record, budget=1)
    assert not found.odds.exact
    assert expected and found.forced == expected


@pytest.mark.parametrize("events", [0, 1, 12, 24])
def test_update_names_the_facts_of_the_last_event(events):
    doc, _ = goldraub.simulate(5, 20, 1, guesses=0.3)
    record = parse(dict(doc, events=doc["events"][:events]), "simulated")
    entail = Entailment(record.model())
    new = beliefs.update(record).new
    assert new == [f for f in forced_facts(entail) if f.since == events]


def test_one_count_a_prefix_dates_as_two_counts_a_holding():
    doc, _ = goldraub.simulate(3, 6, 0, me=0, guesses=0.5)
    model = parse(dict(doc, events=doc["events"][:8]), "simulated").model()
    pairs = set(sorted(Entailment(model).x)[::6])  # a sixth of them: two counts a pair is slow
    for holding in (True, False):
        dates = counted_firsts(model, pairs, holding)
        assert dates == {p: counted_first(model, p, holding) for p in pairs}
        assert len(set(dates.values())) > 1


@pytest.mark.parametrize("seed", range(6))
def test_the_bisection_is_a_scan_of_every_prefix_by_counting(seed):
    """Every holding of a small record, held or not, forced or open: as a count of each prefix."""
    doc, _ = goldraub.simulate(3, 6, seed, me=seed % 3, guesses=0.5)
    model = parse(doc, "simulated").model()
    entail = Entailment(model)
    pairs = set(entail.x)
    for holding in (True, False):
        dates = firsts(entail, pairs, holding)
        assert dates == counted_firsts(model, pairs, holding)
    known, last = entail.forced(range(1)), len(model.groups) - 1
    assert known and set(firsts(entail, known).values()) == {0}
    open_ = pairs - entail.forced() - entail.impossible()
    assert open_ and set(firsts(entail, open_).values()) == {last}


def test_a_record_of_its_setup_alone_dates_everything_at_the_setup():
    doc, _ = goldraub.simulate(3, 6, 1)
    entail = Entailment(parse(dict(doc, events=[]), "simulated").model())
    pairs = set(entail.x)
    assert firsts(entail, pairs) == dict.fromkeys(pairs, 0)
