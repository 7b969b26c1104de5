"""A question's answer split in one pass: against enumeration, brute force and the per-value way.

``split`` leaves the question's tally open in the state and splits the final states by its
value; ``split_pairs`` also carries one holder's first item forward to count its pairs per
answer (``sleuth.solve.exact``). Both are checked on random small models (both engines)
against plain enumeration, on 3-player Goldraub against the brute force, and on simulated
states of both games against one count per answer value (``oracles.per_value`` in ``tests/``).
"""

from __future__ import annotations

import sys
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import per_value  # noqa: E402
from oracles.brute import brute_count  # noqa: E402
from test_backends import deals, models, value  # noqa: E402

from sleuth.advisor import answer_counts, pair_split  # noqa: E402
from sleuth.games.goldraub import next as gnext  # noqa: E402
from sleuth.games.goldraub.simulate import simulate as goldraub_game  # noqa: E402
from sleuth.games.lima.rules import TREASURE  # noqa: E402
from sleuth.games.lima.simulate import simulate as lima_game  # noqa: E402
from sleuth.model import Model, Tally, Term  # noqa: E402
from sleuth.record import parse  # noqa: E402
from sleuth.solve import BudgetExceeded, engines, split, split_pairs  # noqa: E402
from sleuth.solve.reference import DictRun  # noqa: E402
from sleuth.solve.vector import VectorRun  # noqa: E402


def enumerated(model: Model, question, holder) -> dict:
    """answer -> (total, held, pairs of ``holder``) over the worlds, by listing every deal."""
    space = model.space
    out: dict = {}
    for deal in deals(list(space.holders), space.sizes, list(space.items)):
        if not all(
            sum(value(t, deal) for t in tally.terms) in tally.values for tally in model.tallies
        ):
            continue
        answer = sum(value(t, deal) for t in question)
        keys = [(h, i) for h in space.holders for i in space.items]
        total, held, pairs = out.setdefault(answer, [0, dict.fromkeys(keys, 0), {}])
        out[answer][0] = total + 1
        for item, owner in deal.items():
            held[owner, item] += 1
        mine = sorted(i for i, owner in deal.items() if owner == holder)
        for pair in combinations(mine, 2):
            pairs[frozenset(pair)] = pairs.get(frozenset(pair), 0) + 1
    return {a: tuple(v) for a, v in out.items()}


def on(engine, fn, *args):
    """``fn(*args)`` with every run on one engine."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engines, "choose", lambda p: engine)
        return fn(*args)


@st.composite
def questions(draw, model: Model):
    """A sum of 1-3 terms ("any" or count) over the model's holders and items."""
    space = model.space
    return tuple(
        Term(
            draw(st.sampled_from(space.holders)),
            frozenset(draw(st.sets(st.sampled_from(space.items), min_size=1, max_size=5))),
            draw(st.booleans()),
        )
        for _ in range(draw(st.integers(1, 3)))
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models(), st.data())
def test_split_and_pairs_equal_enumeration_on_both_engines(model, data):
    question = data.draw(questions(model))
    holder = data.draw(st.sampled_from(model.space.holders))
    want = enumerated(model, question, holder)
    for engine in (DictRun, VectorRun):
        found = on(engine, split_pairs, model, question, holder)
        got = {a: (c.total, c.held, pairs) for a, (c, pairs) in found.items()}
        assert got == want, engine
        counts = on(engine, split, model, question)
        assert {a: (c.total, c.held) for a, c in counts.items()} == {
            a: (t, h) for a, (t, h, _) in want.items()
        }, engine


@pytest.mark.parametrize("seed", range(1, 4))  # seed 0 (4 events) took half a minute alone
def test_goldraub_three_players_equal_brute_force(seed):
    record = parse(goldraub_game(3, 4 + seed, seed)[0], "sim")
    model = record.model()
    for row in list(record.start.city.rows)[seed::5]:
        question = gnext.question(record, row)
        want = {}
        for answer in range(3):
            tally = Tally(question, frozenset({answer}))
            total, held = brute_count(model.with_group(0, model.groups[0] + (tally,)))
            if total:
                want[answer] = (total, held)
        for engine in (DictRun, VectorRun):
            got = on(engine, split, model, question)
            assert {a: (c.total, c.held) for a, c in got.items()} == want, (row, engine)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3), (6, 4)])
def test_goldraub_split_equals_one_count_per_answer(players, seed):
    record = parse(goldraub_game(players, 2 * players, seed)[0], "sim")
    model = record.model()
    for row in list(record.start.city.rows)[seed::7]:
        question = gnext.question(record, row)
        new, old = answer_counts(model, question), per_value.answer_counts(model, question)
        assert {a: (c.total, c.held) for a, c in new.items()} == {
            a: (c.total, c.held) for a, c in old.items()
        }, row


@pytest.mark.parametrize(("players", "seed"), [(3, 2), (4, 5), (5, 1)])
def test_lima_pairs_per_answer_equal_one_count_per_answer_and_first_item(players, seed):
    record = parse(lima_game(players, 8, seed)[0], "sim")
    model = record.model()
    items = list(model.space.items)
    others = record.table.others(record.table.me)
    for to, start in [(others[0], 0), (others[-1], seed)]:
        question = (Term(to, frozenset(items[start : start + 7])),)
        counts, fall = pair_split(model, TREASURE, question)
        old_counts, old = per_value.pair_split(model, TREASURE, question)
        assert {a: (c.total, c.held) for a, c in counts.items()} == {
            a: (c.total, c.held) for a, c in old_counts.items()
        }
        assert fall == old


def test_a_decided_answer_is_the_whole_count():
    """A question over items whose holders are all known: one answer, every world."""
    record = parse(goldraub_game(3, 4, 1)[0], "sim")
    model = record.model()
    total, held = brute_count(model)
    mine = [i for i in model.space.items if held[record.table.me, i]]
    question = (Term(record.table.me, frozenset(mine[:2])),)
    ((answer, counts),) = split(model, question).items()
    assert answer == 2 and (counts.total, counts.held) == (total, held)


def test_split_keeps_to_its_budget():
    """A hard 6-player state: the split stops, as ``count`` does, once its budget is spent."""
    record = parse(goldraub_game(6, 6, 4)[0], "sim")
    question = gnext.question(record, next(iter(record.start.city.rows)))
    with pytest.raises(BudgetExceeded):
        split(record.model(), question, 0.0)
