"""Editing by number and analysis at a point (issue 20 item 2 and 7, issue 21 item 3).

``log [--json]``, ``delete N``, ``--before N`` on every recording command, ``--upto N`` on
``report`` and ``check``, what ``edit`` and ``undo`` print, ``--version`` and the shell's
completion of player names: through CliRunner, and one real subprocess. A refused command
leaves the record byte for byte as it was.
"""

import importlib
import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from invoke import plain_env
from records import HEAD
from ruamel.yaml import YAML
from test_startup import loaded as heavy
from typer.testing import CliRunner

import sleuth.cli  # noqa: F401 - registers the game commands
from sleuth.analysis import report
from sleuth.record import parse

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
cli_app = importlib.import_module("sleuth.cli.app")  # sleuth.cli.app is also the Typer app
GOLDRAUB = ["new", "goldraub", "--players", "Anton,Bert,Christl,Doris,Elli", "--me", "Christl"]
GOLDRAUB += ["--hand", "22,45,63"]
LIMA = ["new", "lima", "--players", "Ana,Ben,Cy,Di,Ed", "--me", "Cy", "--hand", "2F,5B,7M,8F"]
LIMA += ["--known", "Ben=3M", "--known", "Di=1B", "--public", "4F,6B"]


@pytest.fixture
def environment(monkeypatch, tmp_path) -> cli_app.Env:
    """A clean environment for the app, colourless 80-column consoles, tmp_path as the cwd."""
    monkeypatch.chdir(tmp_path)
    return plain_env(80, 200)


@pytest.fixture
def environ(environment) -> dict:
    """The variables the commands see (a test may set some)."""
    return environment.environ


@pytest.fixture
def run(environment):
    """Invoke the app in-process: run("log", "--json")."""
    runner = CliRunner()
    return lambda *args: runner.invoke(cli_app.app, [str(a) for a in args], obj=environment)


def copied(name: str, folder: Path) -> Path:
    """A copy of a shipped example in ``folder``, as ./game.yaml."""
    path = folder / "game.yaml"
    path.write_bytes((EXAMPLES / name).read_bytes())
    return path


def events(path: Path) -> list:
    """The record's events as plain data, as a YAML reader sees the file."""
    return YAML(typ="safe").load(path.read_text())["events"] or []


def record(path: Path):
    """The record at ``path``, parsed."""
    return parse(YAML(typ="safe").load(path.read_text()), str(path))


