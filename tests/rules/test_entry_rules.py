"""The rules and my own hand, checked when an event is recorded (issue 20).

An answer my own hand rules out, and an event the rules forbid at its place, are refused with
exit 2 and one line on stderr, the record unchanged byte for byte; a record file that already
holds a forbidden event is refused by the analyses and can still be repaired (undo, edit). An
answer I gave myself is filled in from my hand. ``check`` says plainly when I may not guess, and
``check --json`` is checked against brute force.
"""

import importlib
import json
from fractions import Fraction
from pathlib import Path

import pytest
from invoke import invoker
from oracles.brute import brute_count
from oracles.lima import brute

import sleuth.cli  # noqa: F401 - registers the game commands
from sleuth.document import document, dump, parse_yaml
from sleuth.games.goldraub import simulate as goldraub_simulate
from sleuth.games.goldraub.rules import may_guess
from sleuth.games.lima import simulate as lima_simulate
from sleuth.record import parse
from sleuth.store import append, create, load

cli_app = importlib.import_module("sleuth.cli.app")
PLAYERS = "Anton,Bert,Christl,Doris,Elli"
GOLDRAUB = ["new", "goldraub", "--players", PLAYERS, "--me", "Christl", "--hand", "22,45,63"]
LIMA = [
    "new", "lima", "--players", "Ana,Ben,Cy,Di,Ed", "--me", "Cy", "--hand", "2F,5B,7M,8F",
    "--known", "Ben=3M", "--known", "Di=1B", "--public", "4F,6B",
]  # fmt: skip
LIMA_HAND = ("2F", "5B", "7M", "8F")
# A record file with a forbidden event 3: a guess of a sector already face up.
FACE_UP_TWICE = """\
game: goldraub
players: [Anton, Bert, Christl, Doris, Elli]
me: Christl
hand: [22, 45, 63]
rounds: 10
events:
  - search: {by: Anton, row: 31-36, gold: 2, saw: 1}
  - guess: {by: Doris, owner: Bert, sector: 32, correct: true}
  - guess: {by: Anton, owner: Bert, sector: 32, correct: true}
"""


@pytest.fixture
def run(monkeypatch, tmp_path):
    """Invoke the app in tmp_path, with colourless wide consoles and no cache."""
    return invoker(monkeypatch, tmp_path)


def ok(result) -> None:
    """The command succeeded."""
    assert result.exit_code == 0, result.output


def refused(run, *args: str, says: str, path: str = "game.yaml") -> str:
    """Run a command that must be refused: exit 2, one stderr line, the file unchanged."""
    before = Path(path).read_bytes()
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sleuth: "), result.stderr
    assert says in lines[0], lines[0]
    assert Path(path).read_bytes() == before
    return lines[0]


# My own hand (Goldraub): I am Christl with 22, 45 and 63; Bert sits between Anton and me.


def test_a_gold_my_own_tip_card_rules_out_is_refused(run):
    ok(run(*GOLDRAUB))
    line = refused(run, "search", "an", "21-25", "--gold", "0", says="I hold 22 in 21-25")
    assert "event 1, field 'gold'" in line and "at least 1" in line
    refused(run, "search", "an", "31-36", "--gold", "4", says="gold is at most 3")
    ok(run("search", "an", "31-36", "--gold", "3"))
    ok(run("search", "bert", "21-25", "--gold", "1"))


def test_a_saw_my_seat_rules_out_is_refused(run):
    ok(run(*GOLDRAUB))
    line = refused(run, "search", "an", "21-25", "--gold", "1", "--saw", "1", says="at most 0")
    assert "field 'saw'" in line
    # Doris and Elli answer after me: gold 3 with none of mine means Bert's card was gold
    refused(run, "search", "an", "31-36", "--gold", "3", "--saw", "0", says="at least 1")
    ok(run("search", "an", "31-36", "--gold", "3", "--saw", "1"))


# The rules at entry (Goldraub): revealed cards, two guesses a round, none after a wrong one.


def test_a_guess_of_a_sector_already_face_up_is_refused(run):
    ok(run(*GOLDRAUB))
    ok(run("search", "an", "31-36", "--gold", "2", "--saw", "1"))
    ok(run("guess", "dor", "bert", "32", "--correct"))
    line = refused(run, "guess", "an", "elli", "32", "--wrong", says="32 is face up")
    assert "event 3, field 'sector'" in line and "event 2" in line


