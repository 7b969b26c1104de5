"""Scotland Yard: the rules at entry, and who holds X, against brute force and simulated truth.

Every simulated game (``scotland.simulate``, written from the rulebook alone) is a record the
rules allow, whose public hand sizes and deck are the true ones; the filter's chances equal the
brute-force enumeration of every random choice (``oracles/scotland.py``) on each prefix small
enough to enumerate, from my seat and the public's; the true holder never has chance 0; and
over thousands of simulated states the holder's frequency in each band of chance matches it.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from oracles.scotland import posterior, size

from sleuth.errors import InputError
from sleuth.games.scotland.course import follow
from sleuth.games.scotland.simulate import simulate
from sleuth.games.scotland.suspicion import believe
from sleuth.record import parse

SMALL = 20_000  # the most worlds the oracle enumerates for one prefix here


def record_of(doc: dict):
    return parse(doc, "simulated")


def games(count: int, keep: Fraction = Fraction(0), bold: float = 0.15):
    for seed in range(count):
        players = 3 + seed % 3
        yield simulate(players, seed, me=seed % players, keep=keep, mister_x_bold=bold)


@pytest.mark.parametrize("keep", [Fraction(0), Fraction(1, 4)])
def test_every_simulated_game_is_allowed_and_its_hands_and_deck_are_true(keep):
    for game in games(30, keep):
        record = record_of(game.doc)
        assert record.forbidden() is None, game.seed
        courses = follow(record.events, record.table, record.start)
        for k, now in enumerate(courses):
            assert now.hands == {p: len(h) for p, h in game.hands[k].items()}, (game.seed, k)
            assert now.deck == game.decks[k], (game.seed, k)
        assert courses[-1].over == game.winner, game.seed


@pytest.mark.parametrize("keep", [Fraction(0), Fraction(1, 4)])
def test_the_filter_equals_brute_force_on_every_small_prefix(keep):
    compared = 0
    for game in games(24, keep, bold=0.3):
        record = record_of(game.doc)
        for k in range(len(record.events) + 1):
            if size(game.doc, k) > SMALL:
                break
            found = believe(record.upto(k), None)
            for public in (False, True):
                expected = posterior(game.doc, k, public)
                got = found.suspicion(public)
                if expected is None:
                    assert not got, (game.seed, k, public)
                    continue
                if sum(expected.values()) < 1:  # X left play: the game is over
                    continue
                assert got == expected, (game.seed, k, public)
                compared += 1
    assert compared > 200


def test_the_true_holder_never_has_chance_0():
    for game in games(60, Fraction(1, 4)):
        record = record_of(game.doc)
        for k, holder in enumerate(game.holders):
            if holder is None:
                break
            found = believe(record.upto(k), None)
            for public in (False, True):
                assert found.suspicion(public)[holder] > 0, (game.seed, k, public)


def test_posteriors_are_calibrated_against_simulated_truth():
    """In each band of chance, the share of states whose player holds X matches the mean chance.

    Mister X never plays his own actions here (``mister_x_bold`` 0): a bold Mister X who could
    act and does not tells something the model leaves out.
    """
    bands: dict[int, list[tuple[float, bool]]] = {}
    for game in games(150, bold=0.0):
        record = record_of(game.doc)
        for k, holder in enumerate(game.holders):
            if holder is None or k == len(game.holders) - 1:
                break
            for player, p in believe(record.upto(k), None).suspicion().items():
                if 0 < p < 1:
                    bands.setdefault(min(int(p * 10), 9), []).append((float(p), player == holder))
    checked = 0
    for band, seen in sorted(bands.items()):
        if len(seen) < 100:
            continue
        mean = sum(p for p, _ in seen) / len(seen)
        share = sum(hit for _, hit in seen) / len(seen)
        spread = math.sqrt(mean * (1 - mean) / len(seen))
        assert abs(share - mean) < 4 * spread + 0.02, (band, len(seen), mean, share)
        checked += 1
    assert checked >= 4


BASE = {
    "game": "scotland-yard",
    "players": ["Ann", "Ben", "Cy", "Dee"],
    "me": "Cy",
    "hand": ["12y", "33b", "47k", "58r", "61y", "67b", "84k", "88r"],
    "field": ["14b", "21y", "55r"],
}


def refused(*events: dict) -> str:
    record = parse(BASE | {"events": list(events)}, "test")
    error = record.forbidden()
    assert error is not None
    return error.line()


def test_the_rules_at_entry_name_the_rule():
    assert "does not fit pile 1" in refused({"turn": {"by": "Ann", "ticket": "23y", "pile": 1}})
    assert "third glass" in refused({"turn": {"by": "Ann", "ticket": "23b", "pile": 2}})
    two = {"turn": {"by": "Ann", "ticket": "23y", "pile": 2}}
    asked = {"turn": {"by": "Ben", "ticket": "24y", "pile": 2, "target": "Ann", "found": False}}
    assert parse(BASE | {"events": [two, asked]}, "t").forbidden() is None
    early = {"turn": {"by": "Ann", "ticket": "23y", "pile": 2, "target": "Ben", "found": False}}
    assert "no interrogation yet" in refused(early)
    hunt = {"by": "Ann", "ticket": "66r", "pile": 3, "target": "Ben", "took": ["5y", "7b", "9k"]}
    assert "takes 1 or 2" in refused({"turn": hunt})
    mine = {"turn": {"by": "Ann", "ticket": "15y", "pile": 1}}
    again = {"turn": {"by": "Ben", "ticket": "66r", "pile": 3, "target": "Dee", "took": ["15y"]}}
    assert "15y was already played or discarded at event 1" in refused(mine, again)
    assert "was seen as 61y" in refused(
        {"turn": {"by": "Ann", "ticket": "61k", "pile": 3, "target": "Ben", "took": ["2y"]}}
    )
    assert "I hold 61y" in refused(
        {"turn": {"by": "Ann", "ticket": "61y", "pile": 3, "target": "Ben", "took": ["2y"]}}
    )


def test_a_mister_x_action_needs_a_black_ticket_and_shows_its_player():
    with pytest.raises(InputError, match="needs a black ticket"):
        parse(BASE | {"events": [{"turn": {"by": "Ann", "ticket": "15y", "action": "feint"}}]}, "t")
    event = {"turn": {"by": "Ann", "ticket": "44k", "action": "buy"}}
    record = parse(BASE | {"players": ["Ann", "Ben", "Cy", "Dee", "Eve"], "events": [event]}, "t")
    assert believe(record, None).suspicion() == {
        "Ann": 1,
        "Ben": 0,
        "Cy": 0,
        "Dee": 0,
        "Eve": 0,
    }


def test_a_disappear_moves_x_and_the_fact_ends():
    five = BASE | {"players": ["Ann", "Ben", "Cy", "Dee", "Eve"]}
    events = [
        {"turn": {"by": "Ann", "ticket": "44k", "action": "buy"}},
        {"turn": {"by": "Ben", "ticket": "70k", "action": "disappear", "got": "71y"}},
    ]
    conflict = believe(parse(five | {"events": events}, "t"), None)  # Ben too shows he holds X
    assert not conflict.consistent and conflict.conflict == [1, 2]
    events[1] = {"turn": {"by": "Ann", "ticket": "70k", "action": "disappear", "got": "71y"}}
    found = believe(parse(five | {"events": events}, "t"), None)
    assert found.suspicion() == {
        "Ann": Fraction(1, 4),
        "Ben": Fraction(1, 4),
        "Cy": 0,
        "Dee": Fraction(1, 4),
        "Eve": Fraction(1, 4),
    }
    assert [(f.holder, f.since, f.until) for f in found.ended] == [("Ann", 1, 2)]