def one_error(stderr: str, *parts: str) -> str:
    """The single line on stderr, checked to contain every one of ``parts``."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    for part in parts:
        assert part in lines[0], lines[0]
    return lines[0]


def refused(run, path: Path, *args, parts: tuple[str, ...]) -> None:
    """The command exits 2 with one line naming ``parts``, and the file is left byte for byte."""
    before = path.read_bytes()
    result = run(*args)
    assert result.exit_code == 2, result.output
    one_error(result.stderr, *parts)
    assert path.read_bytes() == before


# log


@pytest.mark.parametrize("example", ["goldraub-rulebook.yaml", "lima-5p.yaml"])
def test_log_numbers_every_event_from_1_within_80_columns(run, tmp_path, example):
    path = copied(example, tmp_path)
    result = run("log")
    assert result.exit_code == 0, result.output
    first, *lines = result.stdout.splitlines()
    texts = [event.text() for event in record(path).events]
    assert first == f"game.yaml: {len(texts)} events"
    assert all(len(line) <= 80 and line == line.rstrip() for line in lines)
    shown: list[str] = []
    for line in lines:  # a long event wraps under its text
        number, _, text = line.strip().partition(" ")
        if line[: len(str(len(texts)))].strip():
            assert int(number) == len(shown) + 1
            shown.append(text)
        else:
            shown[-1] += " " + line.strip()
    assert shown == texts


@pytest.mark.parametrize("example", ["goldraub-rulebook.yaml", "lima-4p.yaml", "lima-5p.yaml"])
def test_log_json_is_the_file_s_events_with_their_index(run, tmp_path, example):
    path = copied(example, tmp_path)
    result = run("log", "--json")
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    assert listed == [{"index": n, **item} for n, item in enumerate(events(path), 1)]
    assert all(next(iter(item)) == "index" for item in listed)


def test_log_json_keeps_the_file_s_own_spelling(run, tmp_path):
    reversed_row = "  - search: {by: Bert, row: 67-63, gold: 1}\n"
    (tmp_path / "game.yaml").write_text(HEAD + "events:\n" + reversed_row)
    assert json.loads(run("log", "--json").stdout) == [
        {"index": 1, "search": {"by": "Bert", "row": "67-63", "gold": 1}}
    ]
    assert run("log").stdout.splitlines()[1] == "1 search {by: Bert, row: 63-67, gold: 1}"


def test_log_of_a_record_without_events(run, tmp_path):
    assert run(*GOLDRAUB).exit_code == 0
    assert run("log").stdout == "game.yaml: no events yet\n"
    assert json.loads(run("log", "--json").stdout) == []


def test_log_of_no_record_is_one_line(run, tmp_path):
    result = run("log")
    assert result.exit_code == 2
    one_error(result.stderr, "game.yaml", "no such record")


# delete


def test_delete_removes_one_event_and_the_later_ones_move_up(run, tmp_path):
    path = copied("goldraub-rulebook.yaml", tmp_path)
    before, texts = events(path), [event.text() for event in record(path).events]
    result = run("delete", "3")
    assert result.exit_code == 0, result.output
    last = len(before)
    assert result.stdout == (
        f"removed event 3: {texts[2]}\n  the old events 4-{last} are now 3-{last - 1}\n"
    )
    assert events(path) == before[:2] + before[3:]
    listed = json.loads(run("log", "--json").stdout)
    assert [item["index"] for item in listed] == list(range(1, last))
    assert listed[2] == {"index": 3, **before[3]}
    result = run("delete", str(last - 1))
    assert result.stdout == f"removed event {last - 1}: {texts[-1]}\n"
    assert events(path) == before[:2] + before[3:-1]


def test_delete_out_of_range_is_refused(run, tmp_path):
    path = copied("lima-4p.yaml", tmp_path)
    count = len(events(path))
    for number in (0, count + 1):
        parts = ("sleuth delete", "field 'event'", f"1 to {count}")
        refused(run, path, "delete", number, parts=parts)
    refused(run, path, "delete", "--", "-1", parts=("sleuth delete", "field 'event'"))
    run("new", *GOLDRAUB[1:], "--force")
    refused(run, path, "delete", "1", parts=("sleuth delete", "the record has none"))


THREE = ["new", "goldraub", "--players", "Anton,Bert,Christl", "--me", "Christl"]
TWO_ROUNDS = [  # Bert guesses wrong in round 1, then again in round 2
    ["search", "anton", "31-36", "--gold", "1"],
    ["guess", "bert", "anton", "32", "--wrong"],
    ["search", "bert", "31-36", "--gold", "0"],
    ["search", "christl", "41-47", "--gold", "1"],
    ["guess", "bert", "anton", "33", "--wrong"],
]


def test_delete_that_leaves_a_forbidden_record_is_refused(run, tmp_path):
    """Without event 3, Bert's two wrong guesses fall in one round: the rules forbid it."""
    typed(run, [*THREE, "--hand", "22,45,63"], TWO_ROUNDS)
    path = tmp_path / "game.yaml"
    parts = ("sleuth delete, event 5, field 'by'", "may not guess", "(with event 3 deleted)")
    refused(run, path, "delete", "3", parts=parts)
    assert run("delete", "5").exit_code == 0


def test_delete_may_repair_a_record_that_is_already_forbidden(run, tmp_path):
    typed(run, [*THREE, "--hand", "22,45,63"], TWO_ROUNDS)
    path = tmp_path / "game.yaml"
    doc = YAML().load(path)
    del doc["events"][2]
    YAML().dump(doc, path)
    assert run("report").exit_code == 2
    assert run("delete", "1").exit_code == 0
    assert run("report").exit_code == 2  # still forbidden: the delete made it no worse
    assert run("delete", "3").exit_code == 0
    assert run("report").exit_code == 0


