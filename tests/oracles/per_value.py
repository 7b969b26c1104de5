"""A question's answer split the old way, one count per answer value: for tests only.

``answer_counts`` and ``pair_split`` are what ``sleuth.advisor`` computed before it counted with
the question's tally left open (``sleuth.solve.split``): the question added as a tally of one
value, counted for each value, and for the pairs one more count per first item held. Tests
assert that both ways give the same numbers.
"""

from __future__ import annotations

from sleuth.advisor import Pairs, PairSplit, Question, Split
from sleuth.model import Holder, Model, Tally, Term
from sleuth.solve import Counts, count


def adding(model: Model, tally: Tally) -> Model:
    """The model with ``tally`` added to the setup facts."""
    return model.with_group(0, model.groups[0] + (tally,))


def highest(model: Model, question: Question) -> int:
    """The largest value the question's sum can take by the hand sizes alone."""
    sizes = model.space.sizes
    return sum(1 if t.any else min(len(t.items), sizes[t.holder]) for t in question)


def answer_counts(model: Model, question: Question) -> Split:
    """The worlds split by the question's value: one count per answer but the last.

    The last is the whole less the others.
    """
    base = count(model)
    split: Split = {}
    values = range(highest(model, question) + 1)
    for value in values[:-1]:
        part = count(adding(model, Tally(question, frozenset({value}))))
        if part.total:
            split[value] = part
    rest = base.total - sum(c.total for c in split.values())
    if rest:
        held = {k: n - sum(c.held[k] for c in split.values()) for k, n in base.held.items()}
        split[values[-1]] = Counts(rest, held)
    return split


def pairs(model: Model, holder: Holder, counts: Counts) -> Pairs:
    """The worlds per pair ``holder`` (of two items) holds: one count per first item.

    Each item the holder may hold, but the last two, is fixed in turn; the count with it held
    gives, per later item, the worlds where the holder holds both. The pair of the last two is
    what the second-last item's worlds leave.
    """
    possible = [x for x in model.space.items if counts.held[holder, x]]
    out: Pairs = {}
    for k, first in enumerate(possible[:-2]):
        given = count(adding(model, Tally((Term(holder, frozenset({first})),), frozenset({1}))))
        for second in possible[k + 1 :]:
            if given.held[holder, second]:
                out[frozenset({first, second})] = given.held[holder, second]
    if len(possible) >= 2:
        *earlier, first, last = possible
        left = counts.held[holder, first] - sum(out.get(frozenset({e, first}), 0) for e in earlier)
        if left:
            out[frozenset({first, last})] = left
    return out


def pair_split(model: Model, holder: Holder, question: Question) -> tuple[Split, PairSplit]:
    """The split and the holder's pairs per answer: one count per answer and first item."""
    split = answer_counts(model, question)
    after = {}
    for value, part in split.items():
        after[value] = pairs(adding(model, Tally(question, frozenset({value}))), holder, part)
    return split, PairSplit(pairs(model, holder, count(model)), after)
