"""A game watched: a record without ``me``, against brute force and the true deal.

A spectator's record is written here from a simulated player's record by dropping what only
that player knew (``watched``): the hand, the tokens passed on, what was seen in a pass, a
Pistol question's range and answer, the treasure an accuser saw. Its analysis must equal the
public view of the player's own record (``Record.public``, ``report --public``), brute force
on small games, and the true deal.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles.brute import brute_count
from oracles.lima import brute

from sleuth.analysis import report
from sleuth.games.goldraub.simulate import simulate as goldraub_game
from sleuth.games.lima.advice import treasure_pairs
from sleuth.games.lima.simulate import simulate as lima_game
from sleuth.record import parse

PRIVATE = {"search": ("saw",), "secret": ("range", "answer"), "accuse": ("treasure",)}


def watched(doc: dict) -> dict:
    """The record a spectator keeps of the same game: no ``me`` and nothing only I knew."""
    out = {k: v for k, v in doc.items() if k not in ("me", "hand", "known")}
    events = []
    for item in doc["events"]:
        ((kind, fields),) = item.items()
        kept = {k: v for k, v in fields.items() if k not in PRIVATE.get(kind, ())}
        events.append({kind: kept})
    return out | {"events": events}


def same_report(first, second) -> None:
    """Two reports of a game agree: the deals, every holding's count, the facts and dates."""
    assert first.consistent and second.consistent
    assert first.worlds == second.worlds and first.exact and second.exact
    assert first.odds.held == second.odds.held
    assert first.forced == second.forced


def revealed(doc: dict, truth: dict[str, str], owner: str) -> dict:
    """``doc`` with right guesses showing the rest of ``owner``'s sectors, by the next player."""
    players = doc["players"]
    by = players[(players.index(owner) + 1) % len(players)]
    shown = {
        str(e["guess"]["sector"]) for e in doc["events"] if "guess" in e and e["guess"]["correct"]
    }
    mine = sorted((s for s, h in truth.items() if h == owner and s not in shown), key=int)
    guesses = [
        {"guess": {"by": by, "owner": owner, "sector": int(s), "correct": True}} for s in mine
    ]
    return dict(doc, events=doc["events"] + guesses)


@st.composite
def goldraub_games(draw, n: int, turns: int):
    """A simulated n-player Goldraub game: its record and the true deal."""
    seed = draw(st.integers(0, 2**32 - 1))
    me = draw(st.integers(0, n - 1))
    return goldraub_game(n, draw(st.integers(0, turns)), seed, me)


@settings(max_examples=8, deadline=None)
@given(goldraub_games(3, 16), st.integers(0, 2))
def test_goldraub_spectator_equals_brute_force(game, shown):
    """Three players, one hand shown by right guesses (the brute force loops over its hands)."""
    doc, truth = game
    doc = revealed(doc, truth, doc["players"][shown])
    spectator = parse(watched(doc), "watched")
    assert spectator.table.me is None and spectator.model().groups[0] == ()
    found = report(spectator)
    total, held = brute_count(spectator.model())
    assert found.worlds == total and found.odds.held == held
    same_report(found, report(parse(doc, "simulated").public()))
    assert all(truth[f.item] == f.holder for f in found.forced)


TURNS = {4: 8, 5: 8, 6: 3}  # a watched 6-player game of 8 searches is past the count's budget


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(sorted(TURNS)).flatmap(lambda n: goldraub_games(n, TURNS[n])))
def test_goldraub_spectator_facts_hold_in_the_true_deal(game):
    doc, truth = game
    found = report(parse(watched(doc), "watched"))
    assert found.exact
    assert all(found.odds.held[holder, item] > 0 for item, holder in truth.items())
    assert all(truth[f.item] == f.holder for f in found.forced)
    same_report(found, report(parse(doc, "simulated").public()))


LIMA_GAMES = [(2, 20), (4, 14), (4, 20), (6, 20)]  # a few seconds each, under 0.5 GB


@pytest.mark.parametrize(("seed", "events"), LIMA_GAMES)
def test_lima_spectator_equals_brute_force(seed, events):
    """Three players, private facts dropped: every holding and treasure pair counted alike.

    Brute force lists every hand a player's answers allow, so a watched game with few
    questions is too big for it (a game of 8 events already takes 2.5 GB).
    """
    doc, truth = lima_game(3, 20, seed, me=seed % 3, pistol=0.4, accuse=0.2)
    doc = dict(doc, events=doc["events"][:events])
    spectator = parse(watched(doc), "watched")
    found = report(spectator)
    counted = brute(watched(doc))
    assert found.worlds == counted.total
    for (holder, item), n in found.odds.held.items():
        assert n == counted.held.get((holder, item), 0), (holder, item)
    pairs = {frozenset(p.locations): p.probability for p in treasure_pairs(found)}
    assert pairs == {p: Fraction(n, counted.total) for p, n in counted.pairs.items() if n}
    same_report(found, report(parse(doc, "simulated").public()))
    assert all(truth[f.item] == f.holder for f in found.forced)


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (5, 4), (5, 6)])
def test_lima_spectator_facts_hold_in_the_true_deal(players, seed):
    doc, truth = lima_game(players, 24, seed, me=seed % players, pistol=0.4, accuse=0.2)
    found = report(parse(watched(doc), "watched"))
    assert all(found.odds.held[holder, item] > 0 for item, holder in truth.items())
    assert all(truth[f.item] == f.holder for f in found.forced)
    same_report(found, report(parse(doc, "simulated").public()))