@pytest.mark.parametrize("typed", ["1_0", "１", "٣", "+1", " 1", "1e1", "0x1", "9" * 5000])
@pytest.mark.parametrize("command", ["delete", "edit", "report --upto", "search --before"])
def test_event_numbers_are_ascii_digits_only(run, tmp_path, command, typed):
    """Python's int() reads 1_0 as 10 and a full-width １ as 1: a number here is ASCII digits."""
    path = copied("goldraub-rulebook.yaml", tmp_path)
    name, *option = command.split()
    args = {"edit": ["edit", typed, "gold=1"], "delete": ["delete", typed]}.get(name)
    if args is None:
        args = [*(GOLDRAUB_EVENTS[2] if name == "search" else [name]), *option, typed]
    result = run(*args)
    assert result.exit_code == 2, result.output
    one_error(result.stderr, "is not a number" if len(typed) < 10 else "is too large")
    assert len(result.stderr) < 300  # a long number is not repeated whole
    assert path.read_bytes() == (EXAMPLES / "goldraub-rulebook.yaml").read_bytes()


@pytest.mark.parametrize("command", ["delete", "edit"])
def test_a_negative_event_number_is_no_event_not_an_option(run, tmp_path, command):
    path = copied("lima-4p.yaml", tmp_path)
    count = len(events(path))
    args = [command, "-1", *(["answer=1"] if command == "edit" else [])]
    refused(run, path, *args, parts=(f"sleuth {command}", "no event -1"))
    assert str(count) in run(*args).stderr


# --before


def typed(run, setup: list[str], commands: list[list[str]]) -> bytes:
    """The record's bytes after ``setup`` and ``commands`` typed in order."""
    assert run(*setup, "--force").exit_code == 0
    for command in commands:
        result = run(*command)
        assert result.exit_code == 0, result.output
    return Path("game.yaml").read_bytes()


def certain_now(stdout: str) -> set[tuple[str, str]]:
    """The facts an update says the new event made certain."""
    lines = [line.split(": ", 1)[1] for line in stdout.splitlines() if "now certain:" in line]
    return {tuple(line.split(" holds ")) for line in lines}


def made_certain(path: Path, number: int) -> set[tuple[str, str]]:
    """The facts forced by the record at ``path`` and not by it without event ``number``."""
    whole, without = record(path), record(path)
    del without.events[number - 1]
    held = {(str(f.holder), str(f.item)) for f in report(without).forced}
    return {(str(f.holder), str(f.item)) for f in report(whole).forced} - held


GOLDRAUB_EVENTS = [
    ["search", "an", "31-36", "--gold", "2", "--saw", "1"],
    ["guess", "dor", "bert", "32", "--correct"],
    ["search", "bert", "63-67", "--gold", "2"],
    ["guess", "el", "anton", "11", "--wrong"],
]
LIMA_EVENTS = [
    ["ask", "Ana", "Ben", "SE-NW", "--terrain", "forest", "--answer", "1"],
    ["accuse", "Di", "3F", "7M", "--wrong"],
    ["secret", "Cy", "Ben", "N-S", "--answer", "2"],
    ["secret", "Ana", "Ben"],
]
# Each game's events typed out of order: (the event's place in the typed order, its --before);
# every recording command of the game is typed with --before once at least.
ORDERS = {
    "goldraub": [(2, None), (0, 1), (3, None), (1, 2)],
    "lima": [(3, None), (0, 1), (1, 2), (2, 3)],
}
RECORDING = {"goldraub": {"search", "guess"}, "lima": {"ask", "secret", "accuse"}}


@pytest.mark.parametrize(("setup", "game"), [(GOLDRAUB, GOLDRAUB_EVENTS), (LIMA, LIMA_EVENTS)])
def test_before_puts_each_event_where_it_belongs(run, tmp_path, setup, game):
    wanted = typed(run, setup, game)
    assert run(*setup, "--force").exit_code == 0
    name = setup[1]
    for place, before in ORDERS[name]:
        extra = [] if before is None else ["--before", str(before)]
        result = run(*game[place], *extra)
        assert result.exit_code == 0, result.output
        count = len(events(Path("game.yaml")))
        where = f" as event {before} of {count}" if before else ""
        text = record(Path("game.yaml")).events[(before or count) - 1].text()
        assert f"recorded{where}: {text} " in " ".join(result.stdout.split())
        assert certain_now(result.stdout) == made_certain(Path("game.yaml"), before or count)
    assert Path("game.yaml").read_bytes() == wanted
    assert {game[place][0] for place, before in ORDERS[name] if before} == RECORDING[name]


def test_before_names_what_an_earlier_event_made_certain(run, tmp_path):
    run(*GOLDRAUB)
    run(*GOLDRAUB_EVENTS[0])
    result = run(*GOLDRAUB_EVENTS[1], "--before", "1")
    assert result.exit_code == 0, result.output
    assert certain_now(result.stdout) == {("Bert", "32")}
    assert "recorded as event 1 of 2: guess" in result.stdout


