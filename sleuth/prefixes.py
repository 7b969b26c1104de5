"""Every prefix of a record counted: the steps of a deal-counting game's replay.

Step k is what the deal count says of ``record.upto(k)``: its worlds, whether they are exact,
and the holdings that became certain with event k. Consecutive prefixes share work: one count
after another carries the remembered item order (``sleuth.solve.memory``), certain facts are
read off each exact count instead of being dated by z3, and one z3 solver, with a guard literal
per event, answers for any step whose count falls back to an estimate. An event that tells
nothing (a question whose answer I did not hear) keeps the step before; a prefix that fits no
deal makes every longer one fit none, whatever their counts (made in the same batch) say.

It gives plain tuples (``Counted``); ``sleuth.replay`` makes them its steps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from sleuth.budget import Deadline, due
from sleuth.model import Model, Pair
from sleuth.odds import NO_DEAL, Odds, odds
from sleuth.parallel import batch
from sleuth.solve import Entailment, Remembered

if TYPE_CHECKING:
    from sleuth.record import Record

Tick = Callable[[], None]  # called once a prefix is done
Counted = tuple[int, bool, Odds, frozenset[Pair], float]  # event, consistent, odds, new, seconds


def stated(model: Model) -> set[Pair]:
    """The holdings the setup states outright (my hand, tokens I saw, face-up tokens)."""
    out = set()
    for tally in model.groups[0]:
        if tally.values == {1} and len(tally.terms) == 1 and len(tally.terms[0].items) == 1:
            term = tally.terms[0]
            out.add((term.holder, next(iter(term.items))))
    return out


def certain(result: Odds) -> set[Pair]:
    """The holdings of an exact count that hold in every world."""
    return {pair for pair, n in result.held.items() if n == result.worlds and n}


def counted(
    record: Record,
    budget: float,
    memory: Remembered | None = None,
    tick: Tick | None = None,
) -> list[Counted]:
    """Every prefix of the record counted, each count within ``budget`` seconds.

    The prefixes are counted as one batch (``sleuth.parallel``): in forked workers, each
    carries its own copy of ``memory``; then the steps are put together in order, and their
    exact counts are remembered in ``memory`` (a prefix counted before is read from it).
    """
    memory = memory if memory is not None else Remembered()
    model = record.model()
    solver = _Solver(model)
    counted = [k for k in range(len(model.groups)) if k == 0 or model.groups[k]]

    def one(k: int) -> tuple[Odds, frozenset[Pair], float]:
        began = time.monotonic()
        result = _odds(model.prefix(k), solver, k, due(budget), memory)
        now = certain(result) if result.exact else solver.get().forced(range(k + 1))
        return result, frozenset(now), time.monotonic() - began

    found = dict(zip(counted, batch(one, counted, tick), strict=True))
    for k, (result, _, _) in found.items():
        if result.exact:
            memory.keep(model.prefix(k), result.worlds, result.held)
    known = stated(model)
    out: list[Counted] = []
    for k in range(len(model.groups)):
        fits = not out or out[-1][1]
        if k not in found:  # an event that tells nothing: the step before, again
            result, now, seconds = out[-1][2], known, 0.0
            if tick:
                tick()
        else:
            result, now, seconds = found[k]
        if not fits or result.worlds == 0:
            out.append((k, False, NO_DEAL, frozenset(), seconds))
            continue
        out.append((k, True, result, frozenset(now - known), seconds))
        known |= now
    return out


class _Solver:
    """One z3 solver for the record, with a guard per event, made the first time it is asked.

    Only a step whose count falls short asks it (each worker makes its own).
    """

    def __init__(self, model: Model):
        self.model = model
        self.made: Entailment | None = None

    def get(self) -> Entailment:
        """The solver, made now if it is not yet."""
        if self.made is None:
            self.made = Entailment(self.model)
        return self.made


def _odds(prefix: Model, solver: _Solver, k: int, deadline: Deadline, memory) -> Odds:
    """The odds of a prefix as its report has them: exact, or an estimate of at least one world."""
    result = odds(prefix, deadline, memory=memory, plain=True)
    if result.exact:
        return result
    if not solver.get().consistent(range(k + 1)):
        return NO_DEAL
    low, high = result.interval or (result.worlds, result.worlds)
    worlds = max(result.worlds, 1)  # z3 found a deal that fits: there is at least one
    return Odds(worlds, False, result.held, result.base, (max(low, 1), high), result.samples)
