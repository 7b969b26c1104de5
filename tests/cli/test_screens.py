"""Screens worth reading: text readable on every shade of both boards, a legend on each."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from rich.console import Console
from rich.style import Style

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from records import HEAD, SEARCH_LINE  # noqa: E402

from sleuth.analysis import report  # noqa: E402
from sleuth.document import parse_yaml  # noqa: E402
from sleuth.games.goldraub import simulate as goldraub_sim  # noqa: E402
from sleuth.games.goldraub.picture import city_picture  # noqa: E402
from sleuth.games.lima import simulate as lima_sim  # noqa: E402
from sleuth.games.lima.picture import _region  # noqa: E402
from sleuth.record import parse  # noqa: E402
from sleuth.render import show_report  # noqa: E402
from sleuth.render.common import contrast, facts_table, shaded, tags  # noqa: E402


def _pairs(text) -> list[tuple[tuple, tuple]]:
    """The (text colour, background) of every styled span of a rich Text."""
    out = []
    for span in text.spans:
        style = Style.parse(str(span.style))
        if style.bgcolor is not None:
            out.append((style.color.get_truecolor(), style.bgcolor.get_truecolor()))
    return out


def test_every_shade_has_text_of_contrast_at_least_4_5():
    for k in range(1001):
        style = Style.parse(shaded(k / 1000))
        ink, ground = style.color.get_truecolor(), style.bgcolor.get_truecolor()
        assert contrast(ink, ground) >= 4.5, k


def test_the_goldraub_board_reads_on_every_background_it_uses():
    record = parse(goldraub_sim.simulate(4, 8, 3)[0], "sim")
    pairs = _pairs(city_picture(report(record)))
    assert len({ground for _, ground in pairs}) > 5
    assert all(contrast(ink, ground) >= 4.5 for ink, ground in pairs)


def test_the_lima_board_reads_on_every_background_it_uses():
    doc, _ = lima_sim.simulate(4, 10, 5)
    result = report(parse(doc, "sim"))
    tag = tags(result.record.table.players)
    pairs = [p for region in range(1, 9) for p in _pairs(_region(result, region, tag))]
    assert len({ground for _, ground in pairs}) > 3
    assert all(contrast(ink, ground) >= 4.5 for ink, ground in pairs)


@pytest.mark.parametrize("colour", [True, False])
def test_both_boards_have_a_legend_true_with_colour_and_without(colour):
    """The shading is named only where it shows (issue 28, item 11)."""
    goldraub = parse(parse_yaml(HEAD + "events:\n" + SEARCH_LINE, "t", keep=False), "t")
    lima = parse(lima_sim.simulate(4, 4, 1)[0], "sim")
    for record in (goldraub, lima):
        system = "truecolor" if colour else None
        console = Console(width=80, record=True, color_system=system, force_terminal=colour)
        show_report(console, report(record))
        text = console.export_text()
        assert "%: chance" in text and "certain holder" in text
        assert ("shade" in text) is colour
    plain = Console(width=80, record=True, color_system="truecolor", no_color=True)
    show_report(plain, report(lima))
    assert "shade" not in plain.export_text()


def test_certain_facts_are_compact_cards_out_of_play_on_one_line():
    result = report(parse(goldraub_sim.simulate(5, 12, 1)[0], "sim"))
    aside = [f for f in result.forced if f.holder == "aside"]
    assert len(aside) > 1
    console = Console(width=80, record=True)
    console.print(facts_table(result, "sector"))
    lines = [line for line in console.export_text().splitlines() if " aside " in line]
    assert len(lines) == 1 and all(f.item in lines[0] for f in aside)
    assert "{" not in console.export_text()  # no event's full text