def test_a_third_guess_in_one_round_is_refused(run):
    ok(run(*GOLDRAUB))
    ok(run("search", "an", "31-36", "--gold", "2", "--saw", "1"))
    ok(run("guess", "dor", "bert", "32", "--correct"))
    ok(run("guess", "dor", "bert", "33", "--correct"))
    refused(run, "guess", "dor", "anton", "11", "--wrong", says="already two guesses")
    ok(run("guess", "elli", "anton", "11", "--wrong"))


def test_a_guess_after_ones_own_wrong_guess_waits_for_the_round_marker(run):
    ok(run(*GOLDRAUB))
    ok(run("search", "an", "31-36", "--gold", "1"))
    ok(run("guess", "dor", "bert", "34", "--wrong"))
    line = refused(run, "guess", "dor", "bert", "35", "--wrong", says="a wrong guess this round")
    assert "field 'by'" in line and "Doris may not guess now" in line
    for by, row in (("bert", "11-14"), ("chr", "41-47"), ("dor", "52-57"), ("elli", "74-77")):
        ok(run("search", by, row, "--gold", "1"))
    ok(run("guess", "dor", "bert", "35", "--wrong"))  # the round marker has moved


def test_no_event_once_the_round_counter_is_at_0(run):
    ok(run(*GOLDRAUB, "--rounds", "1"))
    for by, row in (("an", "31-36"), ("bert", "11-14"), ("chr", "41-47"), ("dor", "52-57")):
        ok(run("search", by, row, "--gold", "1"))
    ok(run("guess", "elli", "bert", "31", "--wrong"))
    ok(run("search", "elli", "74-77", "--gold", "1"))  # the round counter moves to 0
    refused(run, "search", "an", "21-25", "--gold", "1", says="the game is over")
    refused(run, "guess", "an", "bert", "11", "--wrong", says="the game is over")


def test_a_search_out_of_turn_is_a_note_not_an_error(run):
    ok(run(*GOLDRAUB))
    ok(run("search", "an", "31-36", "--gold", "2", "--saw", "1"))
    result = run("search", "chr", "11-14", "--gold", "1")
    ok(result)
    assert result.stderr.splitlines() == [
        "sleuth: note: event 2: Christl searched out of turn (Bert was next, clockwise)"
    ]
    assert len(load(Path("game.yaml"))[0].events) == 2
    assert run("search", "dor", "41-47", "--gold", "1").stderr == ""


# My own hand (Lima): I am Cy with 2F, 5B, 7M and 8F.


def my_count(start: str, end: str, terrain: str | None = None) -> int:
    """How many of my tokens lie in the range, by the simulator's own reading of the rules."""
    return sum(lima_simulate.in_range(t, start, end, terrain) for t in LIMA_HAND)


def last_event(path: str = "game.yaml") -> dict:
    """The record's last event as its fields."""
    return load(Path(path))[0].fields()["events"][-1]


def test_a_question_to_me_is_filled_in_from_my_hand(run):
    ok(run(*LIMA))
    ok(run("ask", "ana", "cy", "NE-N", "--terrain", "forest"))
    assert last_event()["ask"]["answer"] == my_count("NE", "N", "forest") == 2
    ok(run("ask", "ben", "cy", "N-S"))
    assert last_event()["ask"]["answer"] == my_count("N", "S") == 1
    ok(run("secret", "di", "cy", "S-N"))
    assert last_event()["secret"] == {"by": "Di", "to": "Cy", "range": "S-N", "answer": 3}
    assert my_count("S", "N") == 3


def test_an_answer_my_own_hand_rules_out_is_refused(run):
    ok(run(*LIMA))
    line = refused(
        run, "ask", "ana", "cy", "NE-N", "--terrain", "forest", "--answer", "1", says="I hold"
    )
    assert line.endswith("field 'answer': I hold 2F and 8F in NE-N forest: the answer is 2, not 1")
    refused(run, "ask", "ana", "cy", "E-SE", "--answer", "1", says="I hold none of E-SE")
    refused(run, "secret", "ana", "cy", "N-S", "--answer", "0", says="I hold 2F in N-S")
    refused(run, "secret", "ana", "cy", "--answer", "1", says="field 'range'")
    ok(run("secret", "ana", "cy"))  # who asked whom, and nothing more, is still fine


# The rules at entry (Lima): players out of the game, and the end of the game.


