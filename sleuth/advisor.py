"""The advisor's arithmetic: a question's answer split over the worlds, and what it teaches.

A *question* is a sum of terms (as a ``Tally`` states it, its value left open): asking it splits
the worlds of the record by the value the answer would take. ``answer_counts`` gives that
split exactly, one ``Counts`` per possible answer, and ``pair_split`` the pairs of a two-item
holder per answer too, each in one counting pass with the question's tally left open
(``sleuth.solve.split``); everything else here reads them. All worlds are equally likely
(``sleuth.model``), so the chance of an answer is its share of the worlds.

A turn's questions are independent counts: ``answer_splits`` and ``pair_splits`` run a batch of
them, in worker processes when the machine has more than one core (``sleuth.parallel``), each
within the command's deadline when one is given: a question not counted by then (or past the
engine's bound) comes back as None, never as a guess.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from sleuth.budget import Deadline
from sleuth.model import Holder, Item, Model, Term
from sleuth.parallel import batch
from sleuth.solve import BudgetExceeded, Counts, layered_split, layers, split, split_pairs

if TYPE_CHECKING:
    pass

Question = tuple[Term, ...]  # e.g. (Term("Bert", frozenset({"31", "32"}), True), ...)
Split = dict[int, Counts]  # answer -> the counts of the worlds giving it, e.g. {0: ..., 1: ...}
Pairs = dict[frozenset, int]  # pair of items -> worlds, e.g. {frozenset({"3F", "7M"}): 12}


def entropy(weights: Iterable[int | Fraction]) -> float:
    """The entropy in bits of the distribution proportional to ``weights``."""
    weights = [w for w in weights if w > 0]
    total = sum(weights)
    shares = [float(w / total) for w in weights]  # a ratio of ints is correctly rounded
    return -sum(p * math.log2(p) for p in shares) + 0.0


def answer_counts(model: Model, question: Question, budget: float | None = None) -> Split:
    """The worlds of ``model`` split by the question's value: answer -> Counts, none empty.

    BudgetExceeded after ``budget`` seconds (None: no limit).
    """
    return split(model, question, budget)


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


def pair_split(
    model: Model, holder: Holder, question: Question, budget: float | None = None
) -> tuple[Split, PairSplit]:
    """The worlds and the pairs of ``holder`` (of two items) per answer of ``question``.

    The pairs before the answer are the sum of those after it. BudgetExceeded as
    ``answer_counts``.
    """
    found = split_pairs(model, question, holder, budget)
    before: Pairs = {}
    for _, pairs in found.values():
        for pair, n in pairs.items():
            before[pair] = before.get(pair, 0) + n
    after = {value: pairs for value, (_, pairs) in found.items()}
    return {value: counts for value, (counts, _) in found.items()}, PairSplit(before, after)


def answer_splits(
    model: Model, questions: Sequence[Question], deadline: Deadline | None = None
) -> list[Split | None]:
    """``answer_counts`` of each question, in order; in workers when it pays (``batch``).

    The record is counted once with its layers kept, and each question only over the layers
    its items span (``sleuth.solve.layers``); where the layer engine cannot count the record,
    each question is counted whole. With a ``deadline``, None for each question not counted by
    then.
    """
    if not questions:
        return []
    shared = within(deadline, layers, model, list(questions))
    if shared is not None:
        return batch(lambda q: within(deadline, layered_split, shared, q), questions, due=deadline)
    return batch(lambda q: within(deadline, answer_counts, model, q), questions, due=deadline)


def pair_splits(
    model: Model, holder: Holder, questions: Sequence[Question], deadline: Deadline | None = None
) -> list[tuple[Split, PairSplit] | None]:
    """``pair_split`` of each question, in order; in workers when it pays; None as above."""
    return batch(lambda q: within(deadline, pair_split, model, holder, q), questions, due=deadline)


def within(deadline: Deadline | None, job: Callable, *args):
    """``job(*args, budget)`` with the time left before ``deadline``; None once it is out.

    None as well when the count needs more states than its engine may keep (``TooBig``): an
    answer that cannot be counted is left out, not guessed. Without a deadline, no limit.
    """
    if deadline is None:
        return job(*args)
    if deadline.passed():
        return None
    try:
        return job(*args, deadline.left())
    except BudgetExceeded:  # TooBig too
        return None


def best_holding(counts: Counts, holdings: Iterable[tuple[Holder, Item]]) -> Fraction:
    """The largest probability among ``holdings`` in these counts (0 with none)."""
    return max((Fraction(counts.held[h], counts.total) for h in holdings), default=Fraction(0))


def shares(answers: dict[int, Fraction]) -> str:
    """An answer distribution in a few characters: "0:17 1:53 2:31" (percent)."""
    return " ".join(f"{a}:{round(float(p) * 100)}" for a, p in answers.items())
