"""The advisor's arithmetic: a question's answer split over the worlds, and what it teaches.

A *question* is a sum of terms (as a ``Tally`` states it, its value left open): asking it splits
the worlds of the record by the value the answer would take. ``answer_counts`` gives that
split exactly, one ``Counts`` per possible answer; everything else here reads it. All worlds are
equally likely (``sleuth.model``), so the chance of an answer is its share of the worlds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from sleuth.model import Holder, Item, Model, Tally, Term
from sleuth.solve import Counts, count

Question = tuple[Term, ...]  # e.g. (Term("Bert", frozenset({"31", "32"}), True), ...)
Split = dict[int, Counts]  # answer -> the counts of the worlds giving it, e.g. {0: ..., 1: ...}
Pairs = dict[frozenset, int]  # pair of items -> worlds, e.g. {frozenset({"3F", "7M"}): 12}


def entropy(weights: Iterable[int | Fraction]) -> float:
    """The entropy in bits of the distribution proportional to ``weights``."""
    weights = [w for w in weights if w > 0]
    total = sum(weights)
    return -sum(float(Fraction(w, 1) / total) * math.log2(w / total) for w in weights) + 0.0


def adding(model: Model, tally: Tally) -> Model:
    """The model with ``tally`` added to the setup facts."""
    return model.with_group(0, model.groups[0] + (tally,))


def highest(model: Model, question: Question) -> int:
    """The largest value the question's sum can take by the hand sizes alone."""
    sizes = model.space.sizes
    return sum(1 if t.any else min(len(t.items), sizes[t.holder]) for t in question)


def answer_counts(model: Model, question: Question, base: Counts | None = None) -> Split:
    """The worlds of ``model`` split by the question's value: answer -> Counts, none empty.

    One count per answer but the last, which is the whole (``base``, counted when not given)
    less the others.
    """
    base = base or count(model)
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


def chances(split: Split) -> dict[int, Fraction]:
    """Each answer's probability."""
    total = sum(c.total for c in split.values())
    return {a: Fraction(c.total, total) for a, c in sorted(split.items())}


def information(split: Split) -> float:
    """The entropy of the answer, in bits: what hearing it tells about the deal."""
    return entropy(c.total for c in split.values())


@dataclass(frozen=True)
class PairSplit:
    """The pairs a two-item holder may hold, counted over all worlds and per answer."""

    before: Pairs
    after: dict[int, Pairs]

    def fall(self) -> float:
        """The expected fall of the pair's entropy, in bits, on hearing the answer."""
        total = sum(self.before.values())
        after = sum(sum(p.values()) * entropy(p.values()) for p in self.after.values())
        return entropy(self.before.values()) - after / total

    def certain(self) -> Fraction:
        """The chance that after the answer one pair has probability 1."""
        total = sum(self.before.values())
        sure = sum(sum(p.values()) for p in self.after.values() if len(p) == 1)
        return Fraction(sure, total)


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


def pair_split(
    model: Model, holder: Holder, question: Question, split: Split, before: Pairs
) -> PairSplit:
    """The holder's pairs per answer of ``question`` (its ``split`` and the pairs ``before``)."""
    after = {}
    for value, part in split.items():
        after[value] = pairs(adding(model, Tally(question, frozenset({value}))), holder, part)
    return PairSplit(before, after)


def best_holding(counts: Counts, holdings: Iterable[tuple[Holder, Item]]) -> Fraction:
    """The largest probability among ``holdings`` in these counts (0 with none)."""
    return max((Fraction(counts.held[h], counts.total) for h in holdings), default=Fraction(0))


def shares(answers: dict[int, Fraction]) -> str:
    """An answer distribution in a few characters: "0:17 1:53 2:31" (percent)."""
    return " ".join(f"{a}:{round(float(p) * 100)}" for a, p in answers.items())
