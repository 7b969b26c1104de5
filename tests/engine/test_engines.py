"""Larger states pinned: both counting engines, every item order, the same exact integers.

Speed work on the counter must never change a count. Each state is counted by the numpy layer
engine and by the pure-Python engine (the same program, written independently), in two item
orders, and checked against the number pinned here when it was first counted.
"""

import numpy as np
import pytest

from sleuth.games.goldraub import simulate as goldraub_sim
from sleuth.games.lima import simulate as lima_sim
from sleuth.record import parse
from sleuth.solve import Entailment, count, tuning
from sleuth.solve import order as orders
from sleuth.solve.counts import TooBig
from sleuth.solve.plan import plan, with_order
from sleuth.solve.reference import DictRun
from sleuth.solve.simplify import reduce
from sleuth.solve.steps import Steps
from sleuth.solve.vector import VectorRun
from sleuth.solve.widths import Widths

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
    p = plan(model, reduced)
    tracked = [i for i in p.order if i not in p.loose]
    order = orders.candidate_orders(tracked, p.trackers, p.caps)[0]
    run = engine(with_order(p, order[::-1] if reverse else order, reduced))
    run.advance(float("inf"), None)
    zero = {(h, i): 0 for h in model.space.holders for i in model.space.items}
    return run.backward(zero, reduced)


@pytest.mark.parametrize("sim, players, turns, seed, worlds", PINNED)
def test_pinned_counts_agree_across_engines_and_orders(sim, players, turns, seed, worlds):
    doc, truth = sim.simulate(players, turns, seed)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    python = _counts(model, DictRun, reverse=False)
    vector = _counts(model, VectorRun, reverse=True)
    assert python.total == vector.total == worlds
    assert python.held == vector.held
    assert count(model).held == python.held
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
    p = plan(model, reduced)
    tracked = [i for i in p.order if i not in p.loose]
    order = orders.candidate_orders(tracked, p.trackers, p.caps)[pick]
    run = VectorRun(with_order(p, order, reduced))
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


def _planned(players: int, turns: int, seed: int):
    """A simulated Goldraub record's model, its reduction, plan and tracked items."""
    doc, _ = goldraub_sim.simulate(players, turns, seed)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    reduced = reduce(model)
    p = plan(model, reduced)
    return model, reduced, p, [i for i in p.order if i not in p.loose]


def _lean_and_heavy():
    """A 5-player model, and its smallest and largest greedy orders (states made, order)."""
    model, reduced, p, tracked = _planned(5, 10, 1)
    sizes = []
    for order in orders.candidate_orders(tracked, p.trackers, p.caps):
        run = VectorRun(with_order(p, order, reduced))
        run.advance(float("inf"), None)
        sizes.append((run.size, order))
    lean, heavy = min(sizes), max(sizes)
    assert heavy[0] > 2 * lean[0]
    return model, lean, heavy


def _spy(monkeypatch) -> list:
    """The runs dropped as too big from now on (at their bound, or early)."""
    dropped = []
    finished = orders.finished

    def spy(run, deadline, bound, cap=float("inf")):
        ending = finished(run, deadline, bound, cap)
        if ending in (orders.Ending.DROPPED, orders.Ending.FAILED):
            dropped.append(run)
        return ending

    monkeypatch.setattr(orders, "finished", spy)
    return dropped


