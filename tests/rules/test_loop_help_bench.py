"""The Loot the Loop advice benchmark: its ``next`` policy plays what ``sleuth next`` names.

``benchmarks/loop_help.py`` plays each seed's deal three times; the ``next`` games must be the
simulator's deal, every action legal, each choice the planner's first option for what the player
sees, the record allowed by the game's rules with the same ending; and the tables' counts, means
and tests must agree with the same sums done by hand.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from random import Random

import pytest

from sleuth.games.loop.plan import advise
from sleuth.games.loop.simulate import Action, View, greedy, legal_actions, options, simulate
from sleuth.games.loop.temple import follow
from sleuth.games.loop.tracker import Tracker
from sleuth.record import parse

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    """``benchmarks/loop_help.py`` as a module (its folder on the path, for ``tables``)."""
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("loop_help", BENCHMARKS / "loop_help.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.path.remove(str(BENCHMARKS))


@pytest.mark.parametrize("seed", [0, 3])
def test_the_planner_plays_legal_actions_on_the_simulators_deal(bench, seed):
    told: list[tuple[View, Action]] = []
    game = bench.next_game(seed, 20, lambda seen, chosen: told.append((seen, chosen)))
    assert game.states[0] == simulate(seed).states[0]
    assert len(told) == bench.choices(game.states) > 10
    for seen, chosen in told:
        assert chosen in options(seen) and len(options(seen)) > 1
        temple = bench.temple(seen)
        assert len(temple.unseen) == seen.deck.count(None) == 53 - len(temple.seen)
        assert [bench.action(a) for a in temple.actions()] == options(seen)
        first = advise(Tracker(None, temple), {}, samples=20).options[0].action
        assert bench.action(first) == chosen
    assert all(before.status == "playing" and legal_actions(before) for before in game.states[:-1])
    record = parse(game.doc, "next")  # the game's rules core agrees how it ended
    ended = follow(record.events, record.table, record.start)[-1]
    assert (ended.status, len(ended.score)) == (game.status, game.score)
    assert bench.ending(game) in bench.ENDINGS


def test_a_seed_plays_the_three_policies_on_one_deal(bench):
    seed, out = bench.play((3, 20))
    assert seed == 3 and set(out) == set(bench.POLICIES)
    for name in ("random", "greedy"):
        game = simulate(3, name)
        assert out[name]._replace(seconds=0) == bench.outcome(game, 0)


def test_the_tables_agree_with_sums_by_hand(bench):
    o = bench.Outcome
    results = [
        {"random": o("stuck", 0, 3), "greedy": o("stuck", 1, 4), "next": o("won", 20, 9, 6)},
        {"random": o("trap", 2, 5), "greedy": o("won", 9, 8), "next": o("stuck", 5, 7, 7)},
        {"random": o("stuck", 0, 0), "greedy": o("stuck", 0, 0), "next": o("stuck", 0, 0, 0)},
        {"random": o("stuck", 1, 2), "greedy": o("cut", 3, 6), "next": o("won", 4, 4, 1)},
    ]
    first, second = bench.tables(results)
    assert [row[0] for row in first] == ["random", "greedy", "next"]
    assert first[2][2].startswith("2 (50.0%, ") and first[1][5] == "1 (25.0%)"
    assert first[2][6].startswith("7.25 (") and first[2][7:9] == ["5.0", "70.0%"]
    vs_random, vs_greedy = second
    assert vs_random[:2] == ["random", "4"] and vs_random[4:6] == ["3/1/0", "0/2"]
    assert vs_greedy[4:6] == ["2/1/1", "1/2"]
    # next minus greedy: 19, -4, 0, 1; Student's t with 3 degrees of freedom, by hand
    d = [19.0, -4.0, 0.0, 1.0]
    mean, sd = sum(d) / 4, math.sqrt(sum((x - 4) ** 2 for x in d) / 3)
    half = 3.182446305284263 * sd / 2
    assert vs_greedy[2] == f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})"
    t = mean / (sd / 2)
    p = 1 - 2 * (math.atan(t / math.sqrt(3)) + t * math.sqrt(3) / (3 + t * t)) / math.pi
    assert float(vs_greedy[3]) == pytest.approx(p, rel=0.02)
    # McNemar's exact test on 1 and 2 discordant seeds: every split of 3 as uneven or more
    assert float(vs_greedy[6]) == 1.0 and float(vs_random[6]) == pytest.approx(0.5)


def test_the_greedy_column_counts_the_choices_greedy_would_make(bench):
    _, out = bench.play((0, 20))
    same: list[bool] = []
    bench.next_game(0, 20, lambda seen, chosen: same.append(chosen == greedy(seen, Random(1))))
    assert (out["next"].greedy, out["next"].choices) == (sum(same), len(same))
