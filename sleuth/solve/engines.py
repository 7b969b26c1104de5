"""The interface both counting engines implement, and the choice between them.

``reference.DictRun`` (dictionaries of Python integers, the reference) and ``vector.VectorRun``
(whole layers in numpy, int64) run the same program (``steps.Steps``) and keep the same
states; the race of item orders (``order.race``) drives either through ``Run``.
"""

from __future__ import annotations

from collections.abc import Sequence, Sized
from typing import Protocol, runtime_checkable

from sleuth.solve.counts import Counts
from sleuth.solve.merge import Kernels
from sleuth.solve.plan import Plan
from sleuth.solve.reference import DictRun
from sleuth.solve.simplify import Reduced
from sleuth.solve.steps import Steps
from sleuth.solve.vector import VectorRun, fits


@runtime_checkable
class Run(Protocol):
    """A forward pass in one item order, advanced a little at a time, then a backward pass."""

    p: Plan
    steps: Steps  # its transitions (``steps.width`` feeds the race's forecast)
    size: int  # states made so far, over all layers
    limit: int  # the hard bound: a step that would pass it fails (TooBig)
    back: list  # per layer, each state's ways to finish the deal (a kept backward pass)

    @property
    def layers(self) -> Sequence[Sized]:
        """The states of each layer made so far (the first: the start)."""

    @property
    def done(self) -> bool:
        """Whether every item has been visited."""

    def advance(self, cap: float, deadline: float | None) -> None:
        """Visit items until done or past ``cap`` states; TooBig or BudgetExceeded if not."""

    def answers(self) -> set[int]:
        """The values of the asked tally (``Plan.asked``) in the final states of a finished run."""

    def backward(
        self,
        held: dict,
        reduced: Reduced,
        keep: bool = False,
        strict: bool = False,
        answer: int | None = None,
    ) -> Counts:
        """Total and per-holding counts of a finished run.

        ``keep``: its layers stay for another pass; ``strict``: the counts of the deals that
        break no tolerable group (``steps``); ``answer``: of the deals whose asked tally takes
        that value.
        """

    def pairs(self, holder: int, backs: dict) -> dict:
        """Per key of ``backs`` (kept backward passes' ``back``): worlds per pair it holds."""


class Engine(Protocol):
    """A kind of run: made from a plan in its order; ``states`` states at most."""

    states: int

    def __call__(self, p: Plan, kernels: Kernels | None = None) -> Run:
        """A new run of this plan at its start, with its count's compiled kernels."""


def choose(p: Plan) -> Engine:
    """The layer engine when every count of the plan fits in int64, else the reference one."""
    return VectorRun if fits(p) else DictRun
