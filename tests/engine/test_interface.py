"""The solver package's interface: what the rest of sleuth imports, and the engines' protocol."""

from fractions import Fraction

import sleuth.solve
from sleuth.games.goldraub import simulate
from sleuth.record import parse
from sleuth.solve import Counts, Entailment, engines
from sleuth.solve.plan import plan, with_order
from sleuth.solve.reference import DictRun
from sleuth.solve.simplify import reduce
from sleuth.solve.vector import VectorRun


def test_the_package_exports_its_interface():
    for name in sleuth.solve.__all__:
        assert getattr(sleuth.solve, name).__module__.startswith("sleuth.solve.")
    assert callable(sleuth.solve.count) and callable(sleuth.solve.estimate)


def test_both_engines_are_runs_of_the_one_protocol_and_count_alike():
    doc, _ = simulate.simulate(4, 8, 1)
    model = Entailment(parse(doc, "sim").model()).sharpened()
    reduced = reduce(model)
    p = plan(model, reduced)
    p = with_order(p, p.tracked, reduced)
    zero = {(h, i): 0 for h in model.space.holders for i in model.space.items}
    counts = []
    for engine in (DictRun, VectorRun):
        run = engine(p)
        assert isinstance(run, engines.Run)
        run.advance(float("inf"), None)
        counts.append(run.backward(dict(zero), reduced))
    assert counts[0] == counts[1] and counts[0].total > 0


def test_a_probability_with_no_world_is_unknown_everywhere():
    from sleuth.odds import NO_DEAL

    assert Counts(0, {("Bert", "32"): 0}).probability("Bert", "32") is None
    assert NO_DEAL.probability("Bert", "32") is None
    assert Counts(4, {("Bert", "32"): 1}).probability("Bert", "32") == Fraction(1, 4)
