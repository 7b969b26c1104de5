"""When the exact count runs out of time, the report says so and never passes for exact."""

import json

import simulate

import sleuth.odds
from sleuth.analysis import report
from sleuth.record import parse
from sleuth.render import report_json
from sleuth.render.common import worlds_line
from sleuth.solve.count import BudgetExceeded
from sleuth.solve.sample import Estimate


def _slow(*_args, **_kwargs):
    raise BudgetExceeded


def _record():
    doc, truth = simulate.simulate(4, 8, seed=2)
    return parse(doc, "sim"), truth


def test_a_sampled_estimate_is_labelled(monkeypatch):
    monkeypatch.setattr(sleuth.odds, "count", _slow)
    record, truth = _record()
    result = report(record, budget=0.5)
    out = report_json(result)
    assert out["exact"] is False and "counts" not in out
    low, high = out["interval"]
    assert 1 <= low <= out["worlds"] <= high and out["samples"] > 0
    assert worlds_line(result).startswith("ESTIMATE by sampling")
    assert all(result.odds.held[h, i] > 0 for i, h in truth.items() if result.odds.base > 50)


def test_no_sampled_deal_fits_means_unknown_not_zero(monkeypatch):
    monkeypatch.setattr(sleuth.odds, "count", _slow)
    record, _ = _record()
    space = record.model().space
    empty = {(h, i): 0 for h in space.holders for i in space.items}
    monkeypatch.setattr(
        sleuth.odds, "estimate", lambda *a, **k: Estimate(0, 0, 10**9, 300, 0, empty)
    )
    result = report(record, budget=0.5)
    out = json.loads(json.dumps(report_json(result)))
    assert out["consistent"] is True and out["exact"] is False and out["worlds"] >= 1
    assert out["estimate_failed"] is True
    assert all(p is None for row in out["probability"].values() for p in row.values())
    assert worlds_line(result).startswith("NO ESTIMATE")