def test_before_out_of_range_or_a_bad_event_is_refused(run, tmp_path):
    run(*GOLDRAUB)
    run(*GOLDRAUB_EVENTS[0])
    path = tmp_path / "game.yaml"
    for number in ("0", "2", "-1"):
        args = [*GOLDRAUB_EVENTS[2], "--before", number]
        refused(run, path, *args, parts=("sleuth search", "field 'before'", "1 to 1"))
    args = ["search", "bert", "63-68", "--gold", "2", "--before", "1"]
    refused(run, path, *args, parts=("sleuth search", "event 1", "field 'row'"))


# --upto


def cut(path: Path, count: int, folder: Path) -> Path:
    """The record at ``path`` cut by hand after its first ``count`` events."""
    lines = path.read_text().splitlines(keepends=True)
    start = lines.index("events:\n") + 1
    short = folder / f"cut-{count}.yaml"
    short.write_text("".join(lines[: start + count]))
    assert len(events(short)) == count
    return short


@pytest.mark.parametrize("example", ["goldraub-rulebook.yaml", "lima-5p.yaml"])
def test_upto_equals_the_report_of_the_record_cut_by_hand(run, tmp_path, example):
    path = copied(example, tmp_path)
    last = len(events(path))
    for count in (0, 7, last):
        short = cut(path, count, tmp_path)
        for form in ([], ["--json"]):
            mine = run("report", "--upto", count, *form)
            theirs = run("report", "--file", short, *form)
            assert mine.exit_code == theirs.exit_code == 0, mine.output
            assert mine.stdout == theirs.stdout
        mine, theirs = run("check", "--upto", count), run("check", "--file", short)
        assert mine.exit_code == theirs.exit_code and mine.stdout == theirs.stdout


def test_check_upto_weighs_one_guess_as_it_stood(run, tmp_path):
    path = copied("goldraub-rulebook.yaml", tmp_path)
    short = cut(path, 4, tmp_path)
    mine, theirs = run("check", "bert", "74", "--upto", 4), run("check", "bert", "74", "-f", short)
    assert mine.exit_code == 0 and mine.stdout == theirs.stdout
    assert mine.stdout != run("check", "bert", "74").stdout  # event 5 reveals it


@pytest.mark.parametrize("command", ["report", "check"])
def test_upto_outside_the_record_is_refused(run, tmp_path, command):
    path = copied("lima-4p.yaml", tmp_path)
    last = len(events(path))
    for count in (-1, last + 1):
        args = (command, "--upto", count)
        refused(run, path, *args, parts=(f"sleuth {command}", "field 'upto'", f"0 to {last}"))


# edit and undo


def test_edit_prints_the_event_before_and_after(run, tmp_path):
    run(*GOLDRAUB)
    run(*GOLDRAUB_EVENTS[0])
    result = run("edit", "1", "gold=1", "saw=")
    assert result.exit_code == 0, result.output
    assert "event 1 was: search {by: Anton, row: 31-36, gold: 2, saw: 1}" in result.stdout
    assert "event 1 now: search {by: Anton, row: 31-36, gold: 1}" in result.stdout


def forced(path: Path) -> set[tuple[str, str]]:
    """The facts the record at ``path`` forces (beyond the setup), from a report of it."""
    return {(str(f.holder), str(f.item)) for f in report(record(path)).forced}


def said(stdout: str, label: str) -> set[tuple[str, str]]:
    """The holdings an edit's lines name after ``label`` ("now certain", "no longer certain")."""
    lines = [line.split(": ", 1)[1] for line in stdout.splitlines() if f"  {label}:" in line]
    return {tuple(line.split(" holds ")) for line in lines}


@pytest.mark.parametrize(
    "change",
    [["2", "correct=false"], ["1", "gold=1"], ["1", "gold=1", "saw="], ["3", "gold=1"]],
)
def test_an_edit_names_what_became_and_what_stopped_being_certain(run, tmp_path, change):
    run(*GOLDRAUB)
    for command in GOLDRAUB_EVENTS:
        assert run(*command).exit_code == 0
    path = tmp_path / "game.yaml"
    before = forced(path)
    result = run("edit", *change)
    assert result.exit_code == 0, result.output
    after = forced(path)
    assert said(result.stdout, "now certain") == after - before
    assert said(result.stdout, "no longer certain") == before - after
    assert ("what is certain is as before" in result.stdout) == (before == after)


