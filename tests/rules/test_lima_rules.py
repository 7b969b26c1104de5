"""Loot of Lima's board, setup and events as rules: ranges, passing, tallies, verdicts."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from sleuth.analysis import report
from sleuth.document import document, dump, parse_yaml
from sleuth.errors import InputError
from sleuth.games.lima.advice import check_accusation, treasure_pairs
from sleuth.games.lima.board import island
from sleuth.games.lima.rules import TREASURE, Accuse, Ask, Secret, location
from sleuth.games.lima.simulate import deal, in_range, pass_tokens, simulate
from sleuth.model import Tally, Term, holds
from sleuth.record import parse

FIVE = {
    "game": "lima",
    "players": ["Ana", "Ben", "Cy", "Di", "Ed"],
    "me": "Cy",
    "hand": ["2F", "5B", "7M", "8F"],
    "known": {"Ben": ["3M"], "Di": ["1B"]},
    "public": ["4F", "6B"],
}


def record(events=(), **setup):
    """A parsed 5-player record (the issue's example) with ``events`` and setup changes."""
    return parse(dict(FIVE, **setup, events=list(events)), "test.yaml")


def error(doc: dict) -> InputError:
    """The input error a record raises."""
    with pytest.raises(InputError) as caught:
        parse(doc, "test.yaml")
    return caught.value


def test_ranges_run_clockwise_and_the_same_point_twice_is_everywhere():
    board = island()
    assert board.range_items("E", "SE", "forest") == {"3F"}
    assert board.range_items("N", "N") == set(board.locations)
    assert board.range_items("NW", "NE") == {"8B", "8F", "8M", "1B", "1F", "1M"}
    for start in board.points:
        for end in board.points:
            for kind in (None, *board.terrains.values()):
                expected = {t for t in board.locations if in_range(t, start, end, kind)}
                assert board.range_items(start, end, kind) == expected


@pytest.mark.parametrize("players", [3, 4, 5])
def test_board_deal_and_passing_follow_the_rulebook(players):
    import random

    names = ("Ana", "Ben", "Cy", "Di", "Ed")[:players]
    truth = deal(names, random.Random(players))
    each = sum(h == "Ana" for h in truth.values())
    face_up = sum(h == "public" for h in truth.values())
    assert island().deal[players] == (each, face_up)
    moves = pass_tokens(truth, names, random.Random(1))
    steps = sorted((names.index(to) - names.index(by)) % players for by, to, _ in moves[:2])
    offsets = sorted(step % players for step in island().passing[players])
    assert steps[: len(offsets)] == offsets


@pytest.mark.parametrize(
    ("players", "known"),
    [
        (["Ana", "Ben", "Cy"], {}),
        (["Ana", "Ben", "Cy", "Di"], {"Ana": ["3M"]}),
        (["Ana", "Ben", "Cy", "Di", "Ed"], {"Ben": ["3M"], "Di": ["1B"]}),
    ],
)
def test_passing_rules_accept_exactly_what_was_passed(players, known):
    each, face_up = island().deal[len(players)]
    tokens = [t for t in island().locations if t not in {"3M", "1B"}]
    doc = {"game": "lima", "players": players, "me": "Cy", "known": known}
    doc.update(hand=tokens[:each], public=tokens[each : each + face_up], events=[])
    start = parse(doc, "test.yaml").start
    assert start.known == {p: tuple(t) for p, t in known.items()}


@pytest.mark.parametrize(
    ("players", "known", "message"),
    [
        (["Ana", "Ben", "Cy"], {"Ana": ["3M"]}, "no token to Ana in a 3-player game"),
        (["Ana", "Ben", "Cy", "Di"], {"Ben": ["3M"]}, "no token to Ben"),
        (["Ana", "Ben", "Cy", "Di"], {}, "I pass 1 token(s) to Ana"),
        (["Ana", "Ben", "Cy", "Di"], {"Ana": ["3M", "1B"]}, "got 2"),
        (["Ana", "Ben", "Cy", "Di", "Ed"], {"Ben": ["3M"]}, "to Di"),
        (["Ana", "Ben", "Cy", "Di", "Ed"], {"Ben": ["3M"], "Ed": ["1B"]}, "no token to Ed"),
    ],
)
def test_passing_rules_reject_other_known_tokens(players, known, message):
    each, face_up = island().deal[len(players)]
    tokens = [t for t in island().locations if t not in {"3M", "1B"}]
    doc = {"game": "lima", "players": players, "me": "Cy", "known": known}
    doc.update(hand=tokens[:each], public=tokens[each : each + face_up], events=[])
    problem = error(doc)
    assert problem.field == "known" and problem.event == 0 and message in problem.message


def test_setup_facts_and_sizes():
    model = record().model()
    assert model.space.sizes == {
        "Ana": 4,
        "Ben": 4,
        "Cy": 4,
        "Di": 4,
        "Ed": 4,
        TREASURE: 2,
        "public": 2,
    }
    assert holds("Ben", "3M") in model.groups[0] and holds("public", "6B") in model.groups[0]


def test_events_state_their_constraints():
    events = [
        {"ask": {"by": "Ana", "to": "Ben", "range": "se-nw", "terrain": "F", "answer": 1}},
        {"secret": {"by": "Cy", "to": "Ben", "range": "N-S", "answer": 2}},
        {"secret": {"by": "Ana", "to": "Ben"}},
        {"accuse": {"by": "Di", "locations": ["3F", "7M"], "correct": False}},
        {
            "accuse": {
                "by": "Cy",
                "locations": ["3F", "1M"],
                "correct": True,
                "treasure": ["1M", "3F"],
            }
        },
    ]
    rec = record(events)
    ask, mine, theirs, wrong, right = rec.events
    assert isinstance(ask, Ask) and ask.range == "SE-NW" and ask.terrain == "forest"
    forest = frozenset({"4F", "5F", "6F", "7F"})
    assert ask.tallies(rec.table, rec.start) == (Tally((Term("Ben", forest),), frozenset({1})),)
    assert isinstance(mine, Secret) and mine.tallies(rec.table, rec.start)[0].values == {2}
    assert theirs.tallies(rec.table, rec.start) == ()
    assert isinstance(wrong, Accuse) and wrong.tallies(rec.table, rec.start)[0].values == {0, 1}
    assert right.tallies(rec.table, rec.start)[1:] == (holds(TREASURE, "1M"), holds(TREASURE, "3F"))
    again = parse(rec.fields(), "again.yaml")
    assert [e.fields() for e in again.events] == [e.fields() for e in rec.events]


def test_record_writes_known_on_one_line():
    text = dump(document(record()))
    assert "known: {Ben: [3M], Di: [1B]}" in text
    assert parse(parse_yaml(text, "x"), "x").start == record().start


def test_a_right_accusation_makes_the_treasure_certain():
    rec = record([{"accuse": {"by": "Ana", "locations": ["1M", "3F"], "correct": True}}])
    result = report(rec)
    assert {(f.holder, f.item) for f in result.forced} >= {(TREASURE, "1M"), (TREASURE, "3F")}
    (only,) = treasure_pairs(result)
    assert only.locations == ("1M", "3F") and only.probability == 1
    after = check_accusation(result, "1M", "3F")  # certain, and the game is over: no accusing
    assert after.probability == 1 and after.verdict == "not allowed: the game is over"
    unchanged = check_accusation(report(record([])), "1M", "3F")  # before it: open, not out
    assert unchanged.over is None and unchanged.out is None


def test_a_certain_pair_says_accuse_now():
    rec = record([{"accuse": {"by": "Ana", "locations": ["1M", "3F"], "correct": True}}])
    result = report(rec)
    check = check_accusation(result, "1M", "3F")
    assert dataclasses.replace(check, over=None).verdict == "certain: accuse now"


def test_accusation_verdicts():
    events = [{"accuse": {"by": "Ana", "locations": ["1M", "3F"], "correct": False}}]
    result = report(record(events))
    impossible = check_accusation(result, "1M", "3F")
    assert impossible.probability == 0 and impossible.verdict.startswith("impossible")
    assert impossible.out is None
    risky = check_accusation(result, "1F", "2B")
    assert 0 < risky.probability < 1 and "puts me out" in risky.verdict
    events = [{"accuse": {"by": "Cy", "locations": ["1M", "3F"], "correct": False}}]
    result = report(record(events))
    out = check_accusation(result, "1F", "2B")  # I am out: whatever the odds, no accusing
    assert out.out == 1 and 0 < out.probability < 1
    assert out.verdict == "not allowed: I am out of the game"
    mine = check_accusation(result, "2F", "1F")
    assert mine.probability == 0 and mine.alone == (0, result.odds.probability(TREASURE, "1F"))


def test_inconsistent_record_names_the_minimal_conflict():
    events = [
        {"ask": {"by": "Ana", "to": "Ed", "range": "N-E", "answer": 2}},
        {"ask": {"by": "Ben", "to": "Di", "range": "S-W", "answer": 1}},
        {"ask": {"by": "Di", "to": "Ed", "range": "N-S", "answer": 0}},
    ]
    result = report(record(events))
    assert not result.consistent and result.conflict == [1, 3]
    asked_me = {"ask": {"by": "Ana", "to": "Cy", "range": "NE-E", "answer": 0}}
    mine = error(dict(FIVE, events=[asked_me]))  # my own hand rules it out: refused (issue 20)
    assert mine.event == 1 and mine.field == "answer" and "I hold" in mine.message


def test_printed_numbers_name_locations_when_the_board_has_them():
    board = dataclasses.replace(island(), numbers={"3F": 17})
    assert location(17, board, "hand") == "3F" and location("3f", board, "hand") == "3F"
    with pytest.raises(InputError):
        location(18, board, "hand")


def test_simulated_true_treasure_is_the_best_pair_once_certain():
    doc, truth = simulate(3, 40, seed=11, accuse=0)
    pairs = treasure_pairs(report(parse(doc, "simulation")))
    real = {t for t, h in truth.items() if h == TREASURE}
    assert real in [set(p.locations) for p in pairs]
    assert sum(p.probability for p in pairs) == Fraction(1)
