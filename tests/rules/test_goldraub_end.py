"""Goldraub ends early (rulebook, "End of the Game"; issue 28, item 1).

"If only one or more sector cards of a single player still lie face down on the table, the game
ends early." After that, every event is refused at entry (exit 2, one line, the record
unchanged), ``report`` says the game is over and why with the final scores, the simulators stop
there, and the shipped example ends where its game ends.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from invoke import invoker

import sleuth.cli  # noqa: F401 - registers the game commands
from sleuth.document import document, dump
from sleuth.games.goldraub import turns
from sleuth.games.goldraub.rules import Guess, Search, may_guess
from sleuth.games.goldraub.simulate import table_game
from sleuth.record import parse
from sleuth.store import load

cli_app = importlib.import_module("sleuth.cli.app")
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "goldraub-rulebook.yaml"


def face_down(doc: dict, upto: int) -> set[str]:
    """The players with a card still face down after ``upto`` events, from the events alone."""
    shown: dict[str, int] = {}
    for event in doc["events"][:upto]:
        guess = event.get("guess")
        if guess and guess["correct"]:
            shown[guess["owner"]] = shown.get(guess["owner"], 0) + 1
    return {p for p in doc["players"] if shown.get(p, 0) < 3}


def points(doc: dict) -> dict[str, int]:
    """Each player's score, written out again: +10 x or -5 x the round value at the guess."""
    out, searches = dict.fromkeys(doc["players"], 0), 0
    for event in doc["events"]:
        if "search" in event:
            searches += 1
            continue
        guess = event["guess"]
        value = doc["rounds"] - searches // len(doc["players"])
        out[guess["by"]] += 10 * value if guess["correct"] else -5 * value
    return out


@pytest.fixture
def run(monkeypatch, tmp_path):
    """Invoke the app in tmp_path, with colourless wide consoles and no cache."""
    return invoker(monkeypatch, tmp_path)


@pytest.fixture
def played(tmp_path):
    """The game of the issue: ``table_game(5, 10, seed=126, me=2)``, as game.yaml."""
    doc, _ = table_game(5, 10, seed=126, me=2)
    (tmp_path / "game.yaml").write_text(dump(document(parse(doc, "game.yaml"))))
    return doc


def test_the_played_game_ends_at_its_event_42(played):
    assert len(played["events"]) == 42
    assert face_down(played, 41) == {"Christl", "Elli"}
    assert face_down(played, 42) == {"Elli"}
    record = parse(played, "game.yaml")
    assert turns.status(record.upto(41)).over is None
    status = turns.status(record)
    assert status.over == "only Elli's cards are face down" and status.turn is None


def test_report_says_the_game_is_over_why_and_the_final_scores(run, played):
    result = run("report")
    assert result.exit_code == 0, result.output
    assert "game over: only Elli's cards are face down" in result.stdout
    scores = ", ".join(f"{p} {s:+d}" for p, s in points(played).items())
    assert f"final scores: {scores}" in " ".join(result.stdout.split())
    assert points(played) == {
        "Anton": 140, "Bert": 200, "Christl": 295, "Doris": 90, "Elli": 140
    }  # fmt: skip
    earlier = run("report", "--upto", "41")
    assert "Elli to play" in earlier.stdout and "final" not in earlier.stdout


def test_check_after_the_end_weighs_no_wait(run, played):
    result = run("check", "elli", "11")
    assert "may I guess now: no (the game is over: only Elli's cards are face down)" in (
        result.stdout
    )
    assert "wait a round" not in result.stdout  # there is no round to wait for


def recorded(run, event: dict):
    """Record ``event`` (a guess or a search, as the record has it) with its command."""
    kind, fields = next(iter(event.items()))
    if kind == "guess":
        words = [fields["by"], fields["owner"], str(fields["sector"])]
        return run("guess", *words, "--correct" if fields["correct"] else "--wrong")
    words = [fields["by"], fields["row"], "--gold", str(fields["gold"])]
    extra = [[f"--{k}", str(fields[k])] for k in ("saw", "at") if fields.get(k) is not None]
    return run("search", *words, *(w for pair in extra for w in pair))


def test_the_event_that_ends_the_game_says_so_with_the_final_scores(run, played):
    assert run("undo").exit_code == 0 and run("undo").exit_code == 0
    earlier = recorded(run, played["events"][40])
    assert earlier.exit_code == 0 and "game is over" not in earlier.stdout
    last = recorded(run, played["events"][41])
    assert last.exit_code == 0, last.output
    assert "  the game is over: only Elli's cards are face down" in last.stdout.splitlines()
    scores = ", ".join(f"{p} {s:+d}" for p, s in points(played).items())
    assert f"final scores: {scores}" in " ".join(last.stdout.split())


@pytest.mark.parametrize(
    "entry",
    [
        ("search", "elli", "11-77", "--gold", "1"),
        ("guess", "anton", "elli", "11", "--correct"),
        ("guess", "elli", "anton", "13", "--wrong"),
    ],
)
def test_an_event_after_the_early_end_is_refused(run, played, tmp_path, entry):
    before = (tmp_path / "game.yaml").read_bytes()
    result = run(*entry)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "event 43" in lines[0]
    assert "the game is over" in lines[0] and "only Elli's cards are face down" in lines[0]
    assert (tmp_path / "game.yaml").read_bytes() == before


def test_a_record_holding_an_event_after_the_end_is_refused_by_the_analyses(played):
    doc = dict(played)
    doc["events"] = played["events"] + [{"search": {"by": "Elli", "row": "11-77", "gold": 1}}]
    record = parse(doc, "game.yaml")
    error = turns.forbidden(list(record.events), record.table, record.start)
    assert error is not None and error.event == 43


def test_no_one_may_guess_once_one_player_alone_has_cards_face_down(played):
    record = parse(played, "game.yaml")
    for who in record.table.players:
        allowed, why = may_guess(list(record.events), record.table.players, 10, who, 3)
        assert not allowed and "the game is over" in why


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_table_simulator_stops_where_the_game_ends(n):
    for seed in range(40):
        doc, _ = table_game(n, 10, seed)
        record = parse(doc, "simulated")
        assert turns.forbidden(list(record.events), record.table, record.start) is None
        ends = [k for k in range(len(doc["events"]) + 1) if len(face_down(doc, k)) <= 1]
        assert ends in ([], [len(doc["events"])]), (seed, ends)


def test_the_rulebook_example_ends_where_its_game_ends():
    record, _ = load(EXAMPLE, keep=False)
    events = list(record.events)
    assert turns.forbidden(events, record.table, record.start) is None
    assert turns.status(record.upto(len(events) - 1)).over is None
    assert turns.status(record).over == "only Christl's cards are face down"
    assert isinstance(events[-1], Guess) and any(isinstance(e, Search) for e in events)
