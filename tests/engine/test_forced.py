"""The forced-hits check drops only dead states, and the counts do not move.

A check that dropped a live state would change a count; one that dropped nothing would only
cost time. So: every state it drops is shown dead by the backward pass of a run made without
it, it does drop dead states on records where they abound, its hitting-set tables equal a
brute-force search, and counts with it equal brute force and the counts without it.
"""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.brute import brute_count
from test_goldraub_properties import games

from sleuth.games.goldraub import simulate as goldraub_sim
from sleuth.games.lima import simulate as lima_sim
from sleuth.record import parse
from sleuth.solve import Entailment, compiled, count, forced, hits, tuning
from sleuth.solve import order as orders
from sleuth.solve.plan import plan, with_order
from sleuth.solve.simplify import reduce
from sleuth.solve.vector import VectorRun


@pytest.fixture
def checking(monkeypatch):
    """The check on every layer of every count (compiled at once, no size floor, never resting)."""
    monkeypatch.setattr(tuning, "HASHED", 0)
    monkeypatch.setattr(tuning, "CHECKED", 0)
    monkeypatch.setattr(tuning, "USEFUL", 0.0)


def _layers(sim, players, turns, seed):
    """A record's plan in its first greedy order, with every layer's keys and ways to finish."""
    doc, _ = sim.simulate(players, turns, seed)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    reduced = reduce(model)
    p = plan(model, reduced)
    tracked = [i for i in p.order if i not in p.loose]
    p = with_order(p, orders.candidate_orders(tracked, p.trackers, p.caps)[0], reduced)
    run = VectorRun(p)
    keys = [run.keys]
    while not run.done:
        run.advance(run.size, None)  # one layer at a time
        keys.append(run.keys)
    run.backward({}, reduced, keep=True)
    return run, keys


CASES = [
    (goldraub_sim, 6, 12, 3),
    (goldraub_sim, 5, 10, 1),
    (goldraub_sim, 6, 14, 1),
    (lima_sim, 5, 8, 1),
]


@pytest.mark.parametrize("sim, players, turns, seed", CASES)
def test_every_state_the_check_drops_has_no_way_to_finish(monkeypatch, sim, players, turns, seed):
    monkeypatch.setattr(tuning, "CHECKED", 10**12)  # the run itself keeps every state
    run, keys = _layers(sim, players, turns, seed)
    check = forced.Forced(run.steps, compiled)
    dropped = dead = 0
    for j in range(1, len(keys) - 1):
        alive = check.alive(j, keys[j], run.fields)
        if alive is None:
            continue
        assert not np.any(run.back[j][~alive]), f"layer {j}: a live state dropped"
        dropped += int(np.count_nonzero(~alive))
        dead += int(np.count_nonzero(run.back[j] == 0))
    assert dropped <= dead
    if sim is goldraub_sim and players == 6:
        assert dropped > 0.05 * dead, (dropped, dead)  # it finds some share of the dead states


def test_counts_are_the_same_with_the_check_and_without(checking, monkeypatch):
    doc, _ = goldraub_sim.simulate(6, 12, 3)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    made = []
    alive = VectorRun.alive
    monkeypatch.setattr(VectorRun, "alive", lambda run, j, keys: _spied(made, alive(run, j, keys)))
    checked = count(model)
    assert sum(made) > 0  # the check dropped states in this count
    monkeypatch.setattr(tuning, "CHECKED", 10**12)
    plain = count(model)
    assert checked.total == plain.total == 85104181186
    assert checked.held == plain.held


def _spied(made: list, alive):
    made.append(0 if alive is None else int(np.count_nonzero(~alive)))
    return alive


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(games(3))
def test_checked_counts_of_three_player_games_equal_brute_force(checking, game):
    model, _ = game
    counts = count(model)
    total, held = brute_count(model)
    assert counts.total == total
    assert counts.held == held


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 15), min_size=0, max_size=8),
    st.integers(1, 4),
)
def test_the_hitting_set_tables_equal_a_search(covers, most):
    rows = 4
    fewest = hits.fewest(set(covers) - {0}, most, rows)
    fits = forced.fits(fewest, rows, most).reshape(most + 1, 1 << rows)
    for mask in range(1 << rows):
        need = next(
            (
                n
                for n in range(most + 1)
                for pick in combinations(covers, n)
                if all(any(c >> b & 1 for c in pick) for b in range(rows) if mask >> b & 1)
            ),
            hits.FAR,
        )
        assert fewest[mask] == need
        for room in range(most + 1):
            entry = int(fits[room, mask])
            assert bool(entry >> tuning.ROWS & 1) == (need <= room)
            for bit in range(rows):
                assert bool(entry >> bit & 1) == (fewest[mask | 1 << bit] <= room)
