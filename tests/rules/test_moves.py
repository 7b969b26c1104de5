"""Goldraub's moves (issue 28, item 7): a figure moves 1 to 6 free spaces, occupied ones skipped.

A search whose ``at`` lies farther from its figure's last known space is refused at entry (exit
2, one line naming the event and ``at``), and a record file holding one is refused by the
analyses; a move that some placing of the figures of unknown space makes legal is accepted.
"""

import random
from pathlib import Path

import pytest
from invoke import invoker

from sleuth.games.goldraub.moves import free_steps
from sleuth.games.goldraub.simulate import move, table_game
from sleuth.record import parse

PLAYERS = "Anton,Bert,Christl,Doris,Elli"
NEW = ["new", "goldraub", "--players", PLAYERS, "--me", "Christl", "--hand", "22,45,63"]
# Anton at 4, Bert at 6, Christl at 7, Doris at 3; Elli's space given by the test.
OPENING = [("an", "14-47", 4), ("bert", "25-75", 6), ("chr", "21-25", 7), ("doris", "13-57", 3)]


@pytest.fixture
def run(monkeypatch, tmp_path):
    """Invoke the app in tmp_path, with colourless wide consoles and no cache."""
    return invoker(monkeypatch, tmp_path)


def opened(run, elli: int | None) -> None:
    """A new game and one search by each player, Elli's at ``elli`` (None: no ``at``)."""
    assert run(*NEW).exit_code == 0
    searches = [*OPENING, ("elli", "74-77", elli)]
    for by, row, at in searches:
        where = [] if at is None else ["--at", at]
        result = run("search", by, row, "--gold", "1", *where)
        assert result.exit_code == 0, result.output


def test_a_move_of_eleven_spaces_is_refused(run):
    opened(run, 12)
    before = Path("game.yaml").read_bytes()
    result = run("search", "doris", "47-77", "--gold", "1", "--at", "14")
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "event 6, field 'at'" in lines[0], result.stderr
    assert "Doris moved from space 3 to 14: 7 free spaces on" in lines[0]
    assert Path("game.yaml").read_bytes() == before


def test_occupied_spaces_are_skipped_and_not_counted(run):
    opened(run, 12)  # 4 to 13 is ten spaces, four of them occupied: six free
    assert run("search", "doris", "11-77", "--gold", "1", "--at", "13").exit_code == 0


def test_a_figure_of_unknown_space_may_stand_on_the_way(run):
    opened(run, None)  # Elli could stand on one space Doris passed
    assert run("search", "doris", "11-77", "--gold", "1", "--at", "13").exit_code == 0
    assert run("undo").exit_code == 0
    result = run("search", "doris", "47-77", "--gold", "1", "--at", "14")  # 8 free, 1 Elli's
    assert result.exit_code == 2 and "field 'at'" in result.stderr


def test_a_record_file_holding_a_long_move_is_refused_by_the_analyses(run):
    opened(run, 12)
    text = Path("game.yaml").read_text(encoding="utf-8")
    Path("game.yaml").write_text(
        text + "  - search: {by: Doris, row: 47-77, gold: 1, at: 14}\n", encoding="utf-8"
    )
    result = run("report")
    assert result.exit_code == 2 and "event 6, field 'at'" in result.stderr


def test_free_steps_counts_what_the_simulator_moves():
    rng = random.Random(28)
    for _ in range(500):
        start = rng.randint(1, 24)
        occupied = set(rng.sample([s for s in range(1, 25) if s != start], rng.randint(0, 5)))
        steps = rng.randint(1, 6)
        assert free_steps(start, move(start, steps, occupied), occupied, 24) == steps


@pytest.mark.parametrize("players", [3, 5, 6])
def test_table_games_make_no_long_move(players):
    for seed in range(6):
        doc, _ = table_game(players, 10, seed)
        assert parse(doc, "simulation").forbidden() is None


@pytest.mark.parametrize(
    ("row", "at", "hint"),
    [
        ("25-57", "6", "(did you mean 25-75?)"),  # not 52-57: space 6 does not offer it
        ("25-57", None, "(did you mean 52-57?)"),
        ("99-98", "6", "(route space 6 offers 25-75, 11-14)"),
    ],
)
def test_a_wrong_row_s_hint_keeps_to_the_rows_the_space_offers(run, row, at, hint):
    assert run(*NEW).exit_code == 0
    where = [] if at is None else ["--at", at]
    result = run("search", "anton", row, "--gold", "1", *where)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "field 'row'" in result.stderr and result.stderr.rstrip().endswith(hint), result.stderr