def test_a_player_out_of_the_game_asks_and_accuses_no_more_but_answers(run):
    ok(run(*LIMA))
    ok(run("accuse", "di", "3F", "7F", "--wrong"))
    line = refused(run, "accuse", "di", "1F", "2B", "--wrong", says="Di is out of the game")
    assert "event 2, field 'by'" in line and "event 1" in line
    refused(run, "ask", "di", "ana", "N-S", "--answer", "1", says="Di is out of the game")
    refused(run, "secret", "di", "ana", says="Di is out of the game")
    ok(run("ask", "ana", "di", "N-S", "--answer", "1"))


def test_after_a_right_accusation_the_game_is_over(run):
    ok(run(*LIMA))
    result = run("accuse", "ana", "1F", "1M", "--correct")
    ok(result)
    assert "the game is over: Ana found the treasure, 1F + 1M" in result.stdout
    refused(run, "ask", "ben", "ana", "N-S", "--answer", "1", says="the game is over")
    refused(run, "accuse", "cy", "1F", "1M", "--correct", says="the game is over")
    check = run("check", "1F", "1M")
    ok(check)
    assert "the game is over" in check.stdout


def test_a_question_out_of_turn_is_a_note(run):
    ok(run(*LIMA))
    ok(run("ask", "ana", "ben", "N-S", "--answer", "1"))
    result = run("ask", "cy", "ben", "N-S", "--answer", "1")
    ok(result)
    assert result.stderr.splitlines() == [
        "sleuth: note: event 2: Cy asked out of turn (Ben was next, clockwise)"
    ]


def test_the_next_turn_skips_a_player_out_of_the_game(run):
    ok(run(*LIMA))
    ok(run("ask", "ben", "ana", "N-S", "--answer", "1"))
    ok(run("accuse", "cy", "1F", "1M", "--wrong"))
    assert run("ask", "di", "ana", "N-S", "--answer", "1").stderr == ""


# A record file that already holds a forbidden event.


def test_a_record_holding_a_forbidden_event_is_refused_by_the_analyses(run):
    Path("game.yaml").write_text(FACE_UP_TWICE, encoding="utf-8")
    for args in (["report"], ["report", "--json"], ["check", "bert", "33"], ["check", "--best"]):
        line = refused(run, *args, says="game.yaml, event 3, field 'sector': 32 is face up")
        assert "edit or delete the event" in line
    refused(run, "check", "bert", "33", "--json", says="event 3")


def test_a_record_holding_a_forbidden_event_can_be_undone(run):
    Path("game.yaml").write_text(FACE_UP_TWICE, encoding="utf-8")
    ok(run("undo"))
    ok(run("report"))


def test_a_record_holding_a_forbidden_event_can_be_edited_right(run):
    Path("game.yaml").write_text(FACE_UP_TWICE, encoding="utf-8")
    refused(run, "edit", "2", "by=Elli", says="event 3, field 'sector'")  # leaves event 3
    ok(run("edit", "3", "sector=33"))
    ok(run("report"))
    refused(run, "edit", "2", "sector=33", says="event 3, field 'sector': 33 is face up")


def test_loading_to_repair_does_not_ask_the_rules():
    record = parse(parse_yaml(FACE_UP_TWICE, "game.yaml", False), "game.yaml")
    assert len(record.events) == 3
    error = record.forbidden()
    assert error is not None and error.event == 3 and error.field == "sector"
    assert record.upto(2).forbidden() is None


# check: plain words when I may not guess; --json against brute force.


def test_check_on_my_own_card_a_revealed_card_or_when_i_may_not_guess(run):
    ok(run(*GOLDRAUB))
    ok(run("search", "an", "31-36", "--gold", "2", "--saw", "1"))
    ok(run("guess", "dor", "bert", "32", "--correct"))
    for args, why, verdict in (
        (["chr", "22"], "22 is my own card", "my own card"),
        (["bert", "32"], "32 is face up, Bert's since event 2", "already revealed"),
    ):
        result = run("check", *args)
        ok(result)
        assert f"may I guess now: no ({why}" in result.stdout
        assert f"verdict: {verdict}" in result.stdout and "expected" not in result.stdout
    ok(run("guess", "chr", "bert", "33", "--wrong"))
    result = run("check", "bert", "34")
    ok(result)
    assert "may I guess now: no (a wrong guess this round" in result.stdout
    assert "verdict: not allowed now" in result.stdout and "expected" not in result.stdout


def test_check_json_needs_one_move(run):
    ok(run(*GOLDRAUB))
    refused(run, "check", "--json", says="field 'json'")


