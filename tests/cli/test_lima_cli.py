"""Loot of Lima at the command line: the issue's session, bad input, a real subprocess, examples."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sleuth.analysis import report
from sleuth.cli import app
from sleuth.store import load

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NEW_FIVE = [
    "new", "lima", "--players", "Ana,Ben,Cy,Di,Ed", "--me", "Cy", "--hand", "2F,5B,7M,8F",
    "--known", "Ben=3M", "--known", "Di=1B", "--public", "4F,6B",
]  # fmt: skip
SESSION = [
    ["ask", "Ana", "Ben", "SE-NW", "--terrain", "forest", "--answer", "1"],
    ["secret", "Cy", "Ben", "N-S", "--answer", "2"],
    ["secret", "Ana", "Ben"],
    ["accuse", "Di", "3F", "7M", "--wrong"],
]


def run(*args: str, path: Path):
    """Invoke the app on the record at ``path``."""
    return CliRunner().invoke(app, [*args, "--file", str(path)])


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> tuple[bytes, list]:
    """The issue's 5-player session through the CLI, once: the record's bytes and each result."""
    path = tmp_path_factory.mktemp("session") / "game.yaml"
    results = [run(*args, path=path) for args in [NEW_FIVE, *SESSION]]
    return path.read_bytes(), results


@pytest.fixture
def game(tmp_path: Path, session: tuple[bytes, list]) -> Path:
    """A fresh copy of the issue's record."""
    path = tmp_path / "game.yaml"
    path.write_bytes(session[0])
    return path


def test_the_issue_session(game: Path, session: tuple[bytes, list]):
    started, *events = session[1]
    assert started.exit_code == 0 and "lima" in started.stdout
    assert "known: {Ben: [3M], Di: [1B]}" in game.read_text()
    for result in events:
        assert result.exit_code == 0, result.stderr
        assert "recorded:" in result.stdout and "deals still possible" in result.stdout
        assert "top treasure pairs:" in result.stdout
    assert [next(iter(e)) for e in load(game)[1]["events"]] == ["ask", "secret", "secret", "accuse"]
    shown = run("report", path=game)
    assert shown.exit_code == 0
    for words in ("NW", "2F", "Possible treasure pairs", "Other players' tokens", "deals fit"):
        assert words in shown.stdout


def test_report_json_has_every_treasure_pair(game: Path):
    result = run("report", "--json", path=game)
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["game"] == "lima" and data["consistent"]
    odds = [p for _, p in data["treasure"]]
    assert odds == sorted(odds, reverse=True) and all(p > 0 for p in odds)
    assert sum(odds) == pytest.approx(1)
    assert ["3F", "7M"] not in [pair for pair, _ in data["treasure"]]
    assert set(data["probability"]) == {"Ana", "Ben", "Cy", "Di", "Ed", "treasure", "public"}
    assert data["worlds"] == report(load(game)[0]).worlds


def test_check_a_pair_and_the_best(game: Path):
    mine = run("check", "3F", "7M", path=game)
    assert mine.exit_code == 0 and "impossible" in mine.stdout
    risky = run("check", "1f", "1m", path=game)
    assert "risky" in risky.stdout and "puts me out" in risky.stdout
    best = run("check", "--best", path=game)
    assert best.exit_code == 0 and "best accusation" in best.stdout


BAD_EVENTS = [
    (["ask", "Ana", "Ben", "SE-XX", "--answer", "1"], "range", "not a compass point"),
    (["ask", "Ana", "Ben", "SENW", "--answer", "1"], "range", "not a range"),
    (["ask", "Ana", "Ben", "SE-NW-S", "--answer", "1"], "range", "not a range"),
    (["ask", "Ana", "Ben", "SE-NW", "--terrain", "lava", "--answer", "1"], "terrain", "lava"),
    (["ask", "Ana", "Ben", "SE-NW", "--answer", "5"], "answer", "4 tokens Ben holds"),
    (["ask", "Ana", "Ben", "E-SE", "--terrain", "beach", "--answer", "2"], "answer", "1 locations"),
    (["ask", "Ana", "ana", "SE-NW", "--answer", "1"], "to", "cannot ask themselves"),
    (["ask", "Zed", "Ben", "SE-NW", "--answer", "1"], "by", "not a player"),
    (["secret", "Cy", "Ben"], "range", "give it"),
    (["secret", "Ana", "Ben", "N-S", "--answer", "1"], "range", "only the asker"),
    (["accuse", "Di", "3F", "9Q", "--wrong"], "locations", "'9Q' is not a location"),
    (["accuse", "Di", "3F", "3F", "--wrong"], "locations", "listed twice"),
    (["accuse", "Cy", "3F", "1M", "--correct", "--treasure", "3F,1B"], "treasure", "does not fit"),
    (["accuse", "Di", "3F", "1M", "--wrong", "--treasure", "3F,1B"], "treasure", "only the"),
]


