"""A game watched at the command line: ``report --public``, and a record without ``me``.

A record without ``me`` is reported from the public events alone, as ``report --public`` reports
the same game kept by a player; what only a player knows, or a command that weighs a move of
mine, is refused in one line (exit 2), and so is a game that cannot be watched.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from invoke import invoker

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RULEBOOK = EXAMPLES / "goldraub-rulebook.yaml"
WATCHED = EXAMPLES / "goldraub-watched.yaml"
LIMA = EXAMPLES / "lima-4p.yaml"
WATCHED_LIMA = """\
game: lima
players: [Ana, Ben, Cy, Di]
public: [1F, 1M]
events:
  - ask: {by: Ana, to: Ben, range: N-S, answer: 2}
  - secret: {by: Ben, to: Cy}
  - accuse: {by: Di, locations: [3F, 7M], correct: false}
"""


@pytest.fixture
def run(monkeypatch, tmp_path):
    """The app in a temporary folder, colourless at 100 columns."""
    return invoker(monkeypatch, tmp_path, 100)


def one_line(result, *words: str) -> None:
    """Unusable input: exit 2 and one line on stderr that says each of ``words``."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and all(w in lines[0] for w in words), lines


def cut(record: Path, events: int, folder: Path) -> Path:
    """A copy of a shipped record (one event a line) with its first ``events`` events only."""
    lines = record.read_text().splitlines(True)
    path = folder / f"{record.stem}-{events}.yaml"
    path.write_text("".join(lines[: lines.index("events:\n") + 1 + events]))
    return path


@pytest.mark.parametrize("upto", ["0", "12", "30"])
def test_a_watched_record_reports_as_report_public_of_a_players_record(run, upto):
    watched = run("report", "-f", WATCHED, "--upto", upto, "--json")
    public = run("report", "-f", RULEBOOK, "--upto", upto, "--json", "--public")
    own = run("report", "-f", RULEBOOK, "--upto", upto, "--json")
    assert watched.exit_code == public.exit_code == own.exit_code == 0
    assert json.loads(watched.stdout) == json.loads(public.stdout)
    assert json.loads(public.stdout)["worlds"] > json.loads(own.stdout)["worlds"]
    text = [
        run("report", "-f", f, "--upto", upto, *p)
        for f, p in ((WATCHED, ()), (RULEBOOK, ("--public",)))
    ]
    assert text[0].stdout == text[1].stdout and "each player" in text[0].stdout


def test_lima_public_drops_my_hand_and_what_i_passed_on(run):
    public = json.loads(run("report", "-f", LIMA, "--upto", "6", "--json", "--public").stdout)
    own = json.loads(run("report", "-f", LIMA, "--upto", "6", "--json").stdout)
    me = "Cy"
    assert max(own["probability"][me].values()) == 1
    assert max(public["probability"][me].values()) < 1
    assert public["worlds"] > own["worlds"]


def test_a_watched_lima_record_is_reported_and_its_log_kept(run, tmp_path):
    path = tmp_path / "watched.yaml"
    path.write_text(WATCHED_LIMA)
    result = run("report", "-f", path, "--json")
    assert result.exit_code == 0, result.stderr
    assert set(json.loads(result.stdout)["probability"]) >= {"Ana", "Ben", "Cy", "Di"}
    assert run("ask", "cy", "di", "S-N", "--answer", "1", "-f", path).exit_code == 0
    keys = {line.partition(":")[0] for line in path.read_text().splitlines()}
    assert "me" not in keys and "hand" not in keys and "  - ask" in keys


@pytest.mark.parametrize(
    ("command", "field"),
    [(("check", "Anton", "33"), "me"), (("next",), "me"), (("check", "--best"), "me")],
)
def test_a_move_of_mine_is_refused_in_a_watched_game(run, command, field):
    one_line(run(*command, "-f", WATCHED, "--upto", "6"), "sleuth", f"field '{field}'", "watched")


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ("hand: [22, 45, 63]\n", "hand"),
        ("events:\n  - search: {by: Anton, row: 31-36, gold: 2, saw: 1}\n", "saw"),
    ],
)
def test_what_only_a_player_knows_is_refused_in_a_watched_goldraub_record(
    run, tmp_path, extra, field
):
    path = tmp_path / "watched.yaml"
    path.write_text("game: goldraub\nplayers: [Anton, Bert, Christl, Doris, Elli]\n" + extra)
    one_line(run("report", "-f", path), "watched.yaml", f"field '{field}'", "without 'me'")


