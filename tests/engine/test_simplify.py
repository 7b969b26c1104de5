"""Propagation and pruning that must not change a count: nested tallies, and the item bound.

Tiny spaces, so every deal can be listed and counted directly.
"""

from itertools import permutations

from sleuth.model import Model, Space, Tally, Term
from sleuth.solve import count
from sleuth.solve.hits import FAR, fewest
from sleuth.solve.plan import plan, with_order
from sleuth.solve.simplify import reduce
from sleuth.solve.steps import Steps
from sleuth.solve.vector import VectorRun

ITEMS = tuple("abcdefgh")
SPACE = Space(("A", "B", "C", "aside"), {"A": 2, "B": 2, "C": 2, "aside": 2}, ITEMS)
ROW = frozenset("abc")


def _any(holder: str, items: frozenset[str] = ROW) -> Term:
    return Term(holder, items, True)


def _deals(space: Space):
    """Every deal of the space, as item -> holder."""
    seats = [h for h in space.holders for _ in range(space.sizes[h])]
    for seating in set(permutations(seats)):
        yield dict(zip(space.items, seating, strict=True))


def _listed(model: Model) -> int:
    return sum(all(t.holds(deal) for t in model.tallies) for deal in _deals(model.space))


def test_a_tally_containing_a_single_valued_one_keeps_only_the_difference():
    gold = Tally((_any("A"), _any("B"), _any("C")), frozenset({2}))
    saw = Tally((_any("A"), _any("B")), frozenset({1}))
    model = Model(SPACE, ((gold, saw),))
    reduced = reduce(model)
    assert Tally((_any("C"),), frozenset({1})) in reduced.tallies
    assert all(len(t.terms) < 3 for t in reduced.tallies)
    assert count(model).total == _listed(model) > 0


def test_nested_tallies_that_disagree_leave_no_deal():
    gold = Tally((_any("A"), _any("B")), frozenset({0}))
    saw = Tally((_any("A"),), frozenset({1}))
    model = Model(SPACE, ((gold, saw),))
    assert count(model).total == _listed(model) == 0


def test_a_row_that_needs_more_hits_than_it_has_items_left_is_cut_at_once():
    # Two items in the row, and two of the three players must hit it: after the first item
    # goes aside, one item is left for two hits. Three players could still hit the row, so
    # only the bound on what the remaining items can add sees that this state is dead.
    row = frozenset("ab")
    gold = Tally((_any("A", row), _any("B", row), _any("C", row)), frozenset({2}))
    model = Model(SPACE, ((gold,),))
    reduced = reduce(model)
    p = plan(model, reduced)
    run = VectorRun(with_order(p, ["a", "b"], reduced))
    run.advance(1, None)
    assert len(run.layers[1]) == 3  # a to A, B or C; a aside is gone
    run.advance(float("inf"), None)
    zero = {(h, i): 0 for h in SPACE.holders for i in ITEMS}
    assert run.backward(zero, reduced).total == _listed(model)


def test_a_hand_that_can_no_longer_hit_every_set_it_must_is_cut_at_once():
    # A holds 2 items and must hold one of each of {a, b}, {b, c} and {d, e}: b and d, or b
    # and e. With a in A's hand, one card is left for {b, c} and {d, e}, which share no item.
    # Each set alone could still be hit, so only the check on A's whole hand sees it.
    musts = [frozenset("ab"), frozenset("bc"), frozenset("de")]
    model = Model(SPACE, (tuple(Tally((_any("A", s),), frozenset({1})) for s in musts),))
    reduced = reduce(model)
    p = plan(model, reduced)
    order = ["a", *(i for i in p.order if i != "a")]
    run = VectorRun(with_order(p, order, reduced))
    run.advance(1, None)
    assert list(run._caps(run.keys)[0]) == [2, 2, 2]  # a to B, C or aside; a to A is gone
    run.advance(float("inf"), None)
    zero = {(h, i): 0 for h in SPACE.holders for i in ITEMS}
    assert run.backward(zero, reduced).total == _listed(model) > 0
    python = Steps(run.p)
    assert sorted(h for h, _ in python.next_states(0, (2, 2, 2))) == [1, 2, 3]


def test_fewest_items_that_hit_every_set():
    assert fewest({0b01, 0b10}, 3, 2)[0b11] == 2
    assert fewest({0b01, 0b10, 0b11}, 3, 2)[0b11] == 1
    assert fewest({0b001, 0b010, 0b100}, 2, 3)[0b111] == FAR  # three sets, two items: none
