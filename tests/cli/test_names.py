"""Records that sleuth writes read back exactly: names of players from all of Unicode.

Every name the tool accepts comes back as it was, under the round-trip reader sleuth uses and
under YAML 1.1 and 1.2 readers; a name the tool refuses is one clear line, exit status 2.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from invoke import invoker
from records import HEAD
from ruamel.yaml import YAML

import sleuth.cli  # noqa: F401 - registers the game commands
from sleuth.errors import InputError
from sleuth.store import load

cli_app = importlib.import_module("sleuth.cli.app")
NAMES = ["?q", "? q", ": q", ":q", "-q", "- q", "yes", "No", "on", "OFF", "y", "n", "null"]
NAMES += ["~", "1e3", "0x1F", "0o17", "12:30", "1:2:3", "2026-01-01", "007", "1_000", ".inf"]
NAMES += ["true", "=", "<<", "#x", "a #b", "a: b", "&x", "*x", "!x", "|x", ">x", "%x", "@x"]
NAMES += ["`x", "'x", '"x', "[x", "{x", "x]", "x}", "x:", "Ä", "Zoë", "e\u0301", "\ufeffa"]
NAMES += ["a\u200db", "😀", "a  b", "\U0001d400", "\ufffe", "O'Brien", "x\\y", "---", "..."]
REFUSED = ["a\u0085b", "a\nb", "a\tb", "a\x00b", "\x1b[31m", "a\u2028b", "a\u2029b", "\ud800"]


@pytest.fixture
def run(monkeypatch, tmp_path):
    """Invoke the app in-process in tmp_path: run("report", ...)."""
    return invoker(monkeypatch, tmp_path)


def readers() -> list[YAML]:
    """YAML readers of both versions: the round-trip one (1.2) and a safe 1.1 one."""
    old = YAML(typ="safe", pure=True)
    old.version = (1, 1)
    return [YAML(typ="rt"), YAML(typ="safe", pure=True), old]


def read_players(path: Path) -> list[list]:
    """The players of the record at ``path`` as each reader reads them."""
    return [list(reader.load(path.read_text(encoding="utf-8"))["players"]) for reader in readers()]


def new(run, name: str, *extra: str):
    """`sleuth new` with Anton, Bert and ``name``, me being ``name``."""
    args = ["new", "goldraub", "--players", f"Anton,Bert,{name}", "--me", name]
    return run(*args, "--hand", "22,45,63", "--file", "b.yaml", *extra)


@pytest.mark.parametrize("name", NAMES)
def test_a_name_sleuth_writes_reads_back_exactly(run, tmp_path, name):
    result = new(run, name)
    assert result.exit_code == 0, result.output
    path = tmp_path / "b.yaml"
    assert read_players(path) == [["Anton", "Bert", name]] * 3
    assert run("search", "--gold", "1", "-f", path, "--", "anton", "31-36").exit_code == 0
    assert run("guess", "--wrong", "-f", path, "--", "anton", name, "32").exit_code == 0
    assert run("edit", "2", f"by={name}", "owner=bert", "-f", path).exit_code == 0
    assert run("undo", "-f", path).exit_code == 0
    assert read_players(path) == [["Anton", "Bert", name]] * 3
    record, _ = load(path)
    assert record.table.players == ("Anton", "Bert", name)
    assert record.table.me == name
    result = run("report", "--json", "-f", path, "--budget", "1")
    assert result.exit_code == 0, result.output
    assert name in json.loads(result.stdout)["probability"]


@pytest.mark.parametrize("name", REFUSED)
def test_a_name_that_cannot_be_one_line_of_text_is_refused(run, tmp_path, name):
    result = new(run, name)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "field 'players'" in lines[0], result.stderr
    assert "control character or line break" in lines[0]
    assert not (tmp_path / "b.yaml").exists()


@pytest.mark.parametrize("name", ["?q", ": q", "yes", "12:30", "a\u00a0b"])
def test_a_hand_written_record_with_such_a_name_is_appended_to(run, tmp_path, name):
    path = tmp_path / "game.yaml"
    quoted = json.dumps(name, ensure_ascii=False)
    path.write_text(HEAD.replace("Elli]", f"{quoted}]") + "events:\n", encoding="utf-8")
    result = run("search", "anton", "31-36", "--gold", "1")
    assert result.exit_code == 0, result.output
    assert read_players(path) == [["Anton", "Bert", "Christl", "Doris", name]] * 3
    assert len(load(path)[0].events) == 1


@pytest.mark.parametrize("name", ["?q", "? q", ": q", "yes", "2026-01-01", "a, b", "x]"])
def test_a_record_started_as_json_is_rewritten_readably(run, tmp_path, name):
    path = tmp_path / "game.yaml"
    doc = {"game": "goldraub", "players": ["Anton", "Bert", name], "me": name}
    path.write_text(json.dumps(dict(doc, hand=[22, 45, 63], events=[])), encoding="utf-8")
    assert run("search", "anton", "31-36", "--gold", "1").exit_code == 0
    assert run("guess", "--wrong", "--", name, "bert", "32").exit_code == 0
    assert read_players(path) == [["Anton", "Bert", name]] * 3
    assert [e.fields()["by"] for e in load(path)[0].events] == ["Anton", name]


@pytest.mark.parametrize("name", ["?q", ": q", "off", "0x1F", "a: b", "{x}"])
def test_a_name_as_a_key_of_known_reads_back_exactly(run, tmp_path, name):
    args = ["new", "lima", "--players", f"{name},Ben,Cy,Di", "--me", "Cy", "--hand"]
    result = run(*args, "2F,3B,4F,8B,8M", "--known", f"{name}=7B", "--public", "1F,1M")
    assert result.exit_code == 0, result.output
    path = tmp_path / "game.yaml"
    assert run("ask", "--answer", "1", "--", name, "ben", "N-S").exit_code == 0
    for reader in readers():
        doc = reader.load(path.read_text(encoding="utf-8"))
        assert dict(doc["known"]) == {name: ["7B"]}
        assert dict(doc["events"][0]["ask"])["by"] == name
    assert load(path)[0].start.known == {name: ("7B",)}


def test_a_refused_name_in_a_hand_written_record_is_one_line(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD.replace("Elli]", '"El\\tli"]') + "events:\n", encoding="utf-8")
    with pytest.raises(InputError, match="control character or line break"):
        load(path)
