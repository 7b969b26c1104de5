"""One wrong answer tolerated, in one pass: against brute force, both engines, the old way.

``count_tolerant`` counts the deals that break at most one tolerable group in one pass, a label
in the state saying which answer is broken (``sleuth.solve.steps``). It is checked against
plain enumeration on random small models (both engines), against the 3-player Goldraub brute
force, and against the old per-event way (``oracles.tolerance`` in ``tests/``) on simulated records
of both games with one answer altered.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles.brute import brute_count  # noqa: E402
from oracles.tolerance import per_event  # noqa: E402
from test_backends import deals, models, value  # noqa: E402
from test_mistakes import corrupted  # noqa: E402

from sleuth.games.goldraub import simulate as goldraub_sim  # noqa: E402
from sleuth.games.lima import simulate as lima_sim  # noqa: E402
from sleuth.mistakes import tolerant  # noqa: E402
from sleuth.model import Model  # noqa: E402
from sleuth.record import parse  # noqa: E402
from sleuth.solve import Entailment, count_tolerant, engines  # noqa: E402
from sleuth.solve.reference import DictRun  # noqa: E402
from sleuth.solve.vector import VectorRun  # noqa: E402


def broken(model: Model, deal: dict) -> set[int]:
    """The groups of which a deal breaks some tally."""
    return {
        g
        for g, group in enumerate(model.groups)
        for tally in group
        if sum(value(t, deal) for t in tally.terms) not in tally.values
    }


def enumerated(model: Model, tolerable: frozenset[int]) -> tuple[tuple, tuple]:
    """(total, held) of the deals breaking at most one tolerable group and no other; and none."""
    space = model.space
    keys = [(h, i) for h in space.holders for i in space.items]
    out = {"union": [0, dict.fromkeys(keys, 0)], "strict": [0, dict.fromkeys(keys, 0)]}
    for deal in deals(list(space.holders), space.sizes, list(space.items)):
        wrong = broken(model, deal)
        if wrong - tolerable or len(wrong) > 1:
            continue
        for name in ["union"] + ([] if wrong else ["strict"]):
            out[name][0] += 1
            for item, holder in deal.items():
                out[name][1][holder, item] += 1
    return tuple(out["union"]), tuple(out["strict"])


def with_engine(engine, model: Model, tolerable: frozenset[int]):
    """``count_tolerant`` with every run on one engine."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engines, "choose", lambda p: engine)
        return count_tolerant(model, tolerable)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models(), st.data())
def test_one_pass_equals_enumeration_on_both_engines(model, data):
    answers = list(range(1, len(model.groups)))
    tolerable = frozenset(data.draw(st.sets(st.sampled_from(answers))) if answers else ())
    union, strict = enumerated(model, tolerable)
    for engine in (DictRun, VectorRun):
        loose = with_engine(engine, model, tolerable)
        assert (loose.union.total, loose.union.held) == union, engine
        assert (loose.strict.total, loose.strict.held) == strict, engine


def test_a_group_no_deal_satisfies_is_the_broken_one():
    model = parse(goldraub_sim.simulate(3, 3, 1)[0], "sim").model()
    first = model.groups[1][0]
    impossible = type(first)(first.terms, frozenset({99}))
    changed = model.with_group(1, (impossible,))
    loose = count_tolerant(changed, frozenset(range(1, len(model.groups))))
    assert loose.strict.total == 0
    assert loose.union.total == brute_count(model.restrict(set(range(len(model.groups))) - {1}))[0]
    both = changed.with_group(2, (impossible,))
    assert count_tolerant(both, frozenset({1, 2})).union.total == 0


def by_parts(model: Model) -> tuple[int, dict]:
    """The tolerant (total, held) from brute force: strict + sum over answers of (part - strict)."""
    everything = set(range(len(model.groups)))
    total, held = brute_count(model)
    answers = [g for g in everything - {0} if model.groups[g]]
    out_total, out = total, dict(held)
    for e in answers:
        part_total, part = brute_count(model.restrict(everything - {e}))
        out_total += part_total - total
        for k in out:
            out[k] += part[k] - held[k]
    return out_total, out


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5])  # even: as simulated; odd: one answer altered
def test_three_player_goldraub_equals_brute_force(seed):
    doc, _ = goldraub_sim.simulate(3, 6 + seed, seed)
    found = corrupted(doc, random.Random(seed))
    doc = found[0] if found and seed % 2 else doc
    try:
        model = parse(doc, "sim").model()
    except Exception:  # the altered value is not valid input on its own (e.g. gold -1)
        model = parse(goldraub_sim.simulate(3, 6 + seed, seed)[0], "sim").model()
    answers = frozenset(g for g in range(1, len(model.groups)) if model.groups[g])
    total, held = by_parts(model)
    for engine in (DictRun, VectorRun):
        loose = with_engine(engine, model, answers)
        assert (loose.union.total, loose.union.held) == (total, held), engine
        assert (loose.strict.total, loose.strict.held) == brute_count(model), engine


SIMULATED = [
    ("goldraub", 3, lambda seed: goldraub_sim.simulate(3, 10, seed)),
    ("goldraub", 4, lambda seed: goldraub_sim.simulate(4, 10, seed)),
    ("goldraub", 5, lambda seed: goldraub_sim.simulate(5, 12, seed)),
    ("lima", 3, lambda seed: lima_sim.simulate(3, 10, seed)),
    ("lima", 4, lambda seed: lima_sim.simulate(4, 10, seed)),
]


@pytest.mark.parametrize(("game", "players", "make"), SIMULATED)
@pytest.mark.parametrize("seed", range(3))
def test_one_pass_equals_the_per_event_way_with_one_answer_altered(game, players, make, seed):
    doc, _ = make(seed)
    found = corrupted(doc, random.Random(seed))
    if found is None:
        pytest.skip("no answer to change")
    try:
        record = parse(found[0], "sim")
    except Exception:  # the altered value is not valid input on its own (e.g. gold -1)
        pytest.skip("the altered answer is not valid input")
    model = record.model()
    new, old = tolerant(model, Entailment(model), 60.0), per_event(model)
    assert new.odds.exact and old.odds.exact and not new.skipped
    assert new.odds.worlds == old.odds.worlds and new.strict.worlds == old.strict.worlds
    for h in model.space.holders:
        for i in model.space.items:
            assert new.odds.probability(h, i) == old.odds.probability(h, i), (h, i)
            if old.strict.worlds:
                assert new.strict.probability(h, i) == old.strict.probability(h, i), (h, i)
    assert new.robust == old.robust


@pytest.mark.parametrize("engine", [DictRun, VectorRun])
def test_a_tolerable_group_with_no_tally_left_leaves_the_strict_count_whole(engine):
    """Found by the property above: with no tolerable tally, the strict count is the union's."""
    from sleuth.model import Space, Tally, Term

    sizes = {"h0": 0, "h1": 0, "h2": 2, "h3": 1}
    space = Space(("h0", "h1", "h2", "h3"), sizes, ("11", "12", "13"))
    setup = (
        Tally((Term("h0", frozenset({"11"}), False),), frozenset({0})),
        Tally((Term("h2", frozenset({"11", "12"}), False),), frozenset({1})),
    )
    model = Model(space, (setup, ()), ())
    loose = with_engine(engine, model, frozenset({1}))
    union, strict = enumerated(model, frozenset({1}))
    assert (loose.union.total, loose.union.held) == union
    assert (loose.strict.total, loose.strict.held) == strict == (2, strict[1])
