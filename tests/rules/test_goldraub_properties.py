"""Simulated games of Goldraub against brute force and against the true deal.

Counting a 5- or 6-player record takes seconds and grows fast with the number of searches, so
those games are kept short: up to 8 searches with 5 players, up to 4 with 6.
"""

from math import comb

from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.brute import brute_count

from sleuth.games.goldraub.rules import ASIDE
from sleuth.games.goldraub.simulate import simulate
from sleuth.record import parse
from sleuth.solve import Entailment, count

TURNS = {3: 16, 4: 16, 5: 8, 6: 4}


@st.composite
def games(draw, n: int):
    """A simulated n-player game: its record's model and the true deal."""
    turns = draw(st.integers(0, TURNS[n]))
    seed = draw(st.integers(0, 2**32 - 1))
    me = draw(st.integers(0, n - 1))
    doc, truth = simulate(n, turns, seed, me)
    return parse(doc, "simulated").model(), truth


def check_sums(model, counts) -> None:
    """Each sector has one holder in every world; each player holds three sectors in each."""
    space = model.space
    for item in space.items:
        assert sum(counts.held[h, item] for h in space.holders) == counts.total
    for holder in space.holders:
        size = 3 if holder != ASIDE else len(space.items) - 3 * (len(space.holders) - 1)
        assert sum(counts.held[holder, i] for i in space.items) == size * counts.total


def check_forced(model, counts) -> set:
    """z3's forced facts are exactly the holdings counted in every world."""
    forced = Entailment(model).forced()
    assert forced == {pair for pair, n in counts.held.items() if n == counts.total}
    return forced


@settings(max_examples=12, deadline=None)
@given(games(3))
def test_three_players_equal_brute_force(game):
    model, truth = game
    counts = count(model)
    total, held = brute_count(model)
    assert counts.total == total
    assert counts.held == held
    check_sums(model, counts)
    check_forced(model, counts)


def check_truth(model, truth) -> None:
    """The true deal is counted, and every forced fact holds in it."""
    counts = count(model)
    assert counts.total > 0
    assert all(counts.held[holder, item] > 0 for item, holder in truth.items())
    check_sums(model, counts)
    assert all(truth[item] == holder for holder, item in check_forced(model, counts))


@settings(max_examples=10, deadline=None)
@given(games(4))
def test_four_players_truth_is_counted_and_forced_facts_hold(game):
    check_truth(*game)


@settings(max_examples=8, deadline=None)
@given(games(5))
def test_five_players_truth_is_counted_and_forced_facts_hold(game):
    check_truth(*game)


@settings(max_examples=6, deadline=None)
@given(games(6))
def test_six_players_truth_is_counted_and_forced_facts_hold(game):
    check_truth(*game)


def test_brute_force_counts_a_record_without_events():
    doc, _ = simulate(3, 0, seed=1)
    model = parse(doc, "simulated").model()
    total, held = brute_count(model)
    assert total == comb(34, 3) * comb(31, 3)
    mine = {str(s) for s in doc["hand"]}
    other = next(s for s in model.space.items if s not in mine)
    assert held["Bert", other] == comb(33, 2) * comb(31, 3)
    assert held[ASIDE, other] == comb(33, 3) * comb(30, 3)
    assert all(held["Anton", s] == total for s in mine)
