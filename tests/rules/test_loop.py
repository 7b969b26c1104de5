"""Loot the Loop: the record, the rules at entry, where an explore lands, and a look's odds."""

from __future__ import annotations

import io
import itertools
import math
from fractions import Fraction

import pytest
from rich.console import Console

from sleuth.cli.status import status_line
from sleuth.document import document, dump
from sleuth.errors import InputError
from sleuth.games.loop.cards import DECK, KINDS, card, kind
from sleuth.games.loop.picture import show_report, show_update
from sleuth.games.loop.simulate import legal_actions, simulate, view
from sleuth.games.loop.temple import LOST, PLAYING, STUCK, WON, Temple, follow, outcome, step
from sleuth.games.loop.tracker import Tracker, after_look, believe, look_odds
from sleuth.record import parse


def record(*events):
    return parse({"game": "loot-the-loop", "events": list(events)}, "test")


def now(*events) -> Temple:
    found = record(*events)
    return follow(found.events, found.table, found.start)[-1]


def refused(*events) -> str:
    with pytest.raises(InputError) as caught:
        now(*events)
    return caught.value.line()


def test_the_record_names_no_player_and_writes_each_action_as_its_value():
    found = record({"look": ["8H", "4C"]}, {"explore": 4}, {"look": ["9s", "2d"]})
    assert found.table.players == ("me",)
    text = dump(document(found))
    assert "players" not in text and "\nme:" not in text
    assert "- look: [8H, 4C]" in text and "- explore: 4" in text and "- look: [9S, 2D]" in text
    assert record(*found.fields()["events"]).fields() == found.fields()


def test_cards_are_the_53_of_the_box():
    assert len(DECK) == len(set(DECK)) == 53
    assert [kind(c) for c in ("AS", "7H", "10D", "QC", "joker")] == [
        "jewel",
        "trinket",
        "trinket",
        "trap",
        "exit",
    ]
    assert card("10d", "x") == "10D" and card("Joker", "x") == "joker"
    for wrong in ("1H", "11S", "7X", "", "jokers"):
        with pytest.raises(InputError):
            card(wrong, "x")


def test_a_look_turns_up_the_face_down_top_two_or_one():
    assert now({"look": ["8H", "4C"]}).deck[:3] == ("8H", "4C", None)
    assert "turns up 2, not 1" in refused({"look": ["8H"]})
    assert "a card turns up once" in refused(
        {"look": ["8H", "4C"]}, {"explore": 4}, {"look": ["8H", "5C"]}
    )
    assert "the top card is face up" in refused({"look": ["8H", "4C"]}, {"look": ["9H", "5C"]})


def test_an_explore_moves_n_cards_and_wraps_around():
    after = now({"look": ["8H", "4C"]}, {"explore": 4})
    assert after.deck[-4:] == ("8H", "4C", None, None) and len(after.deck) == 53
    assert "face-up trinket of the top two: 4, 8" in refused({"look": ["8H", "4C"]}, {"explore": 5})
    temple = Temple(deck=("3H", None, "KS"))
    assert temple.landing(3) == (0, "3H")  # 3 mod 3: round the whole loop back to the top


@pytest.mark.parametrize(
    ("deck", "score", "n", "result", "status"),
    [
        (("2H", None, None), (), 2, "safe", PLAYING),
        (("2H", None, "KS"), (), 2, "trap", LOST),
        (("2H", None, "AS", None), (), 2, "nab", PLAYING),
        (("2H", None, "joker", "3D"), (), 2, "exit", PLAYING),
        (("2H", None, "joker", None), (), 2, "exit", STUCK),
        (("2H", None, "joker", None), ("AS", "AH", "AD", "AC"), 2, "win", WON),
    ],
)
def test_where_an_explore_lands_decides_what_happens(deck, score, n, result, status):
    seen = frozenset(c for c in (*deck, *score) if c)
    temple = Temple(deck=deck, score=score, seen=seen)
    assert outcome(temple, n) == result
    found = record({"explore": n}).events[0]
    after = step(temple, found)
    assert after.status == status
    if result == "nab":
        assert after.score[-1] == deck[n] and deck[n] not in after.deck


def test_marks_and_returns_follow_the_notes():
    start = Temple(deck=("7C", None, None), seen=frozenset({"7C"}))
    marked = step(start, record({"mark": "7C"}).events[0])
    assert marked.notes == ("7C",) and marked.deck == (None, None)
    back = step(marked, record({"return": "7C"}).events[0])
    assert back == Temple(deck=("7C", None, None), seen=frozenset({"7C"}))
    with pytest.raises(InputError, match="not in my notes"):
        step(start, record({"return": "9H"}).events[0])
    with pytest.raises(InputError, match="the top card is 7C, not 8C"):
        step(start, record({"mark": "8C"}).events[0])
    full = Temple(
        deck=("7C", None), notes=("2H", "3H", "4H"), seen=frozenset({"7C", "2H", "3H", "4H"})
    )
    with pytest.raises(InputError, match="3 paths already"):
        step(full, record({"mark": "7C"}).events[0])


