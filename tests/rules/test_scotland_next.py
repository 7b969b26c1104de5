"""Scotland Yard's ``next``: its options against the rules and the truth of simulated games.

On my turns in games played by ``scotland.simulate`` (written from the rulebook alone): the
options are exactly the simulator's legal plays of my true hand; each hunt's catch is my chance
that the target holds X (the filter, itself equal to brute force) times the share of the
target's true hand it takes, and the best target is the one with the highest; a Mister X win
is one the true state gives; and the card count ``playable`` is calibrated against the hands
the simulated players truly hold.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from oracles.scotland import posterior, size

from sleuth.errors import InputError
from sleuth.games.scotland import simulate as sim
from sleuth.games.scotland.course import follow, next_player
from sleuth.games.scotland.plan import advise, interrogation_room, playable
from sleuth.games.scotland.suspicion import believe
from sleuth.record import parse


def my_turns(count: int, bold: float = 0.3):
    """(game, k, record before my turn k, my drawn card) on every turn of mine."""
    for seed in range(count):
        players = 3 + seed % 3
        game = sim.simulate(players, seed, me=seed % players, mister_x_bold=bold, feint=players - 1)
        record = parse(game.doc, "simulated")
        me = game.doc["me"]
        for k, event in enumerate(game.doc["events"]):
            body = next(iter(event.values()))
            if body["by"] == me and "drawn" in body:
                yield game, k, record.upto(k), body["drawn"]


def true_table(game, k: int, record, drawn: str) -> sim.Table:
    """The simulator's table at the start of my turn k, after my draw."""
    now = follow(record.events, record.table, record.start)[-1]
    me = game.doc["me"]
    hands = {p: list(h) for p, h in game.hands[k].items()}
    hands[me].append(drawn)
    deck = ["?"] * (game.decks[k] - 1)
    return sim.Table(tuple(game.doc["players"]), hands, deck, [], [str(t) for t in now.tops])


def test_the_options_are_the_legal_plays_of_my_true_hand():
    compared = 0
    for game, k, record, drawn in my_turns(40):
        plan = advise(believe(record, None), {"drawn": drawn})
        if plan.unknown or plan.doubt:
            continue  # a card of mine the record does not know: no whole hand to compare
        table = true_table(game, k, record, drawn)
        me = game.doc["me"]
        legal = {
            (p.ticket, p.pile, p.action)
            for p in sim.general_plays(table, me) + sim.mister_x_plays(table, me)
        }
        offered = {(str(o.ticket), o.pile or sim.REFRESH, o.action) for o in plan.options}
        assert offered == legal, (game.seed, k)
        compared += 1
    assert compared > 100


def test_each_hunt_catches_my_chance_times_the_share_of_the_true_hand_taken():
    hunts = 0
    for game, k, record, drawn in my_turns(40):
        found = believe(record, None)
        plan = advise(found, {"drawn": drawn})
        if plan.mister_x:
            continue
        chances = found.suspicion()
        now = found.course
        for made in plan.options:
            completes = made.action == "interrogation" and made.glasses < now.glasses + 1
            if made.action != "manhunt" and not completes:
                assert made.target is None and made.catch is None
                continue
            taken = 2 if made.action == "manhunt" and made.ticket.colour == "r" else 1
            expected = {}
            for player, hand in game.hands[k].items():
                if player == game.doc["me"] or player in now.out:
                    continue
                if made.action == "interrogation":
                    expected[player] = chances[player]
                elif hand:
                    expected[player] = chances[player] * Fraction(min(taken, len(hand)), len(hand))
            assert dict(made.targets) == expected, (game.seed, k, made)
            assert made.catch == max(expected.values()) == expected[made.target]
            hunts += 1
    assert hunts > 100


def test_a_catch_equals_brute_force_on_small_prefixes():
    checked = 0
    for game, k, record, drawn in my_turns(30):
        if size(game.doc, k) > 20_000:
            continue
        plan = advise(believe(record, None), {"drawn": drawn})
        truth = posterior(game.doc, k, False)
        if plan.mister_x or truth is None:
            continue
        for made in plan.options:
            if made.action == "interrogation" and made.target is not None:
                assert made.catch == truth[made.target], (game.seed, k)
                checked += 1
    assert checked > 5


def test_the_interrogation_rule_decides_which_plays_interrogate():
    for _, _, record, drawn in my_turns(40):
        found = believe(record, None)
        glasses = found.course.glasses
        for made in advise(found, {"drawn": drawn}).options:
            if made.action != "interrogation":
                continue
            turned = glasses + 1 + (made.ticket.colour == "b")
            assert (made.target is not None) == (turned >= 3)
            assert made.glasses == (turned - 3 if turned >= 3 else turned)


