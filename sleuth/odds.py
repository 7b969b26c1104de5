"""The odds of a model: exact counts, or a labelled estimate when counting runs out of time.

Every deal of the cards is equally likely before the game, so the probability of a holding is
the number of worlds (deals that fit the record) in which it holds, over the number of worlds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from sleuth.budget import COUNT_SHARE, DEFAULT_BUDGET, Deadline, due
from sleuth.chance import Estimated
from sleuth.model import Holder, Item, Model
from sleuth.solve import BudgetExceeded, Remembered, count, estimate

if TYPE_CHECKING:
    from sleuth.solve import Entailment

LEAST = 0.2  # seconds an exact count gets even past the deadline: a small one still finishes
THIN = 100  # sampled deals that fit the record, at least, before an estimate gives any odds


@dataclass(frozen=True)
class Odds:
    """Worlds and per-holding counts: exact, or a sampled estimate with a 95% interval.

    An estimate's ``base`` is the number of sampled deals that fit the record; with none, the
    worlds are not known at all (``known``), only that z3 found one.
    """

    worlds: int
    exact: bool
    held: dict[tuple[Holder, Item], int]
    base: int
    interval: tuple[int, int] | None = None
    samples: int = 0

    @property
    def known(self) -> bool:
        """Whether the worlds were counted, or estimated from at least one sampled deal."""
        return self.exact or self.base > 0

    @property
    def thin(self) -> bool:
        """Whether too few sampled deals fit the record to estimate any probability (``THIN``)."""
        return not self.exact and self.base < THIN

    def probability(self, holder: Holder, item: Item) -> Fraction | None:
        """The probability that ``holder`` holds ``item``: exact, ``Estimated``, or None.

        None when no deal fits, and for an estimate from fewer than ``THIN`` sampled deals.
        """
        if not self.base or self.thin:
            return None
        if self.exact:
            return Fraction(self.held[holder, item], self.base)
        return Estimated.of(self.held[holder, item], self.base)


def odds(
    model: Model,
    budget: float | Deadline = DEFAULT_BUDGET,
    entail: Entailment | None = None,
    sharp: Model | None = None,
    memory: Remembered | None = None,
    plain: bool = False,
) -> Odds:
    """Exact counts within 85% of the time left, else a sampled estimate until the deadline.

    ``budget``: seconds from now, or the ``Deadline`` of the whole answer. z3 first states
    every impossible holding as a fact (``sharp``, when the caller has it): the worlds are the
    same, and the counter has far fewer states to visit. With ``plain`` the count takes the
    model as it is (its own propagation is about as strong where counts are hard) and z3
    sharpens only for the estimate, within the time left. ``memory``: see ``count``.
    """
    deadline = due(budget)
    if not plain:
        sharp = sharp or _solver(model, entail).sharpened()
    return exactly(sharp or model, deadline, memory) or estimated(model, deadline, entail, sharp)


def exactly(model: Model, deadline: Deadline, memory: Remembered | None = None) -> Odds | None:
    """The exact counts within 85% of the time left (``LEAST`` at least); None if unfinished."""
    try:
        counts = count(model, max(COUNT_SHARE * deadline.left(), LEAST), memory)
    except BudgetExceeded:
        return None  # sample outside the handler: its traceback would keep the failed layers
    return Odds(counts.total, True, counts.held, counts.total)


def estimated(
    model: Model, deadline: Deadline, entail: Entailment | None = None, sharp: Model | None = None
) -> Odds:
    """A sampled estimate until the deadline, of the model sharpened by z3 unless ``sharp``."""
    sharp = sharp or _solver(model, entail).sharpened(seconds=deadline.left() / 4)
    guess = estimate(sharp, deadline.left())
    return Odds(guess.worlds, False, guess.held, guess.kept, (guess.low, guess.high), guess.samples)


def _solver(model: Model, entail: Entailment | None) -> Entailment:
    """``entail``, or z3 loaded with the model (imported only now)."""
    from sleuth.solve import Entailment

    return entail or Entailment(model)


def scaled(result: Odds) -> dict[tuple[Holder, Item], int]:
    """Per-holding counts on the scale of worlds (estimates scaled from their kept draws)."""
    if result.exact or not result.base:
        return dict(result.held)
    return {k: round(n * result.worlds / result.base) for k, n in result.held.items()}


NO_DEAL = Odds(0, True, {}, 0)
UNCOUNTED = Odds(0, False, {}, 0)  # a deal fits (z3 says so), but none was counted or sampled
