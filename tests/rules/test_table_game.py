"""The table's simulator: guesses by the rules, notes that never lie, right and wrong guesses."""

from __future__ import annotations

import pytest

from sleuth.games.goldraub.rules import Guess, may_guess, round_value
from sleuth.games.goldraub.simulate import Notes, heard, table_game
from sleuth.record import parse
from sleuth.solve import Entailment, count

GAMES = [(n, seed) for n in (5, 6) for seed in range(4)]


@pytest.mark.parametrize(("n", "seed"), GAMES)
def test_every_guess_keeps_the_rules(n, seed):
    doc, truth = table_game(n, 10, seed)
    record = parse(doc, "table_game")
    events, shown = list(record.events), set()
    for k, event in enumerate(events):
        assert round_value(events, n, 10, k) > 0
        if isinstance(event, Guess):
            allowed, why = may_guess(events[:k], record.table.players, 10, event.by, 3)
            assert allowed, (k, why)
            assert event.sector not in shown
            assert event.correct == (truth[event.sector] == event.owner)
            shown |= {event.sector} if event.correct else set()
    assert Entailment(record.model()).consistent()


def test_players_guess_right_and_wrong():
    outcomes = set()
    for n, seed in GAMES:
        events = table_game(n, 10, seed)[0]["events"][:24]
        outcomes |= {e["guess"]["correct"] for e in events if "guess" in e}
    assert outcomes == {True, False}


def notes_after(n: int, seed: int, player: int, upto: int):
    """The notes of one player after the first ``upto`` events, and that player's record."""
    doc, truth = table_game(n, 10, seed, me=player)
    doc["events"] = doc["events"][:upto]
    players = tuple(doc["players"])
    name = players[player]
    hand = {s for s, h in truth.items() if h == name}
    notes = {name: Notes(name, hand, players)}
    for event in doc["events"]:
        heard(notes, players, truth, event)
    return notes[name], doc, truth


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("upto", [8, 16, 24])
def test_notes_hold_in_the_deal_and_a_sure_chance_is_forced(seed, upto):
    for player in range(5):
        note, doc, truth = notes_after(5, seed, player, upto)
        for owner, barred in note.barred.items():
            assert all(truth[s] != owner for s in barred)
        for owner, row in note.holds:
            assert any(truth[s] == owner for s in row)
        counts = count(parse(doc, "view").model(), 60)
        best = note.best()
        if best is not None and best[0] == 1:
            assert counts.held[best[1], best[2]] == counts.total
