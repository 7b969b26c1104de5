"""Looting London: the rules at entry, the cases and scores, and each hand against brute force.

The rules: every event the rulebook forbids where it stands is refused in one line naming the
event and the field (exit 2). The belief: on small boxes (three figures, four cards each, a
row of three), each opponent's whole hand equals the brute-force enumeration of every order of
the hidden cards (``oracles/london.py``) after every prefix of simulated games, reshuffles
included; in simulated whole games with the real box (2 to 5 players, each with a reshuffle)
the true hands never get chance 0; a record that only the whole history shows impossible is
inconsistent (exit 3) with the events that conflict named.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from oracles.london import TooMany, posterior, worlds

from sleuth.errors import InputError
from sleuth.games.base import Table
from sleuth.games.london import GAME
from sleuth.games.london.cards import BOX, Box, Tile, destroys, shortfall
from sleuth.games.london.course import follow
from sleuth.games.london.hands import believe
from sleuth.games.london.rules import Start, tile
from sleuth.games.london.simulate import simulate
from sleuth.record import Record, parse, parse_event

ROOT = Path(__file__).resolve().parents[2]
SMALL = Box(("waif", "bobby", "dame"), 4, 3)
COLUMNS = [  # top to bottom, as typed inline: colour letter, figure letter, number
    "gw3,ob2,yd1,bb2,pg1",
    "ow2,gd3,pb1,yw2,bg3",
    "yg1,bw2,gd2,pb3,od1",
    "bd2,pw1,og3,gb1,yd2",
    "pb2,yg1,bw1,od2,gw1",
]


def doc(events: list, **setup) -> dict:
    """A 3-player record from Ben's seat with the tiles above."""
    out = {
        "game": "looting-london",
        "players": ["Ann", "Ben", "Cy"],
        "me": "Ben",
        "tiles": [c.split(",") for c in COLUMNS],
        "row": ["waif", "dame", "bobby", "bobby"],
        "hand": ["waif", "waif", "dame", "grinder"],
        "events": events,
    }
    return out | setup


def refusal(events: list, **setup) -> InputError:
    """The error the rules give for the record, which must be refused."""
    record = parse(doc(events, **setup), "test")
    error = record.forbidden()
    assert error is not None
    return error


def test_the_setup_defaults_and_round_trip():
    record = parse(doc([]), "test")
    assert record.start.dealt == 4 and record.start.bonus["purple"] == 5
    assert record.start.tiles[0][0] == Tile("green", "waif", 3)
    again = parse(record.fields(), "again")
    assert again.start == record.start
    now = follow(record.events, record.table, record.start)[-1]
    assert now.deck == 72 - 4 - 3 * 4 and now.blind == {"Ann": 4, "Ben": 0, "Cy": 4}


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"row": ["waif"]}, "row"),
        ({"hand": ["waif"]}, "hand"),
        ({"dealt": 30}, "dealt"),
        ({"players": ["Ann"], "me": "Ann"}, "players"),
        ({"tiles": [["gw3"]]}, "tiles"),
        ({"bonus": [{"colour": "green", "points": 2}]}, "bonus"),
        ({"row": ["waif", "dame", "bobby", "teapot"]}, "row"),
    ],
)
def test_a_bad_setup_is_refused_naming_its_field(setup, field):
    with pytest.raises(InputError) as caught:
        parse(doc([], **setup), "test")
    assert caught.value.field == field and caught.value.event == 0


def test_paying_for_a_tile_and_destroying():
    two = Tile("green", "waif", 2)
    assert shortfall(two, {"waif": 2}) is None
    assert shortfall(two, {"waif": 1, "dame": 2}) is None  # a pair is a joker
    assert shortfall(two, {"dame": 2, "bobby": 2}) is None  # jokers only
    assert "pairs" in (shortfall(two, {"waif": 1, "dame": 1}) or "")
    assert "worth 3" in (shortfall(two, {"waif": 3}) or "")  # exactly, no card more
    assert destroys(1, {"dame": 2}) and destroys(2, {"dame": 3, "waif": 2})
    assert not destroys(1, {"dame": 1, "waif": 1}) and not destroys(2, {"dame": 2})