def test_an_edit_that_unmakes_a_right_guess_says_the_card_is_no_longer_certain(run, tmp_path):
    run(*GOLDRAUB)
    run(*GOLDRAUB_EVENTS[0])
    run(*GOLDRAUB_EVENTS[1])
    result = run("edit", "2", "correct=false")
    assert "  no longer certain: Bert holds 32" in result.stdout.splitlines(), result.stdout


def test_an_edit_that_changes_nothing_says_so_and_leaves_the_file(run, tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD + "events:\n  - search: {by: Anton,   row: 36-31, gold: 2}  # misheard?\n")
    before = path.read_bytes()
    result = run("edit", "1", "gold=2", "by=an", "row=31-36")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "nothing changed: event 1 already says search {by: Anton, row: 31-36, gold: 2}\n"
    )
    assert path.read_bytes() == before
    assert run("edit", "1", "gold=3").exit_code == 0
    assert events(path) == [{"search": {"by": "Anton", "row": "31-36", "gold": 3}}]


def test_a_refused_edit_leaves_the_file(run, tmp_path):
    path = copied("goldraub-rulebook.yaml", tmp_path)
    refused(run, path, "edit", "1", "gold=9", parts=("sleuth edit", "event 1", "field 'gold'"))
    refused(run, path, "edit", "99", "gold=1", parts=("sleuth edit", "no event 99"))


def test_undo_names_the_event_it_removed(run, tmp_path):
    run(*GOLDRAUB)
    run(*GOLDRAUB_EVENTS[0])
    result = run("undo")
    assert result.stdout == "removed: search {by: Anton, row: 31-36, gold: 2, saw: 1}\n"


# --version and completion


def test_version_prints_the_package_version(run):
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"sleuth {version('sleuth')}\n"


def test_version_and_completion_load_no_heavy_package():
    assert heavy("--version") == set()
    assert heavy("--show-completion", "bash") == set()


def complete(environ: dict, words: str) -> list[str]:
    """What the shell would offer after ``words`` (bash; the last word is being typed)."""
    shell = {"_SLEUTH_COMPLETE": "complete_bash", "COMP_WORDS": words}
    shell["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    given = cli_app.Env(environ=environ)
    result = CliRunner().invoke(cli_app.app, [], env=shell, prog_name="sleuth", obj=given)
    return result.stdout.split()


def test_completion_offers_the_record_s_players(run, environ, tmp_path):
    copied("lima-5p.yaml", tmp_path)
    assert complete(environ, "sleuth ask ") == ["Ana", "Ben", "Cy", "Di", "Ed"]
    assert complete(environ, "sleuth accuse d") == ["di"]
    environ["SLEUTH_FILE"] = str(tmp_path / "elsewhere.yaml")
    assert complete(environ, "sleuth ask ") == []
    copied("goldraub-rulebook.yaml", tmp_path)
    assert complete(environ, "sleuth guess -f game.yaml an B") == ["Bert"]


def test_one_real_process_inserts_logs_and_cuts(tmp_path):
    environ = {k: v for k, v in os.environ.items() if k != "SLEUTH_FILE"}
    environ.update(NO_COLOR="1", COLUMNS="80")

    def sleuth(*args) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "sleuth", *map(str, args), "--file", "g.yaml"]
        return subprocess.run(
            command, cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=120
        )

    assert sleuth(*GOLDRAUB).returncode == 0
    assert sleuth(*GOLDRAUB_EVENTS[2]).returncode == 0
    done = sleuth(*GOLDRAUB_EVENTS[0], "--before", "1")
    assert done.returncode == 0 and "recorded as event 1 of 2: search" in done.stdout
    listed = json.loads(sleuth("log", "--json").stdout)
    assert [item["index"] for item in listed] == [1, 2] and "saw" in listed[0]["search"]
    done = sleuth("report", "--upto", "3")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "field 'upto'" in done.stderr
    version_line = subprocess.run(
        [sys.executable, "-m", "sleuth", "--version"], capture_output=True, text=True, timeout=60
    )
    assert version_line.stdout == f"sleuth {version('sleuth')}\n"