def test_no_legal_action_is_stuck_and_nothing_follows_an_end():
    traps = Temple(deck=("KS", "JH", None), seen=frozenset({"KS", "JH"}))
    assert traps.actions() == ()
    after = step(
        Temple(deck=("2H", None, "KS", "JH"), seen=frozenset({"2H", "KS", "JH"})),
        record({"explore": 2}).events[0],
    )
    assert after.status == LOST and after.ending == "landed on the trap KS"
    with pytest.raises(InputError, match="the game is over"):
        step(after, record({"look": ["3H"]}).events[0])


def test_a_look_s_odds_are_each_kind_s_share_of_the_unseen_cards_by_enumeration():
    """Every order of a small unseen set under the face-down places: the top's kind counted."""
    seen = frozenset(DECK) - {"AS", "2H", "3H", "KS", "joker"}
    temple = Temple(deck=(None,) * 5, seen=seen)
    orders = list(itertools.permutations(temple.unseen))
    counted = {k: Fraction(sum(kind(o[0]) == k for o in orders), len(orders)) for k in KINDS}
    assert look_odds(temple) == counted


def test_the_report_of_a_fresh_record():
    found = believe(record(), None)
    assert found.consistent and found.exact and found.temple.status == PLAYING
    assert look_odds(found.temple) == {
        "trap": Fraction(12, 53),
        "jewel": Fraction(4, 53),
        "trinket": Fraction(36, 53),
        "exit": Fraction(1, 53),
    }
    assert [str(a) for a in found.temple.actions()] == ["look"]


# Against the simulator (``loop.simulate``, written from the rulebook alone): the record of every
# simulated game is allowed, the temple is what the player truly sees, the legal actions are the
# simulator's, and a look's odds are calibrated against the cards truly turned up.


def simulated(count: int):
    for seed in range(count):
        yield simulate(seed, policy=("random", "greedy")[seed % 2])


def test_every_simulated_game_is_allowed_and_its_temple_is_what_the_player_sees():
    for game in simulated(200):
        found = parse(game.doc, "simulated")
        assert found.forbidden() is None, game.seed
        temples = follow(found.events, found.table, found.start)
        for k, (temple, truth) in enumerate(zip(temples, game.states, strict=True)):
            seen = view(truth)
            assert temple.deck == seen.deck and temple.notes == seen.notes, (game.seed, k)
            assert temple.score == seen.score and temple.status == truth.status, (game.seed, k)
            offered = {(a.kind, a.n or a.card or None) for a in legal_actions(truth)}
            assert {(a.action, a.what) for a in temple.actions()} == offered, (game.seed, k)


def test_a_look_s_odds_are_calibrated_against_the_cards_truly_turned_up():
    stated: dict[str, Fraction] = dict.fromkeys(KINDS, Fraction(0))
    turned: dict[str, int] = dict.fromkeys(KINDS, 0)
    stuck = Fraction(0)
    stuck_seen = looks = 0
    for game in simulated(300):
        found = parse(game.doc, "simulated")
        temples = follow(found.events, found.table, found.start)
        for k, event in enumerate(game.doc["events"]):
            if "look" not in event:
                continue
            for kind_, p in look_odds(temples[k]).items():
                stated[kind_] += p
            turned[kind(event["look"][0])] += 1
            stuck += after_look(temples[k]).stuck
            stuck_seen += not temples[k + 1].actions()
            looks += 1
    for kind_ in KINDS:
        share = stated[kind_] / looks
        spread = 4 * math.sqrt(float(share * (1 - share)) / looks) + 0.005
        assert abs(turned[kind_] / looks - float(share)) <= spread, (kind_, turned, looks)
    share = stuck / looks
    assert abs(stuck_seen / looks - float(share)) <= 4 * math.sqrt(float(share) / looks) + 0.005
    assert looks > 2000


def test_what_a_look_leaves_equals_every_order_of_a_small_unseen_set():
    seen = frozenset(DECK) - {"AS", "6H", "3H", "KS", "joker", "QD", "3D"}
    deck = (None, None, "4C", None, None, None, "JH", None, None)
    temple = Temple(deck=deck, seen=seen | {"4C", "JH"})
    stuck = trapped = total = 0
    for order in itertools.permutations(temple.unseen):
        cards = iter(order)
        true = [c if c is not None else next(cards) for c in deck]
        after = step(temple, record({"look": true[:2]}).events[0])
        acts = after.actions()
        stuck += not acts
        trapped += bool(acts) and all(
            a.action == "explore" and outcome(after, int(a.what or 0)) == "trap" for a in acts
        )
        total += 1
    found = after_look(temple)
    assert found is not None
    assert (found.stuck, found.trapped) == (Fraction(stuck, total), Fraction(trapped, total))
    assert 0 < found.stuck < 1 and found.trapped > 0