@pytest.mark.parametrize(
    ("events", "event", "field", "words"),
    [
        ([{"meld": {"by": "Ann", "column": 1, "cards": {"grinder": 2}}}], 1, "cards", "worth 2"),
        ([{"meld": {"by": "Ben", "column": 4, "cards": {"dame": 2}}}], 1, "cards", "I do not"),
        (
            [
                {"meld": {"by": "Ann", "column": 1, "cards": {"grinder": 1}}},
                {"meld": {"by": "Ann", "column": 3, "cards": {"dame": 1}}},
            ],
            2,
            "by",
            "one meld a turn",
        ),
        (
            [
                {"meld": {"by": "Ann", "column": 1, "cards": {"grinder": 1}}},
                {"draw": {"by": "Cy", "from": "deck"}},
            ],
            2,
            "by",
            "under way",
        ),
        ([{"draw": {"by": "Ann", "card": "grinder", "new": "waif"}}], 1, "card", "face up"),
        ([{"draw": {"by": "Ann", "card": "waif"}}], 1, "new", "turned up"),
        (
            [{"meld": {"by": "Ann", "column": 2, "cards": {"grinder": 1, "waif": 2, "dame": 2}}}],
            1,
            "cards",
            "holds 4",
        ),
        (
            [
                {"meld": {"by": "Ann", "column": 1, "cards": {"grinder": 1}}},
                {"draw": {"by": "Ann", "from": "deck"}},
                {"destroy": {"by": "Ben", "column": 1, "tiles": 4, "cards": {"waif": 8}}},
            ],
            3,
            "tiles",
            "last one",
        ),
        (
            [
                {"destroy": {"by": "Ann", "column": 1, "tiles": 1, "cards": {"waif": 2}}},
                {"draw": {"by": "Ann", "from": "deck"}},
            ],
            2,
            "by",
            "meld in column 1",
        ),
        (
            [
                {"destroy": {"by": "Ann", "column": 1, "tiles": 1, "cards": {"waif": 2}}},
                {"meld": {"by": "Ann", "column": 2, "cards": {"grinder": 3}}},
            ],
            2,
            "column",
            "column 1",
        ),
        (
            [{"destroy": {"by": "Ben", "column": 1, "tiles": 1, "cards": {"waif": 2}}}],
            1,
            "tiles",
            "could not meld",
        ),
        ([{"clear": {"by": "Ann", "new": ["waif"] * 4}}], 1, "new", "not 4 alike"),
    ],
)
def test_an_event_the_rules_forbid_is_refused_naming_event_and_field(events, event, field, words):
    error = refusal(events)
    assert (error.event, error.field) == (event, field)
    assert words in error.message, error.message


def test_an_opponent_cannot_show_more_cards_of_a_figure_than_are_unseen():
    # 16 dames are in my hand and the row: two are unseen; a destroy of 4 dames shows 4
    setup = {"row": ["dame"] * 4, "hand": ["dame"] * 12, "dealt": 12}
    events = [{"destroy": {"by": "Ann", "column": 4, "tiles": 2, "cards": {"dame": 4}}}]
    error = refusal(events, **setup)
    assert (error.event, error.field) == (1, "cards") and "2 unseen" in error.message


def test_a_row_card_taken_and_its_replacement_and_my_deck_draw():
    events = [
        {"draw": {"by": "Ann", "card": "bobby", "new": "dame"}},
        {"draw": {"by": "Ben", "from": "deck", "card": "waif"}},
        {"draw": {"by": "Cy", "from": "deck"}},
    ]
    record = parse(doc(events), "t")
    now = follow(record.events, record.table, record.start)[-1]
    assert now.row == ("waif", "dame", "dame", "bobby")
    assert now.known["Ann"] == (0, 0, 1, 0) and now.known["Ben"] == (3, 1, 0, 1)
    assert now.blind["Cy"] == 5 and now.hand("Ann") == 5 and now.deck == 72 - 16 - 3


