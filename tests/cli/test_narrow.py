"""Screens at 40, 60 and 80 columns, the game's status in the report, wrong-game commands.

Issue 20: the report carries where the game stands (round, value, whose turn, who is out, the
game over); a command of the other game is named as such; every screen of the examples fits
the width it is given, the boards falling back to a compact form that still says everything.
"""

import importlib
import json
import re
from pathlib import Path

import pytest
from invoke import invoker
from rich.console import Console

import sleuth.cli  # noqa: F401 - registers the game commands
from sleuth.analysis import report
from sleuth.errors import InputError
from sleuth.games.base import Status
from sleuth.render import report_json, show_report
from sleuth.render.common import Fitting, Phrases, status_words
from sleuth.store import load

cli_app = importlib.import_module("sleuth.cli.app")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GOLDRAUB = EXAMPLES / "goldraub-5p-table-1.yaml"
LIMA = EXAMPLES / "lima-4p.yaml"
WIDTHS = (40, 60, 80)


@pytest.fixture(scope="module")
def reports():
    """The report of each example record, counted once."""
    return {path: report(load(path, keep=False)[0], 60) for path in (GOLDRAUB, LIMA)}


def screen(result, width: int) -> list[str]:
    """The report's lines at ``width`` columns."""
    console = Console(width=width, record=True, color_system=None, highlight=False)
    show_report(console, result)
    return console.export_text().splitlines()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path", (GOLDRAUB, LIMA), ids=("goldraub", "lima"))
def test_every_line_of_the_report_fits_and_nothing_is_cut(reports, path, width):
    lines = screen(reports[path], width)
    assert all(len(line) <= width for line in lines), [ln for ln in lines if len(ln) > width]
    assert not any("…" in line for line in lines)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_goldraub_board_keeps_each_row_of_sectors_on_one_line(reports, width):
    result = reports[GOLDRAUB]
    text = "\n".join(screen(result, width))
    rows: dict[str, list[str]] = {}
    for sector in result.record.start.city.sectors:
        rows.setdefault(sector[0], []).append(sector)
    for row in rows.values():
        assert re.search(r"\s+".join(row), text), row  # the row's sectors together, in order
    for tag in ("A", "B", "C", "D", "E"):  # every player owns a sector shown by its tag
        assert re.search(rf"(?m)\s{tag}\s", text)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_lima_island_shows_every_location_beside_its_mark(reports, width):
    result = reports[LIMA]
    text = "\n".join(screen(result, width))
    mark = r"(\d+%|<1%|>99%|\d+\.\d%|<0\.1%|>99\.9%|[A-Z][a-z]{0,2}|TRE|pub)"
    for location in result.record.start.island.locations:
        assert re.search(rf"{location} +{mark}", text), location
    for point in result.record.start.island.points:
        assert re.search(rf"\b{point}\b", text), point


def test_the_boards_fall_back_to_a_compact_form_below_their_width(reports):
    goldraub = "\n".join(screen(reports[GOLDRAUB], 40))
    assert "43.9%" not in goldraub and "44%" in goldraub  # whole percents on the narrow board
    lima = screen(reports[LIMA], 40)
    assert any(line.split()[1:2] == ["N"] and "1B" in line for line in lima)  # a region a line
    at_30 = screen(reports[GOLDRAUB], 30)
    assert all(len(line) <= 30 for line in at_30)
    assert all(re.search(rf"\b{s}\b", "\n".join(at_30)) for s in ("11", "44", "77"))


def test_fitting_takes_the_first_rendering_that_fits_and_phrases_break_between_phrases():
    console = Console(width=12, record=True, color_system=None)
    console.print(Fitting("a rather long line", "short"))
    console.print(Phrases(["34 (73.7%)", "54 (17.4%)"]))
    assert console.export_text().splitlines() == ["short", "34 (73.7%),", "54 (17.4%)"]


