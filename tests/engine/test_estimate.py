"""When the exact count runs out of time, the report says so and never passes for exact."""

import json
import math
import time
from fractions import Fraction

import numpy as np
import pytest

import sleuth.odds
from sleuth.analysis import report
from sleuth.games.goldraub import simulate
from sleuth.games.lima import simulate as simulate_lima
from sleuth.record import parse
from sleuth.render import report_json
from sleuth.render.common import worlds_line
from sleuth.solve import BudgetExceeded, Entailment, Estimate, count, estimate
from sleuth.solve.draw import Walker
from sleuth.solve.sample import counted_run, satisfied


def _slow(*_args, **_kwargs):
    raise BudgetExceeded


def _record():
    doc, truth = simulate.simulate(4, 8, seed=2)
    return parse(doc, "sim"), truth


def test_a_sampled_estimate_is_labelled(monkeypatch):
    monkeypatch.setattr(sleuth.odds, "count", _slow)
    record, truth = _record()
    result = report(record, budget=1.0)
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
    assert out["consistent"] is True and out["exact"] is False and out["worlds"] is None
    assert out["estimate_failed"] is True
    assert all(p is None for row in out["probability"].values() for p in row.values())
    assert worlds_line(result).startswith("NO ESTIMATE")


# The estimate's draws. They come from the counter's own layers (sleuth/solve/draw.py), so they
# must be worlds, and uniform: every holding's share among many draws must sit within a few
# standard errors of its exact probability. Seeds are fixed, so these never flake.


def _sharp(sim, players, turns, seed):
    doc, truth = sim.simulate(players, turns, seed)
    return Entailment(parse(doc, "sim").model()).sharpened(), truth


@pytest.mark.parametrize(
    "sim, players, turns, seed", [(simulate, 4, 8, 2), (simulate_lima, 4, 8, 1)]
)
def test_draws_are_worlds_and_uniform(sim, players, turns, seed):
    model, _ = _sharp(sim, players, turns, seed)
    run, reduced, worlds = counted_run(model, time.monotonic() + 60)
    exact = count(model)
    assert worlds == exact.total
    walker = Walker(run, reduced)
    n = 20000
    deals = walker.draw(n, np.random.default_rng(7))
    index = {h: k for k, h in enumerate(run.p.holders)}
    assert satisfied(deals, model.tallies, index, n).all()
    for (holder, item), held in exact.held.items():
        p = held / exact.total
        share = np.mean(deals[item] == index[holder]) if holder in index else 0.0
        assert abs(share - p) <= 5 * math.sqrt(p * (1 - p) / n) + 1e-12, (holder, item)


def test_an_estimate_from_a_relaxed_record_brackets_the_count():
    model, truth = _sharp(simulate, 5, 15, 3)
    exact = count(model)
    guess = estimate(model, seconds=2.0)
    assert guess.kept > 1000
    width = guess.high - guess.low
    assert guess.low - width / 2 <= exact.total <= guess.high + width / 2
    assert all(guess.held[h, i] > 0 for i, h in truth.items())
    for (holder, item), held in exact.held.items():
        p = held / exact.total
        share = guess.held[holder, item] / guess.kept
        assert abs(share - p) <= 5 * math.sqrt(p * (1 - p) / guess.kept) + 1e-12


# An estimate from a handful of sampled deals must never print as certain: below THIN fitting
# draws it gives no probability at all, and above it every share shows as an estimate (~45%, or
# its 95% bound at 0 and 1), never as 0% or 100%.


def _estimated_report(monkeypatch, kept: int):
    """The report of a small record whose count 'ran out', from ``kept`` draws all on the truth."""
    monkeypatch.setattr(sleuth.odds, "count", _slow)
    record, truth = _record()
    space = record.model().space
    held = {(h, i): kept * (truth[i] == h) for h in space.holders for i in space.items}
    found = Estimate(10**6, 10**5, 10**7, 50 * kept, kept, held)
    monkeypatch.setattr(sleuth.odds, "estimate", lambda *a, **k: found)
    return report(record, budget=0.5), truth


def test_a_thin_estimate_gives_no_probability(monkeypatch):
    from sleuth.cli.status import status_line

    result, truth = _estimated_report(monkeypatch, sleuth.odds.THIN - 1)
    out = report_json(result)
    assert out["exact"] is False and out["kept"] == sleuth.odds.THIN - 1
    assert all(p is None for row in out["probability"].values() for p in row.values())
    assert "too few to estimate a probability" in worlds_line(result)
    assert "100%" not in status_line(result.record, result)


def test_an_estimate_never_reads_as_certain(monkeypatch):
    from sleuth.chance import Estimated, certain
    from sleuth.cli.status import status_line
    from sleuth.render.common import pct, whole_pct

    result, truth = _estimated_report(monkeypatch, 400)
    item, holder = next((i, h) for i, h in truth.items() if h != result.record.table.me)
    sure, never = result.odds.probability(holder, item), result.odds.probability("aside", item)
    assert isinstance(sure, Estimated) and sure == 1 and not certain(sure)
    assert never == 0 and isinstance(never, Estimated)
    assert pct(sure) == whole_pct(sure) == f">{math.floor(sure.low * 100)}%" == ">99%"
    assert pct(never) == "<1%" and never.high > 0
    assert pct(Estimated.of(150, 400)) == "~38%"
    line = status_line(result.record, result)
    assert "100%" not in line and "~" in line
    assert report_json(result)["probability"][holder][item] == 1.0  # the point estimate


def test_no_estimate_says_the_count_is_unknown(monkeypatch):
    from sleuth.cli.status import status_line
    from sleuth.render.common import deals

    result, _ = _estimated_report(monkeypatch, 0)
    assert report_json(result)["worlds"] is None
    assert "count unknown" in status_line(result.record, result)
    assert "1 deal" not in status_line(result.record, result)
    assert "unknown" in deals(result.odds)


def test_an_update_with_no_pairs_counted_says_so(monkeypatch):
    """After a short budget, the update's treasure line names what it left out, never blank."""
    from io import StringIO

    from rich.console import Console

    from sleuth.games.lima.picture import show_top_pairs

    monkeypatch.setattr(sleuth.odds, "count", _slow)
    record = parse(simulate_lima.simulate(3, 4, 1)[0], "sim")
    space = record.model().space
    held = {(h, i): 3 for h in space.holders for i in space.items}
    thin = Estimate(10**4, 1, 10**5, 90, 3, held)
    monkeypatch.setattr(sleuth.odds, "estimate", lambda *a, **k: thin)
    console = Console(file=StringIO(), width=80, color_system=None)
    show_top_pairs(console, report(record, budget=0.5))
    line = console.file.getvalue().strip()
    assert line.startswith("top treasure pairs: not counted within the budget"), line


def test_a_replay_verdict_needs_an_exact_chance():
    """A guess at an estimated 100% is not 'safe', nor one at an estimated 0% 'impossible'."""
    from sleuth.chance import Estimated
    from sleuth.games.goldraub.replay import verdict
    from sleuth.games.lima.replay import verdict as lima_verdict

    for judge in (verdict, lima_verdict):
        assert judge(True, Estimated.of(200, 200)) != "safe" and judge(True, Fraction(1)) == "safe"
        assert judge(False, Estimated.of(0, 200)) == "rash"
        assert judge(False, Fraction(0)) == "impossible"