# The screens at 80 columns, as a player at the table reads them.

WON = (  # a whole game typed at the table, won with 22 cards: the actions as short forms
    "9H 2H, m 9H, m 2H, 3D QS, r 9H, m 9H, 3, JS AS, r 2H, 2, 2C QC, m 2C, r 9H, 9, 10D 7H, "
    "m 10D, m 7H, JC 6C, r 10D, m 10D, 6, r 7H, m 7H, 4D 5D, 4, 6D 6H, r 10D, m 10D, 6, 3H 9C, "
    "r 7H, m 7H, 3, r 10D, m 10D, 2D 6S, 2, 3S AH, r 2C, 2, 7D 10C, m 7D, 10, 8H, 3, 8D, r 7H, "
    "m 7H, 8, r 10D, m 10D, 9S AC, 9, 2S, 2, joker 8S, r 7D, m 7D, 8, r 7H, m 7H, 9, 7S 9D, "
    "r 10D, m 10D, 7, r 10D, 3, 2, r 7D, r 7H, 7, 7C KC, 7, m 4D, 8, r 4D, 4, m 3S, m 10C, "
    "QD JH, r 3S, 3, m 9D, 5S 4S, 4, 10S, 10, 8C 5H, 8, 10H QH, m 10H, r 10C, 10, AD, 2, 3, 4, "
    "m 3D, r 9D, 9, 9, 6, m 2D, r 10H, 10, r 2D, 2, m 7D, r 3D, 3, m 9S, 7"
)


def typed(actions: str) -> list[dict]:
    """The events of actions written as short forms: "9H 2H", "3", "m 9H", "r 9H"."""
    out: list[dict] = []
    for words in (a.split() for a in actions.split(", ")):
        if words[0] in ("m", "r"):
            out.append({"mark" if words[0] == "m" else "return": words[1]})
        elif words[0].isdigit():
            out.append({"explore": int(words[0])})
        else:
            out.append({"look": words})
    return out


def screen(show, found) -> list[str]:
    """What ``show`` prints of ``found`` at 80 columns, line by line."""
    console = Console(width=80, record=True, file=io.StringIO())
    show(console, found)
    return console.export_text().splitlines()


def test_the_report_wraps_under_an_indent_and_names_one_card_in_the_singular():
    seen = frozenset(DECK) - {"AS", "KS", "2H"}
    up = [c for c in DECK if c in seen][:44]
    found = Tracker(record(), Temple(deck=(None, None, *up, None), seen=seen))
    lines = screen(show_report, found)
    assert all(len(line) <= 80 for line in lines)
    assert "Unseen: 3 cards: 1 trap, 1 jewel, 1 trinket" in lines
    assert lines[0].startswith("Deck (47, top first): ?x2 ")
    notes = next(k for k, line in enumerate(lines) if line.startswith("Notes: none"))
    assert notes > 1 and all(line.startswith("  ") for line in lines[1:notes])
    look = lines.index(next(x for x in lines if x.startswith("  look: turns up 2;")))
    said = " ".join(line.strip() for line in lines[look : look + 2])
    assert lines[look + 1].startswith("    ") and "; then stuck 33.3%, only traps 0%" in said


def test_the_update_names_the_card_nabbed_and_my_notes():
    events = typed(WON)[:10]  # the tenth, an explore of 2, lands on AS
    assert events[-1] == {"explore": 2}
    assert screen(show_update, believe(record(*events), None)) == [
        "  nabbed AS",
        "  top: ?x6 ...; notes 9H; score 1, jewels 1/4",
    ]
    assert screen(show_update, believe(record(*events[:-1]), None)) == [
        "  top: 2H JS AS ?x3 ...; notes 9H; score 0, jewels 0/4"
    ]


def test_the_status_line_of_an_ended_game_fits_80_columns_whole():
    won = record(*typed(WON))
    assert len(won.events) == 113
    line = status_line(won, believe(won, None), 80)
    assert line.startswith("action 113 | over: won | deck 29 | score 22 | jewels 4/4")
    assert "…" not in line and len(line) <= 80
    lost = parse(simulate(1119, "greedy").doc, "simulated")
    assert status_line(lost, believe(lost, None), 80).startswith("action 36 | over: lost on ")
