"""Larger states pinned: both counting engines, every item order, the same exact integers.

Speed work on the counter must never change a count. Each state is counted by the numpy layer
engine and by the pure-Python engine (the same program, written independently), in two item
orders, and checked against the number pinned here when it was first counted.
"""

import pytest
import simulate as goldraub_sim
import simulate_lima as lima_sim

from sleuth.record import parse
from sleuth.solve import count as counter
from sleuth.solve import order as orders
from sleuth.solve.entail import Entailment
from sleuth.solve.simplify import reduce
from sleuth.solve.vector import VectorRun

PINNED = [
    (goldraub_sim, 5, 10, 1, 55368151),
    (goldraub_sim, 5, 15, 3, 143505715),
    (goldraub_sim, 6, 30, 1, 30),
    (goldraub_sim, 6, 24, 3, 128849),
    (lima_sim, 5, 10, 1, 9482130),
    (lima_sim, 5, 20, 2, 357996),
]


def _counts(model, engine, reverse: bool):
    """Counts of ``model`` with one engine, in the plan's first candidate order (or reversed)."""
    reduced = reduce(model)
    p = counter.plan(model, reduced)
    tracked = [i for i in p.order if i not in p.loose]
    order = orders.candidate_orders(tracked, p.trackers, p.caps)[0]
    run = engine(counter.with_order(p, order[::-1] if reverse else order, reduced))
    run.advance(float("inf"), None)
    zero = {(h, i): 0 for h in model.space.holders for i in model.space.items}
    if engine is counter._Run:
        return counter._backward(run.p, run.steps, run.layers, zero, reduced)
    return run.backward(zero, reduced)


@pytest.mark.parametrize("sim, players, turns, seed, worlds", PINNED)
def test_pinned_counts_agree_across_engines_and_orders(sim, players, turns, seed, worlds):
    doc, truth = sim.simulate(players, turns, seed)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    python = _counts(model, counter._Run, reverse=False)
    vector = _counts(model, VectorRun, reverse=True)
    assert python.total == vector.total == worlds
    assert python.held == vector.held
    assert counter.count(model).held == python.held
    assert all(python.held[h, i] > 0 for i, h in truth.items())


# 6-player states in the hardest stretch of a game (round 2 or 3: many rows searched, few
# answers pinned down), too big for the pure-Python engine within a test's time. Counted by the
# numpy engine in two different greedy orders: the layers of the two runs share almost nothing,
# so a transition bug would have to make the same error twice.
HARD = [
    (6, 12, 3, 85104181186),
    (6, 18, 2, 16519951),
]


def _vector_counts(model, pick: int):
    """Counts with the numpy engine in candidate order ``pick``."""
    reduced = reduce(model)
    p = counter.plan(model, reduced)
    tracked = [i for i in p.order if i not in p.loose]
    order = orders.candidate_orders(tracked, p.trackers, p.caps)[pick]
    run = VectorRun(counter.with_order(p, order, reduced))
    run.advance(float("inf"), None)
    zero = {(h, i): 0 for h in model.space.holders for i in model.space.items}
    return run.backward(zero, reduced)


@pytest.mark.parametrize("players, turns, seed, worlds", HARD)
def test_hard_counts_agree_across_orders(players, turns, seed, worlds):
    doc, truth = goldraub_sim.simulate(players, turns, seed)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    one, other = _vector_counts(model, 0), _vector_counts(model, 2)
    assert one.total == other.total == worlds
    assert one.held == other.held
    assert all(one.held[h, i] > 0 for i, h in truth.items())


def test_the_race_drops_an_order_that_needs_too_many_states(monkeypatch):
    """Candidate orders over the engine's state bound drop out; another order still counts."""
    doc, _ = goldraub_sim.simulate(5, 10, 1)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    reduced = reduce(model)
    p = counter.plan(model, reduced)
    tracked = [i for i in p.order if i not in p.loose]
    sizes = []
    for order in orders.candidate_orders(tracked, p.trackers, p.caps):
        run = VectorRun(counter.with_order(p, order, reduced))
        run.advance(float("inf"), None)
        sizes.append((run.size, order))
    (small, lean), (big, heavy) = min(sizes), max(sizes)
    assert big > 2 * small
    dropped = []
    advance = VectorRun.advance

    def spy(run, cap, deadline):
        try:
            advance(run, cap, deadline)
        except counter.TooBig:
            dropped.append(run)
            raise

    monkeypatch.setattr(VectorRun, "advance", spy)
    monkeypatch.setattr(VectorRun, "most", small + 1000)
    monkeypatch.setattr(orders, "candidate_orders", lambda *a, **k: [heavy] * 3 + [lean])
    # Rank the lean order last, so that it is benched first and must be called back.
    monkeypatch.setattr(orders, "_outlook", lambda run: run.p.order[: len(lean)] == lean)
    assert counter.count(model).total == 55368151
    assert len(dropped) == 3  # every heavy run, the benched one too, before lean is called back
    monkeypatch.setattr(VectorRun, "most", small // 2)
    with pytest.raises(counter.TooBig):
        counter.count(model)
