"""A game registered from outside the package, a rules core alone, gets every common command
from the shared parts (its ``new``, its recording command, report, check, log, replay, play),
and exact odds."""

import importlib
import itertools
import json
from fractions import Fraction

import pytest
import tinygame
from typer.testing import CliRunner

from sleuth.games import GAMES, register
from sleuth.games.shipped import GAMES as SHIPPED

cli_app = importlib.import_module("sleuth.cli.app")
commands_module = importlib.import_module("sleuth.cli.commands")


@pytest.fixture
def run(monkeypatch, tmp_path):
    """The app in-process with Tiny registered and installed, in a scratch folder."""
    monkeypatch.chdir(tmp_path)
    env = cli_app.Env(environ={"SLEUTH_CACHE": "off"})
    commands = list(cli_app.app.registered_commands)
    starters = list(cli_app.starting.registered_commands)
    register(tinygame.GAME)
    commands_module.install(tinygame.GAME)
    runner = CliRunner()
    yield lambda *args, **kw: runner.invoke(cli_app.app, [str(a) for a in args], obj=env, **kw)
    del GAMES["tiny"]
    cli_app.app.registered_commands[:] = commands
    cli_app.starting.registered_commands[:] = starters


def test_a_game_from_its_own_file_replays(run):
    assert run("new", "tiny", "--players", "Ann,Bob", "--me", "ann", "hand=1,4").exit_code == 0
    assert run("query", "by=an", "to=bo", "cards=2,3,5", "answer=1").exit_code == 0
    done = run("replay", "--json")
    assert done.exit_code == 0, done.output
    steps = json.loads(done.stdout)["steps"]
    assert [s["worlds"] for s in steps] == [6, 3]  # Bob: 6 and one of 2, 3, 5
    assert steps[1]["forced"] == [["Bob", "6"]]
    assert steps[1]["best"] is None  # a game that judges no move has no best move to show
    text = run("replay")
    assert text.exit_code == 0 and "> certain: Bob 6" in text.stdout, text.output


def brute(me: str, hand: tuple, queries: list[tuple[str, tuple, int]]) -> dict:
    """Each (holder, card)'s probability, by listing every deal of the six cards."""
    holders = ["Ann", "Bob", tinygame.PILE]
    fits = []
    for cards in itertools.permutations(tinygame.CARDS):
        deal = {c: holders[k // 2] for k, c in enumerate(cards)}
        if all(deal[c] == me for c in hand) and all(
            sum(deal[c] == to for c in asked) == n for to, asked, n in queries
        ):
            fits.append(deal)
    return {
        (h, c): Fraction(sum(d[c] == h for d in fits), len(fits))
        for h in holders
        for c in tinygame.CARDS
    }


def test_a_game_from_its_own_file_works_end_to_end(run, tmp_path):
    assert run("new", "tiny", "--players", "Ann,Bob", "--me", "ann", "hand=1,4").exit_code == 0
    done = run("query", "by=an", "to=bo", "cards=2,3,5", "answer=1")
    assert done.exit_code == 0, done.output
    assert "recorded: query {by: Ann, to: Bob, cards: [2, 3, 5], answer: 1}" in done.stdout
    assert run("query", "by=bo", "to=an", "cards=1,2", "answer=1").exit_code == 0
    assert run("query", "by=an", "to=bo", "cards=2", "answer=0").exit_code == 0
    text = run("report")
    assert text.exit_code == 0 and "Tiny" in text.stdout
    report = json.loads(run("report", "--json").stdout)
    queries = [("Bob", ("2", "3", "5"), 1), ("Ann", ("1", "2"), 1), ("Bob", ("2",), 0)]
    expected = brute("Ann", ("1", "4"), queries)
    assert expected["Bob", "6"] == 1 and 0 < expected["Bob", "3"] < 1
    for (holder, item), p in expected.items():
        assert report["probability"][holder][item] == pytest.approx(float(p))
    assert {tuple(f) for f in report["forced"]} == {
        k for k, p in expected.items() if p == 1 and k not in {("Ann", "1"), ("Ann", "4")}
    }
    check = json.loads(run("check", "bob", "5", "--json").stdout)
    assert check == {"holder": "Bob", "item": "5", "probability": float(expected["Bob", "5"])}
    assert "Bob holds 5: " in run("check", "bob", "5").stdout
    wrong = run("query", "by=an", "to=bo", "cards=6", "answer=0")
    assert wrong.exit_code == 3  # Bob must hold 6: no deal fits
    assert "Contradiction" in wrong.stdout
    bad = run("query", "by=an", "to=bo", "cards=7", "answer=0")
    assert bad.exit_code == 2 and "is not a card 1-6" in bad.stderr


def test_only_the_registry_knows_the_game():
    assert "tiny" not in GAMES and SHIPPED is GAMES and {"goldraub", "lima"} <= set(GAMES)


def test_a_game_without_advice_says_so_and_plays_with_its_commands(run, tmp_path):
    assert run("new", "tiny", "--players", "Ann,Bob", "--me", "ann", "hand=1,4").exit_code == 0
    advice = run("next")
    assert advice.exit_code == 2 and "Tiny has no advice" in advice.stderr
    played = run("play", input="query by=bo to=an cards=1 answer=1\nlog\nreplay\nquit\n")
    assert played.exit_code == 0, played.output
    assert "recorded: query {by: Bob, to: Ann, cards: [1], answer: 1}" in played.stdout
    assert "1 query" in played.stdout  # the log lists the event
    log = json.loads(run("log", "--json").stdout)
    assert log == [{"index": 1, "query": {"by": "Bob", "to": "Ann", "cards": [1], "answer": 1}}]
    missing = run("query", "to=an", "cards=1", "answer=1")
    assert missing.exit_code == 2 and "query needs 'by'" in missing.stderr
