"""A question counted over the record's kept layers equals the question counted whole.

``sleuth.solve.layered`` counts the record once, every layer kept, then each question only over
the layers its items span, and reads the rest off the record's layers (``layers``, ``split``).
It must give ``exact.split``'s numbers exactly: on random small models against plain
enumeration (questions over free, fixed and tracked items, one or many at once), on
simulated Goldraub states of 4 to 6 players for every row my next search may ask, and on Lima
questions, through the advisor's batch as ``next`` runs it; keys of two words are found whole.
"""

from __future__ import annotations

import sys
from pathlib import Path
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_backends import models  # noqa: E402
from test_split import enumerated, questions  # noqa: E402

from sleuth.advisor import answer_counts, answer_splits  # noqa: E402
from sleuth.budget import Deadline  # noqa: E402
from sleuth.games.goldraub import next as gnext  # noqa: E402
from sleuth.games.goldraub.simulate import simulate as goldraub_game  # noqa: E402
from sleuth.games.goldraub.simulate import table_game  # noqa: E402
from sleuth.games.lima.simulate import simulate as lima_game  # noqa: E402
from sleuth.model import Term  # noqa: E402
from sleuth.record import parse  # noqa: E402
from sleuth.solve import (  # noqa: E402
    BudgetExceeded,
    compiled,
    count,
    layered_split,
    layers,
    tuning,
)
from sleuth.solve.carry import carried  # noqa: E402


def plain(split: dict) -> dict:
    """answer -> (worlds, holdings)."""
    return {a: (c.total, c.held) for a, c in split.items()}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models(), st.data())
def test_layered_split_equals_enumeration(model, data):
    asked = [data.draw(questions(model)) for _ in range(data.draw(st.integers(1, 3)))]
    shared = layers(model, asked)
    if shared is None:  # a record that cannot hold: no worlds to split
        assert all(not enumerated(model, q, model.space.holders[0]) for q in asked)
        return
    whole = count(model)
    assert (shared.counts.total, shared.counts.held) == (whole.total, whole.held)
    wants = [{a: (t, h) for a, (t, h, _) in enumerated(model, q, None).items()} for q in asked]
    for question, want in zip(asked, wants, strict=True):
        assert plain(layered_split(shared, question)) == want
    shared.run.kernels.turn()  # the compiled loops: the table merge, the compiled gather
    for question, want in zip(asked, wants, strict=True):
        assert plain(layered_split(shared, question)) == want


def next_rows(record) -> list:
    """The questions of my next search: one per row I may search."""
    at, occupied = gnext.wanted(record, {})
    searches = gnext.legal(record.start.city, at, occupied)
    return [gnext.question(record, row) for row in dict.fromkeys(r for _, r in searches)]


@pytest.mark.parametrize(
    ("players", "seed", "events"), [(4, 2, 8), (5, 1, 10), (6, 2, 22), (6, 3, 18), (6, 4, 12)]
)
def test_layered_splits_equal_whole_splits_on_table_games(players, seed, events):
    doc = table_game(players, 4, seed)[0]
    record = parse({**doc, "events": doc["events"][:events]}, "sim")
    model = record.model()
    asked = next_rows(record)
    got = answer_splits(model, asked)
    for question, split in zip(asked, got, strict=True):
        assert split is not None and plain(split) == plain(answer_counts(model, question))


def test_every_question_of_a_simulated_game_at_every_cut():
    """Goldraub, 5 players: every row's question after every third event."""
    doc = goldraub_game(5, 30, 6)[0]
    for events in range(3, len(doc["events"]) + 1, 3):
        record = parse({**doc, "events": doc["events"][:events]}, "sim")
        model = record.model()
        asked = [gnext.question(record, row) for row in record.start.city.rows]
        shared = layers(model, asked)
        assert shared is not None
        for question in asked[events % 4 :: 4]:
            assert plain(layered_split(shared, question)) == plain(answer_counts(model, question))


def test_layers_and_questions_keep_to_their_budget():
    """A hard 6-player state: the record's count and a question's pass stop when time is up."""
    doc = table_game(6, 4, 2)[0]
    record = parse({**doc, "events": doc["events"][:15]}, "sim")
    asked = next_rows(record)
    with pytest.raises(BudgetExceeded):
        layers(record.model(), asked, 0.0)
    assert answer_splits(record.model(), asked, Deadline(0.0)) == [None] * len(asked)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_carried_step_equals_its_numpy_twin(seed):
    """The compiled step (a table) and the numpy one (a sort): the same entries and edges."""
    rng = np.random.default_rng(seed)
    states, after, holders, width = rng.integers(1, 30), rng.integers(1, 20), 3, 4
    dests = rng.integers(-1, after, (holders, states)).astype(np.int32)
    moves = rng.integers(0, width, (holders, width)).astype(np.int32)
    entries = rng.integers(0, 40)
    rows, codes = rng.integers(0, states, entries), rng.integers(0, width, entries)
    ways = rng.integers(1, 10**6, entries)
    table = np.full(after * width, -1, np.int32)
    got, want = [np.empty((holders, entries), np.int32) for _ in range(2)]
    made = compiled.carried(rows, codes, ways, dests, moves, width, table, got)
    twin = carried(rows, codes, ways, dests, moves, width, want)
    assert (table == -1).all()  # left free for the next step

    def entries_of(out, to):
        found = {(int(r), int(c)): int(w) for r, c, w in zip(*out, strict=True)}
        edges = {
            (h, j): (int(out[0][t]), int(out[1][t])) for (h, j), t in np.ndenumerate(to) if t >= 0
        }
        return found, edges, (to < 0).tolist()

    assert entries_of(made, got) == entries_of(twin, want)
    wide = np.empty_like(want)
    with patch.object(tuning, "CARRIED", 0):  # a step too wide for the table: sorted
        assert entries_of(carried(rows, codes, ways, dests, moves, width, wide), wide) == (
            entries_of(twin, want)
        )


@pytest.mark.parametrize(("players", "seed"), [(3, 2), (5, 1)])
def test_lima_questions_over_the_layers_equal_whole_splits(players, seed):
    """Lima's questions count a player's tokens in a range (terms that count, not bits)."""
    record = parse(lima_game(players, 10, seed)[0], "sim")
    model = record.model()
    items = list(model.space.items)
    others = record.table.others(record.table.me)
    asked = [(Term(to, frozenset(items[k : k + 7])),) for to in others for k in (0, 9, 20)]
    for question, split in zip(asked, answer_splits(model, asked), strict=True):
        assert split is not None and plain(split) == plain(answer_counts(model, question))