def test_the_status_in_words():
    assert status_words(Status(3, "Doris", 8)) == "round 3, value 8, Doris to play"
    words = status_words(Status(2, "Cy", out=("Ben", "Di")))
    assert words == "round 2, Cy to play; out: Ben, Di"
    over = Status(9, None, 0, over="the round counter is at 0")
    assert status_words(over) == "round 9, value 0, game over: the round counter is at 0"


def test_the_report_states_where_the_game_stands(reports):
    goldraub, lima = reports[GOLDRAUB], reports[LIMA]
    status = goldraub.record.rules.status(goldraub.record)
    assert status.turn is not None and status.value is not None
    text = "\n".join(screen(goldraub, 80))
    assert f"round {status.round}, value {status.value}, {status.turn} to play" in text
    lima_status = lima.record.rules.status(lima.record)
    assert status_words(lima_status) in "\n".join(screen(lima, 80)).replace("\n", " ")
    assert lima_status.over is not None  # the example ends with a right accusation


def test_the_json_report_holds_the_status(reports):
    for result in reports.values():
        status = result.record.rules.status(result.record)
        data = json.loads(json.dumps(report_json(result)))
        assert data["status"] == {
            "round": status.round,
            "turn": status.turn,
            "value": status.value,
            "out": list(status.out),
            "over": status.over,
        }


def test_a_lima_record_with_players_out_shows_them(tmp_path, reports):
    lima = reports[LIMA]
    status = lima.record.rules.status(lima.record)
    assert status.out and f"out: {', '.join(status.out)}" in " ".join(screen(lima, 80))


@pytest.fixture
def run(monkeypatch, tmp_path):
    """Invoke the app in tmp_path with colourless consoles; the example records copied there."""
    for path in (GOLDRAUB, LIMA):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    return invoker(monkeypatch, tmp_path)


WRONG_GAME = [
    (
        GOLDRAUB.name,
        ["ask", "Anton", "Bert", "N-E", "--answer", "1"],
        f"sleuth: sleuth ask: ask is a Loot of Lima command; {GOLDRAUB.name} is a Goldraub in "
        "London record",
    ),
    (
        LIMA.name,
        ["search", "Ana", "11-14", "--gold", "1"],
        f"sleuth: sleuth search: search is a Goldraub in London command; {LIMA.name} is a Loot "
        "of Lima record",
    ),
]


@pytest.mark.parametrize(("name", "args", "line"), WRONG_GAME, ids=("ask", "search"))
def test_a_command_of_the_other_game_is_named_as_such(run, name, args, line):
    before = Path(name).read_bytes()
    result = run(*args, "-f", name)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [line]
    assert Path(name).read_bytes() == before


@pytest.mark.parametrize(("name", "args", "line"), WRONG_GAME, ids=("ask", "search"))
def test_inside_play_too(run, name, args, line):
    before = Path(name).read_bytes()
    result = run("play", "-f", name, input=" ".join(args) + "\n")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [line]
    assert Path(name).read_bytes() == before


def test_a_record_file_holding_the_other_games_event_says_whose_it_is(tmp_path):
    path = tmp_path / "game.yaml"
    text = GOLDRAUB.read_text() + "  - ask: {by: Anton, to: Bert, range: N-E, answer: 1}\n"
    path.write_text(text)
    with pytest.raises(InputError, match="an event of Loot of Lima, not Goldraub in London"):
        load(path, keep=False)


def test_the_replay_timeline_keeps_each_number_beside_its_word():
    """A folded event keeps "at 15" and "gold 2" on one line, as a player reads them."""
    from sleuth.render.replay import BOUND, bound

    text = "Christl search 31-75 gold 2 saw 1 at 15"
    assert bound(text).replace(BOUND, " ") == text
    import textwrap

    for width in range(12, 40):
        for part in textwrap.wrap(bound(text), width):
            assert not part.endswith((" at", " gold", " saw")) and not part[:1].isdigit()
