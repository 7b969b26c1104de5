"""The remembered item order: its hint, tried first, and never a change to a count."""

import importlib
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sleuth.games.goldraub import simulate
from sleuth.record import parse
from sleuth.solve import Entailment, Remembered, count, tuning
from sleuth.solve import order as orders
from sleuth.solve.plan import plan
from sleuth.solve.simplify import reduce

cli_app = importlib.import_module("sleuth.cli.app")


def test_a_hint_keeps_the_remembered_order_and_puts_new_items_last():
    memory = Remembered(["a", "b", "c", "d"])
    assert memory.hint(["d", "x", "b"]) == ["b", "d", "x"]
    assert memory.hint(["x", "y", "z", "b"]) is None  # shares less than half: another state
    assert Remembered().hint(["a"]) is None


def test_learning_marks_a_change_only_for_a_new_order():
    memory = Remembered(["a", "b"])
    memory.learn(["a", "b"])
    assert not memory.changed
    memory.learn(["b", "a"])
    assert memory.changed and memory.order == ["b", "a"]


def test_saved_orders_load_back_and_bad_files_load_as_nothing(tmp_path):
    path = tmp_path / "cache" / "order.json"
    memory = Remembered()
    memory.learn(["13", "21"])
    memory.save(path)
    assert not memory.changed
    assert Remembered.load(path).order == ["13", "21"]
    assert [p.name for p in path.parent.iterdir()] == ["order.json"]  # no temporary file left
    for text in ("{not json", '{"order": [1, 2]}', '["13"]', ""):
        path.write_text(text)
        assert Remembered.load(path).order == []
    assert Remembered.load(tmp_path / "missing.json").order == []


def test_a_cache_that_cannot_be_written_costs_nothing_but_the_memory(tmp_path):
    (tmp_path / "file").write_text("")
    memory = Remembered()
    memory.learn(["13"])
    memory.save(tmp_path / "file" / "order.json")  # its folder is a file
    assert memory.changed


def _model(players: int, turns: int, seed: int):
    doc, _ = simulate.simulate(players, turns, seed)
    return Entailment(parse(doc, "sim").model()).sharpened()


def _tracked(model) -> list:
    p = plan(model, reduce(model))
    return [i for i in p.order if i not in p.loose]


def test_a_remembered_order_is_run_first_and_the_winner_learned(monkeypatch):
    model = _model(5, 10, 1)
    tracked = _tracked(model)
    monkeypatch.setattr(tuning, "SOLO", 10)  # every count goes past the first greedy order
    monkeypatch.setattr(tuning, "BIG", 0)  # and is remembered
    memory = Remembered()
    plain = count(model)
    assert count(model, memory=memory) == plain
    assert sorted(memory.order) == sorted(tracked)
    ran = []
    finished = orders.finished

    def spy(run, deadline, bound, cap=float("inf")):
        ran.append(run.p.order[: len(tracked)])
        return finished(run, deadline, bound, cap)

    monkeypatch.setattr(orders, "finished", spy)
    hint = tracked[::-1]
    memory = Remembered(hint)
    assert count(model, memory=memory) == plain
    assert ran[0] == hint  # probed first, beside the first pair of contenders
    monkeypatch.setattr(tuning, "BIG", 10**9)
    memory.known.clear()  # else the remembered counts answer without a count
    count(model, memory=memory)
    assert memory.order == []  # a small count forgets: the next state starts a fresh race


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 3), st.randoms(use_true_random=False))
def test_any_remembered_order_gives_the_same_counts(seed, rng):
    model = _model(5, 10, seed)
    hint = _tracked(model)
    rng.shuffle(hint)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tuning, "SOLO", 10)
        assert count(model, memory=Remembered(hint)) == count(model)


NEW = ("new", "goldraub", "--players", "Anton,Bert,Christl,Doris,Elli", "--me", "Christl")
HAND = ("--hand", "22,45,63")


@pytest.fixture
def cli(monkeypatch, tmp_path):
    """The app in-process with a cache folder in tmp_path; every count is remembered."""
    monkeypatch.chdir(tmp_path)
    environ = {"SLEUTH_CACHE": str(tmp_path / "cache")}
    env = cli_app.Env(environ=environ)
    monkeypatch.setattr(tuning, "SOLO", 10)
    monkeypatch.setattr(tuning, "BIG", 0)
    runner = CliRunner()
    return environ, lambda *args: runner.invoke(cli_app.app, [str(a) for a in args], obj=env)


