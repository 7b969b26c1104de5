"""Loot of Lima's odds against brute force, on games played by the simulator.

The treasure pairs are checked three ways: the report's (``advice.treasure_pairs``), the
replay's (``replay.Pairs``, a location's count shared with its twin), both from
``pairs.TreasureOdds``, and the advisor's one-pass count of every pair (``advisor.pair_split``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.lima import brute

from sleuth.advisor import pair_split
from sleuth.analysis import report
from sleuth.games.lima.advice import check_accusation, treasure_pairs
from sleuth.games.lima.replay import Pairs
from sleuth.games.lima.simulate import PUBLIC, TREASURE, simulate
from sleuth.record import parse
from sleuth.replay import Step
from sleuth.solve import Remembered


def prefix(doc: dict, events: int) -> dict:
    """The record after its setup and first ``events`` events."""
    return dict(doc, events=doc["events"][:events])


def assert_exact(doc: dict) -> None:
    """Worlds, every holding, every treasure pair and every forced fact equal brute force."""
    result = report(parse(doc, "simulation"))
    truth = brute(doc)
    assert result.consistent and result.odds.exact
    assert result.worlds == truth.total
    for (holder, item), held in result.odds.held.items():
        assert held == truth.held.get((holder, item), 0), (holder, item)
    pairs = {frozenset(p.locations): p.probability for p in treasure_pairs(result)}
    expected = {pair: Fraction(n, truth.total) for pair, n in truth.pairs.items() if n}
    assert pairs == expected
    model = parse(doc, "simulation").model()
    step = Step(len(doc["events"]), True, result.odds, frozenset())
    table = Pairs(model, step, 60.0, Remembered())
    locations = model.space.items
    replayed = {
        frozenset((a, b)): table.pair(a, b, 60.0)
        for k, a in enumerate(locations)
        for b in locations[k + 1 :]
    }
    assert {pair: p for pair, p in replayed.items() if p} == expected and table.exact
    _, one_pass = pair_split(model, TREASURE, ())
    assert {pair: Fraction(n, truth.total) for pair, n in one_pass.before.items() if n} == expected
    setup = parse(prefix(doc, 0), "simulation").model().groups[0]
    known = {(t.terms[0].holder, next(iter(t.terms[0].items))) for t in setup}
    everywhere = {pair for pair, n in truth.held.items() if n == truth.total} - known
    assert {(f.holder, f.item) for f in result.forced} == everywhere


GAMES_3 = [(seed, k) for seed in (1, 2, 3) for k in (0, 4, 8, 20)]
GAMES_4 = [(seed, k) for seed in (4, 5, 6) for k in (2, 6, 12)]


@pytest.mark.parametrize(("seed", "events"), GAMES_3)
def test_three_players_equal_brute_force(seed, events):
    doc, _ = simulate(3, 20, seed, me=seed % 3)
    assert_exact(prefix(doc, events))


@pytest.mark.parametrize(("seed", "events"), GAMES_4)
def test_four_players_equal_brute_force(seed, events):
    doc, _ = simulate(4, 14, seed, me=seed % 4)
    assert_exact(prefix(doc, events))


@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(0, 10_000), st.sampled_from([3, 4]), st.integers(4, 10))
def test_any_simulated_game_equals_brute_force(seed, players, turns):
    doc, _ = simulate(players, turns, seed, me=seed % players, pistol=0.4, accuse=0.3)
    assert_exact(doc)


@pytest.mark.parametrize("seed", range(6))
def test_five_players_forced_facts_hold_in_the_true_deal(seed):
    doc, truth = simulate(5, 30, seed, me=seed % 5)
    for events in (5, 15, len(doc["events"])):
        result = report(parse(prefix(doc, events), "simulation"))
        assert result.consistent
        assert all(truth[f.item] == f.holder for f in result.forced)
        assert all(result.odds.held[holder, item] > 0 for item, holder in truth.items())


@pytest.mark.parametrize(("players", "seed"), [(3, 7), (4, 8), (5, 9)])
def test_probabilities_add_up(players, seed):
    doc, truth = simulate(players, 12, seed)
    result = report(parse(doc, "simulation"))
    space = parse(doc, "simulation").model().space
    odds = result.odds
    for item in space.items:
        assert sum(odds.probability(h, item) for h in space.holders) == 1
    for holder in space.holders:
        assert sum(odds.probability(holder, i) for i in space.items) == space.sizes[holder]
    assert space.sizes[TREASURE] == 2 and space.sizes[PUBLIC] == (1 if players == 3 else 2)
    pairs = treasure_pairs(result)
    assert sum(p.probability for p in pairs) == 1
    assert [p.probability for p in pairs] == sorted((p.probability for p in pairs), reverse=True)
    real = tuple(sorted((i for i, h in truth.items() if h == TREASURE), key=space.items.index))
    assert real in {p.locations for p in pairs}
    for pair in pairs[:5]:
        assert check_accusation(result, *pair.locations).probability == pair.probability