@pytest.mark.parametrize(("args", "field", "words"), BAD_EVENTS)
def test_bad_event_is_one_line_exit_2_and_leaves_the_record(game, args, field, words):
    before = game.read_bytes()
    result = run(*args, path=game)
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert "\n" not in line and words in line
    assert line.startswith(f"sleuth: sleuth {args[0]}, event 5, field '{field}'")
    assert game.read_bytes() == before


def changed(old: str, new: str) -> list[str]:
    """The issue's ``new`` command with one argument replaced."""
    return [new if arg == old else arg for arg in NEW_FIVE]


BAD_SETUPS = [
    (changed("2F,5B,7M,8F", "2F,5B,7M"), "hand", "a list of 4 locations"),
    (changed("2F,5B,7M,8F", "2F,5B,7M,9F"), "hand", "'9F' is not a location"),
    (changed("4F,6B", "4F,2F"), "public", "2F is listed twice"),
    (changed("4F,6B", "4F"), "public", "a list of 2 locations"),
    (changed("Ben=3M", "Ana=3M"), "known", "no token to Ana"),
    (changed("Ben=3M", "Ben=2F"), "known", "listed twice"),
    (changed("Di=1B", "Di=1B,1M"), "known", "I pass 1 token(s) to Di in a 5-player game, got 2"),
    (changed("Ana,Ben,Cy,Di,Ed", "Ana,Ben,Cy,Di"), "hand", "a list of 5 locations"),
]


@pytest.mark.parametrize(("args", "field", "words"), BAD_SETUPS)
def test_bad_setup_is_one_line_exit_2(tmp_path, args, field, words):
    path = tmp_path / "game.yaml"
    result = run(*args, path=path)
    assert result.exit_code == 2 and not path.exists()
    line = result.stderr.strip()
    assert "\n" not in line and words in line
    assert line.startswith(f"sleuth: sleuth new, setup, field '{field}'")
    path.write_text("kept\n")
    assert run(*args, "--force", path=path).exit_code == 2 and path.read_text() == "kept\n"


BAD_FILES = [
    ("  - ask: {by: Ana, to: Ben, range: N-Q, answer: 1}\n", "event 1, field 'range'"),
    (
        "  - ask: {by: Ana, to: Ben, range: N-S, terrain: sand, answer: 1}\n",
        "event 1, field 'terrain'",
    ),
    ("  - accuse: {by: Ana, locations: [1B], correct: false}\n", "event 1, field 'locations'"),
]


@pytest.mark.parametrize(("event", "where"), BAD_FILES)
def test_bad_record_file_names_the_file_event_and_field(tmp_path, event, where):
    path = tmp_path / "bad.yaml"
    text = "game: lima\nplayers: [Ana, Ben, Cy]\nme: Cy\n"
    text += "hand: [1B, 1F, 1M, 2B, 2F, 2M, 3B]\npublic: [3F]\nevents:\n" + event
    path.write_text(text)
    result = run("report", path=path)
    assert result.exit_code == 2 and path.read_text() == text
    assert result.stderr.strip().startswith(f"sleuth: {path}, {where}")


def test_a_known_token_the_rules_forbid_in_a_file(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "game: lima\nplayers: [Ana, Ben, Cy]\nme: Cy\nhand: [1B, 1F, 1M, 2B, 2F, 2M, 3B]\n"
        "known: {Ana: [4B]}\npublic: [3F]\nevents: []\n"
    )
    result = run("report", path=path)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"sleuth: {path}, setup, field 'known': I pass no token")


def test_an_inconsistent_event_exits_3(game):
    # Ben holds 3M (I passed it to him); a wrong count of my own tokens is refused (issue 20)
    result = run("ask", "Ana", "Ben", "E-SE", "--answer", "0", path=game)
    assert result.exit_code == 3 and "Contradiction" in result.stdout
    assert run("report", path=game).exit_code == 3