def test_a_mister_x_win_is_one_the_true_state_gives():
    wins = 0
    for game, k, record, drawn in my_turns(80, bold=0.5):
        plan = advise(believe(record, None), {"drawn": drawn})
        me = game.doc["me"]
        deck = game.decks[k] - 1  # after my draw
        out = follow(record.events, record.table, record.start)[-1].out
        held = sum(len(h) for p, h in game.hands[k].items() if p != me and p not in out)
        for made in plan.options:
            yellow = made.ticket.colour == "y"
            extra = {"draw": 1 + yellow, "buy": 4, "refresh": 3}.get(made.action, 0)
            escapes = deck - extra <= 0
            feints = made.action == "feint" and len(game.doc["players"]) - 1 >= held
            assert made.wins == (plan.mister_x and (escapes or feints)), (game.seed, k, made)
            assert made.loses == (not plan.mister_x and escapes and not made.catch)
            wins += made.wins
    assert wins > 5


def test_the_card_count_is_calibrated_against_the_true_hands():
    bands: dict[int, list[tuple[Fraction, bool]]] = {}
    for seed in range(250):
        players = 3 + seed % 3
        game = sim.simulate(players, seed, me=seed % players, mister_x_bold=0.2)
        record = parse(game.doc, "simulated")
        courses = follow(record.events, record.table, record.start)
        for k in range(1, len(record.events) + 1, 3):
            now = courses[k]
            upcoming = next_player(now, record.table)
            if now.over or upcoming is None or upcoming == game.doc["me"] or not game.tops[k]:
                continue
            low, high = interrogation_room(now)
            found = believe(record.upto(k), None)
            p = playable(found, upcoming, low, high)
            cards = [*game.hands[k][upcoming], game.tops[k]]
            truth = any(c != sim.X and low <= sim.number(c) <= high for c in cards)
            bands.setdefault(min(int(p * 10), 9), []).append((p, truth))
    tested = 0
    for band, pairs in sorted(bands.items()):
        if len(pairs) < 60:
            continue
        mean = sum(p for p, _ in pairs) / len(pairs)
        frequency = sum(t for _, t in pairs) / len(pairs)
        error = 3 * math.sqrt(float(mean * (1 - mean)) / len(pairs)) + 0.02
        assert abs(frequency - float(mean)) <= error, (band, len(pairs), float(mean), frequency)
        tested += 1
    assert tested >= 5


def test_drawn_is_checked_against_the_record():
    game = sim.simulate(4, 3, me=1)
    record = parse(game.doc, "simulated").upto(0)
    found = believe(record, None)
    held = str(found.course.mine[0])
    laid = str(found.course.tops[0])
    for given, words in ((held, "already hold"), (laid, "left play"), ("5q", "colour letter")):
        with pytest.raises(InputError, match=words) as caught:
            advise(found, {"drawn": given})
        assert caught.value.field == "drawn"


def test_my_hand_is_known_card_for_card_when_the_record_says_every_card_i_got():
    from sleuth.games.scotland.course import unknown_cards

    specials = 0
    for seed in range(120):
        players = 3 + seed % 3
        game = sim.simulate(players, seed, me=seed % players, mister_x_bold=0.3)
        record = parse(game.doc, "simulated")
        me = game.doc["me"]
        for k, now in enumerate(follow(record.events, record.table, record.start)):
            if now.over:  # a subway manhunt that found X took a card the record does not name
                break
            assert unknown_cards(now, me) == 0 and not now.doubt, (seed, k)
            assert sorted(map(str, now.mine)) == sorted(game.hands[k][me]), (seed, k)
        specials += sum("special" in next(iter(e.values())) for e in game.doc["events"])
    assert specials > 3


def test_the_special_ticket_is_mine_and_black():
    doc = {
        "game": "scotland-yard",
        "players": ["Ann", "Ben", "Cy"],
        "me": "Cy",
        "hand": ["X", "2y", "3b", "4r", "5k", "6y", "7b", "8r"],
        "field": ["11y", "41b", "61r"],
        "events": [
            {"turn": {"by": "Ann", "ticket": "42y", "pile": 2}},
            {"turn": {"by": "Ben", "ticket": "43y", "pile": 2, "target": "Cy", "found": True}},
        ],
    }
    found = dict(doc["events"][1]["turn"], discarded=["2y", "3b", "4r"], special="77k")
    record = parse(dict(doc, events=[doc["events"][0], {"turn": found}]), "t")
    now = follow(record.events, record.table, record.start)[-1]
    assert "77k" in map(str, now.mine) and now.hands["Cy"] == 8 + 1 - 3
    for wrong, words in (("77y", "not a black ticket"),):
        with pytest.raises(InputError, match=words):
            parse(dict(doc, events=[doc["events"][0], {"turn": dict(found, special=wrong)}]), "t")
    ann = dict(doc, me="Ann", hand=["1y", "2y", "3b", "4r", "5k", "6y", "7b", "8r"])
    events = [doc["events"][0], {"turn": dict(found, discarded=None, special="77k")}]
    with pytest.raises(InputError, match="only my own special"):
        record = parse(dict(ann, events=events), "t")
        follow(record.events, record.table, record.start)
