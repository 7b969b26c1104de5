"""Exact counts of worlds and of every holding, by dynamic programming over the items.

The reference engine: the executable statement of the method, state by state in dictionaries.
The program (``steps.Steps``) visits the planned items one at a time; a state's weight is the
number of ways to deal the visited items that reach it, and equal states merge. At the end the
free items are dealt in one multinomial. A backward pass gives, for every item and holder, the
number of worlds in which the holder holds the item.

This is exact: every deal reaches exactly one final state along exactly one path, states merge
only when every future choice has the same effect on them, and all arithmetic is on Python
integers. ``vector.VectorRun`` runs the same program on whole layers, and is tested against
this one.
"""

from __future__ import annotations

import time
from collections import defaultdict

from sleuth.solve import tuning
from sleuth.solve.counts import BudgetExceeded, Counts, TooBig, multinomial
from sleuth.solve.merge import Kernels
from sleuth.solve.plan import Plan
from sleuth.solve.simplify import Reduced
from sleuth.solve.steps import Steps


class DictRun:
    """A forward pass in one order, which can be advanced a little at a time (``engine.Run``)."""

    states = tuning.DICT_STATES

    def __init__(self, p: Plan, kernels: Kernels | None = None):
        """A run at its start; ``kernels`` are not used (Python integers all the way)."""
        self.p = p
        self.steps = Steps(p)
        self.layers: list[dict[tuple, int]] = [{self.steps.start(): 1}]
        self.back: list[dict[tuple, int]] = []  # per layer, once ``backward`` has run
        self.size = 1
        self.limit = type(self).states  # the race reads it; its steps stop at ``states``

    @property
    def done(self) -> bool:
        """Whether every item has been visited."""
        return len(self.layers) > len(self.p.order)

    def advance(self, cap: float, deadline: float | None) -> None:
        """Visit items until done or until more than ``cap`` states have been made."""
        while not self.done and self.size <= cap:
            if self.size > type(self).states:
                raise TooBig
            k = len(self.layers) - 1
            nxt: dict[tuple, int] = defaultdict(int)
            for seen, (state, ways) in enumerate(self.layers[k].items()):
                if deadline is not None and seen % 256 == 0 and time.monotonic() > deadline:
                    raise BudgetExceeded
                for _, after in self.steps.next_states(k, state):
                    nxt[after] += ways
            self.layers.append(nxt)
            self.size += len(nxt)

    def answers(self) -> set[int]:
        """The values of the asked tally in the final states of a finished run."""
        return {self.steps.answer(state) for state in self.layers[-1]}

    def backward(
        self,
        held: dict,
        reduced: Reduced,
        keep: bool = True,
        strict: bool = False,
        answer: int | None = None,
    ) -> Counts:
        """Total and per-holding counts from the forward layers (always kept: ``keep``).

        With ``strict`` (a plan with tolerable groups): of the deals that break none of them;
        with ``answer``: of the deals whose asked tally takes that value (``Plan.asked``).
        """
        p, steps = self.p, self.steps
        nfree = len(p.free)
        back = {}
        free_held = [0] * len(p.holders)
        for state, ways in self.layers[-1].items():
            parts = steps.finish(state)
            other = answer is not None and steps.answer(state) != answer
            mult = 0 if (strict and state[-1]) or other else multinomial(parts)
            back[state] = mult
            if nfree and mult:
                for h, part in enumerate(parts):
                    free_held[h] += ways * (mult * part // nfree)
        self.back = [back]
        for k in range(len(p.order) - 1, -1, -1):
            item, here = p.order[k], {}
            row: dict[int, int] = defaultdict(int)  # by holder
            for state, ways in self.layers[k].items():
                acc = 0
                for h, after in steps.next_states(k, state):
                    value = back.get(after, 0)
                    acc += value
                    row[h] += ways * value
                here[state] = acc
            for h, n in row.items():
                held[p.holders[h], item] = n
            back = here
            self.back.append(back)
        self.back.reverse()
        return p.counts(reduced, held, sum(back.values()), free_held)

    def pairs(self, holder: int, backs: dict) -> dict:
        """Per key of ``backs`` (its backward passes' ``back``): worlds per pair ``holder`` holds.

        One forward pass carries, for every state, the ways to reach it in which the holder
        took each earlier item; each later item it takes then closes a pair with each of them.
        Every item the holder may hold must be visited (``plan``'s ``visited``).
        """
        p, steps = self.p, self.steps
        out: dict = {key: defaultdict(int) for key in backs}
        took: dict[tuple, dict[int, int]] = {}  # state -> first item's step -> ways
        for k, layer in enumerate(self.layers[:-1]):
            nxt: dict[tuple, dict[int, int]] = defaultdict(lambda: defaultdict(int))
            for state, ways in layer.items():
                firsts = took.get(state, {})
                for h, after in steps.next_states(k, state):
                    for first, n in firsts.items():
                        nxt[after][first] += n
                    if h != holder:
                        continue
                    for key, back in backs.items():
                        for first, n in firsts.items():
                            out[key][p.order[first], p.order[k]] += n * back[k + 1].get(after, 0)
                    nxt[after][k] += ways
            took = nxt
        return {key: dict(found) for key, found in out.items()}
