"""The command line through Typer's CliRunner and through a real subprocess, in a temp dir.

Exit status: 0 consistent, 3 inconsistent record, 2 unusable input (one line on stderr naming
the command or file, the event and the field; the record file unchanged byte for byte).
"""

import importlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from invoke import plain_env
from records import GUESS_LINE, HEAD, SEARCH_LINE
from ruamel.yaml import YAML
from typer.testing import CliRunner

import sleuth.cli  # noqa: F401 - registers the game commands
from sleuth.record import parse
from sleuth.solve import count

PLAYERS = "Anton,Bert,Christl,Doris,Elli"
NEW = ["new", "goldraub", "--players", PLAYERS, "--me", "Christl", "--hand", "22,45,63"]
SEARCH = ["search", "an", "31-36", "--gold", "2", "--saw", "1"]
GUESS = ["guess", "dor", "bert", "32", "--correct"]
cli_app = importlib.import_module("sleuth.cli.app")  # sleuth.cli.app is also the Typer app
KEYS = {"game", "consistent", "worlds", "exact", "probability", "forced"}


@pytest.fixture
def environment(monkeypatch, tmp_path) -> cli_app.Env:
    """A clean environment for the app, colourless wide consoles, and tmp_path as the cwd."""
    monkeypatch.chdir(tmp_path)
    return plain_env(200)


@pytest.fixture
def environ(environment) -> dict:
    """The variables the commands see (a test may set some)."""
    return environment.environ


@pytest.fixture
def run(environment):
    """Invoke the app in-process: run("search", "an", ...)."""
    runner = CliRunner()
    return lambda *args: runner.invoke(cli_app.app, [str(a) for a in args], obj=environment)