def test_the_command_line_keeps_one_order_per_record_in_its_cache(cli, tmp_path):
    environ, run = cli
    assert run(*NEW, *HAND).exit_code == 0
    assert run("search", "an", "31-36", "--gold", "2", "--saw", "1").exit_code == 0
    files = list((tmp_path / "cache").iterdir())
    assert len(files) == 1
    order = json.loads(files[0].read_text())["order"]
    assert order and all(isinstance(item, str) for item in order)
    files[0].write_text("{broken")  # a damaged cache is only a lost hint
    assert run("report").exit_code == 0
    assert json.loads(files[0].read_text())["order"]
    environ["SLEUTH_CACHE"] = "off"
    files[0].unlink()
    assert run("report").exit_code == 0
    assert not list((tmp_path / "cache").iterdir())


def test_the_cache_folder_follows_the_environment(tmp_path):
    record = tmp_path / "game.yaml"
    where = cli_app.Env(environ={"SLEUTH_CACHE": str(tmp_path / "c")}).orders_file(record)
    assert where.parent == tmp_path / "c"
    where = cli_app.Env(environ={"XDG_CACHE_HOME": str(tmp_path / "x")}).orders_file(record)
    assert where.parent == tmp_path / "x" / "sleuth"
    where = cli_app.Env(environ={"HOME": str(tmp_path)}).orders_file(record)
    assert where.parent == tmp_path / ".cache" / "sleuth"
    other = cli_app.Env(environ={"HOME": str(tmp_path)}).orders_file(tmp_path / "other.yaml")
    assert other != where  # one file per record
    for environ in ({}, {"SLEUTH_CACHE": "", "HOME": "/h"}, {"SLEUTH_CACHE": "off", "HOME": "/h"}):
        assert cli_app.Env(environ=environ).orders_file(record) is None


def _damaged(order: list[str]) -> list[str]:
    """Cache texts that are not a valid remembered order of ``order``'s items."""
    whole = json.dumps({"order": order})
    return [
        whole[: len(whole) // 2],  # truncated
        "\x00garbage\xff",
        json.dumps({"order": "13,21"}),
        json.dumps({"order": [13, 21]}),
        json.dumps({"order": [order, order]}),
        json.dumps({"order": [*order, order[0]]}),  # a duplicated item
        json.dumps({"order": [order[0]] * len(order)}),
        json.dumps([order]),
        "[" * 100_000 + "]" * 100_000,  # nested deeper than a reader recurses (issue 28)
        '{"order": ' + json.dumps(order) + ', "facts": ' + "[" * 100_000 + "]" * 100_000 + "}",
    ]


def test_a_damaged_cache_file_is_ignored(tmp_path):
    path = tmp_path / "order.json"
    for text in _damaged(["13", "21", "22"]):
        path.write_text(text)
        assert Remembered.load(path).order == [], text


def test_a_damaged_cache_costs_time_only(cli, tmp_path):
    environ, run = cli
    assert run(*NEW, *HAND).exit_code == 0
    assert run("search", "an", "31-36", "--gold", "2", "--saw", "1").exit_code == 0
    assert run("search", "do", "63-67", "--gold", "2", "--saw", "1").exit_code == 0
    (cache,) = (tmp_path / "cache").iterdir()
    order = json.loads(cache.read_text())["order"]
    environ["SLEUTH_CACHE"] = "off"
    clean = run("report", "--json")
    environ["SLEUTH_CACHE"] = str(tmp_path / "cache")
    for text in _damaged(order):
        cache.write_text(text)
        result = run("report", "--json")
        assert (result.exit_code, result.stdout) == (0, clean.stdout), text


def test_a_cache_file_that_is_not_a_regular_file_is_ignored(tmp_path):
    fifo = tmp_path / "order.json"
    os.mkfifo(fifo)  # reading it whole would block until a writer came
    assert Remembered.load(fifo).order == []
    assert Remembered.load(tmp_path).order == []  # a folder