@pytest.mark.parametrize(
    ("setup", "event", "field"),
    [
        ("hand: [2F, 3B, 3M, 8B, 8F]\n", "", "hand"),
        ("known: {Di: [7B]}\n", "", "known"),
        ("", "  - secret: {by: Ben, to: Cy, range: N-S, answer: 1}\n", "range"),
        (
            "",
            "  - accuse: {by: Ben, locations: [3F, 7M], correct: false, treasure: [1B, 2B]}\n",
            "treasure",
        ),
    ],
)
def test_what_only_a_player_knows_is_refused_in_a_watched_lima_record(
    run, tmp_path, setup, event, field
):
    path = tmp_path / "watched.yaml"
    path.write_text(WATCHED_LIMA.replace("events:\n", f"{setup}events:\n{event}"))
    one_line(run("report", "-f", path), "watched.yaml", f"field '{field}'")


@pytest.mark.parametrize("example", ["scotland-yard-4p", "looting-london-4p"])
def test_a_game_that_cannot_be_watched_says_so(run, tmp_path, example):
    text = (EXAMPLES / f"{example}.yaml").read_text()
    path = tmp_path / "watched.yaml"
    path.write_text("".join(line for line in text.splitlines(True) if not line.startswith("me:")))
    one_line(run("report", "-f", path), "watched.yaml", "field 'me'", "missing")
    for command in ("report", "replay"):
        one_line(run(command, "--public", "-f", EXAMPLES / f"{example}.yaml"), command, "'public'")


def test_a_watched_replay_judges_every_guess_and_misses_none(run, tmp_path):
    path = cut(WATCHED, 20, tmp_path)
    data = json.loads(run("replay", "-f", path, "--json").stdout)
    assert data["missed"] == [] and len(data["guesses"]) > 0
    text = run("replay", "-f", path).stdout
    assert "My points" not in text and "Hands known" in text


def test_new_without_me_and_hand_starts_a_watched_record(run, tmp_path):
    started = run("new", "goldraub", "--players", "Anton,Bert,Christl", "-f", "w.yaml")
    assert started.exit_code == 0 and "watched" in started.stdout
    keys = {line.partition(":")[0] for line in (tmp_path / "w.yaml").read_text().splitlines()}
    assert "me" not in keys and "hand" not in keys
    one_line(run("search", "an", "31-36", "--gold", "1", "--saw", "1", "-f", "w.yaml"), "'saw'")
    one_line(
        run("new", "lima", "--players", "A,B,C", "--hand", "1F", "--public", "2F", "-f", "x.yaml"),
        "'hand'",
    )


def test_replay_public_is_the_replay_of_the_game_watched(run, tmp_path):
    """``replay --public`` of a player's record: the watched record's replay, not the player's."""
    public = run("replay", "-f", cut(RULEBOOK, 12, tmp_path), "--json", "--public")
    watched = run("replay", "-f", cut(WATCHED, 12, tmp_path), "--json")
    own = run("replay", "-f", cut(RULEBOOK, 12, tmp_path), "--json")
    assert public.exit_code == watched.exit_code == own.exit_code == 0, public.stderr
    assert json.loads(public.stdout) == json.loads(watched.stdout) != json.loads(own.stdout)


@pytest.mark.parametrize(
    "asked", [("Doris", "47", "--upto", "16", "--all"), ("Bert", "11", "--upto", "40")]
)
def test_why_public_is_the_why_of_the_game_watched(run, asked):
    """An open fact's every move and a certain fact's proof, as a spectator has them."""
    public = run("why", *asked, "-f", RULEBOOK, "--public")
    watched = run("why", *asked, "-f", WATCHED)
    own = run("why", *asked, "-f", RULEBOOK)
    assert public.exit_code == watched.exit_code == own.exit_code == 0, public.stderr
    assert public.stdout == watched.stdout != own.stdout