def sub(cwd: Path, *args, **extra: str) -> subprocess.CompletedProcess:
    """Run ``python -m sleuth`` in ``cwd``, with a clean SLEUTH_FILE and no colour."""
    env = {k: v for k, v in os.environ.items() if k != "SLEUTH_FILE"}
    env.update(NO_COLOR="1", COLUMNS="200", **extra)
    command = [sys.executable, "-m", "sleuth", *map(str, args)]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def one_error(stderr: str, *parts: str) -> str:
    """The single line on stderr, checked to contain every one of ``parts``."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


def loaded(path: Path) -> dict:
    """The YAML file as plain data."""
    return YAML(typ="safe").load(path.read_text())


def worlds(path: Path) -> int:
    """The exact world count of the record at ``path``, from the core."""
    return count(parse(loaded(path), str(path)).model()).total


# A game at the table, in-process.


def test_new_writes_the_setup(run, tmp_path):
    result = run(*NEW)
    assert result.exit_code == 0, result.output
    assert "started game.yaml" in result.stdout and "me: Christl" in result.stdout
    assert (tmp_path / "game.yaml").read_text() == HEAD + "events: []\n"


def test_new_says_what_it_started_on_one_line_however_long_the_path(run, tmp_path):
    """Piped, the console is 80 columns wide (the tests' 200): the line is not broken."""
    deep = tmp_path / ("a-long-folder-name-" * 4) / "the-record-of-tonights-game.yaml"
    deep.parent.mkdir()
    result = run(*NEW, "-f", deep)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"started {deep}: goldraub, {PLAYERS.replace(',', ', ')}; me: Christl\n"


@pytest.mark.parametrize(("game", "hint"), [("chess", ""), ("Lima", " (did you mean lima?)")])
def test_new_names_the_games_it_knows(run, tmp_path, game, hint):
    result = run("new", game, *NEW[2:])
    assert result.exit_code == 2
    known = "goldraub, lima, loot-the-loop, looting-london, scotland-yard"
    one_error(result.stderr, " new: ", f"{game!r} is not a game: {known}{hint}")
    assert not (tmp_path / "game.yaml").exists()


def test_new_refuses_to_overwrite_without_force(run, tmp_path):
    run(*NEW)
    before = (tmp_path / "game.yaml").read_bytes()
    result = run(*NEW[:-1], "11,12,13")
    assert result.exit_code == 2
    one_error(result.stderr, "sleuth new", "exists")
    assert (tmp_path / "game.yaml").read_bytes() == before
    assert run(*NEW[:-1], "11,12,13", "--force").exit_code == 0
    assert loaded(tmp_path / "game.yaml")["hand"] == [11, 12, 13]


def test_search_and_guess_append_events_in_the_contract_shape(run, tmp_path):
    run(*NEW)
    result = run(*SEARCH)
    assert result.exit_code == 0, result.output
    assert "recorded: search {by: Anton, row: 31-36, gold: 2, saw: 1}" in result.stdout
    assert "nothing new is certain" in result.stdout
    assert (tmp_path / "game.yaml").read_text() == HEAD + "events:\n" + SEARCH_LINE
    result = run(*GUESS)
    assert result.exit_code == 0, result.output
    assert "now certain: Bert holds 32" in result.stdout
    assert f"{worlds(tmp_path / 'game.yaml'):,} deals still possible" in result.stdout
    text = (tmp_path / "game.yaml").read_text()
    assert text == HEAD + "events:\n" + SEARCH_LINE + GUESS_LINE
    assert loaded(tmp_path / "game.yaml")["events"] == [
        {"search": {"by": "Anton", "row": "31-36", "gold": 2, "saw": 1}},
        {"guess": {"by": "Doris", "owner": "Bert", "sector": 32, "correct": True}},
    ]


def test_search_keeps_at_and_reversed_row(run, tmp_path):
    run(*NEW)
    assert run("search", "anton", "36-31", "--gold", "1", "--saw", "1", "--at", "22").exit_code == 0
    event = loaded(tmp_path / "game.yaml")["events"][0]
    assert event == {"search": {"by": "Anton", "row": "31-36", "gold": 1, "saw": 1, "at": 22}}


def test_undo_removes_the_last_event(run, tmp_path):
    run(*NEW)
    run(*SEARCH)
    run(*GUESS)
    result = run("undo")
    assert result.exit_code == 0
    assert "removed: guess {by: Doris, owner: Bert, sector: 32, correct: true}" in result.stdout
    assert (tmp_path / "game.yaml").read_text() == HEAD + "events:\n" + SEARCH_LINE
    assert run("undo").exit_code == 0
    before = (tmp_path / "game.yaml").read_bytes()
    result = run("undo")
    assert result.exit_code == 2
    one_error(result.stderr, "sleuth undo", "field 'events'")
    assert (tmp_path / "game.yaml").read_bytes() == before


def test_report_text_and_json(run, tmp_path):
    run(*NEW)
    run(*SEARCH)
    run(*GUESS)
    result = run("report")
    assert result.exit_code == 0
    assert "deals fit the record (exact count)" in result.stdout
    assert "Certain" in result.stdout and "Bert" in result.stdout
    result = run("report", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) >= KEYS
    assert data["game"] == "goldraub" and data["consistent"] is True and data["exact"] is True
    assert data["worlds"] == worlds(tmp_path / "game.yaml")
    assert ["Bert", "32"] in data["forced"]
    assert isinstance(data["worlds"], int)
    assert set(data["probability"]) == {"Anton", "Bert", "Christl", "Doris", "Elli", "aside"}
    mine = {str(s) for s in loaded(tmp_path / "game.yaml")["hand"]}
    for holder, row in data["probability"].items():
        assert len(row) == 37, holder
    assert data["probability"]["Bert"]["32"] == 1.0
    assert all(data["probability"]["Christl"][s] == 1.0 for s in mine)
    assert not [pair for pair in data["forced"] if pair[0] == "Christl"]
    for sector in data["probability"]["Anton"]:
        total = sum(row[sector] for row in data["probability"].values())
        assert total == pytest.approx(1.0)


def test_check_one_guess_and_the_best(run):
    run(*NEW)
    run(*SEARCH)
    result = run("check", "bert", "33")
    assert result.exit_code == 0, result.output
    assert "Bert holds 33: probability" in result.stdout
    assert "may I guess now: yes" in result.stdout
    for args in (["check", "--best"], ["check"]):
        result = run(*args)
        assert result.exit_code == 0, result.output
        assert "Best guesses now" in result.stdout


def test_inconsistent_record_exits_3(run, tmp_path):
    run(*NEW)
    run(*SEARCH)
    result = run("search", "christl", "31-36", "--gold", "0")
    assert result.exit_code == 3
    assert "Contradiction" in result.stdout
    assert len(loaded(tmp_path / "game.yaml")["events"]) == 2
    result = run("report", "--json")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert KEYS | {"conflict", "repairs"} <= set(data)
    assert data["consistent"] is False and data["conflict"] == [1, 2]
    assert isinstance(data["repairs"], list)
    assert run("report").exit_code == 3
    assert run("check", "bert", "32").exit_code == 3
    assert run("undo").exit_code == 0
    assert run("report").exit_code == 0


def test_file_option_and_environment_variable(run, environ, tmp_path):
    assert run(*NEW, "--file", "a.yaml").exit_code == 0
    assert run(*SEARCH, "-f", "a.yaml").exit_code == 0
    assert len(loaded(tmp_path / "a.yaml")["events"]) == 1
    environ["SLEUTH_FILE"] = "b.yaml"
    assert run(*NEW).exit_code == 0
    assert run(*GUESS).exit_code == 0
    assert len(loaded(tmp_path / "b.yaml")["events"]) == 1
    assert run(*GUESS, "-f", "a.yaml").exit_code == 0
    assert len(loaded(tmp_path / "a.yaml")["events"]) == 2
    assert not (tmp_path / "game.yaml").exists()
    assert json.loads(run("report", "--json").stdout)["worlds"] == worlds(tmp_path / "b.yaml")


def test_player_prefixes(run, tmp_path):
    run("new", "goldraub", "--players", "Anton,Andrea,Bert", "--me", "b", "--hand", "11,12,13")
    assert loaded(tmp_path / "game.yaml")["me"] == "Bert"
    before = (tmp_path / "game.yaml").read_bytes()
    result = run("search", "an", "31-36", "--gold", "1")
    assert result.exit_code == 2
    one_error(result.stderr, "sleuth search", "event 1", "field 'by'", "Anton", "Andrea")
    assert (tmp_path / "game.yaml").read_bytes() == before
    assert run("search", "ant", "31-36", "--gold", "1").exit_code == 0
    assert run("search", "ANDR", "31-36", "--gold", "1").exit_code == 0
    assert [e["search"]["by"] for e in loaded(tmp_path / "game.yaml")["events"]] == [
        "Anton",
        "Andrea",
    ]


# Bad input: one line on stderr, exit 2, the record unchanged.

BAD_COMMANDS = [
    (["search", "Xaver", "31-36", "--gold", "1"], "by"),
    (["search", "Anton", "31-37", "--gold", "1"], "row"),
    (["search", "Anton", "11-22", "--gold", "1"], "row"),
    (["search", "Anton", "31-36", "--gold", "5"], "gold"),
    (["search", "Anton", "31-36", "--gold", "-1"], "gold"),
    (["search", "Christl", "31-36", "--gold", "1", "--saw", "0"], "saw"),
    (["search", "Bert", "31-36", "--gold", "1", "--saw", "0"], "saw"),
    (["search", "Elli", "31-36", "--gold", "1", "--saw", "2"], "saw"),
    (["search", "Anton", "31-36", "--gold", "2", "--saw", "2"], "saw"),
    (["search", "Anton", "31-36", "--gold", "1", "--at", "1"], "at"),
    (["guess", "Doris", "Bert", "38", "--wrong"], "sector"),
    (["guess", "Doris", "Xaver", "32", "--wrong"], "owner"),
    (["guess", "Bert", "Bert", "32", "--correct"], "owner"),
]


@pytest.mark.parametrize(("args", "field"), BAD_COMMANDS)
def test_bad_event_from_the_command_line(run, tmp_path, args, field):
    run(*NEW)
    run(*SEARCH)
    before = (tmp_path / "game.yaml").read_bytes()
    result = run(*args)
    assert result.exit_code == 2
    one_error(result.stderr, f"sleuth {args[0]}", "event 2", f"field '{field}'")
    assert result.stdout == ""
    assert (tmp_path / "game.yaml").read_bytes() == before


BAD_HANDS = [("22,45", "hand"), ("22,22,45", "hand"), ("22,45,63,64", "hand"), ("22,45,88", "hand")]


@pytest.mark.parametrize(("hand", "field"), BAD_HANDS)
def test_bad_hand_for_new(run, tmp_path, hand, field):
    result = run(*NEW[:-1], hand)
    assert result.exit_code == 2
    one_error(result.stderr, "sleuth new", "setup", f"field '{field}'")
    assert not (tmp_path / "game.yaml").exists()
    run(*NEW)
    before = (tmp_path / "game.yaml").read_bytes()
    result = run(*NEW[:-1], hand, "--force")
    assert result.exit_code == 2
    one_error(result.stderr, "sleuth new", "setup", f"field '{field}'")
    assert (tmp_path / "game.yaml").read_bytes() == before


def test_bad_me_for_new(run, tmp_path):
    result = run("new", "goldraub", "--players", PLAYERS, "--me", "Xaver", "--hand", "22,45,63")
    assert result.exit_code == 2
    one_error(result.stderr, "sleuth new", "field 'me'")
    assert not (tmp_path / "game.yaml").exists()


GOOD = "  - search: {by: Anton, row: 31-36, gold: 2, saw: 1}\n"
BAD_EVENTS = [
    ("  - search: {by: Xaver, row: 31-36, gold: 1}\n", "by"),
    ("  - search: {by: Anton, row: 31-37, gold: 1}\n", "row"),
    ("  - search: {by: Anton, row: 31-36, gold: 5}\n", "gold"),
    ("  - search: {by: Christl, row: 31-36, gold: 1, saw: 0}\n", "saw"),
    ("  - search: {by: Bert, row: 31-36, gold: 1, saw: 0}\n", "saw"),
    ("  - search: {by: Elli, row: 31-36, gold: 1, saw: 2}\n", "saw"),
    ("  - guess: {by: Doris, owner: Bert, sector: 38, correct: false}\n", "sector"),
    ("  - guess: {by: Bert, owner: Bert, sector: 32, correct: true}\n", "owner"),
    ("  - peek: {by: Bert, owner: Anton}\n", "kind"),
]


def written(tmp_path: Path, text: str) -> Path:
    """A hand-written record file."""
    path = tmp_path / "game.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(("line", "field"), BAD_EVENTS)
@pytest.mark.parametrize("command", [["report"], ["report", "--json"], ["check"], SEARCH, ["undo"]])
def test_bad_event_in_a_written_file(run, tmp_path, line, field, command):
    path = written(tmp_path, HEAD + "events:\n" + GOOD + line)
    before = path.read_bytes()
    result = run(*command)
    assert result.exit_code == 2
    one_error(result.stderr, "game.yaml", "event 2", f"field '{field}'")
    assert path.read_bytes() == before


BAD_SETUPS = [
    ("hand: [22, 45]\n", "setup, field 'hand'"),
    ("hand: [22, 45, 45]\n", "setup, field 'hand'"),
    ("hand: [22, 45, 63, 64]\n", "setup, field 'hand'"),
    ("hand: [22, 45, 99]\n", "setup, field 'hand'"),
]


@pytest.mark.parametrize(("hand", "where"), BAD_SETUPS)
@pytest.mark.parametrize("command", [["report"], SEARCH])
def test_bad_hand_in_a_written_file(run, tmp_path, hand, where, command):
    text = HEAD.replace("hand: [22, 45, 63]\n", hand) + "events:\n" + GOOD
    path = written(tmp_path, text)
    result = run(*command)
    assert result.exit_code == 2
    one_error(result.stderr, "game.yaml", where)
    assert path.read_bytes() == text.encode()


MALFORMED = [
    HEAD.replace("[22, 45, 63]", "[22, 45, 63") + "events: []\n",
    HEAD + "events:\n  - search: {by: Anton, row: 31-36, gold: 2\n",
    HEAD + "events:\n\t- search: {by: Anton}\n",
    "game: goldraub\n  players: [A, B]\n me: A\n",
]


@pytest.mark.parametrize("text", MALFORMED)
@pytest.mark.parametrize("command", [["report"], SEARCH, GUESS, ["undo"]])
def test_malformed_yaml(run, tmp_path, text, command):
    path = written(tmp_path, text)
    result = run(*command)
    assert result.exit_code == 2
    one_error(result.stderr, "game.yaml", "malformed YAML")
    assert path.read_bytes() == text.encode()


@pytest.mark.parametrize("game", ["[goldraub]", "{name: goldraub}"])
def test_game_that_is_not_a_name(run, tmp_path, game):
    path = written(tmp_path, HEAD.replace("game: goldraub", f"game: {game}") + "events: []\n")
    before = path.read_bytes()
    result = run("report")
    assert result.exit_code == 2
    one_error(result.stderr, "game.yaml", "field 'game'")
    assert path.read_bytes() == before


def test_missing_file(run, tmp_path):
    result = run("report", "-f", "nowhere.yaml")
    assert result.exit_code == 2
    one_error(result.stderr, "nowhere.yaml")
    assert not (tmp_path / "nowhere.yaml").exists()


def test_appending_to_a_written_file_keeps_its_text_and_comments(run, tmp_path):
    text = HEAD.replace("me: Christl\n", "me: Christl  # that's me\n") + "events:\n" + GOOD
    path = written(tmp_path, "# game night\n" + text)
    assert run(*GUESS).exit_code == 0
    after = path.read_text()
    assert after.startswith("# game night\n") and "# that's me" in after
    assert after.endswith(GOOD + GUESS_LINE)


def test_check_with_a_bad_sector_or_owner(run, tmp_path):
    run(*NEW)
    for args, field in ((["check", "bert", "38"], "sector"), (["check", "xa", "32"], "owner")):
        result = run(*args)
        assert result.exit_code == 2
        one_error(result.stderr, "sleuth check", f"field '{field}'")


# The same through a real process.


def test_subprocess_game(tmp_path):
    assert sub(tmp_path, *NEW).returncode == 0
    result = sub(tmp_path, *SEARCH)
    assert result.returncode == 0, result.stderr
    assert "recorded: search {by: Anton, row: 31-36, gold: 2, saw: 1}" in result.stdout
    result = sub(tmp_path, *GUESS)
    assert result.returncode == 0, result.stderr
    assert "now certain: Bert holds 32" in result.stdout
    assert (tmp_path / "game.yaml").read_text() == HEAD + "events:\n" + SEARCH_LINE + GUESS_LINE
    result = sub(tmp_path, "report", "--json")
    assert result.returncode == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    assert set(data) >= KEYS and data["worlds"] == worlds(tmp_path / "game.yaml")
    result = sub(tmp_path, "check", "--best")
    assert result.returncode == 0 and "Best guesses now" in result.stdout
    result = sub(tmp_path, "undo")
    assert result.returncode == 0 and "removed: guess" in result.stdout
    assert (tmp_path / "game.yaml").read_text() == HEAD + "events:\n" + SEARCH_LINE


@pytest.mark.skipif(not hasattr(signal, "SIGPIPE"), reason="no SIGPIPE here")
def test_subprocess_closed_pipe_ends_quietly(tmp_path):
    sub(tmp_path, *NEW)
    env = {k: v for k, v in os.environ.items() if k != "SLEUTH_FILE"}
    command = [sys.executable, "-m", "sleuth", "report"]
    child = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    child.stdout.close()  # the reader goes away before the report is written (| head -0)
    stderr = child.stderr.read()
    assert child.wait(timeout=120) == -signal.SIGPIPE and stderr == b""


def test_subprocess_inconsistent_and_bad_input(tmp_path):
    sub(tmp_path, *NEW)
    sub(tmp_path, *SEARCH)
    assert sub(tmp_path, "search", "christl", "31-36", "--gold", "0").returncode == 3
    result = sub(tmp_path, "report", "--json")
    assert result.returncode == 3 and json.loads(result.stdout)["conflict"] == [1, 2]
    before = (tmp_path / "game.yaml").read_bytes()
    result = sub(tmp_path, "search", "Xaver", "31-36", "--gold", "1")
    assert result.returncode == 2 and result.stdout == ""
    one_error(result.stderr, "sleuth search", "event 3", "field 'by'")
    result = sub(tmp_path, "search", "Anton", "31-36", "--gold", "2", "--saw", "2")
    assert result.returncode == 2
    one_error(result.stderr, "sleuth search", "event 3", "field 'saw'")
    assert (tmp_path / "game.yaml").read_bytes() == before


def test_subprocess_written_file_and_environment(tmp_path):
    path = written(tmp_path, HEAD + "events:\n" + GOOD + "  - peek: {by: Bert}\n")
    result = sub(tmp_path, "report", SLEUTH_FILE="game.yaml")
    assert result.returncode == 2
    one_error(result.stderr, "game.yaml", "event 2", "field 'kind'")
    (tmp_path / "ok.yaml").write_text(HEAD + "events:\n" + GOOD)
    result = sub(tmp_path, "report", "--json", SLEUTH_FILE="ok.yaml")
    assert result.returncode == 0 and json.loads(result.stdout)["consistent"] is True
    result = sub(tmp_path, *GUESS, SLEUTH_FILE="ok.yaml")
    assert result.returncode == 0
    assert (tmp_path / "ok.yaml").read_text().endswith(GUESS_LINE)
    path.write_text(HEAD.replace("[22, 45, 63]", "[22, 45"))
    result = sub(tmp_path, *GUESS, "--file", "game.yaml", SLEUTH_FILE="ok.yaml")
    assert result.returncode == 2
    one_error(result.stderr, "game.yaml", "malformed YAML")


def test_the_command_line_and_the_core_give_an_answer_the_same_time():
    from sleuth.budget import DEFAULT_BUDGET

    assert cli_app.BUDGET == DEFAULT_BUDGET


# sleuth alone, and sleuth help (issue 28, item 10).


def test_sleuth_alone_is_a_short_usage_naming_new_and_play_first(tmp_path):
    done = sub(tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) <= 8 and all(len(line) <= 80 for line in lines), done.stderr
    assert lines[0].startswith("usage: sleuth new GAME") and "sleuth play" in lines[2]
    assert "sleuth help" in done.stderr


def test_sleuth_help_lists_every_command_and_one_commands_options(run):
    every = run("help")
    assert every.exit_code == 0
    assert all(name in every.output for name in ("new", "play", "search", "ask", "replay"))
    search = run("help", "search")
    assert search.exit_code == 0 and "--gold" in search.output and "--saw" in search.output
    wrong = run("help", "serch")
    assert wrong.exit_code == 2
    one_error(wrong.stderr, "sleuth help", "'serch' is not a command", "did you mean search?")
