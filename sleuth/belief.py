"""What a game's hidden state is believed to be after a record: the protocol every report keeps.

A game's belief is its part ``believe(record, deadline) -> Belief`` (``sleuth.games.part``);
without one, it is the exact count of the deals that fit the record (``sleuth.analysis``), all
deals equally likely. The shared screens, the JSON report, the status line and the update after
an event read a belief only through ``Belief``: whether some state fits, the chance of each
holding, the facts certain now and those that were certain and stopped, and how many states
are left.

``filtered`` is the belief of a small hidden state that moves: an exact forward filter. The
state starts from a prior that need not be uniform, and each event is a kernel that maps a
state to its next states, each with a weight (the chance of moving there times the chance of
what was seen); e.g. a token passed at random, and draws that miss it with chance (h-1)/h.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from sleuth.model import Holder, Item

if TYPE_CHECKING:
    from sleuth.record import Record

Pair = tuple[Holder, Item]  # e.g. ("Bert", "X"): Bert holds the X card
Kernel = Callable[[Hashable], Iterable[tuple[Hashable, Fraction]]]  # state -> (next, weight)


@dataclass(frozen=True)
class Fact:
    """A holding true in every world, and the first event after which it was; e.g. Bert 32 @1.

    ``since`` is None for a fact certain only under the tolerance (the record itself fits no
    deal); ``robust`` marks a fact that stays certain if any one recorded answer is wrong;
    ``until`` is the event after which it stopped being certain (None: it still is).
    """

    holder: Holder
    item: Item
    since: int | None
    robust: bool = False
    until: int | None = None


@dataclass(frozen=True)
class Left:
    """How many states still fit: e.g. Left(1024, True, "deal"); not exact: an estimate."""

    number: float
    exact: bool
    noun: str


class Belief(Protocol):
    """What the shared screens and the JSON report read of any game's belief."""

    @property
    def record(self) -> Record:
        """The record believed."""

    @property
    def consistent(self) -> bool:
        """Whether some state is analysed (one that fits the record, or the tolerated one)."""

    @property
    def fits(self) -> bool:
        """Whether the record itself, every answer right, fits some state."""

    @property
    def exact(self) -> bool:
        """Whether every chance is exact."""

    @property
    def conflict(self) -> list[int]:
        """When no state fits: the events (1-based) of a minimal set that cannot all hold."""

    @property
    def forced(self) -> list[Fact]:
        """The facts certain now and not known at the setup, by the event that made them so."""

    @property
    def ended(self) -> list[Fact]:
        """The facts that were certain and stopped being so, each with its ``until``."""

    @property
    def left(self) -> Left | None:
        """How many states still fit, or None when that was not counted."""

    def holdings(self) -> tuple[tuple[Holder, ...], tuple[Item, ...]]:
        """The holders and the items whose chances the belief gives."""

    def chance(self, holder: Holder, item: Item) -> Fraction | None:
        """The chance that ``holder`` holds ``item`` now; None when it is not known."""


@dataclass(frozen=True)
class Filtered:
    """The exact belief of a forward filter (``filtered``): each state's chance now."""

    record: Record
    weights: dict[Hashable, Fraction]  # state -> its chance now; empty when no state fits
    facts: list[Fact]  # every holding certain over a run of events, since and until
    conflict: list[int]
    holders: tuple[Holder, ...]
    items: tuple[Item, ...]
    true: Callable[[Hashable], frozenset[Pair]]  # the holdings true in a state
    noun: str = "state"
    exact: bool = True

    @property
    def consistent(self) -> bool:
        """Whether some state fits the record."""
        return bool(self.weights)

    @property
    def fits(self) -> bool:
        """As ``consistent``: a filter tolerates no wrong answer."""
        return self.consistent

    @property
    def forced(self) -> list[Fact]:
        """The facts certain now, but those the setup alone made certain."""
        return [f for f in self.facts if f.until is None and f.since]

    @property
    def ended(self) -> list[Fact]:
        """The facts that stopped being certain."""
        return [f for f in self.facts if f.until is not None]

    @property
    def left(self) -> Left:
        """How many states have a chance above 0."""
        return Left(len(self.weights), True, self.noun)

    def holdings(self) -> tuple[tuple[Holder, ...], tuple[Item, ...]]:
        """The holders and the items of the game."""
        return self.holders, self.items

    def chance(self, holder: Holder, item: Item) -> Fraction | None:
        """The sum of the chances of the states in which ``holder`` holds ``item``."""
        if not self.weights:
            return None
        held = (w for s, w in self.weights.items() if (holder, item) in self.true(s))
        return sum(held, Fraction(0))


def run(prior: dict[Hashable, Fraction], kernels: Sequence[Kernel]) -> list[dict]:
    """The normalised chance of each state after the setup and after each kernel in turn.

    The list stops early, with an empty mapping, at the first kernel after which no state
    has weight above 0.
    """
    total = sum(prior.values(), Fraction(0))
    now = {s: w / total for s, w in prior.items() if w} if total else {}
    out = [now]
    for kernel in kernels:
        if not now:
            break
        after: dict[Hashable, Fraction] = defaultdict(Fraction)
        for state, weight in now.items():
            for following, chance in kernel(state):
                if chance:
                    after[following] += weight * chance
        total = sum(after.values(), Fraction(0))
        now = {s: w / total for s, w in after.items() if w} if total else {}
        out.append(now)
    return out


def runs(certain: list[frozenset[Pair]]) -> list[Fact]:
    """Each stretch of steps over which a holding was certain, as a fact with since and until.

    ``certain[k]``: the holdings true in every state after event k (0: the setup).
    """
    facts = []
    since: dict[Pair, int] = {}
    for k, now in enumerate(certain):
        for pair in sorted(set(since) - now):
            facts.append(Fact(*pair, since.pop(pair), until=k))
        for pair in now - set(since):
            since[pair] = k
    facts += [Fact(*pair, k) for pair, k in since.items()]
    return sorted(facts, key=lambda f: (f.since or 0, f.holder, f.item, f.until or 0))


def core(prior: dict[Hashable, Fraction], kernels: Sequence[Kernel]) -> list[int]:
    """A minimal set of events (1-based) that no state fits together, in order, by deletion.

    ``kernels`` fit no state all together; an event whose kernel can be left out with the
    rest still fitting none is left out, until each one left is needed.
    """
    kept = list(range(1, len(run(prior, kernels))))  # the events up to the first that fails
    for event in list(kept):
        trial = [k for k in kept if k != event]
        if not run(prior, [kernels[k - 1] for k in trial])[-1]:
            kept = trial
    return kept


def filtered(
    record: Record,
    prior: dict[Hashable, Fraction],
    kernels: Sequence[Kernel],
    true: Callable[[Hashable], frozenset[Pair]],
    holdings: tuple[tuple[Holder, ...], tuple[Item, ...]],
    noun: str = "state",
) -> Filtered:
    """The exact belief after ``kernels`` (one per event) from ``prior``: a forward filter.

    ``true(state)``: the holdings true in a state; ``holdings``: the holders and the items
    whose chances are shown. e.g. the state is the holder of a token; a draw that missed it
    weighs the state in which the drawn-from player holds it by (h - 1) / h.
    """
    steps = run(prior, kernels)
    holders, items = holdings
    if not steps[-1]:
        return Filtered(record, {}, [], core(prior, kernels), holders, items, true, noun)
    certain = [frozenset.intersection(*(true(s) for s in step)) for step in steps]
    return Filtered(record, steps[-1], runs(certain), [], holders, items, true, noun)
