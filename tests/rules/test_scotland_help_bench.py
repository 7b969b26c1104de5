"""The Scotland Yard advice benchmark: its ``next`` detectives hunt whom ``sleuth next`` names.

``benchmarks/scotland_help.py`` plays simulated games twice, the detectives' targets uniform or
advised; the advised target must be the target of the option ``sleuth next`` lists for the play
made (the hunter's own record, ``--drawn`` the card drawn that turn), and its statistics must
agree with brute force.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import sys
from pathlib import Path

import pytest

from sleuth.games.scotland.plan import advise
from sleuth.games.scotland.simulate import View, simulate
from sleuth.games.scotland.suspicion import believe
from sleuth.record import parse

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    """``benchmarks/scotland_help.py`` as a module (its folder on the path, for ``tables``)."""
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("scotland_help", BENCHMARKS / "scotland_help.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.path.remove(str(BENCHMARKS))


def test_the_advised_target_is_the_one_next_names_for_the_play_made(bench):
    checked = 0
    for players, seed in itertools.product((3, 4, 5), range(8)):
        views: list[tuple[View, str]] = []

        def hunt(view: View, views=views) -> str:
            chosen = bench.advise(view, [])
            views.append((view, chosen))
            return chosen

        game = simulate(players, seed, hunt=hunt)
        for view, chosen in views:
            made = len(view.own["events"])
            body = next(iter(game.records[view.by]["events"][made].values()))
            assert (body["ticket"], body["action"], body["target"]) == (
                view.ticket,
                view.action,
                chosen,
            )
            plan = advise(believe(parse(view.own, "test"), None), {"drawn": body["drawn"]})
            option = next(
                o
                for o in plan.options
                if str(o.ticket) == body["ticket"]
                and o.pile == body["pile"]
                and o.action == view.action
            )
            assert option.target == chosen and chosen in view.targets
            checked += 1
    assert checked > 50


def test_a_seed_plays_the_simulators_games(bench):
    players, seed, plain, advised, log = bench.play((4, 3, 0.15))
    assert (players, seed) == (4, 3)
    assert plain._replace(seconds=0) == bench.outcome(simulate(4, 3))
    assert len(log) == advised.hunts.total() and all(a.advised >= a.uniform for a in log)


def test_mcnemar_and_wilson_and_t_agree_with_brute_force(bench):
    paired = sys.modules["paired"]
    # Wilson's interval: the shares whose score test at 5% does not reject k / n
    for k, n in [(0, 10), (3, 10), (30, 100), (81, 100)]:
        low, high = paired.wilson(k, n)
        shares = [p / 10_000 for p in range(1, 10_000)]
        inside = [p for p in shares if abs(k / n - p) <= paired.Z95 * math.sqrt(p * (1 - p) / n)]
        assert low == pytest.approx(inside[0], abs=2e-4)
        assert high == pytest.approx(inside[-1], abs=2e-4)
    # Student's t: the density integrated numerically
    for t, df in [(0.5, 1), (2.0, 4), (2.228, 10), (3.0, 30)]:
        c = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2))
        steps, top = 200_000, t
        h = top / steps
        area = sum((1 + ((j + 0.5) * h) ** 2 / df) ** (-(df + 1) / 2) for j in range(steps)) * h
        assert paired.t_p(t, df) == pytest.approx(1 - 2 * c * area, rel=1e-6)
    assert paired.paired_t_p([1.0, 1.0, 1.0]) == 0.0 and paired.paired_t_p([0.0, 0.0]) == 1.0
    d, low, high = paired.paired_share(3, 9, 100)
    assert d == pytest.approx(0.06) and low < d < high