def test_a_case_is_solved_its_disk_awarded_or_discarded_and_the_fourth_ends_the_game():
    game = simulate(2, 3, me=0)
    record = parse(game.doc, "sim")
    courses = follow(record.events, record.table, record.start)
    end = courses[-1]
    assert end.over and len(end.disks) == 4
    assert all(c.over is None for c in courses[:-1])
    unsolved = set(record.start.bonus) - set(end.solved())
    assert len(unsolved) == 1
    for player in record.table.players:
        tiles = sum(t.number for t in end.taken[player] if t.colour not in unsolved)
        disks = sum(d.points for d in end.disks if d.winner == player)
        assert end.points(player, record.start) == tiles + disks
    with pytest.raises(InputError) as caught:
        follow([*record.events, record.events[-1]], record.table, record.start)
    assert "over" in caught.value.message


def test_a_tie_discards_the_disk():
    # Three green tiles: Ann, Ben and Cy take one each, 1 point each: the disk is discarded.
    columns = [
        ["pw1", "pw1", "pw1", "gw1", "gw1"],
        ["ow1", "ow1", "ow1", "ow1", "ow1"],
        ["yw1", "yw1", "yw1", "yw1", "yw1"],
        ["bw1", "bw1", "bw1", "bw1", "bw1"],
        ["pd1", "pd1", "pd1", "pd1", "gd1"],
    ]
    green = [
        {"meld": {"by": "Ann", "column": 1, "cards": {"waif": 1}}},
        {"draw": {"by": "Ann", "from": "deck"}},
        {"meld": {"by": "Ben", "column": 5, "cards": {"dame": 1}}},
        {"draw": {"by": "Ben", "from": "deck", "card": "bobby"}},
        {"meld": {"by": "Cy", "column": 1, "cards": {"waif": 1}}},
    ]
    record = parse(doc(green, tiles=columns), "t")
    now = follow(record.events, record.table, record.start)[-1]
    assert [(d.colour, d.winner) for d in now.disks] == [("green", None)]


def test_the_deck_is_remade_from_the_discard_pile_as_soon_as_it_runs_out():
    for seed in range(8):
        game = simulate(3 + seed % 3, seed, me=seed % 3)
        record = parse(game.doc, "sim")
        courses = follow(record.events, record.table, record.start)
        assert courses[-1].pool >= 1
        for now in courses:
            assert now.deck or not sum(now.discard)  # never an empty deck beside a pile
            cards = now.deck + sum(now.discard) + len(now.row)
            assert cards + sum(now.hand(p) for p in record.table.players) == 72


def small_record(game_doc: dict, box: Box) -> Record:
    """A record of a small box, its setup built directly (a record's box is the board's)."""
    table = Table(tuple(game_doc["players"]), game_doc["me"])
    tiles = tuple(tuple(tile(t, "tiles") for t in col) for col in game_doc["tiles"])
    bonus = {d["colour"]: d["points"] for d in game_doc["bonus"]}
    start = Start(tiles, bonus, tuple(game_doc["row"]), game_doc["dealt"], tuple(game_doc["hand"]))
    events = [parse_event(e, GAME, table, start) for e in game_doc["events"]]
    return Record("looting-london", table, start, events)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_hand_equals_brute_force_on_every_small_prefix(players):
    compared, pools = 0, 0
    for seed in range(10):
        dealt = 1 + seed % 2
        game = simulate(
            players, seed, me=seed % players, box=SMALL, dealt=dealt, turns=14, numbers=2
        )
        record = small_record(game.doc, SMALL)
        for k in range(len(record.events) + 1):
            try:
                expected = posterior(game.doc, SMALL.figures, SMALL.copies, k, 20_000)
            except TooMany:
                break
            found = believe(record.upto(k), box=SMALL)
            if found.course.pool == 0:  # one deck: each world is one order, counted once
                assert found.arrangements == len(worlds(game.doc, SMALL.figures, SMALL.copies, k))
            for player, hands in expected.items():
                assert found.hand(player) == hands, (seed, k, player)
                for figure in range(3):  # dist: the spread of one figure is the hands summed
                    got = found.spread(player)[figure]
                    for j, p in enumerate(got):
                        assert p == sum(q for h, q in hands.items() if h[figure] == j)
            compared += 1
            pools = max(pools, found.course.pool)
    assert compared > 60 and pools >= 2  # reshuffles were counted too