def sleuth(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``python -m sleuth`` for real."""
    command = [sys.executable, "-m", "sleuth", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_a_real_subprocess(tmp_path):
    new = sleuth(
        *("new", "lima", "--players", "Ana,Ben,Cy,Di", "--me", "Cy"),
        *("--hand", "1B,2F,3M,5B,8F", "--known", "Ana=4M", "--public", "6F,7B"),
        cwd=tmp_path,
    )
    assert new.returncode == 0, new.stderr
    asked = sleuth("ask", "Di", "Ana", "N-S", "--answer", "3", cwd=tmp_path)
    assert asked.returncode == 0 and "top treasure pairs" in asked.stdout
    data = json.loads(sleuth("report", "--json", cwd=tmp_path).stdout)
    assert data["consistent"] and data["exact"] and data["treasure"]
    before = (tmp_path / "game.yaml").read_bytes()
    bad = sleuth("ask", "Di", "Ana", "N-S", "--answer", "6", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "sleuth ask, event 2, field 'answer'" in bad.stderr
    assert (tmp_path / "game.yaml").read_bytes() == before


@pytest.mark.parametrize("name", ["lima-4p.yaml", "lima-5p.yaml"])
def test_examples_are_games_played_to_the_end(name, tmp_path):
    path = EXAMPLES / name
    record, _ = load(path)
    last = record.events[-1]
    assert last.kind == "accuse" and last.by == record.table.me and last.correct
    record.events.pop()
    before = report(record)
    assert before.consistent and before.odds.exact
    from sleuth.games.lima.advice import check_accusation

    assert check_accusation(before, *last.locations).verdict.startswith("certain")
    shown = sleuth("report", "--file", str(path), cwd=tmp_path)
    assert shown.returncode == 0 and "1 deal fits" in shown.stdout


def test_the_treasure_pairs_are_counted_once_under_the_reports_budget(monkeypatch, tmp_path):
    from rich.console import Console

    from sleuth import analysis
    from sleuth.games.lima import GAME, advice
    from sleuth.render import report_json, show_report

    calls = []
    counted = advice.treasure_pairs

    def spy(report, budget):
        calls.append(budget)
        return counted(report, budget)

    assert GAME.parts["details"] == "sleuth.games.lima.advice:treasure_pairs"
    monkeypatch.setattr(advice, "treasure_pairs", spy)
    record = load(Path(__file__).resolve().parents[2] / "examples" / "lima-4p.yaml")[0]
    assert report(record, 7.0, details=False).made is analysis.UNMADE
    assert calls == []  # a check of one accusation needs no list of every pair
    result = report(record, 7.0)
    assert len(calls) == 1 and 6.0 < calls[0].left() <= 7.0  # the report's own deadline
    show_report(Console(file=io.StringIO()), result)
    assert report_json(result)["treasure"]
    assert len(calls) == 1  # the screens read the pairs the analysis made; none counts
    with pytest.raises(LookupError):
        report(record, 7.0, details=False).details  # noqa: B018 - a screen cannot count them


def test_an_edit_counts_no_treasure_pairs(monkeypatch, tmp_path):
    """``sleuth edit`` shows what the edit made certain and the deals left, never the pairs."""
    from sleuth.games.lima import advice

    calls = []
    counted = advice.treasure_pairs

    def spy(report, budget):
        calls.append(budget)
        return counted(report, budget)

    path = tmp_path / "game.yaml"
    assert run(*NEW_FIVE, path=path).exit_code == 0
    assert run(*SESSION[0], path=path).exit_code == 0
    monkeypatch.setattr(advice, "treasure_pairs", spy)
    edited = run("edit", "1", "answer=0", path=path)
    assert edited.exit_code == 0 and "fit the record" in edited.stdout
    assert calls == []


def test_check_never_says_accuse_once_i_am_out(tmp_path):
    """A wrong accusation puts me out (rulebook: End of Game): even a certain pair is then "not
    allowed", never "accuse now"."""
    path = tmp_path / "game.yaml"
    assert run(*NEW_FIVE, path=path).exit_code == 0
    assert run(*SESSION[0], path=path).exit_code == 0
    assert run("accuse", "Cy", "1F", "3F", "--wrong", path=path).exit_code == 0
    checked = json.loads(run("check", "1M", "2M", "--json", path=path).stdout)
    assert checked["verdict"] == "not allowed: I am out of the game"
    best = run("check", "--best", path=path).stdout
    assert "verdict: not allowed: I am out of the game" in best and "accuse now" not in best
    assert "my wrong accusation at event 2" in best