def write(doc: dict, path: str = "game.yaml") -> None:
    """A simulated record, written as the CLI would."""
    Path(path).write_text(dump(document(parse(doc, path))), encoding="utf-8")


def check_json(run, *args: str) -> dict:
    """``check ARGS --json``, which must succeed, as data."""
    result = run("check", *args, "--json")
    ok(result)
    return json.loads(result.stdout)


def a_three_player_game_with_a_right_guess() -> dict:
    """A short simulated 3-player Goldraub game in which some card was revealed."""
    for seed in range(100):
        doc, _ = goldraub_simulate.simulate(3, 7, seed, guesses=0.6)
        if any(e.get("guess", {}).get("correct") for e in doc["events"]):
            return doc
    raise AssertionError("no simulated game with a right guess")


def test_check_json_of_a_guess_against_brute_force(run):
    doc = a_three_player_game_with_a_right_guess()
    write(doc)
    record = parse(doc, "game.yaml")
    total, held = brute_count(record.model())
    searches = sum("search" in e for e in doc["events"])
    value = max(10 - searches // 3, 0)
    revealed = {e["guess"]["sector"] for e in doc["events"] if e.get("guess", {}).get("correct")}
    me, other = record.table.me, record.table.players[1]
    mine = doc["hand"][0]
    face_up = next(iter(revealed))
    allowed_now = may_guess(record.events, record.table.players, 10, me, 3)[0]
    for owner, sector in ((other, 11), (other, face_up), (me, mine), (other, mine)):
        got = check_json(run, owner, str(sector))
        assert set(got) == {
            "owner", "sector", "probability", "exact", "value", "expected", "allowed", "verdict"
        }  # fmt: skip
        p = Fraction(held[owner, str(sector)], total)
        assert got["owner"] == owner and got["sector"] == str(sector) and got["exact"] is True
        assert got["probability"] == pytest.approx(float(p))
        assert got["value"] == value
        assert got["expected"] == pytest.approx(value * (15 * float(p) - 5))
        forbidden = sector in revealed or owner == me
        assert got["allowed"] is (allowed_now and not forbidden)
    assert check_json(run, me, str(mine))["verdict"] == "my own card"
    assert check_json(run, other, str(face_up))["verdict"] == "already revealed"


def test_check_json_of_an_accusation_against_brute_force(run):
    doc, _ = lima_simulate.simulate(3, 6, 2, accuse=0)
    write(doc)
    truth = brute(doc)
    pairs = sorted(truth.pairs.items(), key=lambda kv: -kv[1])
    for pair, n in pairs[:3]:
        first, second = sorted(pair)
        got = check_json(run, first, second)
        assert set(got) == {"pair", "probability", "exact", "verdict"}
        assert got["pair"] == [first, second] and got["exact"] is True
        assert got["probability"] == pytest.approx(n / truth.total)
        assert got["verdict"].startswith("certain" if n == truth.total else "risky")


# Simulated games keep to the rules.


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulated_goldraub_games_break_no_rule(players):
    for seed in range(8):
        doc, _ = goldraub_simulate.simulate(players, 80, seed, me=seed % players, guesses=0.5)
        record = parse(doc, "simulation")
        assert record.forbidden() is None, (seed, record.forbidden())
        assert not [k for k in range(1, len(record.events) + 1) if record.turn_note(k)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_simulated_lima_games_break_no_rule(players):
    for seed in range(8):
        doc, _ = lima_simulate.simulate(players, 60, seed, me=seed % players, accuse=0.1)
        record = parse(doc, "simulation")
        assert record.forbidden() is None, (seed, record.forbidden())
        assert not [k for k in range(1, len(record.events) + 1) if record.turn_note(k)]


def test_a_simulated_game_is_recorded_event_by_event(tmp_path):
    for doc in (
        goldraub_simulate.simulate(5, 12, 4, guesses=0.5)[0],
        lima_simulate.simulate(4, 12, 3, accuse=0.1)[0],  # a wrong accusation at 11
    ):
        path = tmp_path / f"{doc['game']}.yaml"
        setup = {k: v for k, v in doc.items() if k != "events"}
        create(path, setup, "test")
        notes = []
        for item in doc["events"]:
            ((kind, fields),) = item.items()
            append(path, kind, fields, "test", notes.append)
        assert notes == []
        assert load(path)[0].fields()["events"] == parse(doc, "simulation").fields()["events"]