def test_a_count_tries_the_contenders_in_turn_and_drops_those_over_the_bound(monkeypatch):
    model, (small, lean), (big, heavy) = _lean_and_heavy()
    dropped = _spy(monkeypatch)
    monkeypatch.setattr(tuning, "SOLO", 10)  # the first greedy order does not finish alone
    monkeypatch.setattr(tuning, "HOPELESS", float("inf"))  # only the bound itself drops a run
    monkeypatch.setattr(orders, "contenders", lambda *a: iter([heavy, heavy, lean]))
    monkeypatch.setattr(VectorRun, "states", 4 * (small + 1000))  # each try gets FIRST of it
    assert count(model).total == 55368151
    assert len(dropped) == 2
    # When every contender is over its first bound, the dropped run nearest its end goes on
    # from where it stopped, under all of the bound: it is not run again from the start.
    dropped.clear()
    monkeypatch.setattr(tuning, "NEAR", 1.0)  # a run past its bound does not go on at once
    monkeypatch.setattr(orders, "contenders", lambda *a: iter([lean, list(lean)]))
    monkeypatch.setattr(VectorRun, "states", 2 * (small + 1000))
    made = []
    monkeypatch.setattr(VectorRun, "__init__", _counting_init(made))
    assert count(model).total == 55368151
    assert len(dropped) == 2  # both under their first bound
    assert len(made) == 3  # the first greedy order and the two: none was made again
    monkeypatch.setattr(VectorRun, "states", small // 2)
    with pytest.raises(TooBig):
        count(model)


def test_the_runs_alive_together_stay_under_the_bound(monkeypatch):
    """A run kept to go on later leaves the others only the rest of the engine's bound."""
    model, (small, lean), (big, heavy) = _lean_and_heavy()
    dropped = _spy(monkeypatch)
    monkeypatch.setattr(tuning, "SOLO", 10)
    monkeypatch.setattr(tuning, "HOPELESS", float("inf"))
    monkeypatch.setattr(tuning, "NEAR", 1.0)  # a run past its bound does not go on at once
    monkeypatch.setattr(orders, "contenders", lambda *a: iter([lean, list(lean)]))
    monkeypatch.setattr(VectorRun, "states", 2 * (small + 1000))
    limits = []
    finished = orders.finished

    def spy(run, deadline, bound, cap=float("inf")):
        limits.append((run.limit, [r.size for r in dropped]))
        return finished(run, deadline, bound, cap)

    monkeypatch.setattr(orders, "finished", spy)
    assert count(model).total == 55368151
    whole = 2 * (small + 1000)
    # Both drop in their probe, past their bound: the first with the whole bound, the second
    # in what the kept first leaves; then the first, resumed under the whole bound.
    assert [limit for limit, _ in limits] == [whole, whole - limits[1][1][0], whole]


def _counting_init(made: list):
    """VectorRun.__init__ that notes every run made."""
    init = VectorRun.__init__

    def counted(self, p, kernels=None):
        made.append(self)
        init(self, p, kernels)

    return counted


@pytest.mark.parametrize("sure, early", [(0, True), (10**9, False)])
def test_a_run_expected_to_go_far_over_its_bound_is_dropped_early(monkeypatch, sure, early):
    """Dropped by its forecast before its bound, once it has made ``SURE`` states.

    Under ``SURE`` states (forecasts from the first layers mislead), only its bound drops it.
    """
    model, (small, lean), (big, heavy) = _lean_and_heavy()
    dropped = _spy(monkeypatch)
    monkeypatch.setattr(tuning, "SOLO", 10)
    monkeypatch.setattr(tuning, "SURE", sure)
    monkeypatch.setattr(orders, "contenders", lambda *a: iter([heavy, lean]))
    monkeypatch.setattr(VectorRun, "states", 4 * (small + 1000))
    assert count(model).total == 55368151
    assert [run.size < tuning.FIRST * VectorRun.states for run in dropped] == [early]


@pytest.mark.parametrize("near, drops", [(2.0, 0), (1.0, 2)])
def test_a_run_past_its_bound_goes_on_while_expected_to_end_soon(monkeypatch, near, drops):
    """Past its bound, a run goes on while its forecast is within ``NEAR`` times its size.

    The lean order needs about twice its first bound: forecast well at the bound, it goes on
    to its end at ``NEAR`` 2, and at 1 it is dropped there (both ways round), then goes on.
    """
    model, (small, lean), _ = _lean_and_heavy()
    dropped = _spy(monkeypatch)
    monkeypatch.setattr(tuning, "SOLO", 10)
    monkeypatch.setattr(tuning, "HOPELESS", float("inf"))
    monkeypatch.setattr(orders, "contenders", lambda *a: iter([lean, list(lean)]))
    monkeypatch.setattr(orders, "expected", lambda run: small)  # a perfect forecast
    monkeypatch.setattr(tuning, "NEAR", near)
    monkeypatch.setattr(VectorRun, "states", 2 * (small + 1000))  # each try gets FIRST of it
    made = []
    monkeypatch.setattr(VectorRun, "__init__", _counting_init(made))
    assert count(model).total == 55368151
    assert len(dropped) == drops
    assert len(made) == 3 if drops else 2  # the first greedy order, and the one or two tried


@pytest.mark.parametrize("over, drops", [(1.25, 0), (1.0, 1)])
def test_a_run_expected_to_end_soon_after_its_bound_may_pass_it(monkeypatch, over, drops):
    model, (small, lean), _ = _lean_and_heavy()
    dropped = _spy(monkeypatch)
    monkeypatch.setattr(tuning, "SOLO", 10)
    monkeypatch.setattr(orders, "contenders", lambda *a: iter([lean]))
    monkeypatch.setattr(orders, "expected", lambda run: small)  # a perfect forecast
    monkeypatch.setattr(tuning, "OVER", over)
    monkeypatch.setattr(tuning, "NEAR", 1.0)  # only OVER lets a run pass its bound
    monkeypatch.setattr(tuning, "FIRST", 0.5)
    monkeypatch.setattr(VectorRun, "states", int(2 * small / 1.1))  # the run ends 10% over half
    assert count(model).total == 55368151
    assert len(dropped) == drops  # dropped at half the bound, then run again under all of it


@pytest.mark.parametrize("players, turns, seed", [(5, 10, 1), (6, 12, 3)])
def test_static_cost_matches_the_widths_the_program_promises(players, turns, seed):
    """The order's static cost, computed on its own, agrees with the program's layers."""
    _, reduced, p, tracked = _planned(players, turns, seed)
    widths = Widths(tracked, p)
    for order in orders.candidate_orders(tracked, p.trackers, p.caps)[:4]:
        steps = Steps(with_order(p, order, reduced))
        promised = sum(2.0 ** (tuning.ALPHA * w) for w in steps.width[: len(tracked)])
        assert widths.cost(order) == pytest.approx(promised)


def test_polished_orders_cost_no_more_and_come_both_ways_round():
    _, _, p, tracked = _planned(6, 12, 3)
    widths = Widths(tracked, p)
    start = orders.candidate_orders(tracked, p.trackers, p.caps)[0]
    polished = widths.polished(start, 500, 0)
    assert sorted(polished) == sorted(start)
    assert widths.cost(polished) < widths.cost(start)
    made = list(orders.contenders(p, tracked))
    assert made[1] == made[0][::-1]
    assert all(sorted(order) == sorted(tracked) for order in made)


@pytest.mark.parametrize("prefer", ["lean", "heavy"])
def test_of_an_order_and_its_reverse_the_one_expected_to_make_fewer_states_goes_on(
    monkeypatch, prefer
):
    model, (_, lean), (_, heavy) = _lean_and_heavy()
    _, reduced, p, _ = _planned(5, 10, 1)
    chosen = lean if prefer == "lean" else heavy
    monkeypatch.setattr(tuning, "SOLO", 10)
    monkeypatch.setattr(tuning, "PROBE", 10)
    monkeypatch.setattr(orders, "contenders", lambda *a: iter([heavy, lean]))
    monkeypatch.setattr(orders, "expected", lambda run: run.p.order[: len(chosen)] != chosen)
    run = orders.race(p, reduced, None)
    assert run.done and run.p.order[: len(chosen)] == chosen


def test_a_step_may_make_fewer_successors_as_the_kept_states_fill_the_memory(monkeypatch):
    _, reduced, p, tracked = _planned(5, 10, 1)
    run = VectorRun(with_order(p, tracked, reduced))
    assert run.most_successors(0) == VectorRun.most_edges
    run.size = VectorRun.states
    assert 0 < run.most_successors(0) < VectorRun.most_edges
    shared = run.most_successors(0)
    run.size, run.limit = VectorRun.states // 2, VectorRun.states // 2  # another run keeps half
    assert run.most_successors(0) == shared
    monkeypatch.setattr(VectorRun, "memory", 16 * 2000)  # room for 2,000 states and no step
    run = VectorRun(with_order(p, tracked, reduced))
    with pytest.raises(TooBig):
        run.advance(float("inf"), None)
    assert run.size < 2000


SAME = [  # (simulator, players, turns, seed, states of the widest layer at least)
    (goldraub_sim, 5, 10, 1, 1000),
    (goldraub_sim, 5, 12, 2, 2000),
    (goldraub_sim, 6, 14, 1, 2000),
    (lima_sim, 5, 8, 1, 100),  # Lima's terms count items, not "at least one"
]


@pytest.mark.parametrize("sim, players, turns, seed, widest", SAME)
def test_both_engines_keep_the_same_states_in_the_same_order(sim, players, turns, seed, widest):
    """The numpy engine prunes exactly as the pure-Python one: the same layer sizes, step by step.

    A bound that dropped too much would change a count; one that dropped too little would only
    cost time, and this is where it shows.
    """
    doc, _ = sim.simulate(players, turns, seed)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    reduced = reduce(model)
    p = plan(model, reduced)
    tracked = [i for i in p.order if i not in p.loose]
    order = orders.candidate_orders(tracked, p.trackers, p.caps)[0]
    sizes = []
    for engine in (DictRun, VectorRun):
        run = engine(with_order(p, order, reduced))
        run.advance(float("inf"), None)
        sizes.append([len(layer) for layer in run.layers])
    assert sizes[0] == sizes[1]
    assert max(sizes[0]) >= widest  # wide enough for the bounds to matter


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64])
def test_a_tally_s_allowed_values_are_those_isin_finds(dtype):
    """``vector.allowed`` (ranges, a few values, many) marks what ``np.isin`` marks."""
    from sleuth.solve.vector import allowed

    rng = np.random.default_rng(7)
    value = rng.integers(0, 40, size=(50, 60)).astype(dtype)
    for _ in range(200):
        size = int(rng.integers(1, 20))
        values = frozenset(int(v) for v in rng.integers(-3, 300, size=size))
        assert (allowed(value, values) == np.isin(value, list(values))).all(), values
    for values in ({4}, {2, 3, 4}, {0, 2}, {39, 300}, set(range(0, 40, 3))):
        assert (allowed(value, frozenset(values)) == np.isin(value, list(values))).all(), values
