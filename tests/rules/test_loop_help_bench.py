"""The Loot the Loop advice benchmark: its ``next`` policy plays what ``sleuth next`` names.

``benchmarks/loop_help.py`` plays each seed's deal under four policies; their games must be the
simulator's deal, every action legal, each ``next`` choice the planner's first option and each
``greedy`` choice the rollout policy's for what the player sees, the ending as the game's rules
core says; and the tables' counts, means and tests must agree with the same sums done by hand.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from random import Random

import pytest

from sleuth.games.loop import plan
from sleuth.games.loop.plan import advise
from sleuth.games.loop.simulate import Action, View, deal, options, step
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


def replayed(bench, seed: int, choose) -> tuple[tuple, list[tuple[View, Action]], dict]:
    """``bench.played``'s result, every choice it made with what it saw, and its record."""
    told: list[tuple[View, Action]] = []

    def kept(seen: View) -> Action | None:
        chosen = choose(seen)
        if chosen is not None:
            told.append((seen, chosen))
        return chosen

    *result, events = bench.played(seed, kept)
    rng = Random(seed)
    rng.getrandbits(64)
    assert events and events[0] == step(deal(rng), Action("look"))[1]  # the simulator's deal
    return tuple(result), told, {"game": "loot-the-loop", "events": events}


@pytest.mark.parametrize("seed", [0, 3])
def test_the_planner_plays_its_first_option_on_the_simulators_deal(bench, seed):
    advised, asked = bench.advised(20), []

    def choose(seen: View) -> Action | None:  # the planner's first 12 choices, then greedy's
        asked.append(seen)
        return advised(seen) if len(asked) <= 12 else bench.greedy(seen)

    (ending, score, jewels), told, doc = replayed(bench, seed, choose)
    assert len(told) > 5 and ending in bench.ENDINGS
    for seen, chosen in told[:12]:
        assert chosen in options(seen) and len(options(seen)) > 1
        temple = bench.temple(seen)
        assert len(temple.unseen) == seen.deck.count(None) == 53 - len(temple.seen)
        first = advise(Tracker(None, temple), {}, samples=20).options[0].action
        assert bench.action(first) == chosen
    record = parse(doc, "next")  # the game's rules core is where the benchmark's game ended
    ended = follow(record.events, record.table, record.start)[-1]
    assert len(ended.score) == score and ended.jewels() == jewels
    assert ending != "won" or ended.status == "won"


@pytest.mark.parametrize("seed", [1, 4, 7])
def test_the_greedy_policy_is_the_rollout_policy_and_ends_as_the_rules_say(bench, seed):
    (ending, score, jewels), told, doc = replayed(bench, seed, bench.greedy)
    for seen, chosen in told:
        temple = bench.temple(seen)
        assert bench.action(plan.rollout(plan.fill(temple, temple.unseen))) == chosen
    record = parse(doc, "greedy")
    ended = follow(record.events, record.table, record.start)[-1]
    assert (len(ended.score), ended.jewels()) == (score, jewels)
    expected = {"won": "won", "lost": "trap", "stuck": "stuck"}.get(ended.status, "no progress")
    assert ending == expected


def test_the_tables_agree_with_sums_by_hand(bench):
    o = bench.Outcome
    results = [
        {"random": o("stuck", 0, 0), "safe": o("stuck", 1, 0), "greedy": o("won", 20, 4)},
        {"random": o("trap", 2, 1), "safe": o("won", 9, 4), "greedy": o("stuck", 5, 2)},
        {"random": o("stuck", 0, 0), "safe": o("stuck", 0, 0), "greedy": o("stuck", 0, 0)},
        {"random": o("stuck", 1, 1), "safe": o("no progress", 3, 2), "greedy": o("won", 4, 4)},
    ]
    first, second = bench.tables(results)
    assert [row[0] for row in first] == ["random", "safe", "greedy"]
    assert first[2][2].startswith("2 (50.0%, ") and first[1][5] == "1 (25.0%)"
    assert first[2][6].startswith("7.25 (") and first[2][7].startswith("2.50 (")
    (safe_greedy,) = second
    assert safe_greedy[:2] == ["safe vs greedy", "4"] and safe_greedy[6] == "1/2"
    # greedy minus safe, in cards: 19, -4, 0, 1; Student's t with 3 degrees of freedom, by hand
    d = [19.0, -4.0, 0.0, 1.0]
    mean, sd = sum(d) / 4, math.sqrt(sum((x - 4) ** 2 for x in d) / 3)
    half = 3.182446305284263 * sd / 2
    assert safe_greedy[4] == f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})"
    t = mean / (sd / 2)
    p = 1 - 2 * (math.atan(t / math.sqrt(3)) + t * math.sqrt(3) / (3 + t * t)) / math.pi
    assert float(safe_greedy[5]) == pytest.approx(p, rel=0.02)
    assert safe_greedy[2].startswith("+25.00 (")  # wins: +1, -1, 0, +1 of 4 seeds, in points
    # McNemar's exact test on 1 and 2 discordant seeds: every split of 3 as uneven or more
    assert float(safe_greedy[7]) == 1.0