def test_a_hand_worked_by_hand():
    # Ann drew 4 of the 64 cards I have not seen, 17 grinders among them, and melds a grinder:
    # she drew g >= 1 grinders with chance C(17, g) C(47, 4 - g) (over the g >= 1), and now
    # holds k = g - 1 of them.
    events = [{"meld": {"by": "Ann", "column": 1, "cards": {"grinder": 1}}}]
    found = believe(parse(doc(events), "t"))
    weights = [comb(17, k + 1) * comb(47, 3 - k) for k in range(4)]
    assert found.spread("Ann")[1] == [Fraction(w, sum(weights)) for w in weights]
    assert found.hand("Ann") and sum(found.hand("Ann").values()) == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_true_hands_never_get_chance_0_in_simulated_whole_games(players):
    for seed in range(3):
        game = simulate(players, seed, me=seed % players)
        record = parse(game.doc, "sim")
        assert record.forbidden() is None
        for k in range(0, len(record.events) + 1, 9):
            found = believe(record.upto(k))
            assert found.consistent
            for player in record.table.players:
                true = tuple(game.hands[k][player][f] for f in BOX.figures)
                assert found.hand(player).get(true, 0) > 0, (seed, k, player)


def two_decks() -> dict:
    """A record that fits no hands, though each event fits what is public.

    Ann and I (Ben) were dealt 18 each: 14 dames of mine, so 4 dames are among the 50 cards I
    did not see. I meld a dame (it goes to the discard pile), then we draw the deck out, Ann
    unseen and I seeing 3 dames and 13 grinders: the deck is remade from the pile, my dame.
    Two dames are unseen now, so Ann's meld of two dames is possible to the eye; but only one
    can be hers (the other is in the new deck, drawn by no one).
    """
    columns = [c.split(",") for c in COLUMNS]
    columns[0][-1], columns[1][-1] = "yd1", "gd2"
    events: list = [{"draw": {"by": "Ann", "from": "deck"}}]
    events.append({"meld": {"by": "Ben", "column": 1, "cards": {"dame": 1}}})
    seen = ["dame"] * 3 + ["grinder"] * 13
    for k, card in enumerate(seen):
        events.append({"draw": {"by": "Ben", "from": "deck", "card": card}})
        if k < len(seen) - 1:
            events.append({"draw": {"by": "Ann", "from": "deck"}})
    events.append({"meld": {"by": "Ann", "column": 2, "cards": {"dame": 2}}})
    hand = ["dame"] * 14 + ["waif"] * 4
    return doc(
        events,
        players=["Ann", "Ben"],
        dealt=18,
        hand=hand,
        tiles=columns,
        row=["waif", "waif", "bobby", "bobby"],
    )


def test_a_record_only_its_history_shows_impossible_is_inconsistent():
    record = parse(two_decks(), "t")
    assert record.forbidden() is None
    courses = follow(record.events, record.table, record.start)
    assert courses[-2].pool == 1 and courses[-2].deck == 1
    assert believe(record.upto(len(record.events) - 1)).consistent
    found = believe(record)
    assert not found.consistent and found.conflict == [len(record.events)]


def test_the_cli_says_exit_3_for_it(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(json.dumps(two_decks()), encoding="utf-8")  # JSON is YAML
    done = _run("report", "-f", str(path), "--json")
    assert done.returncode == 3, done.stderr
    data = json.loads(done.stdout)
    assert data["consistent"] is False and data["conflict"] == [34]
    assert _run("report", "-f", str(path)).returncode == 3


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sleuth", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_the_json_report_has_the_contracts_keys():
    done = _run("report", "-f", str(ROOT / "examples" / "looting-london-4p.yaml"), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    keys = {"game", "consistent", "unseen", "deck", "row", "hands", "can_take", "tiles"}
    assert keys | {"scores", "solved"} <= set(data)
    for hand in data["hands"].values():
        assert set(hand) >= {"known", "blind", "dist"}
        for spread in hand["dist"].values():
            assert abs(sum(spread) - 1) < 1e-9
    assert data["hands"]["Ben"]["blind"] == 0
    assert sum(data["unseen"].values()) == data["deck"] + sum(
        h["blind"] for h in data["hands"].values()
    )
