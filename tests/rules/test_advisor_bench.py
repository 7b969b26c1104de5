"""The advisor's benchmark plays by the rules: legal questions only, the advised ones from ``next``.

The others' questions come from the simulators (``random_search``, ``questions``), checked
against the legal sets of ``sleuth next`` (themselves checked by hand in ``test_next.py``); the
benchmark's policies for me choose among those sets, the advisor's among ``next``'s options.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from pathlib import Path

import pytest

from sleuth.games.goldraub import next as gnext
from sleuth.games.goldraub.board import city
from sleuth.games.goldraub.simulate import START, random_search
from sleuth.games.lima import next as lnext
from sleuth.games.lima.board import island
from sleuth.games.lima.simulate import questions, roll_faces
from sleuth.record import parse

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    """``benchmarks/advisor.py`` as a module (its folder on the path, for ``tables``)."""
    sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("advisor_bench", BENCHMARKS / "advisor.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.path.remove(str(BENCHMARKS))


def test_random_search_lands_die_free_spaces_on_and_searches_a_row_there():
    """Every die from every start, with random figures in the way: a legal search of ``next``."""
    rng = random.Random(4)
    for start in city().route:
        others = set(rng.sample(sorted(set(city().route) - {start}), rng.randrange(6)))
        legal = gnext.legal(city(), start, others)
        for die in range(1, 7):
            space, row = random_search(start, die, others, rng)
            assert space == gnext.landings(city(), start, others)[die - 1]
            assert (space, row) in legal


def asked(to, start, end, terrain) -> tuple:
    """A question as who is asked and which locations it covers."""
    return to, island().range_items(start, end, terrain)


def test_questions_from_the_dice_are_the_legal_set():
    """Random rolls, and two wilds: the ways to build a question cover ``next``'s legal set."""
    record = parse(
        {
            "game": "lima",
            "players": ["Ana", "Ben", "Cy"],
            "me": "Ana",
            "hand": ["1B", "1F", "1M", "2B", "2F", "2M", "3B"],
            "public": ["3F"],
            "events": [],
        },
        "test",
    )
    rng = random.Random(2)
    rolls = [roll_faces(rng) for _ in range(40)] + [[("N", "wild"), ("S", "wild"), ("E", "beach")]]
    for faces in rolls:
        built = {asked(*q) for q in questions(faces, ("Ben", "Cy"))}
        legal = lnext.legal(record, faces, shovel=False, pistol=False)
        assert built == {asked(q.to, *q.range.split("-"), q.terrain) for q in legal}
    every = {None, "beach", "forest", "mountain"}
    assert {q[3] for q in questions(rolls[-1][:2], ("Ben",))} == every


def states(bench, play, players: int, seed: int) -> list[tuple]:
    """The arguments of each of my choices in a game where I choose at random."""
    seen = []

    def spy(*args):
        seen.append(args)
        return (bench.g_random if play is bench.goldraub_game else bench.l_random)(*args)

    play(players, seed, spy)
    return seen


def test_goldraub_policies_choose_legal_searches_and_next_options(bench):
    """Random and the heuristic choose legal searches; the advisor's are among ``next``'s."""
    seen = states(bench, bench.goldraub_game, 3, 1)
    assert seen[0][1] in START
    for record, at, occupied, die, rng in seen[:2] + seen[-1:]:
        legal = gnext.legal(record.start.city, at, occupied)
        advice = gnext.advise(bench.advised(record), {"at": at, "occupied": sorted(occupied)})
        options = [(o.space, o.row) for o in advice.options]
        assert sorted(options) == sorted(legal)
        assert bench.g_random(record, at, occupied, die, rng) in legal
        assert bench.g_heuristic(record, at, occupied, die, rng) in legal
        assert bench.g_bits(record, at, occupied, die, rng) == options[0]
        best = bench.g_value(record, at, occupied, die, rng)
        assert best in options
        assert advice.options[options.index(best)].value == max(o.value for o in advice.options)


def test_lima_policies_choose_questions_the_dice_allow_and_next_options(bench):
    """On the last two states of a game: all choices legal, the advisor's ``next``'s best."""
    seen = states(bench, bench.lima_game, 3, 0)
    for record, faces, rng in seen[-2:]:
        built = {asked(*q) for q in questions(faces, record.table.others(record.table.me))}
        assert asked(*bench.l_random(record, faces, rng)) in built
        assert asked(*bench.l_heuristic(record, faces, rng)) in built
        roll = ",".join(f"{p}-{k}" for p, k in faces)
        best = lnext.advise(bench.advised(record), {"roll": roll}).options[0]
        chosen = bench.l_bits(record, faces, rng)
        assert asked(*chosen) == asked(
            best.question.to, *best.question.range.split("-"), best.question.terrain
        )
        assert asked(*chosen) in built


def test_sign_test_equals_counting_every_sequence(bench):
    """The sign test's p against all 2^n sequences of wins and losses, counted one by one."""
    for wins, losses in [(0, 5), (1, 6), (4, 4), (7, 2), (0, 0)]:
        n = wins + losses
        extreme = min(wins, losses)
        tail = sum(min(sum(s), n - sum(s)) <= extreme for s in itertools.product((0, 1), repeat=n))
        assert bench.sign_p(wins, losses) == pytest.approx(min(1.0, tail / 2**n))
