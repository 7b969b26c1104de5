"""Every backend answers the same on small random models: counter, python-constraint, z3."""

from itertools import combinations

import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.csp import crosscheck

from sleuth.model import Model, Space, Tally, Term, holds
from sleuth.solve import Entailment, count, fixed

FAST = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def spaces(draw) -> Space:
    """2-4 holders (some may hold nothing), 2-8 items, random hand sizes adding up."""
    n = draw(st.integers(2, 4))
    items = tuple(str(11 + k) for k in range(draw(st.integers(2, 8))))
    cuts = sorted(draw(st.lists(st.integers(0, len(items)), min_size=n - 1, max_size=n - 1)))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, len(items)], strict=True)]
    holders = tuple(f"h{k}" for k in range(n))
    return Space(holders, dict(zip(holders, sizes, strict=True)), items)


@st.composite
def tallies(draw, space: Space) -> Tally:
    """A tally of 1-3 terms ("any" or count) whose values may or may not be reachable in a deal."""
    terms = tuple(
        Term(
            draw(st.sampled_from(space.holders)),
            frozenset(draw(st.sets(st.sampled_from(space.items), min_size=1, max_size=4))),
            draw(st.booleans()),
        )
        for _ in range(draw(st.integers(1, 3)))
    )
    top = sum(1 if t.any else len(t.items) for t in terms)
    values = draw(st.sets(st.integers(0, top), min_size=1, max_size=3))
    return Tally(terms, frozenset(values))


@st.composite
def facts(draw, space: Space) -> Tally:
    """A single holding, true or false."""
    holder, item = draw(st.sampled_from(space.holders)), draw(st.sampled_from(space.items))
    return holds(holder, item, draw(st.booleans()))


@st.composite
def models(draw) -> Model:
    """A random space and 1-5 groups of tallies and facts."""
    space = draw(spaces())
    group = st.lists(st.one_of(tallies(space), facts(space)), max_size=3).map(tuple)
    return Model(space, tuple(draw(st.lists(group, min_size=1, max_size=5))))


def deals(holders, sizes, items):
    """Every deal of ``items`` to ``holders`` with hand sizes ``sizes``: plain enumeration."""
    if not holders:
        yield {}
        return
    first, *rest = holders
    for hand in combinations(items, sizes[first]):
        left = [i for i in items if i not in hand]
        for deal in deals(rest, sizes, left):
            yield {**deal, **dict.fromkeys(hand, first)}


def value(term: Term, deal: dict) -> int:
    """A term's value, written out again from its definition."""
    n = len([i for i in term.items if deal[i] == term.holder])
    return min(n, 1) if term.any else n


def enumerate_counts(model: Model) -> tuple[int, dict]:
    """(total, held) by listing every deal and keeping those that satisfy every tally."""
    space = model.space
    held = {(h, i): 0 for h in space.holders for i in space.items}
    total = 0
    for deal in deals(list(space.holders), space.sizes, list(space.items)):
        if all(sum(value(t, deal) for t in tally.terms) in tally.values for tally in model.tallies):
            total += 1
            for item, holder in deal.items():
                held[holder, item] += 1
    return total, held


@FAST
@given(models())
def test_counter_and_crosscheck_equal_plain_enumeration(model):
    total, held = enumerate_counts(model)
    dp, csp = count(model), crosscheck(model)
    assert (dp.total, dp.held) == (total, held)
    assert (csp.total, csp.held) == (total, held)


@FAST
@given(models())
def test_z3_forced_and_consistent_agree_with_counts(model):
    total, held = enumerate_counts(model)
    entail = Entailment(model)
    assert entail.consistent() == (total > 0)
    if total > 0:
        assert entail.forced() == {pair for pair, n in held.items() if n == total}
    else:
        assert entail.forced() == set()


@FAST
@given(models())
def test_z3_conflict_is_a_minimal_unsatisfiable_set(model):
    conflict = Entailment(model).conflict()
    if enumerate_counts(model)[0] > 0:
        assert conflict == []
        return
    assert conflict
    assert enumerate_counts(model.restrict(set(conflict)))[0] == 0
    for group in conflict:
        assert enumerate_counts(model.restrict(set(conflict) - {group}))[0] > 0


@FAST
@given(models())
def test_propagation_fixes_only_what_every_world_holds(model):
    total, held = enumerate_counts(model)
    pairs = set(held)
    forced = fixed(model, pairs)
    excluded = fixed(model, pairs, holding=False)
    assert all(held[pair] == total for pair in forced)
    assert all(held[pair] == 0 for pair in excluded)


def api_terms(entail: Entailment) -> list:
    """The solver's assertions as z3's own Python API makes them, in order (the prefixes' left
    out): the hand sizes, one holder an item, each tally behind its group's guard."""
    space, x = entail.model.space, entail.x
    out = [z3.PbEq([(x[h, i], 1) for h in space.holders], 1) for i in space.items]
    out += [z3.PbEq([(x[h, i], 1) for i in space.items], space.sizes[h]) for h in space.holders]
    for guard, group in zip(entail.guards, entail.model.groups, strict=True):
        for tally in group:
            lits = []
            for term in tally.terms:
                held = [x[term.holder, i] for i in sorted(term.items)]
                lits += [z3.Or(held)] if term.any else held
            sums = [z3.PbEq([(lit, 1) for lit in lits], v) for v in sorted(tally.values)]
            empty = z3.BoolVal(0 in tally.values, entail.ctx)
            out.append(z3.Implies(guard, z3.Or(sums) if lits else empty))
    return out


@FAST
@given(models())
def test_z3_holds_the_terms_its_own_api_makes(model):
    """``Entailment`` makes its terms by z3's C functions, skipping the API's checks: the same
    terms, so every answer and every unsat core is z3's as before."""
    entail = Entailment(model)
    expected = api_terms(entail)
    made = list(entail.solver.assertions())[: len(expected)]
    assert len(made) == len(expected) and all(a.eq(b) for a, b in zip(made, expected, strict=True))


def test_crosscheck_counts_a_known_space():
    space = Space(("a", "b", "c"), {"a": 2, "b": 2, "c": 2}, tuple("123456"))
    assert crosscheck(Model(space, ((),))).total == 90
    model = Model(space, ((holds("a", "1"), Tally((Term("b", frozenset("23"), True),), {0})),))
    result = crosscheck(model)
    assert result.total == 9  # a's other card in 2-3 (2 x 3 ways for b) or in 4-6 (3 x 1)
    assert result.held["a", "1"] == 9 and result.held["b", "2"] == 0
